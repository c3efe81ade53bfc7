package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MemSample is one memory sample of the process under test, taken At after
// the run's start. A field is -1 when it is unknown.
type MemSample struct {
	At time.Duration `json:"at_ns"`
	// RSS and HWM are VmRSS and VmHWM (peak RSS) of /proc/PID/status, in
	// bytes.
	RSS int64 `json:"rss_bytes"`
	HWM int64 `json:"hwm_bytes"`
	// Heap is the first of HeapMetrics found on the metrics page, in
	// bytes.
	Heap int64 `json:"heap_bytes"`
}

// HeapMetrics returns the names of the Prometheus series read as the Go
// heap, in order of preference (the names of the Prometheus Go client's
// collector).
func HeapMetrics() []string {
	return []string{"go_memstats_heap_alloc_bytes", "go_memstats_heap_inuse_bytes", "go_memstats_alloc_bytes"}
}

// ProcStatus reads VmRSS and VmHWM of process pid from /proc/PID/status,
// in bytes.
func ProcStatus(pid int) (rss, hwm int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1, -1, err
	}
	defer f.Close()
	return parseProcStatus(f)
}

// parseProcStatus reads the VmRSS and VmHWM lines ("VmRSS:\t  1234 kB").
func parseProcStatus(r io.Reader) (rss, hwm int64, err error) {
	rss, hwm = -1, -1
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return -1, -1, fmt.Errorf("loadgen: /proc status line %q: not a size in kB", sc.Text())
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			return -1, -1, fmt.Errorf("loadgen: /proc status line %q: not a size in kB", sc.Text())
		}
		if name == "VmRSS" {
			rss = v << 10
		} else {
			hwm = v << 10
		}
	}
	if err := sc.Err(); err != nil {
		return -1, -1, err
	}
	if rss < 0 || hwm < 0 {
		return -1, -1, fmt.Errorf("loadgen: no VmRSS or VmHWM in the /proc status (a kernel thread, or not Linux)")
	}
	return rss, hwm, nil
}

// userHZ is the unit of the CPU times of /proc/PID/stat (USER_HZ, 100 on
// Linux whatever the kernel's own tick rate).
const userHZ = 100

// ProcCPU returns the CPU time (user plus system) process pid has used, from
// /proc/PID/stat.
func ProcCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1, err
	}
	return parseProcStat(string(b))
}

// parseProcStat reads utime and stime (fields 14 and 15) of a
// /proc/PID/stat line; the command name, field 2, is in parentheses and
// may hold spaces and parentheses, so fields are counted from the last ')'.
func parseProcStat(s string) (time.Duration, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1, fmt.Errorf("loadgen: /proc stat %.40q: no command name", s)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return -1, fmt.Errorf("loadgen: /proc stat %.40q: too few fields", s)
	}
	var ticks int64
	for _, x := range f[11:13] {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil || v < 0 {
			return -1, fmt.Errorf("loadgen: /proc stat: CPU time %q", x)
		}
		ticks += v
	}
	return time.Duration(ticks) * (time.Second / userHZ), nil
}

// parseHeap returns the value of the first of heapMetrics found in a
// Prometheus text page, or -1.
func parseHeap(r io.Reader) (int64, error) {
	heapMetrics := HeapMetrics()
	found := make(map[string]float64, len(heapMetrics))
	sc := bufio.NewScanner(io.LimitReader(r, 16<<20))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		end := strings.IndexAny(line, "{ \t")
		if end < 0 || !slices.Contains(heapMetrics, line[:end]) {
			continue
		}
		name := line[:end]
		rest := line[end:]
		if rest[0] == '{' {
			// Heap gauges have no labels; skip a labelled series.
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 1 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return -1, fmt.Errorf("loadgen: metrics line %q: %v", line, err)
		}
		found[name] = v
	}
	if err := sc.Err(); err != nil {
		return -1, err
	}
	for _, name := range heapMetrics {
		if v, ok := found[name]; ok {
			return int64(v), nil
		}
	}
	return -1, nil
}

// sampler samples the memory of the process under test.
type sampler struct {
	cfg    Config
	start  time.Time
	client *http.Client
	// sawHeap and metricsErr say what the metrics page gave (read after
	// run returns).
	sawHeap    bool
	metricsErr error
}

func newSampler(cfg Config, start time.Time) *sampler {
	client := cfg.MetricsClient
	if client == nil {
		client = &http.Client{Timeout: cfg.SampleEvery + time.Second}
	}
	return &sampler{cfg: cfg, start: start, client: client}
}

// run samples every SampleEvery until ctx is done, then once more.
func (s *sampler) run(ctx context.Context) []MemSample {
	if s.cfg.PID == 0 && s.cfg.MetricsURL == "" {
		return nil
	}
	out := make([]MemSample, 0, int(s.cfg.Duration/s.cfg.SampleEvery)+2)
	t := time.NewTicker(s.cfg.SampleEvery)
	defer t.Stop()
	for {
		out = append(out, s.sample(ctx))
		select {
		case <-t.C:
		case <-ctx.Done():
			out = append(out, s.sample(context.Background()))
			return out
		}
	}
}

func (s *sampler) sample(ctx context.Context) MemSample {
	m := MemSample{At: time.Since(s.start), RSS: -1, HWM: -1, Heap: -1}
	if s.cfg.PID != 0 {
		m.RSS, m.HWM, _ = ProcStatus(s.cfg.PID)
	}
	if s.cfg.MetricsURL != "" {
		m.Heap = s.heap(ctx)
	}
	return m
}

func (s *sampler) heap(ctx context.Context) int64 {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.MetricsURL, nil)
	if err != nil {
		s.metricsErr = err
		return -1
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.metricsErr = err
		return -1
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.metricsErr = fmt.Errorf("GET %s: status %d", s.cfg.MetricsURL, resp.StatusCode)
		return -1
	}
	v, err := parseHeap(resp.Body)
	if err != nil {
		s.metricsErr = err
	}
	if v >= 0 {
		s.sawHeap = true
	}
	return v
}

// heapNote says why there is no Go heap in the samples, if there is none.
func (s *sampler) heapNote() string {
	switch {
	case s.cfg.MetricsURL == "":
		return "not sampled (no metrics URL)"
	case s.sawHeap:
		return ""
	case s.metricsErr != nil:
		return "not sampled: " + s.metricsErr.Error()
	}
	return fmt.Sprintf("not exposed: %s has none of %s", s.cfg.MetricsURL, strings.Join(HeapMetrics(), ", "))
}

// Flat-memory rule parameters (see FlatRule).
const (
	// FlatTolerance is the growth over the baseline window allowed in the
	// tail windows.
	FlatTolerance = 0.10
	// FlatTailWindows is the number of last windows checked.
	FlatTailWindows = 5
	// MonotoneMinGrowth is the total growth above which a strictly
	// increasing series counts as a leak.
	MonotoneMinGrowth = 0.02
)

// FlatRule states the flat-memory rule of Verdict in words.
const FlatRule = "RSS is flat when, with m[k] the median VmRSS of the samples in window k " +
	"(windows of the table, only whole ones, at least 3): every one of the last min(5, K-2) windows has " +
	"m[k] <= 1.10 * m[1] (window 1, after the warm-up window 0, is the baseline), and, when K >= 4, " +
	"m[1..K-1] is not strictly increasing with m[K-1] > 1.02 * m[1] (monotone growth)"

// Verdict is the flat-memory verdict of a run.
type Verdict struct {
	// Judged is false when there were too few windows or no RSS samples;
	// Flat is meaningful only when Judged.
	Judged bool `json:"judged"`
	Flat   bool `json:"flat"`
	// Baseline and Last are m[1] and m[K-1] in bytes; Peak is the largest
	// tail m[k].
	Baseline int64 `json:"baseline_rss_bytes"`
	Last     int64 `json:"last_rss_bytes"`
	Peak     int64 `json:"peak_tail_rss_bytes"`
	// Reason says why, in a sentence.
	Reason string `json:"reason"`
}

// windowMedians returns the median RSS of the samples in each whole window
// of width w in [0, d) (-1 for a window without samples).
func windowMedians(mem []MemSample, w, d time.Duration) []int64 {
	k := int(d / w)
	out := make([]int64, k)
	var vals []int64
	for i := range k {
		vals = vals[:0]
		lo, hi := time.Duration(i)*w, time.Duration(i+1)*w
		for _, m := range mem {
			if m.At >= lo && m.At < hi && m.RSS >= 0 {
				vals = append(vals, m.RSS)
			}
		}
		out[i] = medianInt(vals)
	}
	return out
}

// medianInt returns the lower median of v, or -1 when v is empty.
func medianInt(v []int64) int64 {
	if len(v) == 0 {
		return -1
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// Judge applies FlatRule to the window medians m (see windowMedians).
func Judge(m []int64) Verdict {
	k := len(m)
	if k < 3 {
		return Verdict{Reason: fmt.Sprintf("%d whole windows, the rule needs at least 3", k)}
	}
	if slices.Contains(m, -1) {
		return Verdict{Reason: "a window has no RSS sample"}
	}
	v := Verdict{Judged: true, Flat: true, Baseline: m[1], Last: m[k-1]}
	limit := float64(m[1]) * (1 + FlatTolerance)
	for i := max(2, k-FlatTailWindows); i < k; i++ {
		v.Peak = max(v.Peak, m[i])
		if float64(m[i]) > limit && v.Flat {
			v.Flat = false
			v.Reason = fmt.Sprintf("window %d median RSS %.1f MiB is more than 110%% of window 1's %.1f MiB",
				i, mib(m[i]), mib(m[1]))
		}
	}
	increasing := k >= 4
	for i := 2; i < k; i++ {
		if m[i] <= m[i-1] {
			increasing = false
		}
	}
	if v.Flat && increasing && float64(m[k-1]) > float64(m[1])*(1+MonotoneMinGrowth) {
		v.Flat = false
		v.Reason = fmt.Sprintf("median RSS grew in every window from %.1f MiB to %.1f MiB (monotone growth)",
			mib(m[1]), mib(m[k-1]))
	}
	if v.Flat {
		v.Reason = fmt.Sprintf("tail windows within %+.1f%% of window 1 (limit +10%%), no monotone growth",
			100*(float64(v.Peak)/float64(m[1])-1))
	}
	return v
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
