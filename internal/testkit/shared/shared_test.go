package shared

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
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

// fatalTB records the first Fatalf and stops the calling goroutine, as
// testing.T's does, so that OpenGzip's failures can be checked.
type fatalTB struct{ msg string }

func (*fatalTB) Helper()              {}
func (*fatalTB) Skipf(string, ...any) { panic("skip") }
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestOpenGzip reads back what compress/gzip wrote, and fails (with the
// file's name) on a missing file and on a file that is not gzip.
func TestOpenGzip(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	want := strings.Repeat("<a> <b> \"c\" .\n", 1000)
	if _, err := zw.Write([]byte(want)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "x.nt.gz")
	plain := filepath.Join(dir, "x.nt")
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	r := OpenGzip(t, gz)
	got, err := io.ReadAll(r)
	if err != nil || string(got) != want {
		t.Fatalf("read %d bytes (%v), want %d", len(got), err, len(want))
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	for _, p := range []string{plain, filepath.Join(dir, "missing.gz")} {
		var f fatalTB
		done := make(chan struct{})
		go func() {
			defer close(done)
			OpenGzip(&f, p)
		}()
		<-done
		if !strings.Contains(f.msg, p) {
			t.Errorf("OpenGzip(%s): failure %q does not name the file", p, f.msg)
		}
	}
}

// TestSection cuts the shared README.md from its first line to the next
// line break (end excluded), to its end (end ""), and fails when the start
// or the end is missing.
func TestSection(t *testing.T) {
	all := string(ReadFile(t, "README.md"))
	first, _, _ := strings.Cut(all, "\n")
	if got := Section(t, first, "\n", "README.md"); got != first {
		t.Errorf("first line %q, want %q", got, first)
	}
	if got := Section(t, first, "", "README.md"); got != all[strings.Index(all, first):] {
		t.Errorf("to the end: %d bytes, want %d", len(got), len(all))
	}
	for _, c := range [][2]string{{"no such start \x00", ""}, {first, "no such end \x00"}} {
		var f fatalTB
		done := make(chan struct{})
		go func() {
			defer close(done)
			Section(&f, c[0], c[1], "README.md")
		}()
		<-done
		if !strings.Contains(f.msg, "not found") {
			t.Errorf("Section(%q, %q): failure %q", c[0], c[1], f.msg)
		}
	}
}
