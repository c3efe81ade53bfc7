package llmtest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/isolda/isolda/llm"
)

// RoundTripLog reads a JSON-lines call log written by an earlier version
// (a fixture kept in testdata) as records of type T, a line type that
// embeds llm.CallRecord, and reports every line that does not marshal back
// to its own bytes: a record type may grow fields, but an old log must stay
// readable and rewrite unchanged. It fails the test unless the log has
// lines lines, failed of them with status failed.
func RoundTripLog[T any](t testing.TB, log []byte, lines, failed int) {
	t.Helper()
	all := bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
	nFailed := 0
	for i, line := range all {
		var r T
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if b, err := json.Marshal(&r); err != nil || !bytes.Equal(b, line) {
			t.Errorf("line %d does not marshal back to its bytes (%v):\n%s\n%s", i+1, err, line, b)
		}
		var c llm.CallRecord
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if c.Status == llm.StatusFailed {
			nFailed++
		}
	}
	if len(all) != lines || nFailed != failed {
		t.Fatalf("fixture: %d lines, %d failed, want %d and %d", len(all), nFailed, lines, failed)
	}
}
