//go:build !unix

package server

// cpuSeconds is not available here; benchmarks then report 0.
func cpuSeconds() float64 { return 0 }
