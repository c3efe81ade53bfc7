//go:build !unix

package canon

import "time"

// cpuTime is not available here: it returns zero, and callers fall back to
// wall time.
func cpuTime() time.Duration { return 0 }
