package task

import (
	"strings"
	"testing"
)

// TestScorings checks a scorer table's names (in order), lookup (an
// unknown name is an error naming the others) and default per family (the
// owner's first scorer, else the table's first).
func TestScorings(t *testing.T) {
	fixed := func(s float64) Scorer {
		return ScorerFunc(func(Question, string) Result { return Result{Score: s} })
	}
	table := Scorings{
		{Scorers: []NamedScorer{{"a", fixed(1)}, {"a2", fixed(2)}}},
		{Scorers: []NamedScorer{{"b", fixed(3)}}, Owns: func(f string) bool { return strings.HasPrefix(f, "b_") }},
		{Scorers: []NamedScorer{{"c", fixed(4)}}},
	}
	if got := strings.Join(table.Names(), " "); got != "a a2 b c" {
		t.Errorf("Names = %q", got)
	}
	for name, want := range map[string]float64{"a": 1, "a2": 2, "b": 3, "c": 4} {
		sc, err := table.Lookup(name)
		if err != nil || sc.Score(Question{}, "").Score != want {
			t.Errorf("Lookup(%q) = %v, %v", name, sc, err)
		}
	}
	if sc, err := table.Lookup("d"); sc != nil || err == nil || err.Error() != `unknown scorer "d" (one of a, a2, b, c)` {
		t.Errorf("Lookup(d) = %v, %v", sc, err)
	}
	for family, want := range map[string]string{"b_x": "b", "b": "a", "": "a", "c": "a"} {
		if got := table.Default(family); got != want {
			t.Errorf("Default(%q) = %q, want %q", family, got, want)
		}
	}
	if got := (Scorings{}).Default("x"); got != "" {
		t.Errorf("empty table: Default = %q", got)
	}
	if _, err := (Scorings{}).Lookup("a"); err == nil {
		t.Error("empty table: Lookup found a scorer")
	}
}
