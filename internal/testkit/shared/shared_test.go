package shared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTracked: a path outside the current directory is spelled from it
// (so that Go's test cache, which judges by the spelling, rechecks it)
// and still names the same file.
func TestTracked(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	f := filepath.Join(tmp, "x")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f, filepath.Dir(wd), wd} {
		got := tracked(p)
		if !strings.HasPrefix(got, wd) {
			t.Errorf("tracked(%s) = %s, not under %s", p, got, wd)
		}
		a, err1 := os.Stat(p)
		b, err2 := os.Stat(got)
		if err1 != nil || err2 != nil || !os.SameFile(a, b) {
			t.Errorf("tracked(%s) = %s names another file (%v, %v)", p, got, err1, err2)
		}
	}
}

// TestMustPathSeesShared skips when ISOLDA_SHARED (or ../shared) has no
// README.md, and passes once it does: run it with ISOLDA_SHARED pointing
// to a missing folder, create the folder, run it again, and the second run
// is not "(cached)".
func TestMustPathSeesShared(t *testing.T) {
	p := MustPath(t, "README.md")
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}
