package bench

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// Kinds of traversal queries.
const (
	// QueryForward asks for every node reachable from Start over at most
	// Hops edges of any relation, following their direction.
	QueryForward = "multi-hop"
	// QueryReverseEdge asks for every node with a Relation edge to Start.
	QueryReverseEdge = "reverse-edge"
	// QueryReverse asks for every node that reaches Start over at most
	// Hops edges of any relation (edges followed backwards).
	QueryReverse = "reverse-multi-hop"
)

// Query is a deterministic traversal query with its gold answer. Answers
// are sorted node keys (IRIs for RDF graphs, ids for labelled graphs);
// blank nodes may be traversed but are never part of an answer, since their
// labels do not survive a round trip.
type Query struct {
	Kind     string   `json:"kind"`
	Start    string   `json:"start"`
	Relation string   `json:"relation,omitempty"`
	Hops     int      `json:"hops"`
	Answer   []string `json:"answer"`
	// GoldPath is the evidence of the answer: the edges of the graph on
	// the breadth-first paths from Start to every answer node (see
	// GoldPath), sorted.
	GoldPath []Triple `json:"gold_path"`
}

// Triple is a directed, typed edge between two node keys.
type Triple struct {
	S string `json:"s"`
	P string `json:"p"`
	O string `json:"o"`
}

// isBlank reports whether a node key names a blank node.
func isBlank(key string) bool { return strings.HasPrefix(key, "_:") }

// datasetEdges returns the dataset's edges between IRIs and blank nodes
// (all graphs merged; rdf:type and literal-valued statements left out),
// keyed by IRI or "_:" plus the blank node label.
func datasetEdges(d *rdf.Dataset) []Triple {
	key := func(t rdf.Term) string {
		if t.IsBlank() {
			return "_:" + t.Value
		}
		return t.Value
	}
	var out []Triple
	for _, q := range d.Quads() {
		if q.O.IsLiteral() || q.P.Value == graph.RDFType {
			continue
		}
		out = append(out, Triple{key(q.S), q.P.Value, key(q.O)})
	}
	return sortTriples(out)
}

// labelledEdges returns a labelled graph's edges keyed by node id.
func labelledEdges(g *graph.Graph) []Triple {
	out := make([]Triple, 0, len(g.Edges))
	for _, e := range g.Edges {
		out = append(out, Triple{e.From, e.Type, e.To})
	}
	return sortTriples(out)
}

func sortTriples(ts []Triple) []Triple {
	slices.SortFunc(ts, func(a, b Triple) int {
		return cmp.Or(strings.Compare(a.S, b.S), strings.Compare(a.P, b.P), strings.Compare(a.O, b.O))
	})
	return slices.Compact(ts)
}

// adjacency indexes edges by subject and by object.
type adjacency struct {
	out, in map[string][]Triple
}

func newAdjacency(edges []Triple) adjacency {
	a := adjacency{out: map[string][]Triple{}, in: map[string][]Triple{}}
	for _, e := range edges {
		a.out[e.S] = append(a.out[e.S], e)
		a.in[e.O] = append(a.in[e.O], e)
	}
	return a
}

// reach returns the non-blank nodes within hops steps of start (start
// excluded), forward or backward, sorted.
func (a adjacency) reach(start string, hops int, forward bool) []string {
	found, _ := a.reachTree(start, hops, forward)
	return found
}

// reachTree is reach that also returns the breadth-first tree: for every
// node reached, the edge it was first reached by (frontier in discovery
// order, each node's edges in sorted order).
func (a adjacency) reachTree(start string, hops int, forward bool) ([]string, map[string]Triple) {
	seen := map[string]bool{start: true}
	via := map[string]Triple{}
	frontier := []string{start}
	var found []string
	for h := 0; h < hops && len(frontier) > 0; h++ {
		var next []string
		for _, n := range frontier {
			edges, end := a.out[n], func(e Triple) string { return e.O }
			if !forward {
				edges, end = a.in[n], func(e Triple) string { return e.S }
			}
			for _, e := range edges {
				m := end(e)
				if seen[m] {
					continue
				}
				seen[m] = true
				via[m] = e
				next = append(next, m)
				if !isBlank(m) {
					found = append(found, m)
				}
			}
		}
		frontier = next
	}
	slices.Sort(found)
	return found, via
}

// goldPath returns the edges q's answer rests on: for a reverse-edge
// query the edges (answer, relation, start); for a multi-hop query, in
// either direction, the edges of the breadth-first tree on the path from
// Start to each answer node. Sorted.
func (a adjacency) goldPath(q Query) []Triple {
	var out []Triple
	switch q.Kind {
	case QueryReverseEdge:
		for _, e := range a.in[q.Start] {
			if e.P == q.Relation && !isBlank(e.S) {
				out = append(out, e)
			}
		}
	case QueryForward, QueryReverse:
		forward := q.Kind == QueryForward
		found, via := a.reachTree(q.Start, q.Hops, forward)
		onPath := map[Triple]bool{}
		for _, n := range found {
			for n != q.Start {
				e := via[n]
				if onPath[e] {
					break
				}
				onPath[e] = true
				out = append(out, e)
				if forward {
					n = e.S
				} else {
					n = e.O
				}
			}
		}
	}
	return sortTriples(out)
}

// GoldPath returns the gold path of q on the graph of edges: the edges its
// gold answer rests on (for a reverse-edge query, the edges from each
// answer node to Start with the relation; for a multi-hop query, forward
// or reverse, the edges of the breadth-first tree, frontier in discovery
// order and edges in sorted order, on the paths from Start to the answer
// nodes, blank nodes included). Sorted.
func GoldPath(q Query, edges []Triple) []Triple {
	return newAdjacency(sortTriples(slices.Clone(edges))).goldPath(q)
}

// answer answers q on the indexed edges.
func (a adjacency) answer(q Query) []string {
	switch q.Kind {
	case QueryForward:
		return a.reach(q.Start, q.Hops, true)
	case QueryReverse:
		return a.reach(q.Start, q.Hops, false)
	case QueryReverseEdge:
		var out []string
		for _, e := range a.in[q.Start] {
			if e.P == q.Relation && !isBlank(e.S) {
				out = append(out, e.S)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return nil
}

// GenerateQueries derives up to n queries of each kind from a graph's
// edges, deterministically: two-hop forward queries from the nodes with
// the most outgoing edges, reverse-edge queries for the (relation, object)
// pairs with the most subjects, and two-hop reverse queries to the nodes
// with the most incoming edges (ties broken by key). Queries with an empty
// answer are not generated. Each query carries its gold path (GoldPath).
func GenerateQueries(edges []Triple, n int) []Query {
	a := newAdjacency(edges)
	type scored struct {
		key   string
		count int
	}
	top := func(m map[string][]Triple) []scored {
		var s []scored
		for k, es := range m {
			if !isBlank(k) {
				s = append(s, scored{k, len(es)})
			}
		}
		slices.SortFunc(s, func(x, y scored) int {
			return cmp.Or(cmp.Compare(y.count, x.count), strings.Compare(x.key, y.key))
		})
		return s
	}
	var qs []Query
	add := func(q Query, limit int, count *int) {
		if *count >= limit {
			return
		}
		q.Answer = a.answer(q)
		if len(q.Answer) > 0 {
			q.GoldPath = a.goldPath(q)
			qs = append(qs, q)
			*count++
		}
	}
	var c1, c2, c3 int
	for _, s := range top(a.out) {
		add(Query{Kind: QueryForward, Start: s.key, Hops: 2}, n, &c1)
	}
	// (relation, object) pairs by number of subjects.
	pairs := map[string][]Triple{}
	for _, e := range edges {
		if !isBlank(e.O) {
			k := e.P + "\x00" + e.O
			pairs[k] = append(pairs[k], e)
		}
	}
	for _, s := range top(pairs) {
		rel, obj, _ := strings.Cut(s.key, "\x00")
		add(Query{Kind: QueryReverseEdge, Start: obj, Relation: rel, Hops: 1}, n, &c2)
	}
	for _, s := range top(a.in) {
		add(Query{Kind: QueryReverse, Start: s.key, Hops: 2}, n, &c3)
	}
	return qs
}

// Accuracy is the fraction of queries whose answer on edges equals the
// gold answer (1 when there are no queries).
func Accuracy(queries []Query, edges []Triple) float64 {
	if len(queries) == 0 {
		return 1
	}
	a := newAdjacency(edges)
	ok := 0
	for _, q := range queries {
		if slices.Equal(a.answer(q), q.Answer) {
			ok++
		}
	}
	return float64(ok) / float64(len(queries))
}
