package formats_test

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestTripleTermsNotDropped checks every format with a dataset holding an
// RDF 1.2 triple term: each either writes it as a triple term (the RDF 1.2
// syntaxes) or fails with an error naming it; none drops it silently.
func TestTripleTermsNotDropped(t *testing.T) {
	ex := "http://example.org/"
	d := rdf.NewDataset()
	alice := rdf.NewIRI(ex + "alice")
	d.AddTriple(alice, rdf.NewIRI(rdf.RDFType), rdf.NewIRI(ex+"Person"))
	d.AddTriple(alice, rdf.NewIRI(ex+"name"), rdf.NewString("Alice"))
	tt := rdf.NewTripleTerm(alice, rdf.NewIRI(ex+"age"), rdf.NewLiteral("42", rdf.XSDInteger))
	d.AddTriple(rdf.NewIRI(ex+"claim"), rdf.NewIRI(rdf.RDFReifies), tt)
	const written = `<<( <http://example.org/alice> <http://example.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> )>>`
	for _, f := range formats.All() {
		out, err := formats.EncodeString(f.Name, formats.NewInput(d))
		switch f.Name {
		case "ntriples", "nquads":
			if err != nil || !strings.Contains(out, written) {
				t.Errorf("%s: got %v, want the triple term written:\n%s", f.Name, err, out)
			}
		case "turtle", "trig", "rdfxml":
			// Written as a triple term, or (Turtle, TriG) as the reified
			// triple << s p o ~ r >>; either way it must read back as the
			// same dataset.
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			back, err := f.Decode(strings.NewReader(out))
			same := false
			if err == nil {
				same, err = canon.Isomorphic(back, d)
			}
			if err != nil || !same {
				t.Errorf("%s: does not read back as the dataset (%v):\n%s", f.Name, err, out)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "triple term") || !strings.Contains(err.Error(), "http://example.org/age") {
				t.Errorf("%s: got %v, want an error naming the triple term", f.Name, err)
			}
		}
	}
}
