package rdfxml

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestRDF12TripleTerms reads rdf:parseType="Triple" and annotations and
// compares with hand-written N-Triples 1.2; the writer writes the result
// back with rdf:parseType="Triple" and it reads back the same.
func TestRDF12TripleTerms(t *testing.T) {
	doc := `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://x/" rdf:version="1.2">
  <rdf:Description rdf:about="http://x/a">
    <ex:p rdf:parseType="Triple" rdf:annotationNodeID="n1">
      <rdf:Description rdf:nodeID="b"><ex:q xml:lang="EN">v</ex:q></rdf:Description>
    </ex:p>
    <ex:r rdf:annotation="http://x/ann" rdf:nodeID="b"/>
  </rdf:Description>
</rdf:RDF>`
	want := `<http://x/a> <http://x/p> <<( _:b <http://x/q> "v"@en )>> .
_:n1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <<( _:b <http://x/q> "v"@en )>> )>> .
<http://x/a> <http://x/r> _:b .
<http://x/ann> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/r> _:b )>> .
`
	got, err := parseString(t, doc, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, want))
	var buf bytes.Buffer
	if err := Write(&buf, got, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `rdf:version="1.2"`) || strings.Count(buf.String(), `rdf:parseType="Triple"`) != 4 {
		t.Errorf("expected rdf:version and four rdf:parseType=\"Triple\" elements:\n%s", buf.String())
	}
	back, err := parseString(t, buf.String(), rdf.ReadOptions{})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	assertIsomorphic(t, back, mustNT(t, want))
	// A triple term value not in canonical form is refused.
	bad := rdf.NewDataset()
	bad.AddTriple(rdf.NewIRI("http://x/a"), rdf.NewIRI("http://x/p"), rdf.Term{Kind: rdf.TripleKind, Value: "nonsense"})
	if err := Write(&buf, bad, WriteOptions{}); !errors.Is(err, ErrTripleTerm) {
		t.Errorf("malformed triple term: got %v, want ErrTripleTerm", err)
	}
}
