package ntriples

// Character classes of the bytes of N-Triples text, as bit masks in
// charClass. Bytes from 0x80 up belong to cIRI and cLit: lines are checked to
// be valid UTF-8 before they are scanned, and IRIs and literals may hold any
// non-ASCII character.
const (
	cIRI     = 1 << iota // may appear unescaped in an IRIREF, other than '>' and '\'
	cLit                 // may appear unescaped in a string literal
	cPN                  // ASCII PN_CHARS: letters, digits, '_' and '-'
	cPNStart             // ASCII characters that may start a blank node label
	cAlpha               // [a-zA-Z]
	cAlnum               // [a-zA-Z0-9]
	cHex                 // [0-9a-fA-F]
	cWS                  // space or tab
)

// charClass maps each byte to its cXXX classes. TestCharClass checks it
// against the definitions of the N-Triples grammar.
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

func is(c byte, class byte) bool { return charClass[c]&class != 0 }

// isPNCharsBase reports whether r matches PN_CHARS_BASE.
func isPNCharsBase(r rune) bool {
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

// isPNCharsU reports whether r matches PN_CHARS_U (PN_CHARS_BASE or '_').
// The colon that the RDF 1.1 grammar also lists is left out, as in RDF 1.2
// and the W3C tests (nt-syntax-bad-bnode-01, -02).
func isPNCharsU(r rune) bool { return r == '_' || isPNCharsBase(r) }

// isPNChars reports whether r matches PN_CHARS.
func isPNChars(r rune) bool {
	return isPNCharsU(r) || r == '-' || r >= '0' && r <= '9' || r == 0x00B7 ||
		r >= 0x0300 && r <= 0x036F || r >= 0x203F && r <= 0x2040
}

// hexVal returns the value of a hexadecimal digit; c must satisfy cHex.
func hexVal(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c - 'a' + 10)
	}
	return rune(c - 'A' + 10)
}
