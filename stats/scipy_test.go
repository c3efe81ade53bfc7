package stats

import (
	"math"
	"slices"
	"testing"
)

// scipyFixtures are reference values from scipy 1.10.1 and statsmodels
// 0.13.5, written by testdata/gen_scipy.py (see its header for the command).
type scipyFixtures struct {
	Versions map[string]string
	McNemar  []struct {
		B, C                   int
		Exact, Binomtest, Midp float64
	}
	Wilson []wilsonCase
	Holm   []holmCase
	BCa    []struct {
		Name                  string
		Data, Replicates      []float64
		Confidence            float64
		Z0, A, Alpha1, Alpha2 float64
	}
}

// TestScipyStatsmodels checks every function with a scipy or statsmodels
// counterpart against it to 1e-9 (relative for p-values, absolute for
// intervals and levels), and prints the counts per suite.
func TestScipyStatsmodels(t *testing.T) {
	f := readJSON[scipyFixtures](t, "testdata/scipy_fixtures.json")
	report := func(suite string, pass, total int, worst float64) {
		t.Logf("%s: %d/%d passed, worst error %.3g", suite, pass, total, worst)
		t.Logf("scipy/statsmodels %s: %d passed, %d failed (worst error %.3g)", suite, pass, total-pass, worst)
	}

	pass, worst := 0, 0.0
	for _, c := range f.McNemar {
		e1 := relErr(McNemarExact(c.B, c.C), c.Exact)
		e2 := relErr(McNemarExact(c.B, c.C), c.Binomtest)
		e3 := relErr(McNemarMidP(c.B, c.C), c.Midp)
		worst = max(worst, e1, e2, e3)
		if e1 > 1e-9 || e2 > 1e-9 || e3 > 1e-9 {
			t.Errorf("McNemar(%d, %d): exact %.17g (statsmodels %.17g, binomtest %.17g), mid-p %.17g (scipy %.17g)",
				c.B, c.C, McNemarExact(c.B, c.C), c.Exact, c.Binomtest, McNemarMidP(c.B, c.C), c.Midp)
			continue
		}
		pass++
	}
	report("McNemar (statsmodels mcnemar, scipy binomtest, scipy binom mid-p)", pass, len(f.McNemar), worst)

	pass, worst = checkWilson(t, "statsmodels", f.Wilson, 1e-9)
	report("Wilson (statsmodels proportion_confint)", pass, len(f.Wilson), worst)

	pass, worst = checkHolm(t, "statsmodels", f.Holm, 1e-9)
	report("Holm (statsmodels multipletests)", pass, len(f.Holm), worst)

	pass, worst = 0, 0
	for _, c := range f.BCa {
		var mean float64
		for _, v := range c.Data {
			mean += v
		}
		mean /= float64(len(c.Data))
		sorted := slices.Sorted(slices.Values(c.Replicates))
		lv, err := bcaLevels(mean, sorted, JackknifeMeans(c.Data), c.Confidence)
		if err != nil {
			t.Fatal(err)
		}
		e := max(math.Abs(lv.z0-c.Z0), math.Abs(lv.a-c.A), math.Abs(lv.alpha1-c.Alpha1), math.Abs(lv.alpha2-c.Alpha2))
		worst = max(worst, e)
		if e > 1e-9 {
			t.Errorf("%s: z0 %.17g a %.17g α1 %.17g α2 %.17g; scipy %.17g %.17g %.17g %.17g",
				c.Name, lv.z0, lv.a, lv.alpha1, lv.alpha2, c.Z0, c.A, c.Alpha1, c.Alpha2)
			continue
		}
		pass++
	}
	report("BCa levels (scipy _bca_interval)", pass, len(f.BCa), worst)
}
