package turtle_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

func ntDataset(t *testing.T, quads ...rdf.Quad) *rdf.Dataset {
	t.Helper()
	d := rdf.NewDataset()
	for _, q := range quads {
		d.Add(q)
	}
	return d
}

func iri(s string) rdf.Term   { return rdf.NewIRI("http://ex.org/" + s) }
func bnode(s string) rdf.Term { return rdf.NewBlank(s) }

// TestWriteExpected compares the writer's output with text written by hand.
func TestWriteExpected(t *testing.T) {
	d := ntDataset(t,
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("1", rdf.XSDInteger)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("01.50", rdf.XSDDecimal)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("1e3", rdf.XSDDouble)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("INF", rdf.XSDDouble)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("1.", rdf.XSDDecimal)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("true", rdf.XSDBoolean)},
		rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLiteral("1", rdf.XSDBoolean)},
		rdf.Quad{S: iri("b"), P: rdf.NewIRI(rdf.RDFType), O: iri("T")},
		rdf.Quad{S: iri("a"), P: iri("q"), O: rdf.NewString("line1\nline \"2\"\"")},
		rdf.Quad{S: iri("a"), P: iri("q"), O: rdf.NewString("tab\there \\ \"q\"")},
		rdf.Quad{S: iri("a"), P: iri("q"), O: rdf.NewLangString("chat", "fr")},
		rdf.Quad{S: iri("a"), P: iri("r"), O: bnode("x")},
		rdf.Quad{S: bnode("x"), P: iri("p"), O: rdf.NewString("nested")},
		rdf.Quad{S: iri("a"), P: iri("list"), O: bnode("l1")},
		rdf.Quad{S: bnode("l1"), P: rdf.NewIRI(rdf.RDFFirst), O: iri("one")},
		rdf.Quad{S: bnode("l1"), P: rdf.NewIRI(rdf.RDFRest), O: bnode("l2")},
		rdf.Quad{S: bnode("l2"), P: rdf.NewIRI(rdf.RDFFirst), O: rdf.NewLiteral("2", rdf.XSDInteger)},
		rdf.Quad{S: bnode("l2"), P: rdf.NewIRI(rdf.RDFRest), O: rdf.NewIRI(rdf.RDFNil)},
		rdf.Quad{S: iri("a"), P: iri("empty"), O: rdf.NewIRI(rdf.RDFNil)},
		rdf.Quad{S: iri("a"), P: iri("s"), O: rdf.NewIRI("http://ex.org/has%20space")},
		rdf.Quad{S: iri("a"), P: iri("s"), O: iri("-x.")},
		rdf.Quad{S: iri("a"), P: iri("s"), O: iri("a/b")},
		rdf.Quad{S: iri("a"), P: iri("s"), O: rdf.NewLiteral("d", "http://www.w3.org/2001/XMLSchema#date")},
		rdf.Quad{S: bnode("shared"), P: iri("p"), O: iri("o")},
		rdf.Quad{S: iri("c"), P: iri("p"), O: bnode("shared")},
		rdf.Quad{S: iri("d"), P: iri("p"), O: bnode("shared")},
		rdf.Quad{S: bnode("loose"), P: iri("p"), O: iri("o")},
	)
	d.AddPrefix("ex", "http://ex.org/")
	d.AddPrefix("unused", "http://unused.org/")
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, turtle.Turtle, turtle.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `@prefix ex: <http://ex.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

ex:a ex:empty () ;
    ex:list ( ex:one 2 ) ;
    ex:q "chat"@fr, """line1
line "2\"\"""", "tab\there \\ \"q\"" ;
    ex:r [ ex:p "nested" ] ;
    ex:s ex:\-x\., <http://ex.org/a/b>, ex:has%20space, "d"^^xsd:date .

ex:b a ex:T ;
    ex:p 01.50, "1"^^xsd:boolean, 1, "1."^^xsd:decimal, 1e3, "INF"^^xsd:double, true .

ex:c ex:p _:shared .

ex:d ex:p _:shared .

[] ex:p ex:o .

_:shared ex:p ex:o .
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if msg := roundTrip(d, turtle.Turtle); msg != "" {
		t.Error(msg)
	}
}

// TestWriteInvalidIRI checks that an invalid IRI kept from messy data is
// written with \u escapes, so that the output reads back (with a warning)
// into the same IRI; percent-encoding gave another IRI.
func TestWriteInvalidIRI(t *testing.T) {
	d := ntDataset(t, rdf.Quad{S: iri("s"), P: iri("p"), O: rdf.NewIRI("http://x/{search term}")})
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, turtle.Turtle, turtle.WriteOptions{Prefixes: []rdf.Prefix{}}); err != nil {
		t.Fatal(err)
	}
	if want := `<http://ex.org/s> <http://ex.org/p> <http://x/\u007Bsearch\u0020term\u007D> .` + "\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if msg := roundTrip(d, turtle.Turtle); msg != "" {
		t.Error(msg)
	}
}

func TestWriteTriG(t *testing.T) {
	d := ntDataset(t,
		rdf.Quad{S: iri("s"), P: iri("p"), O: iri("o"), G: iri("g2")},
		rdf.Quad{S: iri("s"), P: iri("p"), O: iri("o")},
		rdf.Quad{S: iri("s"), P: iri("p"), O: bnode("b"), G: iri("g1")},
		rdf.Quad{S: bnode("b"), P: iri("p"), O: iri("o"), G: bnode("g")},
		rdf.Quad{S: iri("s"), P: iri("p"), O: bnode("c"), G: bnode("g")},
	)
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, turtle.TriG, turtle.WriteOptions{Prefixes: []rdf.Prefix{{Name: "", IRI: "http://ex.org/"}}}); err != nil {
		t.Fatal(err)
	}
	// _:b is in two graphs, so it keeps its label; _:c is nested as [].
	want := `@prefix : <http://ex.org/> .

:s :p :o .

GRAPH :g1 {
    :s :p _:b .
}

GRAPH :g2 {
    :s :p :o .
}

GRAPH _:g {
    :s :p [] .

    _:b :p :o .
}
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if msg := roundTrip(d, turtle.TriG); msg != "" {
		t.Error(msg)
	}
	if err := turtle.Write(&buf, d, turtle.Turtle, turtle.WriteOptions{}); !errors.Is(err, turtle.ErrNamedGraphs) {
		t.Errorf("Turtle with named graphs: %v", err)
	}
}

func TestWriteBaseAndCycles(t *testing.T) {
	d := ntDataset(t,
		rdf.Quad{S: rdf.NewIRI("http://ex.org/dir/a"), P: rdf.NewIRI("http://ex.org/dir/p"), O: rdf.NewIRI("http://ex.org/dir/doc")},
		rdf.Quad{S: rdf.NewIRI("http://ex.org/dir/doc#f"), P: rdf.NewIRI("http://ex.org/dir/p"), O: bnode("x")},
		// A cycle of blank nodes each used once as an object.
		rdf.Quad{S: bnode("x"), P: rdf.NewIRI("http://ex.org/dir/p"), O: bnode("y")},
		rdf.Quad{S: bnode("y"), P: rdf.NewIRI("http://ex.org/dir/p"), O: bnode("z")},
		rdf.Quad{S: bnode("z"), P: rdf.NewIRI("http://ex.org/dir/p"), O: bnode("y")},
	)
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, turtle.Turtle, turtle.WriteOptions{Base: "http://ex.org/dir/doc", Prefixes: []rdf.Prefix{}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "@base <http://ex.org/dir/doc> .\n\n<a> <p> <doc> .\n\n<#f> <p>") {
		t.Errorf("got\n%s", buf.String())
	}
	if msg := roundTrip(d, turtle.Turtle); msg != "" {
		t.Error(msg)
	}
	back := rdf.NewDataset()
	if err := turtle.Parse(&buf, turtle.Turtle, back, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if back.Len() != d.Len() {
		t.Errorf("re-read %d quads, want %d", back.Len(), d.Len())
	}
}

// TestWriteDeterministic checks that the output does not depend on the
// insertion order of the quads.
func TestWriteDeterministic(t *testing.T) {
	src := `@prefix : <http://ex.org/> .
:a :p [ :q ( 1 2 [ :r :s ] ) ], _:x ; :t "x" .
_:x :u :v . :b :p _:x . GRAPH :g { :a :p :b , :c }`
	d, err := parseString(t, src, turtle.TriG, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	quads := d.Quads()
	rev := rdf.NewDataset()
	rev.Prefixes = d.Prefixes
	for i := len(quads) - 1; i >= 0; i-- {
		rev.Add(quads[i])
	}
	var a, b bytes.Buffer
	if err := turtle.Write(&a, d, turtle.TriG, turtle.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := turtle.Write(&b, rev, turtle.TriG, turtle.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("output depends on insertion order:\n%s\n---\n%s", a.String(), b.String())
	}
	if msg := roundTrip(d, turtle.TriG); msg != "" {
		t.Error(msg)
	}
}

// TestWriteDeepNesting checks that deep chains of blank nodes and nested
// lists are written with bounded nesting (so the output reads back within
// the default depth limit) and round-trip.
func TestWriteDeepNesting(t *testing.T) {
	var b strings.Builder
	b.WriteString("@prefix : <http://ex.org/> .\n:s :p ")
	for i := 0; i < 300; i++ {
		b.WriteString("[ :q ")
	}
	b.WriteString(":o")
	for i := 0; i < 300; i++ {
		b.WriteString(" ]")
	}
	b.WriteString(" .\n:s :list ")
	for i := 0; i < 200; i++ {
		b.WriteString("( 1 ")
	}
	for i := 0; i < 200; i++ {
		b.WriteString(")")
	}
	b.WriteString(" .\n")
	d, err := parseString(t, b.String(), turtle.Turtle, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := turtle.Write(&out, d, turtle.Turtle, turtle.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	depth, max := 0, 0
	for _, c := range out.String() {
		switch c {
		case '[', '(':
			depth++
			if depth > max {
				max = depth
			}
		case ']', ')':
			depth--
		}
	}
	if max > 64 {
		t.Errorf("output nests %d deep", max)
	}
	back := rdf.NewDataset()
	if err := turtle.Parse(&out, turtle.Turtle, back, rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: 100}}); err != nil {
		t.Fatal(err)
	}
	if msg := roundTrip(d, turtle.Turtle); msg != "" {
		t.Error(msg[:min(len(msg), 2000)])
	}
}
