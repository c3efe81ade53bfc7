// Package stats holds the statistics of isolda's evaluation reports: Wilson
// intervals for accuracies, exact and mid-p McNemar tests for paired arms,
// paired percentile and BCa bootstrap intervals for accuracy differences,
// run-to-run spread over repeated trials, Pareto fronts of tokens against
// accuracy, token summaries and Holm's step-down correction.
//
// Every function is deterministic: bootstraps draw from a math/rand/v2 PCG
// generator seeded by the caller, and nothing depends on map order.
package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ErrDegenerate reports that an interval cannot be computed from the data,
// for example a BCa interval whose bias correction is infinite because every
// bootstrap replicate lies on one side of the estimate.
var ErrDegenerate = errors.New("stats: degenerate bootstrap distribution")

// Interval is a closed confidence interval [Lo, Hi].
type Interval struct {
	Lo, Hi float64
}

// Contains reports whether x lies in the closed interval.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Width returns Hi - Lo.
func (iv Interval) Width() float64 { return iv.Hi - iv.Lo }

// String formats the interval as "[lo, hi]" with four decimals.
func (iv Interval) String() string { return fmt.Sprintf("[%.4f, %.4f]", iv.Lo, iv.Hi) }

// checkConfidence validates a two-sided confidence level.
func checkConfidence(confidence float64) error {
	if !(confidence > 0 && confidence < 1) {
		return fmt.Errorf("stats: confidence %v not in (0, 1)", confidence)
	}
	return nil
}

// normalQuantile returns the standard normal quantile of p.
func normalQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// normalCDF returns the standard normal distribution function at z.
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// Wilson returns the Wilson score interval for k successes out of n trials
// at the given two-sided confidence level (0.95 for a 95% interval), without
// continuity correction (Wilson 1927; Newcombe 1998, method 3). The bounds
// are clamped to [0, 1] against rounding.
func Wilson(k, n int, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	if n <= 0 || k < 0 || k > n {
		return Interval{}, fmt.Errorf("stats: Wilson interval needs 0 <= k <= n and n > 0, got k=%d n=%d", k, n)
	}
	z := normalQuantile(1 - (1-confidence)/2)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi := center-half, center+half
	// Exact ends: the interval always reaches 0 when k = 0 and 1 when k = n.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return Interval{Lo: math.Max(0, lo), Hi: math.Min(1, hi)}, nil
}
