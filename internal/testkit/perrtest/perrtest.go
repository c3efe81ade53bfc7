// Package perrtest checks the position of the parse errors (the
// *rdferr.ParseError, alias rdf.ParseError) that the readers of the
// syntaxes and formats return. Tests only.
package perrtest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf/rdferr"
)

// At reports an error, prefixed with the case (format and args, as in
// fmt.Sprintf), unless err is a *rdferr.ParseError of file at line and col
// whose message contains msg; an empty file or msg is not checked. It
// returns the ParseError, or nil when err is not one.
func At(t testing.TB, err error, file string, line, col int, msg, format string, args ...any) *rdferr.ParseError {
	t.Helper()
	what := fmt.Sprintf(format, args...)
	var pe *rdferr.ParseError
	if !errors.As(err, &pe) {
		t.Errorf("%s: error %v, want a *rdf.ParseError", what, err)
		return nil
	}
	if file != "" && pe.File != file || pe.Line != line || pe.Column != col || !strings.Contains(pe.Msg, msg) {
		t.Errorf("%s:\n got %v (line %d, column %d)\nwant %s:%d:%d: ...%s...", what, err, pe.Line, pe.Column, file, line, col, msg)
	}
	return pe
}
