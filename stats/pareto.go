package stats

import (
	"math"
	"slices"
)

// Point is an arm's mean input tokens and accuracy.
type Point struct {
	Tokens, Accuracy float64
}

// Dominates reports whether a point of cost ac and scores as dominates a
// point of cost bc and scores bs: it costs no more and scores at least as
// well everywhere, strictly better somewhere (cost or a score); higher
// scores are better. Points with differently many scores are incomparable,
// and a NaN coordinate dominates nothing and is dominated by nothing.
// ParetoFront is the O(n log n) front for one score; bench's format
// analyses use this definition with several scores.
func Dominates(ac float64, as []float64, bc float64, bs []float64) bool {
	if len(as) != len(bs) || math.IsNaN(ac) || math.IsNaN(bc) || ac > bc {
		return false
	}
	strict := ac < bc
	for i := range as {
		if math.IsNaN(as[i]) || math.IsNaN(bs[i]) || as[i] < bs[i] {
			return false
		}
		if as[i] > bs[i] {
			strict = true
		}
	}
	return strict
}

// ParetoFront returns the indices of the points no other point dominates,
// ordered by tokens ascending (then index). A point p is dominated when
// another point q has q.Tokens ≤ p.Tokens and q.Accuracy ≥ p.Accuracy with
// at least one of the two strict; equal points therefore do not dominate
// each other and all stay on the front. Points with a NaN coordinate are
// never on the front and dominate nothing. It runs in O(n log n).
func ParetoFront(points []Point) []int {
	idx := make([]int, 0, len(points))
	for i, p := range points {
		if !math.IsNaN(p.Tokens) && !math.IsNaN(p.Accuracy) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(i, j int) int {
		pi, pj := points[i], points[j]
		switch {
		case pi.Tokens < pj.Tokens:
			return -1
		case pi.Tokens > pj.Tokens:
			return 1
		case pi.Accuracy > pj.Accuracy:
			return -1
		case pi.Accuracy < pj.Accuracy:
			return 1
		}
		return i - j
	})
	var front []int
	best := math.Inf(-1) // best accuracy among strictly cheaper points
	for g := 0; g < len(idx); {
		// Group of equal token counts; its first point has the group's best accuracy.
		e := g
		for e < len(idx) && points[idx[e]].Tokens == points[idx[g]].Tokens {
			e++
		}
		top := points[idx[g]].Accuracy
		if top > best {
			for _, i := range idx[g:e] {
				if points[i].Accuracy == top {
					front = append(front, i)
				}
			}
			best = top
		}
		g = e
	}
	return front
}
