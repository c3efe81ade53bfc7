package isolda

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestAnglePrefixedTerms checks SPEC.md section 4 rule 4: in 0.1 and 0.2 a
// term in a declared namespace whose local part is not a LOCAL is written
// <pfx:rest>, an IRI that merely starts like one escapes its ':', and every
// version round-trips.
func TestAnglePrefixedTerms(t *testing.T) {
	d := readTurtle(t, `@prefix ex: <http://example.org/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://example.org/ns#1> a ex:Country ; rdfs:label "One" ; ex:member%20of <http://example.org/ns#2> ;
  <http://example.org/ns#a(b)> "x" ; <ex:foo> "scheme ex" ; ex:size "3"^^ex:my%20type ; ex:capital "C1" .
<http://example.org/ns#2> a ex:Country ; rdfs:label "Two" ; ex:member%20of <http://example.org/ns#1> ;
  ex:note "again" ; ex:capital "C2" ; ex:area "2" .
`, "")
	for _, c := range []struct {
		version string
		want    []string
		not     []string
	}{
		{V02, []string{"@prefix ex: http://example.org/ns#", "<ex:member%20of>>", "<ex:a(b)>", `<ex\u003afoo>`, ":<ex:my%20type>"}, []string{" ex:member%20of"}},
		{V03, []string{"ex:member%20of>", "<http://example.org/ns#a(b)>", "<ex:foo>"}, []string{"<ex:member", `\u003a`}},
	} {
		text, err, iso := roundTrip(t, d, Options{Version: c.version})
		if err != nil || !iso {
			t.Fatalf("%s: round trip: err %v, isomorphic %v\n%s", c.version, err, iso, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in\n%s", c.version, w, text)
			}
		}
		for _, w := range c.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: %q in\n%s", c.version, w, text)
			}
		}
	}
	for _, v := range []string{V01, V04} {
		if text, err, iso := roundTrip(t, d, Options{Version: v}); err != nil || !iso {
			t.Fatalf("%s: round trip: err %v, isomorphic %v\n%s", v, err, iso, text)
		}
	}
}

// TestDecodeAnglePrefixed checks how each version reads <ex:rest> with ex
// declared: 0.1 and 0.2 expand the prefix, 0.3 reads the IRI as written.
func TestDecodeAnglePrefixed(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{V01, "http://example.org/ns#member%20of"},
		{V02, "http://example.org/ns#member%20of"},
		{V03, "ex:member%20of"},
	} {
		doc := "@isolda " + c.version + "\n@vocab http://example.org/ns#\n@prefix ex: http://example.org/ns#\n\n" +
			"Country[1]{id, @iri, <ex:member%20of>>}:\n  a, ex:1, a\n"
		if c.version == V01 {
			doc = strings.Replace(doc, "ex:1", "http://example.org/ns#1", 1)
		}
		got, err := Decode(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", c.version, err)
		}
		var preds []string
		for _, q := range got.Quads() {
			if q.P.Value != rdf.RDFNS+"type" {
				preds = append(preds, q.P.Value)
			}
		}
		if len(preds) != 1 || preds[0] != c.want {
			t.Errorf("%s: predicates %q, want [%q]", c.version, preds, c.want)
		}
	}
}
