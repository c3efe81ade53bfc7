package oracle

import "testing"

// Tally counts a test's checks against an oracle and reports each failed
// one with t.Errorf, for a summary line of checks, passes and failures.
type Tally struct {
	t testing.TB
	// Checks and Fails count the checks made and those that failed.
	Checks, Fails int
}

// NewTally returns a Tally that reports to t.
func NewTally(t testing.TB) *Tally { return &Tally{t: t} }

// Check counts one check; when ok is false it counts a failure and
// reports it with t.Errorf(format, args...).
func (c *Tally) Check(ok bool, format string, args ...any) {
	c.t.Helper()
	c.Checks++
	if !ok {
		c.Fails++
		c.t.Errorf(format, args...)
	}
}
