// Package llm is a small client for OpenAI-compatible chat completion
// endpoints (OpenAI, vLLM, llama.cpp's server, Ollama), built on
// github.com/openai/openai-go/v3, for reproducible evaluation runs.
//
// A Client sends chat completions (one JSON body, or a server-sent event
// stream when Client.Stream is set) with the temperature always present in
// the request, so that 0 really means greedy decoding; extra body fields such
// as chat_template_kwargs; a per-client limit on requests in flight; its own
// retries with exponential backoff on 408, 409, 429, 5xx, connection errors
// and per-attempt timeouts (never on other 4xx or on malformed 2xx bodies);
// and cancellation through the context. It reads no OPENAI_* environment
// variables. Every Response carries the exact request and response bodies
// that went over the wire, for append-only logs, and the usage the server
// reported, including reasoning and cached tokens and reasoning text.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
)

// Defaults used when the corresponding Client field is zero.
const (
	DefaultMaxConcurrency   = 1
	DefaultBackoff          = 500 * time.Millisecond
	DefaultMaxBackoff       = 30 * time.Second
	DefaultMaxResponseBytes = 64 << 20
	// DefaultMaxAnswerBytes is the answer cap (Client.MaxAnswerBytes): 1 MiB.
	DefaultMaxAnswerBytes = 1 << 20
)

// Message is one chat message.
type Message struct {
	// Role is "system", "user" or "assistant".
	Role string
	// Content is the message text.
	Content string
}

// Request is one chat completion request.
type Request struct {
	Messages []Message
	// Temperature is always sent, including 0.
	Temperature float64
	// MaxTokens is sent as max_tokens when positive.
	MaxTokens int
	// Seed is sent when non-nil.
	Seed *int64
	// Extra holds additional top-level body fields for this request; they
	// override Client.ExtraBody key by key.
	Extra map[string]any
}

// Usage is the token usage the server reported.
type Usage struct {
	// Prompt and Completion are prompt_tokens and completion_tokens.
	Prompt, Completion int64
	// Reasoning is completion_tokens_details.reasoning_tokens.
	Reasoning int64
	// Cached is prompt_tokens_details.cached_tokens.
	Cached int64
}

// Response is the outcome of a chat completion. On error the fields
// describing the last attempt (RawRequest, RawResponse, StatusCode, Latency,
// Attempts) are still filled in as far as they are known.
type Response struct {
	// Text is the first choice's message content.
	Text string
	// ReasoningText is the first choice's reasoning_content (vLLM, DeepSeek)
	// or reasoning (Ollama, newer vLLM) field, if any.
	ReasoningText string
	// FinishReason is the first choice's finish_reason.
	FinishReason string
	// Model is the model name the server reported.
	Model string
	Usage Usage
	// Latency is the duration of the last attempt, from sending the request
	// to reading the whole response body.
	Latency time.Duration
	// Attempts is the number of HTTP attempts made (1 without retries).
	Attempts int
	// RawRequest and RawResponse are the bodies of the last attempt exactly
	// as sent and received.
	RawRequest, RawResponse []byte
	// StatusCode is the HTTP status of the last attempt (0 if none arrived).
	StatusCode int
	// AnswerBytes and ReasoningBytes are the sizes of the answer and of the
	// reasoning as received, before Client.MaxAnswerBytes cut them;
	// RawResponseBytes is the size of the response body.
	AnswerBytes, ReasoningBytes, RawResponseBytes int
	// Cut is set when Text, ReasoningText or RawResponse were cut to
	// Client.MaxAnswerBytes (then they hold the first bytes only, Text and
	// ReasoningText cut at a character boundary).
	Cut bool
}

// Client sends chat completions to one model of one OpenAI-compatible
// endpoint. Set its fields before the first call and do not change or copy
// it afterwards; it is safe for concurrent use.
type Client struct {
	// BaseURL is the API root, e.g. "http://localhost:8000/v1".
	BaseURL string
	// Model is the model name sent with every request.
	Model string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// ExtraBody holds additional top-level body fields sent with every
	// request, e.g. {"chat_template_kwargs": {"enable_thinking": false}}.
	ExtraBody map[string]any
	// MaxConcurrency bounds the HTTP requests in flight through this client;
	// 0 means DefaultMaxConcurrency. Waiting for a slot honours the context.
	MaxConcurrency int
	// Timeout bounds each attempt (0: no per-attempt limit; the context still
	// applies). A timed-out attempt is retried.
	Timeout time.Duration
	// Retries is the number of retries after the first attempt.
	Retries int
	// Backoff is the delay before the first retry, doubled before each
	// further one up to MaxBackoff, with up to 25% random jitter added. A
	// Retry-After header in seconds raises the delay, capped at MaxBackoff.
	// Zero values mean DefaultBackoff and DefaultMaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxResponseBytes bounds a response body; 0 means
	// DefaultMaxResponseBytes. A larger body fails the call
	// (ErrResponseTooLarge, not retried).
	MaxResponseBytes int64
	// MaxAnswerBytes caps what a successful call keeps of the answer, of
	// the reasoning and of the raw response body: each is cut to its first
	// MaxAnswerBytes bytes and Response.Cut is set, with the full sizes in
	// Response. A hostile or broken server answering 60 MB then costs the
	// caller (token counting, the call log) 1 MiB. 0 means
	// DefaultMaxAnswerBytes; negative means no cap.
	MaxAnswerBytes int
	// HTTPClient is the HTTP client to use; nil means a client of its own
	// whose transport keeps MaxConcurrency idle connections.
	HTTPClient *http.Client
	// Stream asks for a server-sent event stream (with
	// stream_options.include_usage) instead of one JSON body, for servers that
	// cut long non-streamed requests. The stream is read to its end before
	// the call returns; RawResponse then holds the event stream.
	Stream bool

	once sync.Once
	sem  chan struct{}
	svc  openai.ChatCompletionService
}

func (c *Client) init() {
	c.once.Do(func() {
		n := c.MaxConcurrency
		if n <= 0 {
			n = DefaultMaxConcurrency
		}
		c.sem = make(chan struct{}, n)
		hc := c.HTTPClient
		if hc == nil {
			// Keep one idle connection per slot, so that a busy client
			// reuses connections instead of opening new ones.
			hc = &http.Client{}
			if dt, ok := http.DefaultTransport.(*http.Transport); ok {
				tr := dt.Clone()
				tr.MaxIdleConnsPerHost = n
				tr.MaxIdleConns = max(tr.MaxIdleConns, n)
				hc.Transport = tr
			}
		}
		// The service is built without openai.NewClient, which would read
		// OPENAI_* environment variables (base URL, key, organization,
		// custom headers) and could send them to an unrelated endpoint.
		c.svc = openai.NewChatCompletionService(
			option.WithBaseURL(c.BaseURL),
			option.WithAPIKey(c.APIKey),
			option.WithHTTPClient(hc),
			option.WithMaxRetries(0),
		)
	})
}

// StatusError is returned when the server answered with a non-2xx status.
type StatusError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Body is the response body, possibly truncated by MaxResponseBytes.
	Body []byte
}

func (e *StatusError) Error() string {
	const max = 200
	b := e.Body
	if len(b) > max {
		b = b[:max]
	}
	return fmt.Sprintf("llm: HTTP %d: %s", e.StatusCode, bytes.TrimSpace(b))
}

// Retryable reports whether the status is worth retrying: 408, 409, 429
// and every 5xx.
func (e *StatusError) Retryable() bool {
	s := e.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// ErrResponseTooLarge is returned when a response body exceeds
// Client.MaxResponseBytes.
var ErrResponseTooLarge = errors.New("llm: response body too large")

// attempt records what went over the wire in one attempt.
type attempt struct {
	sent              bool // the request reached the transport
	reqBody, respBody []byte
	status            int
	retryAfter        time.Duration
	latency           time.Duration
	err               error // transport-level error seen by the middleware
	// rawBytes is the size of the response body as received (respBody
	// may hold less); cuts are the strings readCut cut, by path.
	rawBytes int64
	cuts     map[string]int
}

// Chat sends one chat completion and returns the first choice. It retries as
// configured, waits for a concurrency slot before each attempt (not while
// backing off), and returns promptly with the context's error when ctx ends.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	c.init()
	params, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	delay := c.Backoff
	if delay <= 0 {
		delay = DefaultBackoff
	}
	maxDelay := c.MaxBackoff
	if maxDelay <= 0 {
		maxDelay = DefaultMaxBackoff
	}
	for try := 0; ; try++ {
		var at attempt
		var cc *openai.ChatCompletion
		var reasoning string
		cc, reasoning, err = c.once1(ctx, params, &at)
		if at.sent {
			resp.Attempts++
			resp.RawRequest, resp.RawResponse = at.reqBody, at.respBody
			resp.StatusCode, resp.Latency = at.status, at.latency
		}
		if err == nil {
			resp, err = fill(resp, cc, reasoning)
			return c.capAnswer(resp, &at), err
		}
		if ctx.Err() != nil {
			return resp, fmt.Errorf("llm: %w", context.Cause(ctx))
		}
		if try >= c.Retries || !retryable(err) {
			return resp, err
		}
		wait := min(delay, maxDelay)
		if at.retryAfter > wait {
			wait = min(at.retryAfter, maxDelay)
		}
		wait += rand.N(wait/4 + 1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return resp, fmt.Errorf("llm: %w (after %v)", context.Cause(ctx), err)
		case <-t.C:
		}
		delay = min(2*delay, maxDelay)
	}
}

// errAttemptTimeout marks an attempt that hit Client.Timeout.
var errAttemptTimeout = errors.New("llm: attempt timed out")

func retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Retryable()
	}
	if errors.Is(err, ErrResponseTooLarge) {
		return false
	}
	var de *decodeError
	if errors.As(err, &de) {
		return false
	}
	// Timeouts and transport errors (refused, reset, EOF).
	return true
}

// decodeError wraps a 2xx response whose body could not be used.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return "llm: bad response: " + e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// once1 performs one attempt under the concurrency limit. For a stream it
// also returns the concatenated reasoning deltas.
func (c *Client) once1(ctx context.Context, params openai.ChatCompletionNewParams, at *attempt) (*openai.ChatCompletion, string, error) {
	if ctx.Err() != nil {
		return nil, "", context.Cause(ctx)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, "", context.Cause(ctx)
	}
	defer func() { <-c.sem }()
	if ctx.Err() != nil { // both were ready and the slot won
		return nil, "", context.Cause(ctx)
	}
	actx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(ctx, c.Timeout, errAttemptTimeout)
		defer cancel()
	}
	limit := c.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	answerCap := c.answerCap()
	mw := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		at.sent = true
		if r.Body != nil {
			b, err := io.ReadAll(r.Body)
			r.Body.Close()
			if err != nil {
				return nil, err
			}
			at.reqBody = b
			r.Body = io.NopCloser(bytes.NewReader(b))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		}
		start := time.Now()
		res, err := next(r)
		if err != nil {
			at.latency = time.Since(start)
			at.err = err
			return nil, err
		}
		at.status = res.StatusCode
		at.retryAfter = parseRetryAfter(res.Header.Get("Retry-After"))
		ok := res.StatusCode >= 200 && res.StatusCode <= 299
		var b []byte
		switch {
		case ok && !c.Stream && answerCap >= 0:
			// Read the body with its long strings cut to the answer
			// cap, so that a 60 MB answer costs about the cap, not the
			// body twice over (as read, then decoded by the SDK).
			cb, err := readCut(res.Body, answerCap, limit, int64(answerCap)*8+envelopeBytes)
			res.Body.Close()
			at.latency = time.Since(start)
			at.respBody, at.rawBytes, at.cuts = cb.out, cb.raw, cb.cuts
			if err != nil {
				at.err = err
				return nil, err
			}
			b = cb.out
		case !ok && answerCap >= 0:
			// An error body: keep its first bytes, count the rest.
			kept, err := io.ReadAll(io.LimitReader(res.Body, int64(answerCap)))
			var rest int64
			if err == nil {
				rest, err = io.Copy(io.Discard, io.LimitReader(res.Body, limit+1-int64(len(kept))))
			}
			res.Body.Close()
			at.latency = time.Since(start)
			at.respBody, at.rawBytes = kept, int64(len(kept))+rest
			if err != nil {
				at.err = err
				return nil, err
			}
			if at.rawBytes > limit {
				at.err = ErrResponseTooLarge
				return nil, ErrResponseTooLarge
			}
			b = kept
		default:
			var err error
			b, err = io.ReadAll(io.LimitReader(res.Body, limit+1))
			res.Body.Close()
			at.latency = time.Since(start)
			if err != nil {
				at.err = err
				return nil, err
			}
			at.rawBytes = int64(len(b))
			if int64(len(b)) > limit {
				at.respBody = b[:limit]
				at.err = ErrResponseTooLarge
				return nil, ErrResponseTooLarge
			}
			at.respBody = b
		}
		if !ok {
			// Report the status ourselves; the SDK never sees the body.
			at.err = &StatusError{StatusCode: res.StatusCode, Body: b}
			return nil, at.err
		}
		res.Body = io.NopCloser(bytes.NewReader(b))
		res.ContentLength = int64(len(b))
		return res, nil
	}
	var cc *openai.ChatCompletion
	var reasoning string
	var err error
	if c.Stream {
		cc, reasoning, err = c.stream(actx, params, mw)
	} else {
		cc, err = c.svc.New(actx, params, option.WithMiddleware(mw))
	}
	if err == nil {
		return cc, reasoning, nil
	}
	if ctx.Err() != nil {
		return nil, "", context.Cause(ctx)
	}
	if context.Cause(actx) == errAttemptTimeout {
		return nil, "", fmt.Errorf("%w after %v", errAttemptTimeout, c.Timeout)
	}
	if at.err != nil {
		return nil, "", at.err
	}
	if at.status >= 200 && at.status <= 299 {
		return nil, "", &decodeError{err}
	}
	return nil, "", err
}

// stream performs a streamed completion and accumulates it.
func (c *Client) stream(ctx context.Context, params openai.ChatCompletionNewParams, mw option.Middleware) (*openai.ChatCompletion, string, error) {
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	st := c.svc.NewStreaming(ctx, params, option.WithMiddleware(mw))
	defer st.Close()
	var acc openai.ChatCompletionAccumulator
	var reasoning strings.Builder
	for st.Next() {
		ch := st.Current()
		if !acc.AddChunk(ch) {
			return nil, "", errors.New("llm: inconsistent stream chunk")
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			reasoning.WriteString(reasoningOf(choice.Delta.JSON.ExtraFields))
		}
	}
	if err := st.Err(); err != nil {
		return nil, "", err
	}
	cc := acc.ChatCompletion
	return &cc, reasoning.String(), nil
}

// reasoningOf returns the reasoning text among a message's or delta's extra
// fields: reasoning_content (vLLM, DeepSeek) or else reasoning (Ollama,
// newer vLLM).
func reasoningOf(fields map[string]respjson.Field) string {
	for _, k := range [...]string{"reasoning_content", "reasoning"} {
		if f, ok := fields[k]; ok && f.Raw() != "" {
			var s string
			if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
				return s
			}
		}
	}
	return ""
}

// parseRetryAfter reads a Retry-After header given in seconds; HTTP dates
// and bad values give 0.
func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || s < 0 || s > 3600 {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// params builds the SDK request.
func (c *Client) params(req Request) (openai.ChatCompletionNewParams, error) {
	if c.Model == "" {
		return openai.ChatCompletionNewParams{}, errors.New("llm: client without a model")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return openai.ChatCompletionNewParams{}, fmt.Errorf("llm: base URL %q is not an http(s) URL", c.BaseURL)
	}
	if len(req.Messages) == 0 {
		return openai.ChatCompletionNewParams{}, errors.New("llm: request without messages")
	}
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs[i] = openai.SystemMessage(m.Content)
		case "user":
			msgs[i] = openai.UserMessage(m.Content)
		case "assistant":
			msgs[i] = openai.AssistantMessage(m.Content)
		default:
			return openai.ChatCompletionNewParams{}, fmt.Errorf("llm: message %d has unknown role %q", i, m.Role)
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:       c.Model,
		Messages:    msgs,
		Temperature: openai.Float(req.Temperature),
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.Seed != nil {
		p.Seed = openai.Int(*req.Seed)
	}
	if len(c.ExtraBody) > 0 || len(req.Extra) > 0 {
		extra := make(map[string]any, len(c.ExtraBody)+len(req.Extra))
		for k, v := range c.ExtraBody {
			extra[k] = v
		}
		for k, v := range req.Extra {
			extra[k] = v
		}
		p.SetExtraFields(extra)
	}
	return p, nil
}

// answerCap is c.MaxAnswerBytes with its default (negative: no cap).
func (c *Client) answerCap() int {
	if c.MaxAnswerBytes == 0 {
		return DefaultMaxAnswerBytes
	}
	return c.MaxAnswerBytes
}

// envelopeBytes is what a response body may hold besides its long strings:
// a body still larger than 8 times the answer cap plus envelopeBytes once its
// strings are cut to the cap fails with ErrResponseTooLarge.
const envelopeBytes = 1 << 20

// Paths of the answer and of the reasoning in a chat completion body.
const (
	answerPath = "choices/0/message/content"
	reasonPath = "choices/0/message/reasoning_content"
	reasonAlt  = "choices/0/message/reasoning"
)

// capAnswer cuts the answer, the reasoning and the raw response body to
// c.MaxAnswerBytes, recording their full sizes (as received, when at says
// the body was read with its strings cut).
func (c *Client) capAnswer(resp Response, at *attempt) Response {
	limit := c.answerCap()
	resp.AnswerBytes, resp.ReasoningBytes, resp.RawResponseBytes = len(resp.Text), len(resp.ReasoningText), len(resp.RawResponse)
	if at.rawBytes > int64(resp.RawResponseBytes) {
		resp.RawResponseBytes = int(at.rawBytes)
	}
	if len(at.cuts) > 0 {
		resp.Cut = true
		if n, ok := at.cuts[answerPath]; ok {
			resp.AnswerBytes = n
		}
		// The reasoning is reasoning_content, else reasoning (reasoningOf).
		if n, ok := at.cuts[reasonPath]; ok {
			resp.ReasoningBytes = n
		} else if n, ok := at.cuts[reasonAlt]; ok && resp.ReasoningText != "" {
			resp.ReasoningBytes = n
		}
	}
	if limit < 0 {
		return resp
	}
	if len(resp.Text) > limit {
		resp.Text, resp.Cut = CutUTF8(resp.Text, limit), true
	}
	if len(resp.ReasoningText) > limit {
		resp.ReasoningText, resp.Cut = CutUTF8(resp.ReasoningText, limit), true
	}
	if len(resp.RawResponse) > limit {
		resp.RawResponse, resp.Cut = resp.RawResponse[:limit:limit], true
	}
	return resp
}

// CutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func CutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// fill copies the parsed completion into resp; streamReasoning, when not
// empty, is the reasoning accumulated from a stream.
func fill(resp Response, cc *openai.ChatCompletion, streamReasoning string) (Response, error) {
	if cc == nil || len(cc.Choices) == 0 {
		return resp, &decodeError{errors.New("no choices")}
	}
	ch := cc.Choices[0]
	resp.Text = ch.Message.Content
	resp.FinishReason = ch.FinishReason
	resp.Model = cc.Model
	resp.ReasoningText = streamReasoning
	if r := reasoningOf(ch.Message.JSON.ExtraFields); r != "" {
		resp.ReasoningText = r
	}
	u := cc.Usage
	resp.Usage = Usage{
		Prompt:     u.PromptTokens,
		Completion: u.CompletionTokens,
		Reasoning:  u.CompletionTokensDetails.ReasoningTokens,
		Cached:     u.PromptTokensDetails.CachedTokens,
	}
	return resp, nil
}
