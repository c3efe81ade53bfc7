package graphqa

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/internal/testkit/oracle"
)

// brute answers GraphQA questions by exhaustive search on a small graph:
// an adjacency matrix, subset enumeration and path enumeration.
type brute struct {
	n   int
	adj [][]bool
}

func newBrute(g *GenGraph) *brute {
	b := &brute{n: g.N, adj: make([][]bool, g.N)}
	for i := range b.adj {
		b.adj[i] = make([]bool, g.N)
	}
	for _, e := range g.Edges() {
		if e[0] != e[1] {
			b.adj[e[0]][e[1]], b.adj[e[1]][e[0]] = true, true
		}
	}
	return b
}

func (b *brute) deg(v int) int {
	d := 0
	for u := 0; u < b.n; u++ {
		if b.adj[v][u] {
			d++
		}
	}
	return d
}

func (b *brute) triangles() int {
	c := 0
	for i := 0; i < b.n; i++ {
		for j := i + 1; j < b.n; j++ {
			for k := j + 1; k < b.n; k++ {
				if b.adj[i][j] && b.adj[j][k] && b.adj[i][k] {
					c++
				}
			}
		}
	}
	return c
}

func (b *brute) maxClique() int {
	best := 0
	for mask := 1; mask < 1<<b.n; mask++ {
		var vs []int
		for v := 0; v < b.n; v++ {
			if mask&(1<<v) != 0 {
				vs = append(vs, v)
			}
		}
		ok := true
		for i := 0; i < len(vs) && ok; i++ {
			for j := i + 1; j < len(vs); j++ {
				if !b.adj[vs[i]][vs[j]] {
					ok = false
					break
				}
			}
		}
		if ok && len(vs) > best {
			best = len(vs)
		}
	}
	return best
}

// kcore: the largest subset where every node has >= k neighbours inside:
// the union of all such subsets, found by enumeration.
func (b *brute) kcore(k int) int {
	union := 0
	for mask := 1; mask < 1<<b.n; mask++ {
		ok := true
		for v := 0; v < b.n && ok; v++ {
			if mask&(1<<v) == 0 {
				continue
			}
			d := 0
			for u := 0; u < b.n; u++ {
				if mask&(1<<u) != 0 && b.adj[v][u] {
					d++
				}
			}
			ok = d >= k
		}
		if ok {
			union |= mask
		}
	}
	c := 0
	for v := 0; v < b.n; v++ {
		if union&(1<<v) != 0 {
			c++
		}
	}
	return c
}

// pathLengths lists the lengths of all simple paths from s to t, sorted.
func (b *brute) pathLengths(s, t int) []int {
	var out []int
	for _, p := range oracle.SimplePaths(b.adj, s, t) {
		out = append(out, len(p)-1)
	}
	return out
}

// diameter is the longest of the shortest paths between connected nodes.
func (b *brute) diameter() int {
	best := 0
	for _, row := range oracle.Distances(b.adj) {
		for _, d := range row {
			best = max(best, d)
		}
	}
	return best
}

func (b *brute) clustering(v int) string {
	var nb []int
	for u := 0; u < b.n; u++ {
		if b.adj[v][u] {
			nb = append(nb, u)
		}
	}
	if len(nb) < 2 {
		return "0.00"
	}
	links := 0
	for i := range nb {
		for j := i + 1; j < len(nb); j++ {
			if b.adj[nb[i]][nb[j]] {
				links++
			}
		}
	}
	return strconv.FormatFloat(float64(2*links)/float64(len(nb)*(len(nb)-1)), 'f', 2, 64)
}

// TestHardenedBruteForce compares the Hardened operators' gold answers with
// exhaustive search on 200 random graphs of 3 to 8 nodes.
func TestHardenedBruteForce(t *testing.T) {
	rng := py.NewRand(42)
	checked := 0
	for i := 0; i < 200; i++ {
		n := 3 + rng.Below(6)
		g, err := GenerateGraph(GenER, n, rng, rng, GenOptions{DrawP: true})
		if err != nil {
			t.Fatal(err)
		}
		b := newBrute(g)
		none := TaskArgs{Source: -1, Target: -1}
		eq := func(task, got string, want int) {
			checked++
			if got != fmt.Sprintf("%d.", want) {
				t.Errorf("graph %d %v: %s = %q, brute force %d", i, g.Edges(), task, got, want)
			}
		}
		eq("triangle_counting", ask(t, g, TaskTriangleCounting, none).Gold.Text, b.triangles())
		eq("max_clique_size", ask(t, g, TaskMaxCliqueSize, none).Gold.Text, b.maxClique())
		eq("diameter", ask(t, g, TaskDiameter, none).Gold.Text, b.diameter())
		for k := 1; k <= 4; k++ {
			eq("kcore_size", ask(t, g, TaskKCoreSize, TaskArgs{Source: -1, Target: -1, K: k}).Gold.Text, b.kcore(k))
		}
		for s := 0; s < n; s++ {
			checked++
			if got := ask(t, g, TaskLocalClustering, TaskArgs{Source: s, Target: -1}).Gold.Value; got != b.clustering(s) {
				t.Errorf("graph %d: clustering(%d) = %s, brute force %s", i, s, got, b.clustering(s))
			}
			for k := 1; k <= 3; k++ {
				want := 0
				for u := 0; u < n; u++ {
					if b.adj[s][u] && b.deg(u) >= k {
						want++
					}
				}
				eq("neighbour_degree_ge", ask(t, g, TaskNeighbourDegreeGE, TaskArgs{Source: s, Target: -1, K: k}).Gold.Text, want)
			}
			for u := 0; u < n; u++ {
				if u == s {
					continue
				}
				lengths := b.pathLengths(s, u)
				for k := 1; k <= 3; k++ {
					q, err := g.Ask(TaskKthShortestPath, nil, true, TaskArgs{Source: s, Target: u, K: k})
					if k > len(lengths) {
						checked++
						if err == nil {
							t.Errorf("graph %d: %d-th path %d-%d exists here only", i, k, s, u)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					eq("kth_shortest_path", q.Gold.Text, lengths[k-1])
				}
			}
		}
	}
	msg := fmt.Sprintf("Hardened operators vs brute force: %d answers checked on 200 graphs", checked)
	t.Log(msg)
}
