package loadgen

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Quantiles summarize latencies. The quantiles are exact: the nearest-rank
// value of all the samples (see Quantile).
type Quantiles struct {
	Count int           `json:"count"`
	P50   time.Duration `json:"p50_ns"`
	P90   time.Duration `json:"p90_ns"`
	P99   time.Duration `json:"p99_ns"`
	P999  time.Duration `json:"p999_ns"`
	Max   time.Duration `json:"max_ns"`
	Mean  time.Duration `json:"mean_ns"`
}

// Quantile returns the nearest-rank p-quantile of the sorted values: the
// value of rank ceil(p·n) (1-based), the smallest value with at least a
// fraction p of the values at or below it. It returns 0 for no values.
func Quantile(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	// The small epsilon keeps p·n from rounding up past an integer
	// (0.99·100 is 99.00000000000001 in floating point).
	r := int(math.Ceil(p*float64(n) - 1e-9))
	return sorted[min(max(r, 1), n)-1]
}

// Summarize returns the quantiles of v (v is sorted in place).
func Summarize(v []time.Duration) Quantiles {
	slices.Sort(v)
	q := Quantiles{Count: len(v)}
	if len(v) == 0 {
		return q
	}
	var sum float64
	for _, d := range v {
		sum += float64(d)
	}
	q.P50, q.P90, q.P99, q.P999 = Quantile(v, 0.50), Quantile(v, 0.90), Quantile(v, 0.99), Quantile(v, 0.999)
	q.Max = v[len(v)-1]
	q.Mean = time.Duration(sum / float64(len(v)))
	return q
}

// Row is one window of the run, by the requests' scheduled times.
type Row struct {
	// From is the window's start.
	From time.Duration `json:"from_ns"`
	// Requests are those scheduled in the window; Errors those of them not
	// answered with an OK status (unsent ones included).
	Requests int `json:"requests"`
	Errors   int `json:"errors"`
	// Sent are those of them sent; the latencies are theirs, from their
	// scheduled time ("-" in the table when none was sent).
	Sent int           `json:"sent"`
	P50  time.Duration `json:"p50_ns"`
	P90  time.Duration `json:"p90_ns"`
	P99  time.Duration `json:"p99_ns"`
	Max  time.Duration `json:"max_ns"`
	// RSS and Heap are the medians of the memory samples taken in the
	// window (-1 when none).
	RSS  int64 `json:"rss_bytes"`
	Heap int64 `json:"heap_bytes"`
}

// Result is the outcome of a run.
type Result struct {
	URL         string        `json:"url"`
	Method      string        `json:"method"`
	BodyBytes   int           `json:"body_bytes"`
	Rate        float64       `json:"rate"`
	Duration    time.Duration `json:"duration_ns"`
	MaxInFlight int           `json:"max_in_flight"`
	Window      time.Duration `json:"window_ns"`
	Start       time.Time     `json:"start"`
	// Elapsed is the time from the start to the end of the last request.
	Elapsed time.Duration `json:"elapsed_ns"`

	// Scheduled = Sent + Unsent; Sent = Answered + transport errors.
	Scheduled int `json:"scheduled"`
	Sent      int `json:"sent"`
	Unsent    int `json:"unsent"`
	Answered  int `json:"answered"`
	OK        int `json:"ok"`
	// Errors counts every scheduled request without an OK answer.
	Errors int `json:"errors"`
	// Status counts the answers by HTTP status.
	Status map[int]int `json:"status"`
	// Transport counts the transport errors by kind (timeout, connection
	// closed, dial error, ...).
	Transport map[string]int `json:"transport_errors"`
	// Throughput is OK answers per second of Elapsed.
	Throughput float64 `json:"throughput"`
	// TargetCPU is the CPU time (user plus system) the process PID used
	// during the run, -1 when not sampled: divided by Answered, the CPU
	// cost of a request, a figure other jobs on the machine hardly change.
	TargetCPU time.Duration `json:"target_cpu_ns"`

	// Latency is from the scheduled send time (corrected for coordinated
	// omission); Service from the real send time. Both cover every sent
	// request, errors included.
	Latency Quantiles `json:"latency"`
	Service Quantiles `json:"service"`

	Rows   []Row       `json:"rows"`
	Memory []MemSample `json:"memory,omitempty"`
	// HeapNote says why there is no Go heap in Memory, if there is none.
	HeapNote string  `json:"heap_note,omitempty"`
	Verdict  Verdict `json:"memory_verdict"`

	// Samples are all the requests, in scheduled order.
	Samples []Sample `json:"-"`

	// ok is Config.OK (nil: 2xx).
	ok func(status int) bool
}

func newResult(cfg Config, start time.Time, end time.Duration, samples []Sample,
	transport map[string]int, mem []MemSample, heapNote string) *Result {
	r := &Result{
		URL: cfg.URL, Method: cfg.Method, BodyBytes: len(cfg.Body), Rate: cfg.Rate, Duration: cfg.Duration,
		MaxInFlight: cfg.MaxInFlight, Window: cfg.Window, Start: start, Scheduled: len(samples),
		Status: map[int]int{}, Transport: transport, Memory: mem, HeapNote: heapNote, Samples: samples,
		ok: cfg.OK,
	}
	lat := make([]time.Duration, 0, len(samples))
	svc := make([]time.Duration, 0, len(samples))
	var last time.Duration
	for _, s := range samples {
		switch {
		case s.Status == StatusUnsent:
			r.Unsent++
			r.Errors++
			continue
		case s.Status == StatusTransport:
			r.Errors++
		default:
			r.Answered++
			r.Status[s.Status]++
			if cfg.OK(s.Status) {
				r.OK++
			} else {
				r.Errors++
			}
		}
		r.Sent++
		lat = append(lat, s.Latency)
		svc = append(svc, s.Service)
		last = max(last, s.Scheduled+s.Latency)
	}
	r.Elapsed = last
	if r.Elapsed <= 0 {
		r.Elapsed = end
	}
	r.Throughput = float64(r.OK) / r.Elapsed.Seconds()
	r.Latency = Summarize(lat)
	r.Service = Summarize(svc)
	r.Rows = rows(cfg, samples, mem)
	r.Verdict = Judge(windowMedians(mem, cfg.Window, cfg.Duration))
	return r
}

// rows cuts the samples into windows by scheduled time.
func rows(cfg Config, samples []Sample, mem []MemSample) []Row {
	k := int((cfg.Duration + cfg.Window - 1) / cfg.Window)
	out := make([]Row, k)
	lats := make([][]time.Duration, k)
	rss := make([][]int64, k)
	heap := make([][]int64, k)
	for i := range out {
		out[i] = Row{From: time.Duration(i) * cfg.Window}
	}
	for _, s := range samples {
		i := min(int(s.Scheduled/cfg.Window), k-1)
		out[i].Requests++
		if s.Status == StatusUnsent || s.Status == StatusTransport || !cfg.OK(s.Status) {
			out[i].Errors++
		}
		if s.Status != StatusUnsent {
			out[i].Sent++
			lats[i] = append(lats[i], s.Latency)
		}
	}
	for _, m := range mem {
		i := int(m.At / cfg.Window)
		if i >= k {
			continue
		}
		if m.RSS >= 0 {
			rss[i] = append(rss[i], m.RSS)
		}
		if m.Heap >= 0 {
			heap[i] = append(heap[i], m.Heap)
		}
	}
	for i := range out {
		q := Summarize(lats[i])
		out[i].P50, out[i].P90, out[i].P99, out[i].Max = q.P50, q.P90, q.P99, q.Max
		out[i].RSS, out[i].Heap = medianInt(rss[i]), medianInt(heap[i])
	}
	return out
}

// ms formats d in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }

// mibOrDash formats bytes in MiB, or "-" when unknown.
func mibOrDash(b int64) string {
	if b < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", mib(b))
}

// clock formats an offset as minutes:seconds, with tenths when it is not
// a whole second.
func clock(d time.Duration) string {
	m := int64(d / time.Minute)
	if d%time.Second == 0 {
		return fmt.Sprintf("%d:%02d", m, int64((d%time.Minute)/time.Second))
	}
	return fmt.Sprintf("%d:%04.1f", m, (d % time.Minute).Seconds())
}

// WriteTable writes one line per window: requests, errors, latency
// quantiles from the scheduled send time in milliseconds, and the median
// RSS and Go heap in MiB.
func (r *Result) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%6s %9s %7s %9s %9s %9s %9s %8s %8s\n",
		"from", "requests", "errors", "p50_ms", "p90_ms", "p99_ms", "max_ms", "rss_MiB", "heap_MiB")
	for _, row := range r.Rows {
		lat := []string{ms(row.P50), ms(row.P90), ms(row.P99), ms(row.Max)}
		if row.Sent == 0 {
			lat = []string{"-", "-", "-", "-"}
		}
		fmt.Fprintf(bw, "%6s %9d %7d %9s %9s %9s %9s %8s %8s\n", clock(row.From), row.Requests, row.Errors,
			lat[0], lat[1], lat[2], lat[3], mibOrDash(row.RSS), mibOrDash(row.Heap))
	}
	return bw.Flush()
}

// WriteSummary writes the run's totals, quantiles, errors and memory
// verdict.
func (r *Result) WriteSummary(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "target      %s %s (body %d bytes)\n", r.Method, r.URL, r.BodyBytes)
	fmt.Fprintf(bw, "schedule    %g req/s for %s: %d scheduled, at most %d in flight\n",
		r.Rate, r.Duration, r.Scheduled, r.MaxInFlight)
	fmt.Fprintf(bw, "requests    sent %d, answered %d, ok %d, unsent %d, elapsed %s\n",
		r.Sent, r.Answered, r.OK, r.Unsent, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(bw, "throughput  %.1f ok/s\n", r.Throughput)
	fmt.Fprintf(bw, "status      %s\n", r.statusDetail())
	fmt.Fprintf(bw, "errors      %d%s\n", r.Errors, r.errorDetail())
	fmt.Fprintf(bw, "latency ms  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s  (from the scheduled send time)\n",
		ms(r.Latency.P50), ms(r.Latency.P90), ms(r.Latency.P99), ms(r.Latency.P999), ms(r.Latency.Max), ms(r.Latency.Mean))
	fmt.Fprintf(bw, "service ms  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s  (from the real send time)\n",
		ms(r.Service.P50), ms(r.Service.P90), ms(r.Service.P99), ms(r.Service.P999), ms(r.Service.Max), ms(r.Service.Mean))
	if r.TargetCPU >= 0 && r.Answered > 0 && r.Elapsed > 0 {
		fmt.Fprintf(bw, "target cpu  %.2f s: %.2f ms per answered request, %.2f cores over the run\n", r.TargetCPU.Seconds(),
			float64(r.TargetCPU)/1e6/float64(r.Answered), r.TargetCPU.Seconds()/r.Elapsed.Seconds())
	}
	if len(r.Memory) > 0 {
		var hwm, rss int64 = -1, -1
		for _, m := range r.Memory {
			hwm = max(hwm, m.HWM)
			if m.RSS >= 0 {
				rss = m.RSS
			}
		}
		fmt.Fprintf(bw, "memory      RSS last %s MiB, VmHWM %s MiB, %d samples\n", mibOrDash(rss), mibOrDash(hwm), len(r.Memory))
	}
	if r.HeapNote != "" {
		fmt.Fprintf(bw, "go heap     %s\n", r.HeapNote)
	}
	flat := "not judged"
	if r.Verdict.Judged {
		flat = "no"
		if r.Verdict.Flat {
			flat = "yes"
		}
	}
	fmt.Fprintf(bw, "flat memory %s: %s\n", flat, r.Verdict.Reason)
	return bw.Flush()
}

// statusCodes returns the answered statuses, sorted.
func (r *Result) statusCodes() []int {
	return slices.Sorted(maps.Keys(r.Status))
}

// statusDetail lists the answers by status, sorted.
func (r *Result) statusDetail() string {
	var parts []string
	for _, c := range r.statusCodes() {
		parts = append(parts, fmt.Sprintf("%d: %d", c, r.Status[c]))
	}
	if len(parts) == 0 {
		return "no answers"
	}
	return strings.Join(parts, ", ")
}

// errorDetail lists the errors by status and kind, sorted.
func (r *Result) errorDetail() string {
	ok := r.ok
	if ok == nil {
		ok = is2xx
	}
	var parts []string
	for _, c := range r.statusCodes() {
		if !ok(c) {
			parts = append(parts, fmt.Sprintf("%d: %d", c, r.Status[c]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(r.Transport)) {
		parts = append(parts, fmt.Sprintf("%s: %d", k, r.Transport[k]))
	}
	if r.Unsent > 0 {
		parts = append(parts, fmt.Sprintf("unsent: %d", r.Unsent))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// WriteText writes the table, a blank line and the summary.
func (r *Result) WriteText(w io.Writer) error {
	if err := r.WriteTable(w); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return r.WriteSummary(w)
}
