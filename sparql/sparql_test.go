package sparql

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

// endpoint is a SPARQL 1.1 Protocol endpoint for tests: it checks the
// protocol details of each request and answers with a fixed document.
type endpoint struct {
	t *testing.T
	// want is the method the client must use.
	want Method
	// query is the query the client must send.
	query string
	// ctype and body are the answer.
	ctype string
	body  []byte
	// status is the answer's status (default 200).
	status int
	// seen counts requests.
	seen int
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.seen++
	t := e.t
	if got := r.Header.Get("Accept"); got != Accept {
		t.Errorf("Accept %q, want %q", got, Accept)
	}
	var q string
	switch e.want {
	case Get:
		if r.Method != http.MethodGet {
			t.Errorf("method %s, want GET", r.Method)
		}
		vals := r.URL.Query()
		if len(vals["query"]) != 1 {
			t.Errorf("GET query parameters %v, want one query", vals)
		}
		q = vals.Get("query")
	case Post:
		if r.Method != http.MethodPost {
			t.Errorf("method %s, want POST", r.Method)
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/sparql-query") {
			t.Errorf("Content-Type %q, want application/sparql-query", ct)
		}
		if r.URL.RawQuery != "" {
			t.Errorf("POST direct with a query string %q", r.URL.RawQuery)
		}
		b, _ := io.ReadAll(r.Body)
		q = string(b)
	case PostForm:
		if r.Method != http.MethodPost {
			t.Errorf("method %s, want POST", r.Method)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
			t.Errorf("Content-Type %q, want application/x-www-form-urlencoded", ct)
		}
		b, _ := io.ReadAll(r.Body)
		vals, err := url.ParseQuery(string(b))
		if err != nil {
			t.Errorf("form body: %v", err)
		}
		q = vals.Get("query")
	}
	if q != e.query {
		t.Errorf("query %q, want %q", q, e.query)
	}
	w.Header().Set("Content-Type", e.ctype)
	if e.status != 0 {
		w.WriteHeader(e.status)
	}
	w.Write(e.body)
}

// hashOf is the RDFC-1.0 hash of an N-Triples or N-Quads oracle file.
func hashOf(t *testing.T, nt []byte) string {
	t.Helper()
	d := rdftest.Read(t, string(nt), rdfio.Options{Format: rdfio.NQuads})
	h, err := canon.Hash(d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestMethods sends a CONSTRUCT query with each protocol method to an
// endpoint serving real Turtle and checks the triple counts against
// rdflib's (data/examples/README.md).
func TestMethods(t *testing.T) {
	const query = "PREFIX ex: <http://example.org/>\nCONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"
	files := []struct {
		name    string
		triples int
	}{
		{"wikidata-L691820-lexeme.ttl", 368},
		{"lod-datagovuk-reference-intervals.ttl", 1091},
	}
	pass := 0
	for _, m := range []Method{Get, Post, PostForm} {
		for _, f := range files {
			ep := &endpoint{t: t, want: m, query: query, ctype: "text/turtle; charset=utf-8",
				body: shared.ReadFile(t, "data", "examples", f.name)}
			srv := httptest.NewServer(ep)
			c := &Client{Method: m}
			d, err := c.Construct(context.Background(), srv.URL+"/sparql", query)
			srv.Close()
			if err != nil {
				t.Errorf("%v %s: %v", m, f.name, err)
				continue
			}
			if d.Len() != f.triples || ep.seen != 1 {
				t.Errorf("%v %s: %d triples in %d requests, want %d in 1", m, f.name, d.Len(), ep.seen, f.triples)
				continue
			}
			pass++
		}
	}
	t.Logf("methods: %d/6 passed", pass)
	t.Logf("sparql methods: %d/6 passed", pass)
}

// TestSyntaxes serves W3C test inputs with each media type and checks the
// graphs against the suites' expected N-Triples and N-Quads.
func TestSyntaxes(t *testing.T) {
	cases := []struct {
		ctype      string
		in, expect []string
	}{
		{"application/n-triples", []string{"conformance", "rdfxml", "rdf-containers-syntax-vs-schema", "test001.nt"},
			[]string{"conformance", "rdfxml", "rdf-containers-syntax-vs-schema", "test001.nt"}},
		{"text/plain", []string{"conformance", "turtle", "turtle-subm-20.nt"},
			[]string{"conformance", "turtle", "turtle-subm-20.nt"}},
		{"text/turtle", []string{"conformance", "turtle", "turtle-subm-20.ttl"},
			[]string{"conformance", "turtle", "turtle-subm-20.nt"}},
		{"application/ld+json", []string{"conformance", "jsonld", "toRdf", "0002-in.jsonld"},
			[]string{"conformance", "jsonld", "toRdf", "0002-out.nq"}},
		{"application/rdf+xml", []string{"conformance", "rdfxml", "rdf-containers-syntax-vs-schema", "test001.rdf"},
			[]string{"conformance", "rdfxml", "rdf-containers-syntax-vs-schema", "test001.nt"}},
		{"application/n-quads", []string{"conformance", "jsonld", "toRdf", "0002-out.nq"},
			[]string{"conformance", "jsonld", "toRdf", "0002-out.nq"}},
	}
	const query = "DESCRIBE <http://example.org/a>"
	pass := 0
	for _, tc := range cases {
		ep := &endpoint{t: t, want: Post, query: query, ctype: tc.ctype, body: shared.ReadFile(t, tc.in...)}
		srv := httptest.NewServer(ep)
		d, err := (&Client{Method: Post}).Construct(context.Background(), srv.URL, query)
		srv.Close()
		if err != nil {
			t.Errorf("%s: %v", tc.ctype, err)
			continue
		}
		h, err := canon.Hash(d)
		if err != nil {
			t.Fatal(err)
		}
		if want := hashOf(t, shared.ReadFile(t, tc.expect...)); h != want || d.Len() == 0 {
			t.Errorf("%s %s: graph of %d quads differs from %s", tc.ctype, tc.in[len(tc.in)-1], d.Len(), tc.expect[len(tc.expect)-1])
			continue
		}
		pass++
	}
	t.Logf("media types: %d/%d passed", pass, len(cases))
	t.Logf("sparql media types: %d/%d passed", pass, len(cases))
}

// TestLongGet checks a query too long for a URL goes as a form POST.
func TestLongGet(t *testing.T) {
	query := "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } # " + strings.Repeat("x", MaxGetQuery)
	ep := &endpoint{t: t, want: PostForm, query: query, ctype: "application/n-triples",
		body: []byte("<http://a> <http://b> <http://c> .\n")}
	srv := httptest.NewServer(ep)
	defer srv.Close()
	d, err := (&Client{}).Construct(context.Background(), srv.URL, query)
	if err != nil || d.Len() != 1 {
		t.Fatalf("%v, %v", d, err)
	}
}

// TestErrors checks the errors say what the endpoint answered.
func TestErrors(t *testing.T) {
	const query = "CONSTRUCT WHERE { ?s ?p ?o }"
	serve := func(status int, ctype, body string) *httptest.Server {
		return httptest.NewServer(&endpoint{t: t, want: Get, query: query, status: status, ctype: ctype, body: []byte(body)})
	}
	// A refused query: status and snippet.
	srv := serve(400, "text/plain", "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error\n"+strings.Repeat("z", 1000))
	_, err := (&Client{}).Construct(context.Background(), srv.URL, query)
	srv.Close()
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 400 || !strings.Contains(he.Snippet, "SP030: SPARQL compiler, line 1") ||
		len(he.Snippet) > snippetBytes || !strings.Contains(err.Error(), "400 Bad Request") {
		t.Errorf("400: %v", err)
	}
	// The answer is in Snippet, never in the message.
	if strings.Contains(err.Error(), "SP030") {
		t.Errorf("400: the message quotes the answer: %v", err)
	}
	// A SELECT-style answer is not a graph.
	srv = serve(200, "application/sparql-results+json", `{"head":{"vars":["s"]},"results":{"bindings":[]}}`)
	_, err = (&Client{}).Construct(context.Background(), srv.URL, query)
	srv.Close()
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "not an RDF graph") || strings.Contains(err.Error(), `"head"`) ||
		!strings.Contains(he.Snippet, `"head"`) {
		t.Errorf("results json: %v (snippet %q)", err, he.Snippet)
	}
	// A syntax error in the answer: line and column.
	srv = serve(200, "application/n-triples", "<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"x .\n")
	_, err = (&Client{}).Construct(context.Background(), srv.URL, query)
	srv.Close()
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.File != srv.URL {
		t.Errorf("syntax: %v", err)
	}
	// Too large.
	srv = serve(200, "application/n-triples", strings.Repeat("<http://a> <http://b> <http://c> .\n", 1000))
	_, err = (&Client{MaxBytes: 1000}).Construct(context.Background(), srv.URL, query)
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("MaxBytes: %v", err)
	}
	_, err = (&Client{MaxQuads: 10}).Construct(context.Background(), srv.URL, query)
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("MaxQuads: %v", err)
	}
	d, err := (&Client{MaxBytes: 36000}).Construct(context.Background(), srv.URL, query)
	if err != nil || d.Len() != 1 { // 35000 bytes: 1000 copies of one triple
		t.Errorf("under MaxBytes: %v", err)
	}
	srv.Close()
	// Not a query that returns a graph, or not an HTTP URL: no request.
	for _, q := range []string{"SELECT * WHERE { ?s ?p ?o }", "ASK { ?s ?p ?o }", "INSERT DATA { <a> <b> <c> }", "", "# only\n"} {
		if _, err := (&Client{}).Construct(context.Background(), "http://127.0.0.1:1/", q); err == nil {
			t.Errorf("query %q accepted", q)
		}
	}
	for _, u := range []string{"file:///etc/passwd", "ftp://x/", "/sparql", "http://"} {
		if _, err := (&Client{}).Construct(context.Background(), u, query); err == nil {
			t.Errorf("endpoint %q accepted", u)
		}
	}
}

// TestTimeout checks a silent endpoint is given up on, and that
// cancellation stops a query.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	// The endpoint answers only when released: a deadline error (rather
	// than a hang) shows the client gave up.
	_, err := (&Client{Timeout: 200 * time.Millisecond}).Construct(context.Background(), srv.URL, "DESCRIBE <http://a>")
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = (&Client{}).Construct(ctx, srv.URL, "DESCRIBE <http://a>")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}

// TestAllowURL checks the allow-list applies to the endpoint and to
// redirects.
func TestAllowURL(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the disallowed server was asked")
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, other.URL+"/?"+r.URL.RawQuery, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/n-triples")
		io.WriteString(w, "<http://a> <http://b> <http://c> .\n")
	}))
	defer srv.Close()
	c := &Client{AllowURL: func(u string) bool { return strings.HasPrefix(u, srv.URL+"/") }}
	if d, err := c.Construct(context.Background(), srv.URL+"/sparql", "DESCRIBE <http://a>"); err != nil || d.Len() != 1 {
		t.Errorf("allowed: %v", err)
	}
	if _, err := c.Construct(context.Background(), other.URL+"/sparql", "DESCRIBE <http://a>"); err == nil {
		t.Error("disallowed endpoint queried")
	}
	if _, err := c.Construct(context.Background(), srv.URL+"/redirect", "DESCRIBE <http://a>"); err == nil ||
		!strings.Contains(err.Error(), "not allowed") {
		t.Errorf("redirect: %v", err)
	}
}

// TestQueryForm checks the prologue is skipped and only graph forms pass.
func TestQueryForm(t *testing.T) {
	cases := []struct{ q, want string }{
		{"CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"},
		{"construct where { ?s ?p ?o }", "CONSTRUCT"},
		{"# c <x>\nBASE <http://e/#frag>\nPREFIX : <http://e/#>\nprefix ex:<http://x#> DESCRIBE ?x WHERE {}", "DESCRIBE"},
		{"PREFIX a: <x> # CONSTRUCT\nSELECT * {}", ""},
		{"ASK {}", ""},
		{"DELETE WHERE { ?s ?p ?o }", ""},
		{"PREFIX : CONSTRUCT {}", ""},
		{"BASE CONSTRUCT {}", ""},
		{"{ CONSTRUCT }", ""},
		{"", ""},
	}
	for _, c := range cases {
		got, err := QueryForm(c.q)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("%q: %q, %v; want %q", c.q, got, err, c.want)
		}
	}
}
