package stats

import (
	"math"
	"slices"
)

// Holm returns Holm's step-down adjusted p-values (Holm 1979) in the order
// of p: with p sorted ascending as p(1) ≤ … ≤ p(m), the adjusted value of
// p(j) is min(1, max over i ≤ j of (m−i+1)·p(i)). Rejecting the hypotheses
// whose adjusted p-value is ≤ α controls the family-wise error rate at α.
// A NaN p-value stays NaN and is left out of the family.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			out[i] = math.NaN()
			continue
		}
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case p[i] < p[j]:
			return -1
		case p[i] > p[j]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for r, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-r)*p[i]))
		out[i] = running
	}
	return out
}
