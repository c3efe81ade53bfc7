package rdf

import (
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

func appendTerm(w writer, t Term, canonical bool) {
	switch t.Kind {
	case IRIKind:
		w.WriteByte('<')
		appendIRI(w, t.Value)
		w.WriteByte('>')
	case BlankKind:
		w.WriteString("_:")
		w.WriteString(WritableBlankLabel(t.Value))
	case LiteralKind:
		w.WriteByte('"')
		appendLiteralBody(w, t.Value)
		w.WriteByte('"')
		switch {
		case t.Lang != "":
			w.WriteByte('@')
			if canonical {
				w.WriteString(foldLang(t.Lang))
			} else {
				w.WriteString(t.Lang)
			}
			if t.Dir != "" {
				w.WriteString("--")
				w.WriteString(t.Dir)
			}
		case t.Datatype != "" && t.Datatype != XSDString:
			w.WriteString("^^<")
			appendIRI(w, t.Datatype)
			w.WriteByte('>')
		}
	case TripleKind:
		w.WriteString("<<( ")
		w.WriteString(t.Value)
		w.WriteString(" )>>")
	}
}

// AppendQuad writes q as one canonical N-Quads statement ("s p o [g] .")
// without a line break (see AppendTerm).
func AppendQuad(w writer, q Quad) { appendQuad(w, q, true) }

// AppendQuadAsWritten is AppendQuad with language tags as written (see
// AppendTermAsWritten).
func AppendQuadAsWritten(w writer, q Quad) { appendQuad(w, q, false) }

func appendQuad(w writer, q Quad, canonical bool) {
	appendTerm(w, q.S, canonical)
	w.WriteByte(' ')
	appendTerm(w, q.P, canonical)
	w.WriteByte(' ')
	appendTerm(w, q.O, canonical)
	if !q.G.IsZero() {
		w.WriteByte(' ')
		appendTerm(w, q.G, canonical)
	}
	w.WriteString(" .")
}

// appendIRI writes an IRI, escaping as \u00XX the characters an IRIREF may
// not contain, so that even an invalid IRI kept from messy input gives
// parseable output.
func appendIRI(w writer, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		// IRIs read without escapes need none: skip to the first byte
		// that IRIREF does not allow.
		i += grammar.Span(s[i:], grammar.IRI)
		if i == len(s) {
			break
		}
		c := s[i]
		w.WriteString(s[start:i])
		w.WriteString(`\u00`)
		w.WriteByte(hexDigits[c>>4])
		w.WriteByte(hexDigits[c&15])
		start = i + 1
	}
	w.WriteString(s[start:])
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

func appendLiteralBody(w writer, s string) {
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
			w.WriteString(s[start:i])
			w.WriteString(`\uFFF`)
			w.WriteByte(hexDigits[s[i+2]-0xbe+14])
			i += 2
			start = i + 1
			continue
		}
		w.WriteString(s[start:i])
		switch c {
		case '"':
			w.WriteString(`\"`)
		case '\\':
			w.WriteString(`\\`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\t':
			w.WriteString(`\t`)
		case '\b':
			w.WriteString(`\b`)
		case '\f':
			w.WriteString(`\f`)
		default:
			w.WriteString(`\u00`)
			w.WriteByte(hexDigits[c>>4])
			w.WriteByte(hexDigits[c&15])
		}
		start = i + 1
	}
	w.WriteString(s[start:])
}

// ValidUTF8 reports whether s is valid UTF-8; readers use it to reject or
// repair input before it becomes a term.
func ValidUTF8(s string) bool { return utf8.ValidString(s) }

// QuoteLiteral returns the lexical form s as a quoted N-Triples string.
func QuoteLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	appendLiteralBody(&b, s)
	b.WriteByte('"')
	return b.String()
}
