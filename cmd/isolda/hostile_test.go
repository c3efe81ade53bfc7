package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/llm/llmtest"
)

// TestYAMLDepthBomb: eval validate, eval run and report --criteria refuse
// 200 KB of "[" with its position, before go-yaml sees it (which took
// gigabytes on it).
func TestYAMLDepthBomb(t *testing.T) {
	dir := t.TempDir()
	bomb := writeIn(t, dir, "bomb.yaml", strings.Repeat("[", 100000))
	want := bomb + ":1:64: YAML nested deeper than 64 levels"
	for _, args := range [][]string{{"eval", "validate", bomb}, {"eval", "run", bomb, "--out", filepath.Join(dir, "r")}} {
		if code, _, errs := runCLI(t, "", args...); code == 0 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	// A real run folder for report.
	srv := llmtest.New(nil)
	defer srv.Close()
	y := "graphs: [{file: g.ttl}]\narms: [{name: ttl, format: b-ttl}]\n" +
		"models: [{name: m, base_url: '" + srv.URL + "', model: x}]\ntasks: [{generate: {families: [count]}}]\n"
	runDir := demoEvalRun(t, dir, y)
	code, _, errs := runCLI(t, "", "report", runDir, "--criteria", bomb, "--out", filepath.Join(dir, "rep"))
	if code == 0 || !strings.Contains(errs, want) {
		t.Errorf("report --criteria: exit %d: %s", code, errs)
	}
}
