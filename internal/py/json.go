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
	e := jsonEncoder{w: w}
	e.byte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (c != 0x7f || !ensureASCII) {
				i++
				continue
			}
			e.str(s[start:i])
			switch c {
			case '"':
				e.str(`\"`)
			case '\\':
				e.str(`\\`)
			case '\n':
				e.str(`\n`)
			case '\r':
				e.str(`\r`)
			case '\t':
				e.str(`\t`)
			case '\b':
				e.str(`\b`)
			case '\f':
				e.str(`\f`)
			default:
				e.u4(rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !ensureASCII && r != utf8.RuneError {
			i += size
			continue
		}
		e.str(s[start:i])
		switch {
		case !ensureASCII:
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
