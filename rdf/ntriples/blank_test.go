package ntriples

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// chunked reads at most n bytes a call, as a gzip reader does.
type chunked struct {
	r io.Reader
	n int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestLongBlankLines: lines of megabytes of white space or comment, read
// 32 KiB at a time (as from a gzip stream), keep the buffer small: before,
// the buffer grew to the line and each read rescanned it for a CR
// (quadratic time). The statements around them, the line numbers and the
// columns of an error after the blanks stay right.
func TestLongBlankLines(t *testing.T) {
	const big = 8 << 20
	inputs := map[string]string{
		"spaces":       strings.Repeat(" ", big),
		"tabs-triple":  "<a> <b> <c> .\n" + strings.Repeat(" \t", big/2) + "<a> <b> <d> .\n<a> <b> <e> .\n",
		"comment":      "<a> <b> <c> .\n  #" + strings.Repeat("é", big/2) + "\n<a> <b> <d> .\n",
		"bom-spaces":   "\xef\xbb\xbf" + strings.Repeat(" ", big) + "<a> <b> <c> .\n",
		"cr-spaces":    "<a> <b> <c> .\r" + strings.Repeat(" ", big) + "\r<a> <b> <d> .\r",
		"comment-crlf": "#" + strings.Repeat("x", big) + "\r\n<a> <b> <c> .\r\n",
	}
	want := map[string]int{"spaces": 0, "tabs-triple": 3, "comment": 2, "bom-spaces": 1, "cr-spaces": 2, "comment-crlf": 1}
	for name, in := range inputs {
		rd := NewReader(chunked{strings.NewReader(in), 32 << 10}, NTriples, rdf.ReadOptions{File: name})
		n := 0
		for {
			_, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n++
		}
		if n != want[name] {
			t.Errorf("%s: %d statements, want %d", name, n, want[name])
		}
		if cap(rd.buf) > 2*maxReadSize || rd.drops == 0 {
			t.Errorf("%s: buffer of %d bytes, %d drops", name, cap(rd.buf), rd.drops)
		}
	}
	// An error after the blanks is at the right line and column.
	in := "<a> <b> <c> .\n" + strings.Repeat(" ", 1<<20) + "<a> <b> bad .\n"
	err := Parse(chunked{strings.NewReader(in), 32 << 10}, NTriples, rdf.SinkFunc(func(rdf.Quad) error { return nil }), rdf.ReadOptions{File: "x.nt"})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 1<<20+9 || pe.Offset != 14+1<<20+8 {
		t.Errorf("got %v (offset %d), want line 2 column %d", err, pe.Offset, 1<<20+9)
	}
	// A dropped comment is still checked for UTF-8.
	in = "#" + strings.Repeat("x", 1<<20) + "\xff" + strings.Repeat("x", 1<<20) + "\n"
	err = Parse(chunked{strings.NewReader(in), 32 << 10}, NTriples, rdf.SinkFunc(func(rdf.Quad) error { return nil }), rdf.ReadOptions{File: "x.nt"})
	if err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8 in a long comment: %v", err)
	}
}
