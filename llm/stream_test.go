package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/llm/llmtest"
)

func TestStreaming(t *testing.T) {
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		if r.Seq == 0 {
			return llmtest.Reply{Status: 429}
		}
		return llmtest.Reply{
			Text: "Ada Lovelace wrote the first program.", Reasoning: "Think about Ada. Then answer.",
			Usage: &llmtest.Usage{Prompt: 321, Completion: 17, Reasoning: 6, Cached: 256},
		}
	})
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m", Stream: true, Retries: 1, Backoff: time.Millisecond}
	resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("who?")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Ada Lovelace wrote the first program." || resp.ReasoningText != "Think about Ada. Then answer." ||
		resp.FinishReason != "stop" || resp.Attempts != 2 {
		t.Errorf("response %+v", resp)
	}
	if want := (llm.Usage{Prompt: 321, Completion: 17, Reasoning: 6, Cached: 256}); resp.Usage != want {
		t.Errorf("usage %+v, want %+v", resp.Usage, want)
	}
	r := srv.Requests()[1]
	var opts struct {
		Stream        bool
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Temperature *float64
	}
	if err := json.Unmarshal(r.Body, &opts); err != nil || !opts.Stream || !opts.StreamOptions.IncludeUsage || opts.Temperature == nil || *opts.Temperature != 0 {
		t.Errorf("stream request body %s", r.Body)
	}
	if !bytes.HasPrefix(resp.RawResponse, []byte("data: ")) || !bytes.HasSuffix(resp.RawResponse, []byte("data: [DONE]\n\n")) {
		t.Errorf("raw SSE response %q", resp.RawResponse)
	}
}

// BenchmarkChat64 measures the client's own overhead: 64 calls in flight
// against the in-process server answering at once.
func BenchmarkChat64(b *testing.B) {
	srv := llmtest.New(nil)
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m", MaxConcurrency: 64}
	msgs := userMsg("What is the capital of France? Answer with one word.")
	b.ResetTimer()
	var wg sync.WaitGroup
	work := make(chan struct{})
	var mu sync.Mutex
	var firstErr error
	for range 64 {
		wg.Go(func() {
			for range work {
				if _, err := c.Chat(context.Background(), llm.Request{Messages: msgs}); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}
		})
	}
	start := time.Now()
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
}
