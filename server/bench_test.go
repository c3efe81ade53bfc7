package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/token"
)

// BenchmarkSerialize posts a 1,000-triple slice of nomisma to /v1/serialize
// (ISOLDA, o200k_base token count, graph hash) over loopback HTTP and
// reports the p50 and p99 latency.
func BenchmarkSerialize(b *testing.B) {
	data := nomismaSlice(b, 1000)
	body, err := json.Marshal(SerializeRequest{Graph: &Graph{Data: data, Format: "nt"}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	client := srv.Client()
	post := func() {
		resp, err := client.Post(srv.URL+"/v1/serialize", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	post() // load the tokenizer
	lat := make([]time.Duration, 0, b.N)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	cpu0 := cputime.Used()
	for range b.N {
		start := time.Now()
		post()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	if cpu := cputime.Used() - cpu0; cpu > 0 {
		// Client and server together: the process's CPU time per request.
		b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms/op")
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// heapPeak runs f and returns the largest live heap seen while it ran,
// above the heap before it, sampled every 100µs with the collector at
// GOGC=10 (so that the heap stays close to the live data).
func heapPeak(f func()) int64 {
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	runtime.GC()
	s := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	rtmetrics.Read(s)
	base := int64(s[0].Value.Uint64())
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		ss := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			rtmetrics.Read(ss)
			if v := int64(ss[0].Value.Uint64()); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak.Load() - base
}

// memoryShapes are graphs of different shapes for BenchmarkMemoryPerQuad:
// plain entities, long literals, an RDF list of identical items, a blank
// node ring and one subject with many values in JSON-LD.
func memoryShapes(b *testing.B) map[string]Graph {
	var list, ring, many strings.Builder
	list.WriteString("@prefix ex: <http://example.org/> .\nex:a ex:p (")
	for range 4000 {
		list.WriteString(" 1")
	}
	list.WriteString(" ) .\n")
	for i := range 2000 {
		fmt.Fprintf(&ring, "_:b%d <http://example.org/next> _:b%d .\n", i, (i+1)%2000)
	}
	many.WriteString(`{"@id": "http://example.org/a", "http://example.org/v": [`)
	for i := range 4000 {
		if i > 0 {
			many.WriteString(", ")
		}
		fmt.Fprintf(&many, `"value %d"`, i)
	}
	many.WriteString("]}")
	shapes := map[string]Graph{
		"entities": {Data: syntheticNT(20_000), Format: "nt"},
		"list":     {Data: list.String(), Format: "ttl"},
		"ring":     {Data: ring.String(), Format: "nt"},
		"jsonld":   {Data: many.String(), Format: "jsonld"},
	}
	if _, err := shared.Path("data", "big", "nomisma.nt.gz"); err == nil {
		shapes["literals"] = Graph{Data: nomismaSlice(b, 20_000), Format: "nt"}
	}
	return shapes
}

// BenchmarkMemoryPerQuad measures the peak live heap of a request against
// the memory it reserves from the budget (estimate.go): peak/reserved
// above 1 means the estimate is too low for that shape and work.
//
//	go test ./server -run '^$' -bench MemoryPerQuad -benchtime 1x
func BenchmarkMemoryPerQuad(b *testing.B) {
	shapes := memoryShapes(b)
	names := slices.Sorted(maps.Keys(shapes))
	// One tokenizer registry, loaded before the measures: a server loads
	// its tokenizer once, not per request.
	toks := token.NewRegistry(token.Options{})
	call(b, New(Config{Tokenizers: toks}), "POST", "/v1/serialize", `{"graph": {"data": "<http://a> <http://b> \"c\" ."}}`)
	for _, name := range names {
		g := shapes[name]
		for _, work := range []struct{ name, path, body string }{
			{"serialize", "/v1/serialize", mustJSON(SerializeRequest{Graph: &g})},
			{"compare-1", "/v1/compare", mustJSON(CompareRequest{Graph: &g, Formats: []string{"jsonld-compact"}})},
			{"compare-all", "/v1/compare", mustJSON(CompareRequest{Graph: &g})},
			{"check", "/v1/check", mustJSON(CheckRequest{Graph: &g})},
		} {
			b.Run(name+"/"+work.name, func(b *testing.B) {
				var peak, reserved int64
				quads := 0
				for range b.N {
					s := New(Config{MaxRequestBytes: 64 << 20, Timeout: 10 * time.Minute, Tokenizers: toks}).(*server)
					var code int
					var body []byte
					peak = max(peak, heapPeak(func() { code, _, body = call(b, s, "POST", work.path, work.body) }))
					if code != http.StatusOK {
						b.Fatalf("%d %.300s", code, body)
					}
					var r struct{ Quads int }
					json.Unmarshal(body, &r)
					quads = r.Quads
					_, p, _, _ := s.mem.stats()
					reserved = max(reserved, p)
				}
				if quads == 0 { // check answers no quad count
					quads = parse(b, g.Data, g.Format, "").Len()
				}
				b.ReportMetric(float64(quads), "quads")
				b.ReportMetric(float64(peak)/float64(quads), "peak-B/quad")
				b.ReportMetric(float64(reserved)/float64(quads), "reserved-B/quad")
				b.ReportMetric(float64(peak)/float64(reserved), "peak/reserved")
			})
		}
	}
}
