package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/study"
)

func TestStudyList(t *testing.T) {
	code, out, errs := runCLI(t, "", "study", "list")
	if code != 0 {
		t.Fatalf("study list: %d %q", code, errs)
	}
	for _, s := range study.All() {
		if !strings.Contains(out, s.Name+" (version ") {
			t.Errorf("study list lacks %s", s.Name)
		}
	}
	// The confirmatory run's calls are the paper's answers: 2,958 + 5,780;
	// the sizes the papers print for the GraphQA regimes (Tables 7 and 8),
	// the repeated runs and the KG-LLM-Bench studies (§4.5, §4.7).
	for _, want := range []string{
		"calls in all: 8738",
		"graphqa-hardened (version 2)", "questions: 95 about graphs, read by 15 arms",
		"questions: 72 about graphs, read by 15 arms",
		"questions: 105 about hardened", "questions: 120 about topology", "calls in all: 20250",
		"kgllmbench (version 2)", "arms (8): list_of_edges, structured_yaml, structured_json, rdf_turtle3, json_ld3, rdf_turtle2, json_ld2, isolda-0.1",
		"calls in all: 19500", "variant pseudo+isolda-0.2: 9 arms, 500 questions, 22500 calls in all",
		"calls in all: 32000", "variant full: 8 arms, 2000 questions, 64000 calls in all",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("study list lacks %q", want)
		}
	}
}

// study init, then eval run --dry-run through the real root command.
func TestStudyInitDryRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "impact")
	code, out, errs := runCLI(t, "", "study", "init", "graphrag-impact", dir, "--base-url", "http://127.0.0.1:1/v1", "--model", "org/m", "--tokenizer", "o200k_base")
	if code != 0 || !strings.Contains(out, "wrote "+dir+"/experiment.yaml") {
		t.Fatalf("study init: %d %q %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "eval", "run", filepath.Join(dir, "experiment.yaml"), "--dry-run")
	if code != 0 || !regexpLine(out, `^m +25 +o200k_base +\d+$`) || !regexpLine(out, `^m +typed_edges +5 +\d+ +\d+\.\d$`) {
		t.Fatalf("dry run: %d %q %q", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"study", "init", "nope", t.TempDir()}, "unknown study"},
		{[]string{"study", "init", "kgllmbench", t.TempDir()}, "needs --data kgllmbench=PATH"},
		{[]string{"study", "init", "kgllmbench", t.TempDir(), "--data", "kgllmbench"}, "want NAME=PATH"},
		{[]string{"study", "init", "kgllmbench", t.TempDir(), "--variant", "fake", "--data", "kgllmbench=x"}, `unknown variant "fake"`},
		{[]string{"study", "init", "graphrag-impact", dir}, "not empty"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: %d %q, want %q", c.args, code, errs, c.msg)
		}
	}
}

// TestStudyListShort: one line per study, with its calls and paper.
func TestStudyListShort(t *testing.T) {
	code, out, errs := runCLI(t, "", "study", "list", "--short")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != len(study.All())+1 {
		t.Fatalf("exit %d, %d lines for %d studies: %s", code, len(lines), len(study.All()), errs)
	}
	for i, s := range study.All() {
		f := strings.Fields(lines[i+1])
		if len(f) < 3 || f[0] != s.Name || !strings.Contains(lines[i+1], s.Paper) {
			t.Errorf("line %q, want %s and its paper", lines[i+1], s.Name)
		}
	}
}

// TestStudyInitMissingDataFolder: a --data folder that does not exist is
// named as missing, with where the shared data is.
func TestStudyInitMissingDataFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kgb")
	code, _, errs := runCLI(t, "", "study", "init", "kgllmbench", dir, "--data", "kgllmbench=shared/data/kgllmbench/instances")
	if code != exitBadInput || !strings.Contains(errs, "no such file or directory") || !strings.Contains(errs, "../shared/data/kgllmbench/instances") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
