// Package rdferr holds what every reader of isolda reports and obeys: the
// positioned syntax error ParseError, the ErrLimit sentinel and the Limits
// that bound the work of a reader. It imports nothing but the standard
// library, so that packages reading other notations (TOON, JSON lines) can
// report errors the same way without importing the RDF data model.
//
// Package rdf re-exports these names (rdf.ParseError, rdf.ErrLimit,
// rdf.Limits), so either import works.
package rdferr

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ParseError is a syntax or limit error in an input document, with its
// position. Line and Column count from 1; Column counts Unicode code points.
// Offset is the position as a count of bytes from the start of the input
// (0 for its first byte, a byte order mark included), like encoding/json's
// SyntaxError.Offset: it locates the error in inputs without line breaks,
// and it is what a program seeking back into the input needs. The
// N-Triples, N-Quads, Turtle and TriG readers set it with the line and
// column; an error with no position has Line 0 (and Offset 0).
type ParseError struct {
	File   string // the input's name; empty for an unnamed stream
	Line   int
	Column int
	Offset int64  // bytes of input before the error position
	Msg    string // what was wrong or expected
	Err    error  // an underlying cause, such as ErrLimit; may be nil
}

// Unwrap returns the underlying cause, so errors.Is(err, ErrLimit) works.
func (e *ParseError) Unwrap() error { return e.Err }

// Error formats the error as FILE:LINE:COL: message (the file part is
// "<input>" when unknown, and only the file is given when the line is).
func (e *ParseError) Error() string {
	name := e.File
	if name == "" {
		name = "<input>"
	}
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", name, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, e.Line, e.Column, e.Msg)
}

// InvalidUTF8 returns the byte offset of the first byte of s that is not
// part of a valid UTF-8 encoding, where a reader reports ill-formed input,
// or -1 when s is valid UTF-8. A reader of bytes passes string(b) once it
// has found (with utf8.Valid) that there is such a byte.
func InvalidUTF8(s string) int {
	for off := 0; off < len(s); {
		if s[off] < utf8.RuneSelf {
			off++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && size == 1 {
			return off
		}
		off += size
	}
	return -1
}

// Position returns the line and column, as ParseError counts them (from 1,
// the column in code points), of byte offset off of text; an offset outside
// the text is taken as its start or its end.
func Position(text string, off int) (line, col int) {
	off = min(max(off, 0), len(text))
	line = 1 + strings.Count(text[:off], "\n")
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(text[lineStart:off])
}

// ErrLimit is wrapped by errors caused by a configured limit (size, depth,
// work); callers can test for it with errors.Is.
var ErrLimit = errors.New("limit exceeded")

// Limits protect readers from hostile input. A zero field means the default
// from DefaultLimits; a negative field means no limit.
type Limits struct {
	MaxBytes      int64 // total input size
	MaxQuads      int64 // quads produced
	MaxDepth      int   // nesting of [ ], ( ), {}, XML elements or JSON values
	MaxTermLength int   // length in bytes of one IRI, literal or label
}

// DefaultLimits are generous enough for every real file we know of and
// small enough to keep a hostile one from exhausting memory. Treat it as a
// constant.
var DefaultLimits = Limits{
	MaxBytes:      4 << 30,
	MaxQuads:      1 << 31,
	MaxDepth:      1000,
	MaxTermLength: 64 << 20,
}

// WithDefaults returns l with zero fields replaced by DefaultLimits.
func (l Limits) WithDefaults() Limits {
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxQuads == 0 {
		l.MaxQuads = DefaultLimits.MaxQuads
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxTermLength == 0 {
		l.MaxTermLength = DefaultLimits.MaxTermLength
	}
	return l
}

// ReadAll reads r to its end within l's MaxBytes (after WithDefaults; a
// negative MaxBytes reads without a bound): it stops at the first byte
// beyond the limit, and over reports that there was one (data then holds
// MaxBytes+1 bytes). A read error is returned as it is, with over false.
func (l Limits) ReadAll(r io.Reader) (data []byte, over bool, err error) {
	max := l.WithDefaults().MaxBytes
	if max < 0 {
		data, err = io.ReadAll(r)
		return data, false, err
	}
	data, err = io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return data, false, err
	}
	return data, int64(len(data)) > max, nil
}
