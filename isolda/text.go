package isolda

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Contexts in which a value's text is written; some need extra quoting.
const (
	ctxCell     = iota // a table cell or a block value
	ctxBlockKey        // the id in an ~extra block header ("  id:")
	ctxConstant        // the value of a header constant ("p=v")
)

// quoting selects the version-dependent quoting rules of SPEC.md section 8.
type quoting uint8

const (
	quoteAt    quoting = 1 << iota // 0.2 and 0.3: values starting with '@'
	quoteParen                     // 0.3: values starting with '(' or '<'
	quoteUnder                     // 0.4: the value "_" (an anonymous first cell)
)

// needsQuote reports whether the text s must be written as a JSON string in
// the given context (SPEC.md, "Quoting").
func needsQuote(s string, q quoting, ctx int) bool {
	if s == "" || s == "_" && q&quoteUnder != 0 {
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
		if q&quoteAt != 0 {
			return true
		}
	case '(', '<':
		if q&quoteParen != 0 {
			return true
		}
	}
	for _, r := range s {
		switch r {
		case ',', '|', '"', '{', '}', '\u2028', '\u2029':
			return true
		case ':':
			if ctx == ctxBlockKey {
				return true
			}
		case '=':
			if ctx == ctxConstant {
				return true
			}
		}
		if unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// appendQuoted appends s as a JSON string. Non-ASCII characters are written
// as themselves except line and paragraph separators and C1 controls.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029' {
				b = append(b, `\u`...)
				h := strconv.FormatInt(int64(r), 16)
				b = append(b, strings.Repeat("0", 4-len(h))...)
				b = append(b, h...)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}

// appendText appends s, quoted when needsQuote says so.
func appendText(b []byte, s string, q quoting, ctx int) []byte {
	if needsQuote(s, q, ctx) {
		return appendQuoted(b, s)
	}
	return append(b, s...)
}

// unquote decodes the JSON string at the start of s (which starts with '"').
// It returns the value and the number of bytes consumed, or an error message.
func unquote(s string) (string, int, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, ""
		case c == '\\':
			if i+1 >= len(s) {
				return "", i, "unterminated escape in quoted string"
			}
			e := s[i+1]
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				r, ok := hex4(s[i+2:])
				if !ok {
					return "", i, `expected four hex digits after \u`
				}
				i += 6
				if r >= 0xD800 && r < 0xDC00 {
					if !strings.HasPrefix(s[i:], `\u`) {
						return "", i - 6, "expected the low surrogate of a surrogate pair"
					}
					r2, ok := hex4(s[i+2:])
					if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
						return "", i - 6, "expected the low surrogate of a surrogate pair"
					}
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 6
				} else if r >= 0xDC00 && r <= 0xDFFF {
					return "", i - 6, "unpaired surrogate in quoted string"
				}
				b.WriteRune(r)
				continue
			default:
				return "", i, "invalid escape in quoted string"
			}
			i += 2
		case c < 0x20:
			return "", i, "control character in quoted string"
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", len(s), "unterminated quoted string"
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// isNameStart and isNameChar define NAME = [A-Za-z_][A-Za-z0-9_-]*.
func isNameStart(c byte) bool {
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
}

func isNameChar(c byte) bool {
	return isNameStart(c) || (c >= '0' && c <= '9') || c == '-'
}

// isLocalChar defines LOCAL = [A-Za-z0-9_][A-Za-z0-9_.-]* (a '.' may not end it).
func isLocalChar(c byte) bool {
	return isNameChar(c) || c == '.'
}

// isName reports whether s is a NAME.
func isName(s string) bool { return s != "" && scanName(s) == len(s) }

// isLocal reports whether s is a LOCAL without percent escapes.
func isLocal(s string) bool {
	return s != "" && strings.IndexByte(s, '%') < 0 && scanLocal(s) == len(s)
}

// isLocalPct is isLocal with percent escapes (%XX, two hex digits) allowed
// anywhere, as in Turtle's PN_LOCAL: the encoder writes them in 0.3 (0.1
// and 0.2 write <pfx:rest>, SPEC.md section 4), keeping the IRI's
// characters as they are; the decoder reads them in every version.
func isLocalPct(s string) bool {
	return s != "" && scanLocal(s) == len(s)
}

// pctAt reports whether s[i:] starts with a percent escape %XX.
func pctAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// scanLocal returns the length of the LOCAL at the start of s (percent
// escapes %XX included).
func scanLocal(s string) int {
	if s == "" || s[0] == '.' || s[0] == '-' || !isLocalChar(s[0]) && !pctAt(s, 0) {
		return 0
	}
	n := 0
	for n < len(s) {
		if pctAt(s, n) {
			n += 3
			continue
		}
		if !isLocalChar(s[n]) {
			break
		}
		n++
	}
	for n > 0 && s[n-1] == '.' {
		n--
	}
	return n
}

func scanName(s string) int {
	if s == "" || !isNameStart(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) && isNameChar(s[n]) {
		n++
	}
	return n
}

// appendAngle appends <iri> with every character that is not allowed bare in
// an N-Triples IRIREF, and backslash, written as \uXXXX or \UXXXXXXXX.
func appendAngle(b []byte, iri string) []byte {
	b = append(b, '<')
	b = appendAngleBody(b, iri)
	return append(b, '>')
}

// appendAngleBody appends the text of <...> without the brackets.
func appendAngleBody(b []byte, iri string) []byte {
	for _, r := range iri {
		if r <= 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u2028' || r == '\u2029' ||
			strings.ContainsRune("<>\"{}|^`\\,", r) {
			if r > 0xffff {
				h := strconv.FormatInt(int64(r), 16)
				b = append(b, `\U`...)
				b = append(b, strings.Repeat("0", 8-len(h))...)
				b = append(b, h...)
			} else {
				h := strconv.FormatInt(int64(r), 16)
				b = append(b, `\u`...)
				b = append(b, strings.Repeat("0", 4-len(h))...)
				b = append(b, h...)
			}
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// scanAngle reads <...> at the start of s (s[0] == '<'); it returns the IRI,
// the bytes consumed, or an error message.
func scanAngle(s string) (string, int, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '>':
			return b.String(), i + 1, ""
		case c == '\\':
			if i+1 < len(s) && s[i+1] == 'u' {
				r, ok := hex4(s[i+2:])
				if !ok || (r >= 0xD800 && r <= 0xDFFF) {
					return "", i, `expected four hex digits after \u`
				}
				b.WriteRune(r)
				i += 6
				continue
			}
			if i+1 < len(s) && s[i+1] == 'U' && len(s) >= i+10 {
				v, err := strconv.ParseUint(s[i+2:i+10], 16, 32)
				if err != nil || v > unicode.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
					return "", i, `expected eight hex digits after \U`
				}
				b.WriteRune(rune(v))
				i += 10
				continue
			}
			return "", i, `expected \u or \U escape in <IRI>`
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' || c == ',':
			return "", i, "character not allowed in <IRI>: write it as \\uXXXX"
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", len(s), "unterminated <IRI>"
}

// splitNS splits an IRI after its last '#', else '/', else ':'.
func splitNS(iri string) (ns, local string) {
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

// validLang reports whether a language tag can be written after '@':
// letters, digits and single hyphens.
func validLang(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return true
}
