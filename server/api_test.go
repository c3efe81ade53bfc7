package server

// Tests of the API's contract: content type, Host, required fields, error
// messages in JSON terms, option names, and the bounds on what errors
// quote.

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf/canon"
)

// TestContentType checks the POST endpoints take application/json only.
func TestContentType(t *testing.T) {
	h := New(Config{})
	body := `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`
	cases := map[string]int{
		"":                                  415,
		"text/plain":                        415,
		"application/x-www-form-urlencoded": 415,
		"multipart/form-data; boundary=x":   415,
		"application/jsonx":                 415,
		"application/json":                  200,
		"application/json; charset=utf-8":   200,
		"Application/JSON":                  200,
	}
	for _, path := range []string{"/v1/serialize", "/v1/compare", "/v1/check"} {
		for ct, want := range cases {
			b := body
			if path == "/v1/compare" {
				b = `{"graph": {"data": "<http://a> <http://b> <http://c> ."}, "formats": ["ntriples"]}`
			}
			req := httptest.NewRequest("POST", path, strings.NewReader(b))
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != want {
				t.Errorf("%s with Content-Type %q: %d, want %d: %s", path, ct, rec.Code, want, rec.Body)
			}
			if want == 415 && !strings.Contains(rec.Body.String(), "Content-Type must be application/json") {
				t.Errorf("%s with Content-Type %q: %s", path, ct, rec.Body)
			}
		}
	}
}

// hostStatus sends GET /healthz with a Host header.
func hostStatus(h http.Handler, host string) int {
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.Host = host
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// TestHostCheck checks the Host headers answered, against DNS rebinding.
func TestHostCheck(t *testing.T) {
	cases := []struct {
		listen  string
		allowed []string
		hosts   map[string]int
	}{
		{"127.0.0.1:8080", nil, map[string]int{
			"127.0.0.1:8080": 200, "localhost:8080": 200, "[::1]:8080": 200, "LocalHost:8080": 200, "localhost.:8080": 200,
			"evil.example:8080": 403, "localhost:9999": 403, "localhost": 403, "127.0.0.2:8080": 403,
			"": 403, "localhost.evil.example:8080": 403, "127.0.0.1.nip.io:8080": 403, "[::1]": 403, "localhost:": 403,
			"localhost:8080:8080": 403, "[::1:8080": 403,
		}},
		{"[::1]:80", nil, map[string]int{"localhost": 200, "[::1]": 200, "[::1]:80": 200, "localhost:8080": 403, "evil.example": 403}},
		{"0.0.0.0:8080", nil, map[string]int{
			"192.168.1.5:8080": 200, "[2001:db8::1]:8080": 200, "localhost:8080": 200,
			"evil.example:8080": 403, "192.168.1.5:9090": 403,
		}},
		{"192.168.1.5:8080", nil, map[string]int{"192.168.1.5:8080": 200, "localhost:8080": 403, "evil.example:8080": 403}},
		{"127.0.0.1:8080", []string{"api.example.org", "localhost:8080"}, map[string]int{
			"api.example.org": 200, "api.example.org:443": 200, "API.example.org.": 200, "localhost:8080": 200,
			"127.0.0.1:8080": 403, "localhost:9090": 403, "evil.example": 403,
		}},
		{"127.0.0.1:8080", []string{"*"}, map[string]int{"evil.example": 200, "": 200}},
		{"", nil, map[string]int{"evil.example": 200}},
	}
	for _, c := range cases {
		h := New(Config{ListenAddr: c.listen, AllowedHosts: c.allowed})
		for host, want := range c.hosts {
			if got := hostStatus(h, host); got != want {
				t.Errorf("listen %q, allowed %q: Host %q: %d, want %d", c.listen, c.allowed, host, got, want)
			}
		}
	}
	// Every route is behind the check, and the refusal says why.
	h := New(Config{ListenAddr: "127.0.0.1:8080"})
	for _, route := range Routes() {
		method, path, _ := strings.Cut(route, " ")
		req := httptest.NewRequest(method, path, strings.NewReader("{}"))
		req.Host = "rebind.evil.example:8080"
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 403 || !strings.Contains(rec.Body.String(), `Host \"rebind.evil.example:8080\" is not allowed`) {
			t.Errorf("%s with a foreign Host: %d %s", route, rec.Code, rec.Body)
		}
	}
	for _, bad := range []string{"a:b:c:", "host:port", ":80", ""} {
		if err := CheckHosts("127.0.0.1:80", []string{bad}); err == nil {
			t.Errorf("allowed host %q accepted", bad)
		}
	}
	if err := CheckHosts("no-port", nil); err == nil {
		t.Error("a listen address without a port accepted")
	}
}

// TestRequiredGraph checks a body that names no graph is refused, as the
// OpenAPI document says graph is required.
func TestRequiredGraph(t *testing.T) {
	h := New(Config{})
	for _, path := range []string{"/v1/serialize", "/v1/compare", "/v1/check"} {
		for body, want := range map[string]string{
			"null":               "request body: null, a JSON object is expected",
			" null\n":            "request body: null, a JSON object is expected",
			"{}":                 `"graph" is required`,
			`{"graph": null}`:    `"graph" is required`,
			`{"format": "csv"}`:  `"graph" is required`,
			`{"tokenizer": "x"}`: `"graph" is required`,
		} {
			if path == "/v1/check" && strings.Contains(body, "format") || path == "/v1/check" && strings.Contains(body, "tokenizer") ||
				path == "/v1/compare" && strings.Contains(body, "format") {
				continue
			}
			code, _, b := call(t, h, "POST", path, body)
			e := decode[apiErr](t, b)
			if code != 400 || !strings.Contains(e.Error, want) {
				t.Errorf("%s %s: %d %s, want 400 with %q", path, body, code, b, want)
			}
		}
	}
	// An empty graph is a graph.
	if code, _, b := call(t, h, "POST", "/v1/serialize", `{"graph": {"data": ""}}`); code != 200 {
		t.Errorf("empty graph: %d %s", code, b)
	}
}

// TestTypeErrors checks a value of the wrong type is named by its path in
// JSON terms, with no Go type or struct in the message.
func TestTypeErrors(t *testing.T) {
	h := New(Config{})
	cases := []struct {
		path, body, want string
		line, col        int
	}{
		{"/v1/serialize", `{"graph": {"data": ""}, "budget": "x"}`, "budget: expected an integer, got a string", 1, 35},
		{"/v1/serialize", `{"graph": {"data": ""}, "budget": 1.5}`, "budget: expected an integer, got 1.5", 1, 35},
		{"/v1/serialize", `{"graph": {"data": ""}, "budget": 1e40}`, "budget: expected an integer, got 1e40", 1, 35},
		{"/v1/serialize", "{\n  \"graph\": {\"data\": 5}\n}", "graph.data: expected a string, got a number", 2, 21},
		{"/v1/serialize", `{"graph": "x"}`, "graph: expected an object, got a string", 1, 11},
		{"/v1/serialize", `{"graph": {"data": ""}, "options": {"hops": "2"}}`, "options.hops: expected an integer, got a string", 1, 45},
		{"/v1/serialize", `{"graph": {"data": ""}, "options": {"no_types": 1}}`, "options.no_types: expected a boolean (true or false), got a number", 1, 49},
		{"/v1/serialize", `{"graph": {"data": ""}, "options": []}`, "options: expected an object, got an array", 1, 36},
		{"/v1/compare", `{"graph": {"data": ""}, "formats": [1]}`, "formats: expected an array of strings, found a number in it", 0, 0},
		{"/v1/compare", `{"graph": {"data": ""}, "formats": "isolda"}`, "formats: expected an array, got a string", 1, 36},
		{"/v1/check", `[]`, "request body: expected an object, got an array", 1, 1},
		{"/v1/check", `"x"`, "request body: expected an object, got a string", 1, 1},
		{"/v1/check", `{"graph": {"data": ""}, "colour": 1}`, `request body: unknown field "colour" (see /openapi.json)`, 0, 0},
		{"/v1/check", `{"graph": {"data": ""}`, "request body: the JSON text ends too early", 0, 0},
	}
	for _, c := range cases {
		code, _, b := call(t, h, "POST", c.path, c.body)
		e := decode[apiErr](t, b)
		if code != 400 || e.Error != c.want {
			t.Errorf("%s %s: %d %q, want 400 %q", c.path, c.body, code, e.Error, c.want)
		}
		if c.line != 0 && (e.Line != c.line || e.Column != c.col) {
			t.Errorf("%s %s: at %d:%d, want %d:%d", c.path, c.body, e.Line, e.Column, c.line, c.col)
		}
		for _, leak := range []string{"Go ", "struct", "unmarshal", "server.", "Request", "json:"} {
			if strings.Contains(e.Error, leak) {
				t.Errorf("%s %s: %q mentions %q", c.path, c.body, e.Error, leak)
			}
		}
	}
}

// TestBudgetNotLossless checks a text cut by a budget is not said to be
// lossless.
func TestBudgetNotLossless(t *testing.T) {
	h := New(Config{})
	data := syntheticNT(400)
	for _, format := range []string{"isolda", "ntriples", "turtle"} {
		for _, trunc := range []string{"record", "raw"} {
			code, _, b := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: data}, Format: format, Budget: 200, Truncation: trunc}))
			r := decode[SerializeResponse](t, b)
			if code != 200 || !r.Truncated || r.Lossless {
				t.Errorf("%s, %s cut to 200 tokens: %d truncated %t lossless %t", format, trunc, code, r.Truncated, r.Lossless)
			}
		}
		code, _, b := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: data}, Format: format, Budget: 1 << 20}))
		r := decode[SerializeResponse](t, b)
		if code != 200 || r.Truncated || !r.Lossless {
			t.Errorf("%s within its budget: %d truncated %t lossless %t", format, code, r.Truncated, r.Lossless)
		}
	}
}

// TestOptionNames checks the ISOLDA options take the CLI's names (spec,
// inline_bnodes) and still the former ones, with a warning.
func TestOptionNames(t *testing.T) {
	h := New(Config{})
	data := "@prefix ex: <http://example.org/> .\nex:a a ex:T ; ex:p [ ex:q 1 ] ; ex:r ( 1 2 ) .\nex:b a ex:T ; ex:p [ ex:q 2 ] .\n"
	text := func(opts string) (string, []string) {
		t.Helper()
		code, _, b := call(t, h, "POST", "/v1/serialize", `{"graph": {"data": `+mustJSON(data)+`}, "options": `+opts+`}`)
		if code != 200 {
			t.Fatalf("options %s: %d %s", opts, code, b)
		}
		r := decode[SerializeResponse](t, b)
		return r.Text, r.Warnings
	}
	// Each pair beside the options without it (inline_bnodes acts in 0.2:
	// 0.4 nests blank nodes anyway).
	for _, pair := range [][3]string{
		{`{"spec": "0.3"}`, `{"version": "0.3"}`, `{}`},
		{`{"spec": "0.1"}`, `{"version": "0.1"}`, `{}`},
		{`{"spec": "0.2", "inline_bnodes": true}`, `{"spec": "0.2", "inline_blanks": true}`, `{"spec": "0.2"}`},
	} {
		now, w1 := text(pair[0])
		old, w2 := text(pair[1])
		plain, _ := text(pair[2])
		if now != old || now == plain {
			t.Errorf("%s and %s differ, or do nothing", pair[0], pair[1])
		}
		if len(w1) != 0 || len(w2) != 1 || !strings.Contains(w2[0], "deprecated") {
			t.Errorf("warnings %q and %q", w1, w2)
		}
	}
	if !strings.Contains(func() string { s, _ := text(`{"spec": "0.3"}`); return s }(), "ISOLDA 0.3") {
		t.Error("spec 0.3 does not write ISOLDA 0.3")
	}
	code, _, b := call(t, h, "POST", "/v1/serialize", `{"graph": {"data": ""}, "options": {"spec": "0.1", "version": "0.3"}}`)
	if code != 422 || !strings.Contains(string(b), "disagree") {
		t.Errorf("spec and version disagreeing: %d %s", code, b)
	}
	code, _, b = call(t, h, "POST", "/v1/check", `{"graph": {"data": `+mustJSON(data)+`}, "options": {"inline_blanks": true}}`)
	if r := decode[CheckResponse](t, b); code != 200 || !r.Isomorphic || len(r.Warnings) != 1 {
		t.Errorf("check with inline_blanks: %d %s", code, b)
	}
	// The OpenAPI document names both, the former as deprecated.
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Deprecated bool `json:"deprecated"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Schemas["IsoldaOptions"].Properties
	for name, deprecated := range map[string]bool{"spec": false, "inline_bnodes": false, "version": true, "inline_blanks": true} {
		p, ok := props[name]
		if !ok || p.Deprecated != deprecated {
			t.Errorf("openapi.json IsoldaOptions.%s: present %t, deprecated %t; want deprecated %t", name, ok, p.Deprecated, deprecated)
		}
	}
}

// TestErrorEchoCap checks error answers stay small whatever the request
// quotes: a huge bad term, format name, field name or Host.
func TestErrorEchoCap(t *testing.T) {
	h := New(Config{MaxRequestBytes: 16 << 20})
	huge := strings.Repeat("x", 4<<20)
	cases := map[string]string{
		"bad IRI":         mustJSON(SerializeRequest{Graph: &Graph{Data: "<http://a/" + huge + " " + huge + "> <http://b> <http://c> .", Format: "nt"}}),
		"bad literal":     mustJSON(SerializeRequest{Graph: &Graph{Data: "@prefix ex: <http://e/> . ex:a ex:b \"" + huge + "\n\" .", Format: "ttl"}}),
		"bad json-ld":     mustJSON(SerializeRequest{Graph: &Graph{Data: `{"@context": {"` + huge + `": 5}, "@id": "http://a"}`, Format: "jsonld"}}),
		"bad json-ld 2":   mustJSON(SerializeRequest{Graph: &Graph{Data: `{"@id": "http://a", "http://b": {"@value": "x", "@type": "` + huge + `", "@language": "en"}}`, Format: "jsonld"}}),
		"bad rdf/xml":     mustJSON(SerializeRequest{Graph: &Graph{Data: `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="http://a"><` + huge + `/></rdf:Description></rdf:RDF>`, Format: "rdfxml"}}),
		"format":          mustJSON(SerializeRequest{Graph: &Graph{Data: ""}, Format: huge}),
		"syntax":          mustJSON(SerializeRequest{Graph: &Graph{Data: "", Format: huge}}),
		"base":            mustJSON(SerializeRequest{Graph: &Graph{Data: "", Base: huge}}),
		"tokenizer":       mustJSON(SerializeRequest{Graph: &Graph{Data: ""}, Tokenizer: huge}),
		"truncation":      mustJSON(SerializeRequest{Graph: &Graph{Data: ""}, Truncation: huge}),
		"option":          mustJSON(SerializeRequest{Graph: &Graph{Data: ""}, Options: &IsoldaOptions{Layout: huge}}),
		"field":           `{"graph": {"data": ""}, "` + huge + `": 1}`,
		"field with type": `{"graph": {"data": ""}, "options": {"` + huge + `": 1}}`,
	}
	for name, body := range cases {
		code, _, b := call(t, h, "POST", "/v1/serialize", body)
		if code < 400 || len(b) > 2*maxMessage {
			t.Errorf("%s: %d with a %d-byte answer: %.300s", name, code, len(b), b)
		}
	}
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.Host = huge
	rec := httptest.NewRecorder()
	New(Config{ListenAddr: "127.0.0.1:80"}).ServeHTTP(rec, req)
	if rec.Code != 403 || rec.Body.Len() > 2*maxMessage {
		t.Errorf("huge Host: %d with a %d-byte answer", rec.Code, rec.Body.Len())
	}
}

// TestSPARQLTraversal checks the allow-list refuses paths that leave the
// allowed endpoint (before, http://h/sparql allowed
// http://h/sparql/../private/graph and an endpoint that normalizes its
// paths served the private page), and that no error quotes an endpoint's
// answer.
func TestSPARQLTraversal(t *testing.T) {
	var private atomic.Int64
	const secret = "the private page's secret content"
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/sparql/html"):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body>"+secret+"</body></html>")
		case strings.HasPrefix(r.URL.Path, "/sparql/bad"):
			w.Header().Set("Content-Type", "text/turtle")
			io.WriteString(w, "<http://a> <http://b> "+secret+" .\n")
		case strings.HasPrefix(r.URL.Path, "/sparql"):
			w.Header().Set("Content-Type", "application/n-triples")
			io.WriteString(w, "<http://a> <http://b> <http://c> .\n")
		default:
			private.Add(1)
			w.Header().Set("Content-Type", "application/n-triples")
			io.WriteString(w, "<http://private> <http://b> \""+secret+"\" .\n")
		}
	}))
	defer ep.Close()
	h := New(Config{AllowSPARQL: true, SPARQLEndpoints: []string{ep.URL + "/sparql"}})
	query := "CONSTRUCT WHERE { ?s ?p ?o }"
	graph := func(endpoint string) string {
		return mustJSON(map[string]any{"graph": map[string]string{"endpoint": endpoint, "query": query}, "format": "ntriples"})
	}
	if code, _, b := call(t, h, "POST", "/v1/serialize", graph(ep.URL+"/sparql")); code != 200 {
		t.Fatalf("allowed endpoint: %d %s", code, b)
	}
	for _, u := range []string{
		ep.URL + "/sparql/../private/graph",
		ep.URL + "/sparql/%2e%2e/private/graph",
		ep.URL + "/sparql/%2E%2E/admin",
		ep.URL + "/sparql/.%2e/admin",
		ep.URL + "/sparql/..%2fadmin",
		ep.URL + "/sparql/..;/admin",
		ep.URL + "/sparql/x/../../admin",
		ep.URL + "/sparql/..\\admin",
	} {
		code, _, b := call(t, h, "POST", "/v1/serialize", graph(u))
		if code != 403 {
			t.Errorf("%s: %d %s, want 403", u, code, b)
		}
	}
	if n := private.Load(); n != 0 {
		t.Errorf("the private path was fetched %d times", n)
	}
	for _, path := range []string{"/sparql/html", "/sparql/bad"} {
		code, _, b := call(t, h, "POST", "/v1/serialize", graph(ep.URL+path))
		if code != 502 || strings.Contains(string(b), "secret") {
			t.Errorf("%s: %d %s; want 502 without the answer's content", path, code, b)
		}
	}
	fmt.Fprintf(io.Discard, "%d", private.Load())
}

// TestBudgetTypesLine checks the @types line of an ISOLDA text cut to a
// budget against the text's own graph: it lists exactly the types of the
// entities the decoder reads back from the cut text (before, it listed
// every type of the whole graph). ISOLDA 0.2: 0.4's @types leaves out the
// classes a table header counts.
func TestBudgetTypesLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("@prefix ex: <http://example.org/> .\n")
	for i := range 12 {
		class := []string{"Painting", "Painting", "Painting", "Sculpture", "Sculpture", "Drawing"}[i%6]
		fmt.Fprintf(&b, "ex:w%d a ex:%s ; ex:title \"work number %d\" ; ex:year %d .\n", i, class, i, 1900+i)
		if class == "Sculpture" {
			fmt.Fprintf(&b, "ex:w%d a ex:Object3D .\n", i)
		}
	}
	h := New(Config{})
	full := decode[SerializeResponse](t, func() []byte {
		_, _, body := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: b.String()}, Options: &IsoldaOptions{Spec: "0.2", Glossary: "none"}}))
		return body
	}())
	cuts := 0
	for budget := 20; budget < full.Tokens; budget += 7 {
		code, _, body := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: b.String()},
			Options: &IsoldaOptions{Spec: "0.2", Glossary: "none"}, Budget: budget}))
		r := decode[SerializeResponse](t, body)
		if code != 200 || !r.Truncated {
			t.Fatalf("budget %d: %d %s", budget, code, body)
		}
		if !strings.Contains(r.Text, "]{") {
			continue // the head alone is over the budget: a raw cut
		}
		d, err := isolda.Decode(strings.NewReader(r.Text))
		if err != nil {
			t.Fatalf("budget %d: the cut text does not decode: %v\n%s", budget, err, r.Text)
		}
		want := map[string]bool{}
		for _, q := range d.Quads() {
			if q.P.Value == "http://www.w3.org/1999/02/22-rdf-syntax-ns#type" {
				want[strings.TrimPrefix(q.O.Value, "http://example.org/")] = true
			}
		}
		got := map[string]bool{}
		for _, l := range strings.Split(r.Text, "\n") {
			if rest, ok := strings.CutPrefix(l, "@types "); ok {
				for _, e := range strings.Split(rest, ", ") {
					got[e[:strings.LastIndexByte(e, ' ')]] = true
				}
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("budget %d: @types lists %v, the cut text has entities of %v\n%s", budget, slices.Sorted(maps.Keys(got)),
				slices.Sorted(maps.Keys(want)), r.Text)
		}
		cuts++
	}
	t.Logf("@types after a budget cut: %d budgets from 20 to %d tokens checked against the decoded text", cuts, full.Tokens)
}

// TestSerializeParts checks parts: the ISOLDA text comes back also as its
// glossary and a body that decodes alone to the graph; the same constructs
// give the same glossary; other formats refuse parts.
func TestSerializeParts(t *testing.T) {
	h := New(Config{})
	graphs := []string{
		"@prefix s: <http://schema.org/> .\n<http://e/a> a s:Person ; s:name \"Ada\" ; s:knows <http://e/b> .\n<http://e/b> a s:Person ; s:name \"Charles\" .\n",
		"@prefix s: <http://schema.org/> .\n<http://f/x> a s:Person ; s:name \"Xu\" ; s:knows <http://f/y> .\n<http://f/y> a s:Person ; s:name \"Yves\" .\n",
	}
	var glosses []string
	for _, data := range graphs {
		code, _, body := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: data}, Parts: true}))
		r := decode[SerializeResponse](t, body)
		first, rest, _ := strings.Cut(r.Body, "\n")
		if code != 200 || !strings.HasPrefix(r.Glossary, "# ISOLDA 0.4: ") || first != "@isolda 0.4" || r.Glossary+"\n"+rest != r.Text {
			t.Fatalf("status %d, glossary %q, body %q, text %q", code, r.Glossary, r.Body, r.Text)
		}
		o200k := testgraph.O200k(t)
		if r.Tokenizer != "o200k_base" || r.GlossaryTokens != o200k.Count(r.Glossary) || r.BodyTokens != o200k.Count(r.Body) || r.GlossaryTokens == 0 || r.BodyTokens == 0 {
			t.Errorf("glossary_tokens %d, body_tokens %d with %s; counted apart: %d and %d", r.GlossaryTokens, r.BodyTokens, r.Tokenizer, o200k.Count(r.Glossary), o200k.Count(r.Body))
		}
		got, err := isolda.Decode(strings.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		want := parse(t, data, "ttl", "")
		if iso, err := canon.Isomorphic(want, got); err != nil || !iso {
			t.Errorf("the body alone decodes to another graph (%v)", err)
		}
		glosses = append(glosses, r.Glossary)
	}
	if glosses[0] != glosses[1] {
		t.Errorf("same constructs, different glossaries:\n%s\n%s", glosses[0], glosses[1])
	}
	code, _, body := call(t, h, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: graphs[0]}, Format: "turtle", Parts: true}))
	if code != 422 || !strings.Contains(string(body), "parts apply only to the ISOLDA formats") {
		t.Errorf("turtle with parts: %d %s", code, body)
	}
}
