package stats

import (
	"math"
	"math/big"
	"testing"
)

// exactHalfTail returns P[X ≤ k] and P[X = k] for X ~ Binomial(n, 1/2) as
// exact rationals, summing binomial coefficients with math/big.
func exactHalfTail(n, k int) (cdf, pmf *big.Rat) {
	sum := new(big.Int)
	coef := big.NewInt(1) // C(n, 0)
	var last *big.Int
	for x := 0; x <= k; x++ {
		if x > 0 {
			coef.Mul(coef, big.NewInt(int64(n-x+1)))
			coef.Quo(coef, big.NewInt(int64(x)))
		}
		sum.Add(sum, coef)
		last = new(big.Int).Set(coef)
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	return new(big.Rat).SetFrac(sum, den), new(big.Rat).SetFrac(last, den)
}

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// relErr returns |got − want| / |want|, or |got| when want is 0.
func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestMcNemarAgainstExactBinomialSums(t *testing.T) {
	pairs := [][2]int{
		{0, 1}, {1, 0}, {0, 5}, {2, 8}, {3, 11}, {5, 5}, {6, 7}, {10, 25}, {17, 3},
		{40, 60}, {0, 60}, {100, 130}, {250, 300}, {480, 520}, {700, 900},
		{300, 700}, {499, 501}, {0, 1000}, {1, 999}, {1000, 1100}, {1900, 2250}, {2000, 2150}, {50, 1500}, {4000, 4300}, {1, 4000}, {10, 1500}, {9990, 10010}, {7000, 13000},
	}
	worst := 0.0
	for _, p := range pairs {
		b, c := p[0], p[1]
		n, k := b+c, min(b, c)
		cdf, pmf := exactHalfTail(n, k)
		two := new(big.Rat).Mul(cdf, big.NewRat(2, 1))
		wantExact := math.Min(1, ratFloat(two))
		mid := new(big.Rat).Sub(two, pmf)
		wantMid := math.Min(1, ratFloat(mid))
		if 2*k == n {
			wantExact, wantMid = 1, 1
		}
		gotExact, gotMid := McNemarExact(b, c), McNemarMidP(b, c)
		e1, e2 := relErr(gotExact, wantExact), relErr(gotMid, wantMid)
		worst = max(worst, e1, e2)
		if e1 > 1e-12 || e2 > 1e-12 {
			t.Errorf("b=%d c=%d: exact %.17g want %.17g (rel %.2g); mid-p %.17g want %.17g (rel %.2g)",
				b, c, gotExact, wantExact, e1, gotMid, wantMid, e2)
		}
	}
	t.Logf("McNemar vs math/big: %d pairs, worst relative error %.3g", len(pairs), worst)
}

func TestMcNemarTextbookValues(t *testing.T) {
	cases := []struct {
		b, c        int
		exact, midp float64
	}{
		{0, 0, 1, 1},
		{1, 0, 1, 0.5},                         // n = 1: 2·P[X ≤ 0] = 1; mid-p 1 − P[X = 0] = 1/2
		{0, 5, 2.0 / 32, 1.0 / 32},             // 2·2⁻⁵; mid-p 2·2⁻⁵ − 2⁻⁵
		{2, 8, 112.0 / 1024, 67.0 / 1024},      // 2·(1+10+45)/1024; − 45/1024
		{4, 4, 1, 1},                           // balanced
		{0, 12, 2.0 / 4096, 1.0 / 4096},        // all discordant pairs one way
		{5, 0, 0.0625, 0.03125},                // symmetric in b and c
		{3, 9, 2 * 299.0 / 4096, 378.0 / 4096}, // (1+12+66+220)=299; 2·299 − 220 = 378
	}
	for _, tc := range cases {
		if got := McNemarExact(tc.b, tc.c); relErr(got, tc.exact) > 1e-12 {
			t.Errorf("McNemarExact(%d, %d) = %.17g, want %.17g", tc.b, tc.c, got, tc.exact)
		}
		if got := McNemarMidP(tc.b, tc.c); relErr(got, tc.midp) > 1e-12 {
			t.Errorf("McNemarMidP(%d, %d) = %.17g, want %.17g", tc.b, tc.c, got, tc.midp)
		}
	}
	if !math.IsNaN(McNemarExact(-1, 3)) || !math.IsNaN(McNemarMidP(2, -1)) {
		t.Error("negative counts must give NaN")
	}
}
