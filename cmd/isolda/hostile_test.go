package main

import (
	"os"
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
	bomb := filepath.Join(dir, "bomb.yaml")
	if err := os.WriteFile(bomb, []byte(strings.Repeat("[", 100000)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := bomb + ":1:64: YAML nested deeper than 64 levels"
	for _, args := range [][]string{{"eval", "validate", bomb}, {"eval", "run", bomb, "--out", filepath.Join(dir, "r")}} {
		if code, _, errs := runCLI(t, "", args...); code == 0 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	// A real run folder for report.
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(demoTurtle), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(nil)
	defer srv.Close()
	exp := filepath.Join(dir, "exp.yaml")
	y := "graphs: [{file: g.ttl}]\narms: [{name: ttl, format: b-ttl}]\n" +
		"models: [{name: m, base_url: '" + srv.URL + "', model: x}]\ntasks: [{generate: {families: [count]}}]\n"
	if err := os.WriteFile(exp, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "run")
	if code, _, errs := runCLI(t, "", "eval", "run", exp, "--out", runDir); code != 0 {
		t.Fatalf("eval run: exit %d: %s", code, errs)
	}
	code, _, errs := runCLI(t, "", "report", runDir, "--criteria", bomb, "--out", filepath.Join(dir, "rep"))
	if code == 0 || !strings.Contains(errs, want) {
		t.Errorf("report --criteria: exit %d: %s", code, errs)
	}
}
