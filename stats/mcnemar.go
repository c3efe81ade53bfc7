package stats

import "math"

// McNemarExact returns the exact two-sided McNemar p-value for b and c
// discordant pairs: min(1, 2·P[X ≤ min(b, c)]) with X ~ Binomial(b+c, 1/2).
// With no discordant pairs the p-value is 1. Negative counts give NaN.
func McNemarExact(b, c int) float64 { return mcnemar(b, c, false) }

// McNemarMidP returns the two-sided mid-p McNemar p-value for b and c
// discordant pairs: 2·P[X < k] + P[X = k] = 2·P[X ≤ k] − P[X = k] with
// k = min(b, c) and X ~ Binomial(b+c, 1/2), capped at 1 (Fagerland, Lydersen
// and Laake 2013). With no discordant pairs the p-value is 1. Negative counts
// give NaN.
func McNemarMidP(b, c int) float64 { return mcnemar(b, c, true) }

// mcnemar is McNemarExact, or McNemarMidP with midP.
func mcnemar(b, c int, midP bool) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n, k := b+c, min(b, c)
	if n == 0 || 2*k == n {
		return 1
	}
	cdf, pmf := binomHalfTail(n, k)
	p := 2 * cdf
	if midP {
		p = math.Max(0, p-pmf)
	}
	return math.Min(1, p)
}

// directLimit is the largest n for which binomial(n, 1/2) probabilities are
// summed term by term from x = 0: 2⁻ⁿ is then a normal float64 and the
// recurrence C(n,x) = C(n,x−1)·(n−x+1)/x loses at most a few ulps per term.
// Larger n use Loader's saddle-point expansion of the largest term.
const directLimit = 1000

// binomHalfTail returns P[X ≤ k] and P[X = k] for X ~ Binomial(n, 1/2) and
// 0 ≤ k < n/2, where the terms decrease from x = k down to 0.
func binomHalfTail(n, k int) (cdf, pmf float64) {
	if n <= directLimit || k == 0 {
		pmf = math.Ldexp(1, -n)
		cdf = pmf
		for x := 1; x <= k; x++ {
			pmf = pmf * float64(n-x+1) / float64(x)
			cdf += pmf
		}
		return min(cdf, 1), pmf
	}
	pmf = loaderHalf(n, k)
	cdf = pmf
	t := pmf
	for x := k; x > 0; x-- {
		t = t * float64(x) / float64(n-x+1)
		cdf += t
		if t < cdf*0x1p-60 {
			break
		}
	}
	return min(cdf, 1), pmf
}

// loaderHalf returns P[X = x] for X ~ Binomial(n, 1/2), 0 < x < n, by
// Loader's saddle-point method (C. Loader, "Fast and accurate computation of
// binomial probabilities", 2000), accurate to a few ulps for any n.
func loaderHalf(n, x int) float64 {
	nf, xf := float64(n), float64(x)
	half := nf / 2
	lc := stirlerr(nf) - stirlerr(xf) - stirlerr(nf-xf) - bd0(xf, half) - bd0(nf-xf, half)
	lf := math.Log(2*math.Pi) + math.Log(xf) + math.Log1p(-xf/nf)
	return math.Exp(lc - 0.5*lf)
}

// stirlerr returns ln(n!) − ln(√(2π n)·(n/e)ⁿ), the error of Stirling's
// formula, for n ≥ 1.
func stirlerr(n float64) float64 {
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - 0.5*math.Log(2*math.Pi)
	}
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x·ln(x/np) + np − x, computed without cancellation when x is
// close to np.
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/np) + np - x
}
