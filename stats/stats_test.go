package stats

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"
)

// fixtures are the reference values written by testdata/gen_fixtures.py
// (python3 testdata/gen_fixtures.py > testdata/fixtures.json), an independent
// standard-library Python implementation of the textbook formulas.
type fixtures struct {
	Wilson []wilsonCase
	BCa    []struct {
		Name                  string
		Data                  []float64
		Confidence, Theta     float64
		Replicates, Jackknife []float64
		Z0, A                 float64
		Alpha1, Alpha2        float64
		Lo, Hi                float64
		PctLo                 float64 `json:"pct_lo"`
		PctHi                 float64 `json:"pct_hi"`
	}
	Holm []holmCase
}

// wilsonCase is a reference Wilson interval, holmCase a reference Holm
// adjustment, from either oracle (fixtures.json or scipy_fixtures.json).
type (
	wilsonCase struct {
		K, N       int
		Confidence float64
		Lo, Hi     float64
	}
	holmCase struct {
		P, Adjusted []float64
	}
)

// checkWilson compares Wilson with an oracle's intervals, up to an absolute
// error of tol in either bound; it returns how many cases passed and the
// worst error.
func checkWilson(t *testing.T, oracle string, cases []wilsonCase, tol float64) (pass int, worst float64) {
	t.Helper()
	for _, c := range cases {
		iv, err := Wilson(c.K, c.N, c.Confidence)
		if err != nil {
			t.Fatal(err)
		}
		e := max(math.Abs(iv.Lo-c.Lo), math.Abs(iv.Hi-c.Hi))
		worst = max(worst, e)
		if e > tol {
			t.Errorf("Wilson(%d, %d, %v) = [%.17g, %.17g], %s [%.17g, %.17g]", c.K, c.N, c.Confidence, iv.Lo, iv.Hi, oracle, c.Lo, c.Hi)
			continue
		}
		pass++
	}
	return pass, worst
}

// checkHolm compares Holm with an oracle's adjusted p-values, up to an
// absolute error of tol in each; it returns how many cases passed and the
// worst error.
func checkHolm(t *testing.T, oracle string, cases []holmCase, tol float64) (pass int, worst float64) {
	t.Helper()
	for _, c := range cases {
		got := Holm(c.P)
		ok := len(got) == len(c.Adjusted)
		for i := range min(len(got), len(c.Adjusted)) {
			e := math.Abs(got[i] - c.Adjusted[i])
			worst = max(worst, e)
			ok = ok && e <= tol
		}
		if !ok {
			t.Errorf("Holm(%v) = %v, %s %v", c.P, got, oracle, c.Adjusted)
			continue
		}
		pass++
	}
	return pass, worst
}

func loadFixtures(t *testing.T) fixtures {
	return readJSON[fixtures](t, "testdata/fixtures.json")
}

// readJSON decodes the JSON file at path, failing the test on error.
func readJSON[T any](t *testing.T, path string) T {
	t.Helper()
	var v T
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestWilsonNewcombe1998(t *testing.T) {
	// Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3
	// (score interval without continuity correction), 95%, four decimals.
	cases := []struct {
		k, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tc := range cases {
		iv, err := Wilson(tc.k, tc.n, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(iv.Lo-tc.lo) > 0.5e-4 || math.Abs(iv.Hi-tc.hi) > 0.5e-4 {
			t.Errorf("Wilson(%d, %d) = %v, want [%.4f, %.4f]", tc.k, tc.n, iv, tc.lo, tc.hi)
		}
	}
}

func TestWilsonFixtures(t *testing.T) {
	f := loadFixtures(t)
	_, worst := checkWilson(t, "want", f.Wilson, 1e-12)
	t.Logf("Wilson: %d fixture intervals, worst absolute error %.3g", len(f.Wilson), worst)
}

func TestWilsonErrors(t *testing.T) {
	for _, c := range []struct {
		k, n int
		conf float64
	}{{0, 0, 0.95}, {-1, 5, 0.95}, {6, 5, 0.95}, {1, 5, 0}, {1, 5, 1}, {1, 5, math.NaN()}} {
		if _, err := Wilson(c.k, c.n, c.conf); err == nil {
			t.Errorf("Wilson(%d, %d, %v): no error", c.k, c.n, c.conf)
		}
	}
}

func TestBCaFixtures(t *testing.T) {
	f := loadFixtures(t)
	passed := 0
	defer func() {
		t.Logf("BCa fixtures: %d/%d passed", passed, len(f.BCa))
	}()
	for _, c := range f.BCa {
		passed++ // undone below on failure
		t.Run(c.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					passed--
				}
			}()
			jk := JackknifeMeans(c.Data)
			for i := range jk {
				if math.Abs(jk[i]-c.Jackknife[i]) > 1e-9*math.Max(1, math.Abs(c.Jackknife[i])) {
					t.Fatalf("jackknife[%d] = %v, want %v", i, jk[i], c.Jackknife[i])
				}
			}
			sorted := slices.Sorted(slices.Values(c.Replicates))
			lv, err := bcaLevels(c.Theta, sorted, c.Jackknife, c.Confidence)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []struct {
				name      string
				got, want float64
			}{{"z0", lv.z0, c.Z0}, {"a", lv.a, c.A}, {"alpha1", lv.alpha1, c.Alpha1}, {"alpha2", lv.alpha2, c.Alpha2}} {
				if math.Abs(q.got-q.want) > 1e-9 {
					t.Errorf("%s = %.17g, want %.17g", q.name, q.got, q.want)
				}
			}
			iv, err := BCaInterval(c.Theta, c.Replicates, c.Jackknife, c.Confidence)
			if err != nil {
				t.Fatal(err)
			}
			if iv.Lo != c.Lo || iv.Hi != c.Hi {
				t.Errorf("BCa = [%.17g, %.17g], want [%.17g, %.17g]", iv.Lo, iv.Hi, c.Lo, c.Hi)
			}
			pi, err := PercentileInterval(c.Replicates, c.Confidence)
			if err != nil {
				t.Fatal(err)
			}
			if pi.Lo != c.PctLo || pi.Hi != c.PctHi {
				t.Errorf("percentile = %v, want [%v, %v]", pi, c.PctLo, c.PctHi)
			}
			t.Logf("%s: BCa %v percentile %v (z0 %.4f, a %.4f)", c.Name, iv, pi, lv.z0, lv.a)
		})
	}
}

func TestHolmFixtures(t *testing.T) {
	f := loadFixtures(t)
	passed, _ := checkHolm(t, "want", f.Holm, 1e-12)
	t.Logf("Holm fixtures: %d/%d passed", passed, len(f.Holm))
	got := Holm([]float64{0.01, math.NaN(), 0.04})
	if got[0] != 0.02 || !math.IsNaN(got[1]) || got[2] != 0.04 {
		t.Errorf("Holm with NaN = %v", got)
	}
}

// naiveBootstrapDiff is a direct transcription of the documented paired
// bootstrap: the same PCG seed, n draws of IntN(n) per resample, the mean of
// a−b over the drawn questions, then the ⌈pB⌉-th smallest replicate.
func naiveBootstrapDiff(a, b []bool, seed uint64, B int) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	n := len(a)
	reps := make([]float64, B)
	for r := range reps {
		ca, cb := 0, 0
		for range n {
			i := rng.IntN(n)
			if a[i] {
				ca++
			}
			if b[i] {
				cb++
			}
		}
		reps[r] = float64(ca-cb) / float64(n)
	}
	sort.Float64s(reps)
	k := func(p float64) float64 { return reps[int(math.Ceil(p*float64(B)))-1] }
	return k(0.025), k(0.975)
}

func TestPairedBootstrapAgreesWithNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 17, 200} {
		a, b := make([]bool, n), make([]bool, n)
		for i := range a {
			a[i] = rng.Float64() < 0.7
			b[i] = rng.Float64() < 0.6
		}
		for _, seed := range []uint64{0, 1, 42} {
			p, err := ComparePaired(a, b, BootstrapOptions{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := naiveBootstrapDiff(a, b, seed, DefaultResamples)
			if math.Abs(p.Bootstrap.Lo-lo) > 1e-12 || math.Abs(p.Bootstrap.Hi-hi) > 1e-12 {
				t.Errorf("n=%d seed=%d: bootstrap %v, naive [%v, %v]", n, seed, p.Bootstrap, lo, hi)
			}
		}
	}
}

func TestPairedBootstrapReproducible(t *testing.T) {
	a := []bool{true, true, false, true, false, true, true, false, true, true}
	b := []bool{true, false, false, false, true, true, false, false, true, false}
	p1, _ := ComparePaired(a, b, BootstrapOptions{Seed: 5})
	p2, _ := ComparePaired(a, b, BootstrapOptions{Seed: 5})
	if p1.Bootstrap != p2.Bootstrap || p1.BCa != p2.BCa {
		t.Errorf("same seed, different intervals: %v %v / %v %v", p1.Bootstrap, p1.BCa, p2.Bootstrap, p2.BCa)
	}
	x := []float64{1, 0, -1, 0, 1, 1, 0, 0, -1, 1}
	r5, _ := BootstrapMeans(x, BootstrapOptions{Seed: 5, Resamples: 50})
	r6, _ := BootstrapMeans(x, BootstrapOptions{Seed: 6, Resamples: 50})
	if slices.Equal(r5, r6) {
		t.Error("seeds 5 and 6 drew identical replicates")
	}
}

func BenchmarkComparePaired1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]bool, 1000), make([]bool, 1000)
	for i := range x {
		x[i], y[i] = rng.Float64() < 0.7, rng.Float64() < 0.65
	}
	for b.Loop() {
		if _, err := ComparePaired(x, y, BootstrapOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPairedIntervalCoverage simulates paired arms with a known accuracy
// difference and checks that the 95% percentile and BCa intervals cover it
// close to 95% of the time.
func TestPairedIntervalCoverage(t *testing.T) {
	const sims, n = 300, 150
	// Question-level joint distribution: P(A right, B wrong) = 0.20,
	// P(A wrong, B right) = 0.10, so the true difference is 0.10.
	const pb, pc, truth = 0.20, 0.10, 0.10
	rng := rand.New(rand.NewPCG(2026, 11))
	var coverPct, coverBCa int
	for s := range sims {
		a, b := make([]bool, n), make([]bool, n)
		for i := range a {
			u := rng.Float64()
			switch {
			case u < pb:
				a[i] = true
			case u < pb+pc:
				b[i] = true
			case u < 0.75:
				a[i], b[i] = true, true
			}
		}
		p, err := ComparePaired(a, b, BootstrapOptions{Seed: uint64(s), Resamples: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if p.Bootstrap.Contains(truth) {
			coverPct++
		}
		if p.BCaErr == nil && p.BCa.Contains(truth) {
			coverBCa++
		}
	}
	fp, fb := float64(coverPct)/sims, float64(coverBCa)/sims
	t.Logf("coverage of the true difference over %d simulations (n=%d): percentile %.3f, BCa %.3f", sims, n, fp, fb)
	t.Logf("bootstrap coverage (%d sims, n=%d, nominal 0.95): percentile %.3f, BCa %.3f", sims, n, fp, fb)
	// Binomial(300, 0.95) has sd 0.0126: accept 0.91–0.99.
	for name, f := range map[string]float64{"percentile": fp, "BCa": fb} {
		if f < 0.91 || f > 0.99 {
			t.Errorf("%s coverage %.3f outside [0.91, 0.99]", name, f)
		}
	}
}

func TestComparePairedEdgeCases(t *testing.T) {
	// No discordant pairs: p = 1, difference 0, intervals collapse to 0.
	a := []bool{true, false, true, true}
	p, err := ComparePaired(a, a, BootstrapOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.B != 0 || p.C != 0 || p.McNemar != 1 || p.MidP != 1 || p.Diff != 0 ||
		p.Bootstrap != (Interval{}) || p.BCa != (Interval{}) || p.BCaErr != nil {
		t.Errorf("no discordant pairs: %+v", p)
	}
	// All discordant one way: b = 6, c = 0, exact p = 2/64, mid-p 1/64,
	// every resample has difference 1.
	a = []bool{true, true, true, true, true, true}
	b := make([]bool, 6)
	p, err = ComparePaired(a, b, BootstrapOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.B != 6 || p.C != 0 || p.Diff != 1 || p.AccA != 1 || p.AccB != 0 ||
		math.Abs(p.McNemar-2.0/64) > 1e-15 || math.Abs(p.MidP-1.0/64) > 1e-15 ||
		p.Bootstrap != (Interval{1, 1}) || p.BCa != (Interval{1, 1}) {
		t.Errorf("all discordant: %+v", p)
	}
	// n = 1.
	p, err = ComparePaired([]bool{false}, []bool{true}, BootstrapOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.N != 1 || p.B != 0 || p.C != 1 || p.Diff != -1 || p.McNemar != 1 || p.MidP != 0.5 ||
		p.Bootstrap != (Interval{-1, -1}) || p.BCa != (Interval{-1, -1}) {
		t.Errorf("n = 1: %+v", p)
	}
	if _, err := ComparePaired([]bool{true}, []bool{true, false}, BootstrapOptions{}); err == nil {
		t.Error("length mismatch: no error")
	}
	if _, err := ComparePaired(nil, nil, BootstrapOptions{}); err == nil {
		t.Error("empty: no error")
	}
	if _, err := ComparePaired(a, b, BootstrapOptions{Confidence: 1.5}); err == nil {
		t.Error("bad confidence: no error")
	}
}

func TestBCaDegenerate(t *testing.T) {
	// Every replicate above the estimate: the bias correction is infinite.
	_, err := BCaInterval(0, []float64{1, 2, 3}, []float64{0, 1}, 0.95)
	if !errors.Is(err, ErrDegenerate) {
		t.Errorf("err = %v, want ErrDegenerate", err)
	}
	if _, err := BCaInterval(0, nil, nil, 0.95); err == nil {
		t.Error("no replicates: no error")
	}
	if _, err := BCaInterval(0, []float64{math.NaN(), 1}, nil, 0.95); err == nil {
		t.Error("NaN replicate: no error")
	}
}

func TestSummarize(t *testing.T) {
	// Textbook sample: mean 5, sum of squared deviations 32, sample sd √(32/7).
	s := SummarizeInts([]int{2, 4, 4, 4, 5, 5, 7, 9})
	if s.N != 8 || s.Mean != 5 || math.Abs(s.SD-math.Sqrt(32.0/7)) > 1e-15 || s.Min != 2 || s.Max != 9 {
		t.Errorf("Summarize = %+v", s)
	}
	// Large offsets must not lose the spread (naive Σx² would).
	s = Summarize([]float64{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16})
	if s.Mean != 1e9+10 || math.Abs(s.SD-math.Sqrt(30)) > 1e-6 {
		t.Errorf("offset sample: %+v", s)
	}
	s = Summarize([]float64{3})
	if s.Mean != 3 || !math.IsNaN(s.SD) || s.Min != 3 || s.Max != 3 {
		t.Errorf("single value: %+v", s)
	}
	if s = Summarize(nil); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("empty: %+v", s)
	}
}

func TestRunToRun(t *testing.T) {
	// Three trials over four questions: accuracies 0.5, 0.75, 1.
	s, err := RunToRun([][]bool{
		{true, false, true, false},
		{true, true, true, false},
		{true, true, true, true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 3 || s.Mean != 0.75 || math.Abs(s.SD-0.25) > 1e-15 {
		t.Errorf("RunToRun = %+v, want mean 0.75 sd 0.25", s)
	}
	if _, err := RunToRun([][]bool{{true}, {true, false}}); err == nil {
		t.Error("ragged trials: no error")
	}
}

// dominated is the definition of Pareto dominance, checked pair by pair.
func dominated(p Point, pts []Point) bool {
	for _, q := range pts {
		if math.IsNaN(q.Tokens) || math.IsNaN(q.Accuracy) {
			continue
		}
		if q.Tokens <= p.Tokens && q.Accuracy >= p.Accuracy && (q.Tokens < p.Tokens || q.Accuracy > p.Accuracy) {
			return true
		}
	}
	return false
}

func TestParetoFront(t *testing.T) {
	pts := []Point{
		{1000, 0.60}, {800, 0.60}, {800, 0.55}, {1200, 0.70}, {1200, 0.70},
		{1500, 0.65}, {400, 0.30}, {math.NaN(), 0.99}, {2000, 0.80},
	}
	got := ParetoFront(pts)
	want := []int{6, 1, 3, 4, 8} // by tokens; the duplicate (1200, .70) stays twice
	if !slices.Equal(got, want) {
		t.Errorf("ParetoFront = %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := rng.IntN(30)
		pts := make([]Point, n)
		for i := range pts {
			// Few distinct values, so ties are frequent.
			pts[i] = Point{float64(rng.IntN(8)), float64(rng.IntN(6)) / 5}
		}
		var brute []int
		for i, p := range pts {
			if !dominated(p, pts) {
				brute = append(brute, i)
			}
		}
		got := ParetoFront(pts)
		sorted := slices.Sorted(slices.Values(got))
		if !slices.Equal(sorted, brute) {
			t.Fatalf("trial %d: ParetoFront(%v) = %v, brute force %v", trial, pts, got, brute)
		}
		for i := 1; i < len(got); i++ {
			if pts[got[i-1]].Tokens > pts[got[i]].Tokens {
				t.Fatalf("front not ordered by tokens: %v", got)
			}
		}
	}
}

func TestCompareScores(t *testing.T) {
	// Partial-credit scores: the difference is the mean of a − b, here
	// (0.5 + 0 − 0.25 + 1 + 0) / 5 = 0.25.
	a := []float64{1, 0.5, 0.25, 1, 0}
	b := []float64{0.5, 0.5, 0.5, 0, 0}
	s, err := CompareScores(a, b, BootstrapOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 5 || s.MeanA != 0.55 || s.MeanB != 0.3 || math.Abs(s.Diff-0.25) > 1e-15 || !s.Bootstrap.Contains(s.Diff) {
		t.Errorf("CompareScores = %+v", s)
	}
	// Scores 0/1 must agree with the boolean comparison.
	rng := rand.New(rand.NewPCG(8, 9))
	ba, bb := make([]bool, 50), make([]bool, 50)
	fa, fb := make([]float64, 50), make([]float64, 50)
	for i := range ba {
		ba[i], bb[i] = rng.IntN(3) > 0, rng.IntN(2) > 0
		if ba[i] {
			fa[i] = 1
		}
		if bb[i] {
			fb[i] = 1
		}
	}
	p, _ := ComparePaired(ba, bb, BootstrapOptions{Seed: 4})
	s, _ = CompareScores(fa, fb, BootstrapOptions{Seed: 4})
	if p.Diff != s.Diff || p.Bootstrap != s.Bootstrap || p.BCa != s.BCa || p.AccA != s.MeanA || p.AccB != s.MeanB {
		t.Errorf("0/1 scores: %+v vs %+v", s, p)
	}
	if _, err := CompareScores([]float64{math.NaN()}, []float64{1}, BootstrapOptions{}); err == nil {
		t.Error("NaN score: no error")
	}
	if _, err := CompareScores([]float64{1}, nil, BootstrapOptions{}); err == nil {
		t.Error("length mismatch: no error")
	}
}

// TestDominates checks Dominates against the written-out definition for
// one score (the ParetoFront test's), and on several scores by hand.
func TestDominates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		p := Point{float64(rng.IntN(4)), float64(rng.IntN(3))}
		q := Point{float64(rng.IntN(4)), float64(rng.IntN(3))}
		want := q.Tokens <= p.Tokens && q.Accuracy >= p.Accuracy && (q.Tokens < p.Tokens || q.Accuracy > p.Accuracy)
		if got := Dominates(q.Tokens, []float64{q.Accuracy}, p.Tokens, []float64{p.Accuracy}); got != want {
			t.Fatalf("Dominates(%v, %v) = %v, want %v", q, p, got, want)
		}
	}
	cases := []struct {
		ac     float64
		as     []float64
		bc     float64
		bs     []float64
		want   bool
		reason string
	}{
		{10, []float64{1, 0.5}, 10, []float64{1, 0.4}, true, "better on one score"},
		{10, []float64{1, 0.5}, 10, []float64{1, 0.5}, false, "equal points"},
		{9, []float64{1, 0.5}, 10, []float64{1, 0.5}, true, "cheaper"},
		{9, []float64{1, 0.4}, 10, []float64{0.9, 0.5}, false, "worse on one score"},
		{9, []float64{1}, 10, []float64{1, 0.5}, false, "incomparable score counts"},
		{9, []float64{math.NaN()}, 10, []float64{0}, false, "NaN score"},
		{math.NaN(), []float64{1}, 10, []float64{0}, false, "NaN cost"},
	}
	for _, c := range cases {
		if got := Dominates(c.ac, c.as, c.bc, c.bs); got != c.want {
			t.Errorf("%s: Dominates = %v, want %v", c.reason, got, c.want)
		}
	}
}
