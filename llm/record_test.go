package llm_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/llm"
)

func TestNewCallRecord(t *testing.T) {
	msgs := []llm.Message{{Role: "system", Content: "a b"}, {Role: "user", Content: "c d e"}}
	resp := llm.Response{Text: "f g", ReasoningText: "h", FinishReason: "stop", Latency: 1500 * time.Microsecond,
		Attempts: 2, RawRequest: []byte("req"), RawResponse: []byte("resp"), StatusCode: 200,
		Usage: llm.Usage{Prompt: 10, Completion: 3, Reasoning: 1, Cached: 4}}
	words := func(s string) int { return len(strings.Fields(s)) }
	got := llm.NewCallRecord(msgs, resp, nil, words)
	want := llm.CallRecord{Status: llm.StatusOK, HTTPStatus: 200, Attempts: 2, LatencyMS: 1.5, RawRequest: "req",
		RawResponse: "resp", Response: "f g", Reasoning: "h", Finish: "stop", PromptTokens: 10, CompletionTokens: 3,
		ReasoningTokens: 1, CachedTokens: 4, LocalPromptTokens: 5, LocalCompletionTokens: 2}
	if got != want {
		t.Errorf("ok call:\n%+v\nwant\n%+v", got, want)
	}
	// Without a tokenizer the local counts are -1.
	if got := llm.NewCallRecord(msgs, resp, nil, nil); got.LocalPromptTokens != -1 || got.LocalCompletionTokens != -1 {
		t.Errorf("no tokenizer: %d %d", got.LocalPromptTokens, got.LocalCompletionTokens)
	}
	// A failed call keeps what is known of its last attempt, and no answer.
	failed := llm.NewCallRecord(msgs, llm.Response{StatusCode: 503, Attempts: 3, RawResponse: []byte("busy")}, errors.New("boom"), words)
	want = llm.CallRecord{Status: llm.StatusFailed, Error: "boom", HTTPStatus: 503, Attempts: 3, RawResponse: "busy",
		LocalPromptTokens: -1, LocalCompletionTokens: -1}
	if failed != want {
		t.Errorf("failed call:\n%+v\nwant\n%+v", failed, want)
	}
}
