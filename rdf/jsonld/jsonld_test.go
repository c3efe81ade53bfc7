package jsonld

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

func parseString(t *testing.T, doc string, opts Options) (*rdf.Dataset, error) {
	t.Helper()
	d := rdf.NewDataset()
	err := Parse(strings.NewReader(doc), d, opts)
	return d, err
}

func nq(quads []rdf.Quad) string {
	var b strings.Builder
	for _, q := range quads {
		b.WriteString(q.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestParseBasic(t *testing.T) {
	doc := `{
  "@context": {"ex": "http://example.org/", "name": "http://xmlns.com/foaf/0.1/name",
               "age": {"@id": "http://example.org/age", "@type": "http://www.w3.org/2001/XMLSchema#integer"}},
  "@id": "ex:alice",
  "@type": "ex:Person",
  "name": ["Alice", {"@value": "Alicia", "@language": "es"}],
  "age": "42",
  "ex:score": 1.5,
  "ex:n": 7,
  "ex:ok": true,
  "ex:knows": {"name": "Bob"}
}`
	d, err := parseString(t, doc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Expected triples written by hand from the JSON-LD 1.1 rules.
	want := `<http://example.org/alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/Person> .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/name> "Alice" .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/name> "Alicia"@es .
<http://example.org/alice> <http://example.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/alice> <http://example.org/score> "1.5E0"^^<http://www.w3.org/2001/XMLSchema#double> .
<http://example.org/alice> <http://example.org/n> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/alice> <http://example.org/ok> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<http://example.org/alice> <http://example.org/knows> _:x .
_:x <http://xmlns.com/foaf/0.1/name> "Bob" .
`
	wantCanon, err := canonicalNQuads(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := canonicalQuads(d.Quads()); got != wantCanon {
		t.Errorf("got\n%s\nwant\n%s", got, wantCanon)
	}
	// Prefixes from the top-level context: only IRIs ending in / or #.
	if want := []rdf.Prefix{{Name: "ex", IRI: "http://example.org/"}}; !reflect.DeepEqual(d.Prefixes, want) {
		t.Errorf("prefixes = %v, want %v", d.Prefixes, want)
	}
}

func TestParseDeterministicOrder(t *testing.T) {
	doc := `{"@context": {"@vocab": "http://ex/"},
	 "@graph": [
	  {"@id": "http://ex/z", "p": [3, 1, 2], "q": {"r": "x"}},
	  {"@id": "_:a", "@graph": {"@id": "http://ex/in", "p": "g"}},
	  {"@id": "http://ex/a", "l": {"@list": [1, {"p": 2}]}},
	  {"@id": "http://ex/r", "@reverse": {"http://ex/r1": [{"p": 1}, {"p": 2}], "http://ex/r2": {"p": 3},
	   "http://ex/r3": {"p": 4}, "http://ex/r4": [{"p": 5}, {"p": 6}]}}
	 ]}`
	var first string
	for i := range 50 {
		d, err := parseString(t, doc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := nq(d.Quads())
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d gave a different quad order:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}

// Blank node labels and order come from the quads, not from the order of
// the input: the same data written in another order gives the same output.
func TestParseOrderIndependent(t *testing.T) {
	a := `{"@context": {"@vocab": "http://ex/"}, "@graph": [
	  {"name": "x", "knows": [{"name": "y"}, {"name": "z", "age": 3}]},
	  {"@id": "http://ex/w", "l": {"@list": [{"v": 1}, {"v": 2}]}}]}`
	b := `{"@graph": [
	  {"l": {"@list": [{"v": 1}, {"v": 2}]}, "@id": "http://ex/w"},
	  {"knows": [{"age": 3, "name": "z"}, {"name": "y"}], "name": "x"}], "@context": {"@vocab": "http://ex/"}}`
	da, err := parseString(t, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := parseString(t, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if nq(da.Quads()) != nq(db.Quads()) {
		t.Errorf("same data, different output:\n%s\n---\n%s", nq(da.Quads()), nq(db.Quads()))
	}
}

func TestJSONSyntaxErrorPosition(t *testing.T) {
	cases := []struct {
		doc       string
		line, col int
	}{
		{"{\n  \"a\": 1,\n  \"b\": ]\n}", 3, 8},
		{"{\"a\": \"é\", x}", 1, 12},
		{"[1, 2", 1, 6},
		{"", 1, 1},
		{"{} {}", 1, 4},
		{"{\"a\": \"1e400\",\n \"b\": [1e400]}", 2, 8},
	}
	for _, c := range cases {
		_, err := parseString(t, c.doc, Options{ReadOptions: rdf.ReadOptions{File: "in.jsonld"}})
		perrtest.At(t, err, "in.jsonld", c.line, c.col, "", "%q", c.doc)
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	_, err := parseString(t, deep, Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: 10}}})
	var pe *rdf.ParseError
	if !errors.Is(err, rdf.ErrLimit) || !errors.As(err, &pe) || pe.Line != 1 || pe.Column != 11 {
		t.Errorf("depth: got %v", err)
	}
	// A bracket inside a string does not count.
	if _, err := parseString(t, `{"@id": "[[[[[[[[[[[[[[[[[[[[[[[["}`, Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: 3}}}); err != nil {
		t.Errorf("brackets in strings: %v", err)
	}
	_, err = parseString(t, `{"@id": "http://x/a", "http://x/p": "0123456789"}`, Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 20}}})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("bytes: got %v", err)
	}
	_, err = parseString(t, `{"@id": "http://x/a", "http://x/p": [1, 2, 3, 4]}`, Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxQuads: 3}}})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("quads: got %v", err)
	}
}

func TestInvalidIRIs(t *testing.T) {
	doc := `{"@id": "http://x/search?q={search_term_string}", "http://x/p": {"@id": "http://x/a b"}}`
	var warnings []string
	opts := Options{ReadOptions: rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warnings = append(warnings, e.Msg) }}}
	d, err := parseString(t, doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 || !d.Has(rdf.Quad{S: rdf.NewIRI("http://x/search?q={search_term_string}"), P: rdf.NewIRI("http://x/p"), O: rdf.NewIRI("http://x/a b")}) {
		t.Errorf("invalid IRIs not kept: %s", nq(d.Quads()))
	}
	if len(warnings) != 2 {
		t.Errorf("warnings = %q, want 2", warnings)
	}
	opts.DropInvalid = true
	if d, _ := parseString(t, doc, opts); d.Len() != 0 {
		t.Errorf("DropInvalid kept %d quads", d.Len())
	}
	opts.DropInvalid = false
	opts.Strict = true
	if _, err := parseString(t, doc, opts); err == nil || !strings.Contains(err.Error(), "which IRIs may not contain") {
		t.Errorf("strict: got %v", err)
	}
}

func TestMissingContext(t *testing.T) {
	_, err := parseString(t, `{"@context": "http://example.com/ctx.jsonld", "name": "x"}`, Options{})
	var je *Error
	if !errors.As(err, &je) || !strings.Contains(err.Error(), "http://example.com/ctx.jsonld") {
		t.Fatalf("got %v", err)
	}
	if je.Code != "loading remote context failed" {
		t.Errorf("code %q", je.Code)
	}
	var pe *rdf.ParseError
	if !errors.As(err, &pe) {
		t.Errorf("not a ParseError: %v", err)
	}
	// The same context mapped to a local file.
	f := filepath.Join(t.TempDir(), "ctx.jsonld")
	if err := os.WriteFile(f, []byte(`{"@context": {"name": "http://xmlns.com/foaf/0.1/name"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := parseString(t, `{"@context": "http://example.com/ctx.jsonld", "@id": "http://x/a", "name": "x"}`,
		Options{Contexts: map[string]string{"http://example.com/ctx.jsonld": f}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Has(rdf.Quad{S: rdf.NewIRI("http://x/a"), P: rdf.NewIRI("http://xmlns.com/foaf/0.1/name"), O: rdf.NewString("x")}) {
		t.Errorf("got %s", nq(d.Quads()))
	}
}

func TestSchemaOrgOffline(t *testing.T) {
	for _, u := range []string{"http://schema.org", "https://schema.org/", "http://schema.org/",
		"https://schema.org/docs/jsonldcontext.jsonld", "https://schema.org/docs/jsonldcontext.json"} {
		doc := `{"@context": "` + u + `", "@type": "Event", "name": "Gig", "startDate": "2015-10-26",
		  "location": {"@type": "Place", "name": "Hall", "url": "http://example.com/hall"}}`
		d, err := parseString(t, doc, Options{})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		var types, urls, dates int
		for _, q := range d.Quads() {
			switch {
			case q.P.Value == rdf.RDFType && strings.HasPrefix(q.O.Value, "http://schema.org/"):
				types++
			case q.P.Value == "http://schema.org/url" && q.O.IsIRI():
				urls++ // schema.org types url as @id
			case q.P.Value == "http://schema.org/startDate" && q.O.Datatype == "http://schema.org/Date":
				dates++ // and startDate as schema:Date
			}
		}
		if d.Len() != 7 || types != 2 || urls != 1 || dates != 1 {
			t.Errorf("%s: %d quads, %d types, %d url IRIs, %d dates:\n%s", u, d.Len(), types, urls, dates, nq(d.Quads()))
		}
	}
}

func TestEmbeddedContextIsOfficial(t *testing.T) {
	official := shared.ReadFile(t, "data", "contexts", "schemaorg-context-v30.0.jsonld")
	var a, b any
	if err := json.Unmarshal(official, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(SchemaOrgContext(), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("embedded schema.org context differs from the official v30.0 file")
	}
}

func TestHTMLScripts(t *testing.T) {
	page := `<html><head>
<script type="text/javascript">var s = '<script type="application/ld+json">{"bad": </script>';</script>
<SCRIPT TYPE="Application/LD+JSON; charset=utf-8">
{"@context": {"@vocab": "http://ex/"}, "@id": "_:a", "p": "one"}
</SCRIPT>
</head><body>
<script type="application/ld+json" id="two">{"@context": {"@vocab": "http://ex/"}, "@id": "_:a", "p": "two &amp; more"}</script>
</body></html>`
	var quads []rdf.Quad
	sink := rdf.SinkFunc(func(q rdf.Quad) error { quads = append(quads, q); return nil })
	if err := ParseHTML(strings.NewReader(page), sink, Options{}); err != nil {
		t.Fatal(err)
	}
	// Two scripts, the same label _:a in each: two distinct blank nodes.
	// Script text is raw: "&amp;" stays as written.
	want := `_:x <http://ex/p> "one" .
_:y <http://ex/p> "two &amp; more" .
`
	wantCanon, _ := canonicalNQuads(want)
	if got := canonicalQuads(quads); got != wantCanon {
		t.Errorf("got\n%s\nwant\n%s", got, wantCanon)
	}
	quads = nil
	if err := ParseHTML(strings.NewReader(page), sink, Options{HTMLScriptID: "two"}); err != nil || len(quads) != 1 || quads[0].O.Value != "two &amp; more" {
		t.Errorf("by id: %v %v", err, quads)
	}
	// A broken script reports its position in the page.
	broken := "<html>\n<script type=\"application/ld+json\">\n{\"a\": }\n</script>"
	err := ParseHTML(strings.NewReader(broken), sink, Options{ReadOptions: rdf.ReadOptions{File: "p.html"}})
	var je *Error
	if !errors.As(err, &je) || je.Code != "invalid script element" || je.Line != 3 || je.Column != 7 {
		t.Errorf("broken script: %v", err)
	}
	// Or skipped with a warning; warnings locate the value they are about.
	page2 := broken + "\n<script type=\"application/ld+json\">\n{\"@id\": \"http://x/a b\", \"http://x/p\": 1}</script>"
	var warnings []string
	quads = nil
	err = ParseHTML(strings.NewReader(page2), sink, Options{HTMLSkipInvalid: true,
		ReadOptions: rdf.ReadOptions{File: "p.html", Warn: func(e *rdf.ParseError) { warnings = append(warnings, e.Error()) }}})
	if err != nil || len(quads) != 1 || len(warnings) != 2 ||
		!strings.HasPrefix(warnings[0], "p.html:3:7: JSON-LD script skipped") || !strings.HasPrefix(warnings[1], "p.html:6:9: IRI") {
		t.Errorf("skip invalid: %v %v %q", err, quads, warnings)
	}
}

func TestHTMLExample(t *testing.T) {
	path := shared.MustPath(t, "data", "examples", "html-schemaorg-songkick-years-and-years-tour-events.html")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var outputs []string
	for range 2 {
		d := rdf.NewDataset()
		var warnings []string
		opts := Options{ReadOptions: rdf.ReadOptions{File: path, Base: "https://www.songkick.com/artists/years-and-years",
			Warn: func(e *rdf.ParseError) { warnings = append(warnings, e.Error()) }}}
		if err := ParseHTML(bytes.NewReader(data), d, opts); err != nil {
			t.Fatal(err)
		}
		var events, groups, types, doubles int
		subjects := map[rdf.Term]bool{}
		for _, q := range d.Quads() {
			subjects[q.S] = true
			if q.O.Datatype == rdf.XSDDouble {
				doubles++
			}
			if q.P.Value == rdf.RDFType {
				types++
				switch q.O.Value {
				case "http://schema.org/MusicEvent":
					events++
				case "http://schema.org/MusicGroup":
					groups++
				}
			}
		}
		// Facts read from the page's 14 ld+json scripts (checked by eye and
		// by a throwaway Python count of the raw JSON): 89 objects, each
		// with one "@type" and no "@id"; 13 MusicEvent, 36 MusicGroup (35
		// performers and the page's artist), 13 geo objects with a float
		// latitude and longitude; 386 key/value pairs of which 8 are JSON
		// null (dropped by JSON-LD). rdflib 6.1.1 also counts 378 triples
		// over 89 blank-node subjects (/work/shared/data/examples/README.md).
		if events != 13 || groups != 36 || types != 89 || doubles != 26 {
			t.Errorf("%d MusicEvent, %d MusicGroup, %d rdf:type, %d doubles; want 13, 36, 89, 26", events, groups, types, doubles)
		}
		if d.Len() != 378 || len(subjects) != 89 {
			t.Errorf("%d quads over %d subjects; want 378 over 89", d.Len(), len(subjects))
		}
		// Of the schema.org context's prefixes, only those the quads use.
		wantPrefixes := []rdf.Prefix{{Name: "rdf", IRI: rdf.RDFNS}, {Name: "schema", IRI: "http://schema.org/"}, {Name: "xsd", IRI: rdf.XSD}}
		if !reflect.DeepEqual(d.Prefixes, wantPrefixes) {
			t.Errorf("prefixes %v, want %v", d.Prefixes, wantPrefixes)
		}
		for s := range subjects {
			if !s.IsBlank() {
				t.Errorf("subject %s is not a blank node", s)
			}
		}
		outputs = append(outputs, nq(d.Quads()))
		t.Logf("example page: %d quads, %d subjects, prefixes %v, %d warnings", d.Len(), len(subjects), d.Prefixes, len(warnings))
	}
	if outputs[0] != outputs[1] {
		t.Error("two reads of the page gave different quads or order")
	}
}

func TestLoader(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonld")
	deep := filepath.Join(dir, "deep.jsonld")
	if err := os.WriteFile(good, []byte(`{"@context": {"x": "http://x/"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(deep, []byte(`{"@context": `+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l := NewLoader(Options{Contexts: map[string]string{"http://ctx.example/a/": good, "http://ctx.example/deep": deep},
		ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: 50}}})
	for _, u := range []string{"http://schema.org", "http://schema.org/", "https://schema.org", "https://schema.org/",
		"https://www.schema.org/", "https://schema.org/docs/jsonldcontext.json", "http://schema.org/docs/jsonldcontext.jsonld",
		"http://ctx.example/a/", "http://ctx.example/a"} {
		rd, err := l.LoadDocument(u)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		if m, ok := rd.Document.(map[string]any); !ok || m["@context"] == nil {
			t.Errorf("%s: not a context document", u)
		}
	}
	for _, u := range []string{"https://schema.org/Person", "http://example.com/ctx", "http://ctx.example/deep"} {
		if _, err := l.LoadDocument(u); err == nil || !strings.Contains(err.Error(), u) {
			t.Errorf("%s: got %v, want an error naming the URL", u, err)
		}
	}
}

func TestRecursiveContexts(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonld")
	b := filepath.Join(dir, "b.jsonld")
	c := filepath.Join(dir, "c.jsonld")
	for f, text := range map[string]string{
		a: `{"@context": "http://ctx.example/b"}`,
		b: `{"@context": ["http://ctx.example/a", {"x": "http://x/"}]}`,
		c: `{"@context": {"@version": 1.1, "@import": "http://ctx.example/c", "y": "http://y/"}}`,
	} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := Options{Contexts: map[string]string{"http://ctx.example/a": a, "http://ctx.example/b": b, "http://ctx.example/c": c}}
	for _, ctx := range []string{"http://ctx.example/a", "http://ctx.example/c"} {
		_, err := parseString(t, `{"@context": "`+ctx+`", "@id": "http://x/s", "x:p": 1}`, opts)
		var je *Error
		if !errors.As(err, &je) {
			t.Errorf("%s: got %v, want a JSON-LD error", ctx, err)
		} else {
			t.Logf("%s: %v", ctx, err)
		}
	}
}

func TestOptionsChecked(t *testing.T) {
	if _, err := parseString(t, `{}`, Options{ProcessingMode: "json-ld-2"}); err == nil {
		t.Error("unknown processing mode accepted")
	}
	if err := ParseHTML(strings.NewReader(``), rdf.NewDataset(), Options{RDFDirection: "ltr"}); err == nil {
		t.Error("unknown rdfDirection accepted")
	}
}

// A value with a base direction becomes, by default, an RDF 1.2
// directional language-tagged string with its tag as written; the JSON-LD
// 1.1 modes drop the direction or encode it.
func TestRDFDirection(t *testing.T) {
	doc := `{"@id": "http://x/s", "http://x/p": {"@value": "abc", "@language": "AR-EG", "@direction": "rtl"}}`
	cases := map[string]string{
		"":            `<http://x/s> <http://x/p> "abc"@AR-EG--rtl .`,
		DirLangString: `<http://x/s> <http://x/p> "abc"@AR-EG--rtl .`,
		NullDirection: `<http://x/s> <http://x/p> "abc"@AR-EG .`,
		I18nDatatype:  `<http://x/s> <http://x/p> "abc"^^<https://www.w3.org/ns/i18n#ar-eg_rtl> .`,
		CompoundLiteral: `<http://x/s> <http://x/p> _:c .
_:c <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "abc" .
_:c <http://www.w3.org/1999/02/22-rdf-syntax-ns#language> "ar-eg" .
_:c <http://www.w3.org/1999/02/22-rdf-syntax-ns#direction> "rtl" .`,
	}
	for mode, want := range cases {
		d, err := parseString(t, doc, Options{RDFDirection: mode})
		if err != nil {
			t.Fatal(err)
		}
		wantCanon, err := canonicalNQuads(want + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalQuads(d.Quads()); got != wantCanon {
			t.Errorf("%q: got\n%s\nwant\n%s", mode, got, wantCanon)
		}
	}
	// RDF 1.2 has no directional string without a language: a plain
	// string, with a warning at the value (an error with Strict).
	doc = `{"@id": "http://x/s",` + "\n" + ` "http://x/p": {"@value": "abc", "@direction": "rtl"}}`
	var warnings []*rdf.ParseError
	d, err := parseString(t, doc, Options{ReadOptions: rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warnings = append(warnings, e) }}})
	if err != nil || d.Len() != 1 || d.Quads()[0].O != rdf.NewString("abc") {
		t.Fatalf("got %v, %v", err, d.Quads())
	}
	if len(warnings) != 1 || warnings[0].Line != 2 || warnings[0].Column != 16 || warnings[0].Offset != 22+15 ||
		!strings.Contains(warnings[0].Msg, "without a language tag") {
		t.Errorf("warnings %v, want one at 2:16 (offset 37)", warnings)
	}
	if _, err := parseString(t, doc, Options{ReadOptions: rdf.ReadOptions{Strict: true}}); err == nil {
		t.Error("strict: no error")
	}
}
