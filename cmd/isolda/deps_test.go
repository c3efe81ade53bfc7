package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoBeamInBinary checks that the isolda command does not link the
// Apache Beam SDK (cmd/isolda-beam does): its size and start-up time must
// not pay for it.
func TestNoBeamInBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !strings.Contains(string(out), "github.com/isolda/isolda/chunk\n") {
		t.Fatalf("go list -deps gave %d packages, without chunk: not the dependencies of isolda", len(deps))
	}
	for _, d := range deps {
		if strings.Contains(d, "apache/beam") || strings.HasPrefix(d, "google.golang.org/grpc") {
			t.Errorf("isolda links %s", d)
		}
	}
}
