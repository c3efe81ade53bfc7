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
