package graphqa

import (
	"fmt"
	"math"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
)

// Graph generator names (Talk like a Graph's generate_graphs).
const (
	GenER       = "er"
	GenBA       = "ba"
	GenSBM      = "sbm"
	GenSFN      = "sfn"
	GenComplete = "complete"
	GenStar     = "star"
	GenPath     = "path"
)

// Generators lists the generators GenerateGraph supports.
func Generators() []string {
	return []string{GenER, GenBA, GenSBM, GenSFN, GenComplete, GenStar, GenPath}
}

// MaxGeneratedNodes bounds the graphs GenerateGraph makes, so that the
// Hardened operators (betweenness, Yen, maximum clique) stay cheap even on a
// complete graph.
const MaxGeneratedNodes = 500

// GenGraph is an undirected graph on nodes 0..N-1 as networkx's nx.Graph holds
// it: Adj[u] lists the neighbours of u in insertion order, which fixes the
// order of Edges (nx.Graph.edges(): each node in order, each neighbour in
// insertion order, each edge once).
type GenGraph struct {
	Generator string
	N         int
	Adj       [][]int
	// Params records the drawn parameters (p, m, community sizes, ...).
	Params map[string]string
}

func newGenGraph(gen string, n int) *GenGraph {
	g := &GenGraph{Generator: gen, N: n, Adj: make([][]int, n), Params: map[string]string{}}
	for i := range g.Adj {
		g.Adj[i] = []int{}
	}
	return g
}

// addEdge is nx.Graph.add_edge: a new neighbour is appended, an existing
// edge changes nothing.
func (g *GenGraph) addEdge(u, v int) {
	for _, w := range g.Adj[u] {
		if w == v {
			return
		}
	}
	g.Adj[u] = append(g.Adj[u], v)
	if u != v {
		g.Adj[v] = append(g.Adj[v], u)
	}
}

// Edges returns the edges in nx.Graph.edges() order.
func (g *GenGraph) Edges() [][2]int {
	seen := make([]bool, g.N)
	out := [][2]int{}
	for u := 0; u < g.N; u++ {
		for _, v := range g.Adj[u] {
			if !seen[v] {
				out = append(out, [2]int{u, v})
			}
		}
		seen[u] = true
	}
	return out
}

// View returns the adjacency view package graph's algorithms work on.
func (g *GenGraph) View() *graph.Adj { return graph.NewAdj(g.N, g.Edges(), false) }

// Labelled returns g as an undirected labelled graph whose node i has ID
// names[i] (or its number when names is nil) and whose edges are in
// nx.Graph.edges() order, for the text encoders of package formats/graphtext.
func (g *GenGraph) Labelled(names []string) *graph.Graph {
	lg := &graph.Graph{Directed: false}
	for i := 0; i < g.N; i++ {
		lg.Nodes = append(lg.Nodes, graph.Node{ID: nodeName(names, i)})
	}
	for _, e := range g.Edges() {
		lg.Edges = append(lg.Edges, graph.Edge{From: nodeName(names, e[0]), To: nodeName(names, e[1])})
	}
	return lg
}

func nodeName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprint(i)
}

// GenOptions parameterize GenerateGraph. Zero values draw the parameter as
// Talk like a Graph does.
type GenOptions struct {
	// P is the edge probability of er (drawn as random.uniform(0, 1) when
	// negative or when DrawP is set).
	P     float64
	DrawP bool
	// M is the number of edges each new ba node brings (drawn as
	// randint(1, n-1) when 0).
	M int
	// Communities is the community count of sbm (drawn when 0 from
	// 2..MaxCommunities-1, MaxCommunities defaulting to 4).
	Communities    int
	MaxCommunities int
}

// GenerateGraph builds one graph of the named generator on n nodes. pr is
// the Python random stream (random.seed(s)) and np numpy's stream (a
// py.NumpyRandomState, or any py.Source). The constructions are networkx's: er is
// gnp_random_graph (one np draw per pair in itertools.combinations order,
// as networkx does with a RandomState seed), ba is barabasi_albert_graph
// (star_graph(m) start, _random_subset with random.choice and CPython's set
// iteration order; it uses only pr, as the source calls it without a seed),
// sbm is stochastic_block_model with Talk like a Graph's community sizes and
// probability matrix, complete, star and path the deterministic graphs.
//
// Deviations, none verified against the released GraphQA data (which is not
// available here): sbm draws its matrix and its edges from np, and every
// pair with one draw (networkx's sparse=False rule) rather than networkx's
// geometric skipping, which has the same distribution; the source draws the
// matrix from numpy's global stream, the max/min choice from an unknown
// stream (we use pr), and passes an unknown seed. sfn is
// nx.Graph(nx.scale_free_graph(n)) with networkx's defaults on pr (the
// source calls it without a seed); the conversion to a simple undirected
// graph is assumed to be nx.Graph(...), which keeps self-loops.
func GenerateGraph(gen string, n int, pr *py.Rand, np py.Source, o GenOptions) (*GenGraph, error) {
	if n < 1 || n > MaxGeneratedNodes {
		return nil, fmt.Errorf("task: graph size %d outside 1..%d", n, MaxGeneratedNodes)
	}
	switch gen {
	case GenER:
		p := o.P
		if o.DrawP || p < 0 {
			p = pr.Uniform(0, 1)
		}
		return erdosRenyi(n, p, np), nil
	case GenBA:
		m := o.M
		if m == 0 {
			if n < 2 {
				return nil, fmt.Errorf("task: ba needs at least 2 nodes")
			}
			var err error
			if m, err = pr.RandInt(1, n-1); err != nil {
				return nil, err
			}
		}
		if m < 1 || m >= n {
			return nil, fmt.Errorf("task: ba needs 1 <= m < n, got m=%d n=%d", m, n)
		}
		return barabasiAlbert(n, m, pr), nil
	case GenSBM:
		return sbm(n, o, pr, np)
	case GenComplete:
		g := newGenGraph(gen, n)
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				g.addEdge(u, v)
			}
		}
		return g, nil
	case GenStar:
		g := newGenGraph(gen, n)
		for v := 1; v < n; v++ {
			g.addEdge(0, v)
		}
		return g, nil
	case GenPath:
		g := newGenGraph(gen, n)
		for v := 1; v < n; v++ {
			g.addEdge(v-1, v)
		}
		return g, nil
	case GenSFN:
		if n < 3 {
			return nil, fmt.Errorf("task: sfn needs at least 3 nodes")
		}
		return scaleFree(n, pr), nil
	}
	return nil, fmt.Errorf("task: unknown graph generator %q", gen)
}

func erdosRenyi(n int, p float64, rng py.Source) *GenGraph {
	g := newGenGraph(GenER, n)
	g.Params["p"] = fmt.Sprint(p)
	if p <= 0 {
		return g
	}
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if p >= 1 || rng.Random() < p {
				g.addEdge(u, v)
			}
		}
	}
	return g
}

func barabasiAlbert(n, m int, rng *py.Rand) *GenGraph {
	g := newGenGraph(GenBA, n)
	g.Params["m"] = fmt.Sprint(m)
	for v := 1; v <= m; v++ { // star_graph(m)
		g.addEdge(0, v)
	}
	var repeated []int
	for u := 0; u <= m; u++ {
		for range g.Adj[u] {
			repeated = append(repeated, u)
		}
	}
	for source := m + 1; source < n; source++ {
		targets := py.NewIntSet()
		for targets.Len() < m {
			targets.Add(repeated[rng.Below(len(repeated))])
		}
		ts := targets.Items()
		for _, t := range ts {
			g.addEdge(source, t)
		}
		repeated = append(repeated, ts...)
		for range m {
			repeated = append(repeated, source)
		}
	}
	return g
}

// scaleFree is networkx 3's scale_free_graph(n) (alpha 0.41, beta 0.54,
// gamma 0.05, delta_in 0.2, delta_out 0, starting from the 3-cycle
// MultiDiGraph 0->1->2->0), converted as nx.Graph(G) does: nodes in
// insertion order, then for each node its successors in insertion order,
// each pair once, self-loops kept.
func scaleFree(n int, rng *py.Rand) *GenGraph {
	const alpha, beta, deltaIn = 0.41, 0.54, 0.2
	type arc struct{ u, v int }
	arcs := []arc{{0, 1}, {1, 2}, {2, 0}}
	order := []int{0, 1, 2} // node insertion order of the MultiDiGraph
	inG := map[int]bool{0: true, 1: true, 2: true}
	vs := []int{0, 1, 2} // out-degree state: each node once per out-arc
	ws := []int{0, 1, 2} // in-degree state: each node once per in-arc
	nodeList := []int{0, 1, 2}
	cursor := 3
	choose := func(cands []int, delta float64) int {
		if delta > 0 {
			bias := float64(len(nodeList)) * delta
			if rng.Random() < bias/(bias+float64(len(cands))) {
				return nodeList[rng.Below(len(nodeList))]
			}
		}
		return cands[rng.Below(len(cands))]
	}
	for len(inG) < n {
		r := rng.Random()
		var v, w int
		switch {
		case r < alpha:
			v = cursor
			cursor++
			nodeList = append(nodeList, v)
			w = choose(ws, deltaIn)
		case r < alpha+beta:
			v = choose(vs, 0)
			w = choose(ws, deltaIn)
		default:
			v = choose(vs, 0)
			w = cursor
			cursor++
			nodeList = append(nodeList, w)
		}
		for _, x := range []int{v, w} {
			if !inG[x] {
				inG[x] = true
				order = append(order, x)
			}
		}
		arcs = append(arcs, arc{v, w})
		vs = append(vs, v)
		ws = append(ws, w)
	}
	// Nodes are numbered in insertion order; nx.Graph(G) walks each node's
	// successors in insertion order (parallel arcs merged).
	idx := make(map[int]int, len(order))
	for i, x := range order {
		idx[x] = i
	}
	succ := make([][]int, len(order))
	for _, a := range arcs {
		u, v := idx[a.u], idx[a.v]
		dup := false
		for _, x := range succ[u] {
			if x == v {
				dup = true
				break
			}
		}
		if !dup {
			succ[u] = append(succ[u], v)
		}
	}
	g := newGenGraph(GenSFN, len(order))
	for u := range succ {
		for _, v := range succ[u] {
			g.addEdge(u, v)
		}
	}
	return g
}

func sbm(n int, o GenOptions, pr *py.Rand, np py.Source) (*GenGraph, error) {
	c := o.Communities
	if c == 0 {
		hi := o.MaxCommunities
		if hi == 0 {
			hi = 4
		}
		c = 2 + pr.Below(hi-2) // random.choice(np.arange(2, hi))
	}
	if c < 1 || c > n {
		return nil, fmt.Errorf("task: sbm with %d communities on %d nodes", c, n)
	}
	sizes := make([]int, c)
	sum := 0
	for i := 0; i < c-1; i++ {
		s, err := pr.RandInt(1, max(1, n-sum-(c-1)))
		if err != nil {
			return nil, err
		}
		sizes[i] = s
		sum += s
	}
	sizes[c-1] = n - sum
	if sizes[c-1] < 1 {
		return nil, fmt.Errorf("task: sbm community sizes %v do not fit %d nodes", sizes, n)
	}
	P := make([][]float64, c)
	for i := range P {
		P[i] = make([]float64, c)
		for j := range P[i] {
			P[i][j] = np.Random()
		}
	}
	useMax := pr.Random() < 0.5
	for i := 0; i < c; i++ {
		for j := i + 1; j < c; j++ {
			a, b := P[i][j], P[j][i]
			v := math.Min(a, b)
			if useMax {
				v = math.Max(a, b)
			}
			P[i][j], P[j][i] = v, v
		}
	}
	g := newGenGraph(GenSBM, n)
	g.Params["sizes"] = fmt.Sprint(sizes)
	start := make([]int, c+1)
	for i, s := range sizes {
		start[i+1] = start[i] + s
	}
	for bi := 0; bi < c; bi++ {
		for bj := bi; bj < c; bj++ {
			p := P[bi][bj]
			for u := start[bi]; u < start[bi+1]; u++ {
				v0 := start[bj]
				if bi == bj {
					v0 = u + 1
				}
				for v := v0; v < start[bj+1]; v++ {
					if np.Random() < p {
						g.addEdge(u, v)
					}
				}
			}
		}
	}
	return g, nil
}

// CalibratedP is the Hardened and Topology regimes' edge probability
// min(0.5, 2.5·log10(n)/n).
func CalibratedP(n int) float64 {
	if n < 2 {
		return 0.5
	}
	return math.Min(0.5, 2.5*math.Log10(float64(n))/float64(n))
}
