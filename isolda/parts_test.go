package isolda

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf/canon"
)

const partsGraph = `@prefix s: <http://schema.org/> .
@prefix ex: <http://example.org/> .
ex:alice a s:Person ; s:name "Alice" ; s:knows ex:bob ; s:age 41 .
ex:bob a s:Person ; s:name "Bob" ; s:address [ a s:PostalAddress ; s:addressLocality "Lyon" ] .
`

// TestEncodeParts checks, for every version, that the glossary and the
// body EncodeParts returns are the document Encode writes, and that the
// body decodes alone to the same graph.
func TestEncodeParts(t *testing.T) {
	d := readTurtle(t, partsGraph, "")
	for _, v := range versions {
		for i, g := range []string{GlossaryFull, GlossaryLegend, GlossaryNone, GlossaryFull} {
			opts := Options{Version: v, Glossary: g}
			if i == 3 {
				opts.Anchor = "http://example.org/bob" // an anchor line: in the glossary, in 0.4 in the body
			}
			doc := encodeString(t, d, opts)
			p, err := EncodeParts(d, opts)
			if err != nil {
				t.Fatalf("%s %s: %v", v, g, err)
			}
			want := p.Body
			if g != GlossaryNone {
				first, rest, _ := strings.Cut(p.Body, "\n")
				if first != "@isolda "+v {
					t.Errorf("%s %s: body starts with %q, want @isolda %s", v, g, first, v)
				}
				want = p.Glossary + "\n" + rest
			} else if p.Glossary != "" {
				t.Errorf("%s none: glossary %q", v, p.Glossary)
			}
			if want != doc {
				t.Errorf("%s %s: glossary + body\n%s\nwant the document\n%s", v, g, want, doc)
			}
			got, err := Decode(strings.NewReader(p.Body))
			if err != nil {
				t.Fatalf("%s %s: decode body alone: %v\n%s", v, g, err, p.Body)
			}
			if iso, err := canon.Isomorphic(d, got); err != nil || !iso {
				t.Errorf("%s %s: body alone decodes to another graph (%v)\n%s", v, g, err, p.Body)
			}
		}
	}
}

// TestGlossary04Cacheable checks that the 0.4 glossary depends only on the
// constructs the body uses: two graphs with different data and the same
// constructs get the same glossary bytes, written by hand here from the
// entries of SPEC.md section 17.8.
func TestGlossary04Cacheable(t *testing.T) {
	other := `@prefix s: <http://schema.org/> .
@prefix ex: <http://example.org/> .
ex:o1 a s:Organization ; s:name "Acme Corp" ; s:foundingDate 1999 ; s:member ex:o2 .
ex:o2 a s:Organization ; s:name "Beta" ; s:location [ a s:Place ; s:name "Nantes" ] .
`
	// Both bodies have a table with an @iri column, continuation lines,
	// a link, an entity in place and an int column; nothing else.
	want := "# ISOLDA 0.4: RDF as text; bare names are @vocab terms.\n" +
		"# T[N]{a, b}: N entities of class T, a row each, id first.\n" +
		"# @iri: IRI; none: blank node.\n" +
		"# p>: values are entity ids.\n" +
		"# T{p: v}: an entity of class T.\n" +
		"# p:int, p:iri: type of p's values.\n" +
		"# Indented p: v: one more property of the row above.\n"
	var glosses []string
	for _, text := range []string{partsGraph, other} {
		p, err := EncodeParts(readTurtle(t, text, ""), Options{Version: V04})
		if err != nil {
			t.Fatal(err)
		}
		if p.Glossary != want {
			t.Errorf("glossary\n%s\nwant\n%s\nbody:\n%s", p.Glossary, want, p.Body)
		}
		glosses = append(glosses, p.Glossary)
	}
	if glosses[0] != glosses[1] {
		t.Errorf("same constructs, different glossaries")
	}
}
