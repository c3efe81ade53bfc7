package rdfio

import "testing"

// TestByMediaType: the media types IANA registers for each syntax (RDF 1.1
// N-Triples, N-Quads, Turtle, TriG, RDF/XML and JSON-LD 1.1 name them) and
// the common unregistered ones SPARQL endpoints send find their syntax, in
// any case; written-only and unknown types find none, and neither does
// text/html: an HTML page from an endpoint is an error page, not a graph
// (HTML is read only when named).
func TestByMediaType(t *testing.T) {
	for mt, want := range map[string]Format{
		"application/n-triples": NTriples,
		"application/n-quads":   NQuads,
		"text/turtle":           Turtle,
		"Text/Turtle":           Turtle,
		"application/x-turtle":  Turtle,
		"application/trig":      TriG,
		"application/rdf+xml":   RDFXML,
		"application/ld+json":   JSONLD,
		"text/x-nquads":         NQuads,
	} {
		s, ok := ByMediaType(mt)
		if !ok || s.Name != want {
			t.Errorf("ByMediaType(%q) = %q, %v; want %q", mt, s.Name, ok, want)
		}
	}
	for _, mt := range []string{"text/html", "text/plain", "", "application/sparql-results+json"} {
		if s, ok := ByMediaType(mt); ok {
			t.Errorf("ByMediaType(%q) = %q; want none", mt, s.Name)
		}
	}
	for _, s := range Syntaxes() {
		if s.Read != nil && s.Name != HTML && len(s.MediaTypes) == 0 {
			t.Errorf("readable syntax %s has no media type", s.Name)
		}
	}
}
