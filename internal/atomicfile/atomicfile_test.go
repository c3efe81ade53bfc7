package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("second\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "second\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("folder holds %d entries, want only out.txt", len(ents))
	}
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(path)
		// The umask may clear bits of 0644 but never adds any: 0600 (what
		// os.CreateTemp gives) would mean the mode was not applied.
		if st.Mode().Perm()&0o400 == 0 || st.Mode().Perm()&^0o644 != 0 {
			t.Errorf("mode %v", st.Mode())
		}
	}
}

// A failing writer leaves the old file as it was and no temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, "half of the new"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "old" {
		t.Errorf("file now %q, want the old content", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary file left behind: %v", names)
	}
}

func TestWriteMissingFolder(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "f"), nil, 0o644)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want not exist", err)
	}
}

// A device is written, not replaced.
func TestWriteDevice(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	if err := WriteFile(os.DevNull, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(os.DevNull)
	if err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s is now %v (%v)", os.DevNull, st.Mode(), err)
	}
}
