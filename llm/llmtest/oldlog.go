package llmtest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// RoundTripLines reads a JSON-lines log written by an earlier version (a
// fixture kept in testdata) as records of type T, and reports every line
// that does not marshal back to its own bytes: a record type may grow
// fields, but an old log must stay readable and rewrite unchanged. It
// returns the records in file order.
func RoundTripLines[T any](t testing.TB, log []byte) []T {
	t.Helper()
	lines := bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
	out := make([]T, 0, len(lines))
	for i, line := range lines {
		var r T
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if b, err := json.Marshal(&r); err != nil || !bytes.Equal(b, line) {
			t.Errorf("line %d does not marshal back to its bytes (%v):\n%s\n%s", i+1, err, line, b)
		}
		out = append(out, r)
	}
	return out
}
