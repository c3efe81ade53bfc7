package rdf

import (
	"strings"

	"github.com/isolda/isolda/rdf/internal/grammar"
)

// Every reader (N-Triples, N-Quads, Turtle, TriG, RDF/XML, JSON-LD) follows
// one policy for what is wrong in its input, so that they agree on what
// they keep, and every writer writes what they keep in a form every reader
// reads back:
//
//   - A syntax error (text that does not match the grammar of its syntax,
//     invalid UTF-8, an escape for a lone UTF-16 surrogate, a limit) stops
//     the reader with a *ParseError.
//   - A term defect, where the text is grammatical but the term it gives is
//     not a valid RDF term, is kept with a warning (ReadOptions.Warn), or
//     stops the reader with Strict: an IRI that CheckIRI refuses (not
//     absolute, a second '#', or a character such as a space, '{' or '\'
//     that IRIs may not contain; Turtle and N-Triples can only write these
//     as \u escapes), a language tag that is not well-formed BCP 47
//     (CheckLangTag), a UTF-16 surrogate pair written as two \u escapes.
//   - A language tag that no RDF syntax can write (it does not match the
//     LANGTAG rule [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*, such as "en_US") is a
//     syntax error in Turtle and N-Triples, and makes JSON-LD and RDF/XML
//     drop the statement with a warning (an error with Strict), as the
//     JSON-LD to RDF algorithm does.
//
// JSON-LD alone drops statements with relative IRIs (with a warning), as
// its to-RDF algorithm requires. A reader may warn about a term that
// repeats only the first times it meets it (the N-Triples and Turtle
// readers check an IRI when it is not in their cache of recent strings).

// Defect handles a term defect found by a reader (see the policy above):
// with Strict it returns e, for the reader to stop with; otherwise it
// passes e to Warn and returns nil, and the reader keeps the term.
func (o *ReadOptions) Defect(e *ParseError) error {
	if o.Strict {
		return e
	}
	if o.Warn != nil {
		o.Warn(e)
	}
	return nil
}

// CheckLangTag returns why tag is not a well-formed BCP 47 language tag
// (RFC 5646 §2.2.9), or "" when it is. writable reports whether every RDF
// syntax can still write it: it matches the LANGTAG rule of Turtle and
// N-Triples, [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*, which sets no limit on the
// length of subtags (so "zh-classical" is writable but not well-formed).
// Case does not matter.
func CheckLangTag(tag string) (msg string, writable bool) {
	if !grammar.IsLangTag(tag) {
		return "language tag " + QuoteLiteral(tag) + " is not a language tag: RDF syntaxes allow letters, then groups of letters and digits after '-'", false
	}
	if !grammar.WellFormedLang(tag) {
		return "language tag " + QuoteLiteral(tag) + " is not well-formed BCP 47 (RFC 5646: subtags of at most 8 characters, in the order language, script, region, variants, extensions)", true
	}
	return "", true
}

// WritableBlankLabel returns the label (without "_:") under which writers
// write the blank node labelled label: label itself when it is a valid
// BLANK_NODE_LABEL of Turtle and N-Triples, else "x_" followed by the
// hexadecimal digits of its bytes. Labels that already start with "x_" are
// encoded too, so that the mapping is one-to-one and two blank nodes never
// share a written label. Labels are not data: any one-to-one renaming keeps
// a graph isomorphic.
func WritableBlankLabel(label string) string {
	if grammar.IsBlankLabel(label) && !strings.HasPrefix(label, "x_") {
		return label
	}
	b := make([]byte, 0, 2+2*len(label))
	b = append(b, "x_"...)
	for i := 0; i < len(label); i++ {
		b = append(b, "0123456789abcdef"[label[i]>>4], "0123456789abcdef"[label[i]&15])
	}
	return string(b)
}
