package graphrag

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonKind is the kind of a parsed JSON value.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// jsonValue is a parsed JSON value with the byte offset where it starts, so
// that the decoders can report positions for well-formed JSON of the wrong
// shape.
type jsonValue struct {
	kind  jsonKind
	off   int
	str   string       // string value, or number text
	items []*jsonValue // array items, or object values
	keys  []string     // object keys, parallel to items
	koffs []int        // offsets of object keys
}

// get returns an object's member named key, or nil.
func (v *jsonValue) get(key string) *jsonValue {
	for i, k := range v.keys {
		if k == key {
			return v.items[i]
		}
	}
	return nil
}

// jsonParser is a strict RFC 8259 parser (no NaN or Infinity, no duplicate
// object keys, no lone surrogates) over one document.
type jsonParser struct {
	src      string
	pos      int
	depth    int
	maxDepth int
	maxStr   int
	err      func(off int, format string, args ...any) error
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// document parses one value that must fill src (surrounding whitespace
// allowed).
func (p *jsonParser) document() (*jsonValue, error) {
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return nil, p.err(p.pos, "extra data after the JSON value")
	}
	return v, nil
}

func (p *jsonParser) value() (*jsonValue, error) {
	if p.pos >= len(p.src) {
		return nil, p.err(p.pos, "unexpected end of input, expected a JSON value")
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &jsonValue{kind: jsonString, off: start, str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return &jsonValue{kind: jsonBool, off: start, str: "true"}, nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return &jsonValue{kind: jsonBool, off: start, str: "false"}, nil
	case strings.HasPrefix(p.src[p.pos:], "null"):
		p.pos += 4
		return &jsonValue{kind: jsonNull, off: start}, nil
	default:
		r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
		return nil, p.err(p.pos, "unexpected %q, expected a JSON value", r)
	}
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > p.maxDepth {
		return p.err(p.pos, "JSON nesting deeper than %d", p.maxDepth)
	}
	return nil
}

// open enters the object or array whose opening bracket is at pos and
// reads it when it is empty (close follows): empty says so.
func (p *jsonParser) open(close byte) (empty bool, err error) {
	if err := p.enter(); err != nil {
		return false, err
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == close {
		p.pos++
		p.depth--
		return true, nil
	}
	return false, nil
}

// next reads what follows a member of an object or array (in names which):
// ',' before the next member, or close, which ends it (done).
func (p *jsonParser) next(close byte, in string) (done bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return false, p.err(p.pos, "unexpected end of input in %s", in)
	}
	switch p.src[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case close:
		p.pos++
		p.depth--
		return true, nil
	}
	return false, p.err(p.pos, "expected ',' or '%c' in %s", close, in)
}

func (p *jsonParser) object() (*jsonValue, error) {
	v := &jsonValue{kind: jsonObject, off: p.pos}
	if empty, err := p.open('}'); err != nil || empty {
		return v, err
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return nil, p.err(p.pos, "expected a string key")
		}
		koff := p.pos
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		for _, old := range v.keys {
			if old == k {
				return nil, p.err(koff, "duplicate key %q", k)
			}
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.err(p.pos, "expected ':' after an object key")
		}
		p.pos++
		p.skipSpace()
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.keys = append(v.keys, k)
		v.koffs = append(v.koffs, koff)
		v.items = append(v.items, item)
		if done, err := p.next('}', "an object"); err != nil || done {
			return v, err
		}
	}
}

func (p *jsonParser) array() (*jsonValue, error) {
	v := &jsonValue{kind: jsonArray, off: p.pos}
	if empty, err := p.open(']'); err != nil || empty {
		return v, err
	}
	for {
		p.skipSpace()
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
		if done, err := p.next(']', "an array"); err != nil || done {
			return v, err
		}
	}
}

func (p *jsonParser) number() (*jsonValue, error) {
	start := p.pos
	s := p.src
	i := p.pos
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return nil, p.err(i, "invalid number")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return nil, p.err(i, "invalid number: digits expected after '.'")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, p.err(i, "invalid number: digits expected in the exponent")
		}
	}
	p.pos = i
	return &jsonValue{kind: jsonNumber, off: start, str: s[start:i]}, nil
}

// string parses a JSON string starting at the opening quote.
func (p *jsonParser) string() (string, error) {
	p.pos++ // "
	var b strings.Builder
	runStart := p.pos
	for {
		if p.pos >= len(p.src) {
			return "", p.err(p.pos, "unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			b.WriteString(p.src[runStart:p.pos])
			p.pos++
			if p.maxStr > 0 && b.Len() > p.maxStr {
				return "", p.err(p.pos, "string longer than %d bytes", p.maxStr)
			}
			return b.String(), nil
		case c < 0x20:
			return "", p.err(p.pos, "control character U+%04X in a string must be escaped", c)
		case c == '\\':
			b.WriteString(p.src[runStart:p.pos])
			if err := p.escape(&b); err != nil {
				return "", err
			}
			runStart = p.pos
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(p.src[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.err(p.pos, "invalid UTF-8 in a string")
			}
			p.pos += size
		default:
			p.pos++
		}
		if p.maxStr > 0 && p.pos-runStart+b.Len() > p.maxStr {
			return "", p.err(p.pos, "string longer than %d bytes", p.maxStr)
		}
	}
}

func (p *jsonParser) escape(b *strings.Builder) error {
	at := p.pos
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		return p.err(at, "unterminated escape")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return p.err(at, "invalid \\u escape")
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || !strings.HasPrefix(p.src[p.pos:], `\u`) {
				return p.err(at, "lone surrogate in \\u escape")
			}
			p.pos += 2
			r2, ok := p.hex4()
			if !ok {
				return p.err(at, "invalid \\u escape")
			}
			r = utf16.DecodeRune(r, r2)
			if r == utf8.RuneError {
				return p.err(at, "invalid surrogate pair in \\u escape")
			}
		}
		b.WriteRune(r)
	default:
		return p.err(at, "invalid escape \\%c", c)
	}
	return nil
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
	if err != nil || strings.ContainsAny(p.src[p.pos:p.pos+4], "+-_xX") {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}
