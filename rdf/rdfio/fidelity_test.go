package rdfio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestFidelityRegressions converts documents that isolda read but then wrote
// in a form it refused or read back changed (each failed before the reader
// policy, the tag case and the writer fixes): every output must read back
// isomorphic, tags as written.
func TestFidelityRegressions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		from   Format
		src    string
		to     []string
		quads  int    // expected number of quads read
		tag    string // a language tag that must survive as written
		warned bool   // whether reading the source warns
	}{
		{
			name: "schema.org SearchAction target from HTML",
			from: HTML,
			src: `<html><head><script type="application/ld+json">{"@context": {"@vocab": "http://schema.org/"},
				"@type": "WebSite", "@id": "https://example.com/",
				"potentialAction": {"@type": "SearchAction", "target": {"@id": "https://example.com/?s={search_term_string}"}}}
				</script></head></html>`,
			to:     []string{"nquads", "ntriples", "turtle", "trig", "rdfxml", "jsonld"},
			quads:  4,
			warned: true,
		},
		{
			name:   "Wikidata labels tagged zh-classical and be-x-old",
			from:   Turtle,
			src:    `<http://www.wikidata.org/entity/Q1> <http://www.w3.org/2000/01/rdf-schema#label> "宇宙"@zh-classical, "Сусьвет"@be-x-old, "universe"@en-GB .`,
			to:     []string{"nquads", "ntriples", "turtle", "trig", "rdfxml", "jsonld"},
			quads:  3,
			tag:    "en-GB",
			warned: true,
		},
		{
			name:  "tags keep their case",
			from:  Turtle,
			src:   `<http://example.org/s> <http://example.org/p> "colour"@en-GB, "color"@en-US, "x"@EN .`,
			to:    []string{"nquads", "ntriples", "turtle", "trig", "rdfxml", "jsonld"},
			quads: 3,
			tag:   "en-US",
		},
		{
			name:  "JSON-LD keeps the case of @language",
			from:  JSONLD,
			src:   `{"@id": "http://example.org/s", "http://example.org/p": {"@value": "colour", "@language": "en-GB"}}`,
			to:    []string{"nquads", "turtle", "rdfxml", "jsonld"},
			quads: 1,
			tag:   "en-GB",
		},
		{
			name: "an rdf:nodeID that is not a Turtle label",
			from: RDFXML,
			src: `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
				<rdf:Description rdf:nodeID="a."><ex:p rdf:nodeID="a."/></rdf:Description></rdf:RDF>`,
			to:    []string{"nquads", "ntriples", "turtle", "trig", "jsonld"},
			quads: 1,
		},
		{
			name:  "an absolute IRI with dot segments",
			from:  NQuads,
			src:   `<http://a/bb/ccc/./d;p?y> <http://example.org/p> <http://a/bb/../g> .`,
			to:    []string{"turtle", "trig", "rdfxml", "jsonld"},
			quads: 1,
		},
		{
			name:  "a Turtle prefix name that encoding/xml refuses",
			from:  Turtle,
			src:   "@prefix a·̀ͯ‿.⁀: <http://a.example/> .\na·̀ͯ‿.⁀:s a·̀ͯ‿.⁀:p a·̀ͯ‿.⁀:o .",
			to:    []string{"rdfxml"},
			quads: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			warnings := 0
			opts := Options{Format: tc.from, ReadOptions: rdf.ReadOptions{File: "src", Base: "http://example.org/", Warn: func(*rdf.ParseError) { warnings++ }}}
			d, err := Read(strings.NewReader(tc.src), opts)
			if err != nil {
				t.Fatal(err)
			}
			if d.Len() != tc.quads || (warnings > 0) != tc.warned {
				t.Fatalf("read %d quads with %d warnings, want %d quads, warnings %v", d.Len(), warnings, tc.quads, tc.warned)
			}
			for _, to := range tc.to {
				var buf bytes.Buffer
				if err := Write(&buf, d, to, WriteOptions{}); err != nil {
					t.Fatalf("write %s: %v", to, err)
				}
				f, _ := ParseFormat(to)
				back, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: f, ReadOptions: rdf.ReadOptions{File: "out." + to}})
				if err != nil {
					t.Fatalf("%s refuses the %s writer's output: %v\n%s", to, to, err, buf.String())
				}
				if ok, err := canon.Isomorphic(d, back); err != nil || !ok {
					t.Fatalf("%s: read back a different graph (%v):\n%s", to, err, buf.String())
				}
				if tc.tag != "" && !hasTag(back, tc.tag) {
					t.Errorf("%s: the tag %s lost its case:\n%s", to, tc.tag, buf.String())
				}
			}
		})
	}
}

func hasTag(d *rdf.Dataset, tag string) bool {
	for _, q := range d.Quads() {
		if q.O.Lang == tag {
			return true
		}
	}
	return false
}

// TestUnwritableTagDropped checks the policy for a language tag no RDF
// syntax can write ("en_US"): JSON-LD and RDF/XML drop the statement with a
// warning (Strict: an error) instead of keeping a literal that the
// N-Triples and Turtle writers would write and their readers refuse.
func TestUnwritableTagDropped(t *testing.T) {
	for _, tc := range []struct {
		from Format
		src  string
	}{
		{JSONLD, `{"@id": "http://example.org/s", "http://example.org/p": [{"@value": "x", "@language": "en_US"}, "kept"]}`},
		{RDFXML, `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
			<rdf:Description rdf:about="http://example.org/s"><ex:p xml:lang="en_US">x</ex:p><ex:p>kept</ex:p></rdf:Description></rdf:RDF>`},
	} {
		var warns []string
		d, err := Read(strings.NewReader(tc.src), Options{Format: tc.from, ReadOptions: rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warns = append(warns, e.Msg) }}})
		if err != nil || d.Len() != 1 || d.Quads()[0].O.Value != "kept" {
			t.Errorf("%s: got %v, %v; want only the untagged statement", tc.from, d, err)
		}
		if len(warns) != 1 || !strings.Contains(warns[0], `"en_US"`) {
			t.Errorf("%s: warnings %q", tc.from, warns)
		}
		if _, err := Read(strings.NewReader(tc.src), Options{Format: tc.from, ReadOptions: rdf.ReadOptions{Strict: true}}); err == nil {
			t.Errorf("%s: Strict accepted the tag", tc.from)
		}
	}
}

// TestJSONLDListUsedAsType writes a list whose first node is also the
// object of rdf:type (found by TestClosureHostile): the JSON-LD from-RDF
// algorithm does not count @type as a use of the node and folded it into an
// @list, so the @type named another node.
func TestJSONLDListUsedAsType(t *testing.T) {
	src := `<http://example.org/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> _:l .
_:x <http://example.org/p> _:l .
_:l <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "" .
_:l <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
`
	d, err := Read(strings.NewReader(src), Options{Format: NTriples})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d, "jsonld", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: JSONLD})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := canon.Isomorphic(d, back); err != nil || !ok {
		t.Errorf("read back a different graph (%v):\n%s", err, buf.String())
	}
}
