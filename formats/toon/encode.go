package toon

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Delimiter is the character separating inline array values, tabular cells
// and field names: Comma (the default), Tab or Pipe.
type Delimiter byte

// The three delimiters TOON defines (spec §11).
const (
	Comma Delimiter = ','
	Tab   Delimiter = '\t'
	Pipe  Delimiter = '|'
)

// Spec versions this package implements.
const (
	// V4 is TOON spec 4.0 (keyed tabular objects, nested field groups,
	// comment lines; no key folding or path expansion). It is the default.
	V4 = "4.0"
	// V33 is TOON spec 3.3 (key folding and path expansion, no keyed
	// tabular objects, nested field groups or comments).
	V33 = "3.3"
)

// EncodeOptions configure Encode. The zero value encodes spec 4.0 with
// two-space indentation and the comma delimiter.
type EncodeOptions struct {
	// Version is V4 ("4.0", the default when empty) or V33 ("3.3").
	Version string
	// IndentSize is the number of spaces per indentation level (default 2).
	IndentSize int
	// Delimiter is the document delimiter (default Comma).
	Delimiter Delimiter
	// LengthMarker writes lengths as [#N], the legacy form of spec 1.5 and
	// earlier. Spec 2.0 and later forbid it, so output written with it is
	// not conforming TOON 3.3/4.0 (DecodeOptions.LengthMarker reads it).
	// Empty arrays then take the header form key[#0]: of that era.
	LengthMarker bool
	// KeyFolding enables safe key folding (spec 3.3 §13.4): chains of
	// single-key objects become dotted keys such as a.b.c: 1. Only with V33.
	KeyFolding bool
	// FlattenDepth is the most segments one folded key may have; 0 means
	// unlimited and values below 2 fold nothing.
	FlattenDepth int
	// MaxDepth bounds the nesting of v (it also stops cyclic values); 0
	// means 1000.
	MaxDepth int
}

const defaultMaxDepth = 1000

// specVersion reads a Version option: V4, V33, or "" for V4.
func specVersion(v string) (string, error) {
	switch v {
	case "":
		return V4, nil
	case V4, V33:
		return v, nil
	}
	return "", fmt.Errorf("toon: unsupported spec version %q (want %q or %q)", v, V4, V33)
}

// indentSize reads an indent size option: 0 is 2, negative an error.
func indentSize(n int) (int, error) {
	switch {
	case n == 0:
		return 2, nil
	case n < 0:
		return 0, errors.New("toon: negative indent size")
	}
	return n, nil
}

func (o EncodeOptions) resolve() (EncodeOptions, error) {
	version, err := specVersion(o.Version)
	if err != nil {
		return o, err
	}
	indent, err := indentSize(o.IndentSize)
	if err != nil {
		return o, err
	}
	o.Version, o.IndentSize = version, indent
	switch o.Delimiter {
	case 0:
		o.Delimiter = Comma
	case Comma, Tab, Pipe:
	default:
		return o, fmt.Errorf("toon: invalid delimiter %q", rune(o.Delimiter))
	}
	if o.KeyFolding && o.Version != V33 {
		return o, errors.New("toon: key folding exists only in spec 3.3")
	}
	if o.FlattenDepth <= 0 {
		o.FlattenDepth = int(^uint(0) >> 1)
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = defaultMaxDepth
	}
	return o, nil
}

// Encode writes v as a TOON document to w: UTF-8, LF line ends, no trailing
// newline. v may hold nil, bool, string, json.Number, float64, float32, Go
// integers, []any and *Object; any other type is an error. NaN and
// infinities are written as null (spec §3).
func Encode(w io.Writer, v Value, opts EncodeOptions) error {
	opts, err := opts.resolve()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	e := &encoder{w: bw, opts: opts, delim: byte(opts.Delimiter), v4: opts.Version == V4, first: true}
	if err := e.root(v); err != nil {
		return err
	}
	return bw.Flush()
}

// Marshal returns the TOON encoding of v (see Encode).
func Marshal(v Value, opts EncodeOptions) ([]byte, error) {
	var sb strings.Builder
	if err := Encode(&sb, v, opts); err != nil {
		return nil, err
	}
	return []byte(sb.String()), nil
}

type encoder struct {
	w     *bufio.Writer
	opts  EncodeOptions
	delim byte
	v4    bool
	first bool
	line  []byte
}

// fieldNode is one entry of a tabular field list: a leaf field, or a nested
// field group when children is non-nil.
type fieldNode struct {
	name     string
	children []fieldNode
}

// begin starts a new line at depth; when hyphen >= 0 the line instead starts
// with the list marker "- " indented to depth hyphen.
func (e *encoder) begin(depth, hyphen int) {
	e.line = e.line[:0]
	if hyphen >= 0 {
		e.line = appendSpaces(e.line, hyphen*e.opts.IndentSize)
		e.line = append(e.line, '-', ' ')
		return
	}
	e.line = appendSpaces(e.line, depth*e.opts.IndentSize)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// end writes the current line.
func (e *encoder) end() error {
	if !e.first {
		if err := e.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	e.first = false
	_, err := e.w.Write(e.line)
	return err
}

func (e *encoder) root(v Value) error {
	switch t := v.(type) {
	case []any:
		return e.array("", false, t, 0, -1, posRoot, 0)
	case *Object:
		if t == nil {
			break
		}
		if t.Len() == 0 {
			return nil
		}
		if e.v4 {
			if fields, ok := e.keyedFields(t, 0); ok {
				return e.keyed("", false, t, fields, 0, -1)
			}
		}
		var fc *foldCtx
		if e.opts.KeyFolding {
			fc = &foldCtx{remaining: e.opts.FlattenDepth, rootDotted: map[string]bool{}}
			for _, k := range t.Keys {
				if strings.IndexByte(k, '.') >= 0 {
					fc.rootDotted[k] = true
				}
			}
		}
		return e.fields(t, 0, fc, 0)
	}
	e.begin(0, -1)
	if err := e.appendPrimitive(v); err != nil {
		return err
	}
	return e.end()
}

// foldCtx carries key-folding state: the dotted path of the current object
// from the root, the folding budget left, and the root's literal dotted keys.
type foldCtx struct {
	prefix     string
	remaining  int
	rootDotted map[string]bool
}

func (fc *foldCtx) child(key string, remaining int) *foldCtx {
	if fc == nil {
		return nil
	}
	p := key
	if fc.prefix != "" {
		p = fc.prefix + "." + key
	}
	return &foldCtx{prefix: p, remaining: remaining, rootDotted: fc.rootDotted}
}

// fields writes the fields of o at depth; the first one goes on a list
// item's hyphen line when hyphen >= 0.
func (e *encoder) fields(o *Object, depth int, fc *foldCtx, nest int) error {
	return e.fieldsFrom(o, 0, depth, -1, fc, nest)
}

func (e *encoder) fieldsFrom(o *Object, from, depth, hyphen int, fc *foldCtx, nest int) error {
	for i := from; i < len(o.Keys); i++ {
		k := o.Keys[i]
		h := -1
		if i == from {
			h = hyphen
		}
		if err := e.field(o, k, o.Values[k], depth, h, fc, nest); err != nil {
			return err
		}
	}
	return nil
}

// field writes one key/value pair of object o at depth.
func (e *encoder) field(o *Object, key string, v Value, depth, hyphen int, fc *foldCtx, nest int) error {
	if nest > e.opts.MaxDepth {
		return errors.New("toon: value nesting exceeds MaxDepth (cyclic value?)")
	}
	if fc != nil {
		if folded, leaf, tail, n, ok := e.fold(o, key, v, fc); ok {
			if tail != nil {
				e.begin(depth, hyphen)
				e.line = appendKey(e.line, folded)
				e.line = append(e.line, ':')
				if err := e.end(); err != nil {
					return err
				}
				return e.fields(tail, depth+1, fc.child(folded, fc.remaining-n), nest+n)
			}
			key, v = folded, leaf
			fc = nil // the leaf is a primitive, an array or an empty object
		}
	}
	switch t := v.(type) {
	case []any:
		return e.array(key, true, t, depth, hyphen, posField, nest+1)
	case *Object:
		if t != nil {
			if t.Len() > 0 && e.v4 {
				if fields, ok := e.keyedFields(t, nest); ok {
					return e.keyed(key, true, t, fields, depth, hyphen)
				}
			}
			e.begin(depth, hyphen)
			e.line = appendKey(e.line, key)
			e.line = append(e.line, ':')
			if err := e.end(); err != nil {
				return err
			}
			if t.Len() == 0 {
				return nil
			}
			return e.fields(t, depth+1, fc.child(key, fc.remainingOr()), nest+1)
		}
	}
	e.begin(depth, hyphen)
	e.line = appendKey(e.line, key)
	e.line = append(e.line, ':', ' ')
	if err := e.appendPrimitive(v); err != nil {
		return err
	}
	return e.end()
}

func (fc *foldCtx) remainingOr() int {
	if fc == nil {
		return 0
	}
	return fc.remaining
}

// fold tries safe key folding (spec 3.3 §13.4) of the pair key: v. It
// returns the folded key and either the leaf value (primitive, array or
// empty object) or the tail object left when the chain stopped early, and
// the number of segments folded.
func (e *encoder) fold(o *Object, key string, v Value, fc *foldCtx) (string, Value, *Object, int, bool) {
	cur, ok := v.(*Object)
	if !ok || cur == nil || fc.remaining < 2 {
		return "", nil, nil, 0, false
	}
	segs := []string{key}
	var val Value = cur
	for len(segs) < fc.remaining {
		ob, ok := val.(*Object)
		if !ok || ob == nil || ob.Len() != 1 {
			break
		}
		k := ob.Keys[0]
		segs = append(segs, k)
		val = ob.Values[k]
	}
	if len(segs) < 2 {
		return "", nil, nil, 0, false
	}
	for _, s := range segs {
		if !isIdentifierSegment(s) {
			return "", nil, nil, 0, false
		}
	}
	folded := strings.Join(segs, ".")
	if _, clash := o.Values[folded]; clash {
		return "", nil, nil, 0, false
	}
	abs := folded
	if fc.prefix != "" {
		abs = fc.prefix + "." + folded
	}
	if fc.rootDotted[abs] {
		return "", nil, nil, 0, false
	}
	if ob, ok := val.(*Object); ok && ob != nil && ob.Len() > 0 {
		return folded, nil, ob, len(segs), true
	}
	return folded, val, nil, len(segs), true
}

// isIdentifierSegment reports whether s matches ^[A-Za-z_][A-Za-z0-9_]*$.
func isIdentifierSegment(s string) bool {
	if s == "" || !(isAlpha(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isUnquotedKey reports whether s matches ^[A-Za-z_][A-Za-z0-9_.]*$ (§7.3).
func isUnquotedKey(s string) bool {
	if s == "" || !(isAlpha(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || isDigit(c) || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Array positions, which decide the empty form and whether tables are allowed.
const (
	posRoot = iota
	posField
	posListItem
)

// array writes arr; key is written before the header when hasKey.
func (e *encoder) array(key string, hasKey bool, arr []any, depth, hyphen, pos, nest int) error {
	if nest > e.opts.MaxDepth {
		return errors.New("toon: value nesting exceeds MaxDepth (cyclic value?)")
	}
	if len(arr) == 0 && pos != posListItem && !e.opts.LengthMarker {
		e.begin(depth, hyphen)
		if hasKey {
			e.line = appendKey(e.line, key)
			e.line = append(e.line, ':', ' ', '[', ']')
		} else {
			e.line = append(e.line, '[', ']')
		}
		return e.end()
	}
	if allPrimitive(arr) {
		e.begin(depth, hyphen)
		e.header(key, hasKey, len(arr), false, nil)
		for i, x := range arr {
			if i == 0 {
				e.line = append(e.line, ' ')
			} else {
				e.line = append(e.line, e.delim)
			}
			if err := e.appendPrimitive(x); err != nil {
				return err
			}
		}
		return e.end()
	}
	if pos != posListItem {
		if rows, ok := allObjects(arr); ok {
			if fields, ok := e.tabularFields(rows, nest); ok {
				e.begin(depth, hyphen)
				e.header(key, hasKey, len(arr), false, fields)
				if err := e.end(); err != nil {
					return err
				}
				for _, r := range rows {
					e.begin(depth+1, -1)
					if err := e.appendRow(r, fields); err != nil {
						return err
					}
					if err := e.end(); err != nil {
						return err
					}
				}
				return nil
			}
		}
	}
	e.begin(depth, hyphen)
	e.header(key, hasKey, len(arr), false, nil)
	if err := e.end(); err != nil {
		return err
	}
	for _, x := range arr {
		if err := e.listItem(x, depth+1, nest+1); err != nil {
			return err
		}
	}
	return nil
}

// listItem writes one element of an expanded list with its hyphen at depth.
func (e *encoder) listItem(v Value, depth, nest int) error {
	switch t := v.(type) {
	case []any:
		return e.array("", false, t, depth, depth, posListItem, nest)
	case *Object:
		if t == nil {
			break
		}
		if t.Len() == 0 {
			e.begin(depth, -1)
			e.line = append(e.line, '-')
			return e.end()
		}
		var fc *foldCtx
		if e.opts.KeyFolding {
			fc = &foldCtx{remaining: e.opts.FlattenDepth}
		}
		return e.fieldsFrom(t, 0, depth+1, depth, fc, nest)
	}
	e.begin(depth, depth)
	if err := e.appendPrimitive(v); err != nil {
		return err
	}
	return e.end()
}

// keyed writes a keyed tabular object (spec 4.0 §9.5).
func (e *encoder) keyed(key string, hasKey bool, o *Object, fields []fieldNode, depth, hyphen int) error {
	e.begin(depth, hyphen)
	e.header(key, hasKey, o.Len(), true, fields)
	if err := e.end(); err != nil {
		return err
	}
	for _, k := range o.Keys {
		e.begin(depth+1, -1)
		e.line = appendKey(e.line, k)
		e.line = append(e.line, ':', ' ')
		if err := e.appendRow(o.Values[k].(*Object), fields); err != nil {
			return err
		}
		if err := e.end(); err != nil {
			return err
		}
	}
	return nil
}

// header appends key[N<delim>]{fields}: to the line.
func (e *encoder) header(key string, hasKey bool, n int, keyed bool, fields []fieldNode) {
	if hasKey {
		e.line = appendKey(e.line, key)
	}
	e.line = append(e.line, '[')
	if e.opts.LengthMarker {
		e.line = append(e.line, '#')
	}
	e.line = appendInt(e.line, n)
	if keyed {
		e.line = append(e.line, ':')
	}
	if e.delim != ',' {
		e.line = append(e.line, e.delim)
	}
	e.line = append(e.line, ']')
	if fields != nil {
		e.line = e.appendFields(e.line, fields)
	}
	e.line = append(e.line, ':')
}

func appendInt(b []byte, n int) []byte {
	var tmp [20]byte
	i := len(tmp)
	if n == 0 {
		return append(b, '0')
	}
	for n > 0 {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, tmp[i:]...)
}

func (e *encoder) appendFields(b []byte, fields []fieldNode) []byte {
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, e.delim)
		}
		b = appendKey(b, f.name)
		if f.children != nil {
			b = e.appendFields(b, f.children)
		}
	}
	return append(b, '}')
}

// appendRow appends the leaf cells of r in depth-first field order.
func (e *encoder) appendRow(r *Object, fields []fieldNode) error {
	first := true
	var walk func(o *Object, fs []fieldNode) error
	walk = func(o *Object, fs []fieldNode) error {
		for _, f := range fs {
			v := o.Values[f.name]
			if f.children != nil {
				if err := walk(v.(*Object), f.children); err != nil {
					return err
				}
				continue
			}
			if !first {
				e.line = append(e.line, e.delim)
			}
			first = false
			if err := e.appendPrimitive(v); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(r, fields)
}

func isPrimitive(v Value) bool {
	switch t := v.(type) {
	case []any:
		return false
	case *Object:
		return t == nil
	}
	return true
}

func allPrimitive(arr []any) bool {
	for _, x := range arr {
		if !isPrimitive(x) {
			return false
		}
	}
	return true
}

func allObjects(arr []any) ([]*Object, bool) {
	rows := make([]*Object, len(arr))
	for i, x := range arr {
		o, ok := x.(*Object)
		if !ok || o == nil {
			return nil, false
		}
		rows[i] = o
	}
	return rows, true
}

// tabularFields returns the field list of rows when they qualify for the
// tabular form (spec §9.3): non-empty objects with one key set whose columns
// are all primitive or (spec 4.0) nested-uniform objects.
func (e *encoder) tabularFields(rows []*Object, nest int) ([]fieldNode, bool) {
	if len(rows) == 0 || nest > e.opts.MaxDepth {
		return nil, false
	}
	keys := rows[0].Keys
	if len(keys) == 0 {
		return nil, false
	}
	for _, r := range rows[1:] {
		if len(r.Keys) != len(keys) {
			return nil, false
		}
		for _, k := range keys {
			if _, ok := r.Values[k]; !ok {
				return nil, false
			}
		}
	}
	fields := make([]fieldNode, len(keys))
	var sub []*Object
	for i, k := range keys {
		fields[i].name = k
		prim := true
		for _, r := range rows {
			if !isPrimitive(r.Values[k]) {
				prim = false
				break
			}
		}
		if prim {
			continue
		}
		if !e.v4 {
			return nil, false
		}
		sub = sub[:0]
		for _, r := range rows {
			o, ok := r.Values[k].(*Object)
			if !ok || o.Len() == 0 {
				return nil, false
			}
			sub = append(sub, o)
		}
		children, ok := e.tabularFields(append([]*Object(nil), sub...), nest+1)
		if !ok {
			return nil, false
		}
		fields[i].children = children
	}
	return fields, true
}

// keyedFields returns the field list of o when it qualifies for the keyed
// tabular form (spec 4.0 §9.5).
func (e *encoder) keyedFields(o *Object, nest int) ([]fieldNode, bool) {
	if o.Len() < 2 {
		return nil, false
	}
	rows := make([]*Object, len(o.Keys))
	for i, k := range o.Keys {
		r, ok := o.Values[k].(*Object)
		if !ok || r.Len() == 0 {
			return nil, false
		}
		rows[i] = r
	}
	return e.tabularFields(rows, nest+1)
}

// appendPrimitive appends a primitive value, quoting strings as needed for
// the document delimiter (which the encoder also declares in every header).
func (e *encoder) appendPrimitive(v Value) error {
	if s, ok := v.(string); ok {
		if e.safeUnquoted(s) {
			e.line = append(e.line, s...)
		} else {
			e.line = appendQuoted(e.line, s)
		}
		return nil
	}
	if jn, ok := v.(json.Number); ok {
		c, ok := canonicalNumber(string(jn))
		if !ok {
			return fmt.Errorf("toon: invalid number %q", string(jn))
		}
		e.line = append(e.line, c...)
		return nil
	}
	s, err := primitiveLiteral(v)
	if err != nil {
		return err
	}
	e.line = append(e.line, s...)
	return nil
}

// safeUnquoted reports whether s may be written without quotes (spec §7.2).
func (e *encoder) safeUnquoted(s string) bool {
	if s == "" {
		return false
	}
	if e.v4 {
		if c := s[0]; c == ' ' || c == '\t' {
			return false
		}
		if c := s[len(s)-1]; c == ' ' || c == '\t' {
			return false
		}
	} else if hasJSSpaceEdge(s) {
		return false
	}
	switch s {
	case "true", "false", "null":
		return false
	}
	if s[0] == '-' || (e.v4 && s[0] == '#') {
		return false
	}
	if isNumericLike(s, e.v4) {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == ':', c == '"', c == '\\', c == '[', c == ']', c == '{', c == '}', c == e.delim:
			return false
		}
	}
	return utf8.ValidString(s)
}

// hasJSSpaceEdge reports whether s starts or ends with a character that
// JavaScript's String.prototype.trim removes; the spec 3.3 reference encoder
// quoted every string that trim() changes.
func hasJSSpaceEdge(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	if isJSSpace(r) {
		return true
	}
	r, _ = utf8.DecodeLastRuneInString(s)
	return isJSSpace(r)
}

// isJSSpace reports whether r is ECMAScript WhiteSpace or LineTerminator.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// isNumericLike reports whether s looks like a number to a reader: spec 4.0
// /^[+-]?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i, spec 3.3 the same without '+'.
func isNumericLike(s string, v4 bool) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || (v4 && s[i] == '+')) {
		i++
	}
	return matchDecimal(s, i)
}

// matchDecimal reports whether s[i:] is [0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func matchDecimal(s string, i int) bool {
	_, _, _, _, ok := decimalParts(s, i)
	return ok
}

// appendKey appends a key, quoted unless it matches the unquoted-key pattern.
func appendKey(b []byte, k string) []byte {
	if isUnquotedKey(k) {
		return append(b, k...)
	}
	return appendQuoted(b, k)
}

// appendQuoted appends s as a quoted string with the escapes of spec §7.1;
// invalid UTF-8 bytes become U+FFFD.
func appendQuoted(b []byte, s string) []byte { return appendEscaped(b, s, "\uFFFD") }

// appendEscaped appends s in double quotes with the escapes of spec §7.1
// (\" \\ \n \r \t and \u00XX for other control characters), writing
// invalid for each byte that is not valid UTF-8.
func appendEscaped(b []byte, s, invalid string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, invalid...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
