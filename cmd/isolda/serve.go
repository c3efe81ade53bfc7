package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

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
			"with the endpoints allowed by --sparql-endpoint.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return badInput(fmt.Errorf("serve: %w", err))
			}
			cfg.Tokenizers = token.NewRegistry(token.Options{ModelsDir: modelsDir})
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(env.Stderr, "isolda serve: listening on http://%s\n", ln.Addr())
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
	f.IntVar(&cfg.MaxConcurrent, "max-concurrent", server.DefaultMaxConcurrent, "requests worked on at once (429 beyond)")
	f.StringVar(&cfg.DefaultTokenizer, "tokenizer", server.DefaultTokenizer, "tokenizer of requests that name none")
	f.StringVar(&modelsDir, "models-dir", "", "folder of tokenizer.json models clients may name (default $ISOLDA_TOKENIZERS)")
	f.DurationVar(&shutdownTimeout, "shutdown-timeout", 15*time.Second, "time to finish requests in progress on shutdown")
	f.BoolVar(&cfg.AllowSPARQL, "allow-sparql", false, "let requests name a SPARQL endpoint and a CONSTRUCT/DESCRIBE query instead of inline data")
	f.StringArrayVar(&cfg.SPARQLEndpoints, "sparql-endpoint", nil, "URL prefix of an endpoint requests may query (repeatable; none allowed by default)")
	return cmd
}

// serve answers HTTP requests on ln until ctx is done, then shuts down
// gracefully, waiting at most grace for requests in progress.
func serve(ctx context.Context, ln net.Listener, cfg server.Config, grace time.Duration) error {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = server.DefaultTimeout
	}
	srv := &http.Server{
		Handler:           server.New(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       timeout + 30*time.Second,
		WriteTimeout:      timeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
