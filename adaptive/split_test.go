package adaptive

import (
	"testing"

	"github.com/isolda/isolda/task/graphqa"
)

func TestDefaultSplits(t *testing.T) {
	cal, test, err := DefaultSplits()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Split{cal, test} {
		if len(s.Items) != 105 {
			t.Fatalf("%s: %d questions, want 105", s.Name, len(s.Items))
		}
		per := map[string]int{}
		for _, it := range s.Items {
			per[it.Q.Task]++
			if it.Graph == nil || it.Q.Family != graphqa.FamilyHardened {
				t.Fatalf("%s: %s without graph or not Hardened", s.Name, it.Q.ID)
			}
		}
		for _, tk := range graphqa.HardenedTasks() {
			if per[tk] != 15 {
				t.Errorf("%s: %d questions of %s, want 15", s.Name, per[tk], tk)
			}
		}
	}
	if cal.Seed != CalibrationSeed || test.Seed != TestSeed {
		t.Fatalf("seeds %d %d", cal.Seed, test.Seed)
	}
	if err := CheckDisjoint(cal, cal); err == nil {
		t.Fatal("a split is disjoint from itself")
	}
}
