// Package graph is the labelled-graph view of an RDF dataset that every
// non-RDF format, task and benchmark uses (nodes with readable ids, labels,
// types and literal attributes; typed, directed edges), and the graph
// algorithms gold answers need: breadth-first search, unweighted shortest
// paths, connected components, degrees, k-cores, diameter, Yen's k shortest
// paths, local clustering, maximum clique, Brandes betweenness, triangles,
// cycle detection, topological sorting and maximum flow.
//
// Algorithms work on Adj, a compact adjacency view with nodes numbered by
// their index in Graph.Nodes. Every result is deterministic: neighbours are
// visited in increasing index order and ties are broken by the smallest
// index or the lexicographically smallest node sequence.
package graph

import (
	"cmp"
	"fmt"
	"slices"
)

// Attr is a literal-valued property of a node.
type Attr struct {
	Key      string // the predicate, compacted like node ids
	Value    string // the literal's lexical form
	Lang     string // language tag, if any
	Datatype string // datatype IRI compacted; empty for plain and language-tagged strings
}

// Node is a node of the labelled graph.
type Node struct {
	ID    string   // unique, readable identifier (a compact IRI, an IRI, or _:label)
	Label string   // a human-readable label; empty when the node has none
	Types []string // type identifiers, sorted
	Attrs []Attr   // literal-valued properties, sorted
}

// Edge is a typed edge between two nodes, named by their IDs.
type Edge struct {
	From string
	To   string
	Type string // the relation, e.g. a compacted predicate
}

// Graph is a labelled graph. Nodes and edges are kept in the order given;
// FromRDF produces them sorted.
type Graph struct {
	Nodes    []Node
	Edges    []Edge
	Directed bool
}

// SameRecords compares two labelled graphs as sets: their node ids, and
// their edges (from, type, to). It returns "" when they are equal, else
// what differs (got is the decoded graph, want the input).
func SameRecords(want, got *Graph) string {
	ids := func(g *Graph) []string {
		var out []string
		for _, n := range g.Nodes {
			out = append(out, n.ID)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	edges := func(g *Graph) []Edge {
		out := slices.Clone(g.Edges)
		slices.SortFunc(out, CompareEdges)
		return slices.Compact(out)
	}
	if wn, gn := ids(want), ids(got); !slices.Equal(wn, gn) {
		return fmt.Sprintf("node sets differ: decoded %d distinct nodes, the input has %d", len(gn), len(wn))
	}
	if we, ge := edges(want), edges(got); !slices.Equal(we, ge) {
		return fmt.Sprintf("edge sets differ: decoded %d distinct edges, the input has %d", len(ge), len(we))
	}
	return ""
}

// CompareEdges orders edges by (From, Type, To).
func CompareEdges(a, b Edge) int {
	if c := cmp.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	return cmp.Compare(a.To, b.To)
}

// Index returns a map from node ID to its index in g.Nodes.
func (g *Graph) Index() map[string]int {
	m := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		if _, dup := m[n.ID]; !dup {
			m[n.ID] = i
		}
	}
	return m
}

// Node returns the node with the given ID.
func (g *Graph) Node(id string) (Node, bool) {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n, true
		}
	}
	return Node{}, false
}

// Adj is the adjacency view of a graph with nodes 0..N-1. Parallel edges
// are merged; Out and In keep self-loops, Und (the undirected simple view
// the symmetric algorithms use) drops them. For an undirected graph Out, In
// and Und hold the same neighbours (plus self-loops in Out and In). All
// neighbour lists are sorted.
type Adj struct {
	N        int
	Directed bool
	Out      [][]int
	In       [][]int
	Und      [][]int
}

// NewAdj builds the adjacency view of n nodes and the given edges (pairs of
// node indexes, which must be in 0..n-1).
func NewAdj(n int, edges [][2]int, directed bool) *Adj {
	a := &Adj{N: n, Directed: directed, Out: make([][]int, n), In: make([][]int, n), Und: make([][]int, n)}
	for _, e := range edges {
		u, v := e[0], e[1]
		a.Out[u] = append(a.Out[u], v)
		a.In[v] = append(a.In[v], u)
		if !directed && u != v {
			a.Out[v] = append(a.Out[v], u)
			a.In[u] = append(a.In[u], v)
		}
		if u != v {
			a.Und[u] = append(a.Und[u], v)
			a.Und[v] = append(a.Und[v], u)
		}
	}
	for i := 0; i < n; i++ {
		for _, l := range []*[]int{&a.Out[i], &a.In[i], &a.Und[i]} {
			slices.Sort(*l)
			*l = slices.Compact(*l)
		}
	}
	return a
}

// Adj returns the adjacency view of g. Edges naming unknown node IDs are
// ignored.
func (g *Graph) Adj() *Adj {
	idx := g.Index()
	var edges [][2]int
	for _, e := range g.Edges {
		u, ok1 := idx[e.From]
		v, ok2 := idx[e.To]
		if ok1 && ok2 {
			edges = append(edges, [2]int{u, v})
		}
	}
	return NewAdj(len(g.Nodes), edges, g.Directed)
}

// Edges returns the distinct edges of the view as (u, v) pairs in
// increasing order; for an undirected graph each edge once with u <= v.
func (a *Adj) Edges() [][2]int {
	var out [][2]int
	for u, vs := range a.Out {
		for _, v := range vs {
			if a.Directed || u <= v {
				out = append(out, [2]int{u, v})
			}
		}
	}
	return out
}

// HasEdge reports whether the view has the edge u -> v (either direction
// for an undirected graph).
func (a *Adj) HasEdge(u, v int) bool {
	_, ok := slices.BinarySearch(a.Out[u], v)
	return ok
}
