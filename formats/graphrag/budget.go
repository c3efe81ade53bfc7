package graphrag

import (
	"sort"
	"strings"
)

// Records returns the number of records of g (nodes plus edges).
func (g Graph) Records() int { return len(g.Nodes) + len(g.Edges) }

// Prefix returns the first k records of g in serialization order, nodes
// first, then edges (k is clamped to 0..Records()).
func (g Graph) Prefix(k int) Graph {
	k = min(max(k, 0), g.Records())
	if k <= len(g.Nodes) {
		return Graph{Nodes: g.Nodes[:k:k], Edges: []Edge{}}
	}
	return Graph{Nodes: g.Nodes, Edges: g.Edges[: k-len(g.Nodes) : k-len(g.Nodes)]}
}

// FitRecords applies the article's record-aware budget policy: it keeps
// whole records, in order, while the next one still fits, and for the
// monolithic JSON formats builds the largest valid document that fits. It
// returns the kept graph and its text, whose size measure(text) (tokens,
// or bytes) is at most budget; the kept graph may be empty, and then the
// text is the encoding of an empty graph, which may itself exceed a tiny
// budget. The search is a binary search over the number of records, exact
// when measure grows with the number of records, as token and byte counts
// of these formats do.
func FitRecords(f Format, g Graph, budget int, measure func(string) int) (Graph, string, error) {
	encode := func(k int) (string, error) {
		var b strings.Builder
		err := f.Encode(&b, g.Prefix(k))
		return b.String(), err
	}
	var firstErr error
	// k records fit iff measure(encode(k)) <= budget; find the largest k.
	n := g.Records()
	k := sort.Search(n, func(i int) bool {
		text, err := encode(i + 1)
		if err != nil {
			firstErr = err
			return true
		}
		return measure(text) > budget
	})
	if firstErr != nil {
		return Graph{}, "", firstErr
	}
	text, err := encode(k)
	if err != nil {
		return Graph{}, "", err
	}
	return g.Prefix(k), text, nil
}
