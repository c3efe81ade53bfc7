package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/llm/llmtest"
)

func userMsg(s string) []llm.Message { return []llm.Message{{Role: "user", Content: s}} }

func TestRequestFieldsAndRawCapture(t *testing.T) {
	srv := llmtest.New(nil)
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "qwen3-8b", APIKey: "sk-test"}
	seed := int64(0)
	resp, err := c.Chat(context.Background(), llm.Request{
		Messages:  []llm.Message{{Role: "system", Content: "data here"}, {Role: "user", Content: "who is Ada?"}},
		MaxTokens: 64,
		Seed:      &seed,
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if temp, ok := r.Float("temperature"); !ok || temp != 0 {
		t.Errorf("temperature not sent as 0: %s", r.Body)
	}
	if v, ok := r.Float("max_tokens"); !ok || v != 64 {
		t.Errorf("max_tokens: %s", r.Body)
	}
	if v, ok := r.Float("seed"); !ok || v != 0 {
		t.Errorf("seed 0 not sent: %s", r.Body)
	}
	if r.Model != "qwen3-8b" || len(r.Messages) != 2 || r.Messages[0].Role != "system" ||
		r.Messages[0].Content != "data here" || r.Messages[1].Role != "user" || r.Messages[1].Content != "who is Ada?" {
		t.Errorf("model/messages: %+v %+v", r.Model, r.Messages)
	}
	if r.Stream || r.Has("stream") && string(r.Fields["stream"]) != "false" {
		t.Errorf("stream requested: %s", r.Body)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}
	if resp.Text != "who is Ada?" || resp.FinishReason != "stop" || resp.Model != "qwen3-8b" || resp.Attempts != 1 || resp.StatusCode != 200 {
		t.Errorf("response %+v", resp)
	}
	if !bytes.Equal(resp.RawRequest, r.Body) {
		t.Errorf("RawRequest differs from the body received:\n%s\n%s", resp.RawRequest, r.Body)
	}
	var raw struct {
		Choices []struct {
			Message struct{ Content string }
		}
	}
	if err := json.Unmarshal(resp.RawResponse, &raw); err != nil || len(raw.Choices) != 1 || raw.Choices[0].Message.Content != resp.Text {
		t.Errorf("RawResponse %s (%v)", resp.RawResponse, err)
	}
	if resp.Latency <= 0 {
		t.Errorf("latency %v", resp.Latency)
	}
	// Temperature other than 0 is sent as given; no seed and max_tokens when unset.
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x"), Temperature: 0.7}); err != nil {
		t.Fatal(err)
	}
	r = srv.Requests()[1]
	if temp, ok := r.Float("temperature"); !ok || temp != 0.7 || r.Has("seed") || r.Has("max_tokens") {
		t.Errorf("second body: %s", r.Body)
	}
}

func TestEnvironmentDoesNotOverride(t *testing.T) {
	srv := llmtest.New(nil)
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	c := &llm.Client{BaseURL: srv.URL, Model: "m", APIKey: "sk-explicit"}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-explicit" {
		t.Errorf("Authorization = %q", got)
	}
	// Without a key nothing from the environment is sent.
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	c = &llm.Client{BaseURL: srv.URL, Model: "m"}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")}); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[1].Header
	for _, k := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project"} {
		if v := h.Get(k); v != "" {
			t.Errorf("%s: %q sent from the environment", k, v)
		}
	}
}

func TestExtraBodyFields(t *testing.T) {
	srv := llmtest.New(nil)
	defer srv.Close()
	c := &llm.Client{
		BaseURL: srv.URL, Model: "m",
		ExtraBody: map[string]any{
			"chat_template_kwargs": map[string]any{"enable_thinking": false},
			"top_k":                20,
		},
	}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q"), Extra: map[string]any{"top_k": 5, "min_p": 0.1}}); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	var ctk map[string]any
	if err := json.Unmarshal(r.Fields["chat_template_kwargs"], &ctk); err != nil || len(ctk) != 1 || ctk["enable_thinking"] != false {
		t.Errorf("chat_template_kwargs = %s (%v)", r.Fields["chat_template_kwargs"], err)
	}
	if v, _ := r.Float("top_k"); v != 5 {
		t.Errorf("per-request top_k did not override: %s", r.Body)
	}
	if v, _ := r.Float("min_p"); v != 0.1 {
		t.Errorf("min_p: %s", r.Body)
	}
	if temp, ok := r.Float("temperature"); !ok || temp != 0 {
		t.Errorf("temperature lost with extra fields: %s", r.Body)
	}
}

func TestRetriesOn429And503(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusInternalServerError} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := llmtest.New(llmtest.FailFirst(2, status, llmtest.Echo))
			defer srv.Close()
			c := &llm.Client{BaseURL: srv.URL, Model: "m", Retries: 3, Backoff: time.Millisecond}
			resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("ok")})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "ok" || resp.Attempts != 3 || len(srv.Requests()) != 3 {
				t.Errorf("text %q attempts %d requests %d", resp.Text, resp.Attempts, len(srv.Requests()))
			}
			// Retries exhausted: the last status is reported.
			srv2 := llmtest.New(llmtest.FailFirst(10, status, llmtest.Echo))
			defer srv2.Close()
			c2 := &llm.Client{BaseURL: srv2.URL, Model: "m", Retries: 2, Backoff: time.Millisecond}
			resp, err = c2.Chat(context.Background(), llm.Request{Messages: userMsg("ok")})
			var se *llm.StatusError
			if !errors.As(err, &se) || se.StatusCode != status {
				t.Fatalf("err = %v", err)
			}
			if resp.Attempts != 3 || len(srv2.Requests()) != 3 || resp.StatusCode != status || len(resp.RawResponse) == 0 {
				t.Errorf("attempts %d requests %d status %d raw %q", resp.Attempts, len(srv2.Requests()), resp.StatusCode, resp.RawResponse)
			}
		})
	}
}

func TestNoRetryOn400(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound} {
		srv := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: status} })
		c := &llm.Client{BaseURL: srv.URL, Model: "m", Retries: 5, Backoff: time.Millisecond}
		resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x")})
		var se *llm.StatusError
		if !errors.As(err, &se) || se.StatusCode != status {
			t.Errorf("%d: err = %v", status, err)
		}
		if n := len(srv.Requests()); n != 1 || resp.Attempts != 1 {
			t.Errorf("%d: %d requests, %d attempts", status, n, resp.Attempts)
		}
		srv.Close()
	}
}

// inProcess returns a scripted server off the network and a client of it;
// run inside a synctest bubble, the delays, timeouts and backoffs are on
// virtual time, so the times the tests check are exact.
func inProcess(h llmtest.Handler, c *llm.Client) (*llmtest.Server, *llm.Client) {
	srv := llmtest.NewInProcess(h)
	c.BaseURL, c.HTTPClient = srv.URL, srv.HTTPClient()
	if c.Model == "" {
		c.Model = "m"
	}
	return srv, c
}

func TestRetryAfterHonoured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := inProcess(func(r llmtest.Request) llmtest.Reply {
			if r.Seq == 0 {
				return llmtest.Reply{Status: 429, RetryAfter: "0.3"}
			}
			return llmtest.Echo(r)
		}, &llm.Client{Retries: 1, Backoff: time.Millisecond})
		start := time.Now()
		if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x")}); err != nil {
			t.Fatal(err)
		}
		// Retry-After raises the 1 ms backoff to 300 ms, plus up to 25%
		// jitter.
		if d := time.Since(start); d < 300*time.Millisecond || d > 375*time.Millisecond {
			t.Errorf("retried after %v, want 300ms to 375ms (Retry-After 0.3 and its jitter)", d)
		}
	})
}

func TestRetryOnTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := inProcess(func(r llmtest.Request) llmtest.Reply {
			if r.Seq == 0 {
				return llmtest.Reply{Delay: 5 * time.Second, Text: "late"}
			}
			return llmtest.Reply{Text: "fast"}
		}, &llm.Client{Retries: 1, Backoff: time.Millisecond, Timeout: 100 * time.Millisecond})
		start := time.Now()
		resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x")})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != "fast" || resp.Attempts != 2 {
			t.Errorf("text %q attempts %d", resp.Text, resp.Attempts)
		}
		// The first attempt is given up at its 100 ms timeout, the second
		// is sent after the 1 ms backoff (and its jitter) and answered at
		// once: the 5 s reply is not waited for.
		if d := time.Since(start); d < 101*time.Millisecond || d > 101250*time.Microsecond {
			t.Errorf("took %v, want 100ms + 1ms backoff", d)
		}
		// Without retries the timeout is reported, at the timeout.
		_, c2 := inProcess(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Delay: 5 * time.Second} },
			&llm.Client{Timeout: 50 * time.Millisecond})
		start = time.Now()
		if _, err := c2.Chat(context.Background(), llm.Request{Messages: userMsg("x")}); err == nil {
			t.Error("timeout not reported")
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("timeout reported after %v, want 50ms", d)
		}
	})
}

func TestConcurrencyLimit(t *testing.T) {
	const limit, calls = 3, 24
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Delay: 20 * time.Millisecond, Text: r.Messages[0].Content}
	})
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m", MaxConcurrency: limit}
	var wg sync.WaitGroup
	errs := make([]error, calls)
	texts := make([]string, calls)
	for i := range calls {
		wg.Go(func() {
			resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg(fmt.Sprint(i))})
			errs[i], texts[i] = err, resp.Text
		})
	}
	wg.Wait()
	for i := range calls {
		if errs[i] != nil || texts[i] != fmt.Sprint(i) {
			t.Errorf("call %d: %q %v", i, texts[i], errs[i])
		}
	}
	if m := srv.MaxInFlight(); m > limit || m < limit {
		t.Errorf("server saw at most %d in flight, want exactly %d", m, limit)
	}
	t.Logf("%d calls, limit %d, max in flight at the server %d", calls, limit, srv.MaxInFlight())
}

func TestCancellationIsPrompt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// During a slow response.
		srv, c := inProcess(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Delay: 10 * time.Second} },
			&llm.Client{Retries: 3})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := c.Chat(ctx, llm.Request{Messages: userMsg("x")})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("canceled at 50ms, returned at %v", d)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests after cancellation", n)
		}
		// During a backoff.
		_, c2 := inProcess(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 503} },
			&llm.Client{Retries: 3, Backoff: 10 * time.Second})
		ctx2, cancel2 := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel2)
		start = time.Now()
		_, err = c2.Chat(ctx2, llm.Request{Messages: userMsg("x")})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("canceled during the backoff at 50ms, returned at %v", d)
		}
		// While waiting for a concurrency slot.
		srv3, c3 := inProcess(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Delay: 10 * time.Second} },
			&llm.Client{MaxConcurrency: 1})
		ctx3, cancel3 := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() { c3.Chat(ctx3, llm.Request{Messages: userMsg("x")}) })
		}
		time.Sleep(100 * time.Millisecond)
		start = time.Now()
		cancel3()
		wg.Wait()
		if d := time.Since(start); d != 0 {
			t.Errorf("cancelling queued calls took %v, want no time", d)
		}
		if n := len(srv3.Requests()); n != 1 {
			t.Errorf("%d requests reached the server with a limit of 1", n)
		}
		// An already cancelled context sends nothing.
		n := len(srv.Requests())
		if resp, err := c.Chat(ctx, llm.Request{Messages: userMsg("x")}); !errors.Is(err, context.Canceled) || resp.Attempts != 0 {
			t.Errorf("err = %v, %d attempts", err, resp.Attempts)
		}
		if len(srv.Requests()) != n {
			t.Error("request sent with a cancelled context")
		}
	})
}

func TestUsageAndReasoning(t *testing.T) {
	srv := llmtest.New(func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{
			Text: "Paris", Reasoning: "The capital of France is Paris.",
			Usage: &llmtest.Usage{Prompt: 1234, Completion: 56, Reasoning: 7, Cached: 1024},
		}
	})
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m"}
	resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("capital?")})
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Usage{Prompt: 1234, Completion: 56, Reasoning: 7, Cached: 1024}
	if resp.Usage != want || resp.Text != "Paris" || resp.ReasoningText != "The capital of France is Paris." {
		t.Errorf("got %+v %q %q", resp.Usage, resp.Text, resp.ReasoningText)
	}
}

func TestRawResponses(t *testing.T) {
	cases := []struct {
		name, body string
		text       string
		reasoning  string
		usage      llm.Usage
		fail       bool
	}{
		{
			name: "ollama reasoning field, no usage details",
			body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"4","reasoning":"2+2"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}`,
			text: "4", reasoning: "2+2", usage: llm.Usage{Prompt: 9, Completion: 3},
		},
		{
			name: "null reasoning_content, no usage",
			body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"yes","reasoning_content":null},"finish_reason":"length"}]}`,
			text: "yes",
		},
		{name: "no choices", body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`, fail: true},
		{name: "not JSON", body: `<html>gateway</html>`, fail: true},
		{name: "JSON null", body: `null`, fail: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Raw: []byte(tc.body)} })
			defer srv.Close()
			c := &llm.Client{BaseURL: srv.URL, Model: "m", Retries: 3, Backoff: time.Millisecond}
			resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q")})
			if tc.fail {
				if err == nil {
					t.Fatalf("no error for %s", tc.body)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("malformed 200 response retried: %d requests", n)
				}
				if string(resp.RawResponse) != tc.body {
					t.Errorf("raw response %q", resp.RawResponse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != tc.text || resp.ReasoningText != tc.reasoning || resp.Usage != tc.usage {
				t.Errorf("got %q %q %+v", resp.Text, resp.ReasoningText, resp.Usage)
			}
		})
	}
}

func TestResponseTooLarge(t *testing.T) {
	srv := llmtest.New(func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: string(bytes.Repeat([]byte("a "), 5000))}
	})
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m", Retries: 2, MaxResponseBytes: 1000}
	_, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q")})
	if !errors.Is(err, llm.ErrResponseTooLarge) {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

func TestBadRequests(t *testing.T) {
	c := &llm.Client{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	if _, err := c.Chat(context.Background(), llm.Request{}); err == nil {
		t.Error("no messages: no error")
	}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{{Role: "tool", Content: "x"}}}); err == nil {
		t.Error("unknown role: no error")
	}
	for _, c := range []*llm.Client{{Model: "m"}, {BaseURL: "http://127.0.0.1:1/v1"}, {BaseURL: "not a url", Model: "m"}} {
		if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x")}); err == nil || !strings.Contains(err.Error(), "llm: ") {
			t.Errorf("client %+v: err %v", c, err)
		}
	}
}

func TestConnectionRefusedRetried(t *testing.T) {
	srv := llmtest.New(nil)
	url := srv.URL
	srv.Close()
	c := &llm.Client{BaseURL: url, Model: "m", Retries: 2, Backoff: time.Millisecond}
	resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q")})
	if err == nil || resp.Attempts != 3 || resp.StatusCode != 0 {
		t.Errorf("err %v attempts %d status %d", err, resp.Attempts, resp.StatusCode)
	}
}

func TestManyRetriesBackoffCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := inProcess(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 503} },
			&llm.Client{Retries: 70, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
		start := time.Now()
		resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("x")})
		if err == nil || resp.Attempts != 71 || len(srv.Requests()) != 71 {
			t.Errorf("err %v, %d attempts, %d requests", err, resp.Attempts, len(srv.Requests()))
		}
		// 70 waits: 1 ms, then 2 ms (the cap) 69 times, each plus up to
		// 25% jitter.
		if d, lo := time.Since(start), 139*time.Millisecond; d < lo || d > lo*5/4+70*time.Nanosecond {
			t.Errorf("71 attempts with a 2 ms cap took %v, want %v to %v", d, lo, lo*5/4)
		}
	})
}

// TestAnswerCap: an answer above MaxAnswerBytes is cut (at a character
// boundary) and marked, with its full size, in the response and in the
// call record; the token count is of the kept text.
func TestAnswerCap(t *testing.T) {
	big := strings.Repeat("é", 3000) // 6000 bytes
	srv := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "x" + big, Reasoning: big} })
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL, Model: "m", MaxAnswerBytes: 1000}
	msgs := userMsg("hi")
	resp, err := c.Chat(context.Background(), llm.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Cut || len(resp.Text) != 999 || resp.Text != ("x" + big)[:999] || resp.AnswerBytes != 6001 ||
		len(resp.ReasoningText) != 1000 || resp.ReasoningBytes != 6000 || len(resp.RawResponse) != 1000 || resp.RawResponseBytes < 12000 {
		t.Fatalf("cut %v, text %d bytes of %d, reasoning %d of %d, raw %d of %d", resp.Cut, len(resp.Text), resp.AnswerBytes,
			len(resp.ReasoningText), resp.ReasoningBytes, len(resp.RawResponse), resp.RawResponseBytes)
	}
	counted := 0
	rec := llm.NewCallRecord(msgs, resp, nil, func(s string) int { counted += len(s); return len(s) })
	if !rec.ResponseCut || rec.ResponseBytes != 6001 || rec.ReasoningBytes != 6000 || len(rec.Response) != 999 ||
		rec.LocalCompletionTokens != 999 || rec.Status != llm.StatusOK {
		t.Errorf("record %+v", rec)
	}
	if counted > 2000 {
		t.Errorf("counted %d bytes", counted)
	}
	// Within the default cap nothing is cut or marked.
	c2 := &llm.Client{BaseURL: srv.URL, Model: "m"}
	resp, err = c2.Chat(context.Background(), llm.Request{Messages: msgs})
	if err != nil || resp.Cut || resp.Text != "x"+big {
		t.Errorf("default cap: cut %v, %d bytes, %v", resp.Cut, len(resp.Text), err)
	}
	if rec := llm.NewCallRecord(msgs, resp, nil, nil); rec.ResponseCut || rec.ResponseBytes != 0 {
		t.Errorf("uncut record %+v", rec)
	}
}

// TestHugeAnswerBoundedMemory: a server answering 60 MB is read with the
// answer cut to the cap as it arrives: the call allocates a few times the
// cap (1 MiB), not the body (before: about 4 times 60 MB), and the response
// keeps the sizes as received.
func TestHugeAnswerBoundedMemory(t *testing.T) {
	const size = 60 << 20
	chunk := bytes.Repeat([]byte("A"), 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"`)
		for n := 0; n < size; n += len(chunk) {
			w.Write(chunk)
		}
		io.WriteString(w, `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":7,"total_tokens":10}}`)
	}))
	defer srv.Close()
	c := &llm.Client{BaseURL: srv.URL + "/v1", Model: "m"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("q")})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("a 60 MB answer: %.1f MB allocated", float64(alloc)/(1<<20))
	if alloc > 24<<20 {
		t.Errorf("a 60 MB answer allocated %d MB", alloc>>20)
	}
	if !resp.Cut || len(resp.Text) != llm.DefaultMaxAnswerBytes || resp.AnswerBytes != size ||
		resp.RawResponseBytes < size || len(resp.RawResponse) != llm.DefaultMaxAnswerBytes ||
		resp.Usage.Completion != 7 || resp.FinishReason != "stop" {
		t.Errorf("cut %v, text %d of %d, raw %d of %d, usage %+v, finish %q", resp.Cut, len(resp.Text), resp.AnswerBytes,
			len(resp.RawResponse), resp.RawResponseBytes, resp.Usage, resp.FinishReason)
	}
	rec := llm.NewCallRecord(userMsg("q"), resp, nil, nil)
	if !rec.ResponseCut || rec.ResponseBytes != size || rec.RawResponseBytes != resp.RawResponseBytes {
		t.Errorf("record: cut %v, %d, %d", rec.ResponseCut, rec.ResponseBytes, rec.RawResponseBytes)
	}
}
