package rdfio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestTripleTermsThroughFormats reads RDF 1.2 Turtle and writes it in every
// writable format: the RDF 1.2 syntaxes read back to an isomorphic dataset
// (with the blank node shared between a triple term and the graph), as
// does RDF/XML; JSON-LD refuses it with an error naming triple terms.
func TestTripleTermsThroughFormats(t *testing.T) {
	src := `PREFIX : <http://example.org/>
_:b :name "Bob" .
:alice :knows _:b {| :since 2001 |} .
:x :says <<( _:b :age 42 )>> .
`
	d, err := Read(strings.NewReader(src), Options{Format: Turtle})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 5 {
		t.Fatalf("read %d quads, want 5", d.Len())
	}
	for _, f := range Writable() {
		var buf bytes.Buffer
		err := Write(&buf, d, string(f), WriteOptions{})
		switch f {
		case NTriples, NQuads, Turtle, TriG, RDFXML:
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			back, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: f})
			if err != nil {
				t.Errorf("%s: reading back: %v\n%s", f, err, buf.String())
				continue
			}
			if ok, err := canon.Isomorphic(d, back); err != nil || !ok {
				t.Errorf("%s: round trip differs (%v):\n%s", f, err, buf.String())
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "triple term") {
				t.Errorf("%s: got %v, want an error about triple terms", f, err)
			}
		}
	}
	if s := rdf.Summarize(d); s.TripleTerms != 2 || s.BlankNodes != 2 {
		t.Errorf("summary: %d triple terms, %d blank nodes; want 2 and 2", s.TripleTerms, s.BlankNodes)
	}
}
