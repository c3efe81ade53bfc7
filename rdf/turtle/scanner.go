package turtle

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/grammar"
)

// bailout carries an error out of the recursive-descent parser by panic;
// Parse recovers it (the technique of go/parser).
type bailout struct{ err error }

const (
	eof        = -1
	bufMinRead = 64 << 10
)

// scanner is the byte-level input layer: a buffer over an io.Reader that
// keeps the bytes from mark on, tracking line and column.
//
// Positions (pos, mark, lineStart) are indices into buf; fill discards the
// bytes before mark and shifts them all. Columns count code points: the
// column of buf[i] is colOff + (code points in buf[lineStart:i]) + 1.
type scanner struct {
	r      io.Reader
	buf    []byte
	pos    int
	mark   int
	atEOF  bool
	nread  int64
	bufOff int64 // the offset in the input of buf[0]

	line      int
	lineStart int
	colOff    int

	file   string
	limits rdf.Limits
}

func (s *scanner) init(r io.Reader, file string, limits rdf.Limits) {
	s.r = r
	s.buf = make([]byte, 0, bufMinRead)
	s.line = 1
	s.file = file
	s.limits = limits
}

// fill reads more input, discarding the bytes before mark. It reports
// whether any byte was added.
func (s *scanner) fill() bool {
	if s.atEOF {
		return false
	}
	if s.mark > 0 {
		if s.lineStart < s.mark {
			s.colOff += utf8.RuneCount(s.buf[s.lineStart:s.mark])
			s.lineStart = s.mark
		}
		n := copy(s.buf, s.buf[s.mark:])
		s.bufOff += int64(s.mark)
		s.buf = s.buf[:n]
		s.pos -= s.mark
		s.lineStart -= s.mark
		s.mark = 0
	}
	if cap(s.buf)-len(s.buf) < bufMinRead/2 {
		if max := s.limits.MaxTermLength; max >= 0 && len(s.buf) > max+64 {
			s.limitf(s.pos, "token longer than %d bytes", max)
		}
		nb := make([]byte, len(s.buf), 2*cap(s.buf)+bufMinRead)
		copy(nb, s.buf)
		s.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		if n < 0 || n > cap(s.buf)-len(s.buf) {
			s.errorf(s.pos, "invalid read count from reader")
		}
		s.buf = s.buf[:len(s.buf)+n]
		s.nread += int64(n)
		if max := s.limits.MaxBytes; max >= 0 && s.nread > max {
			s.limitf(s.pos, "input larger than %d bytes", max)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				panic(bailout{err})
			}
			s.atEOF = true
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	panic(bailout{io.ErrNoProgress})
}

// peek returns the byte at pos+k, or eof.
func (s *scanner) peek(k int) int {
	for s.pos+k >= len(s.buf) {
		if !s.fill() {
			return eof
		}
	}
	return int(s.buf[s.pos+k])
}

// cur returns the byte at pos, or eof.
func (s *scanner) cur() int {
	if s.pos < len(s.buf) {
		return int(s.buf[s.pos])
	}
	return s.peek(0)
}

// peekRune decodes the code point at pos+k (k bytes ahead). It returns
// eof at the end of input, and utf8.RuneError with size 1 for bad UTF-8.
func (s *scanner) peekRune(k int) (rune, int) {
	c := s.peek(k)
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	s.peek(k + utf8.UTFMax - 1) // make sure a whole sequence is buffered if it exists
	return utf8.DecodeRune(s.buf[s.pos+k:])
}

// newline records that a line starts at buf index i.
func (s *scanner) newline(i int) {
	s.line++
	s.lineStart = i
	s.colOff = 0
}

// column returns the 1-based column (in code points) of buf index i on the
// current line.
func (s *scanner) column(i int) int {
	if i < s.lineStart {
		return s.colOff + 1
	}
	if i > len(s.buf) {
		i = len(s.buf)
	}
	return s.colOff + utf8.RuneCount(s.buf[s.lineStart:i]) + 1
}

func (s *scanner) errAt(i int, msg string) *rdf.ParseError {
	return &rdf.ParseError{File: s.file, Line: s.line, Column: s.column(i), Offset: s.bufOff + int64(min(i, len(s.buf))), Msg: msg}
}

// errorf stops the parse with a syntax error at buf index i.
func (s *scanner) errorf(i int, format string, args ...any) {
	panic(bailout{s.errAt(i, fmt.Sprintf(format, args...))})
}

// limitf stops the parse with a limit error at buf index i: a
// *rdf.ParseError wrapping rdf.ErrLimit.
func (s *scanner) limitf(i int, format string, args ...any) {
	e := s.errAt(i, fmt.Sprintf(format, args...))
	e.Err = rdf.ErrLimit
	panic(bailout{e})
}

// found describes what is at pos, for "expected X, found Y" messages.
func (s *scanner) found() string {
	c := s.cur()
	if c == eof {
		return "end of input"
	}
	r, size := s.peekRune(0)
	if r == utf8.RuneError && size == 1 {
		return "invalid UTF-8"
	}
	if grammar.IsPNCharsBase(r) || r == '_' || r >= '0' && r <= '9' {
		// a word: show up to 20 code points of it
		n, k := 0, 0
		for n < 20 {
			r, size := s.peekRune(k)
			if r == eof || !(grammar.IsPNChars(r) || r == ':' || r == '.') {
				break
			}
			k += size
			n++
		}
		return strconv.Quote(string(s.buf[s.pos : s.pos+k]))
	}
	switch c {
	case '\n':
		return "end of line"
	}
	return strconv.Quote(string(r))
}

// expected stops the parse with "expected what, found ...".
func (s *scanner) expected(what string) {
	s.errorf(s.pos, "expected %s, found %s", what, s.found())
}

// ws skips white space and comments.
func (s *scanner) ws() {
	for {
		for s.pos < len(s.buf) {
			switch s.buf[s.pos] {
			case ' ', '\t', '\r':
				s.pos++
			case '\n':
				s.pos++
				s.newline(s.pos)
			case '#':
				s.pos++
				for {
					for s.pos < len(s.buf) && s.buf[s.pos] != '\n' && s.buf[s.pos] != '\r' {
						s.pos++
					}
					if s.pos < len(s.buf) {
						break
					}
					s.mark = s.pos
					if !s.fill() {
						return
					}
				}
			default:
				s.mark = s.pos
				return
			}
		}
		s.mark = s.pos
		if !s.fill() {
			return
		}
	}
}
