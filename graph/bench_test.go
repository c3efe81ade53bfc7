package graph

import (
	"math/rand/v2"
	"testing"
)

func benchGraph(n, m int, directed bool) *Adj {
	r := rand.New(rand.NewPCG(7, 7))
	edges := make([][2]int, m)
	for i := range edges {
		edges[i] = [2]int{r.IntN(n), r.IntN(n)}
	}
	return NewAdj(n, edges, directed)
}

func BenchmarkAlgorithms(b *testing.B) {
	a := benchGraph(2000, 8000, true)
	u := benchGraph(2000, 8000, false)
	b.Run("NewAdj", func(b *testing.B) {
		for b.Loop() {
			benchGraph(2000, 8000, true)
		}
	})
	b.Run("BFS", func(b *testing.B) {
		for b.Loop() {
			a.BFS(0)
		}
	})
	b.Run("Betweenness", func(b *testing.B) {
		for b.Loop() {
			a.Betweenness(true)
		}
	})
	b.Run("CoreNumbers", func(b *testing.B) {
		for b.Loop() {
			u.CoreNumbers()
		}
	})
	b.Run("TriangleCount", func(b *testing.B) {
		for b.Loop() {
			u.TriangleCount()
		}
	})
	b.Run("KShortestPaths10", func(b *testing.B) {
		for b.Loop() {
			a.KShortestPaths(0, 1, 10)
		}
	})
	b.Run("MaximumClique", func(b *testing.B) {
		for b.Loop() {
			if _, err := u.MaximumClique(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Diameter", func(b *testing.B) {
		for b.Loop() {
			u.Diameter()
		}
	})
}
