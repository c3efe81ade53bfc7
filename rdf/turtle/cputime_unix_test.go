//go:build unix

package turtle_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time this process has used, so
// that benchmarks on a busy machine can report a figure that does not
// depend on how much of the CPU they were given.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
