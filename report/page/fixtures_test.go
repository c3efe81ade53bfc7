package page

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/internal/reporttest"
)

// paperPage is the page of the paper's run (paperRun): its report and the
// result of its criterion 3 (ISOLDA 0.1 not worse than the baselines).
func paperPage(t *testing.T, title string) Page {
	t.Helper()
	obs := paperRun()
	r, err := report.Build(obs, report.Options{Seed: 1, Resamples: 500, Reference: []string{"b-ttl-ids"}})
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.ParseCriteria(strings.NewReader("criteria:\n  - {id: \"3\", kind: not_worse, arm: isolda-0.1, than: [b-json, b-ttl, b-ttl-ids], best: true}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := set.Evaluate(report.Input{Observations: obs})
	if err != nil {
		t.Fatal(err)
	}
	return Page{Title: title, Report: r, Results: res}
}

// paperRun is reporttest.PaperRun as observations.
func paperRun() []report.Observation { return observations(reporttest.PaperRun()) }

// observations converts the shared fixtures' observations.
func observations(in []reporttest.Observation) (out []report.Observation) {
	for _, o := range in {
		out = append(out, report.Observation{Arm: o.Arm, Model: o.Model, Family: o.Family, Graph: o.Graph, QuestionID: o.QuestionID, Correct: o.Correct, InputTokens: o.InputTokens, OutputTokens: o.OutputTokens})
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// readRun reads the run and builds its report.
func readRun(t *testing.T, tr *reporttest.Run) (*report.Run, *report.Report) {
	t.Helper()
	run, err := report.ReadRun(tr.Dir)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := report.FromRun(tr.Dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(obs, report.Options{Seed: 1, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	return run, r
}

// small is reporttest.Small as observations.
func small() []report.Observation { return observations(reporttest.Small()) }
