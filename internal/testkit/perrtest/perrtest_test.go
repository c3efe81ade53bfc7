package perrtest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/isolda/isolda/rdf/rdferr"
)

// TestAt accepts a (wrapped) ParseError at its position and refuses one
// with another file, line, column or message, and an error of another
// type.
func TestAt(t *testing.T) {
	pe := &rdferr.ParseError{File: "in.ttl", Line: 2, Column: 5, Msg: "expected '.'"}
	wrapped := fmt.Errorf("reading: %w", pe)
	for i, c := range []struct {
		err       error
		file      string
		line, col int
		msg       string
		ok        bool
	}{
		{wrapped, "in.ttl", 2, 5, "expected", true},
		{pe, "", 2, 5, "", true},
		{pe, "x.ttl", 2, 5, "", false},
		{pe, "", 3, 5, "", false},
		{pe, "", 2, 4, "", false},
		{pe, "", 2, 5, "unexpected", false},
		{errors.New("expected '.'"), "", 2, 5, "", false},
	} {
		rt := &recorder{TB: t}
		got := At(rt, c.err, c.file, c.line, c.col, c.msg, "case %d", i)
		if rt.failed == c.ok {
			t.Errorf("%v %q %d:%d %q: failed %v, want %v", c.err, c.file, c.line, c.col, c.msg, rt.failed, !c.ok)
		}
		if (got == nil) != (c.err == error(nil) || !errors.As(c.err, new(*rdferr.ParseError))) {
			t.Errorf("%v: returned %v", c.err, got)
		}
	}
}

// recorder records Errorf instead of failing the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
