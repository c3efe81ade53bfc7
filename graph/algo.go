package graph

import (
	"container/heap"
	"errors"
	"slices"
)

// BFS walks the graph breadth-first from src along Out edges and returns
// the nodes in visiting order and the distance of every node from src (-1
// when unreachable).
func (a *Adj) BFS(src int) (order []int, dist []int) {
	dist = make([]int, a.N)
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	order = append(order, src)
	for head := 0; head < len(order); head++ {
		u := order[head]
		for _, v := range a.Out[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				order = append(order, v)
			}
		}
	}
	return order, dist
}

// distancesTo returns the distance of every node to dst along Out edges
// (-1 when dst is unreachable), skipping removed nodes and edges.
func (a *Adj) distancesTo(dst int, removedNode []bool, removedEdge map[[2]int]bool) []int {
	dist := make([]int, a.N)
	for i := range dist {
		dist[i] = -1
	}
	if removedNode != nil && removedNode[dst] {
		return dist
	}
	dist[dst] = 0
	queue := []int{dst}
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for _, u := range a.In[v] {
			if dist[u] >= 0 || (removedNode != nil && removedNode[u]) || removedEdge[[2]int{u, v}] {
				continue
			}
			dist[u] = dist[v] + 1
			queue = append(queue, u)
		}
	}
	return dist
}

// ShortestPath returns the lexicographically smallest (by node index) of
// the shortest paths from src to dst along Out edges, as a node sequence
// including both ends, or nil when dst is unreachable.
func (a *Adj) ShortestPath(src, dst int) []int {
	return a.spur(src, dst, nil, nil)
}

// spur returns the lexicographically smallest shortest path avoiding the
// removed nodes and edges.
func (a *Adj) spur(src, dst int, removedNode []bool, removedEdge map[[2]int]bool) []int {
	dist := a.distancesTo(dst, removedNode, removedEdge)
	if dist[src] < 0 {
		return nil
	}
	path := []int{src}
	for u := src; u != dst; {
		for _, v := range a.Out[u] {
			if dist[v] == dist[u]-1 && !(removedNode != nil && removedNode[v]) && !removedEdge[[2]int{u, v}] {
				u = v
				break
			}
		}
		path = append(path, u)
	}
	return path
}

// Distance returns the number of edges on a shortest path from src to dst,
// or -1 when dst is unreachable.
func (a *Adj) Distance(src, dst int) int {
	_, dist := a.BFS(src)
	return dist[dst]
}

// ConnectedComponents returns the connected components of the undirected
// view (weakly connected components of a directed graph), each sorted, in
// order of their smallest node.
func (a *Adj) ConnectedComponents() [][]int {
	comp := make([]int, a.N)
	for i := range comp {
		comp[i] = -1
	}
	var out [][]int
	for s := 0; s < a.N; s++ {
		if comp[s] >= 0 {
			continue
		}
		id := len(out)
		comp[s] = id
		members := []int{s}
		for head := 0; head < len(members); head++ {
			for _, v := range a.Und[members[head]] {
				if comp[v] < 0 {
					comp[v] = id
					members = append(members, v)
				}
			}
		}
		slices.Sort(members)
		out = append(out, members)
	}
	return out
}

// Degree returns the number of distinct neighbours of v in the undirected
// view (self-loops and parallel edges not counted).
func (a *Adj) Degree(v int) int { return len(a.Und[v]) }

// OutDegree returns the number of distinct successors of v (a self-loop
// counts once).
func (a *Adj) OutDegree(v int) int { return len(a.Out[v]) }

// InDegree returns the number of distinct predecessors of v.
func (a *Adj) InDegree(v int) int { return len(a.In[v]) }

// CoreNumbers returns the core number of every node of the undirected view:
// the largest k such that the node belongs to the k-core, the maximal
// subgraph whose nodes all have degree at least k (Batagelj–Zaversnik).
func (a *Adj) CoreNumbers() []int {
	core, _ := a.coreDecomposition()
	return core
}

// coreDecomposition returns the core numbers and a degeneracy order (the
// order in which Batagelj–Zaversnik removes the nodes).
func (a *Adj) coreDecomposition() (core, order []int) {
	deg := make([]int, a.N)
	maxDeg := 0
	for v := range deg {
		deg[v] = len(a.Und[v])
		maxDeg = max(maxDeg, deg[v])
	}
	// Bucket sort by degree.
	bin := make([]int, maxDeg+1)
	for _, d := range deg {
		bin[d]++
	}
	start := 0
	for d := range bin {
		bin[d], start = start, start+bin[d]
	}
	pos := make([]int, a.N)
	vert := make([]int, a.N)
	for v, d := range deg {
		pos[v] = bin[d]
		vert[pos[v]] = v
		bin[d]++
	}
	for d := maxDeg; d > 0; d-- {
		bin[d] = bin[d-1]
	}
	bin[0] = 0
	for i := 0; i < a.N; i++ {
		v := vert[i]
		for _, u := range a.Und[v] {
			if deg[u] > deg[v] {
				du, pu := deg[u], pos[u]
				pw := bin[du]
				w := vert[pw]
				if u != w {
					pos[u], pos[w] = pw, pu
					vert[pu], vert[pw] = w, u
				}
				bin[du]++
				deg[u]--
			}
		}
	}
	return deg, vert
}

// KCore returns the nodes of the k-core of the undirected view, sorted.
func (a *Adj) KCore(k int) []int {
	var out []int
	for v, c := range a.CoreNumbers() {
		if c >= k {
			out = append(out, v)
		}
	}
	return out
}

// Eccentricity returns the largest distance from v to a node it reaches
// along Out edges.
func (a *Adj) Eccentricity(v int) int {
	_, dist := a.BFS(v)
	return slices.Max(dist)
}

// Diameter returns the largest finite shortest-path distance between two
// nodes along Out edges, and whether every node reaches every other (the
// diameter is then the usual one; otherwise it is that of the reachable
// pairs). It is 0 for a graph of at most one node.
func (a *Adj) Diameter() (d int, connected bool) {
	connected = true
	for v := 0; v < a.N; v++ {
		_, dist := a.BFS(v)
		for _, x := range dist {
			if x < 0 {
				connected = false
			}
			d = max(d, x)
		}
	}
	return d, connected
}

// pathHeap orders candidate paths by length, then lexicographically.
type pathHeap [][]int

func (h pathHeap) Len() int { return len(h) }
func (h pathHeap) Less(i, j int) bool {
	if len(h[i]) != len(h[j]) {
		return len(h[i]) < len(h[j])
	}
	return slices.Compare(h[i], h[j]) < 0
}
func (h pathHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pathHeap) Push(x any)   { *h = append(*h, x.([]int)) }
func (h *pathHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func pathKey(p []int) string {
	b := make([]byte, 0, 4*len(p))
	for _, v := range p {
		b = append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	return string(b)
}

// KShortestPaths returns up to k loopless paths from src to dst along Out
// edges in increasing length (Yen's algorithm, unit edge weights); paths
// of equal length come in lexicographic order of their node sequences, so
// the result is the first k of all simple paths sorted by (length,
// sequence).
func (a *Adj) KShortestPaths(src, dst, k int) [][]int {
	if k <= 0 {
		return nil
	}
	first := a.ShortestPath(src, dst)
	if first == nil {
		return nil
	}
	result := [][]int{first}
	seen := map[string]bool{pathKey(first): true}
	var cand pathHeap
	removedNode := make([]bool, a.N)
	for len(result) < k {
		last := result[len(result)-1]
		for i := 0; i < len(last)-1; i++ {
			root := last[:i+1]
			removedEdge := map[[2]int]bool{}
			for _, p := range result {
				if len(p) > i && slices.Equal(p[:i+1], root) {
					removedEdge[[2]int{p[i], p[i+1]}] = true
				}
			}
			clear(removedNode)
			for _, v := range root[:i] {
				removedNode[v] = true
			}
			sp := a.spur(root[i], dst, removedNode, removedEdge)
			if sp == nil {
				continue
			}
			path := append(slices.Clone(root[:i]), sp...)
			if key := pathKey(path); !seen[key] {
				seen[key] = true
				heap.Push(&cand, path)
			}
		}
		if cand.Len() == 0 {
			break
		}
		result = append(result, heap.Pop(&cand).([]int))
	}
	return result
}

// Triangles returns the number of triangles of the undirected view that
// contain v.
func (a *Adj) Triangles(v int) int {
	n := 0
	nb := a.Und[v]
	for i, u := range nb {
		for _, w := range nb[i+1:] {
			if a.undEdge(u, w) {
				n++
			}
		}
	}
	return n
}

func (a *Adj) undEdge(u, v int) bool {
	_, ok := slices.BinarySearch(a.Und[u], v)
	return ok
}

// TriangleCount returns the number of triangles of the undirected view.
func (a *Adj) TriangleCount() int {
	n := 0
	for u := 0; u < a.N; u++ {
		for _, v := range a.Und[u] {
			if v <= u {
				continue
			}
			// Count common neighbours w > v by merging sorted lists.
			x, y := a.Und[u], a.Und[v]
			i, j := 0, 0
			for i < len(x) && j < len(y) {
				switch {
				case x[i] < y[j]:
					i++
				case x[i] > y[j]:
					j++
				default:
					if x[i] > v {
						n++
					}
					i++
					j++
				}
			}
		}
	}
	return n
}

// Clustering returns the local clustering coefficient of v in the
// undirected view: the fraction of pairs of its neighbours that are
// adjacent (0 when v has fewer than two neighbours).
func (a *Adj) Clustering(v int) float64 {
	d := len(a.Und[v])
	if d < 2 {
		return 0
	}
	return 2 * float64(a.Triangles(v)) / float64(d*(d-1))
}

// ErrTooLarge is returned by exact algorithms whose work budget is
// exhausted.
var ErrTooLarge = errors.New("graph: exact computation exceeds its work budget")

// MaxCliqueBudget is the number of search steps MaximumClique takes at most.
const MaxCliqueBudget = 20_000_000

// MaximumClique returns a largest clique of the undirected view, sorted;
// among cliques of that size, the lexicographically smallest. It is exact
// (Bron–Kerbosch with pivoting over all maximal cliques) and returns
// ErrTooLarge when the search exceeds MaxCliqueBudget steps.
func (a *Adj) MaximumClique() ([]int, error) {
	if a.N == 0 {
		return []int{}, nil
	}
	var best []int
	steps := 0
	var bk func(r, p, x []int) bool
	bk = func(r, p, x []int) bool {
		steps++
		if steps > MaxCliqueBudget {
			return false
		}
		if len(p) == 0 && len(x) == 0 {
			c := slices.Clone(r)
			slices.Sort(c)
			if len(c) > len(best) || (len(c) == len(best) && slices.Compare(c, best) < 0) {
				best = c
			}
			return true
		}
		if len(r)+len(p) < len(best) {
			return true // cannot beat or tie the best
		}
		// Pivot: the node of p ∪ x with most neighbours in p.
		pivot, most := -1, -1
		for _, set := range [][]int{p, x} {
			for _, u := range set {
				c := 0
				for _, v := range p {
					if a.undEdge(u, v) {
						c++
					}
				}
				if c > most {
					pivot, most = u, c
				}
			}
		}
		for _, v := range slices.Clone(p) {
			if a.undEdge(pivot, v) {
				continue
			}
			var np, nx []int
			for _, u := range p {
				if a.undEdge(v, u) {
					np = append(np, u)
				}
			}
			for _, u := range x {
				if a.undEdge(v, u) {
					nx = append(nx, u)
				}
			}
			if !bk(append(r, v), np, nx) {
				return false
			}
			p = slices.DeleteFunc(p, func(u int) bool { return u == v })
			x = append(x, v)
		}
		return true
	}
	// Eppstein–Löffler–Strash: one search per node in degeneracy order,
	// with its later neighbours as candidates and earlier ones excluded.
	_, order := a.coreDecomposition()
	rank := make([]int, a.N)
	for i, v := range order {
		rank[v] = i
	}
	for _, v := range order {
		var p, x []int
		for _, u := range a.Und[v] {
			if rank[u] > rank[v] {
				p = append(p, u)
			} else {
				x = append(x, u)
			}
		}
		if !bk([]int{v}, p, x) {
			return nil, ErrTooLarge
		}
	}
	return best, nil
}

// Betweenness returns the betweenness centrality of every node (Brandes'
// algorithm over shortest paths along Out edges). Like networkx, an
// undirected graph counts each pair once; normalized scales by
// 1/((n-1)(n-2)) for directed and 2/((n-1)(n-2)) for undirected graphs.
func (a *Adj) Betweenness(normalized bool) []float64 {
	cb := make([]float64, a.N)
	sigma := make([]float64, a.N)
	dist := make([]int, a.N)
	delta := make([]float64, a.N)
	pred := make([][]int, a.N)
	for s := 0; s < a.N; s++ {
		for i := range dist {
			dist[i], sigma[i], delta[i] = -1, 0, 0
			pred[i] = pred[i][:0]
		}
		dist[s], sigma[s] = 0, 1
		stack := []int{s}
		for head := 0; head < len(stack); head++ {
			v := stack[head]
			for _, w := range a.Out[v] {
				if dist[w] < 0 {
					dist[w] = dist[v] + 1
					stack = append(stack, w)
				}
				if dist[w] == dist[v]+1 {
					sigma[w] += sigma[v]
					pred[w] = append(pred[w], v)
				}
			}
		}
		for i := len(stack) - 1; i >= 0; i-- {
			w := stack[i]
			for _, v := range pred[w] {
				delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
			}
			if w != s {
				cb[w] += delta[w]
			}
		}
	}
	scale := 1.0
	if !a.Directed {
		scale = 0.5
	}
	if normalized {
		scale = 0
		if a.N > 2 {
			// The sums count ordered pairs, so for an undirected graph this
			// is 2/((n-1)(n-2)) per unordered pair.
			scale = 1 / float64((a.N-1)*(a.N-2))
		}
	}
	for i := range cb {
		cb[i] *= scale
	}
	return cb
}

// HasCycle reports whether the graph has a cycle: a directed cycle
// (including a self-loop) for a directed graph, and for an undirected graph
// a self-loop or a cycle of the simple undirected view.
func (a *Adj) HasCycle() bool {
	if !a.Directed {
		for v := 0; v < a.N; v++ {
			if a.HasEdge(v, v) {
				return true
			}
		}
		edges := 0
		for v := 0; v < a.N; v++ {
			edges += len(a.Und[v])
		}
		return edges/2 > a.N-len(a.ConnectedComponents())
	}
	_, err := a.TopologicalSort()
	return err != nil
}

// ErrCycle is returned by TopologicalSort for a graph with a cycle.
var ErrCycle = errors.New("graph: the graph has a cycle")

// intHeap is a min-heap of node indexes.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TopologicalSort returns the lexicographically smallest order of the
// nodes in which every edge u -> v has u before v (Kahn's algorithm with a
// min-heap), or ErrCycle. An undirected graph with at least one edge has no
// topological order.
func (a *Adj) TopologicalSort() ([]int, error) {
	if !a.Directed {
		for v := 0; v < a.N; v++ {
			if len(a.Out[v]) > 0 {
				return nil, ErrCycle
			}
		}
	}
	indeg := make([]int, a.N)
	for v := 0; v < a.N; v++ {
		indeg[v] = len(a.In[v])
	}
	h := &intHeap{}
	for v, d := range indeg {
		if d == 0 {
			*h = append(*h, v)
		}
	}
	heap.Init(h)
	order := make([]int, 0, a.N)
	for h.Len() > 0 {
		u := heap.Pop(h).(int)
		order = append(order, u)
		for _, v := range a.Out[u] {
			indeg[v]--
			if indeg[v] == 0 {
				heap.Push(h, v)
			}
		}
	}
	if len(order) != a.N {
		return nil, ErrCycle
	}
	return order, nil
}

// MaxFlow returns the value of a maximum flow from src to dst
// (Edmonds–Karp). Every edge u -> v of the view carries capacity(u, v); an
// undirected edge {u, v} (called with u < v) carries that capacity in each
// direction, as networkx's maximum_flow does for undirected graphs.
// Self-loops and non-positive capacities carry nothing. It returns 0 when
// src == dst.
func (a *Adj) MaxFlow(src, dst int, capacity func(u, v int) int64) int64 {
	if src == dst {
		return 0
	}
	type arc struct {
		to  int
		cap int64
		rev int // index of the reverse arc in arcs[to]
	}
	arcs := make([][]arc, a.N)
	addArc := func(u, v int, c int64) {
		arcs[u] = append(arcs[u], arc{v, c, len(arcs[v])})
		arcs[v] = append(arcs[v], arc{u, 0, len(arcs[u]) - 1})
	}
	for _, e := range a.Edges() {
		u, v := e[0], e[1]
		if u == v {
			continue
		}
		c := max(capacity(u, v), 0)
		addArc(u, v, c)
		if !a.Directed {
			addArc(v, u, c)
		}
	}
	var flow int64
	prevNode := make([]int, a.N)
	prevArc := make([]int, a.N)
	for {
		for i := range prevNode {
			prevNode[i] = -1
		}
		prevNode[src] = src
		queue := []int{src}
		for head := 0; head < len(queue) && prevNode[dst] < 0; head++ {
			u := queue[head]
			for i, ar := range arcs[u] {
				if ar.cap > 0 && prevNode[ar.to] < 0 {
					prevNode[ar.to], prevArc[ar.to] = u, i
					queue = append(queue, ar.to)
				}
			}
		}
		if prevNode[dst] < 0 {
			return flow
		}
		push := int64(-1)
		for v := dst; v != src; v = prevNode[v] {
			c := arcs[prevNode[v]][prevArc[v]].cap
			if push < 0 || c < push {
				push = c
			}
		}
		for v := dst; v != src; v = prevNode[v] {
			ar := &arcs[prevNode[v]][prevArc[v]]
			ar.cap -= push
			arcs[v][ar.rev].cap += push
		}
		flow += push
	}
}
