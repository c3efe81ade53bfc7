package runner

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// ModelProgress is a snapshot of one model's calls during a Run.
type ModelProgress struct {
	Model string
	// Total is the number of calls this run makes to the model; Skipped
	// calls were answered by an earlier run and are not part of it.
	Total, Done, Failed, Skipped int
	// Elapsed is the time since the run started.
	Elapsed time.Duration
}

// Rate returns the calls finished (done or failed) per second.
func (m ModelProgress) Rate() float64 {
	if m.Elapsed <= 0 {
		return 0
	}
	return float64(m.Done+m.Failed) / m.Elapsed.Seconds()
}

// ETA returns the time the remaining calls take at the current rate;
// ok is false while the rate is unknown (nothing finished yet).
func (m ModelProgress) ETA() (eta time.Duration, ok bool) {
	left := m.Total - m.Done - m.Failed
	if left <= 0 {
		return 0, true
	}
	r := m.Rate()
	if r <= 0 {
		return 0, false
	}
	return (time.Duration(float64(left)/r*float64(time.Second)) + time.Second/2).Truncate(time.Second), true
}

// ProgressLine formats one model's progress, without a newline:
//
//	eval: MODEL: 120/400 done, 2 failed, 0 skipped, 31.5 calls/s, ETA 9s
func ProgressLine(m ModelProgress) string {
	eta := "?"
	if d, ok := m.ETA(); ok {
		eta = d.String()
	}
	return fmt.Sprintf("eval: %s: %d/%d done, %d failed, %d skipped, %.1f calls/s, ETA %s",
		m.Model, m.Done, m.Total, m.Failed, m.Skipped, m.Rate(), eta)
}

// PlainProgress returns a RunOptions.OnProgress that writes one
// ProgressLine per model each time it is called: for logs and CI.
func PlainProgress(w io.Writer) func([]ModelProgress, bool) {
	return func(ms []ModelProgress, _ bool) {
		var b strings.Builder
		for _, m := range ms {
			b.WriteString(ProgressLine(m))
			b.WriteByte('\n')
		}
		io.WriteString(w, b.String())
	}
}

// TerminalProgress returns a RunOptions.OnProgress that redraws one line
// per model in place with ANSI escape codes (cursor up, erase line): for
// a terminal.
func TerminalProgress(w io.Writer) func([]ModelProgress, bool) {
	drawn := 0
	return func(ms []ModelProgress, _ bool) {
		var b strings.Builder
		if drawn > 0 {
			fmt.Fprintf(&b, "\x1b[%dA", drawn)
		}
		for _, m := range ms {
			b.WriteString("\r\x1b[2K")
			b.WriteString(ProgressLine(m))
			b.WriteByte('\n')
		}
		drawn = len(ms)
		io.WriteString(w, b.String())
	}
}
