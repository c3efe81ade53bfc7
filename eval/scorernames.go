package eval

import "slices"

// ScorerNames returns the names Scorer knows (the values of a task's
// scorer field), for commands that take a scorer by name.
func ScorerNames() []string { return slices.Clone(scorerNames) }
