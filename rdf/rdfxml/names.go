package rdfxml

import (
	"encoding/xml"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/grammar"
)

// Namespaces the reader and writer know about.
const (
	xmlNS = "http://www.w3.org/XML/1998/namespace"
	itsNS = "http://www.w3.org/2005/11/its"
)

// Local names in the RDF namespace with a syntactic role.
const (
	nameRDF             = "RDF"
	nameID              = "ID"
	nameAbout           = "about"
	nameParseType       = "parseType"
	nameResource        = "resource"
	nameNodeID          = "nodeID"
	nameDatatype        = "datatype"
	nameDescription     = "Description"
	nameLi              = "li"
	nameAboutEach       = "aboutEach"
	nameAboutEachPrefix = "aboutEachPrefix"
	nameBagID           = "bagID"
	nameType            = "type"
	nameVersion         = "version"
	nameAnnotation      = "annotation"
	nameAnnotationNode  = "annotationNodeID"
)

// isCoreSyntaxTerm reports whether local (in the RDF namespace) is one of the
// coreSyntaxTerms of RDF/XML §7.2.2.
func isCoreSyntaxTerm(local string) bool {
	switch local {
	case nameRDF, nameID, nameAbout, nameParseType, nameResource, nameNodeID, nameDatatype:
		return true
	}
	return false
}

// isOldTerm reports whether local (in the RDF namespace) is one of the
// removed oldTerms of RDF/XML §7.2.6.
func isOldTerm(local string) bool {
	return local == nameAboutEach || local == nameAboutEachPrefix || local == nameBagID
}

// isNCName reports whether s is an XML NCName (a Name without colons), as
// rdf:ID and rdf:nodeID values must be.
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return false
			}
		}
		if i == 0 {
			if !isNameStartChar(r) {
				return false
			}
		} else if !isNameChar(r) {
			return false
		}
	}
	return true
}

// isNameStartChar implements NameStartChar of XML 1.0 (fifth edition),
// without the colon: Turtle's PN_CHARS_U, which was taken from it.
func isNameStartChar(r rune) bool { return grammar.IsPNCharsU(r) }

// isNameChar implements NameChar of XML 1.0 (fifth edition), without the
// colon: Turtle's PN_CHARS and '.'.
func isNameChar(r rune) bool { return r == '.' || grammar.IsPNChars(r) }

// splitIRI splits an IRI into a namespace and a local name that is a
// non-empty NCName that encoding/xml accepts (see xmlNames), taking the
// longest such local name. It reports false when the IRI does not end in
// one.
func splitIRI(iri string, names *xmlNames) (ns, local string, ok bool) {
	// Walk back over name characters, remembering the leftmost position at
	// which a name start character begins a valid NCName.
	start := -1
	i := len(iri)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(iri[:i])
		if r == utf8.RuneError && size <= 1 || !isNameChar(r) || !names.accepts(r, false) {
			break
		}
		i -= size
		if isNameStartChar(r) && names.accepts(r, true) {
			start = i
		}
	}
	if start < 0 {
		return "", "", false
	}
	return iri[:start], iri[start:], true
}

// xmlNames says which characters encoding/xml, which the reader uses,
// accepts in element names: it checks them against the character tables of
// XML 1.0 before its fifth edition (appendix B), which refuse characters
// the fifth edition allows, such as U+3400 or U+1F600. The tables are not
// exported, so each character is tried once on a decoder; answers are
// cached.
type xmlNames struct {
	first, next map[rune]bool
}

func newXMLNames() *xmlNames { return &xmlNames{first: map[rune]bool{}, next: map[rune]bool{}} }

// accepts reports whether encoding/xml accepts r as the first character of
// a name (first) or as a later one.
func (x *xmlNames) accepts(r rune, first bool) bool {
	cache, name := x.next, "a"+string(r)
	if first {
		cache, name = x.first, string(r)
	}
	ok, known := cache[r]
	if !known {
		tok, err := xml.NewDecoder(strings.NewReader("<" + name + "/>")).RawToken()
		se, isStart := tok.(xml.StartElement)
		ok = err == nil && isStart && se.Name.Space == "" && se.Name.Local == name
		cache[r] = ok
	}
	return ok
}

// isRDF reports whether the namespace URI and local name denote rdf:local.
func isRDF(ns, local, want string) bool { return ns == rdf.RDFNS && local == want }
