package llm_test

import (
	"context"
	"testing"
	"time"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/llm/llmtest"
)

// FuzzResponseBody serves arbitrary bytes as a 200 response, as JSON and as
// an event stream: the client must return (a response or an error) without
// panicking or hanging, and never claim success without a choice.
func FuzzResponseBody(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"x","reasoning_content":"y"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`), false)
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\n"), true)
	f.Add([]byte(`{"choices":[{"index":7,"message":{"content":null}}],"usage":{"prompt_tokens":"x"}}`), false)
	f.Add([]byte("data: {\"choices\":[{\"index\":999999999,\"delta\":{\"content\":\"a\"}}]}\n\n"), true)
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`), false)
	f.Fuzz(func(t *testing.T, body []byte, stream bool) {
		if len(body) > 1<<16 {
			return
		}
		s := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Raw: body} })
		defer s.Close()
		c := &llm.Client{BaseURL: s.URL, Model: "m", Stream: stream, Timeout: 5 * time.Second}
		resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q")})
		if err == nil && resp.StatusCode != 200 {
			t.Errorf("success with status %d", resp.StatusCode)
		}
	})
}
