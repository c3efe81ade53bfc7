package server

import (
	"bufio"
	"fmt"
	"net/http"
	rtmetrics "runtime/metrics"
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
	mem      *memBudget
	workers  *workerStats
	adm      *admission

	mu        sync.Mutex
	requests  map[endpointStatus]uint64
	latencies map[string]*histogram
}

type endpointStatus struct {
	endpoint string
	status   int
}

func newMetrics(mem *memBudget, workers *workerStats, adm *admission) *metrics {
	return &metrics{mem: mem, workers: workers, adm: adm, requests: map[endpointStatus]uint64{}, latencies: map[string]*histogram{}}
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
	used, peak, refused, tooLarge := m.mem.stats()
	fmt.Fprintf(bw, "# HELP isolda_memory_budget_bytes Memory budget of the requests in progress (--memory-budget).\n"+
		"# TYPE isolda_memory_budget_bytes gauge\nisolda_memory_budget_bytes %d\n", m.mem.limit)
	fmt.Fprintf(bw, "# HELP isolda_memory_reserved_bytes Memory reserved now by the requests in progress, as estimated.\n"+
		"# TYPE isolda_memory_reserved_bytes gauge\nisolda_memory_reserved_bytes %d\n", used)
	fmt.Fprintf(bw, "# HELP isolda_memory_reserved_peak_bytes Largest memory reserved at once since the start.\n"+
		"# TYPE isolda_memory_reserved_peak_bytes gauge\nisolda_memory_reserved_peak_bytes %d\n", peak)
	fmt.Fprintf(bw, "# HELP isolda_memory_refused_total Reservations refused because the budget was full (503).\n"+
		"# TYPE isolda_memory_refused_total counter\nisolda_memory_refused_total %d\n", refused)
	fmt.Fprintf(bw, "# HELP isolda_memory_too_large_total Requests that alone needed more than the budget (413).\n"+
		"# TYPE isolda_memory_too_large_total counter\nisolda_memory_too_large_total %d\n", tooLarge)
	general, large, clients, refGeneral, refLarge, refClient := m.adm.stats()
	fmt.Fprintf(bw, "# HELP isolda_slots_in_use Slots held now, by kind: general (--max-concurrent) or large (--max-large).\n"+
		"# TYPE isolda_slots_in_use gauge\nisolda_slots_in_use{kind=\"general\"} %d\nisolda_slots_in_use{kind=\"large\"} %d\n", general, large)
	fmt.Fprintf(bw, "# HELP isolda_clients_in_progress Clients (IP addresses) with requests in progress now.\n"+
		"# TYPE isolda_clients_in_progress gauge\nisolda_clients_in_progress %d\n", clients)
	fmt.Fprintf(bw, "# HELP isolda_admission_refused_total Requests refused 429 by admission: no general slot free, no large slot free, or the client holding its share.\n"+
		"# TYPE isolda_admission_refused_total counter\nisolda_admission_refused_total{reason=\"general\"} %d\n"+
		"isolda_admission_refused_total{reason=\"large\"} %d\nisolda_admission_refused_total{reason=\"client\"} %d\n",
		refGeneral, refLarge, refClient)
	fmt.Fprintf(bw, "# HELP isolda_connections_refused_total Connections of clients back before their Retry-After, answered 429 at the listener before HTTP (also counted in isolda_admission_refused_total{reason=\"client\"}).\n"+
		"# TYPE isolda_connections_refused_total counter\nisolda_connections_refused_total %d\n", m.adm.connRefusals())
	m.workers.write(bw)
	writeRuntimeMetrics(bw)
	bw.Flush()
}

// runtimeSeries are the Go runtime series of /metrics, named as the
// Prometheus Go client names them (so that dashboards and
// internal/loadgen's memory sampler find them) and read from
// runtime/metrics, which, unlike runtime.ReadMemStats, does not stop the
// world.
func runtimeSeries() []struct {
	name, kind, help string
	samples          []string // runtime/metrics names, summed
} {
	return []struct {
		name, kind, help string
		samples          []string
	}{
		{"go_goroutines", "gauge", "Number of goroutines that currently exist.",
			[]string{"/sched/goroutines:goroutines"}},
		{"go_memstats_heap_alloc_bytes", "gauge", "Number of heap bytes allocated and still in use (live and not yet swept objects).",
			[]string{"/memory/classes/heap/objects:bytes"}},
		{"go_memstats_heap_inuse_bytes", "gauge", "Number of heap bytes in spans that are in use.",
			[]string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}},
		{"go_memstats_sys_bytes", "gauge", "Number of bytes obtained from the operating system.",
			[]string{"/memory/classes/total:bytes"}},
		{"go_memstats_alloc_bytes_total", "counter", "Total number of heap bytes allocated, even if freed.",
			[]string{"/gc/heap/allocs:bytes"}},
		{"go_gc_cycles_total", "counter", "Number of completed garbage collection cycles.",
			[]string{"/gc/cycles/total:gc-cycles"}},
		{"go_gc_gogc_percent", "gauge", "Heap size target percentage (GOGC, or --gogc of isolda serve).",
			[]string{"/gc/gogc:percent"}},
		{"go_gc_gomemlimit_bytes", "gauge", "Go runtime memory limit (GOMEMLIMIT, or --memory-limit of isolda serve).",
			[]string{"/gc/gomemlimit:bytes"}},
	}
}

// writeRuntimeMetrics writes the runtime series in a fixed order; a sample
// this Go version does not know is left out.
func writeRuntimeMetrics(bw *bufio.Writer) {
	series := runtimeSeries()
	var samples []rtmetrics.Sample
	for _, s := range series {
		for _, name := range s.samples {
			samples = append(samples, rtmetrics.Sample{Name: name})
		}
	}
	rtmetrics.Read(samples)
	k := 0
	for _, s := range series {
		var sum uint64
		ok := true
		for range s.samples {
			if samples[k].Value.Kind() != rtmetrics.KindUint64 {
				ok = false
			} else {
				sum += samples[k].Value.Uint64()
			}
			k++
		}
		if !ok {
			continue
		}
		fmt.Fprintf(bw, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", s.name, s.help, s.name, s.kind, s.name, sum)
	}
}
