package py

import (
	"io"
	"unicode/utf8"
)

// JSONWriter is what WriteJSONString writes to: *bufio.Writer,
// *strings.Builder and *bytes.Buffer are JSONWriters.
type JSONWriter interface {
	io.ByteWriter
	io.StringWriter
}

const lowerHex = "0123456789abcdef"

// WriteJSONString writes s as json.dumps encodes a str, and returns the
// first write error. With ensureASCII every character outside ' '..'~' is
// escaped as \uXXXX (surrogate pairs above U+FFFF); without it only '"',
// '\\' and control characters below U+0020 are escaped. \n, \r, \t, \b and
// \f have their short escapes. Invalid UTF-8 is written as U+FFFD (escaped
// with ensureASCII).
func WriteJSONString(w JSONWriter, s string, ensureASCII bool) error {
	return JSONQuoting{EnsureASCII: ensureASCII}.Write(w, s)
}

// JSONQuoting is how a JSON string is quoted: json.dumps's way (the zero
// value is json.dumps(s, ensure_ascii=False)), or a variant of it that a
// format defines. Every JSON string writer of the formats is this one.
type JSONQuoting struct {
	// EnsureASCII escapes every character outside ' '..'~' as \uXXXX
	// (surrogate pairs above U+FFFF), invalid UTF-8 as \ufffd: json.dumps's
	// default.
	EnsureASCII bool
	// EscapeDEL escapes U+007F as \u007f (EnsureASCII does too).
	EscapeDEL bool
	// HexBF writes \b and \f as \u0008 and \u000c, not as their short
	// escapes.
	HexBF bool
	// EscapeInvalid writes each byte that is not valid UTF-8 as the escape
	// \ufffd, not as U+FFFD itself (EnsureASCII does too).
	EscapeInvalid bool
}

// Write writes s quoted as q says, and returns the first write error.
func (q JSONQuoting) Write(w JSONWriter, s string) error {
	e := jsonEncoder{w: w}
	e.byte('"')
	escDEL := q.EnsureASCII || q.EscapeDEL
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (c != 0x7f || !escDEL) {
				i++
				continue
			}
			e.str(s[start:i])
			switch {
			case c == '"':
				e.str(`\"`)
			case c == '\\':
				e.str(`\\`)
			case c == '\n':
				e.str(`\n`)
			case c == '\r':
				e.str(`\r`)
			case c == '\t':
				e.str(`\t`)
			case c == '\b' && !q.HexBF:
				e.str(`\b`)
			case c == '\f' && !q.HexBF:
				e.str(`\f`)
			default:
				e.u4(rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !q.EnsureASCII && r != utf8.RuneError {
			i += size
			continue
		}
		e.str(s[start:i])
		switch {
		case !q.EnsureASCII && !(q.EscapeInvalid && size == 1):
			e.str("\uFFFD")
		case r > 0xFFFF:
			r -= 0x10000
			e.u4(0xD800 + (r >> 10))
			e.u4(0xDC00 + (r & 0x3FF))
		default:
			e.u4(r)
		}
		i += size
		start = i
	}
	e.str(s[start:])
	e.byte('"')
	return e.err
}

// jsonEncoder keeps the first write error.
type jsonEncoder struct {
	w   JSONWriter
	err error
}

func (e *jsonEncoder) str(s string) {
	if e.err == nil && s != "" {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *jsonEncoder) byte(c byte) {
	if e.err == nil {
		e.err = e.w.WriteByte(c)
	}
}

func (e *jsonEncoder) u4(r rune) {
	e.str(`\u`)
	e.byte(lowerHex[(r>>12)&15])
	e.byte(lowerHex[(r>>8)&15])
	e.byte(lowerHex[(r>>4)&15])
	e.byte(lowerHex[r&15])
}

// Dumper writes JSON laid out as json.dumps lays it out, value by value,
// without building the value first: with an indent of n > 0 as
// json.dumps(v, indent=n) (every item on its own line, n more spaces a
// level, ": " after a key, empty containers as [] and {}), with 0 as
// json.dumps(v, separators=(",", ":")). Strings are quoted as
// WriteJSONString does. Open, Key, String and Close must come in an order
// that makes a JSON value (a Key inside an object before each of its
// values); the Dumper does not check it. Several values in a row at the top
// level are written one after the other, with nothing between them.
type Dumper struct {
	e           jsonEncoder
	indent      int
	ensureASCII bool
	// open holds the closing bracket and the item count of every open
	// container, innermost last.
	open     []openContainer
	afterKey bool
}

type openContainer struct {
	close byte
	items int
}

// NewDumper returns a Dumper writing to w with the given indent (0:
// compact) and ensure_ascii.
func NewDumper(w JSONWriter, indent int, ensureASCII bool) *Dumper {
	return &Dumper{e: jsonEncoder{w: w}, indent: indent, ensureASCII: ensureASCII}
}

// item starts a value: after a key nothing, else the separator from the
// previous item of its container and its line.
func (d *Dumper) item() {
	if d.afterKey {
		d.afterKey = false
		return
	}
	n := len(d.open)
	if n == 0 {
		return
	}
	if d.open[n-1].items > 0 {
		d.e.byte(',')
	}
	d.open[n-1].items++
	d.newline(n)
}

func (d *Dumper) newline(level int) {
	if d.indent > 0 {
		d.e.byte('\n')
		for range level * d.indent {
			d.e.byte(' ')
		}
	}
}

// OpenObject starts an object.
func (d *Dumper) OpenObject() { d.openContainer('{', '}') }

// OpenArray starts an array.
func (d *Dumper) OpenArray() { d.openContainer('[', ']') }

func (d *Dumper) openContainer(open, close byte) {
	d.item()
	d.e.byte(open)
	d.open = append(d.open, openContainer{close: close})
}

// Close ends the innermost open object or array.
func (d *Dumper) Close() {
	n := len(d.open)
	c := d.open[n-1]
	d.open = d.open[:n-1]
	if c.items > 0 {
		d.newline(n - 1)
	}
	d.e.byte(c.close)
}

// Key writes the key of the next value of an object.
func (d *Dumper) Key(k string) {
	d.item()
	d.quote(k)
	d.e.byte(':')
	if d.indent > 0 {
		d.e.byte(' ')
	}
	d.afterKey = true
}

// String writes a string value.
func (d *Dumper) String(s string) {
	d.item()
	d.quote(s)
}

func (d *Dumper) quote(s string) {
	if d.e.err == nil {
		d.e.err = WriteJSONString(d.e.w, s, d.ensureASCII)
	}
}

// Err returns the first write error.
func (d *Dumper) Err() error { return d.e.err }
