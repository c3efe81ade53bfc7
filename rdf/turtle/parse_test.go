package turtle_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

func parseString(t *testing.T, src string, syntax turtle.Syntax, opts rdf.ReadOptions) (*rdf.Dataset, error) {
	t.Helper()
	d := rdf.NewDataset()
	err := turtle.Parse(strings.NewReader(src), syntax, d, opts)
	return d, err
}

// nquads returns the dataset as sorted N-Quads lines, in canonical form but
// for the case of language tags.
func nquads(d *rdf.Dataset) string {
	var b strings.Builder
	for _, q := range d.Sorted() {
		b.WriteString(q.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		src        string
		syntax     turtle.Syntax
		line, col  int
		msgContain string
	}{
		{"<http://x/a> <http://x/b> <http://x/c>", turtle.Turtle, 1, 39, `expected "." at the end of the triples, found end of input`},
		{"@prefix ex: <http://x/> .\nex:a ex:b ex:c ;\n  ex:d }", turtle.Turtle, 3, 8, `expected an object, found "}"`},
		{"<http://x/a> <http://x/b> foo:c .", turtle.Turtle, 1, 27, `undefined prefix "foo"`},
		{"<http://x/a> <http://x/b> \"abc\n\" .", turtle.Turtle, 1, 31, "line break in a short string"},
		{"<http://x/{a}> <http://x/b> <http://x/c> .", turtle.Turtle, 1, 11, `character '{' is not allowed in an IRI`},
		{"# comment\n\n  <http://x/é> <http://x/b> ( 1 2 .", turtle.Turtle, 3, 35, `expected an object, found "."`},
		{"<http://x/a> <http://x/b> <http://x/c> .\n<http://x/g> { <http://x/a> <http://x/b> <http://x/c> }", turtle.Turtle, 2, 14, "found \"{\""},
		{"{ <http://x/a> <http://x/b> <http://x/c> . . }", turtle.TriG, 1, 44, `expected a subject, found "."`},
		{"GRAPH [ <http://x/p> 1 ] { }", turtle.TriG, 1, 9, `expected "]"`},
		{`<http://x/a> <http://x/b> "x"@ .`, turtle.Turtle, 1, 31, "expected a language tag"},
		{"<http://x/a> <http://x/b> <http://x/c\\u0020> .", turtle.Turtle, 1, 27, "which IRIs may not contain"},
		{"<http://x/a> <http://x/b> \"\\uD800\" .", turtle.Turtle, 1, 28, "lone UTF-16 surrogate"},
		{"<http://x/a> <http://x/b> \"α\\uD83D\\uDE00\" .", turtle.Turtle, 1, 29, `surrogate pair, which RDF 1.2 does not allow: write \U0001F600`},
		{"<http://x/a> <http://x/b> \"x\"@zh-classical .", turtle.Turtle, 1, 31, "not well-formed BCP 47"},
		{"<http://x/a> <http://x/b> <http://x/c#d#e> .", turtle.Turtle, 1, 27, `second "#"`},
		{"@prefix x: <http://x/#> .\n<http://x/a> <http://x/b> x:c\\#d .", turtle.Turtle, 2, 27, `second "#"`},
		{"<http://x/a> <http://x/b> <c> .", turtle.Turtle, 1, 27, "not absolute"},
		{"<http://x/a> <http://x/b> << \"x\" <http://x/b> 1 >> .", turtle.Turtle, 1, 30, "the subject of a reified triple"},
		{"<<( <http://x/a> <http://x/b> 1 )>> <http://x/b> 1 .", turtle.Turtle, 1, 1, "may only be an object"},
		{"<http://x/a> <http://x/b> <<( <http://x/a> <http://x/b> ( 1 ) )>> .", turtle.Turtle, 1, 57, "collections are not allowed"},
		{"<http://x/a> <http://x/b> 1 {| |} .", turtle.Turtle, 1, 32, "a predicate in the annotation block"},
		{"<http://x/a> <http://x/b> << <http://x/a> <http://x/b> 1 ~ <http://x/r> .", turtle.Turtle, 1, 73, `">>" at the end of the reified triple`},
		{"<http://x/a> <http://x/b> \"\xff\" .", turtle.Turtle, 1, 27, "invalid UTF-8"},
	}
	for _, c := range cases {
		// Strict, so that term defects are errors too (see TestDefects).
		_, err := parseString(t, c.src, c.syntax, rdf.ReadOptions{File: "in.ttl", Strict: true})
		pe := perrtest.At(t, err, "in.ttl", c.line, c.col, c.msgContain, "%q", c.src)
		if pe == nil {
			continue
		}
		if want := byteOffset(c.src, c.line, c.col); pe.Offset != want {
			t.Errorf("%q: offset %d, want %d", c.src, pe.Offset, want)
		}
	}
}

// byteOffset returns the byte offset of a line and column (counting code
// points) of src.
func byteOffset(src string, line, col int) int64 {
	off := 0
	for range line - 1 {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	for range col - 1 {
		_, size := utf8.DecodeRuneInString(src[off:])
		off += size
	}
	return int64(off)
}

func TestParseTerms(t *testing.T) {
	src := `@base <http://example.org/dir/doc> .
@prefix : <http://example.org/ns#> .
PREFIX ex: <http://ex.org/>
:s :p 1, -2.5, +3e10, .5E-1, true, false, "plain", 'single', """long
"quoted" text""", '''x''', "tag"@en-GB, "dir"@ar--rtl, "typed"^^ex:dt, "t2"^^<dt2> ;
   :q <rel>, <#frag>, <../up>, ex:a\.b\~c, ex:%41x, ex:. 
:s a :C ; ; .
`
	d, err := parseString(t, src, turtle.Turtle, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Expected output written by hand from the Turtle grammar.
	want := `<http://example.org/ns#s> <http://example.org/ns#p> "+3e10"^^<http://www.w3.org/2001/XMLSchema#double> .
<http://example.org/ns#s> <http://example.org/ns#p> "-2.5"^^<http://www.w3.org/2001/XMLSchema#decimal> .
<http://example.org/ns#s> <http://example.org/ns#p> ".5E-1"^^<http://www.w3.org/2001/XMLSchema#double> .
<http://example.org/ns#s> <http://example.org/ns#p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/ns#s> <http://example.org/ns#p> "dir"@ar--rtl .
<http://example.org/ns#s> <http://example.org/ns#p> "false"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<http://example.org/ns#s> <http://example.org/ns#p> "long\n\"quoted\" text" .
<http://example.org/ns#s> <http://example.org/ns#p> "plain" .
<http://example.org/ns#s> <http://example.org/ns#p> "single" .
<http://example.org/ns#s> <http://example.org/ns#p> "t2"^^<http://example.org/dir/dt2> .
<http://example.org/ns#s> <http://example.org/ns#p> "tag"@en-GB .
<http://example.org/ns#s> <http://example.org/ns#p> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<http://example.org/ns#s> <http://example.org/ns#p> "typed"^^<http://ex.org/dt> .
<http://example.org/ns#s> <http://example.org/ns#p> "x" .
<http://example.org/ns#s> <http://example.org/ns#q> <http://ex.org/> .
<http://example.org/ns#s> <http://example.org/ns#q> <http://ex.org/%41x> .
<http://example.org/ns#s> <http://example.org/ns#q> <http://ex.org/a.b~c> .
<http://example.org/ns#s> <http://example.org/ns#q> <http://example.org/dir/doc#frag> .
<http://example.org/ns#s> <http://example.org/ns#q> <http://example.org/dir/rel> .
<http://example.org/ns#s> <http://example.org/ns#q> <http://example.org/up> .
<http://example.org/ns#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#C> .
`
	if got := nquads(d); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestByteOrderMark(t *testing.T) {
	d, err := parseString(t, "\ufeff<http://x/a> <http://x/b> <http://x/c> .", turtle.Turtle, rdf.ReadOptions{})
	if err != nil || d.Len() != 1 {
		t.Errorf("BOM: %v, %d quads", err, d.Len())
	}
	_, err = parseString(t, "\ufeff<http://x/a> <http://x/b> <http://x/c>", turtle.Turtle, rdf.ReadOptions{})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Column != 39 {
		t.Errorf("column after a BOM: %v", err)
	}
}

func TestBlankNodeLabels(t *testing.T) {
	// Document labels never collide with generated ones, and TriG labels
	// are scoped to the whole document.
	src := `_:genid0 <http://x/p> [] .
_:b <http://x/p> ( _:b ) .
<http://x/g1> { _:b <http://x/q> _:genid1 }
<http://x/g2> { _:b <http://x/q> _:genid1 }`
	d, err := parseString(t, src, turtle.TriG, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]bool{}
	for _, q := range d.Quads() {
		for _, term := range []rdf.Term{q.S, q.O} {
			if term.IsBlank() {
				labels[term.Value] = true
			}
		}
	}
	// genid0 (document), [] (fresh), b, list cell, genid1 (document): 5 nodes.
	if len(labels) != 5 {
		t.Errorf("%d distinct blank nodes, want 5: %v", len(labels), labels)
	}
	if !labels["b"] || !labels["genidxgenid0"] || !labels["genidxgenid1"] {
		t.Errorf("labels %v", labels)
	}
}

type countSink struct {
	n   int
	err error
}

func (c *countSink) AddQuad(rdf.Quad) error {
	c.n++
	return c.err
}

// slowReader returns one byte per Read, to exercise buffer refills.
type slowReader struct{ s string }

func (r *slowReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}

func TestStreamingAndRefill(t *testing.T) {
	src := "@prefix ex: <http://example.org/> .\n" + strings.Repeat("ex:s ex:p \"v\\u00e9\", ex:o.b, 1.5e3, ( 1 [ ex:q ex:r ] ) .\n", 3000)
	whole, err := parseString(t, src, turtle.Turtle, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slow := rdf.NewDataset()
	if err := turtle.Parse(&slowReader{src}, turtle.Turtle, slow, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	// Per line: 3 shared triples (the string, ex:o.b, the double) and 5
	// new ones (the list head, 2 list cells of 2 triples... counted below).
	// Per line 1 (s p head) + 2*2 (cells) + 1 (bnode q r) = 6 new triples.
	if want := 3 + 3000*6; whole.Len() != want {
		t.Errorf("%d quads, want %d", whole.Len(), want)
	}
	if nquads(whole) != nquads(slow) {
		t.Fatalf("byte-at-a-time reader gave a different result (%d quads, whole input %d)", slow.Len(), whole.Len())
	}
	// The sink's error stops the parse at once.
	stop := errors.New("stop")
	cs := &countSink{err: stop}
	if err := turtle.Parse(strings.NewReader(src), turtle.Turtle, cs, rdf.ReadOptions{}); err != stop || cs.n != 1 {
		t.Errorf("sink error: got %v after %d quads", err, cs.n)
	}
}

func TestLimits(t *testing.T) {
	cases := []struct {
		name string
		src  string
		lim  rdf.Limits
	}{
		{"depth [", "<http://x/s> <http://x/p> " + strings.Repeat("[ <http://x/p> ", 50) + strings.Repeat("]", 50) + " .", rdf.Limits{MaxDepth: 10}},
		{"depth (", "<http://x/s> <http://x/p> " + strings.Repeat("( ", 50) + strings.Repeat(")", 50) + " .", rdf.Limits{MaxDepth: 10}},
		{"term", "<http://x/s> <http://x/p> \"" + strings.Repeat("x", 5000) + "\" .", rdf.Limits{MaxTermLength: 1000}},
		{"iri", "<http://x/s> <http://x/p> <http://x/" + strings.Repeat("x", 5000) + "> .", rdf.Limits{MaxTermLength: 1000}},
		{"number", "<http://x/s> <http://x/p> " + strings.Repeat("1", 5000) + " .", rdf.Limits{MaxTermLength: 1000}},
		{"lang", "<http://x/s> <http://x/p> \"x\"@" + strings.Repeat("a", 5000) + " .", rdf.Limits{MaxTermLength: 1000}},
		{"pname", "@prefix p: <http://x/> . p:" + strings.Repeat("a", 5000) + " p:p p:o .", rdf.Limits{MaxTermLength: 1000}},
		{"quads", strings.Repeat("<http://x/s> <http://x/p> <http://x/o> .\n", 20), rdf.Limits{MaxQuads: 10}},
		{"bytes", strings.Repeat("<http://x/s> <http://x/p> <http://x/o> .\n", 20000), rdf.Limits{MaxBytes: 100000}},
	}
	for _, c := range cases {
		_, err := parseString(t, c.src, turtle.Turtle, rdf.ReadOptions{Limits: c.lim})
		if _, ok := err.(*rdf.ParseError); !ok || !errors.Is(err, rdf.ErrLimit) {
			t.Errorf("%s: got %v, want a limit *rdf.ParseError", c.name, err)
		}
	}
	// Hostile nesting with default limits: an error, not a stack overflow.
	_, err := parseString(t, "<http://x/s> <http://x/p> "+strings.Repeat("[ <http://x/p> ", 100000), turtle.Turtle, rdf.ReadOptions{})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("deep nesting: %v", err)
	}
}

type prefixSink struct {
	rdf.Dataset
	names []string
}

func (p *prefixSink) AddPrefix(name, iri string) { p.names = append(p.names, name+"="+iri) }

func TestPrefixSinkAndWarnings(t *testing.T) {
	ps := &prefixSink{Dataset: *rdf.NewDataset()}
	src := "@prefix a: <http://a/> .\nPREFIX : <http://e/>\n:x a:y <rel> ."
	var warns []*rdf.ParseError
	err := turtle.Parse(strings.NewReader(src), turtle.Turtle, ps, rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warns = append(warns, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ps.names, " ") != "a=http://a/ =http://e/" {
		t.Errorf("prefixes %v", ps.names)
	}
	if len(warns) != 1 || warns[0].Line != 3 || warns[0].Column != 8 || !strings.Contains(warns[0].Msg, `IRI "rel" is not absolute`) {
		t.Errorf("warnings %v", warns)
	}
	if _, err := parseString(t, src, turtle.Turtle, rdf.ReadOptions{Strict: true}); err == nil {
		t.Error("Strict: relative IRI without base accepted")
	}
}

// TestDefects checks the reader policy of package rdf on Turtle: a term the
// grammar allows but RDF does not is kept, with one warning at its
// position (TestParseErrors checks that Strict makes each an error). The
// escapes giving '{' and ' ' were errors before, though the other readers
// kept the same IRIs and the writers wrote them.
func TestDefects(t *testing.T) {
	const sp = "<http://x/s> <http://x/p> "
	for _, tc := range []struct {
		src  string
		want rdf.Term
		col  int // 0: no warning
	}{
		{sp + `<https://example.com/?s=\u007Bsearch_term_string\u007D> .`, rdf.NewIRI("https://example.com/?s={search_term_string}"), 27},
		{sp + `<http://x/a\u0020b\u003C\u003E> .`, rdf.NewIRI("http://x/a b<>"), 27},
		{sp + `"x"@zh-classical .`, rdf.NewLangString("x", "zh-classical"), 31},
		{sp + `"x"@be-x-old .`, rdf.NewLangString("x", "be-x-old"), 0},
		{sp + `"x"@en-US .`, rdf.NewLangString("x", "en-US"), 0},
		{sp + `"\uD83D\uDE00" .`, rdf.NewString("😀"), 28},
	} {
		var warns []*rdf.ParseError
		d, err := parseString(t, tc.src, turtle.Turtle, rdf.ReadOptions{File: "w.ttl", Warn: func(e *rdf.ParseError) { warns = append(warns, e) }})
		if err != nil || d.Len() != 1 || d.Quads()[0].O != tc.want {
			t.Errorf("%s: got %v, %v; want the object %v", tc.src, nquads(d), err, tc.want)
			continue
		}
		switch {
		case tc.col == 0 && len(warns) > 0:
			t.Errorf("%s: unexpected warnings %v", tc.src, warns)
		case tc.col > 0 && (len(warns) != 1 || warns[0].Line != 1 || warns[0].Column != tc.col || warns[0].Offset != int64(tc.col-1)):
			t.Errorf("%s: warnings %v, want one at 1:%d", tc.src, warns, tc.col)
		}
	}
}

// TestErrorOffsetLargeInput checks the byte offset of errors after the
// reader has refilled and shifted its buffer many times.
func TestErrorOffsetLargeInput(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 300<<10; i++ {
		b.WriteString("<http://x/s> <http://x/p> \"ünïcödé ")
		b.WriteString(strings.Repeat("x", i%97))
		b.WriteString("\" .\n")
	}
	lines := strings.Count(b.String(), "\n")
	for _, tail := range []string{
		"<http://x/s> <http://x/p> <http://x/o> <http://x/bad> .",
		"<http://x/s> <http://x/p> \"x\"@zh-classical .",
		"<http://x/s> <http://x/p> <http://x/" + strings.Repeat("y", 200<<10) + "\\u007B> .",
	} {
		src := b.String() + tail
		_, err := parseString(t, src, turtle.Turtle, rdf.ReadOptions{Strict: true})
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("got %v, want a ParseError", err)
		}
		if pe.Line != lines+1 || pe.Offset != byteOffset(src, pe.Line, pe.Column) {
			t.Errorf("%.60s: line %d col %d offset %d, want line %d and offset %d", tail, pe.Line, pe.Column, pe.Offset, lines+1, byteOffset(src, pe.Line, pe.Column))
		}
	}
}
