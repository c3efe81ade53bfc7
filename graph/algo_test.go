package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/isolda/isolda/internal/testkit/oracle"
)

// Every algorithm is checked against a brute-force second implementation
// (adjacency matrices, Floyd–Warshall, enumeration of all simple paths,
// subsets and permutations) on small random graphs.

type brute struct {
	n        int
	directed bool
	m        [][]bool // m[u][v]: edge u -> v (symmetric when undirected), self-loops kept
	und      [][]bool // undirected simple view, no self-loops
}

func newBrute(n int, edges [][2]int, directed bool) *brute {
	b := &brute{n: n, directed: directed, m: make([][]bool, n), und: make([][]bool, n)}
	for i := range b.m {
		b.m[i] = make([]bool, n)
		b.und[i] = make([]bool, n)
	}
	for _, e := range edges {
		b.m[e[0]][e[1]] = true
		if !directed {
			b.m[e[1]][e[0]] = true
		}
		if e[0] != e[1] {
			b.und[e[0]][e[1]], b.und[e[1]][e[0]] = true, true
		}
	}
	return b
}

func (b *brute) components() []int {
	parent := make([]int, b.n)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	for u := 0; u < b.n; u++ {
		for v := 0; v < b.n; v++ {
			if b.und[u][v] {
				ru, rv := find(u), find(v)
				if ru != rv {
					parent[max(ru, rv)] = min(ru, rv)
				}
			}
		}
	}
	root := make([]int, b.n)
	for i := range root {
		root[i] = find(i)
	}
	return root
}

func (b *brute) coreNumbers() []int {
	core := make([]int, b.n)
	for k := 1; k <= b.n; k++ {
		alive := make([]bool, b.n)
		for i := range alive {
			alive[i] = true
		}
		for changed := true; changed; {
			changed = false
			for v := 0; v < b.n; v++ {
				if !alive[v] {
					continue
				}
				d := 0
				for u := 0; u < b.n; u++ {
					if alive[u] && b.und[v][u] {
						d++
					}
				}
				if d < k {
					alive[v], changed = false, true
				}
			}
		}
		for v := range alive {
			if alive[v] {
				core[v] = k
			}
		}
	}
	return core
}

func (b *brute) triangles(v int) int {
	n := 0
	for u := 0; u < b.n; u++ {
		for w := u + 1; w < b.n; w++ {
			if b.und[v][u] && b.und[v][w] && b.und[u][w] {
				n++
			}
		}
	}
	return n
}

func (b *brute) maxClique() []int {
	var best []int
	for mask := 0; mask < 1<<b.n; mask++ {
		var c []int
		for v := 0; v < b.n; v++ {
			if mask&(1<<v) != 0 {
				c = append(c, v)
			}
		}
		ok := true
		for i := range c {
			for j := i + 1; j < len(c); j++ {
				ok = ok && b.und[c[i]][c[j]]
			}
		}
		if ok && (len(c) > len(best) || (len(c) == len(best) && slices.Compare(c, best) < 0)) {
			best = c
		}
	}
	if best == nil {
		best = []int{}
	}
	return best
}

func (b *brute) betweenness(normalized bool) []float64 {
	d := oracle.Distances(b.m)
	cb := make([]float64, b.n)
	for s := 0; s < b.n; s++ {
		for t := 0; t < b.n; t++ {
			if s == t || d[s][t] < 0 {
				continue
			}
			var shortest [][]int
			for _, p := range oracle.SimplePaths(b.m, s, t) {
				if len(p)-1 == d[s][t] {
					shortest = append(shortest, p)
				}
			}
			for _, p := range shortest {
				for _, v := range p[1 : len(p)-1] {
					cb[v] += 1 / float64(len(shortest))
				}
			}
		}
	}
	for i := range cb {
		switch {
		case normalized && b.n > 2:
			cb[i] /= float64((b.n - 1) * (b.n - 2))
		case normalized:
			cb[i] = 0
		case !b.directed:
			cb[i] /= 2
		}
	}
	return cb
}

func (b *brute) hasCycle() bool {
	if b.directed {
		for v := 0; v < b.n; v++ {
			if b.m[v][v] {
				return true
			}
			for u := 0; u < b.n; u++ {
				if b.m[v][u] && len(oracle.SimplePaths(b.m, u, v)) > 0 {
					return true
				}
			}
		}
		return false
	}
	for v := 0; v < b.n; v++ {
		if b.m[v][v] {
			return true
		}
	}
	for u := 0; u < b.n; u++ {
		for v := u + 1; v < b.n; v++ {
			if !b.und[u][v] {
				continue
			}
			for _, p := range oracle.SimplePaths(b.und, u, v) {
				if len(p) >= 3 {
					return true
				}
			}
		}
	}
	return false
}

// topo returns the lexicographically smallest valid order by trying all
// permutations in lexicographic order, or nil.
func (b *brute) topo() []int {
	perm := make([]int, b.n)
	for i := range perm {
		perm[i] = i
	}
	for {
		pos := make([]int, b.n)
		for i, v := range perm {
			pos[v] = i
		}
		ok := true
		for u := 0; u < b.n && ok; u++ {
			for v := 0; v < b.n && ok; v++ {
				if b.m[u][v] && pos[u] >= pos[v] {
					ok = false
				}
			}
		}
		if ok {
			return slices.Clone(perm)
		}
		// next permutation
		i := b.n - 2
		for i >= 0 && perm[i] >= perm[i+1] {
			i--
		}
		if i < 0 {
			return nil
		}
		j := b.n - 1
		for perm[j] <= perm[i] {
			j--
		}
		perm[i], perm[j] = perm[j], perm[i]
		slices.Reverse(perm[i+1:])
	}
}

func randomGraph(r *rand.Rand, n int, p float64, directed, loops bool) [][2]int {
	var edges [][2]int
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if (u == v && !loops) || (!directed && v < u) {
				continue
			}
			if r.Float64() < p {
				edges = append(edges, [2]int{u, v})
				if r.IntN(4) == 0 {
					edges = append(edges, [2]int{u, v}) // a parallel edge
				}
			}
		}
	}
	r.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	return edges
}

func TestAlgorithmsAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[string][2]int{} // name -> {checks, failures}
	check := func(name string, ok bool, format string, args ...any) {
		t.Helper()
		c := counts[name]
		c[0]++
		if !ok {
			c[1]++
			if c[1] <= 3 {
				t.Errorf(name+": "+format, args...)
			}
		}
		counts[name] = c
	}
	const graphs = 400
	for gi := 0; gi < graphs; gi++ {
		n := r.IntN(8)
		if gi%4 == 0 {
			n = r.IntN(10)
		}
		directed := gi%2 == 0
		loops := gi%3 == 0
		p := []float64{0.1, 0.25, 0.4, 0.6, 0.9}[r.IntN(5)]
		if directed && gi%5 == 0 {
			p /= 3 // sparse directed graphs are often acyclic
		}
		edges := randomGraph(r, n, p, directed, loops)
		a := NewAdj(n, edges, directed)
		b := newBrute(n, edges, directed)
		desc := fmt.Sprintf("graph %d (n=%d directed=%v edges=%v)", gi, n, directed, edges)
		fw := oracle.Distances(b.m)
		for s := 0; s < n; s++ {
			order, dist := a.BFS(s)
			check("bfs", slices.Equal(dist, fw[s]), "%s: BFS(%d) dist %v, want %v", desc, s, dist, fw[s])
			reach := 0
			for _, d := range fw[s] {
				if d >= 0 {
					reach++
				}
			}
			sorted := slices.IsSortedFunc(order, func(x, y int) int { return dist[x] - dist[y] })
			check("bfs", len(order) == reach && order[0] == s && sorted, "%s: BFS(%d) order %v", desc, s, order)
			for tt := 0; tt < n; tt++ {
				all := oracle.SimplePaths(b.m, s, tt)
				var want []int
				if len(all) > 0 {
					want = all[0]
				}
				got := a.ShortestPath(s, tt)
				check("shortest_path", slices.Equal(got, want), "%s: ShortestPath(%d,%d) = %v, want %v", desc, s, tt, got, want)
				check("shortest_path", a.Distance(s, tt) == fw[s][tt], "%s: Distance(%d,%d)", desc, s, tt)
				k := 1 + r.IntN(6)
				ys := a.KShortestPaths(s, tt, k)
				wantK := all[:min(k, len(all))]
				check("yen", slices.EqualFunc(ys, wantK, slices.Equal), "%s: KShortestPaths(%d,%d,%d) = %v, want %v", desc, s, tt, k, ys, wantK)
			}
		}
		roots := b.components()
		comps := a.ConnectedComponents()
		okc := true
		seen := 0
		for ci, c := range comps {
			for _, v := range c {
				okc = okc && roots[v] == roots[c[0]] && roots[v] == c[0]
				seen++
			}
			okc = okc && (ci == 0 || comps[ci-1][0] < c[0])
		}
		check("components", okc && seen == n, "%s: components %v, roots %v", desc, comps, roots)
		core := b.coreNumbers()
		check("kcore", slices.Equal(a.CoreNumbers(), core), "%s: cores %v, want %v", desc, a.CoreNumbers(), core)
		if n > 0 {
			k := r.IntN(4)
			var want []int
			for v, c := range core {
				if c >= k {
					want = append(want, v)
				}
			}
			check("kcore", slices.Equal(a.KCore(k), want), "%s: KCore(%d)", desc, k)
		}
		diam, conn := 0, true
		for i := range fw {
			for _, d := range fw[i] {
				diam = max(diam, d)
				conn = conn && d >= 0
			}
		}
		gd, gc := a.Diameter()
		check("diameter", gd == diam && gc == conn, "%s: diameter %d %v, want %d %v", desc, gd, gc, diam, conn)
		tri := 0
		for v := 0; v < n; v++ {
			bt := b.triangles(v)
			tri += bt
			check("triangles", a.Triangles(v) == bt, "%s: Triangles(%d)", desc, v)
			deg := 0
			for u := 0; u < n; u++ {
				if b.und[v][u] {
					deg++
				}
			}
			check("degree", a.Degree(v) == deg, "%s: Degree(%d)", desc, v)
			want := 0.0
			if deg >= 2 {
				want = float64(bt) / float64(deg*(deg-1)/2)
			}
			check("clustering", math.Abs(a.Clustering(v)-want) < 1e-12, "%s: Clustering(%d) = %v, want %v", desc, v, a.Clustering(v), want)
		}
		check("triangles", a.TriangleCount() == tri/3, "%s: TriangleCount = %d, want %d", desc, a.TriangleCount(), tri/3)
		mc, err := a.MaximumClique()
		check("max_clique", err == nil && slices.Equal(mc, b.maxClique()), "%s: MaximumClique = %v, want %v", desc, mc, b.maxClique())
		for _, norm := range []bool{false, true} {
			got, want := a.Betweenness(norm), b.betweenness(norm)
			ok := len(got) == len(want)
			for i := range want {
				ok = ok && math.Abs(got[i]-want[i]) < 1e-9
			}
			check("betweenness", ok, "%s: Betweenness(%v) = %v, want %v", desc, norm, got, want)
		}
		if n >= 2 {
			// Max flow equals min cut: enumerate every cut separating s and t.
			capOf := func(u, v int) int64 { return int64(1 + (u*7+v*3)%5) }
			s, tt := r.IntN(n), r.IntN(n)
			if s != tt {
				best := int64(-1)
				for mask := 0; mask < 1<<n; mask++ {
					if mask&(1<<s) == 0 || mask&(1<<tt) != 0 {
						continue
					}
					var cut int64
					for u := 0; u < n; u++ {
						for v := 0; v < n; v++ {
							if u != v && mask&(1<<u) != 0 && mask&(1<<v) == 0 && b.m[u][v] {
								if directed {
									cut += capOf(u, v)
								} else {
									cut += capOf(min(u, v), max(u, v))
								}
							}
						}
					}
					if best < 0 || cut < best {
						best = cut
					}
				}
				got := a.MaxFlow(s, tt, capOf)
				check("max_flow", got == best, "%s: MaxFlow(%d,%d) = %d, min cut %d", desc, s, tt, got, best)
			}
		}
		check("cycle", a.HasCycle() == b.hasCycle(), "%s: HasCycle = %v", desc, a.HasCycle())
		if n <= 8 {
			order, err := a.TopologicalSort()
			want := b.topo()
			if !directed && len(edges) > 0 {
				want = nil
			}
			check("toposort", slices.Equal(order, want) && (err == nil) == (want != nil), "%s: TopologicalSort = %v %v, want %v", desc, order, err, want)
		}
	}
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		c := counts[k]
		t.Logf("graph brute-force %-14s %6d checks, %6d passed, %d failed", k, c[0], c[0]-c[1], c[1])
	}
}
