package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// exampleTTL reads one of the Turtle example graphs of ../shared/data/examples
// from the repository's copy in examples/.
func exampleTTL(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// nomismaSlice returns the first n lines of the nomisma N-Triples dump.
func nomismaSlice(t testing.TB, n int) string {
	t.Helper()
	zr := shared.OpenGzip(t, shared.MustPath(t, "data", "big", "nomisma.nt.gz"))
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	var b strings.Builder
	for i := 0; i < n && sc.Scan(); i++ {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// parse reads a document with rdfio, independently of the server.
func parse(t testing.TB, data, format, base string) *rdf.Dataset {
	t.Helper()
	opts := rdfio.Options{}
	opts.Base = base
	if format != "" {
		f, err := rdfio.ParseFormat(format)
		if err != nil {
			t.Fatal(err)
		}
		opts.Format = f
	}
	return rdftest.Read(t, data, opts)
}

// call sends body to the handler and returns the status, headers and body.
func call(t testing.TB, h http.Handler, method, path string, body any) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, r)
	if r != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

func decode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("response %q: %v", b, err)
	}
	return v
}

const lexeme = "wikidata-L691820-lexeme.ttl"

// TestSerializeRoundTrip serializes a real graph in every lossless RDF
// format of the registry and reads the text back with the format's own
// decoder: the result must be isomorphic to the graph as rdfio reads it,
// the token count that of o200k_base on the text, and the hash canon.Hash.
func TestSerializeRoundTrip(t *testing.T) {
	h := New(Config{})
	tok := testgraph.O200k(t)
	for _, name := range []string{lexeme, "lod-datagovuk-reference-intervals.ttl"} {
		data := exampleTTL(t, name)
		base := "http://example.org/base/"
		want := parse(t, data, "ttl", base)
		wantHash, err := canon.Hash(want)
		if err != nil {
			t.Fatal(err)
		}
		pass, fail := 0, 0
		for _, f := range formats.All() {
			if !f.Lossless || f.Decode == nil {
				continue
			}
			req := SerializeRequest{Graph: &Graph{Data: data, Format: "turtle", Base: base}, Format: f.Name}
			code, _, body := call(t, h, "POST", "/v1/serialize", req)
			if code != http.StatusOK {
				t.Errorf("%s %s: status %d: %s", name, f.Name, code, body)
				fail++
				continue
			}
			resp := decode[SerializeResponse](t, body)
			if resp.Tokens != tok.Count(resp.Text) {
				t.Errorf("%s %s: tokens %d, o200k_base counts %d", name, f.Name, resp.Tokens, tok.Count(resp.Text))
			}
			if resp.Bytes != len(resp.Text) || resp.Quads != want.Len() || resp.Format != f.Name || !resp.Lossless || resp.Truncated {
				t.Errorf("%s %s: bytes %d (text %d), quads %d (want %d), format %q, lossless %v, truncated %v",
					name, f.Name, resp.Bytes, len(resp.Text), resp.Quads, want.Len(), resp.Format, resp.Lossless, resp.Truncated)
			}
			if resp.GraphHash != wantHash {
				t.Errorf("%s %s: graph_hash %s, canon.Hash %s", name, f.Name, resp.GraphHash, wantHash)
			}
			got, err := f.Decode(strings.NewReader(resp.Text))
			if err != nil {
				t.Errorf("%s %s: decoding the text: %v", name, f.Name, err)
				fail++
				continue
			}
			iso, err := canon.Isomorphic(want, got)
			if err != nil || !iso {
				t.Errorf("%s %s: round trip not isomorphic (%v)", name, f.Name, err)
				fail++
				continue
			}
			pass++
		}
		t.Logf("round trip %s: %d pass, %d fail", name, pass, fail)
		if pass < 8 {
			t.Errorf("%s: only %d lossless formats round-tripped", name, pass)
		}
	}
}

// TestSerializeOptions checks that ISOLDA options and the anchor reach the
// encoder: version 0.3, no glossary, and the anchor's row first.
func TestSerializeOptions(t *testing.T) {
	h := New(Config{})
	data := exampleTTL(t, lexeme)
	req := SerializeRequest{Graph: &Graph{Data: data}, Options: &IsoldaOptions{Glossary: "none", Version: "0.3"},
		Anchor: "http://www.wikidata.org/entity/L691820-S1"}
	code, _, body := call(t, h, "POST", "/v1/serialize", req)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	resp := decode[SerializeResponse](t, body)
	if strings.Contains(resp.Text, "# ISOLDA") || !strings.HasPrefix(resp.Text, "@isolda 0.3") {
		t.Errorf("glossary none, version 0.3: text starts %q", resp.Text[:min(80, len(resp.Text))])
	}
	// The first table is the anchor's: its type is Sense.
	for _, l := range strings.Split(resp.Text, "\n") {
		if strings.Contains(l, "[") && strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "@") && !strings.HasPrefix(l, " ") {
			if !strings.HasPrefix(l, "Sense[") && !strings.HasPrefix(l, "ontolex:LexicalSense[") {
				t.Errorf("anchor a sense: first table %q", l)
			}
			break
		}
	}
	got, err := formats.Get("isolda-0.3")
	if !err {
		t.Fatal("no isolda-0.3")
	}
	d, derr := got.Decode(strings.NewReader(resp.Text))
	if derr != nil {
		t.Fatal(derr)
	}
	if iso, _ := canon.Isomorphic(parse(t, data, "ttl", ""), d); !iso {
		t.Error("anchored 0.3 document not isomorphic to the graph")
	}
}

// lines returns the lines of s without their newlines.
func lines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestBudgetRecord checks record-aware truncation of ISOLDA: the text fits
// the budget, keeps the glossary and every directive, is the full text
// with whole rows left out, and the dropped count is the rows left out.
// It uses ISOLDA 0.2, whose lexeme rows are small: in 0.4 (the default) a
// row holds its nested statements, and the lexeme's first row is half the
// document, so a budget below it keeps no row.
func TestBudgetRecord(t *testing.T) {
	h := New(Config{})
	tok := testgraph.O200k(t)
	data := exampleTTL(t, lexeme)
	code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Format: "isolda-0.2"})
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	full := decode[SerializeResponse](t, body)
	fullLines := lines(full.Text)
	want := parse(t, data, "ttl", "")
	// A record is a row or an ~extra: entry: a line indented by exactly two
	// spaces, with the more deeply indented lines under it.
	isRow := func(l string) bool { return strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") }
	rows := 0
	for _, l := range fullLines {
		if isRow(l) {
			rows++
		}
	}
	for _, budget := range []int{full.Tokens / 2, full.Tokens / 3, full.Tokens - 1} {
		code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Format: "isolda-0.2", Budget: budget})
		if code != 200 {
			t.Fatalf("status %d: %s", code, body)
		}
		resp := decode[SerializeResponse](t, body)
		if resp.Tokens > budget || resp.Tokens != tok.Count(resp.Text) || !resp.Truncated {
			t.Errorf("budget %d: tokens %d, counted %d, truncated %v", budget, resp.Tokens, tok.Count(resp.Text), resp.Truncated)
		}
		// Header counts change with the rows kept: compare lines with the
		// counts masked.
		// The @types line loses the types of the entities left out
		// (TestBudgetTypesLine): compare it as a line, its entries below.
		mask := regexp.MustCompile(`^([^ #@~][^\[]*)\[\d+\]([{:])`)
		norm := func(l string) string {
			if strings.HasPrefix(l, "@types ") {
				return "@types"
			}
			return mask.ReplaceAllString(l, "$1[N]$2")
		}
		for _, l := range lines(resp.Text) {
			if rest, ok := strings.CutPrefix(l, "@types "); ok {
				all := ""
				for _, f := range fullLines {
					all = strings.TrimPrefix(f, "@types ") + ", "
					if strings.HasPrefix(f, "@types ") {
						break
					}
				}
				for _, e := range strings.Split(rest, ", ") {
					i := strings.Index(all, e+", ")
					if i < 0 {
						t.Errorf("budget %d: @types entry %q is not in the full text's, in order", budget, e)
						break
					}
					all = all[i+len(e)+2:]
				}
			}
		}
		got := lines(resp.Text)
		j, keptRows := 0, 0
		for _, l := range fullLines {
			if j < len(got) && norm(got[j]) == norm(l) {
				j++
				if isRow(l) {
					keptRows++
				}
				continue
			}
			if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "@") {
				t.Errorf("budget %d: glossary line or directive %q dropped", budget, l)
			}
		}
		if j != len(got) {
			t.Errorf("budget %d: line %q is not in the full text in order", budget, got[j])
		}
		if resp.Dropped.Records != rows-keptRows || resp.Dropped.Records == 0 {
			t.Errorf("budget %d: dropped %d records, %d rows - %d kept", budget, resp.Dropped.Records, rows, keptRows)
		}
		// The truncated document is valid ISOLDA (the decoder checks each
		// table's row count) and every ground quad it holds is in the graph.
		d, err := isolda.Decode(strings.NewReader(resp.Text))
		if err != nil {
			t.Errorf("budget %d: truncated document does not decode: %v", budget, err)
		} else {
			n := 0
			for _, q := range d.Sorted() {
				if q.S.IsBlank() || q.O.IsBlank() {
					continue
				}
				n++
				if !want.Has(q) {
					t.Errorf("budget %d: decoded quad %v not in the graph", budget, q)
				}
			}
			if n == 0 {
				t.Errorf("budget %d: no quad decoded", budget)
			}
		}
		if resp.Dropped.Bytes != len(full.Text)-len(resp.Text) || resp.Dropped.Tokens != full.Tokens-resp.Tokens {
			t.Errorf("budget %d: dropped %+v", budget, resp.Dropped)
		}
		if resp.Tokens < budget*8/10 {
			t.Errorf("budget %d: only %d tokens used", budget, resp.Tokens)
		}
	}
	// A budget smaller than the glossary cuts it raw.
	code, _, body = call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Format: "isolda-0.2", Budget: 10})
	resp := decode[SerializeResponse](t, body)
	if code != 200 || resp.Tokens > 10 || !strings.HasPrefix(full.Text, resp.Text) {
		t.Errorf("budget 10: status %d, tokens %d, text %q", code, resp.Tokens, resp.Text)
	}
}

// TestBudgetNTriples checks record truncation of N-Triples: each kept line
// is a triple of the graph, and kept plus dropped is every triple.
func TestBudgetNTriples(t *testing.T) {
	h := New(Config{})
	tok := testgraph.O200k(t)
	data := nomismaSlice(t, 300)
	want := parse(t, data, "nt", "")
	budget := 2000
	code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data, Format: "nt"}, Format: "ntriples", Budget: budget})
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	resp := decode[SerializeResponse](t, body)
	got := parse(t, resp.Text, "nt", "")
	if resp.Tokens > budget || resp.Tokens != tok.Count(resp.Text) {
		t.Errorf("tokens %d, counted %d, budget %d", resp.Tokens, tok.Count(resp.Text), budget)
	}
	if got.Len()+resp.Dropped.Records != want.Len() || resp.Dropped.Records == 0 {
		t.Errorf("kept %d + dropped %d != %d triples", got.Len(), resp.Dropped.Records, want.Len())
	}
	for _, q := range got.Sorted() {
		if !want.Has(q) {
			t.Errorf("kept triple %v is not in the graph", q)
		}
	}
}

// TestBudgetRaw checks raw truncation: a prefix of the full text within
// the budget and close to it.
func TestBudgetRaw(t *testing.T) {
	h := New(Config{})
	tok := testgraph.O200k(t)
	data := exampleTTL(t, lexeme)
	_, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Format: "turtle"})
	full := decode[SerializeResponse](t, body)
	for _, budget := range []int{1, 100, 777, full.Tokens - 1} {
		code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Format: "turtle", Budget: budget, Truncation: "raw"})
		if code != 200 {
			t.Fatalf("status %d: %s", code, body)
		}
		resp := decode[SerializeResponse](t, body)
		if !strings.HasPrefix(full.Text, resp.Text) {
			t.Errorf("budget %d: not a prefix", budget)
		}
		if resp.Tokens > budget || resp.Tokens < budget-3 || resp.Tokens != tok.Count(resp.Text) {
			t.Errorf("budget %d: tokens %d (counted %d)", budget, resp.Tokens, tok.Count(resp.Text))
		}
		if resp.Dropped.Tokens != full.Tokens-resp.Tokens || resp.Dropped.Bytes != len(full.Text)-len(resp.Text) {
			t.Errorf("budget %d: dropped %+v", budget, resp.Dropped)
		}
	}
}

// TestCompare checks every format's bytes and tokens against the registry
// encoders and two tokenizers.
func TestCompare(t *testing.T) {
	h := New(Config{})
	reg := token.NewRegistry(token.Options{})
	data := exampleTTL(t, lexeme)
	d := parse(t, data, "ttl", "")
	code, _, body := call(t, h, "POST", "/v1/compare", CompareRequest{Graph: &Graph{Data: data, Format: "ttl"},
		Tokenizers: []string{"o200k_base", "cl100k_base"}})
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	resp := decode[CompareResponse](t, body)
	all := formats.All()
	if len(resp.Results) != len(all) || resp.Quads != d.Len() {
		t.Fatalf("%d results for %d formats, quads %d", len(resp.Results), len(all), resp.Quads)
	}
	in := formats.NewInput(d)
	checked := 0
	for i, f := range all {
		r := resp.Results[i]
		if r.Format != f.Name || r.Lossless != f.Lossless || r.Family != f.Family {
			t.Errorf("result %d: %+v for %s", i, r, f.Name)
			continue
		}
		text, err := formats.EncodeString(f.Name, in)
		if err != nil {
			if r.Error == "" {
				t.Errorf("%s: encoder fails (%v) but no error reported", f.Name, err)
			}
			continue
		}
		if r.Bytes != len(text) {
			t.Errorf("%s: bytes %d, want %d", f.Name, r.Bytes, len(text))
		}
		for _, tn := range []string{"o200k_base", "cl100k_base"} {
			tok, _ := reg.Get(tn)
			if r.Tokens[tn] != tok.Count(text) {
				t.Errorf("%s: %s tokens %d, want %d", f.Name, tn, r.Tokens[tn], tok.Count(text))
			}
		}
		checked++
	}
	t.Logf("compare: %d of %d formats checked", checked, len(all))
}

// TestCheck runs the ISOLDA round trip check on real graphs.
func TestCheck(t *testing.T) {
	h := New(Config{})
	for _, name := range []string{lexeme, "lod-datagovuk-reference-intervals.ttl"} {
		code, _, body := call(t, h, "POST", "/v1/check", CheckRequest{Graph: &Graph{Data: exampleTTL(t, name)},
			Options: &IsoldaOptions{Version: "0.3"}})
		if code != 200 {
			t.Fatalf("status %d: %s", code, body)
		}
		resp := decode[CheckResponse](t, body)
		if !resp.Isomorphic || resp.MissingCount != 0 || resp.ExtraCount != 0 || resp.Bytes == 0 {
			t.Errorf("%s: %+v", name, resp)
		}
	}
	// Anchor with hops crops; the check compares with the crop.
	code, _, body := call(t, h, "POST", "/v1/check", CheckRequest{Graph: &Graph{Data: exampleTTL(t, lexeme)},
		Options: &IsoldaOptions{Hops: 1}, Anchor: "http://www.wikidata.org/entity/L691820"})
	resp := decode[CheckResponse](t, body)
	if code != 200 || !resp.Isomorphic {
		t.Errorf("anchored check: %d %s", code, body)
	}
}

// TestFormatsHealthz checks the registry listing and the health check.
func TestFormatsHealthz(t *testing.T) {
	h := New(Config{})
	code, _, body := call(t, h, "GET", "/v1/formats", nil)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	resp := decode[struct{ Formats []FormatInfo }](t, body)
	names := formats.Names()
	if len(resp.Formats) != len(names) {
		t.Fatalf("%d formats, registry has %d", len(resp.Formats), len(names))
	}
	seen := map[string]bool{}
	for _, f := range resp.Formats {
		seen[f.Name] = true
	}
	for _, n := range names {
		if !seen[n] {
			t.Errorf("format %s missing", n)
		}
	}
	code, _, body = call(t, h, "GET", "/healthz", nil)
	if code != 200 || !bytes.Contains(body, []byte(`"ok"`)) {
		t.Errorf("healthz: %d %s", code, body)
	}
}

// TestOpenAPI checks the document is valid JSON, OpenAPI 3.1, describes
// every route with its method, and that every path it lists is served.
func TestOpenAPI(t *testing.T) {
	h := New(Config{})
	code, hdr, body := call(t, h, "GET", "/openapi.json", nil)
	if code != 200 || hdr.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, type %q", code, hdr.Get("Content-Type"))
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	for _, route := range Routes() {
		method, path, _ := strings.Cut(route, " ")
		ops, ok := doc.Paths[path]
		if !ok {
			t.Errorf("route %s not in openapi.json", route)
			continue
		}
		if _, ok := ops[strings.ToLower(method)]; !ok {
			t.Errorf("route %s: method not in openapi.json", route)
		}
		delete(doc.Paths, path)
	}
	for p := range doc.Paths {
		t.Errorf("openapi.json path %s is not a route", p)
	}
	// Every $ref resolves.
	var raw any
	json.Unmarshal(body, &raw)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "$ref" {
					ref := strings.TrimPrefix(x.(string), "#/")
					var cur any = raw
					for _, part := range strings.Split(ref, "/") {
						m, _ := cur.(map[string]any)
						cur = m[part]
					}
					if cur == nil {
						t.Errorf("unresolved $ref %s", x)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(raw)
	for _, route := range Routes() {
		method, path, _ := strings.Cut(route, " ")
		code, _, _ := call(t, h, method, path, "{}")
		if code == http.StatusNotFound || code == http.StatusMethodNotAllowed {
			t.Errorf("route %s: status %d", route, code)
		}
	}
}

// apiErr is an error body.
type apiErr struct {
	Error  string `json:"error"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// TestErrors checks malformed requests get 4xx JSON errors naming the
// line and column.
func TestErrors(t *testing.T) {
	h := New(Config{})
	ttl := "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b \"unterminated .\n"
	cases := []struct {
		name       string
		path, body string
		status     int
		line, col  int // 0: not checked
	}{
		{"json syntax", "/v1/serialize", "{\n  \"graph\": {\"data\": 1,}\n}", 400, 0, 0},
		{"json trailing comma", "/v1/serialize", "{\n  \"graph\": {\"data\": \"\"},\n}", 400, 3, 1},
		{"json type", "/v1/serialize", "{\"graph\": {\"data\": 5}}", 400, 1, 0},
		{"unknown field", "/v1/serialize", `{"graph": {"data": ""}, "colour": 1}`, 400, 0, 0},
		{"empty body", "/v1/serialize", "", 400, 0, 0},
		{"trailing data", "/v1/check", `{"graph": {"data": ""}} {}`, 400, 0, 0},
		// The string opened at 3:11 is cut by the line break at 3:26.
		{"turtle error", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: ttl, Format: "ttl"}}), 400, 3, 26},
		{"nt error", "/v1/compare", mustJSON(CompareRequest{Graph: &Graph{Data: "<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"x\"@ .\n", Format: "nt"}}), 400, 2, 0},
		{"unknown format", "/v1/serialize", `{"graph": {"data": ""}, "format": "nope"}`, 422, 0, 0},
		{"unknown syntax", "/v1/serialize", `{"graph": {"data": "", "format": "nope"}}`, 422, 0, 0},
		{"relative base", "/v1/serialize", `{"graph": {"data": "", "base": "rel/"}}`, 422, 0, 0},
		{"tokenizer path", "/v1/serialize", `{"graph": {"data": ""}, "tokenizer": "/etc/passwd"}`, 422, 0, 0},
		{"bad truncation", "/v1/serialize", `{"graph": {"data": ""}, "truncation": "half"}`, 422, 0, 0},
		{"negative budget", "/v1/serialize", `{"graph": {"data": ""}, "budget": -1}`, 422, 0, 0},
		{"bad option", "/v1/check", `{"graph": {"data": ""}, "options": {"layout": "spiral"}}`, 422, 0, 0},
		{"options on turtle", "/v1/serialize", `{"graph": {"data": ""}, "format": "turtle", "options": {}}`, 422, 0, 0},
		{"unknown compare format", "/v1/compare", `{"graph": {"data": ""}, "formats": ["isolda", "x"]}`, 422, 0, 0},
		{"no route", "/v2/serialize", `{}`, 404, 0, 0},
	}
	for _, c := range cases {
		code, hdr, body := call(t, h, "POST", c.path, c.body)
		if code != c.status {
			t.Errorf("%s: status %d, want %d: %s", c.name, code, c.status, body)
			continue
		}
		if hdr.Get("Content-Type") != "application/json" {
			t.Errorf("%s: content type %q", c.name, hdr.Get("Content-Type"))
		}
		e := decode[apiErr](t, body)
		if e.Error == "" {
			t.Errorf("%s: no error message: %s", c.name, body)
		}
		if c.line != 0 && e.Line != c.line || c.col != 0 && e.Column != c.col {
			t.Errorf("%s: at %d:%d, want %d:%d (%s)", c.name, e.Line, e.Column, c.line, c.col, e.Error)
		}
	}
	code, _, _ := call(t, h, "GET", "/v1/serialize", nil)
	if code != http.StatusMethodNotAllowed {
		t.Errorf("GET /v1/serialize: %d", code)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestLimits checks the body and graph size limits.
func TestLimits(t *testing.T) {
	h := New(Config{MaxRequestBytes: 4096, MaxQuads: 50})
	big := mustJSON(SerializeRequest{Graph: &Graph{Data: strings.Repeat("# padding\n", 500)}})
	code, _, body := call(t, h, "POST", "/v1/serialize", big)
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: %d %s", code, body)
	}
	// Without Content-Length (a chunked body) the reader stops at the limit.
	req := httptest.NewRequest("POST", "/v1/serialize", io.MultiReader(strings.NewReader(big)))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("large chunked body: %d", rec.Code)
	}
	// 60 triples exceed MaxQuads 50.
	var nt strings.Builder
	for i := range 60 {
		fmt.Fprintf(&nt, "<http://e/%d> <http://p> \"%d\" .\n", i, i)
	}
	for _, path := range []string{"/v1/serialize", "/v1/compare", "/v1/check"} {
		code, _, body = call(t, New(Config{MaxQuads: 50}), "POST", path, mustJSON(CheckRequest{Graph: &Graph{Data: nt.String()}}))
		if code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: 60 quads over a limit of 50: %d %s", path, code, body)
		}
	}
	code, _, body = call(t, New(Config{MaxQuads: 60}), "POST", "/v1/serialize", mustJSON(CheckRequest{Graph: &Graph{Data: nt.String()}}))
	if code != http.StatusOK {
		t.Errorf("60 quads within a limit of 60: %d %s", code, body)
	}
}

// TestConcurrencyTimeoutPanic drives the work wrapper with controlled
// work: a full semaphore gives 429, a slow request 503, a panic 500, and
// the server goes on answering.
func TestConcurrencyTimeoutPanic(t *testing.T) {
	s := New(Config{MaxConcurrent: 1, Timeout: 200 * time.Millisecond}).(*server)
	release := make(chan struct{})
	started := make(chan struct{})
	slow := s.instrument("slow", s.work("slow", func(req *request) (any, *apiError) {
		close(started)
		<-release
		return map[string]int{"n": 1}, nil
	}))
	var wg sync.WaitGroup
	wg.Add(1)
	var slowCode int
	var slowHdr http.Header
	go func() {
		defer wg.Done()
		slowCode, slowHdr, _ = call(t, slow, "POST", "/slow", "{}")
	}()
	<-started
	code, hdr, body := call(t, s, "POST", "/v1/check", `{"graph": {"data": ""}}`)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" {
		t.Errorf("busy: %d %v %s", code, hdr, body)
	}
	wg.Wait() // the slow request times out
	if slowCode != http.StatusServiceUnavailable || slowHdr.Get("Retry-After") == "" {
		t.Errorf("slow: %d %v", slowCode, slowHdr)
	}
	// Its work goes on and holds the slot until it ends.
	code, _, _ = call(t, s, "POST", "/v1/check", `{"graph": {"data": ""}}`)
	if code != http.StatusTooManyRequests {
		t.Errorf("slot held by timed-out work: %d", code)
	}
	close(release)
	deadline := time.Now().Add(time.Minute) // only keeps a regression from hanging the suite
	for {
		forgive(s) // the client waits as Retry-After says (admit.go)
		code, _, body = call(t, s, "POST", "/v1/check", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`)
		if code == http.StatusOK || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if code != http.StatusOK {
		t.Errorf("after the slow work ended: %d %s", code, body)
	}
	// Panics, in the worker and in a plain handler, are 500s.
	boom := s.instrument("boom", s.work("boom", func(req *request) (any, *apiError) { panic("boom") }))
	code, _, body = call(t, boom, "POST", "/boom", "{}")
	if code != http.StatusInternalServerError || !strings.Contains(string(body), "boom") {
		t.Errorf("panic in work: %d %s", code, body)
	}
	boom2 := s.instrument("boom", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom2") }))
	code, _, _ = call(t, boom2, "GET", "/boom", nil)
	if code != http.StatusInternalServerError {
		t.Errorf("panic in handler: %d", code)
	}
	code, _, _ = call(t, s, "GET", "/healthz", nil)
	if code != http.StatusOK {
		t.Errorf("healthz after panics: %d", code)
	}
}

// TestTimeoutReal sends a real graph with a tiny time limit.
func TestTimeoutReal(t *testing.T) {
	h := New(Config{Timeout: time.Microsecond})
	code, hdr, body := call(t, h, "POST", "/v1/compare", CompareRequest{Graph: &Graph{Data: exampleTTL(t, lexeme)}})
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") != "1" {
		t.Errorf("status %d %v %s", code, hdr, body)
	}
}

// TestMetrics checks the Prometheus text after known traffic.
func TestMetrics(t *testing.T) {
	h := New(Config{})
	for range 3 {
		call(t, h, "GET", "/healthz", nil)
	}
	call(t, h, "POST", "/v1/serialize", `{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`)
	call(t, h, "POST", "/v1/serialize", `nope`)
	code, hdr, body := call(t, h, "GET", "/metrics", nil)
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("status %d, type %q", code, hdr.Get("Content-Type"))
	}
	values := map[string]float64{}
	for _, l := range lines(string(body)) {
		if strings.HasPrefix(l, "#") {
			continue
		}
		i := strings.LastIndexByte(l, ' ')
		v, err := strconv.ParseFloat(l[i+1:], 64)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		values[l[:i]] = v
	}
	want := map[string]float64{
		`isolda_http_requests_total{endpoint="healthz",code="200"}`:                 3,
		`isolda_http_requests_total{endpoint="serialize",code="200"}`:               1,
		`isolda_http_requests_total{endpoint="serialize",code="400"}`:               1,
		`isolda_http_request_duration_seconds_count{endpoint="serialize"}`:          2,
		`isolda_http_request_duration_seconds_bucket{endpoint="healthz",le="+Inf"}`: 3,
		`isolda_http_requests_in_flight`:                                            1,
	}
	for k, v := range want {
		if values[k] != v {
			t.Errorf("%s = %v, want %v\n%s", k, values[k], v, body)
		}
	}
	if !strings.Contains(string(body), "# TYPE isolda_http_request_duration_seconds histogram") {
		t.Error("no histogram TYPE line")
	}
	// The Go runtime series: internal/loadgen samples the heap from
	// go_memstats_heap_alloc_bytes; the handler's own goroutine is alive.
	for _, name := range []string{"go_memstats_heap_alloc_bytes", "go_memstats_heap_inuse_bytes",
		"go_memstats_sys_bytes", "go_memstats_alloc_bytes_total", "go_goroutines", "go_gc_gogc_percent"} {
		if values[name] <= 0 {
			t.Errorf("%s = %v, want a positive value", name, values[name])
		}
		if !strings.Contains(string(body), "# TYPE "+name+" ") {
			t.Errorf("no TYPE line for %s", name)
		}
	}
	if values["go_memstats_heap_inuse_bytes"] < values["go_memstats_heap_alloc_bytes"] {
		t.Errorf("heap in use %v < heap alloc %v", values["go_memstats_heap_inuse_bytes"], values["go_memstats_heap_alloc_bytes"])
	}
	if _, ok := values["go_gc_cycles_total"]; !ok {
		t.Error("no go_gc_cycles_total")
	}
}
