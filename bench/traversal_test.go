package bench

import (
	"reflect"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// smallGraph is a → b → c → d, x → c, a → _:k → d, with p everywhere but
// x -q-> c, plus a literal and an rdf:type statement (not edges).
func smallGraph() *rdf.Dataset {
	iri := func(s string) rdf.Term { return rdf.NewIRI("http://e/" + s) }
	p, q := iri("p"), iri("q")
	d := rdf.NewDataset()
	d.AddTriple(iri("a"), p, iri("b"))
	d.AddTriple(iri("b"), p, iri("c"))
	d.AddTriple(iri("c"), p, iri("d"))
	d.AddTriple(iri("x"), q, iri("c"))
	d.AddTriple(iri("a"), p, rdf.NewBlank("k"))
	d.AddTriple(rdf.NewBlank("k"), p, iri("d"))
	d.AddTriple(iri("a"), iri("name"), rdf.NewString("A"))
	d.AddTriple(iri("a"), rdf.NewIRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), iri("T"))
	return d
}

func TestQueriesAnswersByHand(t *testing.T) {
	e := func(s string) string { return "http://e/" + s }
	edges := datasetEdges(smallGraph())
	if len(edges) != 6 {
		t.Fatalf("%d edges, want 6 (literal and rdf:type statements are not edges)", len(edges))
	}
	a := newAdjacency(edges)
	cases := []struct {
		q    Query
		want []string
	}{
		// Two hops from a: b and _:k (hop 1), c and d (hop 2); the blank
		// node is traversed but not reported.
		{Query{Kind: QueryForward, Start: e("a"), Hops: 2}, []string{e("b"), e("c"), e("d")}},
		{Query{Kind: QueryForward, Start: e("a"), Hops: 1}, []string{e("b")}},
		{Query{Kind: QueryReverseEdge, Start: e("c"), Relation: e("p"), Hops: 1}, []string{e("b")}},
		{Query{Kind: QueryReverseEdge, Start: e("c"), Relation: e("q"), Hops: 1}, []string{e("x")}},
		// Nodes reaching d within two hops: c, _:k (1), b, x, a (2).
		{Query{Kind: QueryReverse, Start: e("d"), Hops: 2}, []string{e("a"), e("b"), e("c"), e("x")}},
	}
	for _, c := range cases {
		if got := a.answer(c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: got %v, want %v", c.q, got, c.want)
		}
	}
	qs := GenerateQueries(edges, 1)
	tr := func(s, p, o string) Triple {
		if s != "_:k" {
			s = e(s)
		}
		if o != "_:k" {
			o = e(o)
		}
		return Triple{s, e(p), o}
	}
	want := []Query{
		// a has the most outgoing edges (2). Gold path, worked out by
		// hand: a's edges in sorted order reach _:k ("_" sorts before
		// "h") and b; then _:k reaches d and b reaches c. The paths to
		// b, c and d use all four edges.
		{Kind: QueryForward, Start: e("a"), Hops: 2, Answer: []string{e("b"), e("c"), e("d")},
			GoldPath: []Triple{tr("_:k", "p", "d"), tr("a", "p", "_:k"), tr("a", "p", "b"), tr("b", "p", "c")}},
		// (p, d) has two subjects, c and _:k; only c is reported, and
		// its edge is the evidence.
		{Kind: QueryReverseEdge, Start: e("d"), Relation: e("p"), Hops: 1, Answer: []string{e("c")},
			GoldPath: []Triple{tr("c", "p", "d")}},
		// c and d have two incoming edges each; c comes first. b and x
		// reach c in one hop, a reaches b.
		{Kind: QueryReverse, Start: e("c"), Hops: 2, Answer: []string{e("a"), e("b"), e("x")},
			GoldPath: []Triple{tr("a", "p", "b"), tr("b", "p", "c"), tr("x", "q", "c")}},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("generated %+v\nwant %+v", qs, want)
	}
	if acc := Accuracy(qs, edges); acc != 1 {
		t.Errorf("accuracy on the same graph %v", acc)
	}
	// Relabelling the blank node changes nothing.
	d2 := rdf.NewDataset()
	for _, quad := range smallGraph().Quads() {
		if quad.S.IsBlank() {
			quad.S = rdf.NewBlank("other")
		}
		if quad.O.IsBlank() {
			quad.O = rdf.NewBlank("other")
		}
		d2.Add(quad)
	}
	if acc := Accuracy(qs, datasetEdges(d2)); acc != 1 {
		t.Errorf("accuracy after relabelling a blank node %v", acc)
	}
	// Collapsing q into p (relationship-type collapse) breaks the
	// reverse-edge query only if it asks for q; dropping x -q-> c breaks
	// the reverse query to c.
	var dropped []Triple
	for _, tr := range edges {
		if tr.S != e("x") {
			dropped = append(dropped, tr)
		}
	}
	if acc := Accuracy(qs, dropped); acc != 2.0/3 {
		t.Errorf("accuracy without x -q-> c: %v, want 2/3", acc)
	}
	if Accuracy(nil, nil) != 1 {
		t.Error("no queries: accuracy must be 1")
	}
}
