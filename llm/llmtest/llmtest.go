// Package llmtest is an in-process OpenAI-compatible chat completions server
// for tests. It answers POST /v1/chat/completions (JSON, or SSE when the
// request sets "stream": true) with replies scripted by a function of the
// request, records every request, counts requests in flight, and can inject
// error statuses and delays. It listens on loopback only, or, made with
// NewInProcess, not at all: its client then hands each request to the server
// in the calling goroutine, so that a test can run in a testing/synctest
// bubble, on virtual time.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// ChatMessage is one message of a recorded request.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is a recorded chat completion request.
type Request struct {
	// Seq numbers requests in arrival order from 0.
	Seq int
	// Header is the request's HTTP header.
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Fields holds every top-level body field, raw.
	Fields map[string]json.RawMessage
	// Model and Messages are decoded from the body.
	Model    string
	Messages []ChatMessage
	// Stream reports "stream": true.
	Stream bool
}

// Has reports whether the body has the top-level field key.
func (r Request) Has(key string) bool { _, ok := r.Fields[key]; return ok }

// Float returns the numeric top-level field key and whether it is present
// and a number.
func (r Request) Float(key string) (float64, bool) {
	raw, ok := r.Fields[key]
	if !ok {
		return 0, false
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0, false
	}
	return f, true
}

// Reply scripts the server's answer to one request.
type Reply struct {
	// Status, if not 0 or 200, is sent with an OpenAI-style error body.
	Status int
	// RetryAfter, if not empty, is sent as the Retry-After header.
	RetryAfter string
	// Delay is waited before answering (cut short when the client goes away).
	Delay time.Duration
	// Text is the assistant message content.
	Text string
	// Reasoning, if not empty, is sent as message.reasoning_content.
	Reasoning string
	// FinishReason defaults to "stop".
	FinishReason string
	// Usage, if nil, is computed: prompt tokens are the whitespace-separated
	// words of all messages, completion tokens those of Text and Reasoning.
	Usage *Usage
	// Raw, if not nil, is sent verbatim as the 200 response body instead of
	// a generated one (for malformed or unusual responses).
	Raw []byte
}

// Usage is the usage object of a reply.
type Usage struct {
	Prompt, Completion, Reasoning, Cached int
}

// Handler computes the reply to a request.
type Handler func(Request) Reply

// Echo answers every request with the content of its last message.
func Echo(r Request) Reply {
	if len(r.Messages) == 0 {
		return Reply{Status: http.StatusBadRequest}
	}
	return Reply{Text: r.Messages[len(r.Messages)-1].Content}
}

// FailFirst returns a handler that answers the first n requests with status
// and passes the rest to next.
func FailFirst(n, status int, next Handler) Handler {
	return func(r Request) Reply {
		if r.Seq < n {
			return Reply{Status: status}
		}
		return next(r)
	}
}

// Server is a running test server. Its URL field is the API base URL to give
// a client (ending in /v1).
type Server struct {
	// URL is the base URL, e.g. "http://127.0.0.1:41234/v1".
	URL string

	srv     *httptest.Server
	handler Handler

	mu          sync.Mutex
	reqs        []Request
	inFlight    int
	maxInFlight int
}

// New starts a server that answers with handler (Echo when nil).
func New(handler Handler) *Server {
	if handler == nil {
		handler = Echo
	}
	s := &Server{handler: handler}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// NewInProcess makes a server that is not on the network: the client
// HTTPClient returns hands every request to it in the calling goroutine.
// Inside a testing/synctest bubble, where time is virtual and moves only
// when every goroutine waits, the replies' delays and a client's timeouts
// and backoffs then happen at exact instants, however busy the machine.
func NewInProcess(handler Handler) *Server {
	if handler == nil {
		handler = Echo
	}
	return &Server{handler: handler, URL: "http://llmtest.invalid/v1"}
}

// HTTPClient returns a client for s: for a server made by NewInProcess the
// only one that reaches it, for one made by New a client of its loopback
// listener.
func (s *Server) HTTPClient() *http.Client {
	if s.srv != nil {
		return s.srv.Client()
	}
	return &http.Client{Transport: inProcess{s}}
}

// inProcess is the transport of an in-process server.
type inProcess struct{ s *Server }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body == nil {
		r.Body = http.NoBody
	}
	defer r.Body.Close()
	w := httptest.NewRecorder()
	p.s.serve(w, r)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	return w.Result(), nil
}

// Close shuts the server down, waiting for handlers to return.
func (s *Server) Close() {
	if s.srv == nil {
		return
	}
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns a copy of the requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// MaxInFlight returns the largest number of requests handled at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

// InFlight returns the number of requests being handled now.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inFlight
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "test_error", "param": nil, "code": fmt.Sprint(status),
	}})
	w.Write(b)
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	if hr.Method != http.MethodPost || hr.URL.Path != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "no route "+hr.Method+" "+hr.URL.Path)
		return
	}
	body, err := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	req := Request{Header: hr.Header.Clone(), Body: body}
	if err := json.Unmarshal(body, &req.Fields); err != nil {
		writeError(w, http.StatusBadRequest, "body is not a JSON object: "+err.Error())
		return
	}
	var dec struct {
		Model    string        `json:"model"`
		Messages []ChatMessage `json:"messages"`
		Stream   bool          `json:"stream"`
	}
	if err := json.Unmarshal(body, &dec); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	req.Model, req.Messages, req.Stream = dec.Model, dec.Messages, dec.Stream

	s.mu.Lock()
	req.Seq = len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()

	rep := s.handler(req)
	if rep.Delay > 0 {
		t := time.NewTimer(rep.Delay)
		select {
		case <-t.C:
		case <-hr.Context().Done():
			t.Stop()
			return
		}
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep.Status, fmt.Sprintf("scripted status %d", rep.Status))
		return
	}
	if rep.Raw != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Write(rep.Raw)
		return
	}
	u := rep.Usage
	if u == nil {
		p := 0
		for _, m := range req.Messages {
			p += len(strings.Fields(m.Content))
		}
		u = &Usage{Prompt: p, Completion: len(strings.Fields(rep.Text)) + len(strings.Fields(rep.Reasoning))}
	}
	if rep.FinishReason == "" {
		rep.FinishReason = "stop"
	}
	if req.Stream {
		s.stream(w, req, rep, u)
		return
	}
	msg := map[string]any{"role": "assistant", "content": rep.Text}
	if rep.Reasoning != "" {
		msg["reasoning_content"] = rep.Reasoning
	}
	out := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", req.Seq),
		"object":  "chat.completion",
		"created": 1764400000 + req.Seq,
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": rep.FinishReason, "logprobs": nil}},
		"usage":   usageJSON(u),
	}
	b, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func usageJSON(u *Usage) map[string]any {
	return map[string]any{
		"prompt_tokens":             u.Prompt,
		"completion_tokens":         u.Completion,
		"total_tokens":              u.Prompt + u.Completion,
		"prompt_tokens_details":     map[string]any{"cached_tokens": u.Cached},
		"completion_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
	}
}

// stream answers with server-sent events: a role chunk, the reasoning and
// text word by word, a finish chunk, a usage chunk when the request asked
// for stream_options.include_usage, and [DONE].
func (s *Server) stream(w http.ResponseWriter, req Request, rep Reply, u *Usage) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	var buf bytes.Buffer
	send := func(v any) {
		buf.Reset()
		b, _ := json.Marshal(v)
		buf.WriteString("data: ")
		buf.Write(b)
		buf.WriteString("\n\n")
		w.Write(buf.Bytes())
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", req.Seq), "object": "chat.completion.chunk",
			"created": 1764400000 + req.Seq, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, piece := range splitKeep(rep.Reasoning) {
		send(chunk(map[string]any{"reasoning_content": piece}, nil))
	}
	for _, piece := range splitKeep(rep.Text) {
		send(chunk(map[string]any{"content": piece}, nil))
	}
	send(chunk(map[string]any{}, rep.FinishReason))
	var opts struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if json.Unmarshal(req.Body, &opts) == nil && opts.StreamOptions.IncludeUsage {
		send(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", req.Seq), "object": "chat.completion.chunk",
			"created": 1764400000 + req.Seq, "model": req.Model, "choices": []any{}, "usage": usageJSON(u),
		})
	}
	w.Write([]byte("data: [DONE]\n\n"))
	if fl != nil {
		fl.Flush()
	}
}

// splitKeep splits s after each space, keeping the spaces, so that the
// pieces concatenate back to s.
func splitKeep(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
