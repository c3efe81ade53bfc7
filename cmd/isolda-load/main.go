// Command isolda-load is the load test of `isolda serve`: it sends one
// request body at a constant rate (open loop, latency measured from the
// scheduled send time; see package internal/loadgen), samples the server's
// memory, and prints per-window rows, a summary and a flat-memory verdict.
//
// Without --body it builds its request from the first --triples lines
// (default 1,000) of the Nomisma.org N-Triples dump of the shared data
// folder (../shared/data/big/nomisma.nt.gz, or --data): a POST
// /v1/serialize asking for --format (isolda) with the --tokenizer
// (o200k_base) token count, and with --budget a record-aware (--truncation
// record) budget.
//
// --rate takes a comma-separated list for a ramp: one stage per rate, each
// for --duration, then a table of the stages.
//
// Usage:
//
//	isolda-load --url http://127.0.0.1:8080/v1/serialize --rate 200 --duration 10m --pid 1234
//	isolda-load --rate 100,200,400,800 --duration 30s
//	isolda-load --write-body req.json
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/internal/bytesize"
	"github.com/isolda/isolda/internal/testkit/loadgen"
	"github.com/isolda/isolda/internal/testkit/shared"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	url          string
	rates        []float64
	duration     time.Duration
	concurrency  int
	timeout      time.Duration
	body         string
	data         string
	triples      int
	format       string
	tokenizer    string
	budget       int
	truncation   string
	pid          int
	metrics      string
	sampleEvery  time.Duration
	window       time.Duration
	jsonOut      string
	writeBody    string
	targetP99    time.Duration
	strict       bool
	pause        time.Duration
	hostile      float64
	attacks      []string
	hostileMax   int
	clients      int
	hostileCli   int
	hostilePause time.Duration
	memoryLimit  int64
}

// request is the body of POST /v1/serialize (the fields this tool sets).
type request struct {
	Graph struct {
		Data   string `json:"data"`
		Format string `json:"format"`
	} `json:"graph"`
	Format     string `json:"format"`
	Tokenizer  string `json:"tokenizer"`
	Budget     int    `json:"budget,omitempty"`
	Truncation string `json:"truncation,omitempty"`
}

// answer is the part of the /v1/serialize answer the preflight prints.
type answer struct {
	Quads     int    `json:"quads"`
	Tokens    int    `json:"tokens"`
	Bytes     int    `json:"bytes"`
	Tokenizer string `json:"tokenizer"`
	Format    string `json:"format"`
	Truncated bool   `json:"truncated"`
	Dropped   struct {
		Records int `json:"records"`
		Tokens  int `json:"tokens"`
	} `json:"dropped"`
	GraphHash string `json:"graph_hash"`
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("isolda-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rates string
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080/v1/serialize", "target URL")
	fs.StringVar(&rates, "rate", "200", "requests per second; a comma-separated list runs a ramp, one stage per rate")
	fs.DurationVar(&o.duration, "duration", time.Minute, "length of each stage")
	fs.IntVar(&o.concurrency, "concurrency", 8, "most requests in flight (connections); keep it at the server's --max-concurrent, beyond which it answers 429")
	fs.DurationVar(&o.timeout, "timeout", loadgen.DefaultTimeout, "time limit of one request")
	fs.StringVar(&o.body, "body", "", "file holding the request body (default: the built-in /v1/serialize request)")
	fs.StringVar(&o.data, "data", "", "N-Triples file (.nt or .nt.gz) of the built-in request (default: ../shared/data/big/nomisma.nt.gz)")
	fs.IntVar(&o.triples, "triples", 1000, "triples of the built-in request: the first lines of --data")
	fs.StringVar(&o.format, "format", "isolda", "format of the built-in request")
	fs.StringVar(&o.tokenizer, "tokenizer", "o200k_base", "tokenizer of the built-in request")
	fs.IntVar(&o.budget, "budget", 0, "token budget of the built-in request (0: none)")
	fs.StringVar(&o.truncation, "truncation", "record", "truncation of the built-in request with a budget: record or raw")
	fs.IntVar(&o.pid, "pid", 0, "process whose memory (/proc/PID/status) is sampled")
	fs.StringVar(&o.metrics, "metrics", "auto", "Prometheus page read for the Go heap; auto: /metrics of --url's host when --pid is set; none: off")
	fs.DurationVar(&o.sampleEvery, "sample-every", time.Second, "memory sampling interval")
	fs.DurationVar(&o.window, "window", time.Minute, "width of the table's rows and of the flat-memory windows")
	fs.StringVar(&o.jsonOut, "json", "", "write the results as JSON to this file")
	fs.StringVar(&o.writeBody, "write-body", "", "write the request body to this file and exit")
	fs.DurationVar(&o.targetP99, "target-p99", 20*time.Millisecond, "p99 latency target reported as met or not (0: none)")
	fs.BoolVar(&o.strict, "strict", false, "exit with status 1 when a stage has errors, misses --target-p99 or has memory judged not flat")
	fs.DurationVar(&o.pause, "pause", 2*time.Second, "pause between the stages of a ramp")
	fs.Float64Var(&o.hostile, "hostile", 0, "hostile requests started per second beside the load (poison graphs, large graphs, slow bodies, "+
		"malformed requests; see internal/loadgen.Attacks); 0: none")
	fs.IntVar(&o.hostileMax, "hostile-max", 16, "most hostile requests in progress at once")
	fs.IntVar(&o.clients, "clients", 1, "clients of the load, each from a loopback address of its own (127.1.x.y; the target must be on "+
		"loopback): a server that shares its capacity by client sees that many")
	fs.IntVar(&o.hostileCli, "hostile-clients", 0, "instead of --hostile's rate: that many hostile clients, each from a loopback address of "+
		"its own (127.2.x.y), sending the --attacks one after the other in a closed loop without waiting for Retry-After")
	fs.DurationVar(&o.hostilePause, "hostile-pause", 0, "with --hostile-clients: what each hostile client waits after an answer (0: a tight loop)")
	var attacks string
	fs.StringVar(&attacks, "attacks", "", "with --hostile or --hostile-clients: the attacks of the mix, comma-separated names (default: all "+
		"of internal/loadgen.Attacks; the expensive list-0.5mb and large-2mb of ExpensiveAttacks only when named)")
	var memoryLimit string
	fs.StringVar(&memoryLimit, "memory-limit", "", "peak RSS (VmHWM of --pid) the server must stay under, such as 2GiB; a stage over it fails")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, f := range strings.Split(rates, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(r > 0) {
			return nil, fmt.Errorf("--rate: %q is not a positive number", f)
		}
		o.rates = append(o.rates, r)
	}
	if memoryLimit != "" {
		n, err := bytesize.Parse(memoryLimit)
		if err != nil {
			return nil, fmt.Errorf("--memory-limit: %v", err)
		}
		o.memoryLimit = n
	}
	if attacks != "" {
		known := map[string]bool{}
		var names []string
		for _, a := range loadgen.AllAttacks() {
			known[a.Name] = true
			names = append(names, a.Name)
		}
		for _, n := range strings.Split(attacks, ",") {
			if n = strings.TrimSpace(n); !known[n] {
				return nil, fmt.Errorf("--attacks: unknown attack %q (known: %s)", n, strings.Join(names, ", "))
			}
			o.attacks = append(o.attacks, n)
		}
	}
	if o.hostile < 0 || o.hostileMax <= 0 || o.hostileCli < 0 || o.clients < 1 {
		return nil, errors.New("--hostile and --hostile-clients must not be negative, --hostile-max and --clients must be positive")
	}
	if o.triples <= 0 {
		return nil, errors.New("--triples must be positive")
	}
	if o.truncation != "record" && o.truncation != "raw" {
		return nil, fmt.Errorf("--truncation: %q is not record or raw", o.truncation)
	}
	if o.metrics == "auto" {
		o.metrics = ""
		if o.pid != 0 {
			u, err := url.Parse(o.url)
			if err != nil {
				return nil, fmt.Errorf("--url: %v", err)
			}
			o.metrics = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/metrics"}).String()
		}
	} else if o.metrics == "none" {
		o.metrics = ""
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "isolda-load:", err)
		return 2
	}
	body, desc, err := requestBody(o)
	if err != nil {
		fmt.Fprintln(stderr, "isolda-load:", err)
		return 2
	}
	if o.writeBody != "" {
		if err := atomicfile.WriteFile(o.writeBody, body, 0o644); err != nil {
			fmt.Fprintln(stderr, "isolda-load:", err)
			return 2
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %d bytes\n", o.writeBody, desc, len(body))
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(stdout, "# isolda-load %s\n", strings.Join(args, " "))
	fmt.Fprintf(stdout, "request     %s, %d bytes\n", desc, len(body))
	if err := preflight(ctx, o, body, stdout); err != nil {
		fmt.Fprintln(stderr, "isolda-load: preflight:", err)
		return 1
	}
	var results []*loadgen.Result
	var hostiles []*loadgen.HostileResult
	failed := false
	for i, rate := range o.rates {
		if i > 0 && o.pause > 0 {
			select {
			case <-time.After(o.pause):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
		cfg := loadgen.Config{
			URL: o.url, Body: body, Rate: rate, Duration: o.duration, MaxInFlight: o.concurrency,
			Timeout: o.timeout, Window: o.window, PID: o.pid, SampleEvery: o.sampleEvery, MetricsURL: o.metrics,
			Clients: o.clients,
		}
		fmt.Fprintf(stdout, "\n== stage %d/%d: %g req/s for %s, at most %d in flight\n", i+1, len(o.rates), rate, o.duration, o.concurrency)
		var hostile *loadgen.HostileResult
		hostileDone := make(chan error, 1)
		if o.hostile > 0 || o.hostileCli > 0 {
			if o.hostileCli > 0 {
				fmt.Fprintf(stdout, "hostile     %d clients in a closed loop beside the load\n", o.hostileCli)
			} else {
				fmt.Fprintf(stdout, "hostile     %g attacks/s beside the load, at most %d at once\n", o.hostile, o.hostileMax)
			}
			go func() {
				var err error
				hostile, err = loadgen.RunHostile(ctx, loadgen.HostileConfig{Base: baseURL(o.url), Rate: o.hostile,
					Duration: o.duration, MaxInFlight: o.hostileMax, Mix: loadgen.AttacksNamed(o.attacks), Clients: o.hostileCli,
					Pause: o.hostilePause})
				hostileDone <- err
			}()
		} else {
			hostileDone <- nil
		}
		res, err := loadgen.Run(ctx, cfg)
		if err != nil {
			fmt.Fprintln(stderr, "isolda-load:", err)
			return 2
		}
		if err := <-hostileDone; err != nil {
			fmt.Fprintln(stderr, "isolda-load:", err)
			return 2
		}
		results = append(results, res)
		if err := res.WriteText(stdout); err != nil {
			fmt.Fprintln(stderr, "isolda-load:", err)
			return 2
		}
		if hostile != nil {
			fmt.Fprintln(stdout)
			if err := hostile.WriteText(stdout); err != nil {
				fmt.Fprintln(stderr, "isolda-load:", err)
				return 2
			}
			hostiles = append(hostiles, hostile)
		}
		ok := assess(o, res, hostile, stdout)
		failed = failed || !ok
	}
	if len(results) > 1 {
		writeRamp(stdout, results)
	}
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, args, desc, results, hostiles); err != nil {
			fmt.Fprintln(stderr, "isolda-load:", err)
			return 2
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "isolda-load: interrupted")
		return 1
	}
	if o.strict && failed {
		return 1
	}
	return 0
}

// assess prints whether a stage met the targets: no errors, the p99 target,
// flat memory (when judged), the peak RSS under --memory-limit, and with a
// hostile mix every attack handled and the server alive; it reports
// whether the stage did.
func assess(o *options, r *loadgen.Result, h *loadgen.HostileResult, w io.Writer) bool {
	ok := r.Errors == 0
	var parts []string
	parts = append(parts, fmt.Sprintf("errors %d", r.Errors))
	if h != nil {
		ok = ok && h.Unhandled() == 0
		parts = append(parts, fmt.Sprintf("hostile unhandled %d", h.Unhandled()))
		alive := serverAlive(o.url)
		ok = ok && alive
		parts = append(parts, fmt.Sprintf("server alive %t", alive))
	}
	if o.memoryLimit > 0 {
		var hwm int64 = -1
		for _, m := range r.Memory {
			hwm = max(hwm, m.HWM)
		}
		under := hwm >= 0 && hwm < o.memoryLimit
		ok = ok && under
		parts = append(parts, fmt.Sprintf("peak RSS %.1f MiB %s %.1f MiB", float64(hwm)/(1<<20),
			map[bool]string{true: "<", false: ">="}[under], float64(o.memoryLimit)/(1<<20)))
	}
	if o.targetP99 > 0 {
		met := r.Latency.P99 < o.targetP99
		ok = ok && met
		parts = append(parts, fmt.Sprintf("p99 %.2f ms %s %s", float64(r.Latency.P99)/1e6, map[bool]string{true: "<", false: ">="}[met], o.targetP99))
	}
	if r.Verdict.Judged {
		ok = ok && r.Verdict.Flat
		parts = append(parts, fmt.Sprintf("memory flat %t", r.Verdict.Flat))
	}
	verdict := "MET"
	if !ok {
		verdict = "NOT MET"
	}
	fmt.Fprintf(w, "target      %s (%s)\n", verdict, strings.Join(parts, ", "))
	return ok
}

// baseURL returns the scheme and host of u.
func baseURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// serverAlive reports whether the server answers GET /healthz.
func serverAlive(u string) bool {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(baseURL(u) + "/healthz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// writeRamp prints one line per stage.
func writeRamp(w io.Writer, rs []*loadgen.Result) {
	fmt.Fprintf(w, "\n== ramp\n%8s %9s %9s %7s %9s %9s %9s %9s %12s\n",
		"rate", "scheduled", "ok/s", "errors", "p50_ms", "p90_ms", "p99_ms", "max_ms", "svc_p99_ms")
	f := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }
	for _, r := range rs {
		fmt.Fprintf(w, "%8g %9d %9.1f %7d %9s %9s %9s %9s %12s\n", r.Rate, r.Scheduled, r.Throughput, r.Errors,
			f(r.Latency.P50), f(r.Latency.P90), f(r.Latency.P99), f(r.Latency.Max), f(r.Service.P99))
	}
}

// writeJSON writes the command line, the request's description and the
// stages' results to path.
func writeJSON(path string, args []string, desc string, rs []*loadgen.Result, hs []*loadgen.HostileResult) error {
	out := struct {
		Command string                   `json:"command"`
		Request string                   `json:"request"`
		Stages  []*loadgen.Result        `json:"stages"`
		Hostile []*loadgen.HostileResult `json:"hostile,omitempty"`
	}{Command: "isolda-load " + strings.Join(args, " "), Request: desc, Stages: rs, Hostile: hs}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}

// requestBody returns the body to send and a description of it.
func requestBody(o *options) ([]byte, string, error) {
	if o.body != "" {
		b, err := os.ReadFile(o.body)
		if err != nil {
			return nil, "", err
		}
		return b, "file " + o.body, nil
	}
	path := o.data
	if path == "" {
		p, err := shared.Path("data", "big", "nomisma.nt.gz")
		if err != nil {
			return nil, "", fmt.Errorf("%v (or give --data or --body)", err)
		}
		path = p
	}
	data, err := firstTriples(path, o.triples)
	if err != nil {
		return nil, "", err
	}
	var req request
	req.Graph.Data, req.Graph.Format = data, "nt"
	req.Format, req.Tokenizer = o.format, o.tokenizer
	desc := fmt.Sprintf("POST /v1/serialize of the first %d triples of %s as %s, %s tokens", o.triples, path, o.format, o.tokenizer)
	if o.budget > 0 {
		req.Budget, req.Truncation = o.budget, o.truncation
		desc += fmt.Sprintf(", budget %d (%s truncation)", o.budget, o.truncation)
	}
	b, err := json.Marshal(req)
	return b, desc, err
}

// firstTriples returns the first n triple lines (not blank, not comments)
// of an N-Triples file, gzipped when its name ends in .gz.
func firstTriples(path string, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return "", fmt.Errorf("%s: %v", path, err)
		}
		defer zr.Close()
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var b strings.Builder
	got := 0
	for got < n && sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		got++
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	if got < n {
		return "", fmt.Errorf("%s has %d triples, fewer than %d", path, got, n)
	}
	return b.String(), nil
}

// preflight sends the body once (it also loads the server's tokenizer) and
// prints what the answer says about the graph.
func preflight(ctx context.Context, o *options, body []byte, w io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 4*o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	took := time.Since(start)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.300s", resp.StatusCode, b)
	}
	var a answer
	if err := json.Unmarshal(b, &a); err != nil || a.Format == "" {
		fmt.Fprintf(w, "preflight   200, %d bytes in %s\n", len(b), took.Round(time.Microsecond))
		return nil
	}
	fmt.Fprintf(w, "preflight   200 in %s: quads %d, format %s, %s tokens %d, text bytes %d, truncated %t (dropped %d records, %d tokens), graph_hash %.16s\n",
		took.Round(time.Microsecond), a.Quads, a.Format, a.Tokenizer, a.Tokens, a.Bytes, a.Truncated,
		a.Dropped.Records, a.Dropped.Tokens, a.GraphHash)
	return nil
}
