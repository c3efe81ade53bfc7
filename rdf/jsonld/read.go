// Package jsonld reads JSON-LD 1.1 documents and JSON-LD embedded in HTML
// into RDF quads, and writes datasets as JSON-LD.
//
// Reading is this package's own implementation of the JSON-LD 1.1
// Processing Algorithms (https://www.w3.org/TR/json-ld11-api/): Context
// Processing, IRI Expansion (RFC 3986 resolution by rdf.ResolveIRI), the
// Expansion Algorithm, Node Map Generation and Deserialize JSON-LD to RDF.
// It passes all 467 tests of the W3C toRdf suite and all 385 expansion
// tests (those for JSON-LD 1.0 processors in json-ld-1.0 processing mode).
// Blank node labels and quad order depend only on the data (not on Go map
// iteration), rdf:JSON literals are canonicalized (JCS), base directions
// become RDF 1.2 directional language-tagged strings (or what the JSON-LD
// 1.1 rdfDirection options make of them), errors and warnings carry the
// line, column and byte offset of the value at fault, and IRIs that are
// not well formed, common in web data, can be kept with a warning instead
// of silently dropped.
//
// Writing is this package's own Serialize RDF as JSON-LD algorithm, then,
// for compacted output, its own compaction of that expanded form against
// the dataset's prefixes or a given context, which reads back to the same
// dataset (see Write).
//
// Remote contexts are served by an offline loader (NewLoader) that embeds
// the schema.org context and maps other URLs to local files; it reaches the
// network only when Options.AllowRemote is set.
//
// The algorithms that work on decoded JSON (context processing, expansion,
// node map generation, compaction) are in internal/ldproc; this package
// reads input, converts node maps to RDF and RDF to JSON-LD, and locates
// errors and warnings in the input.
package jsonld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/excerpt"
	"github.com/isolda/isolda/rdf/jsonld/internal/fromrdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
	"github.com/isolda/isolda/rdf/rdferr"
)

// Processing modes (Options.ProcessingMode).
const (
	JSONLD10 = ldproc.JSONLD10
	JSONLD11 = ldproc.JSONLD11
)

// RDF direction modes (Options.RDFDirection): how a value with a base
// direction (@direction) becomes RDF.
const (
	// DirLangString, the default, makes a value with @direction and
	// @language an RDF 1.2 directional language-tagged string
	// (rdf:dirLangString, such as "x"@ar--rtl in N-Triples 1.2), with its
	// tag as written: what Write writes for such a literal reads back as
	// it. RDF 1.2 has no directional string without a language tag, so a
	// value with @direction alone becomes a plain string, with a warning.
	// JSON-LD 1.1, written before RDF 1.2, has no such mode.
	DirLangString = "dir-lang-string"
	// NullDirection drops the direction (a language-tagged or plain
	// string), as JSON-LD 1.1 does when its rdfDirection option is null,
	// the default of that specification.
	NullDirection = "null"
	// I18nDatatype encodes a value's base direction in its datatype IRI
	// (https://www.w3.org/ns/i18n#<lang>_<dir>), a JSON-LD 1.1 option.
	I18nDatatype = fromrdf.I18nDatatype
	// CompoundLiteral encodes it as a blank node with rdf:value,
	// rdf:language and rdf:direction, a JSON-LD 1.1 option.
	CompoundLiteral = fromrdf.CompoundLiteral
)

// Options configure the JSON-LD and HTML readers.
type Options struct {
	rdf.ReadOptions

	// Contexts maps context URLs to local files (JSON-LD documents) that
	// the loader serves instead of the network.
	Contexts map[string]string
	// AllowRemote lets the loader fetch URLs it cannot serve locally over
	// the network. Off by default: reading is offline.
	AllowRemote bool
	// ExpandContext is a context applied before the document's own: a
	// context value (a JSON object, possibly with an "@context" entry, or
	// an array) or a URL string resolved by the loader.
	ExpandContext any
	// ProcessingMode is JSONLD11 (the default when empty) or JSONLD10.
	ProcessingMode string
	// RDFDirection says how values with @direction become RDF: "" (or
	// DirLangString) as RDF 1.2 directional language-tagged strings,
	// NullDirection drops the direction, I18nDatatype or CompoundLiteral
	// encode it.
	RDFDirection string
	// GeneralizedRDF keeps triples whose predicate is a blank node.
	GeneralizedRDF bool
	// DropInvalid follows the JSON-LD to RDF algorithm to the letter: it
	// drops triples whose IRIs or language tags are not well formed, and
	// rejects a value object whose datatype is not a well-formed IRI with
	// the "invalid typed value" error. By default such IRIs and tags,
	// common in web data (e.g. "http://x/?q={search_term_string}"), are
	// kept with a warning. Relative IRIs (with no base to resolve them) are
	// always dropped with a warning. Strict turns every warning into an
	// error.
	DropInvalid bool
	// Loader, if set, replaces NewLoader(opts) for loading remote contexts.
	Loader DocumentLoader

	// HTMLScriptID makes ParseHTML read only the script element with this
	// id (the fragment of the document URL); it is an error if there is
	// none or it is not a JSON-LD script.
	HTMLScriptID string
	// HTMLFirstOnly makes ParseHTML read only the first JSON-LD script.
	HTMLFirstOnly bool
	// HTMLSkipInvalid makes ParseHTML skip, with a warning, scripts that
	// are not valid JSON (common on real pages) instead of failing.
	HTMLSkipInvalid bool
}

// Error is a JSON-LD processing error (an error of the JSON-LD 1.1 API, such
// as "invalid @id value" or "loading remote context failed"). It unwraps to
// the equivalent *rdf.ParseError and to the underlying error.
type Error struct {
	File string
	// Line, Column and Offset locate the value at fault (for errors of
	// remote contexts, the value that refers to them) as rdf.ParseError
	// does: Offset counts bytes from the start of the input (a byte order
	// mark included). Line is zero when the position is unknown.
	Line, Column int
	Offset       int64
	// Code is the JSON-LD error code, e.g. "invalid IRI mapping".
	Code string
	// Msg gives the details.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error formats the error as FILE: jsonld: CODE: details.
func (e *Error) Error() string { return e.parseError().Error() }

func (e *Error) parseError() *rdf.ParseError {
	msg := "jsonld: " + e.Code
	if e.Msg != "" {
		msg += ": " + e.Msg
	}
	return &rdf.ParseError{File: e.File, Line: e.Line, Column: e.Column, Offset: e.Offset, Msg: excerpt.Shorten(msg)}
}

// Unwrap returns the equivalent *rdf.ParseError and the underlying error.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.parseError()}
	}
	return []error{e.parseError(), e.Err}
}

// Parse reads one JSON-LD document from r and sends its quads to sink,
// sorted by rdf.CompareQuads. Blank nodes are labelled b0, b1, ... in an
// order derived from the quads they occur in, so that labels and order
// depend only on the data, not on the order of its keys. The document's
// base IRI is
// opts.Base. If sink implements rdf.PrefixSink, it first receives the
// prefixes of the document's top-level @context (terms mapping to IRIs that
// end in / or #, and @vocab as the empty prefix when no term maps to it),
// sorted by name: all those defined inline, and those of remote contexts
// (such as schema.org's) that an IRI of the output uses.
//
// JSON syntax and limit errors are *rdf.ParseError with line, column and
// byte offset (limit errors also wrap rdf.ErrLimit); JSON-LD errors are
// *Error, with the position of the value at fault. Warnings (and, with
// Strict, the errors they become) locate the value they are about: the
// first place where the document writes the IRI, language tag or literal
// concerned. Errors that concern the whole document are at its first
// value, except the limit on the number of quads, which the document
// exceeds as a whole once converted: it is at the end of the document.
func Parse(r io.Reader, sink rdf.Sink, opts Options) error {
	data, err := readAll(r, opts)
	if err != nil {
		return err
	}
	doc, start, err := decodeInput(data, opts, loc{})
	if err != nil {
		return err
	}
	st := newState(sink, opts)
	st.setDocument(data, start)
	return st.document(doc, opts.Base, "_:b")
}

// check validates the option values that name modes.
func (o Options) check() error {
	switch o.ProcessingMode {
	case "", JSONLD10, JSONLD11:
	default:
		return fmt.Errorf("jsonld: unknown processing mode %q (want %q or %q)", o.ProcessingMode, JSONLD10, JSONLD11)
	}
	switch o.RDFDirection {
	case "", DirLangString, NullDirection, I18nDatatype, CompoundLiteral:
	default:
		return fmt.Errorf("jsonld: unknown rdfDirection %q (want %q, %q, %q or %q)", o.RDFDirection,
			DirLangString, NullDirection, I18nDatatype, CompoundLiteral)
	}
	return nil
}

// readAll checks the option values (see check) and reads r up to the
// MaxBytes limit (an error at the first byte beyond it): how Parse and
// ParseHTML start.
func readAll(r io.Reader, opts Options) ([]byte, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	lim := opts.Limits.WithDefaults()
	data, over, err := lim.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if over {
		at := loc{}.at(data, int(lim.MaxBytes))
		return nil, limitError(at.parseError(opts.File, fmt.Sprintf("input larger than %d bytes", lim.MaxBytes)))
	}
	return data, nil
}

func limitError(pe *rdf.ParseError) error {
	return fmt.Errorf("%w (%w)", pe, rdf.ErrLimit)
}

// decodeInput checks the JSON nesting depth and syntax of data, a JSON
// text that begins at o in its input (the zero loc for a standalone
// document), and decodes it. start is where the JSON text begins, past a
// byte order mark.
func decodeInput(data []byte, opts Options, o loc) (doc any, start loc, err error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data = data[3:]
		o = o.begin()
		o.off += 3
	}
	if !utf8.Valid(data) {
		off := rdferr.InvalidUTF8(string(data))
		// JSON text is UTF-8 (RFC 8259 section 8.1); encoding/json would
		// silently turn a bad byte into U+FFFD.
		return nil, o, o.at(data, off).parseError(opts.File, fmt.Sprintf("invalid UTF-8 (byte 0x%02X)", data[off]))
	}
	lim := opts.Limits.WithDefaults()
	if lim.MaxDepth > 0 {
		if off := depthExceeded(data, lim.MaxDepth); off >= 0 {
			return nil, o, limitError(o.at(data, off).parseError(opts.File, fmt.Sprintf("JSON nesting deeper than %d", lim.MaxDepth)))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, o, jsonError(data, err, opts, o)
	}
	off := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for off < len(data) && isJSONSpace(data[off]) {
			off++
		}
		return nil, o, o.at(data, off).parseError(opts.File, "unexpected data after the JSON value")
	}
	return doc, o, nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonError turns a decoding error of data (beginning at o) into a
// *rdf.ParseError at its position.
func jsonError(data []byte, err error, opts Options, o loc) error {
	off := len(data)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(err, &se) {
		off = max(int(se.Offset)-1, 0)
	} else if errors.As(err, &te) {
		// A number out of the float64 range (te.Offset is not reliable).
		off = findNumber(data, strings.TrimPrefix(te.Value, "number "))
		return o.at(data, off).parseError(opts.File, "JSON: "+te.Error())
	} else if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return o.at(data, off).parseError(opts.File, "JSON: "+err.Error())
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) {
		msg = "empty input: expected a JSON value"
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of JSON input"
	}
	return o.at(data, off).parseError(opts.File, "JSON syntax error: "+msg)
}

// loc is a position in the input: line and column (in code points) from 1
// and byte offset from 0. The zero loc stands for the start of the input.
type loc struct {
	line, col int
	off       int64
}

// begin returns o, the zero loc made line 1, column 1.
func (o loc) begin() loc {
	if o.line == 0 {
		o.line, o.col = 1, 1
	}
	return o
}

// at returns the position of byte off of data, a text that begins at o.
func (o loc) at(data []byte, off int) loc {
	o = o.begin()
	off = min(max(off, 0), len(data))
	start := 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			o.line++
			o.col = 1
			start = i + 1
		}
	}
	o.col += utf8.RuneCount(data[start:off])
	o.off += int64(off)
	return o
}

// parseError returns a *rdf.ParseError at o.
func (o loc) parseError(file, msg string) *rdf.ParseError {
	return &rdf.ParseError{File: file, Line: o.line, Column: o.col, Offset: o.off, Msg: msg}
}

// jsonStrings follows a byte-by-byte walk over JSON text to tell the bytes
// of strings from the others.
type jsonStrings struct{ in, escaped bool }

// outside takes the next byte c and reports whether it stands outside
// every string (a quotation mark that opens or closes one does not).
func (s *jsonStrings) outside(c byte) bool {
	if s.in {
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.in = false
		}
		return false
	}
	if c == '"' {
		s.in = true
		return false
	}
	return true
}

// depthExceeded returns the offset of the first bracket that nests deeper
// than max, or -1. It skips strings and ignores syntax errors (the decoder
// reports them).
func depthExceeded(data []byte, max int) int {
	depth := 0
	var js jsonStrings
	for i, c := range data {
		if !js.outside(c) {
			continue
		}
		switch c {
		case '[', '{':
			depth++
			if depth > max {
				return i
			}
		case ']', '}':
			depth--
		}
	}
	return -1
}

// findNumber returns the offset of the first number token lit outside
// strings in data, or len(data).
func findNumber(data []byte, lit string) int {
	var js jsonStrings
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !js.outside(c) {
			continue
		}
		if i > 0 && strings.IndexByte("0123456789.eE+-", data[i-1]) >= 0 {
			continue // inside a number
		}
		if (c == '-' || c >= '0' && c <= '9') && bytes.HasPrefix(data[i:], []byte(lit)) {
			end := i + len(lit)
			if end == len(data) || strings.IndexByte("0123456789.eE+-", data[end]) < 0 {
				return i
			}
		}
	}
	return len(data)
}
