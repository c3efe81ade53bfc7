// Package ntriples reads and writes N-Triples and N-Quads: RDF 1.1 with the
// directional language tags and triple terms of RDF 1.2.
//
// The reader is a hand-written, streaming, line-at-a-time scanner: it keeps
// one buffer, validates each line as UTF-8, and slices terms out of it,
// allocating a string only for a term that it has not seen recently (and
// none with ReadOptions.Transient, where terms are views of the line). It
// reads the RDF 1.2 grammar: RDF 1.1 plus base directions ("x"@en--ltr,
// read into Term.Dir) and triple terms (<<( s p o )>>, in object position
// only, read into rdf.TripleKind terms). It follows the reader policy of
// package rdf: a term the grammar allows but RDF does not (a relative IRI,
// an escape that puts a space or '{' into an IRI, a language tag that is
// not well-formed BCP 47, a surrogate pair written as two escapes) is kept
// with a warning, or is an error with ReadOptions.Strict.
//
// Errors in the input are *rdf.ParseError values giving the file, line,
// column (in code points) and byte offset and saying what was expected.
// Errors caused by rdf.Limits (MaxBytes, MaxQuads, MaxTermLength, and a
// line-length bound derived from MaxTermLength) are ParseErrors too and
// also match errors.Is(err, rdf.ErrLimit).
//
// The writer produces N-Triples / N-Quads in the canonical form of RDF 1.2
// (one statement per line, single spaces, minimal escapes, no
// ^^xsd:string), except that language tags keep the case they were
// written in; NewCanonicalWriter lower-cases them too.
package ntriples

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/grammar"
	"github.com/isolda/isolda/rdf/rdferr"
)

// Syntax selects N-Triples or N-Quads.
type Syntax int

// The syntaxes this package reads and writes.
const (
	NTriples Syntax = iota // one triple per line, no graph names
	NQuads                 // an optional graph name after the object
)

// String names the syntax.
func (s Syntax) String() string {
	switch s {
	case NTriples:
		return "N-Triples"
	case NQuads:
		return "N-Quads"
	}
	return fmt.Sprintf("Syntax(%d)", int(s))
}

// utf8BOM is the byte order mark skipped at the start of the input.
const utf8BOM = "\xef\xbb\xbf"

const (
	minBufSize  = 4 << 10   // first buffer
	maxReadSize = 256 << 10 // the buffer grows to this size on big inputs
)

// Reader reads quads one at a time from N-Triples or N-Quads text. Its
// memory use is bounded by the longest line (and Limits.MaxTermLength),
// whatever the input's size.
type Reader struct {
	src    io.Reader
	syntax Syntax
	opts   rdf.ReadOptions
	file   string
	lim    rdf.Limits

	buf      []byte
	pos, end int // unread data is buf[pos:end]
	scanned  int // buf[pos:pos+scanned] holds no LF
	crUpTo   int // buf[pos:crUpTo] holds no CR (when crUpTo >= pos)
	// Long lines of white space or comment need not be kept: skip counts
	// the leading blanks dropped from the line being read (its columns
	// start after them), inComment marks a comment line whose text after
	// the '#' is being dropped, lineSkip is skip for the line returned.
	skip, lineSkip int
	inComment      bool
	keep           int // bytes before the comment's text, from pos
	// drops counts the times dropBlank dropped bytes (tests read it).
	drops     int
	eof       bool  // src returned io.EOF, or the byte limit was reached
	overLimit bool  // the input is longer than lim.MaxBytes
	read      int64 // bytes read from src
	maxLine   int   // longest accepted line, or -1
	started   bool  // a BOM is skipped only at the start
	line      int   // number of the line last returned by nextLine
	lineOff   int64 // byte offset in the input of that line's first byte
	nquads    int64
	err       error // sticky error
	scratch   []byte
	cache     grammar.Interner // labels and language tags
	iris      grammar.Interner // IRIs, apart: a fresh one is checked
	lastSubj  string
	lastIsIRI bool // lastSubj is an IRI, not a blank node label
}

// NewReader returns a Reader for r. opts.Base does not matter: N-Triples
// and N-Quads do not resolve IRIs (a relative one is kept as it is, with a
// warning).
func NewReader(r io.Reader, syntax Syntax, opts rdf.ReadOptions) *Reader {
	lim := opts.Limits.WithDefaults()
	maxLine := -1
	if lim.MaxTermLength >= 0 && lim.MaxTermLength < (math.MaxInt-1<<16)/4 {
		// Four terms and generous room for white space and comments.
		maxLine = 4*lim.MaxTermLength + 1<<16
	}
	return &Reader{
		src:     r,
		syntax:  syntax,
		opts:    opts,
		file:    opts.File,
		lim:     lim,
		maxLine: maxLine,
	}
}

// Parse reads all of r and sends each quad to sink. It stops at the first
// syntax error (an *rdf.ParseError), limit error (also matching
// errors.Is(err, rdf.ErrLimit)), read error or error from the sink.
func Parse(r io.Reader, syntax Syntax, sink rdf.Sink, opts rdf.ReadOptions) error {
	rd := NewReader(r, syntax, opts)
	for {
		q, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := sink.AddQuad(q); err != nil {
			return err
		}
	}
}

// Next returns the next quad, or io.EOF after the last one. After any other
// error it keeps returning that error. With ReadOptions.Transient, the
// quad's strings are valid only until the next call.
func (r *Reader) Next() (rdf.Quad, error) {
	if r.err != nil {
		return rdf.Quad{}, r.err
	}
	for {
		line, err := r.nextLine()
		if err != nil {
			r.err = err
			return rdf.Quad{}, err
		}
		q, ok, err := r.parseLine(line)
		if err != nil {
			r.err = err
			return rdf.Quad{}, err
		}
		if !ok {
			continue
		}
		r.nquads++
		if r.lim.MaxQuads >= 0 && r.nquads > r.lim.MaxQuads {
			r.err = r.limitError(line, 0, fmt.Sprintf("more than %d statements", r.lim.MaxQuads))
			return rdf.Quad{}, r.err
		}
		return q, nil
	}
}

// Line returns the number of the line the last quad or error came from.
func (r *Reader) Line() int { return r.line }

// nextLine returns the next line without its terminator (LF, CR LF or CR).
// The slice is valid until the next call.
func (r *Reader) nextLine() ([]byte, error) {
	for {
		if k := bytes.IndexByte(r.buf[r.pos+r.scanned:r.end], '\n'); k >= 0 {
			nl := r.pos + r.scanned + k
			return r.takeLine(nl, nl+1), nil
		}
		r.scanned = r.end - r.pos
		if r.overLimit {
			return nil, &rdf.ParseError{File: r.file, Line: r.line + 1, Column: 1, Offset: r.read,
				Msg: fmt.Sprintf("input larger than %d bytes", r.lim.MaxBytes), Err: rdf.ErrLimit}
		}
		if r.eof {
			if r.pos == r.end {
				return nil, io.EOF
			}
			return r.takeLine(r.end, r.end), nil
		}
		// With no LF in sight, a CR that is not the last byte read ends a
		// line: files with CR line ends need not fit in the buffer. The
		// search goes on from where the last one stopped (crIndex), so a
		// long line is searched once, not once per read.
		if j := r.crIndex(r.end); j >= 0 && r.pos+j+1 < r.end {
			return r.takeLine(r.end, r.end), nil
		}
		r.dropBlank()
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
}

// takeLine returns buf[pos:stop] up to its first CR and advances past the
// line and its terminator; next is where the data after an LF terminator
// starts. buf[pos:stop] holds no LF.
func (r *Reader) takeLine(stop, next int) []byte {
	line := r.buf[r.pos:stop]
	r.lineSkip, r.skip, r.inComment = r.skip, 0, false
	r.scanned = 0
	r.line++
	r.lineOff = r.read - int64(r.end-r.pos)
	if j := r.crIndex(stop); j >= 0 {
		if j < len(line)-1 {
			// A CR on its own ends a line too (EOL ::= [#xD#xA]+); the
			// rest, up to stop, is known to hold no LF.
			next = r.pos + j + 1
			r.scanned = stop - next
		}
		line = line[:j]
	}
	r.pos = next
	if !r.started {
		r.started = true
		if bytes.HasPrefix(line, []byte(utf8BOM)) {
			line = line[3:]
			r.lineOff += 3
		}
	}
	return line
}

// dropBlank drops what the unfinished line in buf[pos:end] (no LF in it,
// and no CR but maybe as its last byte) cannot need: its leading spaces
// and tabs, and, on a comment line, the comment's text after the '#'. So a
// line of gigabytes of white space or comment is read in constant memory
// and in linear time, where it used to be buffered whole (up to the line
// length limit, the buffer growing and being copied on the way).
func (r *Reader) dropBlank() {
	if !r.inComment {
		start := r.pos
		bom := false
		if !r.started { // a BOM at the start of the input stays in front
			if r.end-r.pos < 3 {
				return
			}
			if bom = bytes.HasPrefix(r.buf[r.pos:r.end], []byte(utf8BOM)); bom {
				start += 3
			}
		}
		i := start
		for i < r.end && (r.buf[i] == ' ' || r.buf[i] == '\t') {
			i++
		}
		if i > start {
			r.skip += i - start
			r.pos = i
			if bom {
				r.pos -= 3
				copy(r.buf[r.pos:], utf8BOM)
			}
			r.drops++
		}
		r.scanned = r.end - r.pos
		if i == r.end || r.buf[i] != '#' {
			return
		}
		r.inComment = true
		r.keep = i + 1 - r.pos
	}
	// Keep what precedes the comment's text, the bytes of a character
	// not yet complete, and a CR that may end the line. The text dropped
	// must be UTF-8, as a whole line must (else it is kept, for the error).
	keep := r.pos + r.keep
	cut := r.end
	cr := cut > keep && r.buf[cut-1] == '\r'
	if cr {
		cut--
	}
	for j := cut - 1; j >= keep && j >= cut-utf8.UTFMax; j-- {
		if utf8.RuneStart(r.buf[j]) {
			if !utf8.FullRune(r.buf[j:cut]) {
				cut = j
			}
			break
		}
	}
	if cut <= keep || !utf8.Valid(r.buf[keep:cut]) {
		return
	}
	r.end = keep + copy(r.buf[keep:], r.buf[cut:r.end])
	r.drops++
	r.scanned = r.end - r.pos
	r.crUpTo = r.pos
}

// crIndex returns the offset from pos of the first CR in buf[pos:stop], or
// -1. It searches each byte of the buffer once, not once per line.
func (r *Reader) crIndex(stop int) int {
	if r.crUpTo < r.pos {
		r.crUpTo = r.pos
	}
	if r.crUpTo < stop {
		if k := bytes.IndexByte(r.buf[r.crUpTo:r.end], '\r'); k >= 0 {
			r.crUpTo += k // a CR: found again at once while it is ahead
		} else {
			r.crUpTo = r.end
		}
	}
	if r.crUpTo < stop {
		return r.crUpTo - r.pos
	}
	return -1
}

// fill reads more input, first moving unread data to the front of the
// buffer and growing it when it is full.
func (r *Reader) fill() error {
	if r.buf == nil {
		r.buf = make([]byte, minBufSize)
	}
	if r.pos > 0 {
		copy(r.buf, r.buf[r.pos:r.end])
		r.end -= r.pos
		r.crUpTo -= r.pos
		r.pos = 0
	}
	// buf[:end] is now the start of one line.
	if r.maxLine >= 0 && r.end >= r.maxLine {
		return &rdf.ParseError{File: r.file, Line: r.line + 1, Column: 1, Offset: r.read - int64(r.end),
			Msg: fmt.Sprintf("line longer than %d bytes", r.maxLine), Err: rdf.ErrLimit}
	}
	if r.end == len(r.buf) || len(r.buf) < maxReadSize && r.read >= int64(len(r.buf)) {
		// Grow a full buffer, and a small one while the input proves big,
		// so that small documents stay cheap and big ones get large reads.
		n := 2 * len(r.buf)
		if r.end == len(r.buf) && r.maxLine >= 0 && n > r.maxLine {
			n = r.maxLine
		}
		nb := make([]byte, n)
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf[r.end:])
		if n < 0 || n > len(r.buf)-r.end {
			return errors.New("ntriples: invalid Read count")
		}
		r.end += n
		r.read += int64(n)
		if r.lim.MaxBytes >= 0 && r.read > r.lim.MaxBytes {
			// Keep the bytes within the limit: the lines they complete are
			// read, and the error comes at the line the limit cuts.
			r.end -= int(r.read - r.lim.MaxBytes)
			r.read = r.lim.MaxBytes
			r.overLimit = true
			r.eof = true
			return nil
		}
		if err == io.EOF {
			r.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}

// errAt returns a syntax error at byte offset off of line.
func (r *Reader) errAt(line []byte, off int, format string, args ...any) error {
	return r.parseError(line, off, fmt.Sprintf(format, args...))
}

func (r *Reader) parseError(line []byte, off int, msg string) *rdf.ParseError {
	off = min(off, len(line))
	return &rdf.ParseError{File: r.file, Line: r.line, Column: r.lineSkip + column(line, off), Offset: r.lineOff + int64(off), Msg: msg}
}

// limitError returns a ParseError at line and off that wraps rdf.ErrLimit.
func (r *Reader) limitError(line []byte, off int, msg string) error {
	e := r.parseError(line, off, msg)
	e.Err = rdf.ErrLimit
	return e
}

// defect reports a term defect at byte offset off of line (see
// rdf.ReadOptions.Defect): a warning, or with Strict an error.
func (r *Reader) defect(line []byte, off int, msg string) error {
	return r.opts.Defect(r.parseError(line, off, msg))
}

// column returns the 1-based column, in code points, of byte offset off.
func column(line []byte, off int) int {
	if off > len(line) {
		off = len(line)
	}
	return utf8.RuneCount(line[:off]) + 1
}

// describe names the input at b[i] for error messages.
func describe(b []byte, i int) string {
	if i >= len(b) {
		return "end of line"
	}
	r, _ := utf8.DecodeRune(b[i:])
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("character U+%04X", r)
	}
	return fmt.Sprintf("%q", r)
}

func skipWS(b []byte, i int) int {
	for i < len(b) && grammar.Is(b[i], grammar.WS) {
		i++
	}
	return i
}

// parseLine parses one line. ok is false for a line with no statement.
func (r *Reader) parseLine(b []byte) (q rdf.Quad, ok bool, err error) {
	if !utf8.Valid(b) {
		off := rdferr.InvalidUTF8(string(b))
		return q, false, r.errAt(b, off, "invalid UTF-8 (byte 0x%02X)", b[off])
	}
	i := skipWS(b, 0)
	if i == len(b) || b[i] == '#' {
		return q, false, nil
	}

	// Subject.
	switch {
	case b[i] == '<' && i+1 < len(b) && b[i+1] == '<':
		return q, false, r.errTripleTerm(b, i, "subject")
	case b[i] == '<':
		q.S.Kind = rdf.IRIKind
		if q.S.Value, i, err = r.iri(b, i, true); err != nil {
			return q, false, err
		}
	case b[i] == '_':
		q.S.Kind = rdf.BlankKind
		if q.S.Value, i, err = r.blank(b, i, true); err != nil {
			return q, false, err
		}
	default:
		return q, false, r.errAt(b, i, "expected a subject (an IRI <...> or a blank node _:label), found %s", describe(b, i))
	}

	// Predicate.
	i = skipWS(b, i)
	if i >= len(b) || b[i] != '<' {
		return q, false, r.errAt(b, i, "expected a predicate (an IRI <...>), found %s", describe(b, i))
	}
	if i+1 < len(b) && b[i+1] == '<' {
		return q, false, r.errTripleTerm(b, i, "predicate")
	}
	q.P.Kind = rdf.IRIKind
	if q.P.Value, i, err = r.iri(b, i, false); err != nil {
		return q, false, err
	}

	// Object.
	i = skipWS(b, i)
	switch {
	case i >= len(b):
		return q, false, r.errAt(b, i, "expected an object (an IRI, blank node or literal), found end of line")
	case b[i] == '<' && i+1 < len(b) && b[i+1] == '<':
		if q.O, i, err = r.tripleTerm(b, i, 1); err != nil {
			return q, false, err
		}
	case b[i] == '<':
		q.O.Kind = rdf.IRIKind
		if q.O.Value, i, err = r.iri(b, i, false); err != nil {
			return q, false, err
		}
	case b[i] == '_':
		q.O.Kind = rdf.BlankKind
		if q.O.Value, i, err = r.blank(b, i, false); err != nil {
			return q, false, err
		}
	case b[i] == '"':
		if q.O, i, err = r.literal(b, i); err != nil {
			return q, false, err
		}
	default:
		return q, false, r.errAt(b, i, "expected an object (an IRI <...>, a blank node _:label or a literal \"...\"), found %s", describe(b, i))
	}

	// Graph name.
	i = skipWS(b, i)
	if r.syntax == NQuads && i < len(b) {
		switch b[i] {
		case '<':
			if i+1 < len(b) && b[i+1] == '<' {
				return q, false, r.errTripleTerm(b, i, "graph name")
			}
			q.G.Kind = rdf.IRIKind
			if q.G.Value, i, err = r.iri(b, i, false); err != nil {
				return q, false, err
			}
		case '_':
			q.G.Kind = rdf.BlankKind
			if q.G.Value, i, err = r.blank(b, i, false); err != nil {
				return q, false, err
			}
		}
		i = skipWS(b, i)
	}

	// End of statement.
	if i >= len(b) || b[i] != '.' {
		what := "'.'"
		if r.syntax == NQuads && q.G.IsZero() {
			what = "a graph name or '.'"
		}
		return q, false, r.errAt(b, i, "expected %s at the end of the statement, found %s", what, describe(b, i))
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] != '#' {
		return q, false, r.errAt(b, i, "expected the end of the line or a comment after '.', found %s (one statement per line)", describe(b, i))
	}
	return q, true, nil
}

// errTripleTerm reports '<<' where a triple term may not stand.
func (r *Reader) errTripleTerm(b []byte, i int, pos string) error {
	return r.errAt(b, i, "unexpected '<<' in the %s: a triple term <<( s p o )>> may only be an object", pos)
}

// maxTripleTermDepth bounds the nesting of triple terms.
const maxTripleTermDepth = rdf.MaxTripleTermNesting

// tripleTerm reads the triple term at b[i] == '<' == b[i+1] and returns it
// and the offset after it.
func (r *Reader) tripleTerm(b []byte, i, depth int) (rdf.Term, int, error) {
	var t rdf.Term
	if i+2 >= len(b) || b[i+2] != '(' {
		return t, 0, r.errAt(b, i, "expected '<<(' to open a triple term; reified triples << ... >> exist only in Turtle and TriG")
	}
	if depth > maxTripleTermDepth {
		return t, 0, r.limitError(b, i, fmt.Sprintf("triple terms nested more than %d deep", maxTripleTermDepth))
	}
	var s, p, o rdf.Term
	var err error
	j := skipWS(b, i+3)
	switch {
	case j < len(b) && b[j] == '<' && (j+1 >= len(b) || b[j+1] != '<'):
		s.Kind = rdf.IRIKind
		s.Value, j, err = r.iri(b, j, false)
	case j < len(b) && b[j] == '_':
		s.Kind = rdf.BlankKind
		s.Value, j, err = r.blank(b, j, false)
	default:
		return t, 0, r.errAt(b, j, "expected the subject of a triple term (an IRI or a blank node), found %s", describe(b, j))
	}
	if err != nil {
		return t, 0, err
	}
	j = skipWS(b, j)
	if j >= len(b) || b[j] != '<' || j+1 < len(b) && b[j+1] == '<' {
		return t, 0, r.errAt(b, j, "expected the predicate of a triple term (an IRI), found %s", describe(b, j))
	}
	p.Kind = rdf.IRIKind
	if p.Value, j, err = r.iri(b, j, false); err != nil {
		return t, 0, err
	}
	j = skipWS(b, j)
	switch {
	case j+1 < len(b) && b[j] == '<' && b[j+1] == '<':
		o, j, err = r.tripleTerm(b, j, depth+1)
	case j < len(b) && b[j] == '<':
		o.Kind = rdf.IRIKind
		o.Value, j, err = r.iri(b, j, false)
	case j < len(b) && b[j] == '_':
		o.Kind = rdf.BlankKind
		o.Value, j, err = r.blank(b, j, false)
	case j < len(b) && b[j] == '"':
		o, j, err = r.literal(b, j)
	default:
		return t, 0, r.errAt(b, j, "expected the object of a triple term, found %s", describe(b, j))
	}
	if err != nil {
		return t, 0, err
	}
	j = skipWS(b, j)
	if !bytes.HasPrefix(b[j:], []byte(")>>")) {
		return t, 0, r.errAt(b, j, "expected ')>>' to close the triple term, found %s", describe(b, j))
	}
	t = rdf.NewTripleTerm(s, p, o)
	if err := r.checkLength(b, i, len(t.Value)); err != nil {
		return t, 0, err
	}
	return t, j + 3, nil
}

// intern returns v as a string, reusing a recent string with the same
// content when there is one.
func (r *Reader) intern(v []byte) string { return r.cache.Intern(v) }

func (r *Reader) checkLength(b []byte, start, n int) error {
	if r.lim.MaxTermLength >= 0 && n > r.lim.MaxTermLength {
		return r.limitError(b, start, fmt.Sprintf("term longer than %d bytes", r.lim.MaxTermLength))
	}
	return nil
}

// iri reads an IRIREF starting at b[i] == '<' and returns its value and the
// offset after the '>'. Only absolute IRIs are accepted.
func (r *Reader) iri(b []byte, i int, subject bool) (string, int, error) {
	start := i + 1
	j := start + grammar.Span(b[start:], grammar.IRI)
	var v []byte
	slow := false
	if j < len(b) && b[j] == '>' {
		v = b[start:j]
	} else {
		var err error
		if v, j, err = r.iriSlow(b, start, j); err != nil {
			return "", 0, err
		}
		slow = true
	}
	if err := r.checkLength(b, i, len(v)); err != nil {
		return "", 0, err
	}
	if r.opts.Transient {
		return r.iriView(b, i, j, v, slow)
	}
	var s string
	fresh := true
	switch {
	case subject && r.lastIsIRI && string(v) == r.lastSubj:
		s, fresh = r.lastSubj, false
	case subject:
		s, fresh = r.iris.InternFresh(v)
		r.lastSubj, r.lastIsIRI = s, true
	default:
		s, fresh = r.iris.InternFresh(v)
	}
	// Only escapes can put characters IRIs may not contain into v; raw
	// ones are syntax errors. A string seen recently was checked then.
	if fresh && (slow || !grammar.HasScheme(v) || twoHashes(v)) {
		if msg := rdf.CheckIRI(s); msg != "" {
			if err := r.defect(b, i, msg); err != nil {
				return "", 0, err
			}
		}
	}
	return s, j + 1, nil
}

// iriView is iri for ReadOptions.Transient: it returns the IRI value v
// (ending at b[j] == '>') as a view of the line, or as a string when it was
// decoded into the scratch buffer, which the next term reuses; checked as
// iri checks it. Only an IRI the check may refuse is interned, so that a
// defect is reported once per recent IRI, as without Transient.
func (r *Reader) iriView(b []byte, i, j int, v []byte, slow bool) (string, int, error) {
	if !slow && grammar.HasScheme(v) && !twoHashes(v) {
		return grammar.View(v), j + 1, nil
	}
	s, fresh := r.iris.InternFresh(v)
	if fresh {
		if msg := rdf.CheckIRI(s); msg != "" {
			if err := r.defect(b, i, msg); err != nil {
				return "", 0, err
			}
		}
	}
	return s, j + 1, nil
}

// iriSlow continues an IRIREF from b[j], which is not a plain character:
// it decodes \u and \U escapes into r.scratch and reports bad characters.
func (r *Reader) iriSlow(b []byte, start, j int) ([]byte, int, error) {
	r.scratch = append(r.scratch[:0], b[start:j]...)
	for {
		if j >= len(b) {
			return nil, 0, r.errAt(b, j, "unterminated IRI: expected '>' before the end of the line")
		}
		c := b[j]
		switch {
		case c == '>':
			return r.scratch, j, nil
		case grammar.Is(c, grammar.IRI):
			r.scratch = append(r.scratch, c)
			j++
		case c == '\\':
			ch, n, err := r.uchar(b, j)
			if err != nil {
				return nil, 0, err
			}
			r.scratch = utf8.AppendRune(r.scratch, ch)
			j += n
		default:
			return nil, 0, r.errAt(b, j, "%s is not allowed in an IRI (spaces and <>\"{}|^`\\ must be %%-encoded)", describe(b, j))
		}
	}
}

// uchar decodes the UCHAR escape at b[j] == '\\' and returns the code
// point and the escape's length. A UTF-16 surrogate pair written as two \u
// escapes is combined, with a warning; a lone surrogate is an error.
func (r *Reader) uchar(b []byte, j int) (rune, int, error) {
	if j+1 >= len(b) || (b[j+1] != 'u' && b[j+1] != 'U') {
		return 0, 0, r.errAt(b, j, "invalid escape %s: only \\uXXXX and \\UXXXXXXXX are allowed here", grammar.EscapeText(b[j:]))
	}
	ch, n, pair, msg := grammar.UCHAR(b[j:])
	if msg != "" {
		return 0, 0, r.errAt(b, j, "%s", msg)
	}
	if pair {
		if err := r.defect(b, j, grammar.PairMsg(b[j:j+n])); err != nil {
			return 0, 0, err
		}
	}
	return ch, n, nil
}

// twoHashes reports whether v holds more than one '#'.
func twoHashes(v []byte) bool {
	k := bytes.IndexByte(v, '#')
	return k >= 0 && bytes.IndexByte(v[k+1:], '#') >= 0
}

// blank reads a BLANK_NODE_LABEL starting at b[i] == '_' and returns the
// label without "_:" and the offset after it.
func (r *Reader) blank(b []byte, i int, subject bool) (string, int, error) {
	if i+1 >= len(b) || b[i+1] != ':' {
		return "", 0, r.errAt(b, i, "expected ':' after '_' in a blank node label")
	}
	start := i + 2
	j := start
	// First character: PN_CHARS_U or a digit.
	if j < len(b) && grammar.Is(b[j], grammar.PNStart) {
		j++
	} else if c, size := utf8.DecodeRune(b[min(j, len(b)):]); j < len(b) && c >= 0x80 && grammar.IsPNCharsU(c) {
		j += size
	} else {
		return "", 0, r.errAt(b, j, "invalid blank node label: expected a letter, digit or '_' after '_:', found %s", describe(b, j))
	}
	// Then (PN_CHARS | '.')*, not ending with '.'.
	for j < len(b) {
		c := b[j]
		if grammar.Is(c, grammar.PN) || c == '.' {
			j++
			continue
		}
		if c < 0x80 {
			break
		}
		ch, size := utf8.DecodeRune(b[j:])
		if !grammar.IsPNChars(ch) {
			break
		}
		j += size
	}
	for b[j-1] == '.' {
		j--
	}
	if j < len(b) && b[j] == ':' {
		return "", 0, r.errAt(b, j, "invalid blank node label: ':' is not allowed in a label")
	}
	v := b[start:j]
	if err := r.checkLength(b, i, len(v)); err != nil {
		return "", 0, err
	}
	if r.opts.Transient {
		return grammar.View(v), j, nil
	}
	if subject {
		if !r.lastIsIRI && string(v) == r.lastSubj {
			return r.lastSubj, j, nil
		}
		r.lastSubj, r.lastIsIRI = r.intern(v), false
		return r.lastSubj, j, nil
	}
	return r.intern(v), j, nil
}

// literal reads a literal starting at b[i] == '"': the quoted string and an
// optional language tag (with an optional RDF 1.2 base direction) or
// datatype IRI.
func (r *Reader) literal(b []byte, i int) (rdf.Term, int, error) {
	t := rdf.Term{Kind: rdf.LiteralKind, Datatype: rdf.XSDString}
	start := i + 1
	j := start + grammar.Span(b[start:], grammar.Lit)
	if j < len(b) && b[j] == '"' {
		if err := r.checkLength(b, i, j-start); err != nil {
			return t, 0, err
		}
		if r.opts.Transient {
			t.Value = grammar.View(b[start:j])
		} else {
			t.Value = string(b[start:j])
		}
	} else {
		v, k, err := r.literalSlow(b, start, j)
		if err != nil {
			return t, 0, err
		}
		if err := r.checkLength(b, i, len(v)); err != nil {
			return t, 0, err
		}
		t.Value = string(v)
		j = k
	}
	j++ // the closing quote
	k := skipWS(b, j)
	switch {
	case k < len(b) && b[k] == '@':
		return r.langTag(b, k, t)
	case k+1 < len(b) && b[k] == '^' && b[k+1] == '^':
		k = skipWS(b, k+2)
		if k >= len(b) || b[k] != '<' || k+1 < len(b) && b[k+1] == '<' {
			return t, 0, r.errAt(b, k, "expected a datatype IRI <...> after '^^', found %s", describe(b, k))
		}
		dt, end, err := r.iri(b, k, false)
		if err != nil {
			return t, 0, err
		}
		if dt == rdf.RDFLangString || dt == rdf.RDFDirLangString {
			return t, 0, r.errAt(b, k, "datatype <%s> needs a language tag: write \"...\"@lang instead", dt)
		}
		// The relative IRI <> (kept with a warning) stands for xsd:string,
		// as it does in the Turtle and RDF/XML readers (rdf.NewLiteral).
		if dt != "" {
			t.Datatype = dt
		}
		return t, end, nil
	case k < len(b) && b[k] == '^':
		return t, 0, r.errAt(b, k, "expected '^^' before a datatype IRI")
	}
	return t, j, nil
}

// literalSlow continues a string literal from b[j], which is not a plain
// character, decoding escapes into r.scratch. It returns the value and the
// offset of the closing quote.
func (r *Reader) literalSlow(b []byte, start, j int) ([]byte, int, error) {
	r.scratch = append(r.scratch[:0], b[start:j]...)
	for {
		if j >= len(b) {
			return nil, 0, r.errAt(b, start-1, "unterminated string literal: expected '\"' before the end of the line")
		}
		c := b[j]
		switch {
		case c == '"':
			return r.scratch, j, nil
		case grammar.Is(c, grammar.Lit):
			k := j + 1 + grammar.Span(b[j+1:], grammar.Lit)
			r.scratch = append(r.scratch, b[j:k]...)
			j = k
		case c == '\\':
			if j+1 >= len(b) {
				return nil, 0, r.errAt(b, j, "unterminated string literal: '\\' at the end of the line")
			}
			if b[j+1] == 'u' || b[j+1] == 'U' {
				ch, n, err := r.uchar(b, j)
				if err != nil {
					return nil, 0, err
				}
				r.scratch = utf8.AppendRune(r.scratch, ch)
				j += n
				continue
			}
			e, ok := grammar.ECHAR(b[j+1])
			if !ok {
				return nil, 0, r.errAt(b, j, "invalid escape %s in a string: expected one of \\t \\b \\n \\r \\f \\\" \\' \\\\ \\uXXXX \\UXXXXXXXX", grammar.EscapeText(b[j:]))
			}
			r.scratch = append(r.scratch, e)
			j += 2
		default:
			// Only a CR or LF can get here, and lines hold neither.
			return nil, 0, r.errAt(b, j, "%s is not allowed in a string literal", describe(b, j))
		}
	}
}

// langTag reads a LANGTAG (or RDF 1.2 LANG_DIR) at b[i] == '@' for t. The
// grammar sets no limit on the length of subtags; a tag that is not
// well-formed BCP 47 is kept with a warning.
func (r *Reader) langTag(b []byte, i int, t rdf.Term) (rdf.Term, int, error) {
	j := i + 1
	k := j + grammar.LangTag(b[j:])
	if k == j {
		return t, 0, r.errAt(b, j, "invalid language tag: expected a letter after '@', found %s", describe(b, j))
	}
	dirStart := -1
	if k+1 < len(b) && b[k] == '-' && b[k+1] == '-' {
		dirStart = k
	} else if k < len(b) && b[k] == '-' {
		return t, 0, r.errAt(b, k+1, "invalid language tag: expected a letter or digit after '-', found %s", describe(b, k+1))
	}
	if err := r.checkLength(b, i, k-j); err != nil {
		return t, 0, err
	}
	t.Lang = r.intern(b[j:k])
	t.Datatype = rdf.RDFLangString
	if dirStart >= 0 {
		s := dirStart + 2
		k = s
		for k < len(b) && grammar.Is(b[k], grammar.Alpha) {
			k++
		}
		switch string(b[s:k]) {
		case "ltr":
			t.Dir = "ltr"
		case "rtl":
			t.Dir = "rtl"
		default:
			return t, 0, r.errAt(b, s, "invalid base direction %q: expected ltr or rtl", b[s:k])
		}
		t.Datatype = rdf.RDFDirLangString
	}
	if k < len(b) && (grammar.Is(b[k], grammar.Alnum) || b[k] == '_' || b[k] >= 0x80) {
		return t, 0, r.errAt(b, k, "invalid character %s in a language tag", describe(b, k))
	}
	if !grammar.WellFormedLang(t.Lang) {
		msg, _ := rdf.CheckLangTag(t.Lang)
		if err := r.defect(b, j, msg); err != nil {
			return t, 0, err
		}
	}
	return t, k, nil
}
