package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/adaptive"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task/graphqa"
)

// runSelectCLI runs `isolda ARGS` with empty standard input.
func runSelectCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLI(t, "", args...)
}

func TestSelectDryRun(t *testing.T) {
	code, out, errs := runSelectCLI(t, "select", "calibrate", "--dry-run")
	if code != exitOK || !strings.Contains(out, "105 questions, 7 tasks; 15 formats") || !strings.Contains(out, "answer calls: 1575, input tokens (o200k_base") {
		t.Fatalf("calibrate --dry-run: %d %q %q", code, out, errs)
	}
	// Priors over the 15 study formats: format i right on i of 15 answers
	// of every task, so the ranking is the reverse of the study's order.
	var obs []adaptive.Observation
	for i, f := range adaptive.StudyFormats() {
		for _, tk := range graphqa.HardenedTasks() {
			for k := 0; k < 15; k++ {
				obs = append(obs, adaptive.Observation{Task: tk, Format: f, QuestionID: fmt.Sprint(k), Correct: k < i})
			}
		}
	}
	cal, err := adaptive.FromObservations(obs, "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var b bytes.Buffer
	cal.WriteJSON(&b)
	os.WriteFile(filepath.Join(dir, adaptive.PriorsFile), b.Bytes(), 0o644)
	code, out, errs = runSelectCLI(t, "select", "run", "--priors", dir, "--dry-run")
	if code != exitOK {
		t.Fatalf("run --dry-run: %d %q", code, errs)
	}
	// Ranking: friendship, nl_summary, structured, edge_list, adjacency,
	// dot, ... so the anchors are structured and edge_list, the semantic
	// anchor shacl_lite (index 2), the guests friendship and nl_summary;
	// the router and fixed-best (friendship) are on the slate: 5 answers.
	for _, s := range []string{"105 questions, 7 tasks", "selector  525", "answer    525", "friendship  structured(anchor 80%) edge_list(anchor 73%) shacl_lite(semantic 13%) friendship(guest 93%) nl_summary(guest 87%)"} {
		if !strings.Contains(out, s) {
			t.Errorf("run --dry-run output lacks %q:\n%s", s, out)
		}
	}
}

func TestSelectBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"select", "run", "--dry-run"},
		{"select", "run", "--priors", filepath.Join(dir, "none.json"), "--dry-run"},
		{"select", "calibrate", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"},
		{"select", "calibrate", "--dry-run", "--formats", "turtle"},
		{"select", "calibrate", "--dry-run", "--formats", "no_such_format"},
		{"select", "calibrate", "--dry-run", "--graphs", "0"},
		{"select", "calibrate", "--out", dir},
		{"select", "compare", dir},
		{"select", "compare", dir, "--format", "pdf"},
	}
	for _, c := range cases {
		if code, _, errs := runSelectCLI(t, c...); code != exitBadInput || !strings.Contains(errs, "isolda:") {
			t.Errorf("%v: code %d %q", c, code, errs)
		}
	}
}

// selectHandler answers every answer call with FINAL: 1 and scores every
// selector candidate 50, or fails every call when fail is set.
func selectHandler(fail *bool) llmtest.Handler {
	return func(r llmtest.Request) llmtest.Reply {
		if *fail {
			return llmtest.Reply{Status: 400}
		}
		if r.Messages[0].Content == adaptive.SelectorSystemPrompt {
			return llmtest.Reply{Text: "TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: 0\nSCORE: 50"}
		}
		return llmtest.Reply{Text: "FINAL: 1"}
	}
}

func TestSelectCalibrateRunCompare(t *testing.T) {
	fail := false
	srv := llmtest.New(selectHandler(&fail))
	defer srv.Close()
	dir := t.TempDir()
	calDir, runDir := filepath.Join(dir, "cal"), filepath.Join(dir, "run")
	model := []string{"--base-url", srv.URL, "--model", "m", "--price-in", "2", "--price-out", "8", "--graphs", "1"}
	fl := "adjacency,edge_list,structured,study_turtle,shacl_lite,nl_summary"
	code, out, errs := runSelectCLI(t, append([]string{"select", "calibrate", "--out", calDir, "--formats", fl}, model...)...)
	if code != exitOK || !strings.Contains(out, "wrote "+filepath.Join(calDir, adaptive.PriorsFile)) || !strings.Contains(out, "RANK") {
		t.Fatalf("calibrate: %d %q %q", code, out, errs)
	}
	if n := len(srv.Requests()); n != 7*6 {
		t.Fatalf("calibration made %d calls, want 42", n)
	}
	code, out, errs = runSelectCLI(t, append([]string{"select", "run", "--priors", calDir, "--out", runDir}, model...)...)
	if code != exitOK {
		t.Fatalf("run: %d %q %q", code, out, errs)
	}
	for _, s := range []string{"Policy comparison on 7 test questions", "selector", "mv-5", "oracle", "wrote"} {
		if !strings.Contains(out, s) {
			t.Errorf("run output lacks %q:\n%s", s, out)
		}
	}
	f, err := os.Open(filepath.Join(runDir, adaptive.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	res, err := adaptive.ReadResult(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	made := len(srv.Requests()) - 42
	if len(res.Questions) != 7 || res.Calls != made || made < 7*5+7*5 {
		t.Fatalf("result: %d questions, %d calls; server saw %d", len(res.Questions), res.Calls, made)
	}
	// Every score ties at 50: the band (b = 5) rotates through the slate.
	if res.Questions[0].Chosen == res.Questions[1].Chosen && res.Questions[1].Chosen == res.Questions[2].Chosen {
		t.Errorf("round-robin did not rotate: %s %s %s", res.Questions[0].Chosen, res.Questions[1].Chosen, res.Questions[2].Chosen)
	}
	// Again: every call comes from the log.
	before := len(srv.Requests())
	if code, _, errs := runSelectCLI(t, append([]string{"select", "run", "--priors", calDir, "--out", runDir}, model...)...); code != exitOK || len(srv.Requests()) != before {
		t.Fatalf("rerun: %d %q, %d new calls", code, errs, len(srv.Requests())-before)
	}
	code, out, _ = runSelectCLI(t, "select", "compare", runDir, "-t", "markdown")
	if code != exitOK || !strings.Contains(out, "| selector | ") || !strings.Contains(out, "## Selector choices per format") {
		t.Fatalf("compare: %d %q", code, out)
	}
	repDir := filepath.Join(dir, "rep")
	code, out, errs = runSelectCLI(t, "report", runDir, "--out", repDir)
	if code != exitOK || !strings.Contains(out, "## Policy comparison") {
		t.Fatalf("report: %d %q %q", code, out, errs)
	}
	for _, name := range []string{"policies.md", "policies.json", "policies.html", "policies.csv", "selector_picks.csv"} {
		if _, err := os.Stat(filepath.Join(repDir, name)); err != nil {
			t.Error(err)
		}
	}
	// Failing calls: exit 1 with the advice to run again.
	fail = true
	code, out, _ = runSelectCLI(t, append([]string{"select", "run", "--priors", calDir, "--out", filepath.Join(dir, "run2"), "--retries", "0"}, model...)...)
	if code != exitCheckFail || !strings.Contains(out, "run the same command again") {
		t.Fatalf("failing server: %d %q", code, out)
	}
}

// TestSelectRepliesThatDoNotParse checks that a model ignoring the prompt
// formats is reported: a calibration where no answer is right writes no
// priors and exits 1; a run whose selector replies do not parse says how
// many, with the first.
func TestSelectRepliesThatDoNotParse(t *testing.T) {
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		if r.Messages[0].Content == adaptive.SelectorSystemPrompt {
			return llmtest.Reply{Text: "I think this rendering is fine."}
		}
		return llmtest.Reply{Text: "no idea"}
	})
	defer srv.Close()
	dir := t.TempDir()
	calDir := filepath.Join(dir, "cal")
	model := []string{"--base-url", srv.URL, "--model", "m", "--graphs", "1"}
	fl := "adjacency,edge_list,structured,study_turtle,shacl_lite,nl_summary"
	code, out, errs := runSelectCLI(t, append([]string{"select", "calibrate", "--out", calDir, "--formats", fl}, model...)...)
	if code != exitCheckFail || !strings.Contains(out, "no format answered any of its 42 calibration answers right: no ranking") ||
		strings.Contains(out, "RANK") || !strings.Contains(errs, "42 of 42 answers have no FINAL: line") {
		t.Fatalf("calibrate: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(calDir, adaptive.PriorsFile)); err == nil {
		t.Error("priors written from a calibration without a right answer")
	}
	// Priors where every format is right on some answers, then a run whose
	// selector replies all fail to parse.
	var obs []adaptive.Observation
	for i, f := range adaptive.StudyFormats() {
		for _, tk := range graphqa.HardenedTasks() {
			for k := 0; k < 15; k++ {
				obs = append(obs, adaptive.Observation{Task: tk, Format: f, QuestionID: fmt.Sprint(k), Correct: k <= i})
			}
		}
	}
	cal, err := adaptive.FromObservations(obs, "test")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := cal.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	priors := filepath.Join(dir, adaptive.PriorsFile)
	if err := os.WriteFile(priors, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runSelectCLI(t, append([]string{"select", "run", "--priors", priors, "--out", filepath.Join(dir, "run")}, model...)...)
	if code != exitOK || !strings.Contains(errs, "35 of 35 selector replies did not parse") ||
		!strings.Contains(errs, `reply "I think this rendering is fine."`) {
		t.Errorf("run: %d %q", code, errs)
	}
}

func TestSelectParentDryRun(t *testing.T) {
	code, out, errs := runSelectCLI(t, "select", "--dry-run")
	if code != exitOK || !strings.Contains(out, "answer calls: 1575") {
		t.Errorf("select --dry-run: %d %q %q", code, out, errs)
	}
}
