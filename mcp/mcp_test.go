package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/isoldatest"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/server"
	"github.com/isolda/isolda/token"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// demo is a small graph with a nested blank node, a shared constant and
// an inverse link.
const demo = `@prefix s: <http://schema.org/> .
@prefix ex: <http://example.org/> .
ex:ada a s:Person ; s:name "Ada Lovelace" ; s:knows ex:bob ; s:birthDate "1815-12-10" ;
  s:address [ a s:PostalAddress ; s:addressLocality "London" ] .
ex:bob a s:Person ; s:name "Bob" ; s:worksFor ex:acme .
ex:acme a s:Organization ; s:name "ACME" .
`

// connect starts the tools of cfg and returns a client session over the
// SDK's in-memory transport.
func connect(t *testing.T, cfg Config) *sdk.ClientSession {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its text content and whether it is an
// error; out, when not nil, receives the structured content.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents, want 1", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content %T, want text", name, res.Content[0])
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured content: %v", name, err)
		}
	}
	return tc.Text, res.IsError
}

// callOK calls a tool and fails the test on a tool error.
func callOK(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	text, isErr := call(t, cs, name, args, out)
	if isErr {
		t.Fatalf("%s: tool error: %s", name, text)
	}
	return text
}

// parse reads a document in an RDF syntax (empty: sniffed).
func parse(t *testing.T, doc, format string) *rdf.Dataset {
	t.Helper()
	var opts rdfio.Options
	if format != "" {
		opts.Format = rdfio.Format(format)
	}
	return rdftest.Read(t, doc, opts)
}

func hash(t *testing.T, d *rdf.Dataset) string {
	t.Helper()
	h, err := canon.Hash(d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestListTools(t *testing.T) {
	cs := connect(t, Config{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil || schema.Type != "object" || len(schema.Properties) == 0 {
			t.Errorf("%s: input schema %s", tool.Name, b)
		}
		for p, v := range schema.Properties {
			if v.Description == "" {
				t.Errorf("%s.%s: no description", tool.Name, p)
			}
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"chunk", "compare_formats", "count_tokens", "decode", "describe", "encode"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

// TestSyntaxDescriptions checks the inputs that name RDF syntaxes list
// those of rdfio's syntax table, with no placeholder left.
func TestSyntaxDescriptions(t *testing.T) {
	cs := connect(t, Config{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	descriptions := map[string]string{} // tool.property -> description
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		if bytes.Contains(b, []byte("{readable}")) || bytes.Contains(b, []byte("{writable}")) {
			t.Errorf("%s: a placeholder is left in %s", tool.Name, b)
		}
		var schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		for p, v := range schema.Properties {
			descriptions[tool.Name+"."+p] = v.Description
		}
	}
	for _, p := range []string{"encode.format", "compare_formats.format", "chunk.format"} {
		d := descriptions[p]
		for _, name := range rdfio.ReadableNames() {
			if !strings.Contains(d, " "+name) {
				t.Errorf("%s %q does not name %s", p, d, name)
			}
		}
	}
	d := descriptions["decode.to"]
	for _, f := range rdfio.Writable() {
		if !strings.Contains(d, " "+string(f)) {
			t.Errorf("decode.to %q does not name %s", d, f)
		}
	}
	if !strings.Contains(d, "nquads (the default)") {
		t.Errorf("decode.to %q does not say nquads is the default", d)
	}
}

func TestEncode(t *testing.T) {
	cs := connect(t, Config{})
	d := parse(t, demo, "turtle")
	want := isoldatest.Encode(t, d, isolda.Options{Version: isolda.V04})
	var out EncodeOutput
	got := callOK(t, cs, "encode", map[string]any{"data": demo}, &out)
	if got != want {
		t.Errorf("encode:\n%s\nwant (isolda.Encode):\n%s", got, want)
	}
	if n := testgraph.O200k(t).Count(got); out.Tokens != n || out.Tokenizer != token.O200KBase {
		t.Errorf("tokens %d (%s), want %d o200k_base", out.Tokens, out.Tokenizer, n)
	}
	if out.Quads != d.Len() || out.Bytes != len(got) || !out.Lossless || out.Truncated || out.Format != "isolda" || out.GraphHash != hash(t, d) {
		t.Errorf("structured content %+v", out)
	}

	// Options and another spec: the same bytes as the encoder with them.
	want = isoldatest.Encode(t, d, isolda.Options{Version: isolda.V03, IDs: isolda.IDsSlug, Glossary: isolda.GlossaryNone})
	got = callOK(t, cs, "encode", map[string]any{"data": demo, "spec": "0.3", "ids": "slug", "glossary": "none"}, nil)
	if got != want {
		t.Errorf("encode 0.3 slug:\n%s\nwant:\n%s", got, want)
	}

	// A lab format: the registry's encoder.
	f, _ := formats.Get("ntriples")
	var nt bytes.Buffer
	if err := f.Encode(&nt, formats.NewInput(d)); err != nil {
		t.Fatal(err)
	}
	got = callOK(t, cs, "encode", map[string]any{"data": demo, "to": "ntriples"}, nil)
	if got != nt.String() {
		t.Errorf("encode to ntriples:\n%s\nwant:\n%s", got, nt.String())
	}

	// A budget: at most that many tokens, and said so.
	out = EncodeOutput{}
	got = callOK(t, cs, "encode", map[string]any{"data": demo, "budget": 60}, &out)
	if n := testgraph.O200k(t).Count(got); n > 60 || n != out.Tokens || !out.Truncated || out.Lossless || out.DroppedRecords == 0 {
		t.Errorf("budget 60: %d tokens, %+v", n, out)
	}
}

func TestDecode(t *testing.T) {
	cs := connect(t, Config{})
	d := parse(t, demo, "turtle")
	doc := isoldatest.Encode(t, d, isolda.Options{Version: isolda.V04})
	var out DecodeOutput
	got := callOK(t, cs, "decode", map[string]any{"text": doc}, &out)
	if h := hash(t, parse(t, got, "nquads")); h != hash(t, d) {
		t.Errorf("decode is not the graph:\n%s", got)
	}
	if out.Quads != d.Len() || out.Format != "nquads" || out.Bytes != len(got) {
		t.Errorf("structured content %+v", out)
	}
	got = callOK(t, cs, "decode", map[string]any{"text": doc, "to": "ttl"}, nil)
	if h := hash(t, parse(t, got, "turtle")); h != hash(t, d) {
		t.Errorf("decode to ttl is not the graph:\n%s", got)
	}
	// A malformed document: line and column.
	msg, isErr := call(t, cs, "decode", map[string]any{"text": "@isolda 0.4\n@vocab http://schema.org/\n\nPerson[2]{name}:\n  Ada\n"}, nil)
	if !isErr || !strings.HasPrefix(msg, "text:") {
		t.Errorf("bad document: %v %q", isErr, msg)
	}
	if msg, isErr := call(t, cs, "decode", map[string]any{"text": doc, "to": "nope"}, nil); !isErr || !strings.Contains(msg, "nope") {
		t.Errorf("to nope: %v %q", isErr, msg)
	}
}

func TestCountTokens(t *testing.T) {
	cs := connect(t, Config{})
	var out CountOutput
	// "hello world" is 2 tokens in o200k_base and cl100k_base alike.
	got := callOK(t, cs, "count_tokens", map[string]any{"text": "hello world"}, &out)
	if first, _, _ := strings.Cut(got, " "); first != "2" || out.Tokens != 2 || out.Tokenizer != token.O200KBase {
		t.Errorf("count_tokens: %q %+v", got, out)
	}
	text := demo + "Ünïcödé ☃ 12345"
	for _, name := range []string{token.O200KBase, token.CL100KBase} {
		tok, err := token.NewRegistry(token.Options{}).Get(name)
		if err != nil {
			t.Fatal(err)
		}
		out = CountOutput{}
		callOK(t, cs, "count_tokens", map[string]any{"text": text, "tokenizer": name}, &out)
		if out.Tokens != tok.Count(text) || out.Bytes != len(text) {
			t.Errorf("%s: %+v, want %d", name, out, tok.Count(text))
		}
	}
	if msg, isErr := call(t, cs, "count_tokens", map[string]any{"text": "x", "tokenizer": "/etc/passwd"}, nil); !isErr || !strings.Contains(msg, "not available") {
		t.Errorf("a tokenizer path: %v %q", isErr, msg)
	}
}

func TestCompareFormats(t *testing.T) {
	cs := connect(t, Config{})
	d := parse(t, demo, "turtle")
	tok := testgraph.O200k(t)
	var out CompareOutput
	got := callOK(t, cs, "compare_formats", map[string]any{"data": demo}, &out)
	if out.Quads != d.Len() || len(out.Formats) < 3 {
		t.Fatalf("%+v", out)
	}
	seen := map[string]bool{}
	for i, r := range out.Formats {
		f, ok := formats.Get(r.Format)
		if !ok || !f.Lossless || f.Decode == nil {
			t.Fatalf("%s: not a format of the registry lossless for RDF", r.Format)
		}
		if r.Rank != i+1 || (i > 0 && r.Tokens < out.Formats[i-1].Tokens) {
			t.Errorf("rank %d: %+v after %+v", i+1, r, out.Formats[max(0, i-1)])
		}
		var b bytes.Buffer
		if err := f.Encode(&b, formats.NewInput(d)); err != nil {
			t.Errorf("%s listed but fails: %v", r.Format, err)
			continue
		}
		// The round trip: the ranked format holds the whole graph.
		if back, err := f.Decode(strings.NewReader(b.String())); err != nil || hash(t, back) != hash(t, d) {
			t.Errorf("%s: the text does not decode to the graph (%v)", r.Format, err)
		}
		if r.Tokens != tok.Count(b.String()) || r.Bytes != b.Len() {
			t.Errorf("%s: %d tokens %d bytes, want %d %d", r.Format, r.Tokens, r.Bytes, tok.Count(b.String()), b.Len())
		}
		seen[r.Format] = true
		if !strings.Contains(got, r.Format) {
			t.Errorf("%s not in the text", r.Format)
		}
	}
	for _, f := range formats.All() {
		if f.Lossless && f.Decode != nil && !seen[f.Name] {
			if err := f.Encode(&bytes.Buffer{}, formats.NewInput(d)); err == nil {
				t.Errorf("%s: lossless and writes the graph, but not ranked", f.Name)
			}
		}
	}
	if seen["compact_json"] || seen["csv"] {
		t.Errorf("formats of the labelled-graph view ranked: %v", seen)
	}
	if !seen["isolda"] || !seen["turtle"] {
		t.Errorf("isolda or turtle missing: %v", seen)
	}
}

func TestChunk(t *testing.T) {
	cs := connect(t, Config{})
	tok := testgraph.O200k(t)
	for _, args := range []map[string]any{
		{"data": demo},
		{"data": demo, "budget": 40, "cls": []string{"schema:Person"}},
	} {
		opts := chunk.Options{Format: "isolda", Budget: 512, Hops: 1, Tokenizer: token.O200KBase}
		if b, ok := args["budget"]; ok {
			opts.Budget = b.(int)
			opts.Classes = []string{"http://schema.org/Person"}
		}
		c, err := chunk.New(opts, tok)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		d := parse(t, demo, "turtle")
		if _, err := c.Run(func(s rdf.Sink) error {
			for _, q := range d.Quads() {
				if err := s.AddQuad(q); err != nil {
					return err
				}
			}
			return nil
		}, &want, chunk.RunOptions{}); err != nil {
			t.Fatal(err)
		}
		var out ChunkOutput
		got := callOK(t, cs, "chunk", args, &out)
		if got != want.String() {
			t.Errorf("%v:\n%s\nwant (chunk.Run):\n%s", args, got, want.String())
		}
		if n := strings.Count(want.String(), "\n"); len(out.Documents) != n {
			t.Errorf("%d documents, want %d", len(out.Documents), n)
		}
		for _, doc := range out.Documents {
			if doc.Tokens != tok.Count(doc.Text) || (opts.Budget > 0 && doc.Tokens > opts.Budget) {
				t.Errorf("%s: %d tokens", doc.Entity, doc.Tokens)
			}
			if _, err := isolda.Decode(strings.NewReader(doc.Text)); err != nil {
				t.Errorf("%s: the document does not decode: %v", doc.Entity, err)
			}
		}
	}
}

// sparqlEndpoint answers every query with data as N-Triples and records
// the queries.
func sparqlEndpoint(t *testing.T, data string) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var queries []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.Query().Get("query"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/n-triples")
		w.Write([]byte(data))
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(queries) }
}

func TestDescribe(t *testing.T) {
	var nt bytes.Buffer
	d := parse(t, demo, "turtle")
	if err := rdfio.Write(&nt, d, "ntriples", rdfio.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ts, queries := sparqlEndpoint(t, nt.String())
	cs := connect(t, Config{Service: server.Config{AllowSPARQL: true, SPARQLEndpoints: []string{ts.URL + "/sparql"}}})
	const ada = "http://example.org/ada"
	want := isoldatest.Encode(t, d, isolda.Options{Version: isolda.V04, Anchor: ada, Hops: 1})
	var out EncodeOutput
	got := callOK(t, cs, "describe", map[string]any{"endpoint": ts.URL + "/sparql", "iri": ada}, &out)
	if got != want {
		t.Errorf("describe:\n%s\nwant:\n%s", got, want)
	}
	if out.Tokens != testgraph.O200k(t).Count(got) || out.Format != "isolda" {
		t.Errorf("%+v", out)
	}
	q := queries()
	if len(q) != 1 || !strings.HasPrefix(q[0], "CONSTRUCT") || !strings.Contains(q[0], "<"+ada+">") {
		t.Errorf("queries %q", q)
	}
	// A budget.
	got = callOK(t, cs, "describe", map[string]any{"endpoint": ts.URL + "/sparql", "iri": ada, "budget": 50, "hops": 2}, &out)
	if out.Tokens > 50 || !out.Truncated || testgraph.O200k(t).Count(got) != out.Tokens {
		t.Errorf("budget 50: %+v", out)
	}
	// Not on the allow-list, a bad IRI, too many hops: no query sent.
	n := len(queries())
	for _, args := range []map[string]any{
		{"endpoint": ts.URL + "/other", "iri": ada},
		{"endpoint": "http://169.254.169.254/sparql", "iri": ada},
		{"endpoint": ts.URL + "/sparql", "iri": "http://x/> } DELETE {"},
		{"endpoint": ts.URL + "/sparql", "iri": "ada"},
		{"endpoint": ts.URL + "/sparql", "iri": ada, "hops": 9},
	} {
		if msg, isErr := call(t, cs, "describe", args, nil); !isErr {
			t.Errorf("%v: no error: %s", args, msg)
		}
	}
	if len(queries()) != n {
		t.Errorf("a refused call queried the endpoint: %q", queries()[n:])
	}
	// SPARQL off (no endpoint allowed).
	off := connect(t, Config{})
	if msg, isErr := call(t, off, "describe", map[string]any{"endpoint": ts.URL + "/sparql", "iri": ada}, nil); !isErr || !strings.Contains(msg, "SPARQL") {
		t.Errorf("SPARQL off: %v %q", isErr, msg)
	}
}

func TestDescribeQuery(t *testing.T) {
	q := describeQuery("http://example.org/a", 2, 100)
	for _, s := range []string{"?s0 ?in <http://example.org/a>", "<http://example.org/a> ?p1 ?o1 . ?o1 ?p2 ?o2 .", "LIMIT 100"} {
		if !strings.Contains(q, s) {
			t.Errorf("no %q in\n%s", s, q)
		}
	}
}

func TestBadGraphKeepsServing(t *testing.T) {
	cs := connect(t, Config{})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"encode", map[string]any{"data": "<http://a> <http://b> \n <http://c> <http://d> ."}, "data:2:13:"},
		{"encode", map[string]any{"data": "<http://a> <http://b> \"x .", "format": "nt"}, "data:1:"},
		{"compare_formats", map[string]any{"data": "@prefix s: <http://schema.org/> .\ns:a s:b s:c ;;; ]"}, "data:2:"},
		{"chunk", map[string]any{"data": "@prefix s: <http://schema.org/> .\n\ns:a s:b ."}, "data:3:"},
		{"encode", map[string]any{"data": demo, "to": "nope"}, "nope"},
		{"encode", map[string]any{"data": demo, "layout": "spiral"}, "spiral"},
		{"encode", map[string]any{}, "data is empty"},
		{"encode", map[string]any{"data": demo, "path": "x.ttl"}, "not both"},
		{"encode", map[string]any{"path": "x.ttl"}, "--root"},
		{"chunk", map[string]any{"data": demo, "hops": 99}, "hops"},
	} {
		msg, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: error %v %q, want %q", c.tool, c.args, isErr, msg, c.want)
		}
		// The server still answers.
		callOK(t, cs, "count_tokens", map[string]any{"text": "ok"}, nil)
	}
	// Arguments of the wrong type are refused by the schema.
	if _, isErr := call(t, cs, "encode", map[string]any{"data": demo, "budget": "many"}, nil); !isErr {
		t.Error("budget \"many\": no error")
	}
}

func TestRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "demo.ttl"), demo)
	write(filepath.Join(base, "secret.ttl"), "<http://secret> <http://p> \"the secret\" .\n")
	write(filepath.Join(root, "bad.ttl"), "<http://a> <http://b> .\n")
	if err := os.Symlink(filepath.Join(base, "secret.ttl"), filepath.Join(root, "escape.ttl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/demo.ttl", filepath.Join(root, "inside.ttl")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Config{Root: root})
	want := callOK(t, cs, "encode", map[string]any{"data": demo}, nil)
	for _, p := range []string{"sub/demo.ttl", "inside.ttl", filepath.Join(root, "sub", "demo.ttl"), "sub/../sub/demo.ttl"} {
		if got := callOK(t, cs, "encode", map[string]any{"path": p}, nil); got != want {
			t.Errorf("path %s: %q", p, got)
		}
	}
	for _, p := range []string{"escape.ttl", "up/secret.ttl", "../secret.ttl", filepath.Join(base, "secret.ttl"), "sub/../../secret.ttl"} {
		msg, isErr := call(t, cs, "encode", map[string]any{"path": p}, nil)
		if !isErr || !strings.Contains(msg, "outside the root") || strings.Contains(msg, "the secret") {
			t.Errorf("path %s: %v %q", p, isErr, msg)
		}
		if msg, isErr := call(t, cs, "count_tokens", map[string]any{"path": p}, nil); !isErr {
			t.Errorf("count_tokens path %s: %q", p, msg)
		}
	}
	for p, w := range map[string]string{"missing.ttl": "no such file", "sub": "not a regular file", "bad.ttl": "bad.ttl:1:"} {
		if msg, isErr := call(t, cs, "encode", map[string]any{"path": p}, nil); !isErr || !strings.Contains(msg, w) {
			t.Errorf("path %s: %v %q, want %q", p, isErr, msg, w)
		}
	}
	// decode and chunk read paths too.
	write(filepath.Join(root, "demo.isolda"), isoldatest.Encode(t, parse(t, demo, "turtle"), isolda.Options{Version: isolda.V04}))
	callOK(t, cs, "decode", map[string]any{"path": "demo.isolda"}, nil)
	callOK(t, cs, "chunk", map[string]any{"path": "sub/demo.ttl"}, nil)
}

func TestLimits(t *testing.T) {
	cs := connect(t, Config{Service: server.Config{MaxRequestBytes: 1000, MaxQuads: 5}})
	big := strings.Repeat("<http://a> <http://b> \"x\" .\n", 50)
	for _, tool := range []string{"encode", "compare_formats", "chunk"} {
		if msg, isErr := call(t, cs, tool, map[string]any{"data": big}, nil); !isErr || !strings.Contains(msg, "limit") {
			t.Errorf("%s of %d bytes: %v %q", tool, len(big), isErr, msg)
		}
	}
	if msg, isErr := call(t, cs, "count_tokens", map[string]any{"text": big}, nil); !isErr || !strings.Contains(msg, "limit") {
		t.Errorf("count_tokens of %d bytes: %v %q", len(big), isErr, msg)
	}
	// Within the bytes, over the quads.
	six := "<http://a> <http://b> \"1\", \"2\", \"3\", \"4\", \"5\", \"6\" ."
	for _, tool := range []string{"encode", "chunk"} {
		if msg, isErr := call(t, cs, tool, map[string]any{"data": six}, nil); !isErr || !strings.Contains(msg, "5") {
			t.Errorf("%s of 6 quads: %v %q", tool, isErr, msg)
		}
	}
	// Nesting deeper than the parsers' limit.
	deep := connect(t, Config{})
	nested := "<http://a> <http://b> " + strings.Repeat("[ <http://c> ", 2000) + strings.Repeat("]", 2000) + " ."
	if msg, isErr := call(t, deep, "encode", map[string]any{"data": nested}, nil); !isErr || !strings.Contains(msg, "data:1:") {
		t.Errorf("nesting 2000: %v %q", isErr, msg)
	}
	// Time: a limit no call can meet.
	slow := connect(t, Config{Service: server.Config{Timeout: time.Nanosecond}})
	for _, tool := range []string{"encode", "chunk"} {
		if msg, isErr := call(t, slow, tool, map[string]any{"data": demo}, nil); !isErr || !strings.Contains(strings.ToLower(msg), "time") {
			t.Errorf("%s with a 1ns limit: %v %q", tool, isErr, msg)
		}
	}
}

// TestStreamableHTTP calls the tools through the streamable HTTP handler
// with the SDK's client.
func TestStreamableHTTP(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s.Handler(s.MCPServer()))
	defer ts.Close()
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var out CountOutput
	if got := callOK(t, cs, "count_tokens", map[string]any{"text": "hello world"}, &out); out.Tokens != 2 || !strings.HasPrefix(got, "2 ") {
		t.Errorf("count_tokens over HTTP: %q %+v", got, out)
	}
	if msg, isErr := call(t, cs, "encode", map[string]any{"data": "<http://a> <http://b> ."}, nil); !isErr || !strings.HasPrefix(msg, "data:1:23:") {
		t.Errorf("bad graph over HTTP: %v %q", isErr, msg)
	}
}

// TestMemoryBudget: the API's memory budget applies to the tools that go
// through it.
func TestMemoryBudget(t *testing.T) {
	cs := connect(t, Config{Service: server.Config{MemoryBudget: 4 << 10}})
	if msg, isErr := call(t, cs, "encode", map[string]any{"data": demo}, nil); !isErr || !strings.Contains(msg, "memory") {
		t.Errorf("4 KiB budget: %v %q", isErr, msg)
	}
	// decode and count_tokens go through it too (/v1/decode, /v1/tokens).
	doc := isoldatest.Encode(t, parse(t, demo, "turtle"), isolda.Options{Version: isolda.V04})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"decode", map[string]any{"text": doc}},
		{"count_tokens", map[string]any{"text": "hello world"}},
		{"chunk", map[string]any{"data": demo}},
	} {
		if msg, isErr := call(t, cs, c.tool, c.args, nil); !isErr || !strings.Contains(msg, "memory budget") {
			t.Errorf("%s on a 4 KiB budget: %v %q", c.tool, isErr, msg)
		}
	}
	// Within a budget of 16 MiB, the demo decodes and counts, but a run
	// of 100,000 bytes of one character is too costly to count (about
	// 200 bytes a byte).
	cs = connect(t, Config{Service: server.Config{MemoryBudget: 16 << 20}})
	callOK(t, cs, "decode", map[string]any{"text": doc}, nil)
	callOK(t, cs, "count_tokens", map[string]any{"text": doc}, nil)
	callOK(t, cs, "chunk", map[string]any{"data": demo, "hops": 2}, nil)
	// chunk goes through /v1/chunk: 20,000 statements need more than
	// 16 MiB (about 4 KB a statement reserved).
	var big strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&big, "<http://example.org/e%d> <http://example.org/next> <http://example.org/e%d> .\n", i/4, i/4+1)
	}
	if msg, isErr := call(t, cs, "chunk", map[string]any{"data": big.String(), "format": "nt"}, nil); !isErr || !strings.Contains(msg, "memory budget") {
		t.Errorf("chunk of 20,000 statements on a 16 MiB budget: %v %.200q", isErr, msg)
	}
	if msg, isErr := call(t, cs, "count_tokens", map[string]any{"text": strings.Repeat("A", 100_000)}, nil); !isErr || !strings.Contains(msg, "memory budget") {
		t.Errorf("count_tokens of a long run on a 16 MiB budget: %v %.200q", isErr, msg)
	}
}
