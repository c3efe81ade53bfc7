package graphrag

import (
	"strings"

	"github.com/isolda/isolda/graph"
)

// FromGraph converts a labelled graph (for instance graph.FromRDF's view of
// an RDF dataset) to node and edge records: a node's type is its types
// joined by spaces ("" when it has none), an edge's relation is its type.
// Labels and attributes are not carried.
func FromGraph(g *graph.Graph) Graph {
	out := Graph{Nodes: make([]Node, 0, len(g.Nodes)), Edges: make([]Edge, 0, len(g.Edges))}
	for _, n := range g.Nodes {
		out.Nodes = append(out.Nodes, Node{ID: n.ID, Type: strings.Join(n.Types, " ")})
	}
	for _, e := range g.Edges {
		out.Edges = append(out.Edges, Edge{Source: e.From, Relation: e.Type, Target: e.To})
	}
	return out
}

// ToGraph converts records to a directed labelled graph: a node's type
// becomes its single type (none when empty). Records are kept in order;
// duplicate node records are kept too, so Graph.Index resolves an id to
// its first record.
func ToGraph(g Graph) *graph.Graph {
	out := &graph.Graph{Directed: true}
	for _, n := range g.Nodes {
		var types []string
		if n.Type != "" {
			types = []string{n.Type}
		}
		out.Nodes = append(out.Nodes, graph.Node{ID: n.ID, Types: types})
	}
	for _, e := range g.Edges {
		out.Edges = append(out.Edges, graph.Edge{From: e.Source, To: e.Target, Type: e.Relation})
	}
	return out
}
