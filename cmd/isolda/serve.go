package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/isolda/isolda/internal/bytesize"
	"github.com/isolda/isolda/server"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
)

// newServeCmd runs the HTTP API (package server) until SIGINT or SIGTERM.
func newServeCmd(env *Env) *cobra.Command {
	var (
		addr            string
		cfg             server.Config
		modelsDir       string
		shutdownTimeout time.Duration
		gogc            int
		memoryLimit     string
		memoryBudget    string
		isolateBytes    int64
		workerMode      bool
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the serializer as an HTTP API (JSON; OpenAPI at /openapi.json)",
		Long: "Listens on --addr and serves the web playground at GET / (paste a graph, compare formats and " +
			"token counts; works offline) and the JSON API: POST /v1/serialize, /v1/compare and /v1/check, GET /v1/formats, " +
			"/healthz, /metrics (Prometheus) and /openapi.json. Requests are bounded in body size, graph size " +
			"(quads), time and concurrency; see the flags. SIGINT or SIGTERM stops the server gracefully: it " +
			"stops accepting connections and waits up to --shutdown-timeout for requests in progress. " +
			"Graphs fetched from SPARQL endpoints (CONSTRUCT or DESCRIBE) are off unless --allow-sparql is given " +
			"with the endpoints allowed by --sparql-endpoint.\n\n" +
			"Hostile clients: a body must arrive at --min-body-rate within --body-timeout (408 otherwise) and is read " +
			"before a concurrency slot is taken; each request reserves its estimated memory from --memory-budget " +
			"(503 when it is taken, 413 when one request needs more); the Go runtime's soft memory limit is " +
			"--memory-limit; only the Host names of --allowed-hosts are answered (by default those of the listen " +
			"address: localhost, 127.0.0.1 and [::1] for a loopback one), against DNS rebinding.\n\n" +
			"Admission is by cost and by client: cheap requests take one of --max-concurrent slots, large ones one of " +
			"--max-large slots of their own (a request found large gives its cheap slot back), so that expensive requests " +
			"never hold the cheap ones' slots; one client (IP address) holds at most --max-per-client and " +
			"--max-large-per-client of them; beyond, 429 with Retry-After.\n\n" +
			"Large requests (a body of --isolate-bytes or more, or a graph found large: see --max-large) run in a child " +
			"process of their own (on Linux; elsewhere in the server's process): the same answers, but their heap, " +
			"garbage collection and CPU time (at a lower priority) do not slow the other requests down, an address-space " +
			"bound stops one that runs out of memory (500, the server keeps serving), and one past --timeout is killed.",
		Example: "  isolda serve\n" +
			"  isolda serve --addr 127.0.0.1:9000 --memory-limit 1GiB --max-concurrent 4\n" +
			"  isolda serve --addr 0.0.0.0:8080 --allowed-hosts isolda.example.org\n" +
			"  curl -s localhost:8080/v1/serialize -H 'Content-Type: application/json' \\\n" +
			"    -d '{\"graph\": {\"data\": \"<http://a> <http://b> <http://c> .\"}, \"format\": \"ntriples\"}'",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if workerMode {
				// A child of a server: one request on stdin, its answer on
				// stdout (server.ServeWorker).
				cfg := server.Config{Tokenizers: token.NewRegistry(token.Options{ModelsDir: modelsDir})}
				return server.ServeWorker(cmd.Context(), cfg, env.Stdin, env.Stdout)
			}
			if isolateBytes < 0 {
				return badInput(fmt.Errorf("serve: --isolate-bytes %d: want 0 (off) or a positive size", isolateBytes))
			}
			if isolateBytes > 0 {
				exe, err := os.Executable()
				if err != nil {
					return fmt.Errorf("serve: --isolate-bytes: cannot find this program to start workers: %w", err)
				}
				cfg.Isolate = &server.Isolation{Command: []string{exe, "serve", "--worker", "--models-dir", modelsDir}, MinBytes: isolateBytes}
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return badInput(fmt.Errorf("serve: %w", err))
			}
			gc, err := gcSettings(gogc, cmd.Flags().Changed("gogc"), memoryLimit, os.Getenv, memoryTotal())
			if err == nil {
				cfg.MemoryBudget, err = memoryBudgetOf(memoryBudget, gc.effectiveLimit())
			}
			if err == nil {
				cfg.ListenAddr = ln.Addr().String()
				err = server.CheckHosts(cfg.ListenAddr, cfg.AllowedHosts)
			}
			if err != nil {
				ln.Close()
				return badInput(fmt.Errorf("serve: %w", err))
			}
			gc.apply()
			cfg.Tokenizers = token.NewRegistry(token.Options{ModelsDir: modelsDir})
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			hosts := "hosts of the listen address"
			if len(cfg.AllowedHosts) > 0 {
				hosts = "hosts " + strings.Join(cfg.AllowedHosts, ", ")
			}
			isolation := "large requests in process"
			switch {
			case cfg.Isolate != nil && !server.IsolationSupported():
				isolation = "large requests in process: child processes need Linux"
			case cfg.Isolate != nil:
				isolation = fmt.Sprintf("large requests and bodies of %d bytes or more in child processes", isolateBytes)
			}
			fmt.Fprintf(env.Stderr, "isolda serve: listening on http://%s (%s, memory budget %d bytes, %s, %s)\n",
				ln.Addr(), gc, cfg.MemoryBudget, hosts, isolation)
			err = serve(ctx, ln, cfg, shutdownTimeout)
			fmt.Fprintln(env.Stderr, "isolda serve: stopped")
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	f.Int64Var(&cfg.MaxRequestBytes, "max-request-bytes", server.DefaultMaxRequestBytes, "largest request body, in bytes (413 beyond)")
	f.Int64Var(&cfg.MaxQuads, "max-quads", server.DefaultMaxQuads, "largest graph, in quads (413 beyond)")
	f.DurationVar(&cfg.Timeout, "timeout", server.DefaultTimeout, "time limit of one request (503 beyond)")
	f.IntVar(&cfg.MaxConcurrent, "max-concurrent", server.DefaultMaxConcurrent, "cheap requests worked on at once (429 beyond)")
	f.IntVar(&cfg.MaxLarge, "max-large", 0, "large requests (a body of --isolate-bytes or more, graph data over 1 MiB or 128 KiB for "+
		"/v1/compare of more than 8 formats, or a graph of more than --large-quads quads) worked on at once, in slots of their own beside "+
		"--max-concurrent (429 beyond, before any child process is started); default a quarter of --max-concurrent and half the CPUs, at least 1")
	f.Int64Var(&cfg.LargeQuads, "large-quads", server.DefaultLargeQuads, "quads from which a graph makes its request large (see --max-large)")
	f.IntVar(&cfg.MaxPerClient, "max-per-client", 0, "cheap requests one client (IP address, IPv6 /64) may have in progress at once "+
		"(429 beyond); default half of --max-concurrent, at least 1")
	f.IntVar(&cfg.MaxLargePerClient, "max-large-per-client", 0, "large requests one client may have in progress at once (429 beyond); "+
		"default half of --max-large, at least 1")
	f.StringVar(&cfg.DefaultTokenizer, "tokenizer", server.DefaultTokenizer, "tokenizer of requests that name none")
	f.StringVar(&modelsDir, "models-dir", "", "folder of tokenizer.json models clients may name (default $ISOLDA_TOKENIZERS)")
	f.DurationVar(&shutdownTimeout, "shutdown-timeout", 15*time.Second, "time to finish requests in progress on shutdown")
	f.BoolVar(&cfg.AllowSPARQL, "allow-sparql", false, "let requests name a SPARQL endpoint and a CONSTRUCT/DESCRIBE query instead of inline data")
	f.StringArrayVar(&cfg.SPARQLEndpoints, "sparql-endpoint", nil, "URL prefix of an endpoint requests may query (repeatable; none allowed by default)")
	f.IntVar(&gogc, "gogc", defaultServeGOGC, "garbage collector target percentage (runtime/debug.SetGCPercent; -1 turns the collector off "+
		"and needs --memory-limit); when the flag is not given and GOGC is set, GOGC wins")
	f.StringVar(&memoryLimit, "memory-limit", "", "soft memory limit of the Go runtime (runtime/debug.SetMemoryLimit), "+
		"such as 512MiB or 2GiB, or off; default GOMEMLIMIT when set, else half the machine's (or cgroup's) memory, at most 2GiB")
	f.StringVar(&memoryBudget, "memory-budget", "", "memory the requests in progress may reserve together, by estimate "+
		"(503 beyond, 413 for a request that alone needs more); default half the memory limit, or 1GiB without one")
	f.DurationVar(&cfg.BodyTimeout, "body-timeout", server.DefaultBodyTimeout, "time limit to receive a request body (408 beyond)")
	f.Int64Var(&cfg.MinBodyRate, "min-body-rate", server.DefaultMinBodyRate, "slowest average rate of a request body after its first 2s, in bytes/s (408 below)")
	f.Int64Var(&isolateBytes, "isolate-bytes", server.DefaultIsolateBytes, "request body size from which a request runs in a child process "+
		"(as do the requests found large); 0 works on every request in the server's process")
	f.BoolVar(&workerMode, "worker", false, "run as a child of a server: one request on stdin, its answer on stdout")
	if err := f.MarkHidden("worker"); err != nil {
		panic(err)
	}
	f.StringSliceVar(&cfg.AllowedHosts, "allowed-hosts", nil, "Host header values answered: name, name:port or * (comma-separated or repeated; "+
		"default: the listen address's, with localhost, 127.0.0.1 and [::1] for a loopback address)")
	return cmd
}

// defaultServeGOGC is the collector target of `isolda serve` when neither
// --gogc nor GOGC is given. A request allocates a few MB that die with it
// (the parsed graph, the text, the JSON), while the live heap between
// requests is small (tokenizer tables, piece memo): with Go's default of
// 100 the collector runs every few requests and took about a sixth of the
// CPU of a /v1/serialize load test. 200 halves the collections for a peak
// heap of about three times the live heap instead of twice, a few tens of
// MB at the default concurrency; --memory-limit caps it on small machines.
const defaultServeGOGC = 200

// gcConfig is the collector configuration `isolda serve` applies.
type gcConfig struct {
	percent  int   // target percentage; 0 means leave the runtime's
	limit    int64 // soft memory limit in bytes; 0 means leave the runtime's, -1 none
	fromEnv  bool  // GOGC was set and the flag not given
	envValue string
	// defaulted is true when limit is the default (no --memory-limit, no
	// GOMEMLIMIT).
	defaulted bool
}

// maxDefaultMemoryLimit bounds the default --memory-limit.
const maxDefaultMemoryLimit = 2 << 30

// defaultMemoryLimit is the default --memory-limit for a machine (or
// cgroup) of total bytes: half of it, at most 2 GiB; 2 GiB when total is
// unknown (0).
func defaultMemoryLimit(total int64) int64 {
	if total <= 0 {
		return maxDefaultMemoryLimit
	}
	return min(total/2, maxDefaultMemoryLimit)
}

// memoryTotal returns the memory this process may use: the cgroup v2
// limit (memory.max) when there is one, else MemTotal of /proc/meminfo; 0
// when neither can be read.
func memoryTotal() int64 {
	total := int64(0)
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
						total = n << 10
					}
				}
			}
		}
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// effectiveLimit is the soft memory limit in force once c is applied, in
// bytes; -1 for none.
func (c gcConfig) effectiveLimit() int64 {
	switch {
	case c.limit > 0:
		return c.limit
	case c.limit < 0:
		return -1
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l // GOMEMLIMIT
	}
	return -1
}

// memoryBudgetOf returns the memory budget of --memory-budget, or by
// default half the memory limit (limit < 0: none, the server's default).
func memoryBudgetOf(flag string, limit int64) (int64, error) {
	if flag != "" {
		n, err := bytesize.Parse(flag)
		if err != nil {
			return 0, fmt.Errorf("--memory-budget: %w", err)
		}
		if limit > 0 && n > limit {
			return 0, fmt.Errorf("--memory-budget %s is more than the memory limit (%d bytes)", flag, limit)
		}
		return n, nil
	}
	if limit > 0 {
		return limit / 2, nil
	}
	return server.DefaultMemoryBudget, nil
}

// gcSettings decides the collector configuration from the --gogc flag
// (value and whether it was given), --memory-limit, the environment and
// the machine's memory (total bytes, 0 if unknown).
func gcSettings(gogc int, gogcGiven bool, memoryLimit string, getenv func(string) string, total int64) (gcConfig, error) {
	var c gcConfig
	if env := getenv("GOGC"); env != "" && !gogcGiven {
		c.fromEnv, c.envValue = true, env
	} else {
		if gogc == 0 || gogc < -1 {
			return c, fmt.Errorf("--gogc %d: want a positive percentage or -1 (off)", gogc)
		}
		c.percent = gogc
	}
	switch {
	case memoryLimit == "off":
		c.limit = -1
	case memoryLimit != "":
		n, err := bytesize.Parse(memoryLimit)
		if err != nil {
			return c, fmt.Errorf("--memory-limit: %w", err)
		}
		c.limit = n
	case getenv("GOMEMLIMIT") == "":
		c.limit, c.defaulted = defaultMemoryLimit(total), true
	}
	if c.percent == -1 && c.limit <= 0 && getenv("GOMEMLIMIT") == "" {
		return c, errors.New("--gogc -1 turns the collector off: give --memory-limit (or GOMEMLIMIT) too")
	}
	return c, nil
}

// apply sets the configuration in the runtime.
func (c gcConfig) apply() {
	if c.percent != 0 {
		debug.SetGCPercent(c.percent)
	}
	if c.limit > 0 {
		debug.SetMemoryLimit(c.limit)
	}
}

// String describes the configuration for the start-up line.
func (c gcConfig) String() string {
	var s string
	switch {
	case c.fromEnv:
		s = "GOGC=" + c.envValue
	case c.percent == -1:
		s = "gogc off"
	default:
		s = "gogc " + strconv.Itoa(c.percent)
	}
	switch {
	case c.limit > 0 && c.defaulted:
		s += ", memory limit " + strconv.FormatInt(c.limit, 10) + " bytes (default)"
	case c.limit > 0:
		s += ", memory limit " + strconv.FormatInt(c.limit, 10) + " bytes"
	case c.limit < 0:
		s += ", no memory limit"
	}
	return s
}

// serve answers HTTP requests on ln until ctx is done, then shuts down
// gracefully, waiting at most grace for requests in progress.
func serve(ctx context.Context, ln net.Listener, cfg server.Config, grace time.Duration) error {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = server.DefaultTimeout
	}
	h := server.New(cfg)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       timeout + 30*time.Second,
		WriteTimeout:      timeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	// Clients back before their Retry-After are refused at the listener.
	go func() { errc <- srv.Serve(server.Listener(h, ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
