package graph

import (
	"reflect"
	"testing"

	"github.com/isolda/isolda/rdf"
)

func TestFromRDF(t *testing.T) {
	const ex = "http://example.org/"
	d := rdf.NewDataset()
	d.AddPrefix("ex", ex)
	iri := func(s string) rdf.Term { return rdf.NewIRI(ex + s) }
	label := rdf.NewIRI(RDFSLabel)
	name := rdf.NewIRI("http://schema.org/name")
	typ := rdf.NewIRI(RDFType)
	add := func(s, p, o rdf.Term) { d.AddTriple(s, p, o) }
	add(iri("alice"), typ, rdf.NewIRI("http://schema.org/Person"))
	add(iri("alice"), typ, iri("Agent"))
	add(iri("alice"), name, rdf.NewString("Alice S."))
	add(iri("alice"), label, rdf.NewLangString("Alicia", "es"))
	add(iri("alice"), label, rdf.NewLangString("Alice", "en-GB"))
	add(iri("alice"), iri("knows"), iri("bob"))
	add(iri("alice"), iri("knows"), rdf.NewBlank("b0"))
	add(iri("alice"), iri("age"), rdf.NewLiteral("42", "http://www.w3.org/2001/XMLSchema#integer"))
	add(iri("bob"), name, rdf.NewString("Bob"))
	add(iri("bob"), name, rdf.NewString("Aardvark")) // same predicate: smallest lexical wins
	add(rdf.NewBlank("b0"), iri("knows"), iri("alice"))
	add(rdf.NewBlank("b0"), iri("path/with/slash"), rdf.NewIRI("http://other.example/x y"))
	// The same triple in a named graph is merged.
	d.Add(rdf.Quad{S: iri("alice"), P: iri("knows"), O: iri("bob"), G: iri("g1")})

	g := FromRDF(d, Options{})
	want := &Graph{
		Directed: true,
		Nodes: []Node{
			{ID: "_:b0"},
			{ID: "ex:alice", Label: "Alice", Types: []string{"ex:Agent", "schema:Person"}, Attrs: []Attr{
				{Key: "ex:age", Value: "42", Datatype: "xsd:integer"},
				{Key: "rdfs:label", Value: "Alice", Lang: "en-GB"},
				{Key: "rdfs:label", Value: "Alicia", Lang: "es"},
				{Key: "schema:name", Value: "Alice S."},
			}},
			{ID: "ex:bob", Label: "Aardvark", Attrs: []Attr{
				{Key: "schema:name", Value: "Aardvark"},
				{Key: "schema:name", Value: "Bob"},
			}},
			{ID: "http://other.example/x y"},
		},
		Edges: []Edge{
			{From: "_:b0", To: "ex:alice", Type: "ex:knows"},
			{From: "_:b0", To: "http://other.example/x y", Type: "http://example.org/path/with/slash"},
			{From: "ex:alice", To: "_:b0", Type: "ex:knows"},
			{From: "ex:alice", To: "ex:bob", Type: "ex:knows"},
		},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("FromRDF:\n got %+v\nwant %+v", g, want)
	}

	// The graph feeds the algorithms: alice reaches the far IRI in 2 hops.
	a := g.Adj()
	idx := g.Index()
	if got := a.Distance(idx["ex:alice"], idx["http://other.example/x y"]); got != 2 {
		t.Errorf("distance = %d, want 2", got)
	}

	// Undirected, with Spanish preferred and no common prefixes.
	g2 := FromRDF(d, Options{Undirected: true, Languages: []string{"es"}, NoCommonPrefixes: true})
	n, _ := g2.Node("ex:alice")
	if g2.Directed || n.Label != "Alicia" || n.Types[1] != "http://schema.org/Person" {
		t.Errorf("options not applied: directed=%v label=%q types=%v", g2.Directed, n.Label, n.Types)
	}
}

func TestFromRDFCollisions(t *testing.T) {
	// Two prefixes that compact different IRIs to the same id "a:x" cannot
	// happen, but an IRI whose text is itself "a:x" can collide with a
	// compacted one: both then keep their full IRI.
	d := rdf.NewDataset()
	d.AddPrefix("a", "http://a.example/")
	d.AddTriple(rdf.NewIRI("http://a.example/x"), rdf.NewIRI("http://a.example/p"), rdf.NewIRI("a:x"))
	g := FromRDF(d, Options{})
	var ids []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
	}
	if !reflect.DeepEqual(ids, []string{"a:x", "http://a.example/x"}) {
		t.Errorf("ids = %v", ids)
	}
	if len(g.Edges) != 1 || g.Edges[0].From != "http://a.example/x" || g.Edges[0].To != "a:x" {
		t.Errorf("edges = %v", g.Edges)
	}
}

// TestCompactor: the longest namespace that leaves a clean local name wins;
// the first prefix of a namespace or a name counts; no fit gives false.
func TestCompactor(t *testing.T) {
	c := NewCompactor(
		[]rdf.Prefix{{Name: "ex", IRI: "http://example.org/"}, {Name: "exv", IRI: "http://example.org/vocab#"}},
		[]rdf.Prefix{{Name: "ex", IRI: "http://other.org/"}, {Name: "dup", IRI: "http://example.org/"}, {Name: "empty", IRI: ""}},
	)
	for _, tc := range []struct {
		iri, want string
		ok        bool
	}{
		{"http://example.org/alice", "ex:alice", true},
		{"http://example.org/vocab#knows", "exv:knows", true},
		{"http://example.org/vocab#", "", false}, // empty local after exv; "vocab#" is not clean after ex
		{"http://example.org/a.b", "ex:a.b", true},
		{"http://example.org/a.", "", false},
		{"http://example.org/a/b", "", false},
		{"http://other.org/x", "", false}, // "ex" names example.org first
		{"http://example.org/été", "ex:été", true},
	} {
		got, ok := c.Compact(tc.iri)
		if tc.ok != ok || (ok && got != tc.want) {
			t.Errorf("Compact(%s) = %q, %v; want %q, %v", tc.iri, got, ok, tc.want, tc.ok)
		}
	}
}
