// Package turtle reads and writes Turtle and TriG: 1.1, and 1.2 with triple
// terms <<( s p o )>>, reified triples << s p o ~ r >>, reifiers and
// annotations {| ... |} (read as rdf:reifies statements) and VERSION.
//
// The reader is a hand-written scanner and recursive-descent parser that
// streams quads to an rdf.Sink as soon as each is complete; the writer
// prints a Dataset deterministically with prefixes, grouping, inline blank
// nodes and collections.
package turtle

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/grammar"
)

// Syntax selects Turtle or TriG.
type Syntax int

// The syntaxes this package reads and writes.
const (
	Turtle Syntax = iota
	TriG
)

// String names the syntax.
func (s Syntax) String() string {
	if s == TriG {
		return "TriG"
	}
	return "Turtle"
}

// genPrefix starts the labels of generated blank nodes ("genid" followed by
// digits). Document labels that start with it are renamed to "genidx"+label,
// so the two never collide.
const genPrefix = "genid"

var (
	rdfType  = rdf.NewIRI(rdf.RDFType)
	rdfFirst = rdf.NewIRI(rdf.RDFFirst)
	rdfRest  = rdf.NewIRI(rdf.RDFRest)
	rdfNil   = rdf.NewIRI(rdf.RDFNil)
	// rdfReifies links reifiers to triple terms (RDF 1.2).
	rdfReifies = rdf.NewIRI(rdf.RDFReifies)
)

// Parse reads a Turtle or TriG document from r and sends its quads to sink
// as soon as each is complete. Prefix declarations go to sink too when it
// implements rdf.PrefixSink. Relative IRIs are resolved against opts.Base
// (changed by @base / BASE). Errors in the input are *rdf.ParseError with
// the line and column; those caused by opts.Limits wrap rdf.ErrLimit (test
// with errors.Is). An error returned by the sink stops the parse and is
// returned as is.
func Parse(r io.Reader, syntax Syntax, sink rdf.Sink, opts rdf.ReadOptions) (err error) {
	p := &parser{
		syntax:    syntax,
		sink:      sink,
		base:      opts.Base,
		prefixes:  map[string]string{},
		opts:      opts,
		transient: opts.Transient,
	}
	p.psink, _ = sink.(rdf.PrefixSink)
	limits := opts.Limits.WithDefaults()
	p.scanner.init(r, opts.File, limits)
	p.maxDepth = limits.MaxDepth
	p.maxQuads = limits.MaxQuads
	p.maxTerm = limits.MaxTermLength
	defer func() {
		if e := recover(); e != nil {
			b, ok := e.(bailout)
			if !ok {
				panic(e)
			}
			err = b.err
		}
	}()
	p.document()
	return nil
}

type parser struct {
	scanner
	syntax   Syntax
	sink     rdf.Sink
	psink    rdf.PrefixSink
	opts     rdf.ReadOptions
	base     string
	prefixes map[string]string
	graph    rdf.Term

	depth    int
	maxDepth int
	nquads   int64
	maxQuads int64
	maxTerm  int
	bnodes   int64
	ttDepth  int // nesting of triple terms <<( )>>

	sb      []byte           // scratch for the term being read
	num     []byte           // scratch for generated labels
	cache   grammar.Interner // language tags
	iris    grammar.Interner // IRIs, apart: a fresh one is checked
	escaped bool             // an escape in the IRI being read gave a character IRIs may not contain

	// With ReadOptions.Transient, IRIs and string literals are views of
	// arena, reused from the start of each statement: a term lives no
	// longer than the statement it is read in.
	transient bool
	arena     []byte
}

// arenaSize is the size of the arena of ReadOptions.Transient; a statement
// with more text takes further arenas, and a longer term its own string.
const arenaSize = 64 << 10

// str returns b as a string: a copy in the arena with ReadOptions.Transient,
// else a new string.
func (p *parser) str(b []byte) string {
	if !p.transient || len(b) > arenaSize/4 {
		return string(b)
	}
	if len(p.arena)+len(b) > cap(p.arena) {
		p.arena = make([]byte, 0, arenaSize) // the old one lives on in the statement's terms
	}
	n := len(p.arena)
	p.arena = append(p.arena, b...)
	return grammar.View(p.arena[n:])
}

// intern returns string(b), reusing the string for repeated IRIs and tags.
func (p *parser) intern(b []byte) string { return p.cache.Intern(b) }

func (p *parser) emit(s, pr, o rdf.Term) {
	p.nquads++
	if p.maxQuads >= 0 && p.nquads > p.maxQuads {
		p.limitf(p.pos, "more than %d quads", p.maxQuads)
	}
	if err := p.sink.AddQuad(rdf.Quad{S: s, P: pr, O: o, G: p.graph}); err != nil {
		panic(bailout{err})
	}
}

func (p *parser) fresh() rdf.Term {
	p.num = append(p.num[:0], genPrefix...)
	p.num = strconv.AppendInt(p.num, p.bnodes, 10)
	p.bnodes++
	return rdf.NewBlank(string(p.num))
}

func (p *parser) enter() {
	p.depth++
	if p.maxDepth >= 0 && p.depth > p.maxDepth {
		p.limitf(p.pos, "nesting deeper than %d", p.maxDepth)
	}
}

func (p *parser) document() {
	if p.peek(0) == 0xEF && p.peek(1) == 0xBB && p.peek(2) == 0xBF {
		p.pos += 3 // a byte order mark
		p.lineStart = p.pos
	}
	for {
		p.ws()
		if p.cur() == eof {
			return
		}
		p.arena = p.arena[:0] // the terms of the statements before are gone
		p.statement()
	}
}

// expect consumes the byte c (after white space) or fails.
func (p *parser) expect(c byte, what string) {
	p.ws()
	if p.cur() != int(c) {
		p.expected(what)
	}
	p.pos++
}

// keyword reports whether the word kw (case-insensitive when fold) is at pos,
// not followed by a name character; it does not consume it.
func (p *parser) keyword(kw string, fold bool) bool {
	for i := 0; i < len(kw); i++ {
		c := p.peek(i)
		if c == eof {
			return false
		}
		b := byte(c)
		if fold && b >= 'a' && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b != kw[i] {
			return false
		}
	}
	return p.wordEnds(len(kw))
}

// directives returns Turtle's directives: the word after '@', the same
// word in its SPARQL form, and what is expected after the @ form.
func directives() [3]struct{ word, sparql, dot string } {
	return [...]struct{ word, sparql, dot string }{
		{"prefix", "PREFIX", `"." after @prefix`},
		{"base", "BASE", `"." after @base`},
		{"version", "VERSION", `"." after @version`},
	}
}

// directive reads the rest of the directive word (one of directives).
func (p *parser) directive(word string) {
	switch word {
	case "prefix":
		p.prefixDecl()
	case "base":
		p.baseDecl()
	default:
		p.versionDecl()
	}
}

func (p *parser) statement() {
	c := p.cur()
	switch {
	case c == '@':
		for _, d := range directives() {
			if p.atKeywordAt(1, d.word) {
				p.pos += 1 + len(d.word)
				p.directive(d.word)
				p.expect('.', d.dot)
				return
			}
		}
		p.expected("@prefix or @base")
		return
	case c == 'P' || c == 'p' || c == 'B' || c == 'b' || c == 'V' || c == 'v':
		// The SPARQL forms: the word in any case, no "." after.
		for _, d := range directives() {
			if p.keyword(d.sparql, true) {
				p.pos += len(d.sparql)
				p.directive(d.word)
				return
			}
		}
	case c == 'G' || c == 'g':
		if p.syntax == TriG && p.keyword("GRAPH", true) {
			p.pos += 5
			p.ws()
			g := p.graphLabel()
			p.ws()
			if p.cur() != '{' {
				p.expected(`"{" after the graph name`)
			}
			p.wrappedGraph(g)
			return
		}
	}
	if p.syntax == TriG {
		p.trigBlock()
		return
	}
	p.triples()
	p.expect('.', endOfTriples)
}

// keywordAt is keyword for a case-sensitive word k bytes ahead.
func (p *parser) keywordAt(k int, kw string) bool {
	for i := 0; i < len(kw); i++ {
		if p.peek(k+i) != int(kw[i]) {
			return false
		}
	}
	return p.wordEnds(k + len(kw))
}

// wordEnds reports whether no name character continues a word at k bytes
// ahead (a '.' continues it only when a name character follows the dots).
func (p *parser) wordEnds(k int) bool {
	r, _ := p.peekRune(k)
	for r == '.' {
		k++
		r, _ = p.peekRune(k)
	}
	return r == eof || !(grammar.IsPNChars(r) || r == ':')
}

// atKeywordAt reports whether the @-keyword kw is k bytes ahead, not
// continued as a language tag.
func (p *parser) atKeywordAt(k int, kw string) bool {
	for i := 0; i < len(kw); i++ {
		if p.peek(k+i) != int(kw[i]) {
			return false
		}
	}
	c := p.peek(k + len(kw))
	return !(isAlnumInt(c) || c == '-')
}

func (p *parser) prefixDecl() {
	p.ws()
	var name string
	if p.cur() == ':' {
		p.pos++
	} else {
		r, _ := p.peekRune(0)
		if !grammar.IsPNCharsBase(r) {
			p.expected("a prefix name")
		}
		p.prefixName()
		name = string(p.buf[p.mark:p.pos])
		if p.cur() != ':' {
			p.errorf(p.mark, `expected ":" after prefix name %q, found %s`, name, p.found())
		}
		p.pos++
	}
	p.ws()
	if p.cur() != '<' {
		p.expected("an IRI in angle brackets")
	}
	iri := strings.Clone(p.iriRef()) // kept after the statement
	p.prefixes[name] = iri
	if p.psink != nil {
		p.psink.AddPrefix(name, iri)
	}
}

func (p *parser) baseDecl() {
	p.ws()
	if p.cur() != '<' {
		p.expected("an IRI in angle brackets")
	}
	p.base = strings.Clone(p.iriRef()) // kept after the statement
}

func (p *parser) versionDecl() {
	p.ws()
	if c := p.cur(); c != '"' && c != '\'' {
		p.expected("a version string")
	}
	if p.peek(1) == p.cur() && p.peek(2) == p.cur() {
		p.expected("a single-quoted version string")
	}
	p.stringLit()
}

// trigBlock parses a TriG block that does not start with GRAPH.
func (p *parser) trigBlock() {
	switch p.cur() {
	case '{':
		p.wrappedGraph(rdf.Term{})
		return
	case '[':
		// "[]" may name a graph; "[ ... ]" starts triples.
		s, anon := p.bracketed()
		if anon {
			p.graphOrTriples(s)
			return
		}
		if p.cur() != '.' {
			p.predicateObjectList(s)
		}
		p.expect('.', endOfTriples)
		return
	case '(':
		p.triples()
		p.expect('.', endOfTriples)
		return
	case '<':
		if p.peek(1) == '<' {
			p.triples()
			p.expect('.', endOfTriples)
			return
		}
	}
	p.graphOrTriples(p.subject())
}

// endOfTriples is what is expected at the end of triples.
const endOfTriples = `"." at the end of the triples`

// graphOrTriples parses what follows the term s in a TriG block: a wrapped
// graph named s, or the rest of triples with subject s.
func (p *parser) graphOrTriples(s rdf.Term) {
	p.ws()
	if p.cur() == '{' {
		p.wrappedGraph(s)
		return
	}
	p.predicateObjectList(s)
	p.expect('.', endOfTriples)
}

// graphLabel parses labelOrSubject: an IRI or a blank node.
func (p *parser) graphLabel() rdf.Term {
	switch c := p.cur(); {
	case c == '[':
		return p.anon(`"]" (a graph name may be [] but not a property list)`)
	case c == '_':
		return p.blankLabel()
	case c == '<':
		return rdf.NewIRI(p.iriRef())
	}
	if t, ok := p.pname(); ok {
		return t
	}
	p.expected("a graph name")
	return rdf.Term{}
}

// wrappedGraph parses '{' triplesBlock? '}' with graph name g.
func (p *parser) wrappedGraph(g rdf.Term) {
	p.pos++ // '{'
	p.graph = g
	for {
		p.ws()
		if p.cur() == '}' {
			p.pos++
			break
		}
		p.triples()
		p.ws()
		if p.cur() == '.' {
			p.pos++
			continue
		}
		if p.cur() != '}' {
			p.expected(`"." or "}"`)
		}
	}
	p.graph = rdf.Term{}
}

// bracketed parses the '[' at pos as a subject: "[]", a fresh blank node
// (anon), or a blankNodePropertyList and the white space after it.
func (p *parser) bracketed() (s rdf.Term, anon bool) {
	p.pos++
	p.ws()
	if p.cur() == ']' {
		p.pos++
		return p.fresh(), true
	}
	s = p.bnodePropertyListRest()
	p.ws()
	return s, false
}

// triples parses subject predicateObjectList | blankNodePropertyList
// predicateObjectList?.
func (p *parser) triples() {
	p.ws()
	if p.cur() == '[' {
		s, anon := p.bracketed()
		if anon {
			p.predicateObjectList(s)
			return
		}
		if c := p.cur(); c != '.' && c != '}' && c != eof {
			p.predicateObjectList(s)
		}
		return
	}
	if p.cur() == '<' && p.peek(1) == '<' {
		s := p.reifiedTriple()
		p.ws()
		if c := p.cur(); c != '.' && c != '}' && c != eof {
			p.predicateObjectList(s)
		}
		return
	}
	s := p.subject()
	p.predicateObjectList(s)
}

func (p *parser) subject() rdf.Term {
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) == '<':
		p.expected("a subject (a triple term <<( ... )>> may only be an object)")
	case c == '[':
		return p.anon(`"]"`)
	}
	if t, ok := p.node(); ok {
		return t
	}
	p.expected("a subject")
	return rdf.Term{}
}

// node parses what may start a subject and an object alike: an IRI, a
// labelled blank node, a collection or a prefixed name; ok is false when
// none stands at pos (a "<<" is the caller's to handle first).
func (p *parser) node() (rdf.Term, bool) {
	switch p.cur() {
	case '<':
		return rdf.NewIRI(p.iriRef()), true
	case '_':
		return p.blankLabel(), true
	case '(':
		return p.collection(), true
	}
	return p.pname()
}

func (p *parser) predicateObjectList(s rdf.Term) {
	p.verbObjectList(s)
	for {
		p.ws()
		if p.cur() != ';' {
			return
		}
		for p.cur() == ';' {
			p.pos++
			p.ws()
		}
		switch p.cur() {
		case '.', ']', '}', eof:
			return
		case '|':
			if p.peek(1) == '}' {
				return // the end of an annotation block
			}
		}
		p.verbObjectList(s)
	}
}

func (p *parser) verbObjectList(s rdf.Term) {
	pred := p.verb()
	for {
		o := p.object()
		p.emit(s, pred, o)
		p.ws()
		if c := p.cur(); c == '~' || c == '{' && p.peek(1) == '|' {
			p.annotation(s, pred, o)
			p.ws()
		}
		if p.cur() != ',' {
			return
		}
		p.pos++
	}
}

// verb parses a predicate: an IRI or "a".
func (p *parser) verb() rdf.Term {
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) != '<':
		return rdf.NewIRI(p.iriRef())
	case c == 'a' && p.keywordAt(0, "a"):
		p.pos++
		return rdfType
	}
	t, ok := p.pname()
	if !ok {
		p.expected("a predicate")
	}
	return t
}

// annotation parses (reifier | annotationBlock)* after the object of the
// triple s pr o. Each reifier r adds "r rdf:reifies <<( s pr o )>>"; an
// annotation block describes the reifier just before it, or else a fresh
// blank node that reifies the triple.
func (p *parser) annotation(s, pr, o rdf.Term) {
	var tt rdf.Term
	triple := func() rdf.Term {
		if tt.Kind == rdf.None {
			tt = p.tripleTermOf(s, pr, o)
		}
		return tt
	}
	var pending rdf.Term // a reifier not yet described by a block
	for {
		p.ws()
		switch {
		case p.cur() == '~':
			p.pos++
			r := p.reifierRest()
			p.emit(r, rdfReifies, triple())
			pending = r
		case p.cur() == '{' && p.peek(1) == '|':
			p.pos += 2
			r := pending
			if r.Kind == rdf.None {
				r = p.fresh()
				p.emit(r, rdfReifies, triple())
			}
			pending = rdf.Term{}
			p.enter()
			p.ws()
			if p.cur() == '|' && p.peek(1) == '}' {
				p.expected("a predicate in the annotation block")
			}
			p.predicateObjectList(r)
			p.ws()
			if p.cur() != '|' || p.peek(1) != '}' {
				p.expected(`"|}" at the end of the annotation block`)
			}
			p.pos += 2
			p.depth--
		default:
			return
		}
	}
}

// reifierRest parses the optional IRI or blank node after '~'; with none,
// the reifier is a fresh blank node.
func (p *parser) reifierRest() rdf.Term {
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) != '<':
		return rdf.NewIRI(p.iriRef())
	case c == '_':
		return p.blankLabel()
	case c == '[':
		return p.anon(`"]" (a reifier may be [] but not a property list)`)
	}
	if t, ok := p.pname(); ok {
		return t
	}
	return p.fresh()
}

// tripleTermOf returns the triple term <<( s pr o )>>, checking the
// MaxTermLength limit.
func (p *parser) tripleTermOf(s, pr, o rdf.Term) rdf.Term {
	t := rdf.NewTripleTerm(s, pr, o)
	if p.maxTerm >= 0 && len(t.Value) > p.maxTerm {
		p.limitf(p.pos, "triple term longer than %d bytes", p.maxTerm)
	}
	return t
}

// reifiedTriple parses '<<' rtSubject verb rtObject reifier? '>>' at pos:
// it emits "r rdf:reifies <<( s p o )>>" and returns the reifier r.
func (p *parser) reifiedTriple() rdf.Term {
	p.enter()
	start := p.pos
	if p.peek(2) == '(' {
		p.errorf(start, "a triple term <<( ... )>> may only be an object")
	}
	p.pos += 2
	s, pr, o := p.innerTriple(true)
	var r rdf.Term
	if p.cur() == '~' {
		p.pos++
		r = p.reifierRest()
	} else {
		r = p.fresh()
	}
	p.ws()
	if p.cur() != '>' || p.peek(1) != '>' {
		p.expected(`">>" at the end of the reified triple`)
	}
	p.pos += 2
	p.emit(r, rdfReifies, p.tripleTermOf(s, pr, o))
	p.depth--
	return r
}

// innerTriple parses the subject, verb and object inside "<<" ">>" of a
// reified triple (reified) or "<<(" ")>>" of a triple term, where no
// reified triple may stand, with the white space around them.
func (p *parser) innerTriple(reified bool) (s, pr, o rdf.Term) {
	what, subjects := "a triple term", "an IRI or a blank node"
	if reified {
		what, subjects = "a reified triple", "an IRI, a blank node or a reified triple"
	}
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) == '<':
		if !reified {
			p.expected("the subject of " + what + " (" + subjects + ")")
		}
		s = p.reifiedTriple()
	case c == '[':
		s = p.anon(onlyAnon)
	case c == '_' || c == '<':
		s = p.subjectTerm()
	default:
		t, ok := p.pname()
		if !ok {
			p.expected("the subject of " + what + " (" + subjects + ")")
		}
		s = t
	}
	pr = p.verb()
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) == '<':
		switch {
		case p.peek(2) == '(':
			o = p.tripleTerm()
		case reified:
			o = p.reifiedTriple()
		default:
			p.expected("the object of a triple term (a reified triple << >> is not allowed inside <<( )>>)")
		}
	case c == '[':
		o = p.anon(onlyAnon)
	case c == '(':
		p.expected("the object of " + what + " (collections are not allowed)")
	default:
		o = p.object()
	}
	p.ws()
	return s, pr, o
}

// onlyAnon is what anon expects where [] may stand but a property list may
// not and no more specific reason applies.
const onlyAnon = `"]" (only [] may stand here, not a property list)`

// anon parses '[' ']' and returns a fresh blank node; without the ']' the
// error says that expected is expected.
func (p *parser) anon(expected string) rdf.Term {
	p.pos++
	p.ws()
	if p.cur() != ']' {
		p.expected(expected)
	}
	p.pos++
	return p.fresh()
}

// subjectTerm parses an IRI or a labelled blank node.
func (p *parser) subjectTerm() rdf.Term {
	if p.cur() == '_' {
		return p.blankLabel()
	}
	return rdf.NewIRI(p.iriRef())
}

// tripleTerm parses '<<(' ttSubject verb ttObject ')>>' at pos.
func (p *parser) tripleTerm() rdf.Term {
	p.enter()
	p.ttDepth++
	if p.ttDepth > rdf.MaxTripleTermNesting {
		p.limitf(p.pos, "triple terms nested more than %d deep", rdf.MaxTripleTermNesting)
	}
	p.pos += 3
	s, pr, o := p.innerTriple(false)
	if p.cur() != ')' || p.peek(1) != '>' || p.peek(2) != '>' {
		p.expected(`")>>" at the end of the triple term`)
	}
	p.pos += 3
	p.depth--
	p.ttDepth--
	return p.tripleTermOf(s, pr, o)
}

func (p *parser) object() rdf.Term {
	p.ws()
	switch c := p.cur(); {
	case c == '<' && p.peek(1) == '<':
		if p.peek(2) == '(' {
			return p.tripleTerm()
		}
		return p.reifiedTriple()
	case c == '[':
		p.pos++
		p.ws()
		if p.cur() == ']' {
			p.pos++
			return p.fresh()
		}
		return p.bnodePropertyListRest()
	case c == '"' || c == '\'':
		return p.literal()
	case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' && isDigitInt(p.peek(1)):
		return p.number()
	case c == 't' && p.keywordAt(0, "true"):
		p.pos += 4
		return rdf.NewLiteral("true", rdf.XSDBoolean)
	case c == 'f' && p.keywordAt(0, "false"):
		p.pos += 5
		return rdf.NewLiteral("false", rdf.XSDBoolean)
	}
	if t, ok := p.node(); ok {
		return t
	}
	p.expected("an object")
	return rdf.Term{}
}

// bnodePropertyListRest parses the rest of '[' predicateObjectList ']'
// after the '['.
func (p *parser) bnodePropertyListRest() rdf.Term {
	p.enter()
	b := p.fresh()
	p.predicateObjectList(b)
	p.expect(']', `"]" at the end of the blank node property list`)
	p.depth--
	return b
}

func (p *parser) collection() rdf.Term {
	p.enter()
	p.pos++ // '('
	var head, prev rdf.Term
	for {
		p.ws()
		if p.cur() == ')' {
			p.pos++
			break
		}
		if p.cur() == eof {
			p.expected(`")"`)
		}
		o := p.object()
		cell := p.fresh()
		if prev.Kind == rdf.None {
			head = cell
		} else {
			p.emit(prev, rdfRest, cell)
		}
		p.emit(cell, rdfFirst, o)
		prev = cell
	}
	p.depth--
	if prev.Kind == rdf.None {
		return rdfNil
	}
	p.emit(prev, rdfRest, rdfNil)
	return head
}

// blankLabel parses _:label.
func (p *parser) blankLabel() rdf.Term {
	p.mark = p.pos
	if p.peek(1) != ':' {
		p.expected(`"_:" starting a blank node label`)
	}
	p.pos += 2
	r, size := p.peekRune(0)
	if !(grammar.IsPNCharsU(r) || r >= '0' && r <= '9') || r == utf8.RuneError && size == 1 {
		p.expected("a blank node label")
	}
	p.pos += size
	endOff := p.pos - p.mark
	for p.pnCharOrDot(&endOff, "blank node label") {
	}
	p.pos = p.mark + endOff
	label := p.buf[p.mark+2 : p.pos]
	if len(label) >= len(genPrefix) && string(label[:len(genPrefix)]) == genPrefix {
		return rdf.NewBlank(genPrefix + "x" + string(label))
	}
	return rdf.NewBlank(string(label))
}

// prefixName scans PN_PREFIX at pos (its first character already checked),
// setting mark to its start and pos to its end.
func (p *parser) prefixName() {
	p.mark = p.pos
	endOff := 0
	for {
		if p.pos < len(p.buf) {
			if c := p.buf[p.pos]; c < utf8.RuneSelf {
				if !(grammar.Is(c, grammar.PN) || c == '.') {
					break
				}
				p.pos++
				if c != '.' {
					endOff = p.pos - p.mark
				}
				continue
			}
		}
		if !p.pnCharOrDot(&endOff, "prefix name") {
			break
		}
	}
	p.pos = p.mark + endOff
}

// pnCharOrDot advances pos over one PN_CHARS character or '.' of the name
// (a blank node label or a prefix name, what) that starts at mark, and
// reports whether there was one. *endOff becomes the name's length up to
// there when that character is not a '.', which cannot end the name.
func (p *parser) pnCharOrDot(endOff *int, what string) bool {
	r, size := p.peekRune(0)
	if r == eof || !(grammar.IsPNChars(r) || r == '.') || r == utf8.RuneError && size == 1 {
		return false
	}
	p.pos += size
	if r != '.' {
		*endOff = p.pos - p.mark
	}
	if p.maxTerm >= 0 && p.pos-p.mark > p.maxTerm {
		p.limitf(p.mark, "%s longer than %d bytes", what, p.maxTerm)
	}
	return true
}

// pname parses a prefixed name; ok is false (nothing consumed) when pos
// does not start one.
func (p *parser) pname() (rdf.Term, bool) {
	start := p.pos
	var ns string
	if p.cur() == ':' {
		var ok bool
		if ns, ok = p.prefixes[""]; !ok {
			p.errorf(start, "undefined prefix \"\"")
		}
		p.pos++
	} else {
		r, _ := p.peekRune(0)
		if r == eof || !grammar.IsPNCharsBase(r) {
			return rdf.Term{}, false
		}
		p.prefixName()
		if p.cur() != ':' {
			p.pos = p.mark
			return rdf.Term{}, false
		}
		name := p.buf[p.mark:p.pos]
		var ok bool
		if ns, ok = p.prefixes[string(name)]; !ok {
			p.errorf(p.mark, "undefined prefix %q", name)
		}
		p.pos++
	}
	p.sb = append(p.sb[:0], ns...)
	p.localName()
	if p.transient && !twoHashes(p.sb) {
		return rdf.NewIRI(p.str(p.sb)), true
	}
	iri, fresh := p.iris.InternFresh(p.sb)
	if fresh && twoHashes(p.sb) {
		p.checkIRI(start, iri)
	}
	return rdf.NewIRI(iri), true
}

// localName scans PN_LOCAL (possibly empty) at pos, appending its value to
// p.sb with escapes removed.
func (p *parser) localName() {
	p.mark = p.pos
	endOff := 0        // offset from mark after the last non-'.' character
	endSB := len(p.sb) // len(p.sb) then
	first := true
	for {
		c := p.cur()
		switch {
		case c == eof:
		case c == '%':
			if !grammar.IsInt(p.peek(1), grammar.Hex) || !grammar.IsInt(p.peek(2), grammar.Hex) {
				p.pos++
				p.expected("two hex digits after % in a local name")
			}
			p.sb = append(p.sb, p.buf[p.pos:p.pos+3]...)
			p.pos += 3
			goto next
		case c == '\\':
			e := p.peek(1)
			if e == eof || !grammar.IsLocalEsc(byte(e)) {
				p.pos++
				p.expected("an escapable character after \\ in a local name")
			}
			p.sb = append(p.sb, byte(e))
			p.pos += 2
			goto next
		case c == ':':
			p.sb = append(p.sb, ':')
			p.pos++
			goto next
		case c == '.':
			if first {
				break
			}
			p.sb = append(p.sb, '.')
			p.pos++
			first = false
			continue
		case c < utf8.RuneSelf:
			if grammar.Is(byte(c), grammar.PN) && (c != '-' || !first) {
				// The rest of a run of PN characters in one step.
				k := p.pos + 1 + grammar.Span(p.buf[p.pos+1:], grammar.PN)
				p.sb = append(p.sb, p.buf[p.pos:k]...)
				p.pos = k
				goto next
			}
		default:
			r, size := p.peekRune(0)
			if r == utf8.RuneError && size == 1 {
				p.errorf(p.pos, "invalid UTF-8")
			}
			if grammar.IsPNChars(r) && (!first || grammar.IsPNCharsU(r)) {
				p.sb = utf8.AppendRune(p.sb, r)
				p.pos += size
				goto next
			}
		}
		break
	next:
		first = false
		endOff = p.pos - p.mark
		endSB = len(p.sb)
		if p.maxTerm >= 0 && len(p.sb) > p.maxTerm {
			p.limitf(p.mark, "IRI longer than %d bytes", p.maxTerm)
		}
	}
	p.pos = p.mark + endOff
	p.sb = p.sb[:endSB]
}

// iriRef parses '<' ... '>' and returns the resolved IRI.
func (p *parser) iriRef() string {
	if p.peek(1) == '<' {
		p.errorf(p.pos, "RDF 1.2 triple terms and reified triples (<< >>) are not supported")
	}
	// The IRI's bytes stay buffered (mark stays at its start, IRIs being
	// short) so that its start can be reported after the buffer is refilled
	// and shifted.
	start := p.pos
	startOff := p.bufOff + int64(start)
	p.mark = start
	p.pos++
	p.sb = p.sb[:0]
	p.escaped = false
	for {
		b := p.buf[p.pos:]
		i := grammar.Span(b, grammar.IRI)
		p.sb = append(p.sb, b[:i]...)
		p.pos += i
		if p.maxTerm >= 0 && len(p.sb) > p.maxTerm {
			p.limitf(int(startOff-p.bufOff), "IRI longer than %d bytes", p.maxTerm)
		}
		if i == len(b) {
			if !p.fill() {
				p.errorf(p.pos, "unterminated IRI: expected \">\", found end of input")
			}
			continue
		}
		switch c := b[i]; c {
		case '>':
			p.pos++
			start = int(startOff - p.bufOff)
			if !utf8.Valid(p.sb) {
				p.errorf(start, "invalid UTF-8 in IRI")
			}
			if p.transient && !p.escaped && !twoHashes(p.sb) && absoluteNoDots(p.sb) {
				return p.str(p.sb) // needs no check
			}
			iri, fresh := p.resolve()
			// Only escapes can put characters IRIs may not contain into
			// the IRI; raw ones are syntax errors. An IRI seen recently
			// was checked then.
			if fresh && (p.escaped || twoHashes(p.sb) || !grammar.HasScheme(iri)) {
				p.checkIRI(start, iri)
			}
			return iri
		case '\\':
			p.uchar(false)
		default:
			p.errorf(p.pos, "character %q is not allowed in an IRI", rune(c))
		}
	}
}

// uchar decodes \uXXXX or \UXXXXXXXX (or, when echar, a string escape) at
// pos and appends it to p.sb.
func (p *parser) uchar(echar bool) {
	c := p.peek(1)
	if c != 'u' && c != 'U' {
		if echar {
			if e, ok := grammar.ECHAR(byte(max(c, 0))); ok {
				p.sb = append(p.sb, e)
				p.pos += 2
				return
			}
			p.errorf(p.pos, "invalid escape sequence in a string")
		}
		p.errorf(p.pos, `invalid escape in an IRI: expected \u or \U`)
	}
	p.peek(11) // buffer the longest escape there is, a surrogate pair
	r, n, pair, msg := grammar.UCHAR(p.buf[p.pos:])
	if msg != "" {
		p.errorf(p.pos, "%s", msg)
	}
	if pair {
		p.defect(p.pos, grammar.PairMsg(p.buf[p.pos:p.pos+n]))
	}
	if !echar && (r <= 0x20 || r < utf8.RuneSelf && !grammar.Is(byte(r), grammar.IRI)) {
		p.escaped = true // kept, and reported when the IRI is complete
	}
	p.sb = utf8.AppendRune(p.sb, r)
	p.pos += n
}

// resolve resolves the IRI reference in p.sb against the base; fresh is
// false for an IRI the cache returned (see grammar.Interner.InternFresh).
func (p *parser) resolve() (iri string, fresh bool) {
	ref := p.sb
	if absoluteNoDots(ref) {
		return p.iris.InternFresh(ref)
	}
	return rdf.ResolveIRI(p.base, string(ref)), true
}

// checkIRI reports an IRI, read from buf index start, that rdf.CheckIRI
// refuses (see defect).
func (p *parser) checkIRI(start int, iri string) {
	if msg := rdf.CheckIRI(iri); msg != "" {
		p.defect(start, msg)
	}
}

// twoHashes reports whether b holds more than one '#'.
func twoHashes(b []byte) bool {
	k := bytes.IndexByte(b, '#')
	return k >= 0 && bytes.IndexByte(b[k+1:], '#') >= 0
}

// defect reports a term defect at buf index i (see rdf.ReadOptions.Defect):
// a warning, or with Strict an error that stops the parse.
func (p *parser) defect(i int, msg string) {
	if err := p.opts.Defect(p.errAt(i, msg)); err != nil {
		panic(bailout{err})
	}
}

// absoluteNoDots reports whether ref has a scheme and no dot segments, so
// that resolving it leaves it unchanged.
func absoluteNoDots(ref []byte) bool {
	i := 0
	for ; i < len(ref); i++ {
		c := ref[i]
		if c == ':' {
			break
		}
		if !(grammar.Is(c, grammar.Alpha) || i > 0 && (grammar.Is(c, grammar.Alnum) || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	if i == 0 || i == len(ref) {
		return false
	}
	rest := ref[i+1:]
	if len(rest) > 0 && rest[0] == '.' {
		return false
	}
	for j := 0; j+1 < len(rest); j++ {
		if rest[j] == '/' && rest[j+1] == '.' {
			return false
		}
		if rest[j] == '?' || rest[j] == '#' {
			return true
		}
	}
	return true
}

// stringLit parses one of the four string forms at pos and returns its
// value.
func (p *parser) stringLit() string {
	q := byte(p.cur())
	start := p.pos
	p.mark = start
	long := p.peek(1) == int(q) && p.peek(2) == int(q)
	if long {
		p.pos += 3
	} else {
		p.pos++
	}
	p.sb = p.sb[:0]
	for {
		b := p.buf[p.pos:]
		i := 0
		for i < len(b) {
			c := b[i]
			if c == q || c == '\\' || c == '\n' || c == '\r' {
				break
			}
			i++
		}
		p.sb = append(p.sb, b[:i]...)
		p.pos += i
		if p.maxTerm >= 0 && len(p.sb) > p.maxTerm {
			p.limitf(start, "string longer than %d bytes", p.maxTerm)
		}
		if i == len(b) {
			p.mark = p.pos
			if !p.fill() {
				p.errorf(start, "unterminated string")
			}
			continue
		}
		switch c := b[i]; c {
		case q:
			if !long {
				p.pos++
				goto done
			}
			if p.peek(1) == int(q) && p.peek(2) == int(q) {
				p.pos += 3
				goto done
			}
			p.sb = append(p.sb, q)
			p.pos++
		case '\\':
			p.uchar(true)
		case '\n', '\r':
			if !long {
				p.errorf(p.pos, "line break in a short string (use \"\"\" or \\n)")
			}
			p.sb = append(p.sb, c)
			p.pos++
			if c == '\n' {
				p.newline(p.pos)
			}
		}
	}
done:
	if !utf8.Valid(p.sb) {
		p.errorf(start, "invalid UTF-8 in string")
	}
	return p.str(p.sb)
}

// literal parses a string with an optional language tag or datatype.
func (p *parser) literal() rdf.Term {
	lex := p.stringLit()
	switch p.cur() {
	case '@':
		p.pos++
		p.mark = p.pos
		n := grammar.LangTag(p.buf[p.pos:])
		for p.pos+n+2 > len(p.buf) && !p.atEOF {
			// The tag may go on past the buffered bytes; a '-' and the
			// character after it decide where it ends.
			p.fill()
			n = grammar.LangTag(p.buf[p.pos:])
		}
		if n == 0 {
			p.expected("a language tag")
		}
		p.checkLen(n, "language tag")
		lang := p.intern(p.buf[p.pos : p.pos+n])
		if !grammar.WellFormedLang(lang) {
			msg, _ := rdf.CheckLangTag(lang)
			p.defect(p.pos, msg)
		}
		p.pos += n
		if p.cur() == '-' && p.peek(1) == '-' {
			p.pos += 2
			d := 0
			for isAlphaInt(p.peek(d)) {
				d++
			}
			dir := string(p.buf[p.pos : p.pos+d])
			if dir != "ltr" && dir != "rtl" {
				p.expected(`base direction "ltr" or "rtl"`)
			}
			p.pos += d
			return rdf.Term{Kind: rdf.LiteralKind, Value: lex, Datatype: rdf.RDFDirLangString, Lang: lang, Dir: dir}
		}
		return rdf.NewLangString(lex, lang)
	case '^':
		if p.peek(1) != '^' {
			p.pos++
			p.expected(`"^" (datatypes are written ^^)`)
		}
		p.pos += 2
		var dt string
		if p.cur() == '<' {
			dt = p.iriRef()
		} else {
			t, ok := p.pname()
			if !ok {
				p.expected("a datatype IRI")
			}
			dt = t.Value
		}
		return rdf.NewLiteral(lex, dt)
	}
	return rdf.NewString(lex)
}

// checkLen fails with a limit error when a token of n bytes is too long.
func (p *parser) checkLen(n int, what string) {
	if p.maxTerm >= 0 && n > p.maxTerm {
		p.limitf(p.pos, "%s longer than %d bytes", what, p.maxTerm)
	}
}

func isAlphaInt(c int) bool { return grammar.IsInt(c, grammar.Alpha) }
func isAlnumInt(c int) bool { return grammar.IsInt(c, grammar.Alnum) }
func isDigitInt(c int) bool { return c >= '0' && c <= '9' }

// number parses INTEGER, DECIMAL or DOUBLE.
func (p *parser) number() rdf.Term {
	p.mark = p.pos
	n := 0
	if c := p.peek(0); c == '+' || c == '-' {
		n++
	}
	intDigits := 0
	for isDigitInt(p.peek(n)) {
		n++
		intDigits++
	}
	dt := rdf.XSDInteger
	if p.peek(n) == '.' {
		switch c := p.peek(n + 1); {
		case isDigitInt(c):
			n++
			for isDigitInt(p.peek(n)) {
				n++
			}
			dt = rdf.XSDDecimal
		case (c == 'e' || c == 'E') && intDigits > 0 && p.isExponent(n+1):
			n++
		}
	} else if intDigits == 0 {
		p.expected("a number")
	}
	if c := p.peek(n); (c == 'e' || c == 'E') && p.isExponent(n) {
		n++
		if c := p.peek(n); c == '+' || c == '-' {
			n++
		}
		for isDigitInt(p.peek(n)) {
			n++
		}
		dt = rdf.XSDDouble
	} else if dt == rdf.XSDInteger && intDigits == 0 {
		p.expected("a number")
	}
	p.checkLen(n, "number")
	lex := string(p.buf[p.pos : p.pos+n])
	p.pos += n
	return rdf.NewLiteral(lex, dt)
}

// isExponent reports whether an exponent starts k bytes ahead.
func (p *parser) isExponent(k int) bool {
	c := p.peek(k + 1)
	if c == '+' || c == '-' {
		c = p.peek(k + 2)
	}
	return isDigitInt(c)
}
