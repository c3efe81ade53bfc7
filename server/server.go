// Package server is the HTTP API of `isolda serve`: the serializer as a
// service for GraphRAG pipelines. It reads a graph in any RDF syntax,
// writes it in any format of the format lab's registry, counts its tokens,
// fits it to a token budget and checks ISOLDA round trips, all as JSON over
// HTTP, with limits on request size, graph size, time and concurrency.
//
// The endpoints are the rows of one route table (routes.go): Routes lists
// them and the OpenAPI 3.1 document served at /openapi.json describes them
// (its paths are made from the rows). They are the JSON API under /v1/
// (serialize: one format, token count, budget truncation, graph hash;
// compare: many formats with bytes, tokens and losslessness; check: an
// ISOLDA round trip; decode: an ISOLDA document in an RDF syntax; tokens:
// a token count; chunk: one document per entity, as isolda chunk;
// formats: the registry), /healthz, /metrics
// (Prometheus) and the web playground at / (an embedded page, no CDN).
//
// A graph is sent inline or, when Config.AllowSPARQL is set, named by a
// SPARQL endpoint of Config.SPARQLEndpoints and a CONSTRUCT or DESCRIBE
// query (package sparql).
//
// The service is meant to survive hostile clients: a request passes the
// Host check (against DNS rebinding), the content type check, then its
// body is read whole, bounded in size and arrival rate, before it takes a
// concurrency slot; it reserves its estimated memory from a budget shared
// by the requests in progress as it learns its size (estimate.go); large
// graphs take one of a few slots of their own; and when its time runs out
// its work stops at the next check of its context (parser, writers, graph
// hash) and gives back its slot and memory. With Config.Isolate, large
// requests run in child processes (isolate.go), whose heaps, collectors
// and CPU time do not slow the other requests down and which are killed
// when their time runs out.
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
	"mime"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/isolda/isolda/server/internal/worker"
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
	// DefaultMemoryBudget is the default Config.MemoryBudget: enough for
	// two /v1/compare requests of every format on a graph of
	// DefaultMaxQuads quads.
	DefaultMemoryBudget = 1 << 30
	// DefaultBodyTimeout and DefaultMinBodyRate bound the arrival of a
	// request body: an 8 MiB body may take up to 30 s, and after the
	// first two seconds it must have come at 16 KiB/s on average.
	DefaultBodyTimeout = 30 * time.Second
	DefaultMinBodyRate = 16 << 10
	// DefaultLargeBytes is the default Config.LargeBytes: about 10,000
	// triples of N-Triples.
	DefaultLargeBytes = 1 << 20
	// DefaultLargeQuads is the default Config.LargeQuads: a graph of
	// 10,000 quads (a list of 5,000 items in 10 KB of Turtle) costs about
	// ten times the CPU and memory of the 1,000-quad requests of the load
	// test (BENCHMARKS.md).
	DefaultLargeQuads = 10_000
)

// bodyGrace is the time a body may take before its average rate is
// checked against Config.MinBodyRate (a connection's first packets may be
// slow).
const bodyGrace = 2 * time.Second

// Config configures the handler. Zero fields take the defaults above.
type Config struct {
	// MaxRequestBytes bounds a request body; a larger one gets 413.
	MaxRequestBytes int64
	// MaxQuads bounds the quads of a graph; a larger graph gets 413.
	MaxQuads int64
	// Timeout bounds the time spent on one request; when it runs out the
	// client gets 503 with Retry-After.
	Timeout time.Duration
	// MaxConcurrent bounds the cheap requests worked on at once; more get
	// 429 with Retry-After. A request whose deadline passed keeps its
	// slot until its work really ends, so slow work cannot pile up.
	MaxConcurrent int
	// MaxLarge bounds the large requests worked on at once (default a
	// quarter of MaxConcurrent and half of GOMAXPROCS, at least 1), in
	// slots of their own (admit.go): a request found large gives its
	// MaxConcurrent slot back for a large one, so large requests hold
	// neither the cheap requests' slots nor every CPU; when the large
	// slots are taken, a large request gets 429 with Retry-After, before
	// any worker process is started for it. A request is large when its
	// body is sent to a worker process (Isolation.MinBytes), its graph's
	// data exceeds LargeBytes (default DefaultLargeBytes; an eighth of it
	// for /v1/compare of more than 8 formats), or its parse passes
	// LargeQuads quads (default DefaultLargeQuads).
	MaxLarge   int
	LargeBytes int
	LargeQuads int64
	// MaxPerClient bounds the MaxConcurrent slots one client (an IP
	// address; an IPv6 /64) holds at once (default half of MaxConcurrent,
	// at least 1), and MaxLargePerClient its large slots (default half of
	// MaxLarge, at least 1): its requests beyond get 429 with Retry-After
	// while the other clients keep their share.
	MaxPerClient      int
	MaxLargePerClient int
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

	// MemoryBudget bounds the memory of the requests in progress together,
	// in bytes (default DefaultMemoryBudget). Each request reserves its
	// estimated peak (see estimate.go) in stages: its body as it arrives,
	// its graph as it is parsed, the work on it once the graph's size is
	// known. A request that finds the budget full gets 503 with
	// Retry-After; one that alone needs more than the budget gets 413.
	MemoryBudget int64
	// BodyTimeout bounds the time to receive a request body (default
	// DefaultBodyTimeout), and MinBodyRate its average rate in bytes per
	// second after its first two seconds (default DefaultMinBodyRate); a
	// slower body gets 408. Bodies are read before a concurrency slot is
	// taken, so slow clients hold no slot.
	BodyTimeout time.Duration
	MinBodyRate int64
	// ListenAddr is the address the server listens on (host:port); with
	// no AllowedHosts, it decides the Host headers accepted (see
	// AllowedHosts). Empty means no Host check.
	ListenAddr string
	// AllowedHosts are the accepted Host header values, against DNS
	// rebinding: "name" (any port), "name:port", or "*" (any Host). Empty
	// means: for a loopback ListenAddr, localhost, 127.0.0.1 and [::1]
	// with its port; for an unspecified one (0.0.0.0, [::]), IP literals
	// and localhost with its port; else its host with its port. Other
	// hosts get 403.
	AllowedHosts []string

	// Isolate, when set, works on large requests in child processes
	// (isolate.go): their heap, garbage collector and CPU are then their
	// own, at a lower priority, under an address-space bound, and a child
	// past its deadline is killed. Nil, or a system other than Linux,
	// works on every request in this process.
	Isolate *Isolation
}

// WithDefaults returns c with its zero fields given their defaults (and
// its slices copied), as New does; calling it again changes nothing.
func (c Config) WithDefaults() Config {
	orDefault(&c.MaxRequestBytes, DefaultMaxRequestBytes)
	orDefault(&c.MaxQuads, DefaultMaxQuads)
	orDefault(&c.Timeout, DefaultTimeout)
	orDefault(&c.MaxConcurrent, DefaultMaxConcurrent)
	orDefault(&c.MaxLarge, max(1, min(c.MaxConcurrent/4, runtime.GOMAXPROCS(0)/2)))
	orDefault(&c.LargeBytes, DefaultLargeBytes)
	orDefault(&c.LargeQuads, DefaultLargeQuads)
	orDefault(&c.MaxPerClient, max(1, c.MaxConcurrent/2))
	orDefault(&c.MaxLargePerClient, max(1, c.MaxLarge/2))
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
	orDefault(&c.MaxFormats, DefaultMaxFormats)
	c.SPARQLEndpoints = slices.Clone(c.SPARQLEndpoints)
	orDefault(&c.MemoryBudget, DefaultMemoryBudget)
	orDefault(&c.BodyTimeout, DefaultBodyTimeout)
	orDefault(&c.MinBodyRate, DefaultMinBodyRate)
	c.AllowedHosts = slices.Clone(c.AllowedHosts)
	if c.Isolate != nil {
		iso := *c.Isolate
		iso.Command, iso.Env = slices.Clone(iso.Command), slices.Clone(iso.Env)
		orDefault(&iso.Nice, DefaultIsolationNice)
		c.Isolate = &iso
		if len(iso.Command) == 0 || !worker.Supported() {
			c.Isolate = nil
		}
	}
	return c
}

// orDefault sets *v to d when *v is not positive.
func orDefault[T ~int | ~int64](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// server is the state of one handler.
type server struct {
	cfg     Config
	adm     *admission
	mem     *memBudget
	hosts   hostPolicy
	metrics *metrics
	mux     *http.ServeMux
	// iso is cfg.Isolate: nil works on every request in process.
	iso     *Isolation
	workers *workerStats
}

// New returns the API handler. It panics when Config.AllowedHosts or
// Config.ListenAddr is malformed; CheckHosts tells beforehand.
func New(cfg Config) http.Handler {
	s := &server{cfg: cfg.WithDefaults()}
	hosts, err := newHostPolicy(s.cfg.ListenAddr, s.cfg.AllowedHosts)
	if err != nil {
		panic("server: " + err.Error())
	}
	s.hosts = hosts
	s.mem = &memBudget{limit: s.cfg.MemoryBudget,
		largeLimit: s.cfg.MemoryBudget - cheapReserve(s.cfg.MemoryBudget, s.cfg.MaxConcurrent)}
	s.iso = s.cfg.Isolate
	s.workers = &workerStats{}
	s.adm = newAdmission(s.cfg)
	s.metrics = newMetrics(s.mem, s.workers, s.adm)
	mux := http.NewServeMux()
	for _, e := range endpoints() {
		s.route(mux, e.pattern(), e.Name, e.handler(s))
	}
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

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hosts.allowed(r.Host) {
		s.instrument("host", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			unreadBody(w, r)
			writeError(w, &apiError{Status: http.StatusForbidden, Msg: fmt.Sprintf(
				"Host %s is not allowed on this server (see isolda serve --allowed-hosts)", quoteCapped(r.Host, 100))})
		})).ServeHTTP(w, r)
		return
	}
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

// Unwrap lets http.ResponseController reach the connection (read
// deadlines of request bodies).
func (sw *statusWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }

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
	e.Msg = capMessage(e.Msg)
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

// request is what a workFunc works on: the request's context (canceled
// when its time runs out or its client goes away), its body and its
// memory reservation, which the work raises as it learns the request's
// size.
type request struct {
	ctx  context.Context
	body []byte
	mem  *reservation
	// ticket is the request's admission (admit.go): the slot it holds.
	// Nil in a worker process, where askLarge asks the parent instead.
	ticket *ticket
	// holdsLarge is true once the request holds a large slot.
	holdsLarge bool
	// isolate is true when a large request must move to a worker process
	// (Config.Isolate); askLarge, in a worker, asks the parent for the
	// slot.
	isolate  bool
	askLarge func() *apiError
	// counting is what the reservation holds for token counting
	// (countTokens).
	counting int64
}

// takeLarge takes a large-request slot for req, once, giving its general
// slot back (429 with Retry-After when none is free, or when its client
// holds its share of them); the worker gives it back. With isolation, it
// then returns errIsolate: the work stops, to start again in a worker
// process. Its memory reservation counts as a large one from then on.
func (req *request) takeLarge() *apiError {
	if req.holdsLarge {
		return nil
	}
	if req.askLarge != nil {
		if e := req.askLarge(); e != nil {
			return e
		}
		req.holdsLarge = true
		return nil
	}
	if e := req.ticket.takeLarge(); e != nil {
		return e
	}
	req.holdsLarge = true
	req.mem.markLarge()
	if req.isolate {
		return errIsolate
	}
	return nil
}

// workFunc does the work of a POST endpoint and returns the response value
// or an error.
type workFunc func(req *request) (any, *apiError)

// result is what a worker goroutine hands back: a value, an error, or
// the answer of a worker process.
type result struct {
	v   any
	err *apiError
	raw *rawAnswer
}

// work wraps a workFunc with the limits, in this order: the content type
// (415); a client back before the Retry-After of its last refusal (429);
// for a body announced as one a worker process would take, a free
// large slot (429, the body unread); the body, read whole before anything
// else is held (413 beyond the size limit, 408 when it comes too slowly,
// 503 when the memory budget cannot take it); a slot by cost and client
// (admit.go: 429 when none is free or the client holds its share), then
// the deadline (503) and panic recovery (500). The worker releases the
// slot and the memory reservation when its work really ends: a request
// past its deadline stops at its next check of the context, or its worker
// process is killed. With Config.Isolate, a request of Isolation.MinBytes
// or more, or one the work finds large, is worked on in a worker process
// (isolate.go).
func (s *server) work(endpoint string, fn workFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := checkContentType(r.Header.Get("Content-Type")); e != nil {
			unreadBody(w, r)
			writeError(w, e)
			return
		}
		client := clientOf(r.RemoteAddr)
		if e := s.adm.early(client); e != nil {
			unreadBody(w, r)
			writeError(w, e)
			return
		}
		toWorker := func(n int64) bool { return s.iso != nil && s.iso.MinBytes > 0 && n >= s.iso.MinBytes }
		if toWorker(r.ContentLength) {
			// A body that would go to a worker is refused before it is
			// read when no large slot is free for it.
			if e := s.adm.checkLarge(client); e != nil {
				unreadBody(w, r)
				writeError(w, e)
				return
			}
		}
		mem := s.mem.reserve()
		handedOff := false
		defer func() {
			if !handedOff {
				mem.release()
			}
		}()
		body, aerr := s.readBody(w, r, mem)
		if aerr != nil {
			unreadBody(w, r)
			writeError(w, aerr)
			return
		}
		isolateNow := toWorker(int64(len(body)))
		var tk *ticket
		if isolateNow {
			tk, aerr = s.adm.admitLarge(client)
		} else {
			tk, aerr = s.adm.admit(client)
		}
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		done := make(chan result, 1)
		handedOff = true // the worker releases the slot and the memory
		go func() {
			// The slots and the memory are given back before the result is
			// handed over, so that a client's next request, sent once it
			// has this answer, finds them free.
			var res result
			func() {
				defer func() {
					if v := recover(); v != nil {
						res = result{err: internalError(v)}
					}
				}()
				req := &request{ctx: ctx, body: body, mem: mem, ticket: tk, holdsLarge: tk.large, isolate: s.iso != nil}
				if isolateNow {
					mem.markLarge()
					res = s.isolated(req, endpoint)
					return
				}
				res.v, res.err = fn(req)
				if res.err == errIsolate {
					res = s.isolated(req, endpoint)
				}
			}()
			mem.release()
			tk.release()
			done <- res
		}()
		select {
		case res := <-done:
			if res.raw != nil {
				writeRaw(w, res.raw)
				return
			}
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

// unreadBody marks the connection of a request refused before its body
// was read for closing after the answer: net/http would otherwise read
// the rest of the body (up to 256 KiB) before answering, at the client's
// pace.
func unreadBody(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
}

// timeout is the error of a request that ran out of time.
func (s *server) timeout() *apiError {
	return &apiError{Status: http.StatusServiceUnavailable,
		Msg: fmt.Sprintf("request took longer than the time limit (%s)", s.cfg.Timeout), RetryAfter: 1}
}

// checkContentType requires a JSON body: application/json, with any
// parameters (charset=utf-8).
func checkContentType(ct string) *apiError {
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && mt == "application/json" {
		return nil
	}
	got := "none"
	if ct != "" {
		got = quoteCapped(ct, 100)
	}
	return &apiError{Status: http.StatusUnsupportedMediaType,
		Msg: "Content-Type must be application/json (got " + got + ")"}
}

// initialBody is the first buffer for a body of unknown or large length:
// the buffer then doubles as bytes arrive, and the memory reservation
// with it, so that a client announcing a large body and sending it slowly
// holds little memory.
const initialBody = 256 << 10

// readBody reads the whole body: at most MaxRequestBytes (413 beyond),
// within BodyTimeout and at MinBodyRate after bodyGrace (408 otherwise),
// reserving its buffer in mem as it grows (503 when the budget is full).
// The read deadline of the connection enforces the time limits while a
// read waits; a check after each read enforces them where no deadline can
// be set (handlers called directly).
func (s *server) readBody(w http.ResponseWriter, r *http.Request, mem *reservation) ([]byte, *apiError) {
	limit := s.cfg.MaxRequestBytes
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	rc := http.NewResponseController(w)
	start := time.Now()
	hard := start.Add(s.cfg.BodyTimeout)
	// due is when the body's first n bytes must have arrived.
	due := func(n int) time.Time {
		t := start.Add(bodyGrace + time.Duration(float64(n)/float64(s.cfg.MinBodyRate)*float64(time.Second)))
		if t.After(hard) {
			return hard
		}
		return t
	}
	deadlineSet := false
	defer func() {
		if deadlineSet {
			rc.SetReadDeadline(time.Time{})
		}
	}()
	want := limit + 1 // one more byte tells a body at the limit from a longer one
	if r.ContentLength >= 0 {
		want = r.ContentLength + 1
	}
	size := min(want, initialBody)
	if e := mem.growTo(size); e != nil {
		return nil, e
	}
	buf := make([]byte, 0, size)
	body := http.MaxBytesReader(w, r.Body, limit)
	for {
		if len(buf) == cap(buf) {
			size := min(2*int64(cap(buf)), want)
			if size <= int64(cap(buf)) {
				size = int64(cap(buf)) + 1
			}
			if e := mem.growTo(size); e != nil {
				return nil, e
			}
			buf = append(make([]byte, 0, size), buf...)
		}
		d := due(len(buf) + 1)
		if rc.SetReadDeadline(d) == nil {
			deadlineSet = true
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			return nil, tooLarge(limit)
		case err != nil && (errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()),
			time.Now().After(due(len(buf))):
			return nil, s.slowBody(len(buf), time.Since(start))
		case err != nil:
			return nil, &apiError{Status: http.StatusBadRequest, Msg: "cannot read the request body: " + capMessage(err.Error())}
		}
	}
}

// slowBody is the error of a body that came too slowly.
func (s *server) slowBody(got int, took time.Duration) *apiError {
	return &apiError{Status: http.StatusRequestTimeout, Msg: fmt.Sprintf(
		"request body too slow: %d bytes in %s; a body must come at %d bytes/s or more after its first %s, and whole within %s",
		got, took.Round(time.Millisecond), s.cfg.MinBodyRate, bodyGrace, s.cfg.BodyTimeout)}
}

func tooLarge(limit int64) *apiError {
	return &apiError{Status: http.StatusRequestEntityTooLarge,
		Msg: fmt.Sprintf("request body larger than the limit of %d bytes", limit)}
}
