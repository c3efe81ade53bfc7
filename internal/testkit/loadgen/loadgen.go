// Package loadgen is an open-loop, constant-rate HTTP load generator for
// load tests of `isolda serve`.
//
// Requests are scheduled at fixed intervals (request i at i/Rate seconds
// after the start) whatever the server's response time, and a request's
// latency is measured from its scheduled send time, not from the moment it
// was really sent. When the server stalls, or every in-flight slot is
// taken, the requests due in the meantime wait and their waiting time is
// part of their latency: coordinated omission (a closed-loop client that
// politely stops sending while the server is slow, and so never measures
// the requests it did not send) does not hide the stall. The time from the
// real send to the answer is kept too, as the service time.
//
// Every latency is kept in a slice allocated before the run, so the
// quantiles are exact (nearest rank), and the run's memory does not grow
// with its length beyond that slice. The process under test can be sampled
// while the load runs (VmRSS and VmHWM from /proc/PID/status, and the Go
// heap from a Prometheus /metrics page when it exposes one), and the result
// carries a verdict on whether its memory stayed flat (see FlatRule).
package loadgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Defaults of Config's zero fields.
const (
	DefaultMaxInFlight = 64
	DefaultTimeout     = 10 * time.Second
	DefaultWindow      = time.Minute
	DefaultSampleEvery = time.Second
	// MaxRequests bounds Rate×Duration: the samples of a run (40 bytes
	// each) are allocated before it starts.
	MaxRequests = 10_000_000
)

// Status codes of samples that did not get an HTTP answer.
const (
	// StatusTransport marks a request that failed below HTTP (connection
	// refused or reset, timeout, a malformed answer).
	StatusTransport = 0
	// StatusUnsent marks a request that was scheduled but never sent,
	// because the run ended (Duration plus Drain) or was canceled first.
	StatusUnsent = -1
)

// Config describes one constant-rate run.
type Config struct {
	// URL is the target; Method defaults to POST when Body is set, GET
	// otherwise.
	URL    string
	Method string
	// Body is sent unchanged with every request; ContentType defaults to
	// application/json when Body is set.
	Body        []byte
	ContentType string
	// Header holds extra request headers.
	Header http.Header
	// Rate is the number of requests scheduled per second.
	Rate float64
	// Duration is the scheduling period: requests are scheduled at
	// i/Rate for every i with i/Rate < Duration.
	Duration time.Duration
	// MaxInFlight bounds the requests waiting for an answer at once (one
	// connection each); default DefaultMaxInFlight. A request due while
	// every slot is taken waits for one, and the wait counts in its
	// latency.
	MaxInFlight int
	// Timeout bounds one request, from its real send to the end of its
	// body; default DefaultTimeout. A request over time is a transport
	// error.
	Timeout time.Duration
	// Drain is how long after Duration requests still due may be sent
	// (the backlog of a saturated server); those not sent by then are
	// counted as unsent. Zero means Timeout; a negative value means none.
	Drain time.Duration
	// Client sends the requests; nil means a client of its own with
	// MaxInFlight keep-alive connections and no compression.
	Client *http.Client
	// Clients, when more than one (and Client is nil), sends request i
	// from client i%Clients, each from a loopback address of its own
	// (ClientsFrom, group 1): a server that shares its capacity by client
	// address sees Clients clients. The target must be on loopback.
	Clients int
	clients []*http.Client
	// OK reports whether a status is a success; nil means 2xx (is2xx).
	OK func(status int) bool

	// Window is the width of the rows of the result's table and of the
	// memory verdict's windows; default DefaultWindow (per minute).
	Window time.Duration
	// PID, when not zero, is the process whose memory is sampled every
	// SampleEvery (default DefaultSampleEvery) from /proc/PID/status.
	PID         int
	SampleEvery time.Duration
	// MetricsURL, when set, is a Prometheus text page read at every memory
	// sample for the Go heap (see HeapMetrics). MetricsClient reads it;
	// nil means a client of its own with a timeout of SampleEvery plus one
	// second.
	MetricsURL    string
	MetricsClient *http.Client
}

// withDefaults checks c and fills its zero fields.
func (c Config) withDefaults() (Config, error) {
	switch {
	case c.URL == "":
		return c, errors.New("loadgen: no URL")
	case !(c.Rate > 0) || math.IsInf(c.Rate, 0):
		return c, fmt.Errorf("loadgen: rate %v is not a positive number", c.Rate)
	case c.Duration <= 0:
		return c, fmt.Errorf("loadgen: duration %v is not positive", c.Duration)
	case c.Rate*c.Duration.Seconds() > MaxRequests:
		return c, fmt.Errorf("loadgen: %.0f requests is more than %d", c.Rate*c.Duration.Seconds(), MaxRequests)
	case c.MaxInFlight < 0 || c.Timeout < 0 || c.Window < 0 || c.SampleEvery < 0:
		return c, errors.New("loadgen: negative max in flight, timeout, window or sample interval")
	}
	if c.Method == "" {
		c.Method = http.MethodGet
		if c.Body != nil {
			c.Method = http.MethodPost
		}
	}
	if c.ContentType == "" && c.Body != nil {
		c.ContentType = "application/json"
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = DefaultMaxInFlight
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Drain == 0 {
		c.Drain = c.Timeout
	}
	c.Drain = max(c.Drain, 0)
	if c.Window == 0 {
		c.Window = DefaultWindow
	}
	if c.SampleEvery == 0 {
		c.SampleEvery = DefaultSampleEvery
	}
	if c.OK == nil {
		c.OK = is2xx
	}
	if c.Client == nil && c.Clients > 1 {
		per := max(1, (c.MaxInFlight+c.Clients-1)/c.Clients)
		cs, err := ClientsFrom(c.URL, 1, c.Clients, per, c.Timeout)
		if err != nil {
			return c, err
		}
		c.clients = cs
		c.Client = cs[0]
	}
	if c.Client == nil {
		c.Client = &http.Client{Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: c.Timeout, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        c.MaxInFlight,
			MaxIdleConnsPerHost: c.MaxInFlight,
			MaxConnsPerHost:     c.MaxInFlight,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		}}
	}
	return c, nil
}

// Sample is one scheduled request. Offsets are from the run's start.
type Sample struct {
	// Scheduled is when the request was due: i/Rate.
	Scheduled time.Duration
	// Sent is when it was really sent (zero when unsent).
	Sent time.Duration
	// Latency is from Scheduled to the end of the answer's body (the
	// coordinated-omission-corrected latency); Service is from Sent.
	Latency time.Duration
	Service time.Duration
	// Status is the HTTP status, StatusTransport or StatusUnsent.
	Status int
}

// requests returns the number of requests a run schedules: every i with
// i/rate < d.
func requests(rate float64, d time.Duration) int {
	n := int(math.Ceil(rate * d.Seconds()))
	for n > 0 && scheduled(n-1, rate) >= d {
		n--
	}
	for scheduled(n, rate) < d {
		n++
	}
	return n
}

// scheduled is the due time of request i.
func scheduled(i int, rate float64) time.Duration {
	return time.Duration(math.Round(float64(i) * 1e9 / rate))
}

// Run sends the requests of cfg and returns the result. It returns an
// error only for a bad Config; failed requests are counted in the result.
// Canceling ctx ends the run early: the requests not yet sent are unsent.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	req0, err := http.NewRequest(cfg.Method, cfg.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	n := requests(cfg.Rate, cfg.Duration)
	samples := make([]Sample, n)
	for i := range samples {
		samples[i] = Sample{Scheduled: scheduled(i, cfg.Rate), Status: StatusUnsent}
	}
	var (
		errMu     sync.Mutex
		transport = map[string]int{}
	)
	start := time.Now()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	cpu0 := time.Duration(-1)
	if cfg.PID != 0 {
		cpu0, _ = ProcCPU(cfg.PID)
	}
	mem := newSampler(cfg, start)
	memDone := make(chan []MemSample, 1)
	go func() { memDone <- mem.run(runCtx) }()

	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.MaxInFlight, n) {
		wg.Go(func() {
			for i := range jobs {
				s := &samples[i]
				s.Sent = time.Since(start)
				status, kind := send(runCtx, cfg, req0, i)
				done := time.Since(start)
				s.Status = status
				s.Latency = done - s.Scheduled
				s.Service = done - s.Sent
				if kind != "" {
					errMu.Lock()
					transport[kind]++
					errMu.Unlock()
				}
			}
		})
	}

	stop := time.NewTimer(cfg.Duration + cfg.Drain)
	defer stop.Stop()
	wait := time.NewTimer(0)
	defer wait.Stop()
	<-wait.C
schedule:
	for i := range n {
		if d := time.Until(start.Add(samples[i].Scheduled)); d > 0 {
			wait.Reset(d)
			select {
			case <-wait.C:
			case <-stop.C:
				break schedule
			case <-runCtx.Done():
				break schedule
			}
		}
		select {
		case jobs <- i:
		case <-stop.C:
			break schedule
		case <-runCtx.Done():
			break schedule
		}
	}
	close(jobs)
	wg.Wait()
	end := time.Since(start)
	cancel()
	memSamples := <-memDone

	r := newResult(cfg, start, end, samples, transport, memSamples, mem.heapNote())
	r.TargetCPU = -1
	if cpu0 >= 0 {
		if cpu1, err := ProcCPU(cfg.PID); err == nil {
			r.TargetCPU = cpu1 - cpu0
		}
	}
	return r, nil
}

// send makes one request and reads its whole answer. It returns the status
// and, for a transport error, its kind.
func send(ctx context.Context, cfg Config, req0 *http.Request, i int) (status int, kind string) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	req := req0.Clone(ctx)
	if cfg.Body != nil {
		body := cfg.Body
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	for k, v := range cfg.Header {
		req.Header[k] = slices.Clone(v)
	}
	if cfg.ContentType != "" {
		req.Header.Set("Content-Type", cfg.ContentType)
	}
	c := cfg.Client
	if len(cfg.clients) > 0 {
		c = cfg.clients[i%len(cfg.clients)]
	}
	resp, err := c.Do(req)
	if err != nil {
		return StatusTransport, errorKind(ctx, err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return StatusTransport, errorKind(ctx, err)
	}
	return resp.StatusCode, ""
}

// errorKind classifies a transport error into a few stable kinds, so that
// the error table does not list every address and port.
func errorKind(ctx context.Context, err error) string {
	var ne net.Error
	var oe *net.OpError
	switch {
	case ctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case ctx.Err() != nil:
		return "canceled"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.As(err, &oe):
		return oe.Op + " error"
	}
	return "other"
}

// is2xx is the default success test of Config.OK: a 2xx status.
func is2xx(status int) bool { return status >= 200 && status < 300 }
