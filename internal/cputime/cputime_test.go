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
	// A fixed amount of work (some tens of milliseconds), not a time on
	// the clock, which a busy machine would give less CPU.
	x := uint64(1)
	for i := range 50_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	if after := Used(); after <= before || after-before > time.Minute {
		t.Errorf("CPU time %v then %v after a busy loop (%d)", before, after, x)
	}
}
