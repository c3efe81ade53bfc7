// Package mcp is the Model Context Protocol server of `isolda mcp`: the
// toolkit's operations as tools an LLM agent can call, over stdio or the
// streamable HTTP transport (github.com/modelcontextprotocol/go-sdk).
//
// Tools (each with a JSON schema and descriptions, see New):
//
//	encode           a graph → ISOLDA (or any lab format), token count in structured content
//	decode           an ISOLDA document → the dataset in an RDF syntax
//	count_tokens     the exact token count of a text
//	compare_formats  the lossless formats ranked by tokens for one graph
//	describe         an entity's neighbourhood from an allow-listed SPARQL endpoint, within a budget
//	chunk            one document per entity, as `isolda chunk` writes them
//
// Every tool is answered by the HTTP API of `isolda serve` (package
// server) called in process (/v1/serialize, /v1/decode, /v1/tokens,
// /v1/compare, /v1/chunk), so that its limits (request and graph size,
// time, concurrency, memory budget) and its SPARQL allow-list apply
// unchanged. A bad input is a tool error (isError true) whose
// message names file:line:col; it never stops the server.
//
// Graphs are sent inline (data); with Config.Root, tools also read a file
// under that folder (path), never outside it (os.Root: symlinks that lead
// out are refused).
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/server"
	"github.com/isolda/isolda/token"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config configures the MCP server.
type Config struct {
	// Service holds the limits, the tokenizers and the SPARQL allow-list,
	// with the meaning they have for `isolda serve` (zero fields take the
	// server package's defaults). describe needs AllowSPARQL and
	// SPARQLEndpoints.
	Service server.Config
	// Root, when not empty, is the folder whose files the tools may read
	// (their path argument); empty means inline data only.
	Root string
	// Version is the server version reported to clients.
	Version string
}

// Server holds the state of the tools: the in-process API handler, the
// tokenizers and the root folder.
type Server struct {
	cfg  Config
	api  http.Handler
	root *os.Root
	// rootDir is Root with its symlinks resolved (absolute paths are made
	// relative to it).
	rootDir string
}

// New returns the tools' state for cfg; Close releases it. MCPServer
// returns an SDK server with every tool registered.
func New(cfg Config) (*Server, error) {
	// The limits, the tokenizers and the allow-list with the server's
	// defaults.
	cfg.Service = cfg.Service.WithDefaults()
	c := &cfg.Service
	// The API is called in process: no Host check, no listener; its
	// request body is the JSON of the tool's data (messageBytes).
	api := *c
	api.ListenAddr, api.AllowedHosts = "", nil
	api.MaxRequestBytes = messageBytes(*c)
	api.Isolate = nil
	s := &Server{cfg: cfg, api: server.New(api)}
	if cfg.Root != "" {
		dir, err := filepath.Abs(cfg.Root)
		if err == nil {
			dir, err = filepath.EvalSymlinks(dir)
		}
		if err != nil {
			return nil, fmt.Errorf("root: %w", err)
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, fmt.Errorf("root: %w", err)
		}
		s.root, s.rootDir = root, dir
	}
	return s, nil
}

// Close releases the root folder.
func (s *Server) Close() error {
	if s.root != nil {
		return s.root.Close()
	}
	return nil
}

// Handler returns the streamable HTTP transport's handler serving srv
// (DNS rebinding protection on for loopback addresses, as the SDK does),
// with a request body limit that fits the tools' data.
func (s *Server) Handler(srv *sdk.Server) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{MaxRequestBodyBytes: messageBytes(s.cfg.Service)})
}

// MaxLineLength is the longest JSON-RPC message the stdio transport
// should accept for these limits.
func (s *Server) MaxLineLength() int {
	return int(messageBytes(s.cfg.Service))
}

// messageBytes is the largest message that carries a tool's data: the
// JSON of data within MaxRequestBytes, whose escapes can double its size,
// and room for the rest of the message. The tools check the data itself
// against MaxRequestBytes.
func messageBytes(c server.Config) int64 {
	return 2*c.MaxRequestBytes + 64<<10
}

// input is a graph or document given inline or by path.
type input struct {
	text string
	// name is the name of the input in error messages: "data", "text" or
	// the path.
	name string
}

// read returns the inline value (named name) or the file at path under
// the root; exactly one of them must be given.
func (s *Server) read(inline, name, path string) (input, error) {
	limit := s.cfg.Service.MaxRequestBytes
	switch {
	case inline != "" && path != "":
		return input{}, fmt.Errorf("give %s or path, not both", name)
	case path == "" && inline == "":
		return input{}, fmt.Errorf("%s is empty: give the graph inline in %s%s", name, name, s.pathHint())
	case path == "":
		if int64(len(inline)) > limit {
			return input{}, fmt.Errorf("%s: %d bytes, more than the limit of %d", name, len(inline), limit)
		}
		return input{text: inline, name: name}, nil
	}
	if s.root == nil {
		return input{}, errors.New("path: this server reads no files (start it with --root DIR); send the content inline in " + name)
	}
	rel := path
	if filepath.IsAbs(path) {
		r, err := filepath.Rel(s.rootDir, filepath.Clean(path))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return input{}, fmt.Errorf("path %q is outside the root %s", path, s.rootDir)
		}
		rel = r
	}
	f, err := s.root.Open(rel)
	if err != nil {
		if strings.Contains(err.Error(), "escapes") {
			return input{}, fmt.Errorf("path %q is outside the root %s", path, s.rootDir)
		}
		return input{}, fmt.Errorf("path %q: %v", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return input{}, fmt.Errorf("path %q: %v", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return input{}, fmt.Errorf("path %q is not a regular file", path)
	}
	if st.Size() > limit {
		return input{}, fmt.Errorf("path %q: %d bytes, more than the limit of %d", path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return input{}, fmt.Errorf("path %q: %v", path, unwrapPath(err))
	}
	if int64(len(b)) > limit {
		return input{}, fmt.Errorf("path %q: more than the limit of %d bytes", path, limit)
	}
	return input{text: string(b), name: path}, nil
}

func (s *Server) pathHint() string {
	if s.root == nil {
		return ""
	}
	return " or name a file under the root in path"
}

// unwrapPath returns the cause of a *os.PathError (the path is named by
// the caller, relative to the root, not as the system saw it).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// apiError is the JSON error answer of the API.
type apiError struct {
	Error  string `json:"error"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// call posts req to the in-process API at path and decodes its answer
// into resp. An error answer becomes an error whose message names
// file:line:col when the API gave a position in the graph.
func (s *Server) call(ctx context.Context, path string, req, resp any, file string) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Host = "localhost"
	r.RemoteAddr = "127.0.0.1:0"
	w := &server.Recorder{}
	s.api.ServeHTTP(w, r)
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	if w.Status != http.StatusOK {
		var e apiError
		if err := json.Unmarshal(w.Body, &e); err != nil || e.Error == "" {
			return fmt.Errorf("HTTP %d", w.Status)
		}
		msg := e.Error
		if retry := w.Header().Get("Retry-After"); retry != "" {
			msg += " (retry after " + retry + "s)"
		}
		// A position is in the graph (encode, compare) or the text (decode).
		for _, p := range []string{"graph: ", "text: "} {
			if rest, ok := strings.CutPrefix(msg, p); ok && e.Line > 0 && file != "" {
				return fmt.Errorf("%s:%d:%d: %s", file, e.Line, e.Column, rest)
			}
		}
		return errors.New(msg)
	}
	return json.Unmarshal(w.Body, resp)
}

// tokenizer resolves a tokenizer name the client may use, as the API
// does: the allowed names and the default.
func (s *Server) tokenizer(name string) (token.Tokenizer, error) {
	c := s.cfg.Service
	if name == "" {
		name = c.DefaultTokenizer
	}
	ok := name == c.DefaultTokenizer
	for _, n := range c.AllowedTokenizers {
		ok = ok || n == name
	}
	if !ok {
		return nil, fmt.Errorf("tokenizer %q is not available (available: %s)", name, strings.Join(c.AllowedTokenizers, ", "))
	}
	tok, err := c.Tokenizers.Get(name)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %q: %v", name, err)
	}
	return tok, nil
}
