package formats_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testgraph"
	"github.com/isolda/isolda/rdf"
)

// hostileDataset and shuffled come from internal/testgraph, shared with
// the baseline package's tests.
func hostileDataset(seed uint64, named bool) *rdf.Dataset { return testgraph.Hostile(seed, named) }

func shuffled(d *rdf.Dataset, seed uint64, rename bool) *rdf.Dataset {
	return testgraph.Shuffled(d, seed, rename)
}

// hostileGraph generates a labelled graph directly, with what the graph
// formats find hard: identifiers with '|', tabs, newlines, backslashes,
// quotes, arrows, commas and Unicode; duplicate node ids; orphan edges;
// self-loops; and relations whose direction matters.
func hostileGraph(seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 11))
	ids := []string{"a|b", "tab\there", "new\nline", `back\slash`, `qu"ote`, "x->y", "c,d", "ünï☃", "plain",
		"sp ace", "#hash", "E|x|y|z", "N", "", "[x]", "{y}"}
	g := &graph.Graph{Directed: true}
	n := 3 + r.IntN(len(ids)-3)
	for i := range n {
		node := graph.Node{ID: ids[(i+int(seed))%len(ids)], Label: ids[r.IntN(len(ids))]}
		if r.IntN(2) == 0 {
			node.Types = []string{[]string{"T|1", "Type two", "ex:Class"}[r.IntN(3)]}
		}
		g.Nodes = append(g.Nodes, node)
	}
	if r.IntN(2) == 0 {
		g.Nodes = append(g.Nodes, g.Nodes[0]) // duplicate id
	}
	for range 2 + r.IntN(12) {
		from := g.Nodes[r.IntN(len(g.Nodes))].ID
		to := g.Nodes[r.IntN(len(g.Nodes))].ID
		switch r.IntN(5) {
		case 0:
			to = from // self-loop
		case 1:
			to = "orphan|" + fmt.Sprint(r.IntN(3)) // no node record
		}
		g.Edges = append(g.Edges, graph.Edge{From: from, To: to, Type: []string{"parentOf", "child,of", "a->b", "r|s"}[r.IntN(4)]})
	}
	return g
}
