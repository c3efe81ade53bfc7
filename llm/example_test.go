package llm_test

import (
	"context"
	"fmt"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/llm/llmtest"
)

func ExampleClient_Chat() {
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "Paris", Usage: &llmtest.Usage{Prompt: 12, Completion: 1}}
	})
	defer srv.Close()
	c := &llm.Client{
		BaseURL:   srv.URL, // e.g. http://localhost:8000/v1 for vLLM
		Model:     "Qwen/Qwen3-8B",
		ExtraBody: map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}},
		Retries:   3,
	}
	resp, err := c.Chat(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: "system", Content: "Answer in one word."}, {Role: "user", Content: "Capital of France?"}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Text, resp.Usage.Prompt, resp.Usage.Completion)
	// Output: Paris 12 1
}
