// Package cputime measures the CPU time of the process, so that benchmarks
// on a busy machine can report a figure (such as triples per CPU-second)
// that does not depend on how much of the CPU they were given.
package cputime
