package page

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/internal/reporttest"
)

// TestWriteSynthRun writes the synthetic KG-LLM-Bench-shaped run (22,500
// calls, ~640 MB) into $ISOLDA_SYNTH_RUN, for measuring isolda report at
// real size (BENCHMARKS.md); it is skipped without that variable.
func TestWriteSynthRun(t *testing.T) {
	dir := os.Getenv("ISOLDA_SYNTH_RUN")
	if dir == "" {
		t.Skip("set ISOLDA_SYNTH_RUN to a folder to write the synthetic run into")
	}
	shape := reporttest.KGLLMBenchShape()
	// ISOLDA_SYNTH_BYREF=1: the log format of runs with contexts stored once.
	shape.ByReference = os.Getenv("ISOLDA_SYNTH_BYREF") == "1"
	if err := reporttest.WriteSynthRun(dir, shape); err != nil {
		t.Fatal(err)
	}
}

// TestSampledView: a run with more calls than the view shows gets a
// sample of every (model, arm, family) cell, the cell's failed and wrong
// answers before its correct ones, the count of shown against all at the
// top, every family in the filters, and every call in answers.csv.
func TestSampledView(t *testing.T) {
	dir := t.TempDir()
	shape := reporttest.SynthShape{Tasks: []string{"T1", "T2", "T3", "T4", "T5"}, PerTask: 20, Models: []string{"m1", "m2", "m3"},
		ModelArms: map[string][]string{"m3": {"a1", "a2"}}, Arms: []string{"a1", "a2", "a3", "a4"}, ContextBytes: 3000, ByReference: true}
	must(t, reporttest.WriteSynthRun(dir, shape))
	run, err := report.ReadRunWith(dir, report.ReadOptions{Lazy: true})
	must(t, err)
	calls := shape.Calls() // (4 + 4 + 2) arms × 100 questions
	if calls != 1000 || len(run.Samples) != calls || len(run.Observations) != run.OK {
		t.Fatalf("%d calls, %d samples, %d observations (%d ok)", calls, len(run.Samples), len(run.Observations), run.OK)
	}
	r, err := report.Build(run.Observations, report.Options{Seed: 1, Resamples: 100})
	must(t, err)
	out := filepath.Join(t.TempDir(), "out")
	// 50 cells; 200 samples asked: 4 of each.
	must(t, WriteDir(out, Page{Title: "t", Report: r, Run: run, MaxSamples: 200}))
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	must(t, err)
	s := string(b)
	// The log refers to the contexts: every message is rebuilt from them.
	if strings.Contains(s, "request body not") || strings.Count(s, `class="ctx-ref"`) != 200 {
		t.Errorf("%d context references; request bodies not rebuilt: %v", strings.Count(s, `class="ctx-ref"`), strings.Contains(s, "request body not"))
	}
	if c := xmlElements(t, s)["details.sample"]; c != 200 {
		t.Errorf("%d samples shown, want 200", c)
	}
	if !strings.Contains(s, "of 200 answers shown; the page holds 200 of the run's 1000 calls (up to 4 of each of the 50 model × arm × family cells, failed and wrong answers first)") {
		t.Error("the view does not say how many of how many it shows")
	}
	// The count is above the list (CSS order), results before answers,
	// and the inputs after them, folded.
	if !(strings.Index(s, `id="tables"`) < strings.Index(s, `id="samples"`) && strings.Index(s, `id="samples"`) < strings.Index(s, `<details class="inputs">`)) {
		t.Error("the page is not in the order results, answers, inputs")
	}
	for _, task := range shape.Tasks {
		if !strings.Contains(s, "/> "+task+" <span") {
			t.Errorf("family %s is not in the filters", task)
		}
	}
	// Each cell: 4 shown; when one shown answer is correct, every failed
	// or wrong answer of the cell is shown.
	type cell struct{ model, arm, family string }
	shown := map[string]bool{}
	for _, m := range regexp.MustCompile(`answers.jsonl line (\d+)`).FindAllStringSubmatch(s, -1) {
		shown[m[1]] = true
	}
	n := map[cell]int{}
	correctShown := map[cell]bool{}
	wrongHidden := map[cell]bool{}
	for _, x := range run.Samples {
		c := cell{x.Model, x.Arm, x.Family}
		on := shown[fmt.Sprint(x.Line)]
		if on {
			n[c]++
			if outcome(x) == "correct" {
				correctShown[c] = true
			}
		} else if outcome(x) != "correct" {
			wrongHidden[c] = true
		}
	}
	if len(n) != 50 {
		t.Errorf("%d cells shown, want 50", len(n))
	}
	for c, k := range n {
		if k != 4 {
			t.Errorf("cell %v: %d shown, want 4", c, k)
		}
		if correctShown[c] && wrongHidden[c] {
			t.Errorf("cell %v: a correct answer shown before a wrong one", c)
		}
	}
	csvb, err := os.ReadFile(filepath.Join(out, AnswersCSV))
	must(t, err)
	rows, err := csv.NewReader(bytes.NewReader(csvb)).ReadAll()
	must(t, err)
	if len(rows) != calls+1 {
		t.Errorf("answers.csv has %d rows, want %d and a header", len(rows), calls)
	}
}

// TestOneColourPerArm: nine arms keep one colour each in every chart, no
// two arms sharing one.
func TestOneColourPerArm(t *testing.T) {
	dir := t.TempDir()
	shape := reporttest.KGLLMBenchShape()
	shape.PerTask, shape.ContextBytes = 4, 100
	must(t, reporttest.WriteSynthRun(dir, shape))
	obs, err := report.FromRun(dir)
	must(t, err)
	r, err := report.Build(obs, report.Options{Seed: 1, Resamples: 50})
	must(t, err)
	charts, err := Charts(r)
	must(t, err)
	colour := map[string]string{}
	owner := map[string]string{}
	bar := regexp.MustCompile(`fill="(#[0-9A-Fa-f]{6})"><title>[^<]* — ([^:<]+):`)
	bars := 0
	for _, c := range charts {
		for _, m := range bar.FindAllStringSubmatch(c.SVG, -1) {
			bars++
			fill, arm := m[1], m[2]
			if prev, ok := colour[arm]; ok && prev != fill {
				t.Errorf("chart %s: arm %s is %s, elsewhere %s", c.Name, arm, fill, prev)
			}
			if o, ok := owner[fill]; ok && o != arm {
				t.Errorf("chart %s: arms %s and %s share %s", c.Name, arm, o, fill)
			}
			colour[arm], owner[fill] = fill, arm
		}
	}
	if len(colour) != 9 || bars < 100 {
		t.Errorf("%d arms coloured in %d bars, want 9", len(colour), bars)
	}
}
