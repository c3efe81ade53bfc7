package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/isolda/isolda/report/internal/reporttest"
)

// small is reporttest.Small as observations.
func small() []Observation { return observations(reporttest.Small()) }

func near(t *testing.T, what string, got Num, want, tol float64) {
	t.Helper()
	if math.IsNaN(float64(got)) != math.IsNaN(want) || math.Abs(float64(got)-want) > tol {
		t.Errorf("%s = %v, want %v (±%g)", what, got, want, tol)
	}
}

func TestAccuracyWilson(t *testing.T) {
	r, err := Build(small(), Options{Seed: 1, Resamples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	// Wilson bounds from the closed form with z = 1.959963984540054,
	// computed independently in Python (see the report).
	want := map[[3]string][4]float64{
		{"A", All, All}:  {8, 10, 0.4901624715366418, 0.9433178485456248},
		{"B", All, All}:  {5, 10, 0.236593090512564, 0.7634069094874361},
		{"A", "f1", All}: {5, 5, math.NaN(), math.NaN()},
		{"A", "f2", "g"}: {3, 5, math.NaN(), math.NaN()},
		{"B", "f2", All}: {1, 5, math.NaN(), math.NaN()},
	}
	seen := 0
	for _, a := range r.Accuracy {
		w, ok := want[[3]string{a.Arm, a.Family, a.Graph}]
		if !ok {
			continue
		}
		seen++
		if a.Correct != int(w[0]) || a.N != int(w[1]) {
			t.Errorf("%s %s %s: %d/%d, want %v/%v", a.Arm, a.Family, a.Graph, a.Correct, a.N, w[0], w[1])
		}
		if !math.IsNaN(w[2]) {
			near(t, "lo", a.Lo, w[2], 1e-12)
			near(t, "hi", a.Hi, w[3], 1e-12)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d expected rows", seen, len(want))
	}
	// 3 arms × (overall + 2 families + 1 graph + 2 family×graph) rows.
	if len(r.Accuracy) != 18 {
		t.Errorf("%d accuracy rows, want 18", len(r.Accuracy))
	}
	if r.Accuracy[0].Arm != "A" || r.Accuracy[0].Family != All || r.Accuracy[0].Graph != All {
		t.Errorf("first row %+v, want A * *", r.Accuracy[0])
	}
}

func TestPairs(t *testing.T) {
	r, err := Build(small(), Options{Seed: 7, Resamples: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3 (A-B, A-C, B-C)", len(r.Pairs))
	}
	p := r.Pairs[0]
	if p.A != "A" || p.B != "B" || p.N != 10 || p.B10 != 4 || p.C01 != 1 {
		t.Fatalf("A vs B: %+v, want n=10 b=4 c=1", p)
	}
	// Exact: 2·P[X ≤ 1], X ~ Bin(5, ½) = 2·6/32; mid-p: that minus P[X = 1] = 5/32.
	near(t, "McNemar", p.McNemar, 12.0/32, 1e-12)
	near(t, "mid-p", p.MidP, 7.0/32, 1e-12)
	near(t, "diff", p.Diff, 0.3, 1e-12)
	if !(p.BootLo <= p.Diff && p.Diff <= p.BootHi) {
		t.Errorf("bootstrap interval [%v, %v] misses diff %v", p.BootLo, p.BootHi, p.Diff)
	}
	// Reference arms restrict the comparisons.
	r2, err := Build(small(), Options{Seed: 7, Resamples: 500, Reference: []string{"B"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Pairs) != 2 || r2.Pairs[0].A != "A" || r2.Pairs[1].A != "C" || r2.Pairs[0].B != "B" {
		t.Errorf("reference pairs %+v", r2.Pairs)
	}
}

func TestTokensParetoRunToRun(t *testing.T) {
	obs := small()
	r, err := Build(obs, Options{Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	// A: 101..110: mean 105.5, sd = sqrt(Σ(i−5.5)²/9) = sqrt(82.5/9).
	tr := r.Tokens[0]
	if tr.Arm != "A" || tr.N != 10 {
		t.Fatalf("first token row %+v", tr)
	}
	near(t, "in mean", tr.InMean, 105.5, 1e-12)
	near(t, "in sd", tr.InSD, math.Sqrt(82.5/9), 1e-12)
	near(t, "in min", tr.InMin, 101, 0)
	near(t, "in max", tr.InMax, 110, 0)
	near(t, "out sd", tr.OutSD, 0, 0)
	// Pareto: A (105.5, 0.8) and C (155.5, 0.9) on the front; B (205.5, 0.5) dominated.
	front := map[string]bool{}
	for _, p := range r.Pareto {
		front[p.Arm] = p.OnFront
	}
	if !front["A"] || front["B"] || !front["C"] {
		t.Errorf("front %v, want A and C", front)
	}
	if len(r.RunToRun) != 0 {
		t.Errorf("run-to-run rows without repeated trials: %+v", r.RunToRun)
	}
	// A second trial of A right on q01-q06 only: accuracies 0.8 and 0.6,
	// mean 0.7, sd sqrt(0.02) (denominator N−1).
	for i := 1; i <= 10; i++ {
		obs = append(obs, Observation{Arm: "A", Model: "m", Family: "f", Graph: "g", QuestionID: fmt.Sprintf("q%02d", i), Trial: 1, Correct: i <= 6})
	}
	r, err = Build(obs, Options{Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.RunToRun) != 1 || r.RunToRun[0].Trials != 2 || r.RunToRun[0].Questions != 10 {
		t.Fatalf("run-to-run %+v", r.RunToRun)
	}
	near(t, "run mean", r.RunToRun[0].Mean, 0.7, 1e-12)
	near(t, "run sd", r.RunToRun[0].SD, math.Sqrt(0.02), 1e-12)
}

func TestDuplicateObservation(t *testing.T) {
	obs := small()
	obs = append(obs, obs[0])
	if _, err := Build(obs, Options{}); err == nil {
		t.Error("duplicate observation accepted")
	}
}

func TestTablesDeterministic(t *testing.T) {
	obs := small()
	r1, err := Build(obs, Options{Seed: 3, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	// Reversed input order gives byte-identical output.
	rev := make([]Observation, len(obs))
	for i, o := range obs {
		rev[len(obs)-1-i] = o
	}
	r2, err := Build(rev, Options{Seed: 3, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*Report) string{
		func(r *Report) string { var b bytes.Buffer; must(t, r.WriteMarkdown(&b)); return b.String() },
		func(r *Report) string { var b bytes.Buffer; must(t, r.WriteJSON(&b)); return b.String() },
	} {
		if f(r1) != f(r2) {
			t.Error("output depends on input order")
		}
	}
	var md bytes.Buffer
	must(t, r1.WriteMarkdown(&md))
	// One graph: the Markdown leaves out the graph column (DisplayTables).
	if !strings.Contains(md.String(), "| m | A | * | * | 8 | 10 | 0.8000 | 0.4902 | 0.9433 |") {
		t.Errorf("markdown lacks the A overall row:\n%s", md.String())
	}
	for _, tb := range r1.Tables() {
		var b bytes.Buffer
		must(t, tb.WriteCSV(&b))
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", tb.Name, err)
		}
		if len(recs) != len(tb.Rows)+1 {
			t.Errorf("%s: %d CSV records, want %d", tb.Name, len(recs), len(tb.Rows)+1)
		}
	}
	// JSON round-trips, NaN as null (run-to-run absent, BCa maybe degenerate).
	var js bytes.Buffer
	must(t, r1.WriteJSON(&js))
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Accuracy) != len(r1.Accuracy) || back.Pairs[0].McNemar != r1.Pairs[0].McNemar {
		t.Error("JSON does not round-trip")
	}
	// A single observation: SD undefined, encoded as null.
	one, err := Build(obs[:1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	js.Reset()
	must(t, one.WriteJSON(&js))
	if !strings.Contains(js.String(), `"in_sd": null`) {
		t.Errorf("undefined SD not null:\n%s", js.String())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkBuild builds the report of the paper-sized run (4 models × 4 arms
// × 257 questions, every pair of arms) with 10,000 bootstrap resamples.
func BenchmarkBuild(b *testing.B) {
	obs := paperRun()
	for b.Loop() {
		if _, err := Build(obs, Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
