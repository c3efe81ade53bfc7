// Package grammar is the toolkit the N-Triples, N-Quads, Turtle and TriG
// readers share: the character classes of their common terminals
// (IRIREF, PN_CHARS, LANGTAG, ...), the decoding of escapes (UCHAR, ECHAR),
// language tag scanning and a string interning cache. A fix to one of the
// shared grammar rules is made here once for every reader.
//
// The terminals are those of RDF 1.2 Turtle §6.5 and RDF 1.2 N-Triples §7,
// which agree on every rule this package implements.
package grammar

import "unicode/utf8"

// Character classes of bytes, as bit masks (see Is). Bytes from 0x80 up
// belong to IRI and Lit: inputs are checked to be valid UTF-8 separately,
// and IRIs and literals may hold any non-ASCII character.
const (
	IRI     = 1 << iota // may appear unescaped in an IRIREF, other than '>' and '\'
	Lit                 // may appear unescaped in STRING_LITERAL_QUOTE (not " \ LF CR)
	PN                  // ASCII PN_CHARS: letters, digits, '_' and '-'
	PNStart             // ASCII characters that may start a blank node label
	Alpha               // [a-zA-Z]
	Alnum               // [a-zA-Z0-9]
	Hex                 // [0-9a-fA-F]
	WS                  // space or tab
)

// charClass maps each byte to its classes. TestCharClass checks it against
// the definitions of the grammar.
const charClass = "" +
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x82\x00\x02\x02\x00\x02\x02" +
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" +
	"\x82\x03\x00\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x07\x03\x03" +
	"\x6f\x6f\x6f\x6f\x6f\x6f\x6f\x6f\x6f\x6f\x03\x03\x02\x03\x02\x03" +
	"\x03\x7f\x7f\x7f\x7f\x7f\x7f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f" +
	"\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x03\x00\x03\x02\x0f" +
	"\x02\x7f\x7f\x7f\x7f\x7f\x7f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f" +
	"\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x02\x02\x02\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03" +
	"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03"

// Is reports whether byte c belongs to any of the classes in the mask.
func Is(c byte, class byte) bool { return charClass[c]&class != 0 }

// IsInt is Is for a byte held in an int, as scanners that signal the end
// of input with a negative value hold them; it is false for c < 0.
func IsInt(c int, class byte) bool { return c >= 0 && c < 256 && charClass[c]&class != 0 }

// IsPNCharsBase reports whether r matches PN_CHARS_BASE.
func IsPNCharsBase(r rune) bool {
	switch {
	case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		return true
	case r < 0xC0:
		return false
	case r <= 0x00D6, r >= 0x00D8 && r <= 0x00F6, r >= 0x00F8 && r <= 0x02FF,
		r >= 0x0370 && r <= 0x037D, r >= 0x037F && r <= 0x1FFF,
		r >= 0x200C && r <= 0x200D, r >= 0x2070 && r <= 0x218F,
		r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD,
		r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// IsPNCharsU reports whether r matches PN_CHARS_U (PN_CHARS_BASE or '_').
// The colon that the RDF 1.1 N-Triples grammar also lists is left out, as in
// Turtle, RDF 1.2 and the W3C tests (nt-syntax-bad-bnode-01, -02).
func IsPNCharsU(r rune) bool { return r == '_' || IsPNCharsBase(r) }

// IsPNChars reports whether r matches PN_CHARS.
func IsPNChars(r rune) bool {
	if r < 0x80 {
		return r >= 0 && Is(byte(r), PN)
	}
	return r == 0x00B7 || r >= 0x0300 && r <= 0x036F || r >= 0x203F && r <= 0x2040 || IsPNCharsBase(r)
}

// IsLocalEsc reports whether c may follow a backslash in PN_LOCAL_ESC.
func IsLocalEsc(c byte) bool {
	switch c {
	case '_', '~', '.', '-', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '/', '?', '#', '@', '%':
		return true
	}
	return false
}

// HexVal returns the value of a hexadecimal digit; c must be in class Hex.
func HexVal(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c - 'a' + 10)
	}
	return rune(c - 'A' + 10)
}

// IsBlankLabel reports whether s is a BLANK_NODE_LABEL without its "_:":
// (PN_CHARS_U | [0-9]) ((PN_CHARS | '.')* PN_CHARS)?. Writers use it to tell
// the labels they can write as they are.
func IsBlankLabel(s string) bool {
	if s == "" {
		return false
	}
	// Most labels are ASCII: decide those without decoding.
	if Is(s[0], PNStart) {
		i := 1 + Span(s[1:], PN)
		for i < len(s) && (s[i] == '.' || Is(s[i], PN)) {
			i++
		}
		if i == len(s) {
			return s[len(s)-1] != '.'
		}
	}
	if !utf8.ValidString(s) {
		return false
	}
	for i, r := range s {
		switch {
		case i == 0:
			if !(IsPNCharsU(r) || r >= '0' && r <= '9') {
				return false
			}
		case r == '.':
		case !IsPNChars(r):
			return false
		}
	}
	return s[len(s)-1] != '.'
}

// HasScheme reports whether v starts with a URI scheme and a colon (RFC
// 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
func HasScheme[T string | []byte](v T) bool {
	if len(v) == 0 || !Is(v[0], Alpha) {
		return false
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == ':':
			return true
		case Is(c, Alnum), c == '+', c == '-', c == '.':
		default:
			return false
		}
	}
	return false
}

// Span returns the length of the longest prefix of b whose bytes all
// belong to one of the classes in the mask. It tests eight bytes per step
// with a single branch: the readers' and writers' inner loops over IRIs and
// string literals.
func Span[T string | []byte](b T, class byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := b[i : i+8]
		if charClass[w[0]]&charClass[w[1]]&charClass[w[2]]&charClass[w[3]]&
			charClass[w[4]]&charClass[w[5]]&charClass[w[6]]&charClass[w[7]]&class == 0 {
			break
		}
	}
	for i < len(b) && charClass[b[i]]&class != 0 {
		i++
	}
	return i
}
