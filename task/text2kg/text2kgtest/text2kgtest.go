// Package text2kgtest lays out test data for Text2KGBench's tests (those of
// task/text2kg and of the study that runs it).
package text2kgtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// SampleSplit lays out the shared 57-sentence sample of Text2KGBench (the
// first three test sentences of each of the 19 ontologies) as the
// benchmark's folder (ontologies/, test/, ground_truth/) in a temporary
// directory and returns it; it skips the test where ../shared is absent.
func SampleSplit(t testing.TB) string {
	t.Helper()
	src := shared.MustPath(t, "data", "text2kgbench")
	dir := t.TempDir()
	cp := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	onts, _ := filepath.Glob(filepath.Join(src, "ontologies", "*_ontology.json"))
	for _, p := range onts {
		cp(p, filepath.Join(dir, "ontologies", filepath.Base(p)))
	}
	cp(filepath.Join(src, "sample", "test_sample.jsonl"), filepath.Join(dir, "test", "sample.jsonl"))
	cp(filepath.Join(src, "sample", "ground_truth_sample.jsonl"), filepath.Join(dir, "ground_truth", "sample.jsonl"))
	return dir
}
