package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/task"
)

func TestQuestionsWritesAVerifiableFrozenSet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "q.jsonl")
	code, stdout, errs := runCLI(t, "", "questions", "--families", "count,multi_hop", "--seed", "7", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "count: ") || !strings.Contains(stdout, "multi_hop: ") {
		t.Errorf("counts per family missing:\n%s", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := task.ReadFrozen(f)
	if err != nil {
		t.Fatalf("the written set does not verify: %v", err)
	}
	if len(set.Questions) == 0 {
		t.Fatal("no questions")
	}
	for _, q := range set.Questions {
		if q.Family != "count" && q.Family != "multi_hop" {
			t.Errorf("question of family %q not asked for", q.Family)
		}
	}
	// The same seed gives the same bytes.
	out2 := filepath.Join(t.TempDir(), "q2.jsonl")
	runCLI(t, "", "questions", "--families", "count,multi_hop", "--seed", "7", "-o", out2)
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(out2)
	if string(a) != string(b) {
		t.Error("two runs with the same seed wrote different sets")
	}
	if code, _, _ := runCLI(t, "", "questions", "--families", "nonsense", "-o", "-"); code != 2 {
		t.Errorf("unknown family: exit %d, want 2", code)
	}
}
