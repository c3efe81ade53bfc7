package turtle_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

// TestRDF12Expansion checks reifiers, annotation blocks, reified triples
// and triple terms against the expansion RDF 1.2 Turtle defines, written
// out by hand as N-Triples.
func TestRDF12Expansion(t *testing.T) {
	src := `PREFIX : <http://ex/>
VERSION "1.2"
:s :p :o ~:r1 {| :a 1 |} {| :b 2 |} ~ _:r3 .
<< :x :y <<( _:t :z "w"@en )>> ~ :r4 >> :c << _:t :q :v >> .
:m :n <<( [] :k :l )>> .
`
	want := `<http://ex/s> <http://ex/p> <http://ex/o> .
<http://ex/r1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .
<http://ex/r1> <http://ex/a> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
_:r2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .
_:r2 <http://ex/b> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .
_:r3 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .
<http://ex/r4> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://ex/x> <http://ex/y> <<( _:t <http://ex/z> "w"@en )>> )>> .
<http://ex/r4> <http://ex/c> _:r5 .
_:r5 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:t <http://ex/q> <http://ex/v> )>> .
<http://ex/m> <http://ex/n> <<( _:e <http://ex/k> <http://ex/l> )>> .
`
	got := rdf.NewDataset()
	if err := turtle.Parse(strings.NewReader(src), turtle.Turtle, got, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	exp := rdf.NewDataset()
	if err := ntriples.Parse(strings.NewReader(want), ntriples.NTriples, exp, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if ok, err := canon.Isomorphic(got, exp); err != nil || !ok {
		t.Errorf("not the expected expansion (%v):\n%s", err, nquads(got))
	}
	// The writer writes triple terms as <<( )>> and keeps the blank node
	// shared between a triple term and the rest of the graph.
	var buf bytes.Buffer
	if err := turtle.Write(&buf, got, turtle.Turtle, turtle.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<<( ") {
		t.Errorf("no triple term in the output:\n%s", buf.String())
	}
	back := rdf.NewDataset()
	if err := turtle.Parse(&buf, turtle.Turtle, back, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if ok, err := canon.Isomorphic(back, exp); err != nil || !ok {
		t.Errorf("round trip differs (%v):\n%s", err, nquads(back))
	}
}

// TestTripleTermNesting checks the nesting bound: rdf.MaxTripleTermNesting
// levels are read (and parse back with Term.Triple), one more is a limit
// error.
func TestTripleTermNesting(t *testing.T) {
	doc := func(n int) string {
		return "<http://x/s> <http://x/p> " + strings.Repeat("<<( <http://x/a> <http://x/b> ", n) + "1" + strings.Repeat(" )>>", n) + " ."
	}
	d := rdf.NewDataset()
	if err := turtle.Parse(strings.NewReader(doc(rdf.MaxTripleTermNesting)), turtle.Turtle, d, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	o := d.Quads()[0].O
	for i := 0; o.IsTriple(); i++ {
		_, _, inner, err := o.Triple()
		if err != nil {
			t.Fatalf("level %d: %v", i, err)
		}
		o = inner
	}
	err := turtle.Parse(strings.NewReader(doc(rdf.MaxTripleTermNesting+1)), turtle.Turtle, rdf.NewDataset(), rdf.ReadOptions{})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("got %v, want a limit error", err)
	}
}
