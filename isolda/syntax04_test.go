package isolda

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestSyntaxIndependence04 checks that a 0.4 document does not depend on
// the syntax its graph was read from (SPEC.md section 17.3): the graph is
// written in every RDF syntax that can hold it, each with its own prefix
// names or none, read back, and encoded; every encoding must be the same
// bytes. 0.2, whose prefix names come from the input, is the control: it
// must differ on at least one graph, else the check would prove nothing.
func TestSyntaxIndependence04(t *testing.T) {
	files := []string{
		filepath.Join("..", "examples", "wikidata-L691820-lexeme.ttl"),
		filepath.Join("..", "examples", "lod-datagovuk-reference-intervals.ttl"),
		filepath.Join("..", "testdata", "corpus", "skos-dpv-risk-levels.ttl"),
		filepath.Join("..", "testdata", "corpus", "nanopub-rohub-earth-science.trig"),
	}
	control := false
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := readTurtle(t, string(src), "http://example.org/base/")
		want := encodeString(t, d, Options{})
		var docs02 []string
		for _, syntax := range []string{"nquads", "trig", "jsonld", "rdfxml", "turtle"} {
			for _, prefixes := range [][]rdf.Prefix{nil, {{Name: "zz", IRI: "http://www.w3.org/2004/02/skos/core#"}, {Name: "w", IRI: "http://www.wikidata.org/entity/"}}} {
				var b bytes.Buffer
				if err := rdfio.Write(&b, d, syntax, rdfio.WriteOptions{Prefixes: prefixes}); err != nil {
					if strings.Contains(err.Error(), "named graph") {
						continue // Turtle and RDF/XML cannot hold named graphs
					}
					t.Fatalf("%s: write %s: %v", path, syntax, err)
				}
				back, err := rdfio.Read(&b, rdfio.Options{Format: rdfio.Format(syntax)})
				if err != nil {
					t.Fatalf("%s: read %s: %v", path, syntax, err)
				}
				if got := encodeString(t, back, Options{}); got != want {
					t.Errorf("%s read from %s (prefixes %v): the 0.4 document differs", filepath.Base(path), syntax, prefixes)
				}
				docs02 = append(docs02, encodeString(t, back, Options{Version: V02}))
			}
		}
		for _, doc := range docs02[1:] {
			control = control || doc != docs02[0]
		}
	}
	if !control {
		t.Errorf("0.2 gave the same bytes from every syntax: the check proves nothing")
	}
}
