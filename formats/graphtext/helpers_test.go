package graphtext

import (
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
)

func encodeString(t testing.TB, g *graph.Graph, format string, opts Options) string {
	t.Helper()
	var sb strings.Builder
	if err := Encode(&sb, g, format, opts); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return sb.String()
}

// referenceGraph is appendix H.1's 5-node graph.
func referenceGraph() *graph.Graph {
	return simpleGraph(5, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}}, false)
}

func simpleGraph(n int, edges [][2]int, directed bool) *graph.Graph {
	g := &graph.Graph{Directed: directed}
	for i := range n {
		g.Nodes = append(g.Nodes, graph.Node{ID: itoa(i)})
	}
	for _, e := range edges {
		g.Edges = append(g.Edges, graph.Edge{From: itoa(e[0]), To: itoa(e[1])})
	}
	return g
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// labelledGraph is a small typed, labelled graph for the lossy-format
// tests: every transform below changes it.
func labelledGraph() *graph.Graph {
	return &graph.Graph{
		Nodes: []graph.Node{
			{ID: "a", Label: "Alice", Types: []string{"Person"}},
			{ID: "b", Label: "Bob", Types: []string{"Agent", "Person"}},
			{ID: "c"},
			{ID: "d", Label: "Dora", Types: []string{"City"}},
		},
		Edges: []graph.Edge{
			{From: "a", To: "b", Type: "knows"},
			{From: "b", To: "c", Type: "knows"},
			{From: "a", To: "d", Type: "livesIn"},
			{From: "c", To: "d"},
			{From: "a", To: "c", Type: "knows"},
			{From: "d", To: "b", Type: "knows"},
		},
	}
}

func cloneGraph(g *graph.Graph) *graph.Graph {
	h := &graph.Graph{Directed: g.Directed, Edges: slices.Clone(g.Edges)}
	for _, n := range g.Nodes {
		n.Types = slices.Clone(n.Types)
		h.Nodes = append(h.Nodes, n)
	}
	return h
}

// transforms change one aspect of a graph.
var transforms = []struct {
	name string
	f    func(g *graph.Graph)
}{
	{"labels", func(g *graph.Graph) {
		for i := range g.Nodes {
			g.Nodes[i].Label = ""
		}
	}},
	{"types", func(g *graph.Graph) {
		for i := range g.Nodes {
			g.Nodes[i].Types = nil
		}
	}},
	{"edge types", func(g *graph.Graph) {
		for i := range g.Edges {
			g.Edges[i].Type = ""
		}
	}},
	{"direction", func(g *graph.Graph) { g.Directed = !g.Directed }},
	{"parallel edge", func(g *graph.Graph) { g.Edges = append(g.Edges, g.Edges[0]) }},
	{"edge order", func(g *graph.Graph) { slices.Reverse(g.Edges) }},
	{"edge ends", func(g *graph.Graph) {
		for i, e := range g.Edges {
			g.Edges[i].From, g.Edges[i].To = e.To, e.From
		}
	}},
	{"orphan edge", func(g *graph.Graph) { g.Edges = append(g.Edges, graph.Edge{From: "a", To: "zz", Type: "knows"}) }},
	{"ids", func(g *graph.Graph) {
		ren := func(s string) string { return s + "1" }
		for i := range g.Nodes {
			g.Nodes[i].ID = ren(g.Nodes[i].ID)
		}
		for i := range g.Edges {
			g.Edges[i].From, g.Edges[i].To = ren(g.Edges[i].From), ren(g.Edges[i].To)
		}
	}},
	{"node order", func(g *graph.Graph) { slices.Reverse(g.Nodes) }},
}
