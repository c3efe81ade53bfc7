package graph

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/isolda/isolda/internal/testkit/oracle"
)

// TestAgainstNetworkx compares the algorithms with networkx 3.6.1's answers
// on 60 seeded random graphs (testdata/networkx_fixtures.json, written by
// testdata/gen_networkx.py).
func TestAgainstNetworkx(t *testing.T) {
	data, err := os.ReadFile("testdata/networkx_fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			N                     int       `json:"n"`
			Directed              bool      `json:"directed"`
			Edges                 [][2]int  `json:"edges"`
			Betweenness           []float64 `json:"betweenness"`
			BetweennessNormalized []float64 `json:"betweenness_normalized"`
			Distances             [][]int   `json:"distances"`
			Clustering            []float64 `json:"clustering"`
			CoreNumber            []int     `json:"core_number"`
			Triangles             []int     `json:"triangles"`
			Components            int       `json:"components"`
			MaxCliqueSize         int       `json:"max_clique_size"`
			IsDAG                 *bool     `json:"is_dag"`
			TopologicalSort       []int     `json:"topological_sort"`
			HasCycle              *bool     `json:"has_cycle"`
			Diameter              *int      `json:"diameter"`
			YenLengths            []int     `json:"yen_lengths_0_last"`
			MaxFlow               *int64    `json:"max_flow_0_last"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	tally := oracle.NewTally(t)
	check := tally.Check
	near := func(a, b []float64) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-9 {
				return false
			}
		}
		return true
	}
	for i, c := range f.Cases {
		a := NewAdj(c.N, c.Edges, c.Directed)
		check(near(a.Betweenness(false), c.Betweenness), "case %d: betweenness %v, networkx %v", i, a.Betweenness(false), c.Betweenness)
		check(near(a.Betweenness(true), c.BetweennessNormalized), "case %d: normalized betweenness", i)
		for s := 0; s < c.N; s++ {
			_, dist := a.BFS(s)
			check(slices.Equal(dist, c.Distances[s]), "case %d: distances from %d = %v, networkx %v", i, s, dist, c.Distances[s])
		}
		var cl []float64
		var tri []int
		for v := 0; v < c.N; v++ {
			cl = append(cl, a.Clustering(v))
			tri = append(tri, a.Triangles(v))
		}
		check(near(cl, c.Clustering), "case %d: clustering %v, networkx %v", i, cl, c.Clustering)
		check(slices.Equal(tri, c.Triangles), "case %d: triangles %v, networkx %v", i, tri, c.Triangles)
		check(slices.Equal(a.CoreNumbers(), c.CoreNumber), "case %d: core numbers %v, networkx %v", i, a.CoreNumbers(), c.CoreNumber)
		check(len(a.ConnectedComponents()) == c.Components, "case %d: components", i)
		mc, err := a.MaximumClique()
		check(err == nil && len(mc) == c.MaxCliqueSize, "case %d: max clique %v, networkx size %d", i, mc, c.MaxCliqueSize)
		if c.IsDAG != nil {
			order, err := a.TopologicalSort()
			check((err == nil) == *c.IsDAG && a.HasCycle() == !*c.IsDAG, "case %d: DAG %v, networkx %v", i, err == nil, *c.IsDAG)
			if *c.IsDAG {
				check(slices.Equal(order, c.TopologicalSort), "case %d: topological sort %v, networkx %v", i, order, c.TopologicalSort)
			}
		}
		if c.HasCycle != nil {
			check(a.HasCycle() == *c.HasCycle, "case %d: has cycle %v, networkx %v", i, a.HasCycle(), *c.HasCycle)
		}
		if c.Diameter != nil {
			d, conn := a.Diameter()
			check(conn && d == *c.Diameter, "case %d: diameter %d, networkx %d", i, d, *c.Diameter)
		}
		if c.MaxFlow != nil {
			got := a.MaxFlow(0, c.N-1, func(u, v int) int64 { return int64(1 + (u*7+v*3)%5) })
			check(got == *c.MaxFlow, "case %d: max flow %d, networkx %d", i, got, *c.MaxFlow)
		}
		var lens []int
		for _, p := range a.KShortestPaths(0, c.N-1, 5) {
			lens = append(lens, len(p)-1)
		}
		check(slices.Equal(lens, c.YenLengths) || (len(lens) == 0 && len(c.YenLengths) == 0), "case %d: Yen lengths %v, networkx %v", i, lens, c.YenLengths)
	}
	t.Logf("graph vs networkx: %d graphs, %d checks, %d passed, %d failed", len(f.Cases), tally.Checks, tally.Checks-tally.Fails, tally.Fails)
}
