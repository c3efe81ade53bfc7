package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/adaptive"
	"github.com/isolda/isolda/report/internal/reporttest"
	"github.com/isolda/isolda/stats"
)

// b − c = 80 − 70 = 10 is fixed by the accuracies; among b + c ≤ 105 only
// b = 13, c = 3 gives a mid-p McNemar p that rounds to the published 0.013.
func TestPaperDiscordantCounts(t *testing.T) {
	var found [][2]int
	for c := 0; 2*c+10 <= 105; c++ {
		if p := stats.McNemarMidP(c+10, c); math.Round(p*1000) == 13 {
			found = append(found, [2]int{c + 10, c})
		}
	}
	if len(found) != 1 || found[0] != [2]int{13, 3} {
		t.Fatalf("discordant counts with mid-p 0.013: %v", found)
	}
}

func TestPolicyReportAgainstPaper(t *testing.T) {
	pr, err := BuildPolicyReport(reporttest.PaperResult(), Options{Seed: 1101, Resamples: 10000})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		acc  string
		rel  float64
		lat  float64
		cpq  float64
		diff string
	}{
		adaptive.PolicyRouter:    {"64.76", 1, 2, 1, "-1.90"},
		adaptive.PolicyFixedBest: {"66.67", 1, 2, 1, "–"},
		adaptive.PolicyMV5:       {"71.43", 14000.0 / 2800, 3, 5, "+4.76"},
		adaptive.PolicySelector:  {"76.19", 12480.0 / 2800, 5, 6, "+9.52"},
		adaptive.PolicyOracle:    {"82.86", 14000.0 / 2800, 3, 5, "+16.19"},
	}
	if len(pr.Rows) != 5 {
		t.Fatalf("%d rows", len(pr.Rows))
	}
	for _, r := range pr.Rows {
		w := want[r.Policy]
		if pct(r.Accuracy) != w.acc || pp(r.Diff) != w.diff || math.Abs(float64(r.RelativeCost)-w.rel) > 1e-9 ||
			math.Abs(float64(r.MeanLatencyMS)/1000-w.lat) > 1e-9 || math.Abs(float64(r.CallsPerQuestion)-w.cpq) > 1e-9 {
			t.Errorf("%s: acc %s diff %s rel %v lat %v cpq %v; want %+v", r.Policy, pct(r.Accuracy), pp(r.Diff), r.RelativeCost, r.MeanLatencyMS, r.CallsPerQuestion, w)
		}
		if r.Lo > r.Accuracy || r.Hi < r.Accuracy {
			t.Errorf("%s: Wilson [%v, %v] misses %v", r.Policy, r.Lo, r.Hi, r.Accuracy)
		}
	}
	var sel PolicyRow
	for _, r := range pr.Rows {
		if r.Policy == adaptive.PolicySelector {
			sel = r
		}
	}
	// The study: +9.52 pp, BCa 95% [+1.90, +16.19], mid-p 0.013.
	if sel.B != 13 || sel.C != 3 || math.Round(float64(sel.MidP)*1000) != 13 {
		t.Errorf("selector vs fixed-best: b %d c %d mid-p %v, want 13, 3, 0.013", sel.B, sel.C, sel.MidP)
	}
	if math.Abs(float64(sel.BCaLo)-0.0190) > 0.02 || math.Abs(float64(sel.BCaHi)-0.1619) > 0.02 || sel.BCaLo <= 0 {
		t.Errorf("selector BCa [%v, %v], the study's [0.0190, 0.1619]", sel.BCaLo, sel.BCaHi)
	}
	line := fmt.Sprintf("study Table 3 oracle: selector vs fixed-best Δ %s pp, BCa [%s, %s] pp (study [+1.90, +16.19]), mid-p %.4f (study 0.013), b=%d c=%d",
		pp(sel.Diff), pp(sel.BCaLo), pp(sel.BCaHi), float64(sel.MidP), sel.B, sel.C)
	t.Log(line)

	var md bytes.Buffer
	if err := pr.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| selector | 80 | 105 | 76.19 |", "| fixed-best | 70 | 105 | 66.67 |", "| 13 | 3 | 0.0127 |", "| 4.46 |", "## Selector choices per format", "| adjacency | 60 |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md.String())
		}
	}
	var txt bytes.Buffer
	if err := pr.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(txt.String()), "\n"); len(lines) != 7 {
		t.Errorf("text table of %d lines:\n%s", len(lines), txt.String())
	}
	var js bytes.Buffer
	if err := pr.WriteJSON(&js); err != nil || !strings.Contains(js.String(), `"diff": null`) {
		t.Errorf("JSON (fixed-best's own diff must be null): %v\n%.500s", err, js.String())
	}
}

func TestFromSelectRun(t *testing.T) {
	dir := t.TempDir()
	if IsSelectRun(dir) {
		t.Fatal("empty folder taken for a select run")
	}
	var b bytes.Buffer
	if err := reporttest.PaperResult().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, adaptive.ResultFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !IsSelectRun(dir) {
		t.Fatal("select run not recognized")
	}
	res, err := FromSelectRun(dir)
	if err != nil || len(res.Questions) != 105 {
		t.Fatalf("%v", err)
	}
	os.WriteFile(filepath.Join(dir, adaptive.ResultFile), []byte(`{"version": 9}`), 0o644)
	if _, err := FromSelectRun(dir); err == nil {
		t.Fatal("accepted a result of another version")
	}
	if _, err := BuildPolicyReport(&adaptive.Result{}, Options{}); err == nil {
		t.Fatal("report of no questions")
	}
}
