package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestUsedGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("not measured on " + runtime.GOOS)
	}
	before := Used()
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x++
	}
	if after := Used(); after <= before || after-before > 5*time.Second {
		t.Errorf("CPU time %v then %v after a 50 ms busy loop (%d)", before, after, x)
	}
}
