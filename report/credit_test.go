package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/task"
)

// creditObs returns 10 × 4 answers of arms A and B with hand-chosen partial
// credit: per block of four, A's F1 is 1, 0.5, 0, 1 and B's 0.5, 0.5, 0, 0.
// The first two of each block are in the sub-family deg_gt4 of family agg.
func creditObs() []Observation {
	type c struct {
		p, r, f1     float64
		exact, parse bool
	}
	a := []c{{1, 1, 1, true, true}, {1, 1.0 / 3, 0.5, false, true}, {0, 0, 0, false, false}, {1, 1, 1, true, true}}
	b := []c{{0.5, 0.5, 0.5, false, true}, {1, 1.0 / 3, 0.5, false, true}, {0, 0, 0, false, false}, {0, 0, 0, false, true}}
	var obs []Observation
	for blk := range 10 {
		for i := range 4 {
			tk := ""
			if i < 2 {
				tk = "deg_gt4"
			}
			for arm, cs := range map[string][]c{"A": a, "B": b} {
				x := cs[i]
				obs = append(obs, Observation{Arm: arm, Model: "m", Family: "agg", Task: tk, Graph: "g",
					QuestionID: fmt.Sprintf("q%d-%d", blk, i), Correct: x.exact, InputTokens: 100,
					Partial: &task.Score{Precision: x.p, Recall: x.r, F1: x.f1, ExactMatch: x.exact, ParseOK: x.parse}})
			}
		}
	}
	return obs
}

func TestCreditRowsAndPairs(t *testing.T) {
	rep, err := Build(creditObs(), Options{Seed: 1, Resamples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	// By hand: A mean F1 (1 + .5 + 0 + 1)/4 = .625, precision .75,
	// recall (1 + 1/3 + 0 + 1)/4 = .5833, exact .5, parse .75; in the
	// sub-family (first two): F1 .75, exact .5.
	want := map[string]string{
		"A|*|*":         "n=40 F1=0.6250 P=0.7500 R=0.5833 EM=0.5000 PS=0.7500",
		"B|*|*":         "n=40 F1=0.2500 P=0.3750 R=0.2083 EM=0.0000 PS=0.7500",
		"A|agg|deg_gt4": "n=20 F1=0.7500 P=1.0000 R=0.6667 EM=0.5000 PS=1.0000",
	}
	got := map[string]string{}
	for _, a := range rep.Accuracy {
		if a.Graph != All || a.Credit == nil {
			continue
		}
		c := a.Credit
		got[a.Arm+"|"+a.Family+"|"+a.Task] = fmt.Sprintf("n=%d F1=%.4f P=%.4f R=%.4f EM=%.4f PS=%.4f", c.N, c.F1, c.Precision, c.Recall, c.ExactMatch, c.ParseSuccess)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	// F1 differences per block: .5, 0, 0, 1: mean .375.
	found := false
	for _, p := range rep.CreditPairs {
		if p.Metric == MetricF1 {
			found = true
			if p.N != 40 || fmt.Sprintf("%.4f", p.Diff) != "0.3750" || !(p.BootLo > 0 && p.BootHi < 1) {
				t.Errorf("F1 pair %+v", p)
			}
		}
	}
	if !found || len(rep.CreditPairs) != len(CreditMetrics()) {
		t.Errorf("credit pairs %+v", rep.CreditPairs)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| mean F1 | precision | recall | exact match | parse success |", "| m | A | agg | deg_gt4 | 10 | 20 |", "## Paired comparisons on partial credit"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md.String())
		}
	}
}

func TestCriteriaOnCredit(t *testing.T) {
	set := &CriteriaSet{Name: "t", Criteria: []Criterion{
		{ID: "f1-better", Kind: "better", Arm: "A", Than: []string{"B"}, Metric: MetricF1},
		{ID: "f1-B-not-worse", Kind: "not_worse", Arm: "B", Than: []string{"A"}, Metric: MetricF1},
		// Exact match: A right and B wrong 20 times, never the reverse.
		{ID: "em-better", Kind: "better", Arm: "A", Than: []string{"B"}, Metric: MetricExactMatch},
		{ID: "within", Kind: "accuracy_within", Metric: MetricF1, Tolerance: 0.001, Expected: map[string]map[string]float64{"m": {"A": 0.625}}},
		// The sub-family is named by its task: F1 diffs .5, 0 per block.
		{ID: "sub", Kind: "better", Arm: "A", Than: []string{"B"}, Metric: MetricF1, Families: []string{"deg_gt4"}, Per: "model_family"},
	}}
	res, err := set.Evaluate(Input{Observations: creditObs()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"f1-better": Pass, "f1-B-not-worse": Fail, "em-better": Pass, "within": Pass, "sub": Pass}
	for _, r := range res {
		if r.Outcome != want[r.ID] {
			t.Errorf("%s: %s, want %s (%+v)", r.ID, r.Outcome, want[r.ID], r.Checks)
		}
	}
	if g := res[4].Checks[0].Group; g != "model=m family=deg_gt4" {
		t.Errorf("sub-family group %q", g)
	}
	if f := res[2].Checks[0].Figures; !strings.Contains(f, "b=20 c=0") {
		t.Errorf("exact match figures %q", f)
	}
	bad := &CriteriaSet{Name: "t", Criteria: []Criterion{{ID: "x", Kind: "token_reduction", Arm: "A", Than: []string{"B"}, Metric: MetricF1}}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "metric is only for") {
		t.Errorf("metric on token_reduction: %v", err)
	}
}

func TestRoundTripsFromManifest(t *testing.T) {
	m := &eval.Manifest{Contexts: []eval.Context{
		{Graph: "kg", Item: "1", Arm: "isolda", Format: "isolda", RoundTrip: eval.RoundTripIsomorphic},
		{Graph: "kg", Item: "2", Arm: "isolda", Format: "isolda", RoundTrip: eval.RoundTripIsomorphic},
		{Graph: "kg", Item: "1", Arm: "nt", Format: "ntriples", RoundTrip: eval.RoundTripIsomorphic},
		{Graph: "kg", Item: "2", Arm: "nt", Format: "ntriples", RoundTrip: eval.RoundTripDiffers},
		{Graph: "kg", Item: "1", Arm: "cut", Format: "ntriples", RoundTrip: eval.RoundTripCut},
		{Graph: "kg", Item: "1", Arm: "edges", Format: "list_of_edges"},
	}}
	rts := RoundTripsFromManifest(m)
	want := []RoundTrip{{Arm: "isolda", Graph: "kg", Isomorphic: true, Contexts: 2, IsomorphicContexts: 2},
		{Arm: "nt", Graph: "kg", Contexts: 2, IsomorphicContexts: 1}}
	if fmt.Sprint(rts) != fmt.Sprint(want) {
		t.Errorf("round trips %+v, want %+v", rts, want)
	}
	arms := ArmRows(m)
	if len(arms) != 4 || arms[0].Arm != "cut" || arms[0].Cut != 1 || arms[2].Checked() != 2 || arms[3].Differs != 1 {
		t.Errorf("arm rows %+v", arms)
	}
	res, err := (&CriteriaSet{Name: "t", Criteria: []Criterion{{ID: "1", Kind: "lossless", Arm: "isolda"}, {ID: "2", Kind: "lossless", Arm: "nt"}}}).
		Evaluate(Input{RoundTrips: rts})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Outcome != Pass || res[1].Outcome != Fail || res[0].Checks[0].Figures != "isomorphic=true (2/2 contexts)" {
		t.Errorf("lossless criteria %+v", res)
	}
}

// dropObs: arms A and B answer 20 paired questions in graphs en and ca; both
// are right on all of en; in ca, B is right on all and A on caRight.
func dropObs(caRight int) []Observation {
	var obs []Observation
	for i := range 20 {
		pair := fmt.Sprintf("inst-%02d", i)
		for _, g := range []string{"en", "ca"} {
			for _, arm := range []string{"A", "B"} {
				right := g == "en" || arm == "B" || i < caRight
				obs = append(obs, Observation{Arm: arm, Model: "m", Family: "f", Graph: g, QuestionID: g + "/" + pair, Pair: pair, Correct: right})
			}
		}
	}
	return obs
}

func TestDropNotLarger(t *testing.T) {
	set := &CriteriaSet{Name: "t", Criteria: []Criterion{{ID: "C5", Kind: "drop_not_larger", Arm: "A", Than: []string{"B"}, Best: true,
		Drops: []Drop{{From: "en", To: "ca"}}}}}
	// A loses 10 questions from en to ca and B none: 10 larger drops, 0
	// smaller, sign test p = 2/2^10 < 0.05: significantly larger.
	res, err := set.Evaluate(Input{Observations: dropObs(10)})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Outcome != Fail || !strings.Contains(res[0].Checks[0].Figures, "larger in 10, smaller in 0, sign test p=0.001953") {
		t.Errorf("10 lost: %+v", res[0])
	}
	// One question lost: p = 1.
	if res, _ = set.Evaluate(Input{Observations: dropObs(19)}); res[0].Outcome != Pass {
		t.Errorf("1 lost: %+v", res[0])
	}
	bad := &CriteriaSet{Name: "t", Criteria: []Criterion{{ID: "x", Kind: "drop_not_larger", Arm: "A", Than: []string{"B"}, Drops: []Drop{{From: "en", To: "en"}}}}}
	if err := bad.Validate(); err == nil {
		t.Error("a drop from a graph to itself accepted")
	}
}
