package rdf

import (
	"bufio"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf/internal/grammar"
)

// writer is what the Append functions write to; *strings.Builder and
// *bufio.Writer both satisfy it.
type writer interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

const hexDigits = "0123456789ABCDEF"

// AppendTerm writes t in canonical RDF 1.2 N-Triples form: IRIs in angle
// brackets, blank nodes as _:label, literals with the minimal escapes (\b \t
// \n \f \r \" \\; other control characters, U+007F, U+FFFE and U+FFFF as
// \uXXXX with upper-case hex), language tags in lower case and xsd:string
// left implicit, triple terms as <<( s p o )>> with single spaces. The zero
// Term writes nothing. Canonical N-Quads, as RDFC-1.0 hashes them, are
// written this way.
//
// IRIs are written whatever they hold, with the characters an IRIREF may
// not contain escaped as \u00XX, and blank node labels that are not valid
// BLANK_NODE_LABELs are renamed by WritableBlankLabel, so that every term a
// reader keeps is written in a form every reader reads back.
func AppendTerm(w writer, t Term) { appendTerm(w, t, true) }

// AppendTermAsWritten is AppendTerm with the language tag in the case it
// has in t, as RDF 1.2 allows: the only way its output departs from
// canonical form.
func AppendTermAsWritten(w writer, t Term) { appendTerm(w, t, false) }

// appendTerm writes t through appendTermTo: term writing appends to byte
// slices, several times cheaper than a method call per piece, in place in a
// bufio.Writer's free space, or on the stack for a strings.Builder.
func appendTerm(w writer, t Term, canonical bool) {
	switch w := w.(type) {
	case *bufio.Writer:
		w.Write(appendTermTo(w.AvailableBuffer(), t, canonical))
	case *strings.Builder:
		var a [256]byte
		w.Write(appendTermTo(a[:0], t, canonical))
	default:
		w.WriteString(string(appendTermTo(nil, t, canonical)))
	}
}

// appendTermTo appends t to b as appendTerm writes it.
func appendTermTo(b []byte, t Term, canonical bool) []byte {
	switch t.Kind {
	case IRIKind:
		b = append(b, '<')
		b = appendIRI(b, t.Value)
		b = append(b, '>')
	case BlankKind:
		b = append(b, "_:"...)
		b = append(b, WritableBlankLabel(t.Value)...)
	case LiteralKind:
		b = append(b, '"')
		b = appendLiteralBody(b, t.Value)
		b = append(b, '"')
		switch {
		case t.Lang != "":
			b = append(b, '@')
			if canonical {
				b = append(b, foldLang(t.Lang)...)
			} else {
				b = append(b, t.Lang...)
			}
			if t.Dir != "" {
				b = append(b, "--"...)
				b = append(b, t.Dir...)
			}
		case t.Datatype != "" && t.Datatype != XSDString:
			b = append(b, "^^<"...)
			b = appendIRI(b, t.Datatype)
			b = append(b, '>')
		}
	case TripleKind:
		b = append(b, "<<( "...)
		b = append(b, t.Value...)
		b = append(b, " )>>"...)
	}
	return b
}

// AppendQuad writes q as one canonical N-Quads statement ("s p o [g] .")
// without a line break (see AppendTerm).
func AppendQuad(w writer, q Quad) { appendQuad(w, q, true) }

// AppendQuadAsWritten is AppendQuad with language tags as written (see
// AppendTermAsWritten).
func AppendQuadAsWritten(w writer, q Quad) { appendQuad(w, q, false) }

// appendQuad writes q through appendQuadTo, as appendTerm writes a term.
func appendQuad(w writer, q Quad, canonical bool) {
	switch w := w.(type) {
	case *bufio.Writer:
		w.Write(appendQuadTo(w.AvailableBuffer(), q, canonical))
	case *strings.Builder:
		var a [512]byte
		w.Write(appendQuadTo(a[:0], q, canonical))
	default:
		w.WriteString(string(appendQuadTo(nil, q, canonical)))
	}
}

// AppendQuadLine appends q to b as one N-Quads statement and a line feed,
// in canonical form (AppendQuad) or, when not canonical, with language tags
// as written (AppendQuadAsWritten).
func AppendQuadLine(b []byte, q Quad, canonical bool) []byte {
	return append(appendQuadTo(b, q, canonical), '\n')
}

func appendQuadTo(b []byte, q Quad, canonical bool) []byte {
	b = appendTermTo(b, q.S, canonical)
	b = append(b, ' ')
	b = appendTermTo(b, q.P, canonical)
	b = append(b, ' ')
	b = appendTermTo(b, q.O, canonical)
	if !q.G.IsZero() {
		b = append(b, ' ')
		b = appendTermTo(b, q.G, canonical)
	}
	return append(b, " ."...)
}

// appendIRI writes an IRI, escaping as \u00XX the characters an IRIREF may
// not contain, so that even an invalid IRI kept from messy input gives
// parseable output.
func appendIRI(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		// IRIs read without escapes need none: skip to the first byte
		// that IRIREF does not allow.
		i += grammar.Span(s[i:], grammar.IRI)
		if i == len(s) {
			break
		}
		c := s[i]
		b = append(b, s[start:i]...)
		b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		start = i + 1
	}
	return append(b, s[start:]...)
}

// litPlain is 1 for the bytes appendLiteralBody copies as they are: all
// but controls, '"', '\\', U+007F and 0xEF (which starts U+FFFE and U+FFFF).
var litPlain = func() (t [256]uint8) {
	for c := 0x20; c < 256; c++ {
		t[c] = 1
	}
	for _, c := range []byte{'"', '\\', 0x7f, 0xef} {
		t[c] = 0
	}
	return t
}()

// plainSpan returns the length of the prefix of s that litPlain marks,
// testing eight bytes per step.
func plainSpan(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		if litPlain[w[0]]&litPlain[w[1]]&litPlain[w[2]]&litPlain[w[3]]&
			litPlain[w[4]]&litPlain[w[5]]&litPlain[w[6]]&litPlain[w[7]] == 0 {
			break
		}
	}
	for i < len(s) && litPlain[s[i]] != 0 {
		i++
	}
	return i
}

func appendLiteralBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		i += plainSpan(s[i:])
		if i == len(s) {
			break
		}
		c := s[i]
		if c == 0xef {
			// U+FFFE and U+FFFF (EF BF BE, EF BF BF) are escaped too.
			if i+2 >= len(s) || s[i+1] != 0xbf || s[i+2] != 0xbe && s[i+2] != 0xbf {
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, `\uFFF`...)
			b = append(b, hexDigits[s[i+2]-0xbe+14])
			i += 2
			start = i + 1
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

// ValidUTF8 reports whether s is valid UTF-8; readers use it to reject or
// repair input before it becomes a term.
func ValidUTF8(s string) bool { return utf8.ValidString(s) }

// QuoteLiteral returns the lexical form s as a quoted N-Triples string.
func QuoteLiteral(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = appendLiteralBody(b, s)
	return string(append(b, '"'))
}
