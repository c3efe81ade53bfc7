package ntriples

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestTripleTerms reads RDF 1.2 triple terms and checks their parts against
// terms built by hand, then writes them back in canonical form.
func TestTripleTerms(t *testing.T) {
	src := `_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<(_:b <http://example.org/p> "x\n"@EN--rtl)>> <http://example.org/g> .
<http://example.org/s> <http://example.org/p> <<( <http://example.org/a> <http://example.org/q> <<( _:b <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> )>> )>> .
`
	qs, err := parseAll(t, src, NQuads, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("got %d quads, want 2", len(qs))
	}
	s, p, o, err := qs[0].O.Triple()
	if err != nil {
		t.Fatal(err)
	}
	wantO := rdf.Term{Kind: rdf.LiteralKind, Value: "x\n", Datatype: rdf.RDFDirLangString, Lang: "en", Dir: "rtl"}
	if s != rdf.NewBlank("b") || p != iri("p") || !o.Equal(wantO) {
		t.Errorf("got parts %v %v %v", s, p, o)
	}
	if qs[1].O.Kind != rdf.TripleKind {
		t.Fatalf("object kind %v", qs[1].O.Kind)
	}
	_, _, inner, err := qs[1].O.Triple()
	if err != nil {
		t.Fatal(err)
	}
	is, ip, io, err := inner.Triple()
	if err != nil {
		t.Fatal(err)
	}
	if is != rdf.NewBlank("b") || ip != iri("p") || io != rdf.NewLiteral("1", rdf.XSDInteger) {
		t.Errorf("inner parts %v %v %v", is, ip, io)
	}
	var out bytes.Buffer
	w := NewWriter(&out, NQuads)
	for _, q := range qs {
		if err := w.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:b <http://example.org/p> "x\n"@en--rtl )>> <http://example.org/g> .
<http://example.org/s> <http://example.org/p> <<( <http://example.org/a> <http://example.org/q> <<( _:b <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> )>> )>> .
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestTripleTermLength checks that MaxTermLength bounds a triple term's
// canonical form.
func TestTripleTermLength(t *testing.T) {
	src := `<http://example.org/s> <http://example.org/p> <<( <http://example.org/a> <http://example.org/b> "` + strings.Repeat("x", 100) + `" )>> .`
	_, err := parseAll(t, src, NTriples, rdf.ReadOptions{Limits: rdf.Limits{MaxTermLength: 120}})
	checkPos(t, err, "", 1, 47, "term longer than 120 bytes")
}
