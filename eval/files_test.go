package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/internal/evaltest"
)

// TestExperimentFilePaths checks that an absolute graph path keeps its
// leading slash and that LoadExperiment refuses a graph or set file that
// does not exist, at the line and column of its name.
func TestExperimentFilePaths(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	graph := filepath.Join(other, "g.ttl")
	if err := os.WriteFile(graph, []byte("<http://e/a> <http://e/p> <http://e/b> .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(y string) string {
		p := filepath.Join(dir, "exp.yaml")
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tail := "arms: [{format: ntriples}]\nmodels: [{base_url: 'http://h/v1', model: m}]\n"
	p := write("graphs: [{file: " + graph + "}]\n" + tail + "tasks: [{generate: {families: [lookup]}}]\n")
	e, err := LoadExperiment(p)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Prepare(e, filepath.Dir(p), evaltest.Scorers())
	if err != nil || len(plan.Contexts) != 1 {
		t.Fatalf("absolute graph path: %v", err)
	}
	p = write("graphs: [{file: missing.ttl}]\n" + tail + "tasks: [{set: none.jsonl, graph: missing}]\n")
	_, err = LoadExperiment(p)
	if err == nil || !strings.Contains(err.Error(), p+":1:17: graph missing: ") ||
		!strings.Contains(err.Error(), p+":4:15: task none set: ") {
		t.Errorf("missing files: %v", err)
	}
	// ParseExperiment, of a text with no folder, does not look for files.
	if _, err := ParseExperiment([]byte("graphs: [{file: missing.ttl}]\n"+tail+"tasks: [{generate: {}}]\n"), "x.yaml"); err != nil {
		t.Errorf("ParseExperiment: %v", err)
	}
}
