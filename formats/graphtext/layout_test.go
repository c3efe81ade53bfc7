package graphtext

import (
	"testing"

	"github.com/isolda/isolda/graph"
)

// TestLabelledLayouts pins the layout of the study's formats on a directed,
// labelled, typed graph (the appendix shows only the untyped reference
// graph; these are the extensions this package defines, see the format
// docs in study.go).
func TestLabelledLayouts(t *testing.T) {
	g := &graph.Graph{
		Directed: true,
		Nodes: []graph.Node{
			{ID: "ex:alice", Label: "Alice", Types: []string{"ex:Person"}},
			{ID: "New York", Label: `The "Big Apple"`, Types: []string{"ex:City", "ex:Place"}},
			{ID: "b|c"},
		},
		Edges: []graph.Edge{
			{From: "ex:alice", To: "New York", Type: "ex:livesIn"},
			{From: "b|c", To: "ex:alice"},
		},
	}
	want := map[string]string{
		"edge_list": "Graph (directed).\n" +
			"Nodes: ex:alice \"Alice\" (ex:Person), \"New York\" \"The \\\"Big Apple\\\"\" (ex:City, ex:Place), \"b\\x7cc\"\n" +
			"Edges:\n" +
			"ex:alice -[ex:livesIn]-> \"New York\"\n" +
			"\"b\\x7cc\" -> ex:alice\n",
		"markdown_table": "**Nodes**\n| id | label | types |\n|---|---|---|\n" +
			"| ex:alice | Alice | ex:Person |\n" +
			"| \"New York\" | \"The \\\"Big Apple\\\"\" | ex:City, ex:Place |\n" +
			"| \"b\\x7cc\" |  |  |\n" +
			"\n**Edges (directed)**\n| u | relation | v |\n|---|---|---|\n" +
			"| ex:alice | ex:livesIn | \"New York\" |\n" +
			"| \"b\\x7cc\" |  | ex:alice |\n",
		"dot": "digraph G {\n" +
			"  \"ex:alice\" [label=Alice, class=\"ex:Person\"];\n" +
			"  \"New York\" [label=\"The \\\"Big Apple\\\"\", class=\"ex:City ex:Place\"];\n" +
			"  \"b|c\";\n" +
			"  \"ex:alice\" -> \"New York\" [label=\"ex:livesIn\"];\n" +
			"  \"b|c\" -> \"ex:alice\";\n}\n",
		"mermaid": "graph TD\n  N0[\"Alice\"]\n  N1[\"The #quot;Big Apple#quot;\"]\n  N2[\"b#124;c\"]\n" +
			"  N0 -->|ex:livesIn| N1\n  N2 --> N0\n",
		"nl_summary": "The graph has directed edges and vertices labeled ex:alice (Alice), New York (The \"Big Apple\"), b|c.\n" +
			"Vertex ex:alice has edges to New York (ex:livesIn).\n" +
			"Vertex New York has no outgoing edges.\n" +
			"Vertex b|c has edges to ex:alice.\n",
		"structured":       "G = (V, E), directed\nV = {ex:alice, New York, b|c}\nE = {(ex:alice, ex:livesIn, New York), (b|c, linkedTo, ex:alice)}\n",
		"relation_indexed": "Nodes: ex:alice, New York, b|c\nex:livesIn:\n  ex:alice -> New York\nlinkedTo:\n  b|c -> ex:alice\n",
		"text2kgbench":     "Nodes: ex:alice, New York, b|c, \nEdges: ex:livesIn(ex:alice,New York), linkedTo(b|c,ex:alice)\n",
		"entity_centric": "## ex:alice \"Alice\" : ex:Person\n--[ex:livesIn]--> New York\n\n" +
			"## New York \"The \\\"Big Apple\\\"\" : ex:City, ex:Place\n(no outgoing edges)\n\n" +
			"## b|c\n--[linkedTo]--> ex:alice\n",
		"adjacency": "Graph (directed adjacency list):\nex:alice: [New York]\nNew York: []\nb|c: [ex:alice]\n",
		"toon":      "Nodes[id]: ex:alice, \"New York\", \"b\\x7cc\"\nEdges[from|to]:\n  ex:alice | \"New York\"\n  \"b\\x7cc\" | ex:alice\n",
		"turtle": "@prefix : <http://example.org/graph#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n" +
			"<http://example.org/graph#ex%3Aalice> a <http://example.org/graph#ex%3APerson> ;\n" +
			"    rdfs:label \"Alice\" ;\n" +
			"    <http://example.org/graph#ex%3AlivesIn> <http://example.org/graph#New%20York> .\n" +
			"<http://example.org/graph#New%20York> a <http://example.org/graph#ex%3ACity>, <http://example.org/graph#ex%3APlace> ;\n" +
			"    rdfs:label \"The \\\"Big Apple\\\"\" .\n" +
			"<http://example.org/graph#b%7Cc> :linkedTo <http://example.org/graph#ex%3Aalice> .\n",
	}
	for name, w := range want {
		if got := encodeString(t, g, name, Options{}); got != w {
			t.Errorf("%s:\n got %q\nwant %q", name, got, w)
		}
	}
}
