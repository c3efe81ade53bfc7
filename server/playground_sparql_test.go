package server

// Tests of graphs fetched from SPARQL endpoints (Graph.Endpoint), the
// playground's second data source besides pasted text.

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/sparql"
)

// sparqlEndpoint serves data as Turtle at /sparql to GET and POST
// queries, and fails in the ways the paths /fail, /select and /bad ask.
func sparqlEndpoint(t *testing.T, data string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != sparql.Accept {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		var q string
		switch r.Method {
		case http.MethodGet:
			q = r.URL.Query().Get("query")
		case http.MethodPost:
			b, _ := io.ReadAll(r.Body)
			q = string(b)
		}
		if !strings.Contains(q, "CONSTRUCT") {
			t.Errorf("query %q", q)
		}
		switch r.URL.Path {
		case "/sparql":
			w.Header().Set("Content-Type", "text/turtle")
			io.WriteString(w, data)
		case "/fail":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, "Virtuoso 42000 Error: out of memory\n")
		case "/select":
			w.Header().Set("Content-Type", "application/sparql-results+xml")
			io.WriteString(w, "<sparql/>")
		case "/bad":
			w.Header().Set("Content-Type", "application/n-triples")
			io.WriteString(w, "<http://a> <http://b> <http://c> .\n<http://a> <http://b> .\n")
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
}

// TestSPARQLGraph serializes a graph fetched by CONSTRUCT and checks it is
// the graph of the same document sent inline (same hash, same text), and
// that the server refuses endpoints it was not told to allow.
func TestSPARQLGraph(t *testing.T) {
	data := exampleTTL(t, lexeme)
	ep := sparqlEndpoint(t, data)
	defer ep.Close()
	const query = "PREFIX wd: <http://www.wikidata.org/entity/>\nCONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"
	h := New(Config{AllowSPARQL: true, SPARQLEndpoints: []string{ep.URL + "/sparql", ep.URL + "/fail",
		ep.URL + "/select", ep.URL + "/bad", ep.URL + "/slow"}, Timeout: time.Second})
	code, _, body := call(t, h, "POST", "/v1/serialize", map[string]any{"graph": map[string]string{"data": data}, "format": "turtle"})
	if code != 200 {
		t.Fatalf("inline: %d %s", code, body)
	}
	inline := decode[SerializeResponse](t, body)
	pass := 0
	for _, m := range []string{"", "get", "post", "form"} {
		code, _, body := call(t, h, "POST", "/v1/serialize", map[string]any{
			"graph": map[string]string{"endpoint": ep.URL + "/sparql", "query": query, "method": m}, "format": "turtle"})
		if code != 200 {
			t.Errorf("method %q: %d %s", m, code, body)
			continue
		}
		got := decode[SerializeResponse](t, body)
		if got.Quads != 368 || got.GraphHash != inline.GraphHash || got.GraphHash == "" {
			t.Errorf("method %q: %d quads, hash %s; inline %d, %s", m, got.Quads, got.GraphHash, inline.Quads, inline.GraphHash)
			continue
		}
		pass++
	}
	t.Logf("sparql graphs: %d/4 methods give the inline graph", pass)
	t.Logf("server sparql graphs: %d/4 methods give the inline graph", pass)
	// /v1/compare and /v1/check read the same way.
	g := map[string]string{"endpoint": ep.URL + "/sparql", "query": query}
	if code, _, body := call(t, h, "POST", "/v1/check", map[string]any{"graph": g}); code != 200 ||
		!decode[CheckResponse](t, body).Isomorphic {
		t.Errorf("check: %d %s", code, body)
	}
	if code, _, body := call(t, h, "POST", "/v1/compare", map[string]any{"graph": g, "formats": []string{"ntriples"}}); code != 200 ||
		decode[CompareResponse](t, body).Quads != 368 {
		t.Errorf("compare: %d %s", code, body)
	}

	cases := []struct {
		name    string
		h       http.Handler
		graph   map[string]string
		status  int
		message string
	}{
		{"off by default", New(Config{}), g, 403, "SPARQL retrieval is off"},
		{"on without a list", New(Config{AllowSPARQL: true}), g, 403, "not an allowed SPARQL endpoint"},
		{"not listed", h, map[string]string{"endpoint": ep.URL + "/sparqlx", "query": query}, 403, "not an allowed"},
		{"other host", h, map[string]string{"endpoint": "http://169.254.169.254/sparql", "query": query}, 403, "not an allowed"},
		{"select", h, map[string]string{"endpoint": ep.URL + "/sparql", "query": "SELECT * {}"}, 422, "only CONSTRUCT and DESCRIBE"},
		{"no query", h, map[string]string{"endpoint": ep.URL + "/sparql"}, 422, "go together"},
		{"data too", h, map[string]string{"endpoint": ep.URL + "/sparql", "query": query, "data": "x"}, 422, "do not apply"},
		{"bad method", h, map[string]string{"endpoint": ep.URL + "/sparql", "query": query, "method": "put"}, 422, "graph.method"},
		// The endpoint's answer is never quoted: only its status and type.
		{"endpoint error", h, map[string]string{"endpoint": ep.URL + "/fail", "query": query}, 502, "the endpoint refused the query (HTTP 500, \"text/plain\")"},
		{"not a graph", h, map[string]string{"endpoint": ep.URL + "/select", "query": query}, 502, "not an RDF graph"},
		{"bad answer", h, map[string]string{"endpoint": ep.URL + "/bad", "query": query}, 502, "the answer of"},
		{"slow", h, map[string]string{"endpoint": ep.URL + "/slow", "query": query}, 503, "time limit"},
	}
	for _, c := range cases {
		code, _, body := call(t, c.h, "POST", "/v1/serialize", map[string]any{"graph": c.graph})
		e := decode[apiErr](t, body)
		if code != c.status || !strings.Contains(e.Error, c.message) {
			t.Errorf("%s: %d %s; want %d with %q", c.name, code, body, c.status, c.message)
		}
		if c.name == "bad answer" && (e.Line != 2 || e.Column == 0) {
			t.Errorf("bad answer: line %d column %d, want line 2", e.Line, e.Column)
		}
	}
}

// TestEndpointAllowed checks the allow-list matches at path boundaries.
func TestEndpointAllowed(t *testing.T) {
	list := []string{"http://h:8890/sparql", "https://q.example/"}
	cases := map[string]bool{
		"http://h:8890/sparql":                   true,
		"http://h:8890/sparql?default-graph-uri": true,
		"http://h:8890/sparql/x":                 true,
		"http://h:8890/sparqlx":                  false,
		"http://h:8890/":                         false,
		"http://h:88901/sparql":                  false,
		"https://q.example/anything":             true,
		"https://q.example.evil/":                false,
		"http://q.example/":                      false,
		"":                                       false,
	}
	for u, want := range cases {
		if got := endpointAllowed(list, u); got != want {
			t.Errorf("%q: %v, want %v", u, got, want)
		}
	}
	if endpointAllowed([]string{""}, "http://x/") {
		t.Error("an empty prefix allows everything")
	}
}
