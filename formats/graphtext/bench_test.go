package graphtext

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
)

// benchGraph is a labelled, typed graph of 2,000 nodes and 10,000 edges.
func benchGraph() *graph.Graph {
	r := rand.New(rand.NewPCG(3, 4))
	g := &graph.Graph{Directed: true}
	for i := range 2000 {
		g.Nodes = append(g.Nodes, graph.Node{ID: fmt.Sprintf("ex:n%d", i), Label: fmt.Sprintf("Node number %d", i), Types: []string{"ex:T" + itoa(i%7)}})
	}
	rels := []string{"ex:knows", "ex:worksAt", "ex:livesIn", "ex:partOf"}
	for range 10000 {
		g.Edges = append(g.Edges, graph.Edge{From: g.Nodes[r.IntN(2000)].ID, To: g.Nodes[r.IntN(2000)].ID, Type: rels[r.IntN(len(rels))]})
	}
	return g
}

func BenchmarkEncode(b *testing.B) {
	g := benchGraph()
	for _, name := range StudyNames() {
		b.Run(name, func(b *testing.B) {
			var sb strings.Builder
			if err := Encode(&sb, g, name, Options{}); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(sb.Len()))
			b.ResetTimer()
			for range b.N {
				if err := Encode(io.Discard, g, name, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	g := benchGraph()
	for _, name := range losslessNames() {
		b.Run(name, func(b *testing.B) {
			text := encodeString(b, g, name, Options{})
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for range b.N {
				if _, err := Decode(strings.NewReader(text), name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
