package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/isolda/isolda/mcp"
	"github.com/isolda/isolda/server"
	"github.com/isolda/isolda/token"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

func newMCPCmd(env *Env) *cobra.Command {
	var (
		cfg       mcp.Config
		httpAddr  string
		modelsDir string
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the toolkit to LLM agents over the Model Context Protocol (stdio, or streamable HTTP with --http)",
		Long: "Runs an MCP server on standard input and output (or, with --http ADDR, the streamable HTTP transport at " +
			"http://ADDR/mcp; a port alone listens on loopback) with the tools encode, decode, count_tokens, " +
			"compare_formats, describe and chunk. They answer as encode, decode, tokens, bench (one graph), serve and " +
			"chunk do, under the limits of isolda serve (--max-request-bytes, --max-quads, --timeout, --max-concurrent). " +
			"Graphs are sent inline; with --root DIR the tools also read files under DIR (never outside it, " +
			"symlinks included). describe queries only the endpoints of --sparql-endpoint. A bad graph is a tool " +
			"error naming file:line:col; the server keeps serving. The HTTP transport has no authentication: on an address " +
			"other than loopback, whoever reaches it can call the tools (within --root and the endpoints allowed).",
		Example: "  isolda mcp\n" +
			"  isolda mcp --root ./graphs --sparql-endpoint https://query.wikidata.org/sparql\n" +
			"  isolda mcp --http 127.0.0.1:8765\n" +
			"  claude mcp add isolda -- isolda mcp --root .",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.Service.AllowSPARQL = len(cfg.Service.SPARQLEndpoints) > 0
			cfg.Service.Tokenizers = token.NewRegistry(token.Options{ModelsDir: modelsDir})
			cfg.Version = version()
			s, err := mcp.New(cfg)
			if err != nil {
				return badInput(fmt.Errorf("mcp: %w", err))
			}
			defer s.Close()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			srv := s.MCPServer()
			if httpAddr == "" {
				t := &sdk.IOTransport{Reader: io.NopCloser(env.Stdin), Writer: nopWriteCloser{env.Stdout}, MaxLineLength: s.MaxLineLength()}
				if env.Stdin == nil {
					t.Reader = io.NopCloser(eofReader{})
				}
				err := srv.Run(ctx, t)
				if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
					return fmt.Errorf("mcp: %w", err)
				}
				return nil
			}
			return serveMCP(ctx, env, httpAddr, s.Handler(srv), cfg.Service.Timeout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&httpAddr, "http", "", "serve the streamable HTTP transport on this address (host:port, or :port for loopback) instead of stdio")
	f.StringVar(&cfg.Root, "root", "", "folder whose files the tools may read by path (none by default: inline data only)")
	f.Int64Var(&cfg.Service.MaxRequestBytes, "max-request-bytes", server.DefaultMaxRequestBytes, "largest graph or text a tool takes, in bytes")
	f.Int64Var(&cfg.Service.MaxQuads, "max-quads", server.DefaultMaxQuads, "largest graph, in quads")
	f.DurationVar(&cfg.Service.Timeout, "timeout", server.DefaultTimeout, "time limit of one tool call")
	f.IntVar(&cfg.Service.MaxConcurrent, "max-concurrent", server.DefaultMaxConcurrent, "tool calls worked on at once (more get a busy error)")
	f.StringVar(&cfg.Service.DefaultTokenizer, "tokenizer", server.DefaultTokenizer, "tokenizer of calls that name none")
	f.StringVar(&modelsDir, "models-dir", "", "folder of tokenizer.json models calls may name (default $ISOLDA_TOKENIZERS)")
	f.StringArrayVar(&cfg.Service.SPARQLEndpoints, "sparql-endpoint", nil, "URL prefix of a SPARQL endpoint describe may query (repeatable; none by default)")
	return cmd
}

// serveMCP serves h at /mcp on addr (a bare port listens on loopback)
// until ctx is done.
func serveMCP(ctx context.Context, env *Env, addr string, h http.Handler, timeout time.Duration) error {
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return badInput(fmt.Errorf("mcp: %w", err))
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(env.Stderr, "isolda mcp: streamable HTTP on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout+5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// nopWriteCloser is a writer whose Close does nothing (standard output
// stays open).
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
