package study

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphrag"
	"github.com/isolda/isolda/task/kgllm"
)

// TestScorerTable checks the composed scorer table: every name once, an
// unknown name an error (not kg's scorer), and the default scorer of each
// benchmark's families.
func TestScorerTable(t *testing.T) {
	table := Scorings()
	names := table.Names()
	if got := strings.Join(names, " "); got != "kg graphqa final kgllm_strict kgllm_lenient kgllm_adapted impact text2kg" {
		t.Errorf("Scorings().Names() = %s", got)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("scorer %q declared twice", n)
		}
		seen[n] = true
		if _, err := table.Lookup(n); err != nil {
			t.Errorf("Lookup(%q): %v", n, err)
		}
	}
	if sc, err := table.Lookup("kg_typo"); err == nil || sc != nil || !strings.Contains(err.Error(), `unknown scorer "kg_typo"`) {
		t.Errorf("Lookup(kg_typo) = %v, %v; want an error", sc, err)
	}
	for family, want := range map[string]string{
		"graphqa": "graphqa", "graphqa_hardened": "graphqa", "graphqa_topology": "graphqa",
		kgllm.Tasks()[0]: "kgllm_strict", graphrag.Family: "impact",
		"lookup": "kg", "relation_aggregation": "kg", "": "kg",
	} {
		if got := table.Default(family); got != want {
			t.Errorf("Default(%q) = %s, want %s", family, got, want)
		}
	}
	// The names reach the right scorers: "final" reads the FINAL: line,
	// "graphqa" the first integer.
	q := task.Question{Family: "graphqa", Task: "node_count", Gold: task.Answer{Text: " 7.", Kind: task.KindInt, Value: "7"}}
	resp := "3 nodes are isolated.\nFINAL: 7"
	final, err1 := table.Lookup("final")
	graphqa, err2 := table.Lookup("graphqa")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !final.Score(q, resp).Correct || graphqa.Score(q, resp).Correct {
		t.Errorf("final/graphqa on %q: %+v / %+v", resp, final.Score(q, resp), graphqa.Score(q, resp))
	}
}
