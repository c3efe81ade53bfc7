package llmtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	return resp, buf.Bytes()
}

func TestJSONWireFormat(t *testing.T) {
	s := New(func(r Request) Reply {
		return Reply{Text: "two words", Reasoning: "hmm", Usage: &Usage{Prompt: 5, Completion: 2, Reasoning: 1, Cached: 3}}
	})
	defer s.Close()
	resp, body := post(t, s.URL, `{"model":"m1","messages":[{"role":"user","content":"a b c"}],"temperature":0,"chat_template_kwargs":{"enable_thinking":false}}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, %s", resp.StatusCode, body)
	}
	var out struct {
		Object  string
		Model   string
		Choices []struct {
			Index   int
			Message struct {
				Role, Content    string
				ReasoningContent string `json:"reasoning_content"`
			}
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			PromptTokens        int `json:"prompt_tokens"`
			CompletionTokens    int `json:"completion_tokens"`
			TotalTokens         int `json:"total_tokens"`
			PromptTokensDetails struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
			CompletionTokensDetails struct {
				ReasoningTokens int `json:"reasoning_tokens"`
			} `json:"completion_tokens_details"`
		}
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	c := out.Choices
	if out.Object != "chat.completion" || out.Model != "m1" || len(c) != 1 || c[0].Message.Role != "assistant" ||
		c[0].Message.Content != "two words" || c[0].Message.ReasoningContent != "hmm" || c[0].FinishReason != "stop" {
		t.Errorf("body %s", body)
	}
	u := out.Usage
	if u.PromptTokens != 5 || u.CompletionTokens != 2 || u.TotalTokens != 7 || u.PromptTokensDetails.CachedTokens != 3 || u.CompletionTokensDetails.ReasoningTokens != 1 {
		t.Errorf("usage %+v", u)
	}
	r := s.Requests()[0]
	if r.Model != "m1" || len(r.Messages) != 1 || r.Messages[0].Content != "a b c" || !r.Has("chat_template_kwargs") {
		t.Errorf("recorded %+v", r)
	}
	if v, ok := r.Float("temperature"); !ok || v != 0 {
		t.Error("temperature not recorded")
	}
}

func TestDefaultUsageCountsWords(t *testing.T) {
	s := New(nil)
	defer s.Close()
	_, body := post(t, s.URL, `{"model":"m","messages":[{"role":"system","content":"one two"},{"role":"user","content":"three four five"}]}`)
	if !bytes.Contains(body, []byte(`"prompt_tokens":5`)) || !bytes.Contains(body, []byte(`"completion_tokens":3`)) {
		t.Errorf("body %s", body)
	}
}

func TestSSEWireFormat(t *testing.T) {
	s := New(func(Request) Reply {
		return Reply{Text: "a b c", Reasoning: "r s", Usage: &Usage{Prompt: 4, Completion: 3}}
	})
	defer s.Close()
	resp, body := post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":true}}`)
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	var text, reasoning, finish string
	var usage map[string]any
	done := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("line %q", line)
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var ch struct {
			Object  string
			Choices []struct {
				Delta struct {
					Content          string
					ReasoningContent string `json:"reasoning_content"`
				}
				FinishReason *string `json:"finish_reason"`
			}
			Usage map[string]any
		}
		if err := json.Unmarshal([]byte(data), &ch); err != nil || ch.Object != "chat.completion.chunk" {
			t.Fatalf("chunk %s: %v", data, err)
		}
		for _, c := range ch.Choices {
			text += c.Delta.Content
			reasoning += c.Delta.ReasoningContent
			if c.FinishReason != nil {
				finish = *c.FinishReason
			}
		}
		if ch.Usage != nil {
			usage = ch.Usage
		}
	}
	if text != "a b c" || reasoning != "r s" || finish != "stop" || !done || usage["prompt_tokens"] != 4.0 {
		t.Errorf("text %q reasoning %q finish %q done %v usage %v", text, reasoning, finish, done, usage)
	}
}

func TestErrorsAndRoutes(t *testing.T) {
	s := New(FailFirst(1, 503, Echo))
	defer s.Close()
	resp, body := post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"x"}]}`)
	var e struct {
		Error struct{ Message string }
	}
	if resp.StatusCode != 503 || json.Unmarshal(body, &e) != nil || e.Error.Message == "" {
		t.Errorf("first: %d %s", resp.StatusCode, body)
	}
	if resp, body = post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"x"}]}`); resp.StatusCode != 200 {
		t.Errorf("second: %d %s", resp.StatusCode, body)
	}
	if resp, _ = post(t, s.URL, `[1,2]`); resp.StatusCode != 400 {
		t.Errorf("non-object body: %d", resp.StatusCode)
	}
	r, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 404 {
		t.Errorf("GET /models: %d", r.StatusCode)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("%d requests recorded, want the 2 valid ones", n)
	}
}

func TestDelayEndsWithClient(t *testing.T) {
	// Close waits for the handlers: had the delay not ended with its
	// client, it would wait the hour, past the test's time limit.
	s := New(func(Request) Reply { return Reply{Delay: time.Hour} })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/chat/completions",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("no error from a cancelled request")
	}
	s.Close()
	if s.InFlight() != 0 || s.MaxInFlight() != 1 {
		t.Errorf("in flight %d, max %d", s.InFlight(), s.MaxInFlight())
	}
}
