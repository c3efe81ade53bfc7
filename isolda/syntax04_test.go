package isolda

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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
		filepath.Join("..", "testdata", "corpus", "wikidata-Q42-munged.ttl"),
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

// TestWikidataMunged04 checks the readability of a Wikidata entity in the
// Query Service's munged form (Douglas Adams, Q42: 113 sitelinks on 113
// Wikipedia and Wikiquote hosts, most of them named "Douglas Adams"):
// 0.4 derives prefix names and declares one only where it saves tokens, so
// no run of ns1, ns2... prefixes (SPEC.md section 17.3), and the item keeps
// its label as its id beside the sitelinks that share it (section 17.4).
// 0.2, whose prefixes come from the input's namespaces, is the control: on
// the same graph read from N-Quads it writes a numbered prefix per host and
// the slug douglas-adams, else the check would prove nothing.
func TestWikidataMunged04(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "wikidata-Q42-munged.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	d := readTurtle(t, string(src), "http://example.org/base/")
	var nq bytes.Buffer
	if err := rdfio.Write(&nq, d, "nquads", rdfio.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fromNQ, err := rdfio.Read(&nq, rdfio.Options{Format: "nquads"})
	if err != nil {
		t.Fatal(err)
	}
	numbered := regexp.MustCompile(`(?m)^@prefix ns[0-9]+:`)
	q42Row := regexp.MustCompile(`(?m)^ *Douglas Adams, wd:Q42(,|$)`)
	doc := encodeString(t, fromNQ, Options{})
	if n := len(numbered.FindAllString(doc, -1)); n > 0 {
		t.Errorf("0.4: %d numbered prefixes ns1, ns2...", n)
	}
	if n := strings.Count(doc, "\n@prefix "); n > 30 {
		t.Errorf("0.4: %d @prefix lines, want at most 30 (the sitelink hosts are used once each)", n)
	}
	if !q42Row.MatchString(doc) {
		t.Errorf("0.4: no row \"Douglas Adams, wd:Q42\": Q42 does not keep its label as id")
	}
	doc02 := encodeString(t, fromNQ, Options{Version: V02})
	if n := len(numbered.FindAllString(doc02, -1)); n < 100 || q42Row.MatchString(doc02) {
		t.Errorf("control: 0.2 wrote %d numbered prefixes (want 100 or more) and label id %v (want false)", n, q42Row.MatchString(doc02))
	}
}
