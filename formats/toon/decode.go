package toon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf/rdferr"
)

// DecodeOptions configure Decode. The zero value decodes spec 4.0 in strict
// mode with two-space indentation.
type DecodeOptions struct {
	// Version is V4 ("4.0", the default when empty) or V33 ("3.3").
	Version string
	// IndentSize is the number of spaces per indentation level (default 2).
	IndentSize int
	// NonStrict turns strict mode (spec §14, the default) off: counts,
	// widths, blank lines in arrays and indentation multiples are not
	// checked, duplicate keys resolve last-write-wins, malformed headers
	// fall back to key-value lines, orphan over-indented lines are skipped,
	// missing cells of a short row are left out, ill-formed UTF-8 becomes
	// U+FFFD, and a tab in indentation counts as IndentSize spaces.
	NonStrict bool
	// ExpandPaths enables safe path expansion (spec 3.3 §13.4): unquoted
	// dotted keys such as a.b.c are split into nested objects and deep
	// merged. Only with V33.
	ExpandPaths bool
	// LengthMarker accepts the legacy [#N] length form of spec 1.5 and
	// earlier, which spec 2.0 and later reject.
	LengthMarker bool
	// File names the input in errors.
	File string
	// Limits bound the input: MaxBytes its size and MaxDepth its
	// indentation depth and field-group nesting (zero fields take
	// rdferr.DefaultLimits).
	Limits rdferr.Limits
}

// Decode reads one TOON document from r. Numbers decode to json.Number in
// canonical form (lossless; an exponent of more than 15 digits makes the
// token a string), objects to *Object, arrays to []any. Errors in the input
// are *rdferr.ParseError values with line and column; a broken limit wraps
// rdferr.ErrLimit.
func Decode(r io.Reader, opts DecodeOptions) (Value, error) {
	p, err := newParser(opts)
	if err != nil {
		return nil, err
	}
	data, over, err := p.limits.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, p.limitErr(0, fmt.Sprintf("input larger than %d bytes", p.limits.MaxBytes))
	}
	return p.decode(string(data))
}

// Unmarshal decodes the TOON document in data (see Decode).
func Unmarshal(data []byte, opts DecodeOptions) (Value, error) {
	p, err := newParser(opts)
	if err != nil {
		return nil, err
	}
	if lim := p.limits.MaxBytes; lim > 0 && int64(len(data)) > lim {
		return nil, p.limitErr(0, fmt.Sprintf("input larger than %d bytes", lim))
	}
	return p.decode(string(data))
}

type line struct {
	text   string // the line without its terminator
	num    int    // 1-based line number
	indent int    // bytes of leading whitespace
	depth  int
	blank  bool
}

func (l *line) content() string { return l.text[l.indent:] }

type parser struct {
	file     string
	strict   bool
	v4       bool
	indent   int
	expand   bool
	marker   bool
	limits   rdferr.Limits
	lines    []line
	nextLine []int // nextLine[i]: index of the first non-blank line at or after i
	pos      int
	spans    int // open array spans whose first item was read
	keyLines map[*Object]map[string]keyInfo
}

// keyInfo records, for path expansion, where a key came from and whether it
// was written unquoted.
type keyInfo struct {
	line     int
	unquoted bool
}

func newParser(o DecodeOptions) (*parser, error) {
	p := &parser{file: o.File, strict: !o.NonStrict, indent: o.IndentSize, expand: o.ExpandPaths,
		marker: o.LengthMarker, limits: o.Limits.WithDefaults()}
	version, err := specVersion(o.Version)
	if err != nil {
		return nil, err
	}
	p.v4 = version == V4
	if p.indent, err = indentSize(p.indent); err != nil {
		return nil, err
	}
	if p.expand && p.v4 {
		return nil, errors.New("toon: path expansion exists only in spec 3.3")
	}
	if p.expand {
		p.keyLines = map[*Object]map[string]keyInfo{}
	}
	return p, nil
}

func (p *parser) errf(ln *line, off int, format string, args ...any) error {
	e := &rdferr.ParseError{File: p.file, Msg: fmt.Sprintf(format, args...)}
	if ln != nil {
		e.Line = ln.num
		if off > len(ln.text) {
			off = len(ln.text)
		}
		if off < 0 {
			off = 0
		}
		e.Column = utf8.RuneCountInString(ln.text[:off]) + 1
	}
	return e
}

// errc reports an error at offset off of ln's content.
func (p *parser) errc(ln *line, off int, format string, args ...any) error {
	return p.errf(ln, ln.indent+off, format, args...)
}

// limitErr is the error of a broken limit at line lineNum (0: the whole
// input): a *rdferr.ParseError wrapping rdferr.ErrLimit.
func (p *parser) limitErr(lineNum int, msg string) error {
	return &rdferr.ParseError{File: p.file, Line: lineNum, Column: 1, Msg: msg, Err: rdferr.ErrLimit}
}

// split breaks the input into lines, drops comment lines (spec 4.0 §5.1),
// and measures indentation.
func (p *parser) split(src string) error {
	if !utf8.ValidString(src) {
		if p.strict {
			line, col := rdferr.Position(src, rdferr.InvalidUTF8(src))
			return &rdferr.ParseError{File: p.file, Line: line, Column: col, Msg: "ill-formed UTF-8"}
		}
		src = strings.ToValidUTF8(src, "\uFFFD")
	}
	n := strings.Count(src, "\n") + 1
	p.lines = make([]line, 0, n)
	num := 0
	for len(src) > 0 || num == 0 {
		num++
		var text string
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			text, src = src, ""
		}
		text = strings.TrimSuffix(text, "\r")
		ln := line{text: text, num: num}
		sp := 0
		for sp < len(text) && text[sp] == ' ' {
			sp++
		}
		if p.v4 && sp < len(text) && text[sp] == '#' {
			continue // comment line
		}
		ws, width, hasTab := sp, sp, false
		for ws < len(text) && (text[ws] == ' ' || text[ws] == '\t') {
			if text[ws] == '\t' {
				hasTab = true
				width += p.indent
			} else {
				width++
			}
			ws++
		}
		if ws == len(text) {
			ln.blank = true
			ln.indent = ws
			p.lines = append(p.lines, ln)
			continue
		}
		if hasTab {
			if p.strict {
				return p.errf(&ln, strings.IndexByte(text, '\t'), "tab in indentation")
			}
		} else {
			ws = sp
		}
		if p.strict && width%p.indent != 0 {
			return p.errf(&ln, 0, "indentation of %d spaces is not a multiple of %d", width, p.indent)
		}
		ln.indent = ws
		ln.depth = width / p.indent
		if ln.depth > p.limits.MaxDepth && p.limits.MaxDepth > 0 {
			return p.limitErr(num, fmt.Sprintf("indentation depth %d exceeds the limit %d", ln.depth, p.limits.MaxDepth))
		}
		p.lines = append(p.lines, ln)
	}
	p.nextLine = make([]int, len(p.lines)+1)
	next := -1
	p.nextLine[len(p.lines)] = -1
	for i := len(p.lines) - 1; i >= 0; i-- {
		if !p.lines[i].blank {
			next = i
		}
		p.nextLine[i] = next
	}
	return nil
}

// peek returns the index of the next non-blank line, or -1.
func (p *parser) peek() int {
	return p.nextLine[p.pos]
}

// take consumes lines up to and including i, which must come from peek (so
// every line skipped is blank). In strict mode a blank line skipped inside
// an open array span is an error.
func (p *parser) take(i int) error {
	if p.strict && p.spans > 0 && i > p.pos {
		return p.errf(&p.lines[p.pos], 0, "blank line inside an array")
	}
	p.pos = i + 1
	return nil
}

func (p *parser) decode(src string) (Value, error) {
	if err := p.split(src); err != nil {
		return nil, err
	}
	v, err := p.root()
	if err != nil {
		return nil, err
	}
	if p.expand {
		return p.expandValue(v)
	}
	return v, nil
}

func (p *parser) root() (Value, error) {
	first := p.peek()
	if first < 0 {
		return NewObject(0), nil
	}
	ln := &p.lines[first]
	if ln.depth > 0 && p.strict {
		return nil, p.errf(ln, 0, "the first line must not be indented")
	}
	s := ln.content()
	h, isHeader, herr := p.parseHeader(ln, 0, s)
	if herr != nil && p.strict {
		return nil, herr
	}
	if herr == nil && isHeader && !h.hasKey {
		if err := p.take(first); err != nil {
			return nil, err
		}
		v, err := p.headerValue(ln, h, ln.depth+1)
		if err != nil {
			return nil, err
		}
		if h.keyed {
			return v, p.endOfRoot("keyed object")
		}
		return v, p.endOfRoot("array")
	}
	if s == "[]" {
		p.pos = first + 1
		return []any{}, p.endOfRoot("array")
	}
	single := true
	for i := first + 1; i < len(p.lines); i++ {
		if !p.lines[i].blank {
			single = false
			break
		}
	}
	if single && !isHeader {
		if c, err := p.findUnquoted(ln, s, 0, ':'); err != nil || c < 0 {
			p.pos = first + 1
			return p.scalar(ln, 0, s)
		}
	}
	obj := NewObject(8)
	if err := p.objectBody(obj, ln.depth); err != nil {
		return nil, err
	}
	return obj, nil
}

// endOfRoot checks that nothing follows a complete root array or keyed root.
func (p *parser) endOfRoot(what string) error {
	if i := p.peek(); i >= 0 && p.strict {
		return p.errf(&p.lines[i], p.lines[i].indent, "unexpected content after the root %s", what)
	}
	return nil
}

// objectBody reads the fields of obj at depth until a shallower line.
func (p *parser) objectBody(obj *Object, depth int) error {
	for {
		i := p.peek()
		if i < 0 {
			return nil
		}
		ln := &p.lines[i]
		if ln.depth < depth {
			return nil
		}
		if err := p.take(i); err != nil {
			return err
		}
		if ln.depth > depth {
			if p.strict {
				return p.errf(ln, ln.indent, "unexpected indentation")
			}
			continue
		}
		if err := p.fieldLine(obj, ln, 0, depth+1); err != nil {
			return err
		}
	}
}

// fieldLine parses the object field starting at content offset off of ln;
// nested content lives at childDepth.
func (p *parser) fieldLine(obj *Object, ln *line, off int, childDepth int) error {
	s := ln.content()[off:]
	h, isHeader, err := p.parseHeader(ln, off, s)
	if err != nil {
		if p.strict {
			return err
		}
		isHeader = false
	}
	if isHeader && !h.hasKey {
		if p.strict {
			return p.errc(ln, off, "array header without a key in object field position")
		}
		isHeader = false
	}
	if isHeader {
		v, err := p.headerValue(ln, h, childDepth)
		if err != nil {
			return err
		}
		return p.set(obj, ln, off, h.key, h.keyUnquoted, v)
	}
	c, err := p.findUnquoted(ln, s, off, ':')
	if err != nil {
		return err
	}
	if c < 0 {
		return p.errc(ln, off, "missing colon after key")
	}
	key, unq, err := p.key(ln, off, s[:c])
	if err != nil {
		return err
	}
	vs, voff := trimSpaces(s, c+1)
	var v Value
	switch {
	case vs == "":
		child := NewObject(4)
		if err := p.nested(child, childDepth); err != nil {
			return err
		}
		v = child
	case vs == "[]":
		v = []any{}
	default:
		if v, err = p.scalar(ln, off+voff, vs); err != nil {
			return err
		}
	}
	return p.set(obj, ln, off, key, unq, v)
}

// nested reads the body of an object opened by "key:" whose content lives at
// depth.
func (p *parser) nested(obj *Object, depth int) error {
	if i := p.peek(); i >= 0 && p.lines[i].depth > depth && p.strict {
		ln := &p.lines[i]
		return p.errf(ln, ln.indent, "indentation jumps more than one level")
	}
	return p.objectBody(obj, depth)
}

// set stores key: v in obj, rejecting duplicates in strict mode.
func (p *parser) set(obj *Object, ln *line, off int, key string, unquoted bool, v Value) error {
	if _, dup := obj.Values[key]; dup && p.strict {
		return p.errc(ln, off, "duplicate key %q", key)
	}
	obj.Set(key, v)
	if p.keyLines != nil {
		m := p.keyLines[obj]
		if m == nil {
			m = map[string]keyInfo{}
			p.keyLines[obj] = m
		}
		m[key] = keyInfo{line: ln.num, unquoted: unquoted}
	}
	return nil
}

// key decodes a key token (surrounding spaces are trimmed); unquoted keys
// are taken literally.
func (p *parser) key(ln *line, off int, tok string) (string, bool, error) {
	t, toff := trimSpaces(tok, 0)
	if t == "" {
		return "", true, nil
	}
	if t[0] != '"' {
		return t, true, nil
	}
	k, end, err := p.quoted(ln, off+toff, t)
	if err != nil {
		return "", false, err
	}
	if end != len(t) {
		return "", false, p.errc(ln, off+toff+end, "unexpected characters after quoted key")
	}
	return k, false, nil
}

// trimSpaces trims U+0020 around s[from:], returning it and its offset in s.
func trimSpaces(s string, from int) (string, int) {
	i, j := from, len(s)
	for i < j && s[i] == ' ' {
		i++
	}
	for j > i && s[j-1] == ' ' {
		j--
	}
	return s[i:j], i
}

// findUnquoted returns the index of the first c in s outside double quotes,
// or -1. off is s's offset in ln's content, for errors.
func (p *parser) findUnquoted(ln *line, s string, off int, c byte) (int, error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			return i, nil
		case '"':
			j := skipQuoted(s, i)
			if j < 0 {
				return -1, p.errc(ln, off+i, "unterminated string")
			}
			i = j - 1
		}
	}
	return -1, nil
}

// skipQuoted returns the index after the string that opens at s[i], or -1.
func skipQuoted(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// quoted decodes the quoted string at the start of s, returning it and the
// index after its closing quote.
func (p *parser) quoted(ln *line, off int, s string) (string, int, error) {
	var b []byte
	start := 1
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			if b == nil {
				return s[1:i], i + 1, nil
			}
			return string(append(b, s[start:i]...)), i + 1, nil
		}
		if c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		if i+1 >= len(s) {
			break
		}
		switch s[i+1] {
		case '\\', '"':
			b = append(b, s[i+1])
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if i+6 > len(s) {
				return "", 0, p.errc(ln, off+i, "truncated \\u escape")
			}
			var r rune
			for _, h := range []byte(s[i+2 : i+6]) {
				var d byte
				switch {
				case h >= '0' && h <= '9':
					d = h - '0'
				case h|0x20 >= 'a' && h|0x20 <= 'f':
					d = (h | 0x20) - 'a' + 10
				default:
					return "", 0, p.errc(ln, off+i, "invalid \\u escape")
				}
				r = r<<4 | rune(d)
			}
			if r >= 0xD800 && r <= 0xDFFF {
				return "", 0, p.errc(ln, off+i, "\\u escape of a surrogate code point")
			}
			b = utf8.AppendRune(b, r)
			i += 4
		default:
			return "", 0, p.errc(ln, off+i, "invalid escape \\%c", s[i+1])
		}
		i++
		start = i + 1
	}
	return "", 0, p.errc(ln, off, "unterminated string")
}

// scalar decodes a primitive token (already trimmed) at content offset off.
func (p *parser) scalar(ln *line, off int, t string) (Value, error) {
	if t == "" {
		return "", nil
	}
	if t[0] == '"' {
		s, end, err := p.quoted(ln, off, t)
		if err != nil {
			return nil, err
		}
		if end != len(t) {
			return nil, p.errc(ln, off+end, "unexpected characters after quoted string")
		}
		return s, nil
	}
	switch t {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if isNumberToken(t) {
		if c, ok := canonicalNumber(t); ok {
			return json.Number(c), nil
		}
	}
	return t, nil
}

// isNumberToken reports whether t is a number per spec §4:
// /^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i without forbidden leading zeros.
func isNumberToken(t string) bool {
	i := 0
	if t[0] == '-' {
		i = 1
	}
	if !matchDecimal(t, i) {
		return false
	}
	return !(t[i] == '0' && i+1 < len(t) && isDigit(t[i+1]))
}

// header is a parsed array or keyed-object header.
type header struct {
	key         string
	hasKey      bool
	keyUnquoted bool
	n           int
	keyed       bool
	delim       byte
	fields      []fieldNode
	leaves      int
	rest        string // text after the header's colon
	restOff     int    // its offset in the line content
}

// maxLength bounds a declared length.
const maxLength = 1 << 31

// parseHeader parses s (at content offset base of ln) as a header. It
// returns isHeader false when s is not a header at all, and an error when s
// is a malformed header (strict mode reports it; non-strict mode reads the
// line as a key-value pair instead). Offsets in errors are relative to s.
func (p *parser) parseHeader(ln *line, base int, s string) (*header, bool, error) {
	errAt := func(i int, format string, args ...any) error {
		return p.errc(ln, base+i, format, args...)
	}
	colon, err := p.findUnquoted(ln, s, base, ':')
	if err != nil || colon < 0 {
		return nil, false, nil
	}
	h := &header{delim: ','}
	i := 0
	switch {
	case s[0] == '"':
		k, end, err := p.quoted(ln, base, s)
		if err != nil {
			return nil, false, nil
		}
		if end >= len(s) || s[end] != '[' {
			return nil, false, nil
		}
		h.key, h.hasKey, i = k, true, end
	case s[0] == '[':
	default:
		br := strings.IndexByte(s, '[')
		if br < 0 || colon < br || !isUnquotedKey(s[:br]) {
			return nil, false, nil
		}
		h.key, h.hasKey, h.keyUnquoted, i = s[:br], true, true, br
	}
	// bracket segment
	j := i + 1
	if p.marker && j < len(s) && s[j] == '#' {
		j++
	}
	ds := j
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == ds {
		return nil, true, errAt(i, "array header without a valid length")
	}
	if j-ds > 1 && s[ds] == '0' {
		return nil, true, errAt(ds, "array length with a leading zero")
	}
	if j-ds > 10 {
		return nil, true, errAt(ds, "array length too large")
	}
	for _, c := range []byte(s[ds:j]) {
		h.n = h.n*10 + int(c-'0')
	}
	if h.n > maxLength {
		return nil, true, errAt(ds, "array length too large")
	}
	if p.v4 && j < len(s) && s[j] == ':' {
		h.keyed = true
		j++
	}
	if j < len(s) && (s[j] == '\t' || s[j] == '|') {
		h.delim = s[j]
		j++
	}
	if j >= len(s) || s[j] != ']' {
		return nil, true, errAt(j, "malformed array header bracket")
	}
	j++
	if j < len(s) && s[j] == '{' {
		fields, leaves, end, err := p.parseFields(ln, base, s, j, h.delim, 1)
		if err != nil {
			return nil, true, err
		}
		h.fields, h.leaves, j = fields, leaves, end
	}
	if j >= len(s) {
		return nil, true, errAt(j, "missing colon after array header")
	}
	if s[j] != ':' {
		return nil, true, errAt(j, "unexpected characters in array header")
	}
	j++
	if h.keyed && h.fields == nil {
		return nil, true, errAt(j-1, "keyed header without a field list")
	}
	h.rest, h.restOff = s[j:], base+j
	if h.fields != nil {
		if r, _ := trimSpaces(h.rest, 0); r != "" {
			return nil, true, errAt(j, "content after a tabular header")
		}
	}
	return h, true, nil
}

// parseFields parses the field list opening at s[i] == '{' and returns it,
// its leaf count and the index after its closing brace.
func (p *parser) parseFields(ln *line, base int, s string, i int, delim byte, depth int) ([]fieldNode, int, int, error) {
	errAt := func(i int, format string, args ...any) error {
		return p.errc(ln, base+i, format, args...)
	}
	if depth > p.limits.MaxDepth && p.limits.MaxDepth > 0 {
		e := p.errc(ln, base+i, "field groups nested deeper than %d", p.limits.MaxDepth).(*rdferr.ParseError)
		e.Err = rdferr.ErrLimit
		return nil, 0, 0, e
	}
	open := i
	i++
	var fields []fieldNode
	var seen map[string]bool
	leaves := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return nil, 0, 0, errAt(open, "unmatched brace in field list")
		}
		var f fieldNode
		if s[i] == '"' {
			k, end, err := p.quoted(ln, base+i, s[i:])
			if err != nil {
				return nil, 0, 0, err
			}
			f.name = k
			i += end
		} else {
			st := i
			for i < len(s) && s[i] != delim && s[i] != '{' && s[i] != '}' {
				i++
			}
			name, _ := trimSpaces(s[st:i], 0)
			if name == "" {
				if i < len(s) && s[i] == '}' && len(fields) == 0 {
					return nil, 0, 0, errAt(open, "empty field list")
				}
				return nil, 0, 0, errAt(st, "empty field name")
			}
			if p.strict && !isUnquotedKey(name) {
				if strings.ContainsAny(name, ",|\t") {
					return nil, 0, 0, errAt(st, "field list delimiter does not match the header's")
				}
				return nil, 0, 0, errAt(st, "invalid unquoted field name %q", name)
			}
			f.name = name
		}
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i < len(s) && s[i] == '{' {
			if !p.v4 {
				return nil, 0, 0, errAt(i, "nested field groups need spec 4.0")
			}
			ch, n, end, err := p.parseFields(ln, base, s, i, delim, depth+1)
			if err != nil {
				return nil, 0, 0, err
			}
			f.children, i = ch, end
			leaves += n
			for i < len(s) && s[i] == ' ' {
				i++
			}
		} else {
			leaves++
		}
		if p.strict {
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[f.name] {
				return nil, 0, 0, errAt(i, "duplicate field name %q", f.name)
			}
			seen[f.name] = true
		}
		fields = append(fields, f)
		if i >= len(s) {
			return nil, 0, 0, errAt(open, "unmatched brace in field list")
		}
		switch s[i] {
		case '}':
			return fields, leaves, i + 1, nil
		case delim:
			i++
		default:
			return nil, 0, 0, errAt(i, "unexpected character %q in field list", s[i])
		}
	}
}

// headerValue reads the value a header introduces: a keyed object, a
// tabular array, an inline array or an expanded list at childDepth.
func (p *parser) headerValue(ln *line, h *header, childDepth int) (Value, error) {
	switch {
	case h.keyed:
		return p.keyedRows(ln, h, childDepth)
	case h.fields != nil:
		return p.tableRows(ln, h, childDepth)
	}
	rest, roff := trimSpaces(h.rest, 0)
	if rest != "" {
		cells, offs, err := p.splitCells(ln, h.restOff+roff, rest, h.delim)
		if err != nil {
			return nil, err
		}
		if p.strict && len(cells) != h.n {
			return nil, p.errc(ln, h.restOff+roff, "array declares %d values but has %d", h.n, len(cells))
		}
		arr := make([]any, len(cells))
		for i, c := range cells {
			if arr[i], err = p.scalar(ln, offs[i], c); err != nil {
				return nil, err
			}
		}
		return arr, nil
	}
	return p.listItems(ln, h, childDepth)
}

// splitCells splits s (at content offset off) on the unquoted delimiter d,
// trimming spaces around each token.
func (p *parser) splitCells(ln *line, off int, s string, d byte) ([]string, []int, error) {
	var cells []string
	var offs []int
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '"' {
			j := skipQuoted(s, i)
			if j < 0 {
				return nil, nil, p.errc(ln, off+i, "unterminated string")
			}
			i = j - 1
			continue
		}
		if i == len(s) || s[i] == d {
			c, co := trimSpaces(s[:i], start)
			cells = append(cells, c)
			offs = append(offs, off+co)
			start = i + 1
		}
	}
	return cells, offs, nil
}

// openSpan notes that an array's first item was read; the array closes the
// span when it ends.
func (p *parser) openSpan() { p.spans++ }

// listItems reads the "- " items of an expanded list at depth.
func (p *parser) listItems(hl *line, h *header, depth int) (Value, error) {
	arr := make([]any, 0, min(h.n, 1024))
	opened := false
	defer func() {
		if opened {
			p.spans--
		}
	}()
	for {
		i := p.peek()
		if i < 0 {
			break
		}
		ln := &p.lines[i]
		if ln.depth < depth {
			break
		}
		s := ln.content()
		isItem := s == "-" || strings.HasPrefix(s, "- ")
		if ln.depth > depth || !isItem {
			if p.strict {
				if ln.depth > depth {
					return nil, p.errf(ln, ln.indent, "unexpected indentation")
				}
				return nil, p.errf(ln, ln.indent, "expected a list item \"- \"")
			}
			if err := p.take(i); err != nil {
				return nil, err
			}
			continue
		}
		if err := p.take(i); err != nil {
			return nil, err
		}
		if !opened {
			opened = true
			p.openSpan()
		}
		v, err := p.listItem(ln, depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if p.strict && len(arr) != h.n {
		return nil, p.errf(hl, hl.indent, "array declares %d items but has %d", h.n, len(arr))
	}
	return arr, nil
}

// listItem parses the list item on ln, whose hyphen is at depth.
func (p *parser) listItem(ln *line, depth int) (Value, error) {
	s := ln.content()
	if s == "-" {
		return NewObject(0), nil
	}
	rest, off := trimSpaces(s, 2)
	if rest == "" {
		return NewObject(0), nil
	}
	if rest == "[]" {
		return []any{}, nil
	}
	h, isHeader, err := p.parseHeader(ln, off, rest)
	if err != nil {
		if p.strict {
			return nil, err
		}
		isHeader = false
	}
	if isHeader && !h.hasKey {
		if h.keyed || h.fields != nil {
			if p.strict {
				return nil, p.errc(ln, off, "keyless tabular header in a list item")
			}
		} else {
			return p.headerValue(ln, h, depth+1)
		}
	}
	if isHeader && h.hasKey {
		obj := NewObject(4)
		v, err := p.headerValue(ln, h, depth+2)
		if err != nil {
			return nil, err
		}
		if err := p.set(obj, ln, off, h.key, h.keyUnquoted, v); err != nil {
			return nil, err
		}
		return obj, p.objectBody(obj, depth+1)
	}
	c, err := p.findUnquoted(ln, rest, off, ':')
	if err != nil {
		return nil, err
	}
	if c < 0 {
		return p.scalar(ln, off, rest)
	}
	obj := NewObject(4)
	if err := p.fieldLine(obj, ln, off, depth+2); err != nil {
		return nil, err
	}
	return obj, p.objectBody(obj, depth+1)
}

// nextRow returns the next line at depth, where a row of a table or a
// keyed table starts, skipping deeper lines (refused in strict mode); ln is
// nil at a shallower line or the end.
func (p *parser) nextRow(depth int) (i int, ln *line, err error) {
	for {
		i := p.peek()
		if i < 0 {
			return -1, nil, nil
		}
		ln := &p.lines[i]
		switch {
		case ln.depth < depth:
			return -1, nil, nil
		case ln.depth == depth:
			return i, ln, nil
		case p.strict:
			return -1, nil, p.errf(ln, ln.indent, "unexpected indentation")
		}
		if err := p.take(i); err != nil {
			return -1, nil, err
		}
	}
}

// tableRows reads the rows of a tabular array at depth.
func (p *parser) tableRows(hl *line, h *header, depth int) (Value, error) {
	arr := make([]any, 0, min(h.n, 1024))
	ends := func(ln *line, s string, c int) bool {
		if c < 0 {
			return false
		}
		d, _ := p.findUnquoted(ln, s, 0, h.delim)
		return d < 0 || c < d // a key-value line ends the rows
	}
	err := p.eachRow(depth, ends, func(ln *line, s string, _ int, open func()) error {
		open()
		row, err := p.row(ln, 0, s, h)
		if err != nil {
			return err
		}
		arr = append(arr, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if p.strict && len(arr) != h.n {
		return nil, p.errf(hl, hl.indent, "table declares %d rows but has %d", h.n, len(arr))
	}
	return arr, nil
}

// eachRow calls fn for each row line of a table at depth, with its content
// s and the offset of its first unquoted ':' (-1: none), after taking the
// line; ends, if not nil, ends the rows at a line before it is taken. fn
// calls open for a line that counts in the rows' span (opened once, at
// the first such line, and closed when eachRow returns).
func (p *parser) eachRow(depth int, ends func(ln *line, s string, c int) bool, fn func(ln *line, s string, c int, open func()) error) error {
	opened := false
	defer func() {
		if opened {
			p.spans--
		}
	}()
	open := func() {
		if !opened {
			opened = true
			p.openSpan()
		}
	}
	for {
		i, ln, err := p.nextRow(depth)
		if err != nil || ln == nil {
			return err
		}
		s := ln.content()
		c, err := p.findUnquoted(ln, s, 0, ':')
		if err != nil {
			return err
		}
		if ends != nil && ends(ln, s, c) {
			return nil
		}
		if err := p.take(i); err != nil {
			return err
		}
		if err := fn(ln, s, c, open); err != nil {
			return err
		}
	}
}

// row decodes one row of cells (s at content offset off) into an object.
func (p *parser) row(ln *line, off int, s string, h *header) (*Object, error) {
	var cells []string
	var offs []int
	if s != "" {
		var err error
		if cells, offs, err = p.splitCells(ln, off, s, h.delim); err != nil {
			return nil, err
		}
	}
	if p.strict && len(cells) != h.leaves {
		return nil, p.errc(ln, off, "row has %d cells but the header declares %d fields", len(cells), h.leaves)
	}
	next := 0
	var build func(fs []fieldNode) (*Object, error)
	build = func(fs []fieldNode) (*Object, error) {
		o := NewObject(len(fs))
		for _, f := range fs {
			if next >= len(cells) {
				break
			}
			if f.children != nil {
				c, err := build(f.children)
				if err != nil {
					return nil, err
				}
				o.Set(f.name, c)
				continue
			}
			v, err := p.scalar(ln, offs[next], cells[next])
			if err != nil {
				return nil, err
			}
			next++
			o.Set(f.name, v)
		}
		return o, nil
	}
	return build(h.fields)
}

// keyedRows reads the entry rows of a keyed tabular object at depth.
func (p *parser) keyedRows(hl *line, h *header, depth int) (Value, error) {
	obj := NewObject(min(h.n, 1024))
	err := p.eachRow(depth, nil, func(ln *line, s string, c int, open func()) error {
		if c < 0 {
			if p.strict {
				return p.errf(ln, ln.indent, "entry row without a key")
			}
			return nil
		}
		open()
		key, unq, err := p.key(ln, 0, s[:c])
		if err != nil {
			return err
		}
		rest, roff := trimSpaces(s, c+1)
		row, err := p.row(ln, roff, rest, h)
		if err != nil {
			return err
		}
		return p.set(obj, ln, 0, key, unq, row)
	})
	if err != nil {
		return nil, err
	}
	if p.strict && obj.Len() != h.n {
		return nil, p.errf(hl, hl.indent, "keyed header declares %d entries but has %d", h.n, obj.Len())
	}
	return obj, nil
}

// expandValue applies safe path expansion (spec 3.3 §13.4) to v.
func (p *parser) expandValue(v Value) (Value, error) {
	switch t := v.(type) {
	case []any:
		for i, x := range t {
			y, err := p.expandValue(x)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
		return t, nil
	case *Object:
		info := p.keyLines[t]
		out := NewObject(t.Len())
		for _, k := range t.Keys {
			val, err := p.expandValue(t.Values[k])
			if err != nil {
				return nil, err
			}
			ki := info[k]
			segs := []string{k}
			if ki.unquoted && strings.IndexByte(k, '.') >= 0 {
				parts := strings.Split(k, ".")
				ok := true
				for _, s := range parts {
					if !isIdentifierSegment(s) {
						ok = false
						break
					}
				}
				if ok {
					segs = parts
				}
			}
			if err := p.mergePath(out, segs, val, ki.line); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// mergePath inserts v at the path segs below o, deep-merging objects.
func (p *parser) mergePath(o *Object, segs []string, v Value, lineNum int) error {
	for i, s := range segs[:len(segs)-1] {
		cur, ok := o.Values[s]
		if ok {
			if child, isObj := cur.(*Object); isObj {
				o = child
				continue
			}
			if p.strict {
				return p.conflict(lineNum, segs[:i+1])
			}
		}
		child := NewObject(1)
		o.Set(s, child)
		o = child
	}
	last := segs[len(segs)-1]
	cur, ok := o.Values[last]
	if !ok {
		o.Set(last, v)
		return nil
	}
	co, curObj := cur.(*Object)
	vo, newObj := v.(*Object)
	if curObj && newObj {
		for _, k := range vo.Keys {
			if err := p.mergePath(co, []string{k}, vo.Values[k], lineNum); err != nil {
				return err
			}
		}
		return nil
	}
	if p.strict {
		return p.conflict(lineNum, segs)
	}
	o.Set(last, v)
	return nil
}

func (p *parser) conflict(lineNum int, path []string) error {
	return &rdferr.ParseError{File: p.file, Line: lineNum, Column: 1,
		Msg: fmt.Sprintf("path expansion conflict at %q", strings.Join(path, "."))}
}
