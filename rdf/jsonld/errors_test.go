package jsonld

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/rdf"
)

// JSON-LD errors carry the line and column of the value at fault.
func TestErrorPositions(t *testing.T) {
	tests := []struct {
		name, doc, code string
		line, col       int
	}{
		{"bad @id", "{\n  \"@context\": {\"@vocab\": \"http://x/\"},\n  \"a\": {\"@id\": 5}\n}", "invalid @id value", 3, 16},
		{"bad @id in array", "[\n {\"http://x/p\": [1,\n   {\"@id\": true}]}]", "invalid @id value", 3, 12},
		{"bad context", "{\"@context\": {\"@vocab\": 5},\n \"http://x/p\": 1}", "invalid vocab mapping", 1, 14},
		{"bad language map", "{\"@context\": {\"l\": {\"@id\": \"http://x/l\", \"@container\": \"@language\"}},\n \"l\": {\"en\": 3}}", "invalid language map value", 2, 7},
	}
	for _, tc := range tests {
		err := Parse(strings.NewReader(tc.doc), rdf.NewDataset(), Options{ReadOptions: rdf.ReadOptions{File: "f.jsonld"}})
		var je *Error
		if !errors.As(err, &je) || je.Code != tc.code {
			t.Errorf("%s: got %v, want code %q", tc.name, err, tc.code)
			continue
		}
		var pe *rdf.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.col {
			t.Errorf("%s: error %v, want position %d:%d", tc.name, err, tc.line, tc.col)
		}
	}
}

// In HTML, positions count from the start of the page.
func TestErrorPositionsHTML(t *testing.T) {
	page := "<html>\n<script type=\"application/ld+json\">\n{\"http://x/p\": {\"@id\": []}}\n</script>"
	err := ParseHTML(strings.NewReader(page), rdf.NewDataset(), Options{ReadOptions: rdf.ReadOptions{File: "p.html"}})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 24 {
		t.Fatalf("got %v, want p.html:3:24", err)
	}
}

// Contexts that refer to the next context twice, level after level, would
// take 2^levels steps: the work is bounded and the error is "context
// overflow" (remote contexts) or the document is read (scoped contexts,
// processed once per term).
func TestContextFanOutBounded(t *testing.T) {
	const levels = 24
	dir := t.TempDir()
	files := map[string]string{}
	scoped := map[string]string{}
	for i := range levels {
		u := fmt.Sprintf("http://ctx.example/r%d", i)
		su := fmt.Sprintf("http://ctx.example/s%d", i)
		text := `{"@context": {"v": "http://x/v"}}`
		stext := text
		if i+1 < levels {
			next := fmt.Sprintf("http://ctx.example/r%d", i+1)
			snext := fmt.Sprintf("http://ctx.example/s%d", i+1)
			text = `{"@context": ["` + next + `", "` + next + `"]}`
			stext = `{"@context": {"@vocab": "http://x/", "a": {"@context": "` + snext + `"}, "b": {"@context": "` + snext + `"}}}`
		}
		f := filepath.Join(dir, fmt.Sprintf("r%d.jsonld", i))
		sf := filepath.Join(dir, fmt.Sprintf("s%d.jsonld", i))
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sf, []byte(stext), 0o644); err != nil {
			t.Fatal(err)
		}
		files[u], scoped[su] = f, sf
	}
	maps.Copy(files, scoped)
	opts := Options{Contexts: files}
	start := time.Now()
	_, err := parseString(t, `{"@context": "http://ctx.example/r0", "@id": "http://x/s", "v": 1}`, opts)
	var je *Error
	if !errors.As(err, &je) || je.Code != "context overflow" {
		t.Errorf("remote fan-out: got %v, want context overflow", err)
	}
	_, err = parseString(t, `{"@context": "http://ctx.example/s0", "@id": "http://x/s", "a": {"b": {"a": {"v": 1}}}}`, opts)
	if err != nil && !errors.As(err, &je) {
		t.Errorf("scoped fan-out: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
	t.Logf("scoped fan-out: %v; both in %v", err, time.Since(start))
}

// Options.ExpandContext may be a context object (with or without an
// "@context" entry), applied before the document's own context.
func TestExpandContextObject(t *testing.T) {
	for _, ec := range []any{
		map[string]any{"@context": map[string]any{"@vocab": "http://x/"}},
		map[string]any{"@vocab": "http://x/"},
		[]any{map[string]any{"@vocab": "http://x/"}},
	} {
		d, err := parseString(t, `{"@id": "http://x/s", "p": "v"}`, Options{ExpandContext: ec})
		if err != nil {
			t.Fatal(err)
		}
		want := rdf.Quad{S: rdf.NewIRI("http://x/s"), P: rdf.NewIRI("http://x/p"), O: rdf.NewString("v")}
		if d.Len() != 1 || !d.Has(want) {
			t.Errorf("ExpandContext %v: got %v", ec, d.Quads())
		}
	}
}

// Node Map Generation adds each value of a property once, for short and
// long lists of values alike; list items are never merged.
func TestNodeMapDeduplicates(t *testing.T) {
	for _, n := range []int{3, 40} {
		var vals []string
		for i := range n {
			v := fmt.Sprintf(`"v%d", {"@value": "v%d"}, %d, {"@id": "http://x/o%d"}, {"@value": "v%d", "@language": "en"}`, i, i, i, i, i)
			vals = append(vals, v, v)
		}
		doc := `{"@id": "http://x/s", "http://x/p": [` + strings.Join(vals, ", ") +
			`], "http://x/l": {"@list": [1, 1]}}`
		var quads []rdf.Quad
		err := Parse(strings.NewReader(doc), rdf.SinkFunc(func(q rdf.Quad) error { quads = append(quads, q); return nil }), Options{})
		if err != nil {
			t.Fatal(err)
		}
		// 4 distinct values per i ("v%d" twice the same literal), and a
		// two-item list: the list triple and 4 list triples.
		if want := 4*n + 5; len(quads) != want {
			t.Errorf("n=%d: %d quads, want %d", n, len(quads), want)
		}
	}
}

// Warnings about the input locate the value concerned.
func TestWarningPositions(t *testing.T) {
	doc := "{\"@context\": {\"@vocab\": \"http://x/\"},\n \"@id\": \"http://x/s\",\n \"p\": {\"@id\": \"@ignoreMe\"}}"
	var warnings []*rdf.ParseError
	opts := Options{ReadOptions: rdf.ReadOptions{File: "w.jsonld", Warn: func(e *rdf.ParseError) { warnings = append(warnings, e) }}}
	if _, err := parseString(t, doc, opts); err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 || warnings[0].Line != 3 || warnings[0].Column != 15 {
		t.Fatalf("warnings %v, want one at 3:15", warnings)
	}
	opts.Strict = true
	_, err := parseString(t, doc, opts)
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 15 {
		t.Fatalf("strict: got %v, want an error at 3:15", err)
	}
}

// Every error and warning carries the byte offset of the value it is about
// (counted by hand here: the first line of the multi-line documents is 22
// bytes long), with its line and column: JSON syntax errors,
// JSON-LD errors, limits, and the warnings (errors with Strict) of the
// conversion to RDF, which locate the first value giving the IRI, tag or
// literal concerned.
func TestErrorOffsets(t *testing.T) {
	type want struct {
		line, col int
		off       int64
		msg       string
	}
	long := strings.Repeat("x", 100)
	tests := []struct {
		name string
		doc  string
		opts Options
		w    want
	}{
		{"JSON syntax", "{\"a\": [1,\n 2,]}", Options{}, want{2, 4, 13, "invalid character ']'"}},
		{"invalid UTF-8", "{\"a\": \"\xff\"}", Options{}, want{1, 8, 7, "invalid UTF-8"}},
		{"nesting", "[[[[1]]]]", Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: 2}}}, want{1, 3, 2, "nesting deeper than 2"}},
		{"trailing data", "{} {}", Options{}, want{1, 4, 3, "unexpected data"}},
		{"not an object", "\n  \"x\"", Options{}, want{2, 3, 3, "must be a JSON object or array"}},
		{"number out of range", "{\"http://x/p\": [1, 1e999]}", Options{}, want{1, 20, 19, "1e999"}},
		{"byte order mark", "\xef\xbb\xbf{\"http://x/p\": {\"@id\": 5}}", Options{}, want{1, 24, 26, "invalid @id value"}},
		{"byte limit", "{\"http://x/p\": \"" + long + "\"}", Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 50}}}, want{1, 51, 50, "larger than 50 bytes"}},
		{"strict: relative IRI", "{\"@id\": \"http://x/s\",\n \"http://x/p\": {\"@id\": \"rel\"}}", Options{ReadOptions: rdf.ReadOptions{Strict: true}}, want{2, 24, 45, "not absolute"}},
		{"strict: language tag", "{\"@id\": \"http://x/s\",\n \"http://x/p\": {\"@value\": \"x\", \"@language\": \"en_US\"}}", Options{ReadOptions: rdf.ReadOptions{Strict: true}}, want{2, 45, 66, "en_US"}},
		{"strict: datatype", "{\"@id\": \"http://x/s\",\n \"http://x/p\": {\"@value\": \"x\", \"@type\": \"http://x/a b\"}}", Options{ReadOptions: rdf.ReadOptions{Strict: true}}, want{2, 41, 62, "a b"}},
		{"invalid typed value (DropInvalid)", "{\"@id\": \"http://x/s\",\n \"http://x/p\": {\"@value\": \"x\", \"@type\": \"http://x/a b\"}}", Options{DropInvalid: true}, want{2, 16, 37, "invalid typed value"}},
		{"term length", "{\"@id\": \"http://x/s\",\n \"http://x/p\": [\"short\", \"" + long + "\"]}", Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxTermLength: 50}}}, want{2, 26, 47, "term longer than 50 bytes"}},
		{"quad count", "{\"@id\": \"http://x/s\",\n \"http://x/p\": [1, 2, 3]}  \n", Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxQuads: 2}}}, want{2, 26, 47, "more than 2 quads"}},
	}
	for _, tc := range tests {
		tc.opts.File = "f.jsonld"
		err := Parse(strings.NewReader(tc.doc), rdf.NewDataset(), tc.opts)
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *rdf.ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.w.line || pe.Column != tc.w.col || pe.Offset != tc.w.off || !strings.Contains(err.Error(), tc.w.msg) {
			t.Errorf("%s: got %v (offset %d), want %d:%d offset %d, %q", tc.name, err, pe.Offset, tc.w.line, tc.w.col, tc.w.off, tc.w.msg)
		}
	}
}

// Warnings carry the offset of the value they are about; in HTML, offsets
// count from the start of the page (a byte order mark included).
func TestWarningOffsetsHTML(t *testing.T) {
	page := "\xef\xbb\xbf<html>\n<script type=\"application/ld+json\">\n{\"@id\": \"http://x/s\", \"http://x/p\": {\"@id\": \"http://x/a b\"}}</script>"
	var warnings []*rdf.ParseError
	opts := Options{ReadOptions: rdf.ReadOptions{File: "p.html", Warn: func(e *rdf.ParseError) { warnings = append(warnings, e) }}}
	if err := ParseHTML(strings.NewReader(page), rdf.NewDataset(), opts); err != nil {
		t.Fatal(err)
	}
	// 3 (BOM) + 7 ("<html>\n") + 36 (the script tag and its line break),
	// then 44 bytes to the @id value on line 3.
	if len(warnings) != 1 || warnings[0].Line != 3 || warnings[0].Column != 45 || warnings[0].Offset != 3+7+36+44 {
		t.Fatalf("warnings %v, want one at 3:45, offset 90", warnings)
	}
	// A broken script: the error is at the bad character, in the page.
	broken := "<html>\n<script type=\"application/ld+json\">\n{\"a\": }\n</script>"
	err := ParseHTML(strings.NewReader(broken), rdf.NewDataset(), Options{})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 7 || pe.Offset != 7+36+6 {
		t.Fatalf("got %v, want 3:7, offset 49", err)
	}
}

// A relative datatype IRI (no base to resolve it) drops its statement with
// a warning at the value, as relative IRIs elsewhere do; DropInvalid, the
// JSON-LD algorithms to the letter, makes it the "invalid typed value"
// error.
func TestRelativeDatatype(t *testing.T) {
	doc := "{\"@id\": \"http://x/s\",\n \"http://x/p\": {\"@value\": \"x\", \"@type\": \"rel\"}, \"http://x/q\": \"kept\"}"
	var warnings []*rdf.ParseError
	d, err := parseString(t, doc, Options{ReadOptions: rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warnings = append(warnings, e) }}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 || !d.Has(rdf.Quad{S: rdf.NewIRI("http://x/s"), P: rdf.NewIRI("http://x/q"), O: rdf.NewString("kept")}) {
		t.Errorf("got %v, want the http://x/q statement only", d.Quads())
	}
	if len(warnings) != 1 || warnings[0].Line != 2 || warnings[0].Column != 41 || warnings[0].Offset != 62 ||
		!strings.Contains(warnings[0].Msg, "not absolute") {
		t.Errorf("warnings %v, want one at 2:41 (offset 62) about the relative IRI", warnings)
	}
	_, err = parseString(t, doc, Options{DropInvalid: true})
	var je *Error
	if !errors.As(err, &je) || je.Code != "invalid typed value" {
		t.Errorf("DropInvalid: got %v, want invalid typed value", err)
	}
	// With a base, the datatype is resolved.
	d, err = parseString(t, doc, Options{ReadOptions: rdf.ReadOptions{Base: "http://b/"}})
	if err != nil || !d.Has(rdf.Quad{S: rdf.NewIRI("http://x/s"), P: rdf.NewIRI("http://x/p"), O: rdf.NewLiteral("x", "http://b/rel")}) {
		t.Errorf("with a base: %v %v", err, d.Quads())
	}
}
