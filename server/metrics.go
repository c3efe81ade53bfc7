package server

import (
	"bufio"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// latencyBuckets are the upper bounds, in seconds, of the latency
// histogram.
func latencyBuckets() [numBuckets]float64 {
	return [numBuckets]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}
}

// numBuckets is the number of finite buckets of the latency histogram.
const numBuckets = 13

// histogram is one endpoint's latency histogram.
type histogram struct {
	counts [numBuckets + 1]uint64 // the last one is +Inf
	sum    float64
	count  uint64
}

// metrics are the counters of one handler, written in the Prometheus text
// exposition format by serve.
type metrics struct {
	inFlight atomic.Int64

	mu        sync.Mutex
	requests  map[endpointStatus]uint64
	latencies map[string]*histogram
}

type endpointStatus struct {
	endpoint string
	status   int
}

func newMetrics() *metrics {
	return &metrics{requests: map[endpointStatus]uint64{}, latencies: map[string]*histogram{}}
}

// observe records one finished request.
func (m *metrics) observe(endpoint string, status int, d time.Duration) {
	sec := d.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[endpointStatus{endpoint, status}]++
	h := m.latencies[endpoint]
	if h == nil {
		h = &histogram{}
		m.latencies[endpoint] = h
	}
	buckets := latencyBuckets()
	i := 0
	for i < numBuckets && sec > buckets[i] {
		i++
	}
	h.counts[i]++
	h.sum += sec
	h.count++
}

// serve writes the metrics in the Prometheus text format, series sorted by
// their labels.
func (m *metrics) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	keys := make([]endpointStatus, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b endpointStatus) int {
		if a.endpoint != b.endpoint {
			if a.endpoint < b.endpoint {
				return -1
			}
			return 1
		}
		return a.status - b.status
	})
	counts := make([]uint64, len(keys))
	for i, k := range keys {
		counts[i] = m.requests[k]
	}
	names := make([]string, 0, len(m.latencies))
	for k := range m.latencies {
		names = append(names, k)
	}
	slices.Sort(names)
	hists := make([]histogram, len(names))
	for i, n := range names {
		hists[i] = *m.latencies[n]
	}
	m.mu.Unlock()

	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# HELP isolda_http_requests_total HTTP requests by endpoint and status code.")
	fmt.Fprintln(bw, "# TYPE isolda_http_requests_total counter")
	for i, k := range keys {
		fmt.Fprintf(bw, "isolda_http_requests_total{endpoint=%q,code=\"%d\"} %d\n", k.endpoint, k.status, counts[i])
	}
	fmt.Fprintln(bw, "# HELP isolda_http_request_duration_seconds Time to answer an HTTP request, by endpoint.")
	fmt.Fprintln(bw, "# TYPE isolda_http_request_duration_seconds histogram")
	for i, n := range names {
		h := hists[i]
		var cum uint64
		for j, le := range latencyBuckets() {
			cum += h.counts[j]
			fmt.Fprintf(bw, "isolda_http_request_duration_seconds_bucket{endpoint=%q,le=%q} %d\n", n,
				strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		cum += h.counts[numBuckets]
		fmt.Fprintf(bw, "isolda_http_request_duration_seconds_bucket{endpoint=%q,le=\"+Inf\"} %d\n", n, cum)
		fmt.Fprintf(bw, "isolda_http_request_duration_seconds_sum{endpoint=%q} %s\n", n,
			strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(bw, "isolda_http_request_duration_seconds_count{endpoint=%q} %d\n", n, h.count)
	}
	fmt.Fprintln(bw, "# HELP isolda_http_requests_in_flight HTTP requests being answered now.")
	fmt.Fprintln(bw, "# TYPE isolda_http_requests_in_flight gauge")
	fmt.Fprintf(bw, "isolda_http_requests_in_flight %d\n", m.inFlight.Load())
	bw.Flush()
}
