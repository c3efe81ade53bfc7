// Package tasktest holds what the tests of the benchmark packages share.
package tasktest

import (
	"bytes"
	"testing"

	"github.com/isolda/isolda/task"
)

// RoundTrip writes s with task.WriteFrozen and reads it back with
// task.ReadFrozen, failing the test on either error: the frozen form every
// benchmark's questions must survive.
func RoundTrip(t testing.TB, s *task.Set) *task.Set {
	t.Helper()
	var buf bytes.Buffer
	if err := task.WriteFrozen(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := task.ReadFrozen(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}
