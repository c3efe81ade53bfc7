package loadgen

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// recorder is a test handler that runs a script on every request, by
// arrival order, and records what it did: the independent oracle the
// tests compare the generator's result with.
type recorder struct {
	mu       sync.Mutex
	arrivals []time.Time
	outcome  map[string]int
	script   func(n int, w http.ResponseWriter, r *http.Request) string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	rec.mu.Lock()
	n := len(rec.arrivals)
	rec.arrivals = append(rec.arrivals, time.Now())
	rec.mu.Unlock()
	out := rec.script(n, w, r)
	rec.mu.Lock()
	rec.outcome[out]++
	rec.mu.Unlock()
}

func newRecorder(script func(n int, w http.ResponseWriter, r *http.Request) string) *recorder {
	return &recorder{outcome: map[string]int{}, script: script}
}

// serve runs rec behind a loopback HTTP server.
func serve(t *testing.T, rec *recorder) *httptest.Server {
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return srv
}

// inProcess is an http.RoundTripper that hands each request to a handler
// in the calling goroutine, without a network. Inside a synctest bubble,
// where time is virtual and only moves when every goroutine waits, the
// handler's delays and the generator's schedule then happen at exact
// instants: the timing tests assert exact values however busy the machine
// is.
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body == nil {
		r.Body = http.NoBody // as a server gives it
	}
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, r)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	return w.Result(), nil
}

func client(h http.Handler) *http.Client { return &http.Client{Transport: inProcess{h}} }

// offsets returns the arrival times rec saw, as offsets from t0.
func (rec *recorder) offsets(t0 time.Time) []time.Duration {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := make([]time.Duration, len(rec.arrivals))
	for i, a := range rec.arrivals {
		out[i] = a.Sub(t0)
	}
	return out
}

func ok(n int, w http.ResponseWriter, r *http.Request) string {
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, `{"ok":true}`)
	return "200"
}

func durMs(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestQuantileNearestRank(t *testing.T) {
	var hundred []time.Duration
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, time.Duration(i)*time.Millisecond)
	}
	q := Summarize(hundred)
	want := Quantiles{Count: 100, P50: 50 * time.Millisecond, P90: 90 * time.Millisecond, P99: 99 * time.Millisecond,
		P999: 100 * time.Millisecond, Max: 100 * time.Millisecond, Mean: 50500 * time.Microsecond}
	if q != want {
		t.Errorf("1..100 ms: got %+v, want %+v", q, want)
	}
	cases := []struct {
		v    []time.Duration
		p    float64
		want time.Duration
	}{
		{durMs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.5, 5 * time.Millisecond},   // rank ceil(5) = 5
		{durMs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.51, 6 * time.Millisecond},  // rank ceil(5.1) = 6
		{durMs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.99, 10 * time.Millisecond}, // rank ceil(9.9) = 10
		{durMs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0, time.Millisecond},
		{durMs(7), 0.99, 7 * time.Millisecond},
		{nil, 0.5, 0},
	}
	for _, c := range cases {
		if got := Quantile(c.v, c.p); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.v, c.p, got, c.want)
		}
	}
}

func TestRequestsScheduled(t *testing.T) {
	cases := []struct {
		rate float64
		d    time.Duration
		want int
	}{
		{200, time.Second, 200}, {3, time.Second, 3}, {0.5, 3 * time.Second, 2}, {0.5, 2 * time.Second, 1},
		{800, 30 * time.Second, 24000}, {200, 10 * time.Minute, 120000}, {7, 1500 * time.Millisecond, 11},
	}
	for _, c := range cases {
		if got := requests(c.rate, c.d); got != c.want {
			t.Errorf("requests(%v, %v) = %d, want %d", c.rate, c.d, got, c.want)
		}
	}
	if got := scheduled(199, 200); got != 995*time.Millisecond {
		t.Errorf("scheduled(199, 200) = %v, want 995ms", got)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{Rate: 1, Duration: time.Second},
		{URL: "http://x", Duration: time.Second},
		{URL: "http://x", Rate: math.NaN(), Duration: time.Second},
		{URL: "http://x", Rate: 1},
		{URL: "http://x", Rate: 1e9, Duration: time.Hour},
		{URL: "http://x", Rate: 1, Duration: time.Second, MaxInFlight: -1},
	} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("Run(%+v): no error", c)
		}
	}
}

// TestSchedulerRate checks, with the server's clock, that requests arrive
// at the constant rate: request i at exactly i·5 ms at 200 req/s.
func TestSchedulerRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder(ok)
		t0 := time.Now()
		body := []byte(`{"graph":{"data":""}}`)
		res, err := Run(context.Background(), Config{URL: "http://loadgen.test/", Body: body, Rate: 200, Duration: time.Second,
			MaxInFlight: 8, Client: client(rec)})
		if err != nil {
			t.Fatal(err)
		}
		arr := rec.offsets(t0)
		if len(arr) != 200 || res.Scheduled != 200 || res.Sent != 200 || res.OK != 200 || res.Errors != 0 {
			t.Fatalf("server saw %d requests; result scheduled %d sent %d ok %d errors %d, want 200 each and 0 errors",
				len(arr), res.Scheduled, res.Sent, res.OK, res.Errors)
		}
		for i, a := range arr {
			if want := time.Duration(i) * 5 * time.Millisecond; a != want {
				t.Errorf("arrival %d at %v, want %v", i, a, want)
			}
		}
		for i, s := range res.Samples {
			if s.Sent != s.Scheduled || s.Latency != 0 || s.Service != 0 || s.Status != 200 {
				t.Errorf("request %d: %+v, want sent when scheduled and answered at once", i, s)
			}
		}
		// The last answer comes at 995 ms: 200 answers in 0.995 s.
		if res.Elapsed != 995*time.Millisecond || res.Throughput != 200/0.995 {
			t.Errorf("elapsed %v, throughput %v/s, want 995ms and %v/s", res.Elapsed, res.Throughput, 200/0.995)
		}
		if res.Method != http.MethodPost || res.BodyBytes != len(body) {
			t.Errorf("method %s, body %d bytes", res.Method, res.BodyBytes)
		}
	})
}

// TestLatencyKnownDelays scripts the server's delay (every 10th request
// 40 ms, the others 2 ms) and checks the quantiles against it.
func TestLatencyKnownDelays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const fast, slow = 2 * time.Millisecond, 40 * time.Millisecond
		rec := newRecorder(func(n int, w http.ResponseWriter, r *http.Request) string {
			if n%10 == 9 {
				time.Sleep(slow)
				return ok(n, w, r)
			}
			time.Sleep(fast)
			return ok(n, w, r)
		})
		res, err := Run(context.Background(), Config{URL: "http://loadgen.test/", Body: []byte("{}"), Rate: 100, Duration: 2 * time.Second,
			MaxInFlight: 16, Client: client(rec)})
		if err != nil {
			t.Fatal(err)
		}
		if res.OK != 200 {
			t.Fatalf("ok %d, want 200", res.OK)
		}
		for i, s := range res.Samples {
			want := fast
			if i%10 == 9 {
				want = slow
			}
			if s.Latency != want || s.Service != want {
				t.Errorf("request %d: latency %v, service %v, want the server's delay %v", i, s.Latency, s.Service, want)
			}
		}
		// The 200 latencies: 180 fast, 20 slow; p90 is rank 180, the last
		// fast one, p99 rank 198, a slow one.
		want := Quantiles{Count: 200, P50: fast, P90: fast, P99: slow, P999: slow, Max: slow,
			Mean: (180*fast + 20*slow) / 200}
		if res.Latency != want || res.Service != want {
			t.Errorf("latency %+v\nservice %+v\nwant %+v", res.Latency, res.Service, want)
		}
	})
}

// TestCoordinatedOmission stalls the server for 300 ms with one request in
// flight: the requests due during the stall wait, and their latency, from
// their scheduled time, must include the wait, while their service time
// (what a closed-loop client would report) does not.
func TestCoordinatedOmission(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const stall = 300 * time.Millisecond
		rec := newRecorder(func(n int, w http.ResponseWriter, r *http.Request) string {
			if n == 20 {
				time.Sleep(stall)
			}
			return ok(n, w, r)
		})
		res, err := Run(context.Background(), Config{URL: "http://loadgen.test/", Body: []byte("{}"), Rate: 100, Duration: time.Second,
			MaxInFlight: 1, Client: client(rec)})
		if err != nil {
			t.Fatal(err)
		}
		if res.OK != 100 || res.Unsent != 0 {
			t.Fatalf("ok %d unsent %d, want 100 and 0: requests due during a stall are sent late, not dropped", res.OK, res.Unsent)
		}
		// Request 20, due at 200 ms, is answered at 500 ms; requests 21 to
		// 49, due during the stall, are sent when it ends and answered at
		// once: latency 500 ms minus their due time, service 0.
		const end = 500 * time.Millisecond
		for i, s := range res.Samples {
			var sent, lat, svc time.Duration
			switch {
			case i == 20:
				sent, lat, svc = s.Scheduled, stall, stall
			case i > 20 && i < 50:
				sent, lat = end, end-s.Scheduled
			default:
				sent = s.Scheduled
			}
			if s.Sent != sent || s.Latency != lat || s.Service != svc {
				t.Errorf("request %d due at %v: sent %v, latency %v, service %v; want %v, %v, %v",
					i, s.Scheduled, s.Sent, s.Latency, s.Service, sent, lat, svc)
			}
		}
		// The corrected quantiles show the stall: 70 zeros, then 10 ms,
		// 20 ms, ..., 300 ms, so p90 (rank 90) is 200 ms; the service
		// times hide it (99 zeros and one 300 ms).
		if res.Latency.P90 != 200*time.Millisecond || res.Latency.Max != stall {
			t.Errorf("latency p90 %v max %v, want 200ms and %v", res.Latency.P90, res.Latency.Max, stall)
		}
		if res.Service.P90 != 0 || res.Service.P99 != 0 || res.Service.Max != stall {
			t.Errorf("service p90 %v p99 %v max %v, want 0, 0 and %v", res.Service.P90, res.Service.P99, res.Service.Max, stall)
		}
	})
}

// TestErrorCounting scripts statuses and closed connections and checks the
// counts against what the server did.
func TestErrorCounting(t *testing.T) {
	rec := newRecorder(func(n int, w http.ResponseWriter, r *http.Request) string {
		switch {
		case n%5 == 1:
			w.WriteHeader(http.StatusTooManyRequests)
			return "429"
		case n%7 == 3:
			w.WriteHeader(http.StatusInternalServerError)
			return "500"
		case n%11 == 5:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err)
			}
			conn.Close()
			return "closed"
		case n%13 == 7:
			// Headers, then a body cut short.
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "short")
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err)
			}
			buf.Flush()
			conn.Close()
			return "cut"
		}
		return ok(n, w, r)
	})
	srv := serve(t, rec)
	res, err := Run(context.Background(), Config{URL: srv.URL, Body: []byte("{}"), Rate: 200, Duration: 500 * time.Millisecond, MaxInFlight: 4})
	if err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	out := rec.outcome
	arrivals := len(rec.arrivals)
	rec.mu.Unlock()
	if arrivals != 100 || res.Sent != 100 {
		t.Fatalf("server saw %d requests, result sent %d: want 100 each (no retries)", arrivals, res.Sent)
	}
	transport := 0
	for _, n := range res.Transport {
		transport += n
	}
	if res.Status[429] != out["429"] || res.Status[500] != out["500"] || res.OK != out["200"] ||
		transport != out["closed"]+out["cut"] {
		t.Errorf("result: 429 %d, 500 %d, ok %d, transport %v; server: %v", res.Status[429], res.Status[500], res.OK, res.Transport, out)
	}
	if res.Errors != 100-out["200"] || res.Errors != res.Scheduled-res.OK {
		t.Errorf("errors %d, want %d", res.Errors, 100-out["200"])
	}
	rowErrors := 0
	for _, r := range res.Rows {
		rowErrors += r.Errors
	}
	if rowErrors != res.Errors {
		t.Errorf("rows count %d errors, the total %d", rowErrors, res.Errors)
	}
	t.Logf("errors: server %v; result status %v transport %v", out, res.Status, res.Transport)
}

// TestTimeoutAndUnsent checks that a request over time is a timeout error
// and that requests still due when the run ends are counted as unsent.
func TestTimeoutAndUnsent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder(func(n int, w http.ResponseWriter, r *http.Request) string {
			select {
			case <-time.After(200 * time.Millisecond):
			case <-r.Context().Done():
			}
			return "slow"
		})
		t0 := time.Now()
		res, err := Run(context.Background(), Config{URL: "http://loadgen.test/", Body: []byte("{}"), Rate: 100, Duration: 300 * time.Millisecond,
			MaxInFlight: 2, Timeout: 50 * time.Millisecond, Drain: -1, Client: client(rec)})
		if err != nil {
			t.Fatal(err)
		}
		// Two slots, each free again 50 ms after a send: sends at 0, 10,
		// 50, 60, ..., 250, 260 ms, and at 300 ms, when the run stops, a
		// 13th if the slot wins the tie with the stop.
		arr := rec.offsets(t0)
		if len(arr) != 12 && len(arr) != 13 {
			t.Errorf("the server saw %d requests at %v, want 12 or 13", len(arr), arr)
		}
		for i, a := range arr[:min(12, len(arr))] {
			if want := time.Duration(i/2*50+i%2*10) * time.Millisecond; a != want {
				t.Errorf("request %d sent at %v, want %v", i, a, want)
			}
		}
		if res.Scheduled != 30 || res.Sent != len(arr) || res.Unsent != 30-len(arr) {
			t.Errorf("scheduled %d sent %d unsent %d; the server saw %d", res.Scheduled, res.Sent, res.Unsent, len(arr))
		}
		if res.Transport["timeout"] != res.Sent || res.OK != 0 || res.Errors != 30 {
			t.Errorf("transport errors %v, ok %d, errors %d: want every sent request timed out and 30 errors", res.Transport, res.OK, res.Errors)
		}
		for _, s := range res.Samples {
			if s.Status == StatusTransport && s.Service != 50*time.Millisecond {
				t.Errorf("timed-out request due at %v: service time %v, want the 50ms timeout", s.Scheduled, s.Service)
			}
		}
	})
}

func TestCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder(ok)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		res, err := Run(ctx, Config{URL: "http://loadgen.test/", Rate: 100, Duration: time.Minute, Client: client(rec)})
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took != 200*time.Millisecond {
			t.Errorf("run canceled at 200ms ended at %v", took)
		}
		// 20 requests are due before 200ms, a 21st at 200ms, the instant
		// of the cancellation.
		if res.Sent < 20 || res.Sent > 21 || res.Unsent != 6000-res.Sent || res.Method != http.MethodGet {
			t.Errorf("sent %d unsent %d method %s, want 20 or 21 GETs sent and the rest unsent", res.Sent, res.Unsent, res.Method)
		}
	})
}

func TestParseProcStatus(t *testing.T) {
	text := "Name:\tisolda\nVmPeak:\t 1300000 kB\nVmHWM:\t   61234 kB\nVmRSS:\t   45678 kB\nThreads:\t9\n"
	rss, hwm, err := parseProcStatus(strings.NewReader(text))
	if err != nil || rss != 45678*1024 || hwm != 61234*1024 {
		t.Errorf("got %d %d %v, want %d %d", rss, hwm, err, 45678*1024, 61234*1024)
	}
	for _, bad := range []string{"Name:\tx\n", "VmRSS:\t12 MB\nVmHWM:\t1 kB\n", "VmRSS:\t-1 kB\nVmHWM:\t1 kB\n"} {
		if _, _, err := parseProcStatus(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	rss, hwm, err = ProcStatus(os.Getpid())
	if err != nil || rss <= 0 || hwm < rss {
		t.Errorf("own process: rss %d hwm %d err %v", rss, hwm, err)
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 20 * time.Second: "0:20", 90 * time.Second: "1:30",
		10 * time.Minute: "10:00", 100 * time.Millisecond: "0:00.1", 61500 * time.Millisecond: "1:01.5"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestParseProcStat(t *testing.T) {
	// utime 250 and stime 50 ticks of 10 ms; the command name holds ") (".
	line := "1234 (a) (b) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 123 456 789\n"
	if d, err := parseProcStat(line); err != nil || d != 3*time.Second {
		t.Errorf("got %v %v, want 3s", d, err)
	}
	for _, bad := range []string{"1234 a S 1", "1234 (a) S 1 2 3", "1234 (a) S 1 1234 1234 0 -1 4194560 100 0 0 0 x 50"} {
		if _, err := parseProcStat(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if d, err := ProcCPU(os.Getpid()); err != nil || d < 0 {
		t.Errorf("own process: %v %v", d, err)
	}
}

func TestParseHeap(t *testing.T) {
	page := "# HELP go_memstats_heap_alloc_bytes x\n# TYPE go_memstats_heap_alloc_bytes gauge\n" +
		"go_memstats_heap_inuse_bytes 2.5e+07\ngo_memstats_heap_alloc_bytes{x=\"y\"} 1\n" +
		"go_memstats_heap_alloc_bytes 1.2345678e+07\nother 3\n"
	if v, err := parseHeap(strings.NewReader(page)); err != nil || v != 12345678 {
		t.Errorf("got %d %v, want 12345678 (heap_alloc preferred)", v, err)
	}
	if v, err := parseHeap(strings.NewReader("go_memstats_heap_inuse_bytes 42\n")); err != nil || v != 42 {
		t.Errorf("got %d %v, want 42", v, err)
	}
	if v, err := parseHeap(strings.NewReader("isolda_http_requests_in_flight 0\n")); err != nil || v != -1 {
		t.Errorf("got %d %v, want -1", v, err)
	}
	if _, err := parseHeap(strings.NewReader("go_memstats_alloc_bytes x\n")); err == nil {
		t.Error("bad value: no error")
	}
}

func TestJudge(t *testing.T) {
	const m = 1 << 20
	cases := []struct {
		name   string
		series []int64
		judged bool
		flat   bool
	}{
		{"too short", []int64{40 * m, 41 * m}, false, false},
		{"missing window", []int64{40 * m, 41 * m, -1}, false, false},
		{"flat", []int64{30 * m, 45 * m, 46 * m, 44 * m, 45 * m, 47 * m, 46 * m, 45 * m, 46 * m, 45 * m}, true, true},
		{"warm-up ignored", []int64{10 * m, 45 * m, 46 * m, 45 * m}, true, true},
		{"tail over 10%", []int64{30 * m, 40 * m, 41 * m, 40 * m, 45 * m, 41 * m}, true, false},
		{"early excursion outside the tail", []int64{30 * m, 40 * m, 60 * m, 40 * m, 41 * m, 40 * m, 41 * m, 40 * m}, true, true},
		{"monotone 3%", []int64{30 * m, 100 * m, 101 * m, 102 * m, 103 * m}, true, false},
		{"monotone under 2%", []int64{30 * m, 100 * m, 100*m + 4096, 100*m + 8192, 100*m + 12288}, true, true},
		{"three windows rise", []int64{30 * m, 40 * m, 43 * m}, true, true},
	}
	for _, c := range cases {
		v := Judge(c.series)
		if v.Judged != c.judged || (c.judged && v.Flat != c.flat) {
			t.Errorf("%s: got judged %t flat %t (%s), want %t %t", c.name, v.Judged, v.Flat, v.Reason, c.judged, c.flat)
		}
	}
	mem := []MemSample{{At: 0, RSS: 1}, {At: time.Second, RSS: 9}, {At: 1500 * time.Millisecond, RSS: 5},
		{At: 1700 * time.Millisecond, RSS: 7}, {At: 2 * time.Second, RSS: 3}, {At: 3 * time.Second, RSS: 100}}
	if got := windowMedians(mem, time.Second, 3*time.Second); !slices.Equal(got, []int64{1, 7, 3}) {
		t.Errorf("windowMedians = %v, want [1 7 3]", got)
	}
}

// TestMemorySampling samples this test's own process and a metrics page.
func TestMemorySampling(t *testing.T) {
	for _, withHeap := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			metrics := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "isolda_http_requests_in_flight 0\n")
				if withHeap {
					io.WriteString(w, "go_memstats_heap_alloc_bytes 7340032\n")
				}
			})
			res, err := Run(context.Background(), Config{URL: "http://loadgen.test/", Rate: 50, Duration: 600 * time.Millisecond,
				Client: client(newRecorder(ok)), Window: 200 * time.Millisecond, PID: os.Getpid(), SampleEvery: 50 * time.Millisecond,
				MetricsURL: "http://loadgen.test/metrics", MetricsClient: client(metrics)})
			if err != nil {
				t.Fatal(err)
			}
			// A sample every 50 ms from the start, and one when the run
			// ends, after the last request, due at 580 ms.
			var at []time.Duration
			for _, m := range res.Memory {
				at = append(at, m.At)
			}
			want := durMs(0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 580)
			if !slices.Equal(at, want) {
				t.Errorf("samples at %v, want %v", at, want)
			}
			for _, m := range res.Memory {
				if m.RSS <= 0 || m.HWM < m.RSS {
					t.Errorf("sample %+v: no RSS", m)
				}
				if withHeap && m.Heap != 7340032 || !withHeap && m.Heap != -1 {
					t.Errorf("sample %+v: heap, want %v", m, withHeap)
				}
			}
			if withHeap && res.HeapNote != "" || !withHeap && !strings.Contains(res.HeapNote, "not exposed") {
				t.Errorf("heap note %q", res.HeapNote)
			}
			if len(res.Rows) != 3 || res.Rows[1].RSS <= 0 || withHeap && res.Rows[1].Heap != 7340032 {
				t.Errorf("rows %+v", res.Rows)
			}
			if res.TargetCPU < 0 {
				t.Errorf("target CPU %v, want sampled", res.TargetCPU)
			}
			if !res.Verdict.Judged {
				t.Errorf("verdict not judged: %s", res.Verdict.Reason)
			}
		})
	}
}

func TestWriteText(t *testing.T) {
	r := &Result{
		URL: "http://h/v1/serialize", Method: "POST", BodyBytes: 10, Rate: 2, Duration: 2 * time.Minute, MaxInFlight: 8,
		Window: time.Minute, Elapsed: 120*time.Second + 2*time.Millisecond, Scheduled: 240, Sent: 239, Unsent: 1,
		Answered: 238, OK: 236, Errors: 4, Status: map[int]int{200: 236, 503: 1, 429: 1}, Transport: map[string]int{"timeout": 1},
		Throughput: 1.96, TargetCPU: 12 * time.Second,
		Latency: Quantiles{P50: 1500 * time.Microsecond, P90: 2 * time.Millisecond, P99: 3 * time.Millisecond, P999: 4 * time.Millisecond, Max: 5 * time.Millisecond, Mean: 1600 * time.Microsecond},
		Service: Quantiles{P50: time.Millisecond, P90: time.Millisecond, P99: time.Millisecond, P999: time.Millisecond, Max: time.Millisecond, Mean: time.Millisecond},
		Rows: []Row{
			{From: 0, Requests: 120, Sent: 119, Errors: 3, P50: time.Millisecond, P90: 2 * time.Millisecond, P99: 3 * time.Millisecond, Max: 4 * time.Millisecond, RSS: 40 << 20, Heap: -1},
			{From: time.Minute, Requests: 120, Sent: 120, Errors: 1, P50: time.Millisecond, P90: 2 * time.Millisecond, P99: 3 * time.Millisecond, Max: 5 * time.Millisecond, RSS: 41 << 20, Heap: 3 << 19},
			{From: 2 * time.Minute, Requests: 10, Errors: 10, RSS: -1, Heap: -1},
		},
		Memory:   []MemSample{{RSS: 40 << 20, HWM: 50 << 20, Heap: -1}, {RSS: 41 << 20, HWM: 50 << 20, Heap: -1}},
		HeapNote: "not exposed",
		Verdict:  Verdict{Reason: "2 whole windows, the rule needs at least 3"},
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `  from  requests  errors    p50_ms    p90_ms    p99_ms    max_ms  rss_MiB heap_MiB
  0:00       120       3      1.00      2.00      3.00      4.00     40.0        -
  1:00       120       1      1.00      2.00      3.00      5.00     41.0      1.5
  2:00        10      10         -         -         -         -        -        -

target      POST http://h/v1/serialize (body 10 bytes)
schedule    2 req/s for 2m0s: 240 scheduled, at most 8 in flight
requests    sent 239, answered 238, ok 236, unsent 1, elapsed 2m0.002s
throughput  2.0 ok/s
status      200: 236, 429: 1, 503: 1
errors      4 (429: 1, 503: 1, timeout: 1, unsent: 1)
latency ms  p50 1.50  p90 2.00  p99 3.00  p99.9 4.00  max 5.00  mean 1.60  (from the scheduled send time)
service ms  p50 1.00  p90 1.00  p99 1.00  p99.9 1.00  max 1.00  mean 1.00  (from the real send time)
target cpu  12.00 s: 50.42 ms per answered request, 0.10 cores over the run
memory      RSS last 41.0 MiB, VmHWM 50.0 MiB, 2 samples
go heap     not exposed
flat memory not judged: 2 whole windows, the rule needs at least 3
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
