//go:build !linux

package worker

import (
	"os"
	"syscall"
)

// Supported reports whether requests can run in child processes here.
func Supported() bool { return false }

func sysProcAttr() *syscall.SysProcAttr { return nil }

func setNice(pid, n int) error { return ErrUnsupported }

func limitAS(pid int, soft, hard int64) error { return ErrUnsupported }

func killGroup(pid int) {}

func peakRSS(ps *os.ProcessState) int64 { return 0 }

// VirtualSize returns 0: unknown here.
func VirtualSize() int64 { return 0 }
