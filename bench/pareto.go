package bench

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/stats"
)

// ParetoPoint is a format's cost (tokens) and its scores (accuracy at each
// tested budget, or traversal accuracy and fidelity), higher is better.
type ParetoPoint struct {
	Name   string    `json:"format"`
	Tokens int       `json:"tokens"`
	Scores []float64 `json:"scores"`
	// Dominated is set by Pareto; DominatedBy names the first dominating
	// format in input order.
	Dominated   bool   `json:"dominated"`
	DominatedBy string `json:"dominated_by,omitempty"`
}

// Mean is the mean score (0 without scores).
func (p ParetoPoint) Mean() float64 {
	if len(p.Scores) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range p.Scores {
		s += v
	}
	return s / float64(len(p.Scores))
}

// dominates reports whether a dominates b in the article's sense (no more
// tokens, at least as good on every score, strictly better somewhere):
// stats.Dominates.
func dominates(a, b ParetoPoint) bool {
	return stats.Dominates(float64(a.Tokens), a.Scores, float64(b.Tokens), b.Scores)
}

// Pareto returns a copy of points with Dominated and DominatedBy set,
// sorted by tokens, then name.
func Pareto(points []ParetoPoint) []ParetoPoint {
	out := slices.Clone(points)
	for i := range out {
		out[i].Dominated, out[i].DominatedBy = false, ""
		for j := range points {
			if j != i && dominates(points[j], points[i]) {
				out[i].Dominated, out[i].DominatedBy = true, points[j].Name
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b ParetoPoint) int {
		return cmp.Or(cmp.Compare(a.Tokens, b.Tokens), strings.Compare(a.Name, b.Name))
	})
	return out
}

// ParetoOf returns the Pareto analysis of one graph's lossless formats of
// a Report: tokens of the primary tokenizer against traversal accuracy and
// round-trip fidelity (1 or 0); on a graph without traversal queries,
// against round-trip fidelity alone (GraphInfo.HasQueries).
func (rep *Report) ParetoOf(graph string) []ParetoPoint {
	if len(rep.Tokenizers) == 0 {
		return nil
	}
	queries := true
	for _, g := range rep.Graphs {
		if g.Name == graph {
			queries = g.HasQueries()
		}
	}
	var pts []ParetoPoint
	for _, r := range rep.Results {
		if r.Graph != graph || !r.Lossless || r.Error != "" {
			continue
		}
		tr, fid := 0.0, 0.0
		if r.Traversal != nil {
			tr = *r.Traversal
		}
		if r.RoundTripEqual {
			fid = 1
		}
		scores := []float64{tr, fid}
		if !queries {
			scores = []float64{fid}
		}
		pts = append(pts, ParetoPoint{Name: r.Format, Tokens: r.Tokens[rep.Tokenizers[0]], Scores: scores})
	}
	return Pareto(pts)
}

// HasQueries reports whether traversal queries could be generated for the
// graph: a graph without links between named nodes has none, and its
// traversal accuracy is not measured.
func (g GraphInfo) HasQueries() bool { return len(g.Queries) > 0 }
