package bench

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// InterleavedFormats returns the registry formats whose node and edge
// records are single lines that may come in any order, the formats the
// interleaved ordering applies to.
func InterleavedFormats() []string {
	return []string{"csv", "jsonl", "typed_edges", "typed_edges_dict"}
}

// statementLineFormats are the RDF formats whose text is one canonical
// N-Triples or N-Quads line per statement, which may come in any order.
func statementLineFormats() []string { return []string{"ntriples", "nquads"} }

// notApplicable says why an ordering does not apply to a format, or "".
func notApplicable(f formats.Format, ordering string) string {
	if ordering != OrderInterleaved {
		return ""
	}
	if scopeOf(f) == ScopeRDF {
		return "RDF statements have no separate node and edge records"
	}
	if !slices.Contains(InterleavedFormats(), f.Name) {
		return "node and edge records are written in separate blocks"
	}
	return ""
}

// checkOrderings returns an error for an unknown ordering name.
func checkOrderings(orderings []string) error {
	for _, o := range orderings {
		if !slices.Contains(Orderings(), o) {
			return fmt.Errorf("bench: unknown ordering %q (want one of %s)", o, strings.Join(Orderings(), ", "))
		}
	}
	return nil
}

// shuffler returns the seeded generator of the shuffled ordering.
func shuffler(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// anchors returns the distinct start nodes of the queries, in query order.
func anchors(queries []Query) []string {
	var out []string
	for _, q := range queries {
		if !slices.Contains(out, q.Start) {
			out = append(out, q.Start)
		}
	}
	return out
}

// goldSets returns the union of the queries' gold-path edges and the
// nodes on them (anchors included).
func goldSets(queries []Query) (map[Triple]bool, map[string]bool) {
	edges, nodes := map[Triple]bool{}, map[string]bool{}
	for _, q := range queries {
		nodes[q.Start] = true
		for _, e := range q.GoldPath {
			edges[e] = true
			nodes[e.S], nodes[e.O] = true, true
		}
	}
	return edges, nodes
}

// bfsRanks numbers the nodes of adj breadth-first from the given node
// indexes over the undirected neighbours (Adj.Und, in increasing index
// order); nodes not reached follow in index order.
func bfsRanks(adj *graph.Adj, starts []int) []int {
	rank := make([]int, adj.N)
	for i := range rank {
		rank[i] = -1
	}
	next := 0
	var queue []int
	for _, s := range starts {
		if rank[s] < 0 {
			rank[s] = next
			next++
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj.Und[n] {
			if rank[m] < 0 {
				rank[m] = next
				next++
				queue = append(queue, m)
			}
		}
	}
	for i := range rank {
		if rank[i] < 0 {
			rank[i] = next
			next++
		}
	}
	return rank
}

// termKey is a node key of datasetEdges: the IRI, or "_:" and the label.
func termKey(t rdf.Term) string {
	if t.IsBlank() {
		return "_:" + t.Value
	}
	return t.Value
}

// isEdgeStatement reports whether q is an edge of the graph view (an IRI
// or blank node object, not rdf:type).
func isEdgeStatement(q rdf.Quad) bool {
	return !q.O.IsLiteral() && q.P.Value != graph.RDFType
}

// statementOrder returns the permutation of sorted (the canonical
// statements) that an ordering gives; queries are the dataset's queries.
// Interleaved is not applicable to statements and gives canonical order.
func statementOrder(sorted []rdf.Quad, ordering string, queries []Query, seed uint64) []int {
	perm := make([]int, len(sorted))
	for i := range perm {
		perm[i] = i
	}
	switch ordering {
	case OrderShuffle:
		shuffler(seed).Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	case OrderRelevant:
		gold, nodes := goldSets(queries)
		tier := func(q rdf.Quad) int {
			s := termKey(q.S)
			switch {
			case isEdgeStatement(q) && gold[Triple{s, q.P.Value, termKey(q.O)}]:
				return 0
			case !isEdgeStatement(q) && nodes[s]:
				return 1
			}
			return 2
		}
		tiers := make([]int, len(sorted))
		for i, q := range sorted {
			tiers[i] = tier(q)
		}
		slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(tiers[a], tiers[b]) })
	case OrderBFS:
		// The nodes of the graph view: subjects, and objects of edges.
		var keys []string
		for _, q := range sorted {
			keys = append(keys, termKey(q.S))
			if isEdgeStatement(q) {
				keys = append(keys, termKey(q.O))
			}
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		index := make(map[string]int, len(keys))
		for i, k := range keys {
			index[k] = i
		}
		var pairs [][2]int
		for _, q := range sorted {
			if isEdgeStatement(q) {
				pairs = append(pairs, [2]int{index[termKey(q.S)], index[termKey(q.O)]})
			}
		}
		var starts []int
		for _, a := range anchors(queries) {
			if i, ok := index[a]; ok {
				starts = append(starts, i)
			}
		}
		rank := bfsRanks(graph.NewAdj(len(keys), pairs, false), starts)
		ranks := make([]int, len(sorted))
		for i, q := range sorted {
			ranks[i] = rank[index[termKey(q.S)]]
			if isEdgeStatement(q) {
				ranks[i] = min(ranks[i], rank[index[termKey(q.O)]])
			}
		}
		slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	return perm
}

// canonicalGraph returns g's nodes sorted by id and its edges sorted.
func canonicalGraph(g *graph.Graph) ([]graph.Node, []graph.Edge) {
	nodes, edges := slices.Clone(g.Nodes), slices.Clone(g.Edges)
	slices.SortStableFunc(nodes, func(a, b graph.Node) int { return strings.Compare(a.ID, b.ID) })
	slices.SortStableFunc(edges, graph.CompareEdges)
	return nodes, edges
}

// graphOrder returns g's node and edge records in an ordering and the
// record sequence (record.node indexes the returned nodes, record.edge
// the returned edges): nodes then edges, or for the interleaved ordering
// each node followed by its outgoing edges.
func graphOrder(g *graph.Graph, ordering string, queries []Query, seed uint64) ([]graph.Node, []graph.Edge, []record) {
	nodes, edges := canonicalGraph(g)
	switch ordering {
	case OrderShuffle:
		r := shuffler(seed)
		r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		r.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	case OrderRelevant:
		gold, onPath := goldSets(queries)
		rank := func(b bool) int {
			if b {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(nodes, func(a, b graph.Node) int { return cmp.Compare(rank(onPath[a.ID]), rank(onPath[b.ID])) })
		slices.SortStableFunc(edges, func(a, b graph.Edge) int {
			return cmp.Compare(rank(gold[Triple{a.From, a.Type, a.To}]), rank(gold[Triple{b.From, b.Type, b.To}]))
		})
	case OrderBFS, OrderInterleaved:
		index := make(map[string]int, len(nodes))
		for i, n := range nodes {
			index[n.ID] = i
		}
		// Edges to ids without a node record get nodes of their own,
		// after the real ones.
		extra := len(nodes)
		for _, e := range edges {
			for _, id := range []string{e.From, e.To} {
				if _, ok := index[id]; !ok {
					index[id] = extra
					extra++
				}
			}
		}
		pairs := make([][2]int, 0, len(edges))
		for _, e := range edges {
			pairs = append(pairs, [2]int{index[e.From], index[e.To]})
		}
		var starts []int
		for _, a := range anchors(queries) {
			if i, ok := index[a]; ok {
				starts = append(starts, i)
			}
		}
		rank := bfsRanks(graph.NewAdj(extra, pairs, false), starts)
		slices.SortStableFunc(nodes, func(a, b graph.Node) int { return cmp.Compare(rank[index[a.ID]], rank[index[b.ID]]) })
		edgeRank := func(e graph.Edge) int { return min(rank[index[e.From]], rank[index[e.To]]) }
		slices.SortStableFunc(edges, func(a, b graph.Edge) int { return cmp.Compare(edgeRank(a), edgeRank(b)) })
	}
	recs := records(nodes, edges, func(n graph.Node) string { return n.ID },
		func(e graph.Edge) string { return e.From }, ordering == OrderInterleaved)
	return nodes, edges, recs
}
