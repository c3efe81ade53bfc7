package jsonld

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestWriteRefusesTripleTerms checks that a dataset with an RDF 1.2 triple
// term is refused with an error naming it, and nothing is written.
func TestWriteRefusesTripleTerms(t *testing.T) {
	d := rdf.NewDataset()
	ex := func(s string) rdf.Term { return rdf.NewIRI("http://example.org/" + s) }
	d.AddTriple(ex("a"), ex("p"), rdf.NewString("x"))
	d.AddTriple(rdf.NewBlank("r"), rdf.NewIRI(rdf.RDFReifies), rdf.NewTripleTerm(ex("a"), ex("p"), rdf.NewString("x")))
	for _, form := range []Form{Expanded, Compacted} {
		var buf bytes.Buffer
		err := Write(&buf, d, WriteOptions{Form: form})
		if !errors.Is(err, ErrTripleTerm) || !strings.Contains(err.Error(), `<<( <http://example.org/a> <http://example.org/p> "x" )>>`) {
			t.Errorf("%v: got %v, want ErrTripleTerm naming the term", form, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%v: wrote %q", form, buf.String())
		}
	}
}
