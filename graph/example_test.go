package graph_test

import (
	"fmt"

	"github.com/isolda/isolda/graph"
)

func Example() {
	g := &graph.Graph{
		Directed: true,
		Nodes:    []graph.Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		Edges: []graph.Edge{
			{From: "a", To: "b", Type: "next"}, {From: "b", To: "d", Type: "next"},
			{From: "a", To: "c", Type: "next"}, {From: "c", To: "d", Type: "next"},
			{From: "a", To: "d", Type: "skip"},
		},
	}
	a := g.Adj()
	for _, p := range a.KShortestPaths(0, 3, 3) {
		for i, v := range p {
			if i > 0 {
				fmt.Print(" -> ")
			}
			fmt.Print(g.Nodes[v].ID)
		}
		fmt.Println()
	}
	order, _ := a.TopologicalSort()
	fmt.Println("topological order:", order)
	fmt.Println("triangles:", a.TriangleCount())
	// Output:
	// a -> d
	// a -> b -> d
	// a -> c -> d
	// topological order: [0 1 2 3]
	// triangles: 2
}
