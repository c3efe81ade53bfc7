package graphtext_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/graph"
)

func ExampleEncode() {
	g := &graph.Graph{
		Nodes: []graph.Node{{ID: "0"}, {ID: "1"}, {ID: "2"}},
		Edges: []graph.Edge{{From: "0", To: "1"}, {From: "1", To: "2"}},
	}
	for _, format := range []string{"edge_list", "tlag_friendship"} {
		if err := graphtext.Encode(os.Stdout, g, format, graphtext.Options{}); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// Graph (undirected).
	// Nodes: 0, 1, 2
	// Edges:
	// 0 -- 1
	// 1 -- 2
	// G describes a friendship graph among nodes James, Robert, and John.
	// We have the following edges in G:
	// James and Robert are friends.
	// Robert and John are friends.
}

func ExampleDecode() {
	text := "Graph (directed).\nNodes: alice \"Alice\" (Person), \"New York\" (City)\nEdges:\nalice -[livesIn]-> \"New York\"\n"
	g, err := graphtext.Decode(strings.NewReader(text), "edge_list")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", g.Nodes[0])
	fmt.Printf("%+v\n", g.Edges[0])
	_, err = graphtext.Decode(strings.NewReader("Graph (directed).\nNodes: a\nEdges:\na -- a\n"), "edge_list")
	fmt.Println(err)
	// Output:
	// {ID:alice Label:Alice Types:[Person] Attrs:[]}
	// {From:alice To:New York Type:livesIn}
	// <input>:4:3: edge_list: edge direction does not match the graph header
}
