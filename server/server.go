// Package server is the HTTP API of `isolda serve`: the serializer as a
// service for GraphRAG pipelines. It reads a graph in any RDF syntax,
// writes it in any format of the format lab's registry, counts its tokens,
// fits it to a token budget and checks ISOLDA round trips, all as JSON over
// HTTP, with limits on request size, graph size, time and concurrency.
//
// Endpoints (documented in the OpenAPI 3.1 file served at /openapi.json):
//
//	POST /v1/serialize  one format, token count, budget truncation, graph hash
//	POST /v1/compare    many formats with bytes, tokens and losslessness
//	POST /v1/check      an ISOLDA round trip check
//	GET  /v1/formats    the format registry
//	GET  /healthz       liveness
//	GET  /metrics       Prometheus text format
//	GET  /openapi.json  the API description
//	GET  /              the web playground (an embedded page, no CDN)
//
// A graph is sent inline or, when Config.AllowSPARQL is set, named by a
// SPARQL endpoint of Config.SPARQLEndpoints and a CONSTRUCT or DESCRIBE
// query (package sparql).
//
// The package holds no mutable state: everything lives in the handler New
// returns.
package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/isolda/isolda/token"
)

//go:embed openapi.json
var openAPI []byte

// Defaults of Config's limits.
const (
	DefaultMaxRequestBytes = 8 << 20
	DefaultMaxQuads        = 200_000
	DefaultTimeout         = 10 * time.Second
	DefaultMaxConcurrent   = 8
	DefaultTokenizer       = token.O200KBase
	// DefaultMaxFormats bounds the formats of one /v1/compare request.
	DefaultMaxFormats = 64
)

// Config configures the handler. Zero fields take the defaults above.
type Config struct {
	// MaxRequestBytes bounds a request body; a larger one gets 413.
	MaxRequestBytes int64
	// MaxQuads bounds the quads of a graph; a larger graph gets 413.
	MaxQuads int64
	// Timeout bounds the time spent on one request; when it runs out the
	// client gets 503 with Retry-After.
	Timeout time.Duration
	// MaxConcurrent bounds the requests worked on at once; more get 429
	// with Retry-After. A request whose deadline passed keeps its slot
	// until its work really ends, so slow work cannot pile up.
	MaxConcurrent int
	// Tokenizers resolves tokenizer names; nil means
	// token.NewRegistry(token.Options{}).
	Tokenizers *token.Registry
	// AllowedTokenizers are the tokenizer names clients may ask for; empty
	// means Tokenizers.Available() (the embedded encodings and the models
	// of the models folder). Paths and Hugging Face ids are never accepted
	// from clients unless listed here.
	AllowedTokenizers []string
	// DefaultTokenizer is used when a request names none (default
	// o200k_base).
	DefaultTokenizer string
	// MaxFormats bounds the formats of one /v1/compare request.
	MaxFormats int
	// AllowSPARQL lets requests name a SPARQL endpoint and a CONSTRUCT or
	// DESCRIBE query instead of inline data (off by default: a server
	// must not fetch URLs for its clients unless told to).
	AllowSPARQL bool
	// SPARQLEndpoints are the URL prefixes of the endpoints requests may
	// name (and redirects may lead to); with none, no endpoint is allowed.
	// A prefix matches at a path boundary: http://h/sparql allows
	// http://h/sparql and http://h/sparql?default-graph-uri=..., not
	// http://h/sparql2.
	SPARQLEndpoints []string
	// SPARQLClient is the HTTP client for endpoints; nil means
	// http.DefaultClient. Queries end with the request's time limit.
	SPARQLClient *http.Client
	// SPARQLMaxBytes bounds an endpoint's answer (default
	// sparql.DefaultMaxBytes).
	SPARQLMaxBytes int64
}

func (c Config) withDefaults() Config {
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if c.MaxQuads <= 0 {
		c.MaxQuads = DefaultMaxQuads
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.Tokenizers == nil {
		c.Tokenizers = token.NewRegistry(token.Options{})
	}
	if len(c.AllowedTokenizers) == 0 {
		c.AllowedTokenizers = c.Tokenizers.Available()
	}
	c.AllowedTokenizers = slices.Clone(c.AllowedTokenizers)
	slices.Sort(c.AllowedTokenizers)
	if c.DefaultTokenizer == "" {
		c.DefaultTokenizer = DefaultTokenizer
	}
	if c.MaxFormats <= 0 {
		c.MaxFormats = DefaultMaxFormats
	}
	c.SPARQLEndpoints = slices.Clone(c.SPARQLEndpoints)
	return c
}

// server is the state of one handler.
type server struct {
	cfg     Config
	sem     chan struct{}
	metrics *metrics
	mux     *http.ServeMux
}

// New returns the API handler.
func New(cfg Config) http.Handler {
	s := &server{cfg: cfg.withDefaults(), metrics: newMetrics()}
	s.sem = make(chan struct{}, s.cfg.MaxConcurrent)
	mux := http.NewServeMux()
	s.route(mux, "POST /v1/serialize", "serialize", s.work(s.serialize))
	s.route(mux, "POST /v1/compare", "compare", s.work(s.compare))
	s.route(mux, "POST /v1/check", "check", s.work(s.check))
	s.route(mux, "GET /v1/formats", "formats", http.HandlerFunc(s.formats))
	s.route(mux, "GET /healthz", "healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}))
	s.route(mux, "GET /metrics", "metrics", http.HandlerFunc(s.metrics.serve))
	s.route(mux, "GET /openapi.json", "openapi", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(openAPI)
	}))
	s.route(mux, "GET /{$}", "playground", newPlayground(s.cfg))
	// Browsers ask for a site icon on their own; an empty answer keeps their
	// consoles (and the playground's end-to-end test) free of 404 errors.
	s.route(mux, "GET /favicon.ico", "favicon", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.WriteHeader(http.StatusNoContent)
	}))
	s.route(mux, "/", "other", http.HandlerFunc(notFound))
	s.mux = mux
	return s
}

// notFound answers a request no route matches: 405 with Allow when the
// path is an endpoint's, else 404.
func notFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, route := range Routes() {
		method, path, _ := strings.Cut(route, " ")
		if path == r.URL.Path {
			allow = append(allow, method)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, &apiError{Status: http.StatusMethodNotAllowed,
			Msg: fmt.Sprintf("method %s not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))})
		return
	}
	writeError(w, &apiError{Status: http.StatusNotFound, Msg: "no such endpoint: " + r.Method + " " + r.URL.Path})
}

// Routes returns the method and path of every endpoint, in a fixed order.
func Routes() []string {
	return []string{
		"POST /v1/serialize", "POST /v1/compare", "POST /v1/check",
		"GET /v1/formats", "GET /healthz", "GET /metrics", "GET /openapi.json",
		"GET /",
	}
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// route registers h under pattern, instrumented with metrics and panic
// recovery. For method-specific patterns, other methods get a JSON 405.
func (s *server) route(mux *http.ServeMux, pattern, endpoint string, h http.Handler) {
	mux.Handle(pattern, s.instrument(endpoint, h))
}

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (sw *statusWriter) WriteHeader(code int) {
	if sw.status == 0 {
		sw.status = code
	}
	sw.ResponseWriter.WriteHeader(code)
}

func (sw *statusWriter) Write(p []byte) (int, error) {
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	return sw.ResponseWriter.Write(p)
}

// instrument counts requests, times them, tracks the in-flight gauge and
// turns a panic into a 500.
func (s *server) instrument(endpoint string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		s.metrics.inFlight.Add(1)
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				if sw.status == 0 {
					writeError(sw, internalError(v))
				}
			}
			s.metrics.inFlight.Add(-1)
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			s.metrics.observe(endpoint, status, time.Since(start))
		}()
		h.ServeHTTP(sw, r)
	})
}

// apiError is an error response: {error, line, column}.
type apiError struct {
	Status     int    `json:"-"`
	Msg        string `json:"error"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	RetryAfter int    `json:"-"`
}

func (e *apiError) Error() string { return e.Msg }

func internalError(v any) *apiError {
	// The message names only the panic value, never a stack.
	return &apiError{Status: http.StatusInternalServerError, Msg: fmt.Sprintf("internal error: %v", v)}
}

func writeError(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"internal error: cannot encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// workFunc does the work of a POST endpoint on the request body and returns
// the response value or an error.
type workFunc func(ctx context.Context, body []byte) (any, *apiError)

// result is what a worker goroutine hands back.
type result struct {
	v   any
	err *apiError
}

// work wraps a workFunc with the limits: a concurrency slot (429 when none
// is free), the body size (413), the deadline (503) and panic recovery
// (500).
func (s *server) work(fn workFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.sem <- struct{}{}:
		default:
			writeError(w, &apiError{Status: http.StatusTooManyRequests, Msg: "too many concurrent requests", RetryAfter: 1})
			return
		}
		released := false
		defer func() {
			if !released {
				<-s.sem
			}
		}()
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		body, aerr := readBody(w, r, s.cfg.MaxRequestBytes)
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		done := make(chan result, 1)
		released = true // the worker releases the slot when its work ends
		go func() {
			defer func() { <-s.sem }()
			defer func() {
				if v := recover(); v != nil {
					done <- result{err: internalError(v)}
				}
			}()
			v, err := fn(ctx, body)
			done <- result{v, err}
		}()
		select {
		case res := <-done:
			if res.err != nil {
				writeError(w, res.err)
				return
			}
			writeJSON(w, http.StatusOK, res.v)
		case <-ctx.Done():
			if r.Context().Err() != nil {
				// The client went away; nobody reads the answer.
				writeError(w, &apiError{Status: http.StatusServiceUnavailable, Msg: "request canceled"})
				return
			}
			writeError(w, s.timeout())
		}
	})
}

// timeout is the error of a request that ran out of time.
func (s *server) timeout() *apiError {
	return &apiError{Status: http.StatusServiceUnavailable,
		Msg: fmt.Sprintf("request took longer than the time limit (%s)", s.cfg.Timeout), RetryAfter: 1}
}

// readBody reads the whole body, at most limit bytes (413 beyond).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *apiError) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		return nil, &apiError{Status: http.StatusBadRequest, Msg: "cannot read the request body: " + err.Error()}
	}
	return body, nil
}

// readAll is io.ReadAll with a first buffer of the announced length (plus
// one byte to see the end without growing), so that a body whose
// Content-Length is known is read into one allocation of its size instead
// of a series of doublings. size < 0 means unknown; the caller has checked
// size against the limit, and the reader enforces the limit anyway.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size < 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // longer than announced: grow
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func tooLarge(limit int64) *apiError {
	return &apiError{Status: http.StatusRequestEntityTooLarge,
		Msg: fmt.Sprintf("request body larger than the limit of %d bytes", limit)}
}
