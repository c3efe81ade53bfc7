package rdf

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RDFReifies is rdf:reifies, the predicate that links a reifier to the
// triple term it reifies (RDF 1.2).
const RDFReifies = RDFNS + "reifies"

// NewTripleTerm returns the RDF 1.2 triple term <<( s p o )>>. Its Value is
// the triple in canonical N-Triples form ("s p o", each term written as
// AppendTerm writes it, nested triple terms as <<( ... )>>), so two triple
// terms are the same RDF term exactly when their Values are equal, and
// Term stays a small comparable value.
//
// NewTripleTerm does not check that s is an IRI or blank node, p an IRI and
// o not the zero Term; readers check positions before calling it, and
// Triple reports a Value that does not parse back.
func NewTripleTerm(s, p, o Term) Term {
	var b strings.Builder
	b.Grow(len(s.Value) + len(p.Value) + len(o.Value) + len(o.Datatype) + 16)
	AppendTerm(&b, s)
	b.WriteByte(' ')
	AppendTerm(&b, p)
	b.WriteByte(' ')
	AppendTerm(&b, o)
	return Term{Kind: TripleKind, Value: b.String()}
}

// IsTriple reports whether t is an RDF 1.2 triple term.
func (t Term) IsTriple() bool { return t.Kind == TripleKind }

// errNotTriple is returned by Triple for a term that is not a triple term.
var errNotTriple = errors.New("rdf: not a triple term")

// Triple returns the subject, predicate and object of the triple term t.
// It parses t.Value strictly as NewTripleTerm writes it and returns an
// error for any other term or a Value that is not in that canonical form.
func (t Term) Triple() (s, p, o Term, err error) {
	if t.Kind != TripleKind {
		return s, p, o, errNotTriple
	}
	tp := ttParser{src: t.Value}
	s, p, o, err = tp.triple(0)
	if err == nil && tp.pos != len(tp.src) {
		err = tp.fail("trailing text")
	}
	return s, p, o, err
}

// MaxTripleTermNesting is the deepest nesting of triple terms (a triple
// term directly holding a triple term counts 2) that the readers accept
// and Term.Triple parses: it bounds recursion and the quadratic size of
// deeply nested canonical values.
const MaxTripleTermNesting = 64

// ttParser parses the canonical form of a triple term's Value.
type ttParser struct {
	src string
	pos int
}

func (p *ttParser) fail(msg string) error {
	return errors.New("rdf: malformed triple term value at byte " + strconv.Itoa(p.pos) + ": " + msg)
}

// triple parses "s p o" from p.pos.
func (p *ttParser) triple(depth int) (s, pr, o Term, err error) {
	if depth >= MaxTripleTermNesting {
		return s, pr, o, p.fail("nested too deep")
	}
	if s, err = p.term(depth); err != nil {
		return
	}
	if s.Kind != IRIKind && s.Kind != BlankKind {
		return s, pr, o, p.fail("the subject must be an IRI or a blank node")
	}
	if err = p.space(); err != nil {
		return
	}
	if pr, err = p.term(depth); err != nil {
		return
	}
	if pr.Kind != IRIKind {
		return s, pr, o, p.fail("the predicate must be an IRI")
	}
	if err = p.space(); err != nil {
		return
	}
	o, err = p.term(depth)
	return
}

func (p *ttParser) space() error {
	if p.pos >= len(p.src) || p.src[p.pos] != ' ' {
		return p.fail("expected a space")
	}
	p.pos++
	return nil
}

// term parses one term at p.pos.
func (p *ttParser) term(depth int) (Term, error) {
	if p.pos >= len(p.src) {
		return Term{}, p.fail("expected a term")
	}
	switch p.src[p.pos] {
	case '<':
		if strings.HasPrefix(p.src[p.pos:], "<<( ") {
			p.pos += 4
			s, pr, o, err := p.triple(depth + 1)
			if err != nil {
				return Term{}, err
			}
			if !strings.HasPrefix(p.src[p.pos:], " )>>") {
				return Term{}, p.fail("expected ' )>>'")
			}
			p.pos += 4
			return NewTripleTerm(s, pr, o), nil
		}
		v, err := p.iri()
		return Term{Kind: IRIKind, Value: v}, err
	case '_':
		if !strings.HasPrefix(p.src[p.pos:], "_:") {
			return Term{}, p.fail("expected '_:'")
		}
		start := p.pos + 2
		end := start
		for end < len(p.src) && p.src[end] != ' ' {
			end++
		}
		if end == start {
			return Term{}, p.fail("empty blank node label")
		}
		p.pos = end
		return Term{Kind: BlankKind, Value: p.src[start:end]}, nil
	case '"':
		return p.literal()
	}
	return Term{}, p.fail("expected a term")
}

// iri parses <...> with the \u00XX escapes appendIRI writes.
func (p *ttParser) iri() (string, error) {
	start := p.pos + 1
	end := strings.IndexByte(p.src[start:], '>')
	if end < 0 {
		return "", p.fail("unterminated IRI")
	}
	v := p.src[start : start+end]
	p.pos = start + end + 1
	if strings.IndexByte(v, '\\') < 0 {
		return v, nil
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			b.WriteByte(v[i])
			continue
		}
		c, n, ok := unescapeU(v[i:])
		if !ok {
			return "", p.fail("bad escape in IRI")
		}
		b.WriteRune(c)
		i += n - 1
	}
	return b.String(), nil
}

// unescapeU decodes a \uXXXX escape at the start of s.
func unescapeU(s string) (rune, int, bool) {
	if len(s) < 6 || s[1] != 'u' {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[2:6], 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		return 0, 0, false
	}
	return rune(v), 6, true
}

// literal parses a quoted literal with an optional language tag (and base
// direction) or datatype.
func (p *ttParser) literal() (Term, error) {
	i := p.pos + 1
	var b strings.Builder
	plain := true
	start := i
	for {
		if i >= len(p.src) {
			return Term{}, p.fail("unterminated literal")
		}
		c := p.src[i]
		if c == '"' {
			break
		}
		if c != '\\' {
			if !plain {
				b.WriteByte(c)
			}
			i++
			continue
		}
		if plain {
			b.WriteString(p.src[start:i])
			plain = false
		}
		if i+1 >= len(p.src) {
			return Term{}, p.fail("bad escape in literal")
		}
		switch p.src[i+1] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"':
			b.WriteByte('"')
		case '\\':
			b.WriteByte('\\')
		case 'u':
			r, n, ok := unescapeU(p.src[i:])
			if !ok {
				return Term{}, p.fail("bad escape in literal")
			}
			b.WriteRune(r)
			i += n
			continue
		default:
			return Term{}, p.fail("bad escape in literal")
		}
		i += 2
	}
	t := Term{Kind: LiteralKind, Datatype: XSDString}
	if plain {
		t.Value = p.src[start:i]
	} else {
		t.Value = b.String()
	}
	p.pos = i + 1
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "@"):
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		tag := rest[1:end]
		t.Datatype = RDFLangString
		if k := strings.Index(tag, "--"); k >= 0 {
			t.Dir = tag[k+2:]
			tag = tag[:k]
			t.Datatype = RDFDirLangString
			if t.Dir != "ltr" && t.Dir != "rtl" {
				return Term{}, p.fail("bad base direction")
			}
		}
		if tag == "" {
			return Term{}, p.fail("empty language tag")
		}
		t.Lang = tag
		p.pos += end
	case strings.HasPrefix(rest, "^^<"):
		p.pos += 2
		dt, err := p.iri()
		if err != nil {
			return Term{}, err
		}
		t.Datatype = dt
	}
	return t, nil
}

// HasBlank reports whether t is a blank node or a triple term with a blank
// node inside (at any depth).
func HasBlank(t Term) bool {
	switch t.Kind {
	case BlankKind:
		return true
	case TripleKind:
		if !strings.Contains(t.Value, "_:") {
			return false
		}
		s, _, o, err := t.Triple()
		return err == nil && (s.Kind == BlankKind || HasBlank(o))
	}
	return false
}

// MapBlanks returns t with every blank node b, including those inside
// triple terms at any depth, replaced by f(b). Other terms are returned
// unchanged. Parsers use it to scope blank node labels per document, and
// everything that relabels blank nodes must use it (or look inside triple
// terms itself), since the blank nodes of a triple term are the same as
// those outside it.
func MapBlanks(t Term, f func(Term) Term) Term {
	switch t.Kind {
	case BlankKind:
		return f(t)
	case TripleKind:
		if !HasBlank(t) {
			return t
		}
		s, p, o, err := t.Triple()
		if err != nil {
			return t
		}
		return NewTripleTerm(MapBlanks(s, f), p, MapBlanks(o, f))
	}
	return t
}

// EachBlank calls f for every blank node in t: t itself, or the blank nodes
// inside a triple term (subject first, then the object's, depth first).
func EachBlank(t Term, f func(Term)) {
	switch t.Kind {
	case BlankKind:
		f(t)
	case TripleKind:
		if !strings.Contains(t.Value, "_:") {
			return
		}
		s, _, o, err := t.Triple()
		if err != nil {
			return
		}
		EachBlank(s, f)
		EachBlank(o, f)
	}
}
