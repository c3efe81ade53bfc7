package server

// Large requests in child processes (Config.Isolate). A large request's
// allocation drives garbage collections over a large heap in the process
// that serves everyone: the small requests beside it pay GC assists and
// share the CPUs with it (p99 from 12 ms to 231 ms in the hostile load
// test, see BENCHMARKS.md). In a child process its heap, collector and
// CPU are its own: the child runs at a lower CPU priority, under an
// address-space bound, and is killed as a process group when its time
// runs out or its client goes away.
//
// The child is the same program in a worker mode (ServeWorker) and runs
// the same handler code, so its answers are the in-process ones, byte for
// byte. It talks with its parent over its standard input and output, one
// JSON message a line:
//
//	child → parent  {"hello": {"vm": N}}          started; its virtual size
//	parent → child  {"endpoint": ..., "config": ..., "timeout": ..., "bytes": N}, then the N bytes of the body
//	child → parent  {"grow": N}                   reserve N bytes in all (as reservation.growTo)
//	child → parent  {"large": true}               take a large-request slot
//	parent → child  {"ok": true} or {"error": {...}}   the answer to either
//	child → parent  {"answer": {"status": S, "retry_after": R, "bytes": N}}, then the N bytes of the JSON body
//
// The parent keeps the request's concurrency slot, large-request slot and
// memory reservation for the child's lifetime: the child's reservations
// are made on the parent's budget, with the parent's messages, and the
// parent reserves workerOverhead more for the process itself.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/isolda/isolda/server/internal/worker"
)

// Isolation configures the child processes of large requests.
type Isolation struct {
	// Command starts a worker: the program and its arguments. The program
	// must call ServeWorker (`isolda serve --worker` does).
	Command []string
	// Env is added to the worker's environment (the server's).
	Env []string
	// MinBytes sends every request whose body has at least MinBytes bytes
	// to a worker; 0 sends only the requests the work finds large (see
	// Config.LargeBytes), once their JSON is decoded.
	MinBytes int64
	// Nice is the niceness the worker gets above the server's (default
	// DefaultIsolationNice; at most 19).
	Nice int
}

// Defaults of the isolation of large requests.
const (
	// DefaultIsolateBytes is the body size from which `isolda serve` sends
	// a request to a worker by default: that of a large request
	// (DefaultLargeBytes); below it, a request costs less than a few
	// milliseconds of work and a process start would dominate.
	DefaultIsolateBytes = DefaultLargeBytes
	// DefaultIsolationNice is the default Isolation.Nice.
	DefaultIsolationNice = 10
)

// Memory of a worker process besides its request's reservation, and its
// address-space bound.
const (
	// workerOverhead is what a worker holds whatever its request (the
	// runtime, the program's tables, a tokenizer loaded): its resident
	// size after a small request is about 30 MB. It is reserved on the
	// memory budget beside the request's reservation.
	workerOverhead = 48 << 20
	// A worker's address space is bounded to its virtual size at start
	// plus asSlack plus asPerReserved times what it reserved: the Go heap
	// grows to about twice the live heap between collections, in 64 MiB
	// arenas, beside thread stacks and runtime metadata.
	asSlack       = 512 << 20
	asPerReserved = 2
	// workerExitGrace is the time a worker has to exit after its answer.
	workerExitGrace = 2 * time.Second
)

// errIsolate is what takeLarge returns when a large request found in
// process must be worked on again in a worker.
var errIsolate = &apiError{Status: http.StatusInternalServerError, Msg: "internal error: a large request was not moved to a worker process"}

// workerStats count the workers of a server, for /metrics.
type workerStats struct {
	mu          sync.Mutex
	started     uint64
	killed      uint64 // at their deadline or when their client went away
	failed      uint64 // out of memory or crashed: no answer
	running     int64
	peakRSS     int64 // largest peak resident size of one worker
	lastPeakRSS int64
}

func (ws *workerStats) start() {
	ws.mu.Lock()
	ws.started++
	ws.running++
	ws.mu.Unlock()
}

// end counts a worker that ended: killed at its deadline or when its
// client went away, or failed (no answer).
func (ws *workerStats) end(e worker.Exit, killed, failed bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.running--
	if killed {
		ws.killed++
	} else if failed {
		ws.failed++
	}
	ws.peakRSS = max(ws.peakRSS, e.PeakRSS)
	ws.lastPeakRSS = e.PeakRSS
}

// wireError is an apiError on the wire.
type wireError struct {
	Status     int    `json:"status"`
	Msg        string `json:"error"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"`
}

func toWire(e *apiError) *wireError {
	return &wireError{Status: e.Status, Msg: e.Msg, Line: e.Line, Column: e.Column, RetryAfter: e.RetryAfter}
}

func (w *wireError) apiError() *apiError {
	return &apiError{Status: w.Status, Msg: w.Msg, Line: w.Line, Column: w.Column, RetryAfter: w.RetryAfter}
}

// childMsg is a message from a worker to its parent.
type childMsg struct {
	Hello  *helloMsg   `json:"hello,omitempty"`
	Grow   int64       `json:"grow,omitempty"`
	Large  bool        `json:"large,omitempty"`
	Answer *answerHead `json:"answer,omitempty"`
}

type helloMsg struct {
	VM int64 `json:"vm"`
}

// answerHead heads a worker's answer; Bytes of JSON body follow.
type answerHead struct {
	Status     int `json:"status"`
	RetryAfter int `json:"retry_after,omitempty"`
	Bytes      int `json:"bytes"`
}

// replyMsg is a parent's answer to a grow or large message.
type replyMsg struct {
	OK    bool       `json:"ok,omitempty"`
	Error *wireError `json:"error,omitempty"`
}

// jobMsg is the request a parent hands its worker; Bytes of body follow.
type jobMsg struct {
	Endpoint string        `json:"endpoint"`
	Config   workerConfig  `json:"config"`
	Timeout  time.Duration `json:"timeout"`
	Bytes    int           `json:"bytes"`
}

// workerConfig is the part of Config a worker's handler reads.
type workerConfig struct {
	MaxRequestBytes   int64    `json:"max_request_bytes"`
	MaxQuads          int64    `json:"max_quads"`
	Timeout           int64    `json:"timeout_ns"`
	MaxLarge          int      `json:"max_large"`
	LargeBytes        int      `json:"large_bytes"`
	LargeQuads        int64    `json:"large_quads"`
	AllowedTokenizers []string `json:"allowed_tokenizers"`
	DefaultTokenizer  string   `json:"default_tokenizer"`
	MaxFormats        int      `json:"max_formats"`
	AllowSPARQL       bool     `json:"allow_sparql,omitempty"`
	SPARQLEndpoints   []string `json:"sparql_endpoints,omitempty"`
	SPARQLMaxBytes    int64    `json:"sparql_max_bytes,omitempty"`
	MemoryBudget      int64    `json:"memory_budget"`
}

func (c Config) worker() workerConfig {
	return workerConfig{
		MaxRequestBytes: c.MaxRequestBytes, MaxQuads: c.MaxQuads, Timeout: int64(c.Timeout),
		MaxLarge: c.MaxLarge, LargeBytes: c.LargeBytes, LargeQuads: c.LargeQuads, AllowedTokenizers: c.AllowedTokenizers,
		DefaultTokenizer: c.DefaultTokenizer, MaxFormats: c.MaxFormats, AllowSPARQL: c.AllowSPARQL,
		SPARQLEndpoints: c.SPARQLEndpoints, SPARQLMaxBytes: c.SPARQLMaxBytes, MemoryBudget: c.MemoryBudget,
	}
}

// apply sets w's fields in c (the worker's own Tokenizers stay).
func (w workerConfig) apply(c Config) Config {
	c.MaxRequestBytes, c.MaxQuads, c.Timeout = w.MaxRequestBytes, w.MaxQuads, time.Duration(w.Timeout)
	c.MaxLarge, c.LargeBytes, c.LargeQuads, c.AllowedTokenizers = w.MaxLarge, w.LargeBytes, w.LargeQuads, w.AllowedTokenizers
	c.DefaultTokenizer, c.MaxFormats, c.AllowSPARQL = w.DefaultTokenizer, w.MaxFormats, w.AllowSPARQL
	c.SPARQLEndpoints, c.SPARQLMaxBytes, c.MemoryBudget = w.SPARQLEndpoints, w.SPARQLMaxBytes, w.MemoryBudget
	c.Isolate = nil
	return c
}

// writeLine writes v as one JSON line.
func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxLine bounds a protocol line (the job's config is the longest).
const maxLine = 1 << 20

// readLine reads one JSON line into v.
func readLine(r *bufio.Reader, v any) error {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("protocol line longer than %d bytes", r.Size())
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

// rawAnswer is a worker's answer, written as it came.
type rawAnswer struct {
	status, retryAfter int
	body               []byte
}

// writeRaw writes an answer of a worker with the headers writeJSON and
// writeError set.
func writeRaw(w http.ResponseWriter, a *rawAnswer) {
	if a.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(a.retryAfter))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// isolated works on req in a worker process and returns its answer. The
// process is killed when req's context is done.
func (s *server) isolated(req *request, endpoint string) result {
	// In the worker, takeLarge asks this process for the slot.
	req.isolate = false
	over := s.mem.reserve()
	defer over.release()
	if e := over.growTo(workerOverhead); e != nil {
		return result{err: e}
	}
	env := append(os.Environ(), s.iso.Env...)
	env = append(env, "GOMEMLIMIT="+strconv.FormatInt(workerOverhead+req.mem.n*3/2, 10))
	p, err := worker.Start(s.iso.Command, worker.Options{Nice: s.iso.Nice, Env: env})
	if err != nil {
		return result{err: &apiError{Status: http.StatusInternalServerError, Msg: "internal error: cannot start a worker process: " + err.Error()}}
	}
	s.workers.start()
	stop := context.AfterFunc(req.ctx, p.Kill)
	c := &conversation{s: s, req: req, p: p, endpoint: endpoint}
	res, cerr := c.run()
	stop()
	if cerr != nil {
		// The answer cannot come any more: stop the child now.
		p.Kill()
	}
	// A child exits once its answer is written; one that does not is
	// stopped rather than waited for with the request's slots.
	late := time.AfterFunc(workerExitGrace, p.Kill)
	exit := p.Wait()
	late.Stop()
	failed := res.raw == nil && res.err == nil
	s.workers.end(exit, failed && req.ctx.Err() != nil, failed)
	switch {
	case !failed:
		return res
	case req.ctx.Err() != nil:
		return result{err: s.timeout()}
	case strings.Contains(exit.Stderr, "out of memory"):
		return result{err: &apiError{Status: http.StatusInternalServerError, Msg: fmt.Sprintf(
			"internal error: the worker process of this request ran out of memory (bound: %s of address space for %s reserved); "+
				"send a smaller graph or fewer formats", mib(c.bound), mib(req.mem.n))}}
	}
	why := "exited"
	if exit.Err != nil {
		why = exit.Err.Error()
	}
	return result{err: &apiError{Status: http.StatusInternalServerError, Msg: fmt.Sprintf(
		"internal error: the worker process of this request ended without an answer (%s: %v)", why, cerr)}}
}

// conversation is a parent's side of the protocol with one worker.
type conversation struct {
	s        *server
	req      *request
	p        *worker.Process
	endpoint string
	vm       int64 // the child's virtual size at start
	bound    int64 // its address-space bound now
}

// limit sets the child's address-space bound for the memory reserved now.
func (c *conversation) limit() {
	c.bound = c.vm + asSlack + asPerReserved*(workerOverhead+c.req.mem.n)
	hard := c.vm + asSlack + asPerReserved*(workerOverhead+c.s.cfg.MemoryBudget)
	// A bound that cannot be set leaves the child bounded by the memory
	// budget's estimates and its GOMEMLIMIT only.
	_ = c.p.LimitMemory(c.bound, hard)
}

func (c *conversation) run() (result, error) {
	var hello childMsg
	if err := readLine(c.p.Stdout, &hello); err != nil || hello.Hello == nil {
		return result{}, fmt.Errorf("no hello from the worker: %v", err)
	}
	c.vm = hello.Hello.VM
	c.limit()
	job := jobMsg{Endpoint: c.endpoint, Config: c.s.cfg.worker(), Bytes: len(c.req.body)}
	if d, ok := c.req.ctx.Deadline(); ok {
		job.Timeout = time.Until(d)
	}
	if err := writeLine(c.p.Stdin, job); err != nil {
		return result{}, err
	}
	if _, err := c.p.Stdin.Write(c.req.body); err != nil {
		return result{}, err
	}
	for {
		var m childMsg
		if err := readLine(c.p.Stdout, &m); err != nil {
			return result{}, err
		}
		var e *apiError
		switch {
		case m.Answer != nil:
			body := make([]byte, m.Answer.Bytes)
			if _, err := io.ReadFull(c.p.Stdout, body); err != nil {
				return result{}, err
			}
			if m.Answer.Status == http.StatusServiceUnavailable && c.req.ctx.Err() != nil {
				// The worker's clock ran out with ours: ours answers.
				return result{err: c.s.timeout()}, nil
			}
			return result{raw: &rawAnswer{status: m.Answer.Status, retryAfter: m.Answer.RetryAfter, body: body}}, nil
		case m.Grow > 0:
			e = c.req.mem.growTo(m.Grow)
			if e == nil {
				c.limit()
			}
		case m.Large:
			e = c.req.takeLarge()
		default:
			return result{}, errors.New("unknown message from the worker")
		}
		reply := replyMsg{OK: e == nil}
		if e != nil {
			reply.Error = toWire(e)
		}
		if err := writeLine(c.p.Stdin, reply); err != nil {
			return result{}, err
		}
	}
}

// ServeWorker is the worker mode of a server (Isolation.Command): it
// reads one request from in, as a parent server sends it, works on it
// with the handler of Config base (its Tokenizers; the limits come from
// the parent) and writes the answer to out. Its memory reservations and
// large-request slot are asked of the parent. It returns when the answer
// is written or the parent has gone.
func ServeWorker(ctx context.Context, base Config, in io.Reader, out io.Writer) error {
	bw := bufio.NewWriter(out)
	br := bufio.NewReaderSize(in, maxLine)
	send := func(v any) error {
		if err := writeLine(bw, v); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := send(childMsg{Hello: &helloMsg{VM: worker.VirtualSize()}}); err != nil {
		return err
	}
	var job jobMsg
	if err := readLine(br, &job); err != nil {
		return fmt.Errorf("worker: reading the request: %w", err)
	}
	body := make([]byte, job.Bytes)
	if _, err := io.ReadFull(br, body); err != nil {
		return fmt.Errorf("worker: reading the request body: %w", err)
	}
	s := New(job.Config.apply(base)).(*server)
	fn := workOf(job.Endpoint)
	if fn == nil {
		return fmt.Errorf("worker: unknown endpoint %q", job.Endpoint)
	}
	var commErr error
	ask := func(m childMsg) *apiError {
		var reply replyMsg
		err := send(m)
		if err == nil {
			err = readLine(br, &reply)
		}
		if err != nil {
			// The parent is gone: nobody reads the answer.
			commErr = err
			return &apiError{Status: http.StatusServiceUnavailable, Msg: "request canceled"}
		}
		if reply.Error != nil {
			return reply.Error.apiError()
		}
		return nil
	}
	mem := &reservation{ask: func(n int64) *apiError {
		if e := ask(childMsg{Grow: n}); e != nil {
			return e
		}
		debug.SetMemoryLimit(workerOverhead + n*3/2)
		return nil
	}}
	if job.Timeout <= 0 {
		job.Timeout = s.cfg.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	req := &request{ctx: ctx, body: body, mem: mem, askLarge: func() *apiError { return ask(childMsg{Large: true}) }}
	var res result
	func() {
		defer func() {
			if v := recover(); v != nil {
				res = result{err: internalError(v)}
			}
		}()
		res.v, res.err = fn(s, req)
	}()
	if commErr != nil {
		return commErr
	}
	rec := &Recorder{}
	if res.err != nil {
		writeError(rec, res.err)
	} else {
		writeJSON(rec, http.StatusOK, res.v)
	}
	retry, _ := strconv.Atoi(rec.Header().Get("Retry-After"))
	if err := writeLine(bw, childMsg{Answer: &answerHead{Status: rec.Status, RetryAfter: retry, Bytes: len(rec.Body)}}); err != nil {
		return err
	}
	if _, err := bw.Write(rec.Body); err != nil {
		return err
	}
	return bw.Flush()
}

// Recorder is an http.ResponseWriter that keeps the answer in memory: a
// worker process writes its answer to one, and package mcp calls the API
// handler in process with one. The zero value is ready to use.
type Recorder struct {
	header http.Header
	// Status is the status code of the answer: the first one written,
	// 200 when the body came first, 0 when nothing was written.
	Status int
	// Body is the body of the answer.
	Body []byte
}

// Header returns the header of the answer.
func (r *Recorder) Header() http.Header {
	if r.header == nil {
		r.header = http.Header{}
	}
	return r.header
}

// WriteHeader sets Status unless it is set.
func (r *Recorder) WriteHeader(code int) {
	if r.Status == 0 {
		r.Status = code
	}
}

// Write adds p to Body (and sets Status to 200 unless it is set).
func (r *Recorder) Write(p []byte) (int, error) {
	if r.Status == 0 {
		r.Status = http.StatusOK
	}
	r.Body = append(r.Body, p...)
	return len(p), nil
}

// write writes the workers' series of /metrics.
func (ws *workerStats) write(bw *bufio.Writer) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	fmt.Fprintf(bw, "# HELP isolda_workers_started_total Worker processes started for large requests (--isolate-bytes).\n"+
		"# TYPE isolda_workers_started_total counter\nisolda_workers_started_total %d\n", ws.started)
	fmt.Fprintf(bw, "# HELP isolda_workers_killed_total Worker processes killed at their deadline or when their client went away.\n"+
		"# TYPE isolda_workers_killed_total counter\nisolda_workers_killed_total %d\n", ws.killed)
	fmt.Fprintf(bw, "# HELP isolda_workers_failed_total Worker processes that ended without an answer (out of memory, crash).\n"+
		"# TYPE isolda_workers_failed_total counter\nisolda_workers_failed_total %d\n", ws.failed)
	fmt.Fprintf(bw, "# HELP isolda_workers_running Worker processes running now.\n"+
		"# TYPE isolda_workers_running gauge\nisolda_workers_running %d\n", ws.running)
	fmt.Fprintf(bw, "# HELP isolda_worker_peak_rss_bytes Largest peak resident size of one worker process since the start.\n"+
		"# TYPE isolda_worker_peak_rss_bytes gauge\nisolda_worker_peak_rss_bytes %d\n", ws.peakRSS)
}

// IsolationSupported reports whether Config.Isolate can run requests in
// child processes on this system (Linux); elsewhere they run in process.
func IsolationSupported() bool { return worker.Supported() }
