package naming

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/isolda/internal/syntax"
)

// Contexts in which a value's text is written; some need extra quoting.
const (
	CtxCell     = iota // a table cell or a block value
	CtxBlockKey        // the id in an ~extra block header ("  id:")
	CtxConstant        // the value of a header constant ("p=v")
)

// Quoting selects the version-dependent Quoting rules of SPEC.md section 8.
type Quoting uint8

const (
	QuoteAt    Quoting = 1 << iota // 0.2 and 0.3: values starting with '@'
	QuoteParen                     // 0.3: values starting with '(' or '<'
	QuoteUnder                     // 0.4: the value "_" (an anonymous first cell)
)

// NeedsQuote reports whether the text s must be written as a JSON string in
// the given context (SPEC.md, "Quoting").
func NeedsQuote(s string, q Quoting, ctx int) bool {
	if s == "" || s == "_" && q&QuoteUnder != 0 {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return true
	}
	switch first {
	case '[', '"':
		return true
	case '@':
		if q&QuoteAt != 0 {
			return true
		}
	case '(', '<':
		if q&QuoteParen != 0 {
			return true
		}
	}
	for _, r := range s {
		switch r {
		case ',', '|', '"', '{', '}', '\u2028', '\u2029':
			return true
		case ':':
			if ctx == CtxBlockKey {
				return true
			}
		case '=':
			if ctx == CtxConstant {
				return true
			}
		}
		if unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// AppendQuoted appends s as a JSON string. Non-ASCII characters are written
// as themselves except line and paragraph separators and C1 controls.
func AppendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		if i := strings.IndexRune(jsonShortFrom, r); i >= 0 {
			b = append(b, '\\', jsonShortTo[i])
		} else if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029' {
			b = appendHexEscape(b, `\u`, r, 4)
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// jsonShortFrom are the characters JSON writes with a two-character escape,
// \ followed by the byte of jsonShortTo at the same index.
const jsonShortFrom, jsonShortTo = "\"\\\n\r\t\b\f", "\"\\nrtbf"

// appendHexEscape appends prefix and r in lower-case hexadecimal, padded
// with zeros to width digits.
func appendHexEscape(b []byte, prefix string, r rune, width int) []byte {
	h := strconv.FormatInt(int64(r), 16)
	b = append(b, prefix...)
	b = append(b, strings.Repeat("0", width-len(h))...)
	return append(b, h...)
}

// AppendText appends s, quoted when NeedsQuote says so.
func AppendText(b []byte, s string, q Quoting, ctx int) []byte {
	if NeedsQuote(s, q, ctx) {
		return AppendQuoted(b, s)
	}
	return append(b, s...)
}

// IsLocal reports whether s is a LOCAL without percent escapes.
func IsLocal(s string) bool {
	return s != "" && strings.IndexByte(s, '%') < 0 && syntax.ScanLocal(s) == len(s)
}

// IsLocalPct is IsLocal with percent escapes (%XX, two hex digits) allowed
// anywhere, as in Turtle's PN_LOCAL: the encoder writes them in 0.3 (0.1
// and 0.2 write <pfx:rest>, SPEC.md section 4), keeping the IRI's
// characters as they are; the decoder reads them in every version.
func IsLocalPct(s string) bool {
	return s != "" && syntax.ScanLocal(s) == len(s)
}

// AppendAngle appends <iri> with every character that is not allowed bare in
// an N-Triples IRIREF, and backslash, written as \uXXXX or \UXXXXXXXX.
func AppendAngle(b []byte, iri string) []byte {
	b = append(b, '<')
	b = AppendAngleBody(b, iri)
	return append(b, '>')
}

// AppendAngleBody appends the text of <...> without the brackets.
func AppendAngleBody(b []byte, iri string) []byte {
	for _, r := range iri {
		if r <= 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u2028' || r == '\u2029' ||
			strings.ContainsRune("<>\"{}|^`\\,", r) {
			if r > 0xffff {
				b = appendHexEscape(b, `\U`, r, 8)
			} else {
				b = appendHexEscape(b, `\u`, r, 4)
			}
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// SplitNS splits an IRI after its last '#', else '/', else ':'.
func SplitNS(iri string) (ns, local string) {
	i := strings.LastIndexByte(iri, '#')
	if i < 0 {
		i = strings.LastIndexByte(iri, '/')
	}
	if i < 0 {
		i = strings.LastIndexByte(iri, ':')
	}
	if i < 0 {
		return "", iri
	}
	return iri[:i+1], iri[i+1:]
}
