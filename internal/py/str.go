package py

import (
	"fmt"
	"strings"
	"unicode"
)

// IsSpace is str.isspace for one character, also the \s of a str pattern:
// Unicode white space plus the separators U+001C..U+001F.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// IsWord is the \w of a str pattern: str.isalnum() or "_". Combining marks
// are not word characters.
func IsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Strip is str.strip() with no argument: it removes leading and trailing
// characters for which IsSpace holds.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// Split is str.split() with no argument: the runs of non-space characters.
func Split(s string) []string { return strings.FieldsFunc(s, IsSpace) }

// DigitValue returns the value of a Unicode decimal digit (category Nd), as
// int() reads it, and whether r is one. Unicode encodes every decimal digit
// set as ten consecutive code points from 0 to 9, so the value is the
// offset from the start of its run modulo 10.
func DigitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10, true
}

// Lower is str.lower: full lower-casing with the special cases of Unicode's
// SpecialCasing that Python applies regardless of language: "İ" becomes "i̇"
// (i and a combining dot above), and a capital sigma becomes the final form
// "ς" at the end of a word (preceded by a cased letter and not followed by
// one, case-ignorable characters skipped).
func Lower(s string) string {
	if !strings.ContainsAny(s, "İΣ") {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			if casedBefore(rs, i) && !casedAfter(rs, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func cased(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }

func caseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		strings.ContainsRune("'.:·’\u00ad", r)
}

func casedBefore(rs []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if !caseIgnorable(rs[j]) {
			return cased(rs[j])
		}
	}
	return false
}

func casedAfter(rs []rune, i int) bool {
	for j := i + 1; j < len(rs); j++ {
		if !caseIgnorable(rs[j]) {
			return cased(rs[j])
		}
	}
	return false
}

// Repr returns repr() of a str: single quotes unless the text contains a
// single quote and no double quote; backslash, the quote, \t, \n, \r
// escaped; other non-printable characters as \xhh, \uhhhh or \Uhhhhhhhh.
func Repr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// ReprList returns repr() of a list of str: "[" + ", ".join(map(repr, xs))
// + "]".
func ReprList(xs []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Repr(x))
	}
	b.WriteByte(']')
	return b.String()
}

// URLQuote is urllib.parse.quote(s, safe='/'): UTF-8 bytes other than ASCII
// letters, digits, "_.-~" and "/" become %XX (uppercase hex).
func URLQuote(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '_' || c == '.' || c == '-' || c == '~' || c == '/' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
