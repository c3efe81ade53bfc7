package isoldatest

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
)

// TestEncode encodes one statement and finds its literal in the document,
// which decodes back to one statement.
func TestEncode(t *testing.T) {
	d := rdf.NewDataset()
	d.AddTriple(rdf.NewIRI("http://example.org/a"), rdf.NewIRI("http://schema.org/name"), rdf.NewLiteral("Ada Lovelace", ""))
	doc := Encode(t, d, isolda.Options{})
	if !strings.Contains(doc, "Ada Lovelace") {
		t.Errorf("document without the literal:\n%s", doc)
	}
	back, err := isolda.Decode(strings.NewReader(doc))
	if err != nil || back.Len() != 1 {
		t.Fatalf("decode: %v, %d statements", err, back.Len())
	}
}
