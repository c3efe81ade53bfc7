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
