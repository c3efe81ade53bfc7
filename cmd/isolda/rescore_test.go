package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportRescoreWith: two runs about two graphs (g and h); the ISOLDA
// arm answers "2", right for the count question, the Turtle arm "7".
// Criterion A (I better than ttl) passes with the logged kg scores and
// with --rescore kg; --rescore final (which reads only a FINAL: line)
// scores every answer wrong, so A fails; --with adds the other run's graph.
func TestReportRescoreWith(t *testing.T) {
	dir := t.TempDir()
	srv := isoldaRightServer()
	defer srv.Close()
	runs := map[string]string{}
	for _, g := range []string{"g", "h"} {
		writeIn(t, dir, g+".ttl", demoTurtle)
		y := "graphs: [{file: " + g + ".ttl}]\narms: [{name: ttl, format: b-ttl}, {name: I, format: isolda}]\n" +
			"models: [{name: m, base_url: '" + srv.URL + "', model: x, tokenizer: o200k_base}]\n" +
			"tasks: [{generate: {families: [count]}}]\ntemperature: 0\ntrials: 3\n"
		exp := writeIn(t, dir, g+".yaml", y)
		runs[g] = filepath.Join(dir, "run-"+g)
		evalRun(t, exp, runs[g])
	}
	crit := writeIn(t, dir, "criteria.yaml", "criteria:\n  - {id: A, kind: better, arm: I, than: [ttl], alpha: 0.5}\n")
	for _, c := range []struct {
		args  []string
		code  int
		tally string
	}{
		{nil, exitOK, "1 PASS"},
		{[]string{"--rescore", "kg"}, exitOK, "1 PASS"},
		{[]string{"--rescore", "final"}, exitCheckFail, "1 FAIL"},
	} {
		args := append([]string{"report", runs["g"], "--criteria", crit, "--resamples", "100"}, c.args...)
		code, _, errs := runCLI(t, "", args...)
		if code != c.code || !strings.Contains(errs, c.tally) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errs, c.code, c.tally)
		}
	}
	_, alone, _ := runCLI(t, "", "report", runs["g"], "--resamples", "100")
	code, with, errs := runCLI(t, "", "report", runs["g"], "--with", runs["h"], "--resamples", "100")
	if code != 0 || strings.Contains(alone, "| h ") || !strings.Contains(with, "| h ") || !strings.Contains(with, "| g ") {
		t.Errorf("--with: exit %d %s\n%s", code, errs, with)
	}
	if code, _, errs := runCLI(t, "", "report", runs["g"], "--rescore", "nope"); code != exitBadInput || !strings.Contains(errs, "unknown scorer") {
		t.Errorf("--rescore nope: exit %d %q", code, errs)
	}
	if code, _, _ := runCLI(t, "", "report", runs["g"], "--with", filepath.Join(dir, "nothing")); code != exitBadInput {
		t.Errorf("--with a missing folder: exit %d", code)
	}
}
