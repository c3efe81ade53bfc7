package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"
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
	cpu0 := cpuSeconds()
	for range b.N {
		start := time.Now()
		post()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		// Client and server together: the process's CPU time per request.
		b.ReportMetric(cpu*1000/float64(b.N), "cpu-ms/op")
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}
