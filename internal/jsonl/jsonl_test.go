package jsonl

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/isolda/isolda/rdf/rdferr"
)

type rec struct {
	Key string `json:"key"`
	N   int    `json:"n"`
}

func TestAppendAndRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	l, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec{"a", 1}); err != nil {
		t.Fatal(err)
	}
	// Append syncs: the line is in the file before Close.
	if b, _ := os.ReadFile(path); string(b) != `{"key":"a","n":1}`+"\n" {
		t.Errorf("after Append: %q", b)
	}
	// Write buffers until Sync.
	if err := l.Write(rec{"b", 2}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.Count(string(b), "\n") != 1 {
		t.Errorf("Write reached the file before Sync: %q", b)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(rec{"c", 3}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	want := "{\"key\":\"a\",\"n\":1}\n{\"key\":\"b\",\"n\":2}\n{\"key\":\"c\",\"n\":3}\n"
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Errorf("file %q, want %q", b, want)
	}
	if err := l.Write(make(chan int)); err == nil {
		t.Error("a value JSON cannot encode was written")
	}
}

// TestTornLine: a crash leaves a line without its LF; reopening ends it,
// the next value starts its own line and readers skip the torn one.
func TestTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	torn := "{\"key\":\"a\",\"n\":1}\n{\"key\":\"b\",\"n"
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec{"c", 3}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := torn + "\n{\"key\":\"c\",\"n\":3}\n"; string(b) != want {
		t.Fatalf("file %q, want %q", b, want)
	}
	var got []string
	err = Decode(strings.NewReader(string(b)), path, 0, func(line int, r *rec) error {
		got = append(got, r.Key+"@"+string(rune('0'+line)))
		return nil
	})
	if err != nil || strings.Join(got, " ") != "a@1 c@3" {
		t.Errorf("read %v, %v", got, err)
	}
	// Reopening a file that ends in LF adds nothing.
	l, err = OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if b2, _ := os.ReadFile(path); string(b2) != string(b) {
		t.Errorf("reopening changed the file: %q", b2)
	}
}

func TestOpenAppendErrors(t *testing.T) {
	if _, err := OpenAppend(filepath.Join(t.TempDir(), "no", "such", "dir", "log.jsonl")); err == nil {
		t.Error("a file in a missing folder was opened")
	}
	if _, err := OpenAppend(t.TempDir()); err == nil {
		t.Error("a folder was opened as a log")
	}
}

func TestReadLines(t *testing.T) {
	in := "{\"key\":\"a\"}\n\n  \t\n{\"key\":\"b\"}\r\nnot json\n{\"key\":\"c\"}"
	var lines []int
	var texts []string
	err := Read(iotest.OneByteReader(strings.NewReader(in)), "x.jsonl", 0, func(line int, b []byte) error {
		lines = append(lines, line)
		texts = append(texts, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 4, 5, 6}; !slices.Equal(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
	if texts[1] != "{\"key\":\"b\"}\r" || texts[3] != "{\"key\":\"c\"}" {
		t.Errorf("texts %q", texts)
	}
	var keys []string
	err = Decode(strings.NewReader(in), "x.jsonl", 0, func(_ int, r *rec) error { keys = append(keys, r.Key); return nil })
	if err != nil || strings.Join(keys, "") != "abc" {
		t.Errorf("decoded %v, %v", keys, err)
	}
	// An error from fn ends the read and is returned as it is.
	stop := errors.New("stop")
	n := 0
	err = Decode(strings.NewReader(in), "x.jsonl", 0, func(_ int, r *rec) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("fn error: %v after %d calls", err, n)
	}
	// So is an error reading.
	boom := errors.New("boom")
	err = Read(io.MultiReader(strings.NewReader("{}\n"), iotest.ErrReader(boom)), "x", 0, func(int, []byte) error { return nil })
	if err != boom {
		t.Errorf("read error: %v", err)
	}
	// Empty input.
	if err := Read(strings.NewReader(""), "x", 0, func(int, []byte) error { t.Error("called"); return nil }); err != nil {
		t.Error(err)
	}
}

func TestMaxLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	in := "{}\n\"" + long + "\"\n{}\n"
	// Within the limit: read whole.
	var got []int
	err := Read(strings.NewReader(in), "big.jsonl", len(long)+2, func(line int, b []byte) error {
		got = append(got, len(b))
		return nil
	})
	if err != nil || !slices.Equal(got, []int{2, len(long) + 2, 2}) {
		t.Errorf("within the limit: %v, %v", got, err)
	}
	for _, limit := range []int{len(long) + 1, 100, 2} {
		err = Read(strings.NewReader(in), "big.jsonl", limit, func(int, []byte) error { return nil })
		var pe *rdferr.ParseError
		if !errors.As(err, &pe) || pe.File != "big.jsonl" || pe.Line != 2 || !errors.Is(err, rdferr.ErrLimit) {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if want := "big.jsonl:2:1: line longer than"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("message %q", err)
		}
	}
	// No limit.
	if err := Read(strings.NewReader(in), "big.jsonl", -1, func(int, []byte) error { return nil }); err != nil {
		t.Error(err)
	}
	// A last line without LF over the limit.
	err = Read(strings.NewReader("{}\n12345"), "t", 4, func(int, []byte) error { return nil })
	var pe *rdferr.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("last line over the limit: %v", err)
	}
}

// TestReadLine reads lines without their LF, a last line without one with
// io.EOF, and refuses a line over the limit (its LF counted) with a
// *LineTooLongError, also when it spans several buffers.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 40)
	br := bufio.NewReaderSize(strings.NewReader("ab\r\n\n"+long+"\n"+"cd"), 16)
	for i, want := range []struct {
		line string
		err  error
	}{{"ab\r", nil}, {"", nil}, {long, nil}, {"cd", io.EOF}, {"", io.EOF}} {
		b, err := ReadLine(br, 41)
		if string(b) != want.line || err != want.err {
			t.Errorf("line %d: %q, %v; want %q, %v", i, b, err, want.line, want.err)
		}
	}
	_, err := ReadLine(bufio.NewReaderSize(strings.NewReader(long+"\n"), 16), 40)
	if tl, ok := err.(*LineTooLongError); !ok || tl.Max != 40 || err.Error() != "line longer than 40 bytes" {
		t.Errorf("a 41-byte line with a limit of 40: %v", err)
	}
}
