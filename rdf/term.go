// Package rdf is isolda's RDF data model: terms (RDF 1.1 terms plus the
// directional language strings and triple terms of RDF 1.2), quads and
// datasets with interned terms and deterministic, sorted iteration.
//
// Terms are small comparable values, so they can be map keys and compared
// with ==, except that language tags are compared case-insensitively (BCP 47,
// as RDF 1.1 requires): use Term.Equal or Term.Key when a literal may carry a
// language tag written in different cases.
package rdf

import (
	"strings"
)

// Well-known IRIs.
const (
	XSD              = "http://www.w3.org/2001/XMLSchema#"
	RDFNS            = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	RDFSNS           = "http://www.w3.org/2000/01/rdf-schema#"
	XSDString        = XSD + "string"
	XSDInteger       = XSD + "integer"
	XSDDecimal       = XSD + "decimal"
	XSDDouble        = XSD + "double"
	XSDBoolean       = XSD + "boolean"
	RDFLangString    = RDFNS + "langString"
	RDFDirLangString = RDFNS + "dirLangString"
	RDFType          = RDFNS + "type"
	RDFFirst         = RDFNS + "first"
	RDFRest          = RDFNS + "rest"
	RDFNil           = RDFNS + "nil"
	RDFXMLLiteral    = RDFNS + "XMLLiteral"
	RDFJSON          = RDFNS + "JSON"
	RDFHTML          = RDFNS + "HTML"
)

// Kind says what sort of term a Term is. The zero Kind is None, which as a
// graph name means the default graph.
type Kind uint8

// The kinds of term, in the order Compare sorts them.
const (
	None Kind = iota // no term: the default graph in a quad's graph position
	IRIKind
	BlankKind
	LiteralKind
	// TripleKind is an RDF 1.2 triple term <<( s p o )>>; it sorts after
	// literals. Its Value is the triple in canonical N-Triples form (see
	// NewTripleTerm).
	TripleKind
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case IRIKind:
		return "IRI"
	case BlankKind:
		return "blank node"
	case LiteralKind:
		return "literal"
	case TripleKind:
		return "triple term"
	}
	return "invalid"
}

// Term is an RDF term: an IRI, a blank node, a literal or an RDF 1.2
// triple term.
//
// For an IRI, Value is the IRI. For a blank node, Value is its label without
// the "_:" prefix. For a literal, Value is the lexical form, Datatype its
// datatype IRI (always set: xsd:string for simple literals, rdf:langString
// for language-tagged ones) and Lang its language tag as written in the input.
// Dir is the base direction ("ltr" or "rtl") of an RDF 1.2 directional
// language-tagged string, and empty otherwise. For a triple term, Value is
// the triple in canonical N-Triples form "s p o" (see NewTripleTerm and
// Term.Triple) and the other fields are empty.
type Term struct {
	Kind     Kind
	Value    string
	Datatype string
	Lang     string
	Dir      string
}

// NewIRI returns the IRI term for iri.
func NewIRI(iri string) Term { return Term{Kind: IRIKind, Value: iri} }

// NewBlank returns the blank node with the given label (without "_:").
func NewBlank(label string) Term { return Term{Kind: BlankKind, Value: label} }

// NewLiteral returns a literal with a datatype; an empty datatype means
// xsd:string.
func NewLiteral(lexical, datatype string) Term {
	if datatype == "" {
		datatype = XSDString
	}
	return Term{Kind: LiteralKind, Value: lexical, Datatype: datatype}
}

// NewString returns the simple literal (xsd:string) with the given lexical form.
func NewString(lexical string) Term {
	return Term{Kind: LiteralKind, Value: lexical, Datatype: XSDString}
}

// NewLangString returns a language-tagged string; the tag is kept as written.
func NewLangString(lexical, lang string) Term {
	return Term{Kind: LiteralKind, Value: lexical, Datatype: RDFLangString, Lang: lang}
}

// IsIRI reports whether t is an IRI.
func (t Term) IsIRI() bool { return t.Kind == IRIKind }

// IsBlank reports whether t is a blank node.
func (t Term) IsBlank() bool { return t.Kind == BlankKind }

// IsLiteral reports whether t is a literal.
func (t Term) IsLiteral() bool { return t.Kind == LiteralKind }

// IsZero reports whether t is the zero Term (the default graph as a graph name).
func (t Term) IsZero() bool { return t.Kind == None }

// Key returns t with its language tag folded to lower case: two terms are
// the same RDF term exactly when their keys are ==. Use it for map keys.
// Tags are kept as written in terms and compared case-insensitively, as
// RDF 1.2 Concepts §3.3 allows; only canonical N-Triples (AppendTerm)
// writes them folded.
func (t Term) Key() Term {
	if t.Lang != "" {
		t.Lang = foldLang(t.Lang)
	}
	return t
}

// Equal reports whether t and u are the same RDF term (language tags compare
// case-insensitively).
func (t Term) Equal(u Term) bool {
	return t.Kind == u.Kind && t.Value == u.Value && t.Datatype == u.Datatype &&
		t.Dir == u.Dir && (t.Lang == u.Lang || strings.EqualFold(t.Lang, u.Lang))
}

// foldLang lower-cases an ASCII language tag without allocating when it is
// already lower case.
func foldLang(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// Compare orders terms: by kind (none < IRI < blank node < literal < triple
// term), then by value (for triple terms, their canonical form), datatype,
// language tag (case-folded, then as written) and direction, all bytewise.
// It is a total order consistent with Equal up to the case of language tags.
func Compare(a, b Term) int {
	if a.Kind != b.Kind {
		if a.Kind < b.Kind {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.Value, b.Value); c != 0 {
		return c
	}
	if c := strings.Compare(a.Datatype, b.Datatype); c != 0 {
		return c
	}
	if a.Lang != b.Lang {
		if c := strings.Compare(foldLang(a.Lang), foldLang(b.Lang)); c != 0 {
			return c
		}
		if c := strings.Compare(a.Lang, b.Lang); c != 0 {
			return c
		}
	}
	return strings.Compare(a.Dir, b.Dir)
}

// String returns t in N-Triples syntax, its language tag as written (the
// default graph prints as "").
func (t Term) String() string {
	var b strings.Builder
	AppendTermAsWritten(&b, t)
	return b.String()
}

// Triple is an RDF triple.
type Triple struct {
	S, P, O Term
}

// Quad is a triple in a graph; G is the zero Term for the default graph.
type Quad struct {
	S, P, O, G Term
}

// Triple returns the quad's triple.
func (q Quad) Triple() Triple { return Triple{q.S, q.P, q.O} }

// Key returns q with the language tag of its object folded (see Term.Key).
func (q Quad) Key() Quad {
	q.O = q.O.Key()
	return q
}

// Equal reports whether two quads are the same (see Term.Equal).
func (q Quad) Equal(r Quad) bool {
	return q.S.Equal(r.S) && q.P.Equal(r.P) && q.O.Equal(r.O) && q.G.Equal(r.G)
}

// CompareQuads orders quads by graph name, subject, predicate, object.
func CompareQuads(a, b Quad) int {
	if c := Compare(a.G, b.G); c != 0 {
		return c
	}
	if c := Compare(a.S, b.S); c != 0 {
		return c
	}
	if c := Compare(a.P, b.P); c != 0 {
		return c
	}
	return Compare(a.O, b.O)
}

// String returns the quad as one N-Quads line without the newline, its
// language tag as written.
func (q Quad) String() string {
	var b strings.Builder
	AppendQuadAsWritten(&b, q)
	return b.String()
}
