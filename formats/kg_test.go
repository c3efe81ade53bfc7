package formats_test

import (
	"fmt"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
)

// ToKG names entities by label (by id when unlabelled) and relations by edge
// type; list_of_edges then writes the benchmark's "(head, relation, tail)"
// lines (../shared/data/kgllmbench/format_examples.txt).
func TestToKGListOfEdges(t *testing.T) {
	d := rdf.NewDataset()
	s := "http://schema.org/"
	be, lu, eur := rdf.NewIRI("http://example.org/be"), rdf.NewIRI("http://example.org/lu"), rdf.NewIRI("http://example.org/eur")
	d.AddTriple(be, rdf.NewIRI(s+"name"), rdf.NewString("Belgium"))
	d.AddTriple(lu, rdf.NewIRI(s+"name"), rdf.NewString("Luxembourg"))
	d.AddTriple(be, rdf.NewIRI(s+"containsPlace"), lu)
	d.AddTriple(lu, rdf.NewIRI(s+"currency"), eur)
	d.AddTriple(lu, rdf.NewIRI(s+"birthDate"), rdf.NewLiteral("1990-05-17", rdf.XSD+"date"))
	in := formats.NewInput(d)
	g := in.Graph()
	kg := in.KG()
	if len(kg.Entities) != len(g.Nodes) || len(kg.Edges) != len(g.Edges) || len(kg.Relations) != 2 {
		t.Fatalf("KG has %d entities, %d relations, %d edges; graph %d nodes, %d edges",
			len(kg.Entities), len(kg.Relations), len(kg.Edges), len(g.Nodes), len(g.Edges))
	}
	var eurID string
	for _, n := range g.Nodes {
		if n.Label == "" {
			eurID = n.ID
		}
	}
	var containsType, currencyType string
	for _, e := range g.Edges {
		switch e.To {
		case eurID:
			currencyType = e.Type
		default:
			containsType = e.Type
		}
	}
	want := "Edges: [\n(Belgium, " + containsType + ", Luxembourg),\n(Luxembourg, " + currencyType + ", " + eurID + ")\n]"
	got, err := formats.EncodeString("list_of_edges", in)
	if err != nil {
		t.Fatal(err)
	}
	if got != want && got != want+"\n" {
		t.Errorf("list_of_edges:\n%s\nwant:\n%s", got, want)
	}
}

// The views of an Input are derived once, also under concurrent use.
func TestInputConcurrent(t *testing.T) {
	in := formats.NewInput(testgraph.Hostile(5, true))
	names := []string{"list_of_edges", "pretty_json", "onto_turtle", "mermaid", "b-ttl", "isolda"}
	want := map[string]string{}
	for _, name := range names {
		s, err := formats.EncodeString(name, formats.NewInput(in.Dataset))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = s
	}
	done := make(chan error, len(names))
	for _, name := range names {
		go func() {
			s, err := formats.EncodeString(name, in)
			if err == nil && s != want[name] {
				err = fmt.Errorf("%s: different output under concurrency", name)
			}
			done <- err
		}()
	}
	for range names {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	g, kg, o := in.Graph(), in.KG(), in.Ontology()
	if g != in.Graph() || kg != in.KG() || o != in.Ontology() {
		t.Error("a view is derived more than once")
	}
}
