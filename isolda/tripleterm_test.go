package isolda

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestEncodeRefusesTripleTerms checks that a dataset with an RDF 1.2
// triple term is refused with an error naming it, and nothing is written.
func TestEncodeRefusesTripleTerms(t *testing.T) {
	d := rdf.NewDataset()
	s := rdf.NewIRI("http://example.org/s")
	p := rdf.NewIRI("http://example.org/p")
	d.AddTriple(s, p, rdf.NewString("x"))
	d.AddTriple(rdf.NewBlank("r"), rdf.NewIRI(rdf.RDFReifies), rdf.NewTripleTerm(s, p, rdf.NewString("x")))
	var buf bytes.Buffer
	err := Encode(&buf, d, Options{})
	if err == nil || !strings.Contains(err.Error(), `triple term <<( <http://example.org/s> <http://example.org/p> "x" )>>`) {
		t.Errorf("got %v, want an error naming the triple term", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
}
