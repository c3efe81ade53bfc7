//go:build unix

package server

import "syscall"

// cpuSeconds returns the CPU time (user+system) used by this process, so
// that benchmarks can report figures that do not depend on how busy the
// shared machine is.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
