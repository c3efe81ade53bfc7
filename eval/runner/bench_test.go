package runner

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/internal/testkit/loadgen"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

// benchSet writes a frozen set of 100 questions about one stored context
// into dir.
func benchSet(b *testing.B, dir string) {
	b.Helper()
	set := &task.Set{Name: "s", Contexts: []task.Context{{ID: "c", Text: "Edges: A-B, B-C."}}}
	for i := range 100 {
		set.Questions = append(set.Questions, task.Question{ID: fmt.Sprintf("q%03d", i), Family: kg.FamilyLookup,
			Task: kg.FamilyLookup, Text: fmt.Sprintf("Question %d?", i), ContextID: "c",
			Gold: task.Answer{Text: "A", Kind: task.KindText, Value: "A"}})
	}
	set.Seal()
	evaltest.WriteSet(b, dir, "set.jsonl", set)
}

// BenchmarkRun measures the runner's overhead: calls per second against the
// in-process server with zero latency and 64 calls in flight, with every
// record written and fsynced to answers.jsonl.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	benchSet(b, dir)
	srv := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "A"} })
	defer srv.Close()
	e := &eval.Experiment{Tasks: []eval.Task{{Set: "set.jsonl"}}, Trials: (b.N + 99) / 100,
		Models: []eval.Model{{Name: "m", BaseURL: srv.URL, Model: "x", MaxConcurrency: 64}}}
	p, err := eval.Prepare(e, dir, evaltest.Scorers())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	res, err := Run(context.Background(), p, RunOptions{Out: filepath.Join(dir, "run")})
	el := time.Since(start)
	if err != nil || res.Failed != 0 {
		b.Fatalf("%+v %v", res, err)
	}
	b.ReportMetric(float64(res.Done)/el.Seconds(), "calls/s")
	b.ReportMetric(float64(srv.MaxInFlight()), "max-in-flight")
}

// BenchmarkRun100k makes 100,000 calls (100 questions × 1,000 trials) with
// 64 in flight against the in-process server with zero latency, and
// reports calls/s and the heap in use (runtime.MemStats.HeapInuse after a
// GC) and the process's resident set at every 10,000th call, and the heap
// a resumed run's set of answered keys takes per call. One iteration is
// 100,000 calls: run it with -benchtime=1x -v to see the samples.
func BenchmarkRun100k(b *testing.B) {
	const calls, every = 100_000, 10_000
	for range b.N {
		dir := b.TempDir()
		benchSet(b, dir)
		type sample struct {
			calls     int
			heap, rss uint64
			at        time.Duration
		}
		var mu sync.Mutex
		var samples []sample
		start := time.Now()
		take := func(n int) {
			mu.Lock()
			defer mu.Unlock()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			samples = append(samples, sample{n, ms.HeapInuse, rssBytes(), time.Since(start)})
		}
		// llmtest.Server keeps every request it received (about 3.6 KB
		// a call here), so it cannot show the runner's memory: this
		// server keeps nothing but a counter.
		var seq, inFlight, maxInFlight atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := maxInFlight.Load(); n > m && !maxInFlight.CompareAndSwap(m, n); m = maxInFlight.Load() {
			}
			io.Copy(io.Discard, r.Body)
			if s := seq.Add(1) - 1; s%every == 0 {
				take(int(s))
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, benchReply)
		}))
		e := &eval.Experiment{Tasks: []eval.Task{{Set: "set.jsonl"}}, Trials: calls / 100,
			Models: []eval.Model{{Name: "m", BaseURL: srv.URL + "/v1", Model: "x", MaxConcurrency: 64}}}
		p, err := eval.Prepare(e, dir, evaltest.Scorers())
		if err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, "run")
		b.ResetTimer()
		start = time.Now()
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 64, 64
		ct := &countingTransport{base: tr}
		res, err := Run(context.Background(), p, RunOptions{Out: out, HTTPClient: &http.Client{Transport: ct}})
		el := time.Since(start)
		b.StopTimer()
		srv.Close()
		if err != nil || res.Done != calls {
			b.Fatalf("%+v %v", res, err)
		}
		take(calls)
		for _, s := range samples {
			b.Logf("calls %6d  %6.1fs  HeapInuse %6.2f MiB  RSS %6.1f MiB", s.calls, s.at.Seconds(), float64(s.heap)/(1<<20), float64(s.rss)/(1<<20))
		}
		first, last := samples[1], samples[len(samples)-1]
		b.ReportMetric(float64(res.Done)/el.Seconds(), "calls/s")
		b.ReportMetric(float64(maxInFlight.Load()), "server-max-in-flight")
		b.ReportMetric(float64(ct.max.Load()), "client-max-in-flight")
		b.ReportMetric(float64(last.heap)/(1<<20), "heap-MiB-end")
		b.ReportMetric((float64(last.heap)-float64(first.heap))/float64(last.calls-first.calls), "heap-B/call")

		// What a resumed run keeps per answered call: its key set.
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		done, err := answeredKeys(filepath.Join(out, AnswersFile), p.Manifest.RunID)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric((float64(after.HeapInuse)-float64(before.HeapInuse))/float64(len(done)), "done-key-B/call")
		runtime.KeepAlive(done)
	}
}

// countingTransport counts the requests in flight on the client side.
type countingTransport struct {
	base     http.RoundTripper
	now, max atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for m := c.max.Load(); n > m && !c.max.CompareAndSwap(m, n); m = c.max.Load() {
	}
	return c.base.RoundTrip(r)
}

// benchReply is a chat completion answering "A".
const benchReply = `{"id":"c","object":"chat.completion","created":0,"model":"x","choices":[{"index":0,` +
	`"message":{"role":"assistant","content":"A"},"finish_reason":"stop"}],` +
	`"usage":{"prompt_tokens":20,"completion_tokens":1,"total_tokens":21}}`

// rssBytes returns the resident set size of the process (0 where
// /proc/self/status is missing).
func rssBytes() uint64 {
	rss, _, err := loadgen.ProcStatus(os.Getpid())
	if err != nil {
		return 0
	}
	return uint64(rss)
}
