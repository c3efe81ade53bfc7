package grammar

import (
	"fmt"
	"unicode/utf8"
)

// UCHAR decodes the numeric escape \uXXXX or \UXXXXXXXX at b[0] == '\\'
// (b[1] is 'u' or 'U'; callers check) and returns the code point and the
// escape's length in bytes. A UTF-16 surrogate pair written as two \u
// escapes, which RDF 1.2 forbids but some tools write, is combined into one
// code point, with pair set: readers keep it with a warning. A lone
// surrogate, or a value beyond U+10FFFF, cannot be represented in UTF-8 and
// is an error: msg then says why (n still spans the escape). b needs to
// hold only the bytes available; a short escape is an error too.
func UCHAR(b []byte) (r rune, n int, pair bool, msg string) {
	digits := 4
	if len(b) > 1 && b[1] == 'U' {
		digits = 8
	}
	n = 2 + digits
	for k := 2; k < n; k++ {
		if k >= len(b) || !Is(b[k], Hex) {
			return 0, min(k, len(b)), false, fmt.Sprintf("invalid escape %s: expected %d hexadecimal digits after \\%c", EscapeText(b), digits, b[1])
		}
		r = r<<4 | HexVal(b[k])
	}
	switch {
	case r > utf8.MaxRune:
		return 0, n, false, fmt.Sprintf("invalid escape %s: beyond U+10FFFF, the last Unicode code point", b[:n])
	case r >= 0xD800 && r <= 0xDBFF:
		// A high surrogate: accept it only followed by a low one.
		if len(b) >= n+6 && b[n] == '\\' && b[n+1] == 'u' {
			var lo rune
			for _, c := range b[n+2 : n+6] {
				if !Is(c, Hex) {
					lo = -1
					break
				}
				lo = lo<<4 | HexVal(c)
			}
			if lo >= 0xDC00 && lo <= 0xDFFF {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), n + 6, true, ""
			}
		}
		return 0, n, false, fmt.Sprintf("invalid escape %s: a lone UTF-16 surrogate is not a character", b[:n])
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, n, false, fmt.Sprintf("invalid escape %s: a lone UTF-16 surrogate is not a character", b[:n])
	}
	return r, n, false, ""
}

// PairMsg is the warning for a surrogate pair decoded by UCHAR, whose
// escapes are esc.
func PairMsg(esc []byte) string {
	return fmt.Sprintf("escape %s is a UTF-16 surrogate pair, which RDF 1.2 does not allow: write \\U%08X", esc, pairValue(esc))
}

func pairValue(esc []byte) rune {
	r, _, _, _ := UCHAR(esc)
	return r
}

// ECHAR returns the character a string escape \c stands for (\t \b \n \r
// \f \" \' \\), and false for any other c.
func ECHAR(c byte) (byte, bool) {
	switch c {
	case 't':
		return '\t', true
	case 'b':
		return '\b', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case '"', '\'', '\\':
		return c, true
	}
	return 0, false
}

// EscapeText returns the escape at the start of b (which starts with '\\')
// for error messages: up to ten bytes, stopping at white space, quotes and
// '>'.
func EscapeText(b []byte) string {
	k := 1
	for k < len(b) && k < 10 && b[k] > 0x20 && b[k] < 0x7f && b[k] != '"' && b[k] != '>' && b[k] != '\\' {
		k++
	}
	if k == 1 && k < len(b) {
		_, size := utf8.DecodeRune(b[1:])
		k += size
	}
	return string(b[:min(k, len(b))])
}
