package server

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/server/internal/worker"
)

// testWorkerEnv switches the test binary into a worker (TestMain): its
// value is the worker's behaviour.
const testWorkerEnv = "ISOLDA_SERVER_TEST_WORKER"

func TestMain(m *testing.M) {
	switch os.Getenv(testWorkerEnv) {
	case "":
		os.Exit(m.Run())
	case "serve":
		if err := ServeWorker(context.Background(), Config{}, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "hang", "oom":
		// Start as a worker does, read the request, then hang or
		// allocate without bound.
		fmt.Fprintf(os.Stdout, "{\"hello\": {\"vm\": %d}}\n", worker.VirtualSize())
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if os.Getenv(testWorkerEnv) == "oom" {
			// 8 GiB the OS does not have to back until touched: without an
			// address-space bound the allocation succeeds, and the answer
			// below fails the test.
			b := make([]byte, 8<<30)
			runtime.KeepAlive(b)
			fmt.Fprintf(os.Stdout, "{\"answer\": {\"status\": 200, \"bytes\": 2}}\n{}")
			os.Exit(0)
		}
		_ = line
		select {}
	}
	os.Exit(2)
}

// isolated returns cfg with its requests in worker processes (this test
// binary, in the worker mode named), from bodies of minBytes.
func isolated(t testing.TB, cfg Config, mode string, minBytes int64) Config {
	t.Helper()
	if !IsolationSupported() {
		t.Skip("worker processes need Linux")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Isolate = &Isolation{Command: []string{exe}, Env: []string{testWorkerEnv + "=" + mode}, MinBytes: minBytes}
	return cfg
}

// TestIsolatedSameAnswers sends the same requests to a server working in
// process and to one working in worker processes: every answer (status,
// Retry-After, content type, body) must be the same bytes, and each must
// have come from a worker.
func TestIsolatedSameAnswers(t *testing.T) {
	ttl := exampleTTL(t, lexeme)
	graph := &Graph{Data: ttl, Format: "ttl"}
	var nt60 strings.Builder
	for i := range 60 {
		fmt.Fprintf(&nt60, "<http://e/%d> <http://p> \"%d\" .\n", i, i)
	}
	cases := []struct{ name, path, body string }{
		{"serialize isolda", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph})},
		{"serialize turtle", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph, Format: "turtle"})},
		{"serialize jsonld", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph, Format: "jsonld"})},
		{"serialize options parts", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph, Parts: true,
			Options: &IsoldaOptions{Layout: "hybrid", Version: "0.4", InlineBlanks: true}})},
		{"serialize budget record", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph, Budget: 200})},
		{"serialize budget raw", "/v1/serialize", mustJSON(SerializeRequest{Graph: graph, Format: "ntriples", Budget: 100, Truncation: "raw"})},
		{"compare", "/v1/compare", mustJSON(CompareRequest{Graph: graph, Formats: []string{"isolda", "turtle", "jsonld", "csv", "yaml"},
			Tokenizers: []string{"o200k_base"}})},
		{"compare all formats", "/v1/compare", mustJSON(CompareRequest{Graph: graph})},
		{"check", "/v1/check", mustJSON(CheckRequest{Graph: graph})},
		{"check options", "/v1/check", mustJSON(CheckRequest{Graph: graph, Options: &IsoldaOptions{IDs: "slug", Layout: "blocks"}})},
		{"json syntax", "/v1/serialize", "{\n  \"graph\": {\"data\": \"\"},\n}"},
		{"unknown field", "/v1/compare", `{"graph": {"data": ""}, "colour": 1}`},
		{"empty body", "/v1/check", ""},
		{"null", "/v1/serialize", "null"},
		{"turtle error", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: "@prefix ex: <http://example.org/> .\nex:a ex:b \"x .\n", Format: "ttl"}})},
		{"unknown format", "/v1/serialize", `{"graph": {"data": ""}, "format": "nope"}`},
		{"quad limit", "/v1/compare", mustJSON(CompareRequest{Graph: &Graph{Data: nt60.String()}})},
		{"memory budget", "/v1/compare", mustJSON(CompareRequest{Graph: &Graph{Data: syntheticNT(100_000)}, Formats: []string{"isolda"}})},
		{"sparql off", "/v1/serialize", `{"graph": {"endpoint": "http://example.org/sparql", "query": "CONSTRUCT WHERE {?s ?p ?o}"}}`},
	}
	base := Config{MaxQuads: 100_000, MemoryBudget: 256 << 20}
	for _, c := range cases {
		cfg := base
		switch c.name {
		case "quad limit":
			cfg.MaxQuads = 50
		case "memory budget":
			cfg.MemoryBudget, cfg.MaxRequestBytes, cfg.MaxQuads = 200<<20, 32<<20, 200_000
			// 100,000 quads in a worker at niceness +10 took more than the
			// default 10 s on the shared machine while the package's other
			// tests ran.
			cfg.Timeout = time.Minute
		}
		in := New(cfg)
		out := New(isolated(t, cfg, "serve", 1)).(*server)
		code, hdr, body := call(t, in, "POST", c.path, c.body)
		icode, ihdr, ibody := call(t, out, "POST", c.path, c.body)
		if code != icode || hdr.Get("Retry-After") != ihdr.Get("Retry-After") || hdr.Get("Content-Type") != ihdr.Get("Content-Type") ||
			string(body) != string(ibody) {
			t.Errorf("%s: in process %d %q %.300s\nin a worker %d %q %.300s", c.name, code, hdr.Get("Retry-After"), body,
				icode, ihdr.Get("Retry-After"), ibody)
			continue
		}
		if c.name != "empty body" && out.workers.started != 1 {
			t.Errorf("%s: %d workers started, want 1", c.name, out.workers.started)
		}
		if used, _, _, _ := out.mem.stats(); used != 0 {
			t.Errorf("%s: %d bytes still reserved", c.name, used)
		}
		t.Logf("%s: %d, %d bytes, worker peak RSS %s", c.name, code, len(body), mib(out.workers.peakRSS))
	}
}

// TestIsolatedFoundLarge checks a request the work finds large (its data
// over LargeBytes) moves to a worker after its JSON is decoded, with the
// same answer, and that the worker asks for the large-request slot like
// work in process: 429 when it is taken.
func TestIsolatedFoundLarge(t *testing.T) {
	body := mustJSON(CompareRequest{Graph: &Graph{Data: exampleTTL(t, lexeme), Format: "ttl"}, Formats: []string{"isolda", "turtle"}})
	cfg := Config{LargeBytes: 1000}
	s := New(isolated(t, cfg, "serve", 0)).(*server)
	code, _, want := call(t, New(cfg), "POST", "/v1/compare", body)
	icode, _, got := call(t, s, "POST", "/v1/compare", body)
	if code != http.StatusOK || icode != code || string(got) != string(want) {
		t.Fatalf("in process %d %.300s\nin a worker %d %.300s", code, want, icode, got)
	}
	if s.workers.started != 1 {
		t.Errorf("%d workers started, want 1", s.workers.started)
	}
	// A small request stays in process.
	if code, _, b := call(t, s, "POST", "/v1/check", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`); code != http.StatusOK || s.workers.started != 1 {
		t.Errorf("small request: %d %s, %d workers", code, b, s.workers.started)
	}
	// With the only large slot taken, the request gets the 429 of work in
	// process, before any worker is started.
	other := holdLarge(t, s, "203.0.113.9")
	in := New(cfg).(*server)
	holdLarge(t, in, "203.0.113.9")
	code, hdr, want := call(t, in, "POST", "/v1/compare", body)
	icode, ihdr, got := call(t, s, "POST", "/v1/compare", body)
	forgive(s)
	if s.workers.started != 1 {
		t.Errorf("%d workers started, want 1: a refused large request started one", s.workers.started)
	}
	if code != http.StatusTooManyRequests || icode != code || hdr.Get("Retry-After") != ihdr.Get("Retry-After") || string(got) != string(want) {
		t.Errorf("large slot taken: in process %d %s\nin a worker %d %s", code, want, icode, got)
	}
	other.release()
	general, large := slotsHeld(s)
	if used, _, _, _ := s.mem.stats(); used != 0 || large != 0 || general != 0 {
		t.Errorf("after the requests: %d bytes reserved, %d large and %d slots held", used, large, general)
	}
}

// freedWithin waits until s holds no slot, no memory and no worker, and
// returns how long that took, failing after 5 s: far less than a hanging
// worker would hold them (for ever, or the minute of a time limit), and
// far more than a loaded CI machine needs to reap a killed process.
func freedWithin(t *testing.T, s *server) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		used, _, _, _ := s.mem.stats()
		s.workers.mu.Lock()
		running := s.workers.running
		s.workers.mu.Unlock()
		general, large := slotsHeld(s)
		if used == 0 && general == 0 && large == 0 && running == 0 {
			return time.Since(start)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("after 5s: %d bytes reserved, %d slots held, %d workers running", used, general+large, running)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestIsolatedDeadlineKill checks a worker that works past its deadline
// (here one that hangs) is killed: its client gets the 503 of a time
// limit, and its slot, memory and process are freed at once (freedWithin;
// the time is logged, not asserted: timings belong in benchmarks); the
// same when the client goes away.
func TestIsolatedDeadlineKill(t *testing.T) {
	cfg := isolated(t, Config{MaxConcurrent: 1, Timeout: 300 * time.Millisecond}, "hang", 1)
	s := New(cfg).(*server)
	start := time.Now()
	code, hdr, body := call(t, s, "POST", "/v1/serialize", `{"graph": {"data": ""}}`)
	took := time.Since(start)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(string(body), "time limit") {
		t.Fatalf("hanging worker: %d %s", code, body)
	}
	freed := freedWithin(t, s)
	t.Logf("503 after %s; slot, memory and worker freed %s later", took.Round(time.Millisecond), freed)
	if s.workers.killed != 1 {
		t.Errorf("%d workers killed, want 1", s.workers.killed)
	}

	// The client goes away after 100 ms.
	cfg.Timeout = time.Minute
	s = New(cfg).(*server)
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/serialize", strings.NewReader(`{"graph": {"data": ""}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the client that went away got %d", resp.StatusCode)
	}
	gone := time.Now()
	freedWithin(t, s)
	t.Logf("slot, memory and worker freed %s after the client went away", time.Since(gone).Round(time.Millisecond))
	if s.workers.killed != 1 {
		t.Errorf("%d workers killed, want 1", s.workers.killed)
	}
}

// TestIsolatedOutOfMemory checks a worker that allocates past its
// address-space bound dies alone: its client gets a 500 that says so, and
// the server goes on answering.
func TestIsolatedOutOfMemory(t *testing.T) {
	s := New(isolated(t, Config{}, "oom", 1000)).(*server)
	code, _, body := call(t, s, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(20)}}))
	e := decode[apiErr](t, body)
	if code != http.StatusInternalServerError || !strings.Contains(e.Error, "ran out of memory") {
		t.Fatalf("worker out of memory: %d %s", code, body)
	}
	t.Log(e.Error)
	if s.workers.failed != 1 {
		t.Errorf("%d workers failed, want 1", s.workers.failed)
	}
	freedWithin(t, s)
	// Small requests (under MinBytes) are answered in process.
	if code, _, body := call(t, s, "POST", "/v1/check", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`); code != http.StatusOK {
		t.Errorf("after the worker died: %d %s", code, body)
	}
}

// TestRefusedLargeStartsNoWorker checks a request whose body goes to a
// worker process (Isolation.MinBytes) is refused with 429 and Retry-After
// when the large slots are taken, and that no worker is started for it:
// when its length is announced, before its body is read (the connection
// is closed); when it is not, once it is read. Before, every such request
// started a worker, which asked for the slot and answered 503, holding a
// concurrency slot for the process's lifetime.
func TestRefusedLargeStartsNoWorker(t *testing.T) {
	s := New(isolated(t, Config{}, "serve", 1000)).(*server)
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(40)}})
	if len(body) < 1000 {
		t.Fatalf("body of %d bytes, want 1000 or more", len(body))
	}
	other := holdLarge(t, s, "203.0.113.9")
	for i, length := range []int64{int64(len(body)), -1} {
		rec := callFrom(s, fmt.Sprintf("198.51.100.%d:4000", i+1), "/v1/serialize", body, length)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "large requests") {
			t.Errorf("length %d, the large slot taken: %d %s", length, rec.Code, rec.Body)
		}
		if length > 0 && rec.Header().Get("Connection") != "close" {
			t.Errorf("length %d: refused before its body was read, but the connection stays open", length)
		}
		if s.workers.started != 0 {
			t.Errorf("length %d: %d workers started for a refused request", length, s.workers.started)
		}
	}
	// A refused client that comes back before its Retry-After is refused
	// at once, even for a cheap request, before its body is read.
	rec := callFrom(s, "198.51.100.1:4001", "/v1/check", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`, 57)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || rec.Header().Get("Connection") != "close" ||
		!strings.Contains(rec.Body.String(), "came back before the Retry-After") {
		t.Errorf("back before Retry-After: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	if g, l := slotsHeld(s); g != 0 || l != 1 {
		t.Errorf("after the refusals: %d general and %d large slots held, want 0 and 1", g, l)
	}
	other.release()
	rec = callFrom(s, "198.51.100.3:4000", "/v1/serialize", body, -1)
	if rec.Code != http.StatusOK || s.workers.started != 1 {
		t.Errorf("the large slot free: %d %.300s, %d workers started", rec.Code, rec.Body, s.workers.started)
	}
	if used, _, _, _ := s.mem.stats(); used != 0 {
		t.Errorf("%d bytes still reserved", used)
	}
	waitSlots(t, s, 0, 0)
}
