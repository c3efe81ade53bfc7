package eval

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/task/graphrag"
	"github.com/isolda/isolda/task/kg"
	"github.com/isolda/isolda/task/kgllm"
	"github.com/isolda/isolda/task/text2kg"
)

// benchmarks is the scorer table: one row per benchmark package, each
// declaring its named scorers and the families it owns (task.Scoring).
// Adding a benchmark with a scorer is its package and one row here. The
// first row's first scorer (kg) is the default of the families no row
// owns.
func benchmarks() []task.Scoring {
	return []task.Scoring{kg.Scoring(), graphqa.Scoring(), kgllm.Scoring(), graphrag.Scoring(), text2kg.Scoring()}
}

// ScorerNames returns the names of every scorer (the values of a task's
// scorer field), in the order of the scorer table, for commands that take
// a scorer by name.
func ScorerNames() []string {
	var out []string
	for _, b := range benchmarks() {
		for _, s := range b.Scorers {
			out = append(out, s.Name)
		}
	}
	return out
}

// LookupScorer returns the scorer named name (one of ScorerNames).
func LookupScorer(name string) (task.Scorer, error) {
	for _, b := range benchmarks() {
		for _, s := range b.Scorers {
			if s.Name == name {
				return s.Scorer, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown scorer %q (one of %s)", name, strings.Join(ScorerNames(), ", "))
}

// defaultScorer returns the name of the scorer of a family's questions
// when their task names none: the first scorer of the benchmark that owns
// the family, kg's when none does.
func defaultScorer(family string) string {
	table := benchmarks()
	for _, b := range table {
		if b.Owns != nil && b.Owns(family) {
			return b.Scorers[0].Name
		}
	}
	return table[0].Scorers[0].Name
}
