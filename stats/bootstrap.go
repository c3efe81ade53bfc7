package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// DefaultResamples is the number of bootstrap resamples used when
// BootstrapOptions.Resamples is zero.
const DefaultResamples = 10000

// pcgStream is the second PCG word used with BootstrapOptions.Seed, so that a
// seed alone names the generator: rand.NewPCG(Seed, pcgStream).
const pcgStream = 0x9e3779b97f4a7c15

// BootstrapOptions configures a bootstrap.
type BootstrapOptions struct {
	// Resamples is the number of bootstrap resamples; 0 means DefaultResamples.
	Resamples int
	// Seed seeds the generator rand.New(rand.NewPCG(Seed, 0x9e3779b97f4a7c15)).
	// Resample b draws its n indices in order with IntN(n), b = 0, 1, …
	Seed uint64
	// Confidence is the two-sided level; 0 means 0.95.
	Confidence float64
}

func (o BootstrapOptions) normalized() (BootstrapOptions, error) {
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Resamples < 0 {
		return o, fmt.Errorf("stats: negative number of resamples %d", o.Resamples)
	}
	return o, checkConfidence(o.Confidence)
}

// BootstrapMeans returns Resamples bootstrap replicates of the mean of x:
// each replicate is the mean of n values drawn from x with replacement by the
// seeded PCG generator described in BootstrapOptions. The replicates are
// returned in the order they were drawn. It costs Resamples·len(x) draws.
func BootstrapMeans(x []float64, opt BootstrapOptions) ([]float64, error) {
	opt, err := opt.normalized()
	if err != nil {
		return nil, err
	}
	n := len(x)
	if n == 0 {
		return nil, fmt.Errorf("stats: bootstrap of an empty sample")
	}
	rng := rand.New(rand.NewPCG(opt.Seed, pcgStream))
	reps := make([]float64, opt.Resamples)
	for b := range reps {
		var s float64
		for range n {
			s += x[rng.IntN(n)]
		}
		reps[b] = s / float64(n)
	}
	return reps, nil
}

// JackknifeMeans returns the leave-one-out means of x: element i is the mean
// of x without x[i]. It returns nil when x has fewer than two values.
func JackknifeMeans(x []float64) []float64 {
	n := len(x)
	if n < 2 {
		return nil
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	jk := make([]float64, n)
	for i, v := range x {
		jk[i] = (sum - v) / float64(n-1)
	}
	return jk
}

// quantileSorted returns the empirical quantile of sorted replicates: the
// smallest replicate whose empirical distribution function reaches p, i.e.
// sorted[⌈p·B⌉−1] (the first one for p = 0), as gonum's stat.Empirical.
func quantileSorted(p float64, sorted []float64) float64 {
	p = math.Min(1, math.Max(0, p))
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}

// PercentileInterval returns the bootstrap percentile interval of the given
// replicates at the two-sided confidence level: the empirical (1−level)/2 and
// (1+level)/2 quantiles (see quantileSorted). The replicates are not modified.
func PercentileInterval(replicates []float64, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	if len(replicates) == 0 {
		return Interval{}, fmt.Errorf("stats: no bootstrap replicates")
	}
	sorted := slices.Clone(replicates)
	slices.Sort(sorted)
	if math.IsNaN(sorted[len(sorted)-1]) || math.IsNaN(sorted[0]) {
		return Interval{}, fmt.Errorf("stats: NaN bootstrap replicate")
	}
	alpha := (1 - confidence) / 2
	return Interval{Lo: quantileSorted(alpha, sorted), Hi: quantileSorted(1-alpha, sorted)}, nil
}

// BCaInterval returns the bias-corrected and accelerated bootstrap interval
// (Efron and Tibshirani 1993, §14.3) for the estimate theta, given its
// bootstrap replicates and its jackknife (leave-one-out) values:
//
//	z0 = Φ⁻¹((#{θ*<θ} + #{θ*≤θ}) / 2B)                (mid-rank for ties, as scipy)
//	a  = Σ(θ̄(·)−θ(i))³ / (6·(Σ(θ̄(·)−θ(i))²)^{3/2})   (0 when the jackknife values are equal or absent)
//	α1 = Φ(z0 + (z0+z_{α})/(1−a(z0+z_{α})))            α2 likewise with z_{1−α}
//
// and the interval is the empirical α1 and α2 quantiles of the replicates
// (see PercentileInterval). When every replicate equals theta the interval is
// [theta, theta]. It returns ErrDegenerate when z0 is infinite (every
// replicate on one side of theta). The slices are not modified.
func BCaInterval(theta float64, replicates, jackknife []float64, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	B := len(replicates)
	if B == 0 {
		return Interval{}, fmt.Errorf("stats: no bootstrap replicates")
	}
	if math.IsNaN(theta) {
		return Interval{}, fmt.Errorf("stats: NaN estimate")
	}
	sorted := slices.Clone(replicates)
	slices.Sort(sorted)
	if math.IsNaN(sorted[0]) || math.IsNaN(sorted[B-1]) {
		return Interval{}, fmt.Errorf("stats: NaN bootstrap replicate")
	}
	if sorted[0] == theta && sorted[B-1] == theta {
		return Interval{Lo: theta, Hi: theta}, nil
	}
	lv, err := bcaLevels(theta, sorted, jackknife, confidence)
	if err != nil {
		return Interval{}, err
	}
	return Interval{Lo: quantileSorted(lv.alpha1, sorted), Hi: quantileSorted(lv.alpha2, sorted)}, nil
}

// bcaParams holds the intermediate quantities of a BCa interval.
type bcaParams struct {
	z0, a, alpha1, alpha2 float64
}

// bcaLevels computes the bias correction, the acceleration and the adjusted
// quantile levels of a BCa interval from sorted replicates.
func bcaLevels(theta float64, sorted, jackknife []float64, confidence float64) (bcaParams, error) {
	var less, lessEq int
	for _, v := range sorted {
		if v < theta {
			less++
		}
		if v <= theta {
			lessEq++
		}
	}
	z0 := normalQuantile(float64(less+lessEq) / float64(2*len(sorted)))
	if math.IsInf(z0, 0) || math.IsNaN(z0) {
		return bcaParams{}, ErrDegenerate
	}
	a := acceleration(jackknife)
	alpha := (1 - confidence) / 2
	adjust := func(q float64) float64 {
		zq := normalQuantile(q)
		return normalCDF(z0 + (z0+zq)/(1-a*(z0+zq)))
	}
	p := bcaParams{z0: z0, a: a, alpha1: adjust(alpha), alpha2: adjust(1 - alpha)}
	if math.IsNaN(p.alpha1) || math.IsNaN(p.alpha2) {
		return bcaParams{}, ErrDegenerate
	}
	return p, nil
}

// acceleration returns the jackknife estimate of the BCa acceleration.
func acceleration(jk []float64) float64 {
	if len(jk) < 2 {
		return 0
	}
	var mean float64
	for _, v := range jk {
		mean += v
	}
	mean /= float64(len(jk))
	var s2, s3 float64
	for _, v := range jk {
		d := mean - v
		s2 += d * d
		s3 += d * d * d
	}
	if s2 == 0 {
		return 0
	}
	return s3 / (6 * math.Pow(s2, 1.5))
}
