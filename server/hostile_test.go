package server

// Tests of the service against hostile clients: slow bodies, work that
// outlives its deadline, memory, and requests that must keep failing
// cleanly (gzip bombs, floods of concurrent requests, poison graphs).

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/rdf/rdfio"
)

// syntheticNT returns n N-Triples lines: entities of two classes with a
// label, a number and a link each.
func syntheticNT(n int) string {
	var b strings.Builder
	for i := 0; b.Len() >= 0 && i < n; i++ {
		e := i / 4
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "<http://example.org/e%d> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/C%d> .\n", e, e%2)
		case 1:
			fmt.Fprintf(&b, "<http://example.org/e%d> <http://www.w3.org/2000/01/rdf-schema#label> \"entity %d\" .\n", e, e)
		case 2:
			fmt.Fprintf(&b, "<http://example.org/e%d> <http://example.org/n> \"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n", e, e)
		case 3:
			fmt.Fprintf(&b, "<http://example.org/e%d> <http://example.org/next> <http://example.org/e%d> .\n", e, (e+1)%(n/4+1))
		}
	}
	return b.String()
}

// post sends a JSON body to a live server and returns the status, the
// headers and the body.
func post(t testing.TB, url, body string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// slowClient opens a connection that announces a body of size bytes and
// sends it one byte every gap, and returns the status the server answers
// with and when.
func slowClient(t *testing.T, addr string, size int, gap time.Duration) (status int, after time.Duration) {
	start := time.Now()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return 0, 0
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/serialize HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, size)
	answered := make(chan int, 1)
	go func() {
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		f := strings.Fields(line)
		code := 0
		if err == nil && len(f) >= 2 {
			code, _ = strconv.Atoi(f[1])
		}
		answered <- code
	}()
	for range size {
		select {
		case code := <-answered:
			return code, time.Since(start)
		case <-time.After(gap):
		}
		if _, err := c.Write([]byte(" ")); err != nil {
			break
		}
	}
	return <-answered, time.Since(start)
}

// TestSlowBodiesHoldNoSlot sends bodies at one byte a quarter second on
// more connections than the server has slots: the legitimate requests sent
// meanwhile are answered (before, every one got 429 while the slow bodies
// held the slots), and each slow body gets 408 once its rate is too low.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	srv := httptest.NewServer(New(Config{MaxConcurrent: 2}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	const slow = 8
	var wg sync.WaitGroup
	codes := make([]int, slow)
	afters := make([]time.Duration, slow)
	for i := range slow {
		wg.Go(func() { codes[i], afters[i] = slowClient(t, addr, 100_000, 250*time.Millisecond) })
	}
	time.Sleep(500 * time.Millisecond)
	ok := 0
	for range 5 {
		code, _, body := post(t, srv.URL+"/v1/serialize", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`)
		if code == http.StatusOK {
			ok++
		} else {
			t.Errorf("a legitimate request beside %d slow bodies: %d %s", slow, code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	for i := range slow {
		// Refused after bodyGrace, at the first byte that comes too late
		// (a body at this pace would take 7 hours: without the refusal the
		// client's read deadline gives code 0).
		if codes[i] != http.StatusRequestTimeout || afters[i] < bodyGrace {
			t.Errorf("slow body %d: status %d after %s, want 408 once the %s grace is over", i, codes[i], afters[i], bodyGrace)
		}
	}
	t.Logf("slow bodies: %d/5 legitimate requests answered 200 beside %d slow bodies; slow bodies got %v after %v", ok, slow, codes, afters)
}

// TestSlowBodyDeadline checks a body that stops arriving is given up on by
// the connection's read deadline, without a byte to wake the reader.
func TestSlowBodyDeadline(t *testing.T) {
	srv := httptest.NewServer(New(Config{BodyTimeout: 500 * time.Millisecond}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	code, after := slowClient(t, addr, 100, time.Hour)
	// No byte comes: a 408 at all (not the client's read deadline, code
	// 0) shows the deadline woke the reader.
	if code != http.StatusRequestTimeout || after < 500*time.Millisecond {
		t.Errorf("silent body: %d after %s, want 408 once the 500ms body timeout is over", code, after)
	}
}

// TestTimeoutFreesSlot checks a request past its deadline stops working
// and frees its slot soon: the work done from its 503 to the first request
// answered in the only slot must be a small part of the work the request
// takes when it runs to its end (before, the work ran to its end). Work is
// this process's CPU time, which, unlike the time on the clock, does not
// grow when other processes take the machine.
func TestTimeoutFreesSlot(t *testing.T) {
	data := syntheticNT(120_000)
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: data, Format: "nt"}})
	// The request stays cheap (LargeBytes, LargeQuads), so that it keeps
	// the only general slot the probes wait for.
	big := Config{MaxConcurrent: 1, MaxQuads: 1 << 20, MaxRequestBytes: 64 << 20, LargeBytes: 1 << 30, LargeQuads: 1 << 30}
	cfg := big
	cfg.Timeout = time.Minute
	start, cpu0 := time.Now(), cputime.Used()
	code, _, resp := call(t, New(cfg), "POST", "/v1/serialize", body)
	full, fullCPU := time.Since(start), cputime.Used()-cpu0
	if code != http.StatusOK {
		t.Fatalf("the whole work: %d %.300s", code, resp)
	}
	for _, frac := range []int{10, 3} {
		cfg := big
		cfg.Timeout = full / time.Duration(frac)
		h := New(cfg)
		// The garbage of the requests before is collected now, so that
		// the collector's work on it is not counted as this request's.
		runtime.GC()
		code, hdr, resp := call(t, h, "POST", "/v1/serialize", body)
		if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
			t.Fatalf("timeout %s: %d %.300s", cfg.Timeout, code, resp)
		}
		timedOut := cputime.Used()
		for {
			// The probes come from another client: the one whose request
			// timed out holds its share (one slot) until its work ends.
			code = callFrom(h, "198.51.100.77:4000", "/v1/check", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`, 57).Code
			if code == http.StatusOK {
				break
			}
			if code != http.StatusTooManyRequests {
				t.Fatalf("probe: %d", code)
			}
			time.Sleep(2 * time.Millisecond)
		}
		freed := cputime.Used() - timedOut
		if used, _, _, _ := h.(*server).mem.stats(); used != 0 {
			t.Errorf("time limit %s: %d bytes still reserved after the slot was freed", cfg.Timeout, used)
		}
		t.Logf("time limit %s (1/%d of the %s the whole work takes): slot free after %s of CPU from the 503 (the whole work: %s)",
			cfg.Timeout.Round(time.Millisecond), frac, full.Round(time.Millisecond), freed.Round(time.Millisecond), fullCPU.Round(time.Millisecond))
		if cputime.Used() > 0 && freed > fullCPU/3 {
			t.Errorf("time limit %s: %s of CPU after the 503 before the slot was free; the whole work takes %s", cfg.Timeout, freed, fullCPU)
		}
	}
}

// TestMemoryBudget checks requests are admitted against the memory
// budget: one that alone needs more gets 413, one that finds it taken 503
// with Retry-After, and the reservations are all given back.
func TestMemoryBudget(t *testing.T) {
	s := New(Config{MemoryBudget: 32 << 20}).(*server)
	data := syntheticNT(20_000) // about 20,000 × 2.5 KB of estimate
	code, _, body := call(t, s, "POST", "/v1/compare", mustJSON(CompareRequest{Graph: &Graph{Data: data}, Formats: []string{"isolda"}}))
	e := decode[apiErr](t, body)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error, "memory budget of 32.0 MiB") {
		t.Errorf("a request larger than the budget: %d %s", code, body)
	}
	checkBudgetTaken(t, s, "/v1/compare", mustJSON(CompareRequest{Graph: &Graph{Data: syntheticNT(200)}, Formats: []string{"isolda"}}))
	if used, peak, refused, tooLarge := s.mem.stats(); used != 0 || peak == 0 || refused == 0 || tooLarge != 1 {
		t.Errorf("budget after the requests: used %d, peak %d, refused %d, too large %d", used, peak, refused, tooLarge)
	}
	_, _, metrics := call(t, s, "GET", "/metrics", nil)
	for _, want := range []string{"isolda_memory_budget_bytes 33554432\n", "isolda_memory_reserved_bytes 0\n", "isolda_memory_too_large_total 1\n"} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestMemoryBudgetText checks a text that grows far past its estimate
// raises the reservation as it is written, and fails the request when
// the budget cannot take it.
func TestMemoryBudgetText(t *testing.T) {
	s := New(Config{MemoryBudget: 64 << 20}).(*server)
	req := &request{ctx: t.Context(), mem: s.mem.reserve()}
	w := newGuardWriter(req, io.Discard)
	chunk := make([]byte, 1<<20)
	var err error
	written := 0
	for range 200 {
		if _, err = w.Write(chunk); err != nil {
			break
		}
		written++
	}
	var me *memError
	if err == nil || !errors.As(err, &me) || me.e.Status != http.StatusServiceUnavailable && me.e.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("200 MiB of text on a 64 MiB budget: %v after %d MiB", err, written)
	}
	if written < 20 || req.mem.n > s.mem.limit {
		t.Errorf("stopped after %d MiB with %d bytes reserved", written, req.mem.n)
	}
	req.mem.release()
}

// TestGzipBomb checks a gzip-compressed body is not inflated: the server
// does not honour Content-Encoding, so a bomb is only its few compressed
// bytes of bad JSON.
func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zero := make([]byte, 1<<20)
	for range 256 { // 256 MiB of zeros
		zw.Write(zero)
	}
	zw.Close()
	req := httptest.NewRequest("POST", "/v1/serialize", bytes.NewReader(buf.Bytes()))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	rec := httptest.NewRecorder()
	New(Config{}).ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest {
		t.Errorf("gzip bomb of %d bytes: %d %s", buf.Len(), rec.Code, rec.Body)
	}
	// A graph whose data is gzip cannot come through JSON (a string holds
	// no byte 0x8b alone), and escaped it is text, not gzip.
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: buf.String()[:1000]}})
	if code, _, b := call(t, New(Config{}), "POST", "/v1/serialize", body); code != http.StatusBadRequest {
		t.Errorf("gzip bytes as graph data: %d %s", code, b)
	}
}

// TestConcurrency200 sends 200 requests at once to a server with 8 slots:
// each is answered 200 or 429 with Retry-After, and the server answers
// afterwards.
func TestConcurrency200(t *testing.T) {
	s := New(Config{}).(*server)
	srv := httptest.NewServer(s)
	defer srv.Close()
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(400)}})
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			resp, err := http.Post(srv.URL+"/v1/serialize", "application/json", strings.NewReader(body))
			code := 0
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				code = resp.StatusCode
				if code == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
					code = -code
				}
			}
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if counts[200]+counts[429] != 200 || counts[200] == 0 {
		t.Errorf("200 concurrent requests: %v, want only 200 and 429 (with Retry-After)", counts)
	}
	// The client, refused for its share and back early many times
	// (admit.go), is still refused; once it waited as Retry-After says, it
	// is answered.
	if code, _, _ := post(t, srv.URL+"/v1/serialize", body); code != http.StatusTooManyRequests {
		t.Errorf("the flooding client at once after the flood: %d, want 429", code)
	}
	forgive(s)
	if code, _, _ := post(t, srv.URL+"/v1/serialize", body); code != http.StatusOK {
		t.Errorf("after the flood: %d", code)
	}
	t.Logf("200 concurrent requests on 8 slots: %v", counts)
}

// TestCliquePoison checks a clique of blank nodes, the graph hash's worst
// case, is answered with a warning instead of a hash, within the time
// limit.
func TestCliquePoison(t *testing.T) {
	var b strings.Builder
	const k = 12
	for i := range k {
		for j := range k {
			if i != j {
				fmt.Fprintf(&b, "_:b%d <http://example.org/p> _:b%d .\n", i, j)
			}
		}
	}
	start := time.Now()
	code, _, body := call(t, New(Config{}), "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: b.String()}, Format: "ntriples"}))
	took := time.Since(start)
	r := decode[SerializeResponse](t, body)
	if code != http.StatusOK || r.GraphHash != "" || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "graph_hash") {
		t.Errorf("%d-clique: %d %.500s", k, code, body)
	}
	t.Logf("%d-clique of blank nodes: %d in %s, warning %q", k, code, took.Round(time.Millisecond), r.Warnings)
}

// TestLargeRequests checks large requests take a slot of their own pool:
// when it is full, a large request gets 429 with Retry-After while small
// ones are answered.
func TestLargeRequests(t *testing.T) {
	s := New(Config{MaxConcurrent: 4, LargeBytes: 20_000}).(*server)
	if s.adm.maxLarge != 1 {
		t.Fatalf("MaxLarge for 4 slots: %d, want 1", s.adm.maxLarge)
	}
	large := mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(400)}})
	small := mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(40)}})
	manyFormats := mustJSON(CompareRequest{Graph: &Graph{Data: syntheticNT(40)}})
	other := holdLarge(t, s, "203.0.113.9") // another client's large request in progress
	for name, body := range map[string]string{"large": large, "compare of every format": manyFormats} {
		path := "/v1/serialize"
		if strings.HasPrefix(name, "compare") {
			path = "/v1/compare"
		}
		code, hdr, b := call(t, s, "POST", path, body)
		if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(string(b), "large requests") {
			t.Errorf("%s with the large slot taken: %d %s", name, code, b)
		}
		forgive(s) // the client waits as Retry-After says
	}
	if code, _, b := call(t, s, "POST", "/v1/serialize", small); code != http.StatusOK {
		t.Errorf("small with the large slot taken: %d %s", code, b)
	}
	other.release()
	if code, _, b := call(t, s, "POST", "/v1/serialize", large); code != http.StatusOK {
		t.Errorf("large with the large slot free: %d %s", code, b)
	}
	if general, large := slotsHeld(s); general != 0 || large != 0 {
		t.Errorf("%d general and %d large slots still held", general, large)
	}
}

// TestRDFSyntaxesAsRegistry checks encode writes the RDF syntaxes it
// writes with rdfio.WriteContext byte for byte as the registry's encoders.
func TestRDFSyntaxesAsRegistry(t *testing.T) {
	d := parse(t, "@prefix ex: <http://example.org/> .\nex:a a ex:T ; ex:p ( 1 2 [ ex:q \"x\"@en ] ) ; ex:r <http://example.org/b> .\n", "ttl", "")
	req := &request{ctx: t.Context(), mem: New(Config{}).(*server).mem.reserve()}
	for _, syn := range rdfio.Writable() {
		name := string(syn)
		f, ok := formats.Get(name)
		if !ok {
			t.Errorf("%s is not in the registry", name)
			continue
		}
		var want strings.Builder
		if err := f.Encode(&want, formats.NewInput(d)); err != nil {
			t.Fatal(err)
		}
		got, err := encode(req, f, formats.NewInput(d), nil, "")
		if err != nil || got != want.String() {
			t.Errorf("%s: %v\n%s\nwant\n%s", name, err, got, want.String())
		}
	}
	// A canceled request writes nothing.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	f, _ := formats.Get("turtle")
	if _, err := encode(&request{ctx: ctx, mem: req.mem}, f, formats.NewInput(d), nil, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("turtle after cancellation: %v", err)
	}
}

// TestRefusedBeforeBody checks a request refused before its body is read
// (wrong content type, foreign Host) is answered at once, not after the
// server has read the body at the client's pace.
func TestRefusedBeforeBody(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Config.Handler = New(Config{ListenAddr: addr})
	for name, head := range map[string]string{
		"415": "POST /v1/serialize HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n",
		"403": "POST /v1/serialize HTTP/1.1\r\nHost: rebind.attacker.example\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, head)
		// The body never comes: a server that waited for it would not
		// answer (the deadline only keeps that from hanging the suite).
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || !strings.Contains(line, " "+name+" ") {
			t.Errorf("%s: %q, %v: want the answer without the body", name, line, err)
		}
	}
}

// checkBudgetTaken checks a small request to path: answered alone; 503
// with Retry-After, naming the memory budget, while other requests hold
// all of s's budget but 100 KB; answered again once they give it back.
func checkBudgetTaken(t *testing.T, s *server, path, small string) {
	t.Helper()
	if code, _, body := call(t, s, "POST", path, small); code != http.StatusOK {
		t.Fatalf("%s, small: %d %.300s", path, code, body)
	}
	held := s.mem.reserve()
	if e := held.growTo(s.mem.limit - 100<<10); e != nil {
		t.Fatal(e)
	}
	code, hdr, body := call(t, s, "POST", path, small)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(string(body), "memory budget") {
		t.Errorf("%s, budget taken: %d %v %.300s", path, code, hdr, body)
	}
	held.release()
	if code, _, body := call(t, s, "POST", path, small); code != http.StatusOK {
		t.Errorf("%s, budget given back: %d %.300s", path, code, body)
	}
}
