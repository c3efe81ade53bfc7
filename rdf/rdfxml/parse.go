// Package rdfxml reads and writes RDF/XML, the XML syntax of RDF (W3C RDF
// 1.1 XML Syntax, with the RDF 1.2 base direction of language-tagged
// strings, triple terms and annotations).
//
// Parse is a streaming reader over encoding/xml's token stream: it follows
// the grammar of section 7 of the specification (node and property elements,
// property attributes, rdf:parseType "Resource", "Literal" and "Collection",
// rdf:li numbering, reification through rdf:ID, xml:base and xml:lang) and
// reports every violation as an *rdf.ParseError with line, column and byte
// offset (of the element or attribute at fault). Write
// produces deterministic RDF/XML from the default graph of a dataset.
//
// RDF 1.2 triple terms are read: rdf:parseType="Triple" (whose content
// must describe exactly one triple, which becomes the triple term object
// and is not asserted) and annotations (rdf:annotation="IRI" and
// rdf:annotationNodeID="id" on a property element add "reifier rdf:reifies
// <<( s p o )>>" for its triple). Without rdf:version in scope,
// rdf:parseType="Triple" content is skipped, as the RDF 1.2 tests expect.
// The writer writes triple terms as rdf:parseType="Triple" (and declares
// rdf:version="1.2").
//
// Known deviations from XML 1.0, inherited from encoding/xml: attribute
// values are not whitespace-normalized (a line break inside a quoted value
// stays a line break), and only UTF-8, US-ASCII, UTF-16 (with a byte order
// mark), ISO-8859-1, ISO-8859-15 and Windows-1252 are read. Internal
// general entities declared in the document type declaration are expanded,
// within bounds; external entities are never read.
package rdfxml

import (
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/excerpt"
)

// Parse reads an RDF/XML document from r and sends its triples (all in the
// default graph) to sink. Relative IRIs resolve against xml:base, or else
// opts.Base. The namespace declarations of the document are passed to sink
// when it implements rdf.PrefixSink (the default namespace under the empty
// name). Blank nodes get labels that are fresh within the document: an
// rdf:nodeID keeps its value as label (values beginning with "genid" get the
// prefix "genid_", values that are not valid Turtle labels, such as "a.",
// become "genidx" and the hexadecimal digits of their bytes), the others
// are labelled genid1, genid2, ...
//
// Errors in the input are *rdf.ParseError values with the line, column and
// byte offset of the element or attribute at fault (offsets count the bytes
// of the input as it is, before any conversion from UTF-16 or ISO-8859-1);
// errors caused by opts.Limits also wrap rdf.ErrLimit. Element nesting is
// limited to opts.Limits.MaxDepth and never deeper than 65536 levels. An error returned by
// the sink stops the parse and is returned as it is.
func Parse(r io.Reader, sink rdf.Sink, opts rdf.ReadOptions) error {
	p := newParser(r, sink, opts)
	return p.document()
}

// parser holds the state of one Parse call.
type parser struct {
	dec   *xml.Decoder
	in    *posReader
	sink  rdf.Sink
	psink rdf.PrefixSink
	opts  rdf.ReadOptions
	lim   rdf.Limits

	quads     int64
	bnodes    int
	ids       map[string]bool     // IRIs made from rdf:ID values
	ttDepth   int                 // nesting of rdf:parseType="Triple"
	scopes    []scope             // open elements
	ns        []nsBinding         // namespace bindings of the open elements
	bound     map[string][]string // prefix -> URIs bound to it in the open elements, innermost last
	inLiteral int                 // > 0 while reading an XML literal
	rootSeen  bool

	at pos // start of the token last returned by next
}

// scope is an open element with the context it sets for its content.
type scope struct {
	name    xml.Name // prefix and local name as written
	nsMark  int      // len(parser.ns) before the element's declarations
	base    string
	lang    string
	langAt  pos    // where lang is written (its xml:lang attribute)
	dir     string // its:dir
	version bool   // rdf:version is in scope (RDF 1.2 features enabled)
}

type nsBinding struct{ prefix, uri string }

// attr is an attribute other than a namespace declaration.
type attr struct {
	prefix, local string // as written
	ns            string // namespace URI; "" when unqualified
	value         string
	at            pos // where its name is written
}

// element is a start tag with its names resolved.
type element struct {
	prefix, local string
	ns            string
	attrs         []attr
	at            pos

	// The context the element is in, its own attributes applied.
	base, lang, dir string
	langAt          pos // where lang is written
	version         bool
}

func (e *element) qname() string {
	if e.prefix == "" {
		return e.local
	}
	return e.prefix + ":" + e.local
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokStart
	tokEnd
	tokText
	tokPI
)

type token struct {
	kind   tokKind
	elem   *element // tokStart
	text   string   // tokText; the instruction of a tokPI
	target string   // tokPI
}

// maxDepth bounds the element nesting even when the limits ask for none,
// since the reader recurses once per element level.
const maxDepth = 1 << 16

func newParser(r io.Reader, sink rdf.Sink, opts rdf.ReadOptions) *parser {
	lim := opts.Limits.WithDefaults()
	if lim.MaxDepth < 0 || lim.MaxDepth > maxDepth {
		lim.MaxDepth = maxDepth
	}
	in := newPosReader(r, lim.MaxBytes)
	dec := xml.NewDecoder(in)
	dec.Strict = true
	p := &parser{
		dec:   dec,
		in:    in,
		sink:  sink,
		opts:  opts,
		lim:   lim,
		ids:   map[string]bool{},
		bound: map[string][]string{},
	}
	p.psink, _ = sink.(rdf.PrefixSink)
	dec.CharsetReader = p.charsetReader
	return p
}

// errorf returns a ParseError at the given position.
func (p *parser) errorf(at pos, format string, args ...any) error {
	return &rdf.ParseError{File: p.opts.File, Line: at.line, Column: at.col, Offset: at.off,
		Msg: excerpt.Shorten(fmt.Sprintf(format, args...))}
}

// limitf returns a ParseError that also wraps rdf.ErrLimit.
func (p *parser) limitf(at pos, format string, args ...any) error {
	return fmt.Errorf("%w (%w)", p.errorf(at, format, args...), rdf.ErrLimit)
}

// warnf reports a non-fatal problem, or returns it as an error in strict mode.
func (p *parser) warnf(at pos, format string, args ...any) error {
	pe := p.errorf(at, format, args...).(*rdf.ParseError)
	if p.opts.Strict {
		return pe
	}
	if p.opts.Warn != nil {
		p.opts.Warn(pe)
	}
	return nil
}

func (p *parser) top() *scope { return &p.scopes[len(p.scopes)-1] }

// lookupNS returns the namespace URI bound to prefix in the open elements.
func (p *parser) lookupNS(prefix string) (string, bool) {
	if prefix == "xml" {
		return xmlNS, true
	}
	if uris := p.bound[prefix]; len(uris) > 0 {
		return uris[len(uris)-1], true
	}
	return "", prefix == ""
}

// next returns the next token of interest, skipping comments, the XML
// declaration and the document type declaration, and keeping the open
// element stack, namespaces, base IRI and language up to date.
func (p *parser) next() (token, error) {
	for {
		off := p.dec.InputOffset()
		p.at = p.in.pos(off)
		p.in.startToken(off)
		t, err := p.dec.RawToken()
		tag, tagAt := p.in.stopToken()
		if err != nil {
			if err == io.EOF && !p.in.hit && !p.in.entHit {
				if len(p.scopes) > 0 {
					return token{}, p.errorf(p.at, "unexpected end of input: <%s> is not closed", qname(p.top().name))
				}
				return token{kind: tokEOF}, nil
			}
			return token{}, p.xmlError(err)
		}
		switch t := t.(type) {
		case xml.StartElement:
			e, err := p.push(t, attrPositions(tag, tagAt, p.in.enc))
			if err != nil {
				return token{}, err
			}
			return token{kind: tokStart, elem: e}, nil
		case xml.EndElement:
			if len(p.scopes) == 0 {
				return token{}, p.errorf(p.at, "unexpected end tag </%s>", qname(t.Name))
			}
			top := p.top()
			if top.name != t.Name {
				return token{}, p.errorf(p.at, "end tag </%s> does not match <%s>", qname(t.Name), qname(top.name))
			}
			for _, b := range p.ns[top.nsMark:] {
				uris := p.bound[b.prefix]
				p.bound[b.prefix] = uris[:len(uris)-1]
			}
			p.ns = p.ns[:top.nsMark]
			p.scopes = p.scopes[:len(p.scopes)-1]
			return token{kind: tokEnd}, nil
		case xml.CharData:
			if len(p.scopes) == 0 && !isWhitespace(string(t)) {
				return token{}, p.errorf(p.at, "text outside the root element")
			}
			return token{kind: tokText, text: string(t)}, nil
		case xml.Comment:
			continue
		case xml.ProcInst:
			if strings.EqualFold(t.Target, "xml") {
				if t.Target != "xml" || p.at.line != 1 || p.at.col != 1 {
					return token{}, p.errorf(p.at, "XML declaration is not at the start of the document")
				}
				continue
			}
			return token{kind: tokPI, target: t.Target, text: string(t.Inst)}, nil
		case xml.Directive:
			if len(p.scopes) > 0 || p.rootSeen {
				return token{}, p.errorf(p.at, "markup declaration <!%s> inside the document", firstWord(string(t)))
			}
			if err := p.doctype(string(t)); err != nil {
				return token{}, err
			}
		}
	}
}

// nextBlank is next where text is insignificant (only white space may
// come): a run of white space reaches the decoder as one byte.
func (p *parser) nextBlank() (token, error) {
	p.in.squeeze = true
	defer func() { p.in.squeeze = false }()
	return p.next()
}

// xmlError converts an error of the XML decoder.
func (p *parser) xmlError(err error) error {
	at := p.in.pos(p.dec.InputOffset())
	if p.in.hit {
		return p.limitf(at, "input is larger than %d bytes", p.lim.MaxBytes)
	}
	if p.in.entHit {
		return p.limitf(at, "entity references expand to more than %d bytes", p.in.budget+8*p.in.n)
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return p.errorf(at, "XML syntax error: %s", se.Msg)
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return p.errorf(at, "unexpected end of input")
	}
	return p.errorf(at, "%v", err)
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// push opens an element: it applies its namespace declarations, xml:base,
// xml:lang, rdf:version and its:dir, and resolves its names. attrAt holds
// the positions of its attributes, in the order of t.Attr (missing ones
// default to the element's position).
func (p *parser) push(t xml.StartElement, attrAt []pos) (*element, error) {
	at := p.at
	if p.lim.MaxDepth >= 0 && len(p.scopes) >= p.lim.MaxDepth {
		return nil, p.limitf(at, "elements nested deeper than %d", p.lim.MaxDepth)
	}
	attrPos := func(i int) pos {
		if i < len(attrAt) {
			return attrAt[i]
		}
		return at
	}
	p.rootSeen = true
	sc := scope{name: t.Name, nsMark: len(p.ns)}
	if len(p.scopes) > 0 {
		parent := p.top()
		sc.base, sc.lang, sc.langAt, sc.dir, sc.version = parent.base, parent.lang, parent.langAt, parent.dir, parent.version
	} else {
		sc.base = p.opts.Base
	}
	if len(t.Attr) > 1 {
		seen := make(map[xml.Name]bool, len(t.Attr))
		for i, a := range t.Attr {
			if seen[a.Name] {
				return nil, p.errorf(attrPos(i), "attribute %s appears twice on <%s>", qname(a.Name), qname(t.Name))
			}
			seen[a.Name] = true
		}
	}
	// Namespace declarations first: they apply to the element's own names.
	for i, a := range t.Attr {
		var prefix string
		switch {
		case a.Name.Space == "xmlns":
			prefix = a.Name.Local
			switch {
			case prefix == "xmlns":
				return nil, p.errorf(attrPos(i), "the prefix xmlns cannot be declared")
			case prefix == "xml" && a.Value != xmlNS, prefix != "xml" && a.Value == xmlNS:
				return nil, p.errorf(attrPos(i), "the prefix xml is bound to %s only", xmlNS)
			case a.Value == "":
				return nil, p.errorf(attrPos(i), "namespace prefix %s cannot be undeclared", prefix)
			}
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			if a.Value == xmlNS {
				return nil, p.errorf(attrPos(i), "the XML namespace cannot be the default namespace")
			}
		default:
			continue
		}
		if prefix == "xml" {
			continue
		}
		p.ns = append(p.ns, nsBinding{prefix: prefix, uri: a.Value})
		p.bound[prefix] = append(p.bound[prefix], a.Value)
		if p.psink != nil && p.inLiteral == 0 {
			p.psink.AddPrefix(prefix, a.Value)
		}
	}
	e := &element{prefix: t.Name.Space, local: t.Name.Local, at: at}
	var ok bool
	if e.ns, ok = p.lookupNS(e.prefix); !ok {
		p.scopes = append(p.scopes, sc) // keep the stack balanced for callers that go on
		return nil, p.errorf(at, "undeclared namespace prefix %q in <%s>", e.prefix, e.qname())
	}
	e.attrs = make([]attr, 0, len(t.Attr))
	for i, a := range t.Attr {
		if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
			continue
		}
		a := attr{prefix: a.Name.Space, local: a.Name.Local, value: a.Value, at: attrPos(i)}
		if a.prefix != "" {
			if a.ns, ok = p.lookupNS(a.prefix); !ok {
				p.scopes = append(p.scopes, sc)
				return nil, p.errorf(a.at, "undeclared namespace prefix %q in attribute %s:%s", a.prefix, a.prefix, a.local)
			}
		}
		switch {
		case a.ns == xmlNS && a.local == "base":
			if p.inLiteral == 0 {
				if len(a.value) > p.lim.MaxTermLength && p.lim.MaxTermLength >= 0 {
					return nil, p.limitf(a.at, "xml:base longer than %d bytes", p.lim.MaxTermLength)
				}
				sc.base = rdf.ResolveIRI(sc.base, a.value)
			}
		case a.ns == xmlNS && a.local == "lang":
			sc.lang, sc.langAt = a.value, a.at
		case a.ns == rdf.RDFNS && a.local == nameVersion:
			sc.version = true
		case a.ns == itsNS && a.local == "dir":
			if p.inLiteral == 0 && a.value != "ltr" && a.value != "rtl" {
				return nil, p.errorf(a.at, "its:dir must be \"ltr\" or \"rtl\", not %q", a.value)
			}
			sc.dir = a.value
		}
		e.attrs = append(e.attrs, a)
	}
	e.base, e.lang, e.langAt, e.dir, e.version = sc.base, sc.lang, sc.langAt, sc.dir, sc.version
	p.scopes = append(p.scopes, sc)
	return e, nil
}

func isWhitespace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// document parses the whole input.
func (p *parser) document() error {
	e, err := p.topElement()
	if err != nil {
		return err
	}
	if e == nil {
		return p.errorf(p.at, "no root element")
	}
	if isRDF(e.ns, e.local, nameRDF) {
		for _, a := range e.attrs {
			if !p.ignorable(a) {
				return p.errorf(a.at, "attribute %s is not allowed on rdf:RDF", a.qname())
			}
		}
		err = p.nodeElementList()
	} else {
		_, err = p.nodeElement(e)
	}
	if err != nil {
		return err
	}
	// Nothing but comments, processing instructions and white space may
	// follow the root element.
	if e, err = p.topElement(); err == nil && e != nil {
		err = p.errorf(e.at, "second root element <%s>", e.qname())
	}
	return err
}

// topElement reads up to the next start tag outside the root element,
// skipping comments, processing instructions and white space; it returns
// nil at the end of the input.
func (p *parser) topElement() (*element, error) {
	for {
		tok, err := p.nextBlank()
		if err != nil || tok.kind == tokEOF {
			return nil, err
		}
		if tok.kind == tokStart {
			return tok.elem, nil
		}
	}
}

func (a *attr) qname() string {
	if a.prefix == "" {
		return a.local
	}
	return a.prefix + ":" + a.local
}

// ignorable reports whether an attribute plays no part in the RDF graph:
// names starting with "xml" (xml:lang, xml:base, ...), the ITS attributes
// and rdf:version.
func (p *parser) ignorable(a attr) bool {
	if a.prefix != "" && len(a.prefix) >= 3 && strings.EqualFold(a.prefix[:3], "xml") {
		return true
	}
	if a.prefix == "" && len(a.local) >= 3 && strings.EqualFold(a.local[:3], "xml") {
		return true
	}
	return a.ns == itsNS || a.ns == rdf.RDFNS && a.local == nameVersion
}

// qualify maps the unqualified attributes that RDF/XML still accepts (ID,
// about, resource, parseType, type) into the RDF namespace. It reports false
// for other unqualified attributes, which have no IRI.
func qualify(a *attr) bool {
	if a.ns != "" {
		return true
	}
	switch a.local {
	case nameID, nameAbout, nameResource, nameParseType, nameType:
		a.ns = rdf.RDFNS
		return true
	}
	return false
}

// children reads the content of the current element up to its end tag,
// skipping white space and comments: each child element goes to child,
// and text other than white space is an error saying textMsg.
func (p *parser) children(textMsg string, child func(*element) error) error {
	for {
		tok, err := p.nextBlank()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tokText:
			if !isWhitespace(tok.text) {
				return p.errorf(p.at, "%s", textMsg)
			}
		case tokStart:
			if err := child(tok.elem); err != nil {
				return err
			}
		case tokEnd:
			return nil
		}
	}
}

// nodeElementList parses node elements up to the end of the enclosing element.
func (p *parser) nodeElementList() error {
	return p.children("text where a node element is expected", func(e *element) error {
		_, err := p.nodeElement(e)
		return err
	})
}

// usable reports whether attribute a takes part in the graph: not an
// ignorable one, and qualified (an unqualified one is ignored with a
// warning, the error of which is returned).
func (p *parser) usable(a *attr) (bool, error) {
	if p.ignorable(*a) {
		return false, nil
	}
	if !qualify(a) {
		return false, p.warnf(a.at, "unqualified attribute %s ignored", a.local)
	}
	return true, nil
}

// nodeElement parses a node element whose start tag has been read, up to
// and including its end tag, and returns its subject.
func (p *parser) nodeElement(e *element) (rdf.Term, error) {
	if e.ns == "" {
		return rdf.Term{}, p.errorf(e.at, "node element <%s> is not in a namespace", e.qname())
	}
	if e.ns == rdf.RDFNS && (isCoreSyntaxTerm(e.local) || e.local == nameLi || isOldTerm(e.local)) {
		return rdf.Term{}, p.errorf(e.at, "rdf:%s cannot be used as a node element", e.local)
	}
	var (
		subj  rdf.Term
		how   string
		props []attr
	)
	for _, a := range e.attrs {
		if ok, err := p.usable(&a); !ok {
			if err != nil {
				return rdf.Term{}, err
			}
			continue
		}
		if a.ns != rdf.RDFNS || a.local == nameType {
			props = append(props, a)
			continue
		}
		switch a.local {
		case nameID, nameAbout, nameNodeID:
			if how != "" {
				return rdf.Term{}, p.errorf(a.at, "rdf:%s and rdf:%s on one node element", how, a.local)
			}
			how = a.local
			var err error
			switch a.local {
			case nameID:
				subj, err = p.idIRI(e, a.value, a.at)
			case nameAbout:
				subj, err = p.iri(e, a.value, a.at)
			default:
				subj, err = p.nodeID(a.value, a.at)
			}
			if err != nil {
				return rdf.Term{}, err
			}
		default:
			if isCoreSyntaxTerm(a.local) || isOldTerm(a.local) || a.local == nameLi ||
				a.local == nameDescription || a.local == nameAnnotation || a.local == nameAnnotationNode {
				return rdf.Term{}, p.errorf(a.at, "rdf:%s is not allowed as an attribute of a node element", a.local)
			}
			props = append(props, a)
		}
	}
	if how == "" {
		subj = p.fresh()
	}
	if !isRDF(e.ns, e.local, nameDescription) {
		if err := p.emitIRI(e, subj, rdf.RDFType, e.ns+e.local); err != nil {
			return rdf.Term{}, err
		}
	}
	if err := p.propertyAttrs(e, subj, props); err != nil {
		return rdf.Term{}, err
	}
	return subj, p.propertyEltList(subj)
}

// propertyAttrs emits the triples of property attributes.
func (p *parser) propertyAttrs(e *element, subj rdf.Term, props []attr) error {
	for _, a := range props {
		if a.ns == rdf.RDFNS && a.local == nameType {
			o, err := p.iri(e, a.value, a.at)
			if err != nil {
				return err
			}
			if err := p.emit(subj, rdf.NewIRI(rdf.RDFType), o); err != nil {
				return err
			}
			continue
		}
		o, err := p.literal(e, a.at, a.value, nil)
		if err != nil {
			return err
		}
		if o.Kind == rdf.None {
			continue // dropped: a language tag no syntax can write
		}
		if err := p.emit(subj, rdf.NewIRI(a.ns+a.local), o); err != nil {
			return err
		}
	}
	return nil
}

// propertyEltList parses property elements up to the end of the enclosing
// node element.
func (p *parser) propertyEltList(subj rdf.Term) error {
	li := 1
	return p.children("text where a property element is expected", func(e *element) error {
		return p.propertyElt(subj, e, &li)
	})
}

// propertyElt parses one property element whose start tag has been read.
func (p *parser) propertyElt(subj rdf.Term, e *element, li *int) error {
	if e.ns == "" {
		return p.errorf(e.at, "property element <%s> is not in a namespace", e.qname())
	}
	pred := e.ns + e.local
	if e.ns == rdf.RDFNS {
		switch {
		case isCoreSyntaxTerm(e.local) || isOldTerm(e.local) || e.local == nameDescription:
			return p.errorf(e.at, "rdf:%s cannot be used as a property element", e.local)
		case e.local == nameLi:
			pred = rdf.RDFNS + "_" + strconv.Itoa(*li)
			*li++
		}
	}
	var (
		id, parseType, resource, nodeID, datatype *attr
		annotation, annotationNode                *attr
		props                                     []attr
	)
	for _, a := range e.attrs {
		if ok, err := p.usable(&a); !ok {
			if err != nil {
				return err
			}
			continue
		}
		if a.ns != rdf.RDFNS || a.local == nameType {
			props = append(props, a)
			continue
		}
		v := a
		switch a.local {
		case nameID:
			id = &v
		case nameParseType:
			parseType = &v
		case nameResource:
			resource = &v
		case nameNodeID:
			nodeID = &v
		case nameDatatype:
			datatype = &v
		case nameAnnotation:
			annotation = &v
		case nameAnnotationNode:
			annotationNode = &v
		default:
			if isCoreSyntaxTerm(a.local) || isOldTerm(a.local) || a.local == nameLi || a.local == nameDescription {
				return p.errorf(a.at, "rdf:%s is not allowed as an attribute of a property element", a.local)
			}
			props = append(props, a)
		}
	}
	var reifier rdf.Term
	if id != nil {
		var err error
		if reifier, err = p.idIRI(e, id.value, id.at); err != nil {
			return err
		}
	}
	var annotator rdf.Term // RDF 1.2: reifies the property's triple
	if annotation != nil && annotationNode != nil {
		return p.errorf(e.at, "rdf:annotation and rdf:annotationNodeID on one property element")
	}
	if annotation != nil {
		var err error
		if annotator, err = p.iri(e, annotation.value, annotation.at); err != nil {
			return err
		}
	}
	if annotationNode != nil {
		var err error
		if annotator, err = p.nodeID(annotationNode.value, annotationNode.at); err != nil {
			return err
		}
	}
	predicate, err := p.term(e.at, rdf.NewIRI(pred))
	if err != nil {
		return err
	}
	// emit emits the property's triple, its annotation and its reification.
	emit := func(o rdf.Term) error {
		if err := p.emit(subj, predicate, o); err != nil {
			return err
		}
		if annotator.Kind != rdf.None {
			if err := p.emit(annotator, rdf.NewIRI(rdf.RDFReifies), rdf.NewTripleTerm(subj, predicate, o)); err != nil {
				return err
			}
		}
		if id == nil {
			return nil
		}
		return p.reify(reifier, subj, predicate, o)
	}

	if parseType != nil {
		if resource != nil || nodeID != nil || datatype != nil || len(props) > 0 {
			return p.errorf(e.at, "rdf:parseType cannot be combined with rdf:resource, rdf:nodeID, rdf:datatype or property attributes")
		}
		switch parseType.value {
		case "Resource":
			n := p.fresh()
			if err := emit(n); err != nil {
				return err
			}
			return p.propertyEltList(n)
		case "Collection":
			return p.collection(emit)
		case "Triple":
			if e.version {
				t, err := p.tripleTerm(e)
				if err != nil {
					return err
				}
				return emit(t)
			}
			return p.skipContent()
		default:
			lit, err := p.xmlLiteral(e)
			if err != nil {
				return err
			}
			return emit(lit)
		}
	}
	if resource != nil && nodeID != nil {
		return p.errorf(e.at, "rdf:resource and rdf:nodeID on one property element")
	}

	// The content decides: a node element, text, or nothing.
	var text strings.Builder
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tokText:
			text.WriteString(tok.text)
			if p.lim.MaxTermLength >= 0 && text.Len() > p.lim.MaxTermLength {
				return p.limitf(e.at, "literal longer than %d bytes", p.lim.MaxTermLength)
			}
		case tokStart:
			if !isWhitespace(text.String()) {
				return p.errorf(tok.elem.at, "property element <%s> mixes text and elements", e.qname())
			}
			if resource != nil || nodeID != nil || datatype != nil || len(props) > 0 {
				return p.errorf(e.at, "property element <%s> with a node element inside cannot have rdf:resource, rdf:nodeID, rdf:datatype or property attributes", e.qname())
			}
			o, err := p.nodeElement(tok.elem)
			if err != nil {
				return err
			}
			if err := emit(o); err != nil {
				return err
			}
			return p.endAfterNode(e)
		case tokEnd:
			if text.Len() > 0 || (datatype != nil && resource == nil && nodeID == nil && len(props) == 0) {
				// A literal (an empty one with only rdf:datatype).
				if resource != nil || nodeID != nil || len(props) > 0 {
					return p.errorf(e.at, "property element <%s> with text cannot have rdf:resource, rdf:nodeID or property attributes", e.qname())
				}
				o, err := p.literal(e, e.at, text.String(), datatype)
				if err != nil || o.Kind == rdf.None {
					return err
				}
				return emit(o)
			}
			return p.emptyPropertyElt(e, emit, resource, nodeID, datatype, props)
		}
	}
}

// emptyPropertyElt handles a property element without content.
func (p *parser) emptyPropertyElt(e *element, emit func(rdf.Term) error, resource, nodeID, datatype *attr, props []attr) error {
	if datatype != nil {
		return p.errorf(e.at, "rdf:datatype cannot be combined with rdf:resource, rdf:nodeID or property attributes")
	}
	if resource == nil && nodeID == nil && len(props) == 0 {
		o, err := p.literal(e, e.at, "", nil)
		if err != nil || o.Kind == rdf.None {
			return err
		}
		return emit(o)
	}
	var o rdf.Term
	var err error
	switch {
	case resource != nil:
		o, err = p.iri(e, resource.value, resource.at)
	case nodeID != nil:
		o, err = p.nodeID(nodeID.value, nodeID.at)
	default:
		o = p.fresh()
	}
	if err != nil {
		return err
	}
	if err := emit(o); err != nil {
		return err
	}
	return p.propertyAttrs(e, o, props)
}

// endAfterNode reads the end of a property element after its node element.
func (p *parser) endAfterNode(e *element) error {
	return p.children("property element <"+e.qname()+"> mixes text and elements", func(c *element) error {
		return p.errorf(c.at, "property element <%s> contains more than one node element", e.qname())
	})
}

// collection parses the node elements of rdf:parseType="Collection" and
// emits them as an RDF list.
func (p *parser) collection(emit func(rdf.Term) error) error {
	var items []rdf.Term
	err := p.children("text inside rdf:parseType=\"Collection\"", func(e *element) error {
		n, err := p.nodeElement(e)
		items = append(items, n)
		return err
	})
	if err != nil {
		return err
	}
	nilTerm := rdf.NewIRI(rdf.RDFNil)
	if len(items) == 0 {
		return emit(nilTerm)
	}
	cells := make([]rdf.Term, len(items))
	for i := range cells {
		cells[i] = p.fresh()
	}
	if err := emit(cells[0]); err != nil {
		return err
	}
	first, rest := rdf.NewIRI(rdf.RDFFirst), rdf.NewIRI(rdf.RDFRest)
	for i, c := range cells {
		if err := p.emit(c, first, items[i]); err != nil {
			return err
		}
		next := nilTerm
		if i+1 < len(cells) {
			next = cells[i+1]
		}
		if err := p.emit(c, rest, next); err != nil {
			return err
		}
	}
	return nil
}

// tripleTerm reads the content of rdf:parseType="Triple", which must
// describe exactly one triple, and returns that triple as a triple term
// (the triple itself is not asserted).
func (p *parser) tripleTerm(e *element) (rdf.Term, error) {
	p.ttDepth++
	defer func() { p.ttDepth-- }()
	if p.ttDepth > rdf.MaxTripleTermNesting {
		return rdf.Term{}, p.limitf(e.at, "rdf:parseType=\"Triple\" nested more than %d deep", rdf.MaxTripleTermNesting)
	}
	var n int
	var q rdf.Quad
	saved := p.sink
	p.sink = rdf.SinkFunc(func(x rdf.Quad) error { n++; q = x; return nil })
	err := p.nodeElementList()
	p.sink = saved
	if err != nil {
		return rdf.Term{}, err
	}
	if n != 1 {
		return rdf.Term{}, p.errorf(e.at, "rdf:parseType=\"Triple\" must describe exactly one triple, not %d", n)
	}
	t := rdf.NewTripleTerm(q.S, q.P, q.O)
	if p.lim.MaxTermLength >= 0 && len(t.Value) > p.lim.MaxTermLength {
		return rdf.Term{}, p.limitf(e.at, "triple term longer than %d bytes", p.lim.MaxTermLength)
	}
	return t, nil
}

// skipContent reads up to the end of the current element.
func (p *parser) skipContent() error {
	depth := 0
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tokStart:
			depth++
		case tokEnd:
			if depth == 0 {
				return nil
			}
			depth--
		}
	}
}

// reify emits the reification of a statement under the IRI r.
func (p *parser) reify(r, s, pr, o rdf.Term) error {
	for _, t := range [4][2]rdf.Term{
		{rdf.NewIRI(rdf.RDFType), rdf.NewIRI(rdf.RDFNS + "Statement")},
		{rdf.NewIRI(rdf.RDFNS + "subject"), s},
		{rdf.NewIRI(rdf.RDFNS + "predicate"), pr},
		{rdf.NewIRI(rdf.RDFNS + "object"), o},
	} {
		if err := p.emit(r, t[0], t[1]); err != nil {
			return err
		}
	}
	return nil
}

// emit sends a triple to the sink.
func (p *parser) emit(s, pr, o rdf.Term) error {
	if p.lim.MaxQuads >= 0 && p.quads >= p.lim.MaxQuads {
		return p.limitf(p.at, "more than %d triples", p.lim.MaxQuads)
	}
	p.quads++
	return p.sink.AddQuad(rdf.Quad{S: s, P: pr, O: o})
}

// emitIRI emits a triple whose object is the IRI o.
func (p *parser) emitIRI(e *element, s rdf.Term, pred, o string) error {
	t, err := p.term(e.at, rdf.NewIRI(o))
	if err != nil {
		return err
	}
	return p.emit(s, rdf.NewIRI(pred), t)
}

// term checks the length of a term written at at.
func (p *parser) term(at pos, t rdf.Term) (rdf.Term, error) {
	if p.lim.MaxTermLength >= 0 && len(t.Value) > p.lim.MaxTermLength {
		return rdf.Term{}, p.limitf(at, "term longer than %d bytes", p.lim.MaxTermLength)
	}
	return t, nil
}

// iri resolves an IRI reference (written at at) against the base in scope.
func (p *parser) iri(e *element, ref string, at pos) (rdf.Term, error) {
	if p.lim.MaxTermLength >= 0 && len(ref) > p.lim.MaxTermLength {
		return rdf.Term{}, p.limitf(at, "IRI longer than %d bytes", p.lim.MaxTermLength)
	}
	iri := rdf.ResolveIRI(e.base, ref)
	if msg := rdf.CheckIRI(iri); msg != "" {
		if err := p.warnf(at, "%s", msg); err != nil {
			return rdf.Term{}, err
		}
	}
	return p.term(at, rdf.NewIRI(iri))
}

// idIRI turns an rdf:ID value (written at at) into an IRI, checking that it
// is an NCName and that the document uses it only once with this base.
func (p *parser) idIRI(e *element, id string, at pos) (rdf.Term, error) {
	if !isNCName(id) {
		return rdf.Term{}, p.errorf(at, "rdf:ID %q is not an XML NCName", id)
	}
	t, err := p.iri(e, "#"+id, at)
	if err != nil {
		return rdf.Term{}, err
	}
	if p.ids[t.Value] {
		return rdf.Term{}, p.errorf(at, "rdf:ID %q is used twice (IRI <%s>)", id, t.Value)
	}
	p.ids[t.Value] = true
	return t, nil
}

// nodeID returns the blank node of an rdf:nodeID value written at at.
func (p *parser) nodeID(id string, at pos) (rdf.Term, error) {
	if !isNCName(id) {
		return rdf.Term{}, p.errorf(at, "rdf:nodeID %q is not an XML NCName", id)
	}
	switch {
	case rdf.WritableBlankLabel(id) != id:
		// An NCName may end with '.', which a blank node label may not:
		// such an id gets a label of its own, that writers keep.
		id = "genidx" + hex.EncodeToString([]byte(id))
	case strings.HasPrefix(id, "genid"):
		id = "genid_" + id
	}
	return p.term(at, rdf.NewBlank(id))
}

// fresh returns a new blank node.
func (p *parser) fresh() rdf.Term {
	p.bnodes++
	return rdf.NewBlank("genid" + strconv.Itoa(p.bnodes))
}

// literal makes a literal (whose text is at at) with the datatype (an
// rdf:datatype attribute, its IRI resolved against the base) or else the
// language and direction in scope.
func (p *parser) literal(e *element, at pos, lexical string, datatype *attr) (rdf.Term, error) {
	if p.lim.MaxTermLength >= 0 && len(lexical) > p.lim.MaxTermLength {
		return rdf.Term{}, p.limitf(at, "literal longer than %d bytes", p.lim.MaxTermLength)
	}
	if datatype != nil {
		dt, err := p.iri(e, datatype.value, datatype.at)
		if err != nil {
			return rdf.Term{}, err
		}
		return rdf.NewLiteral(lexical, dt.Value), nil
	}
	if e.lang == "" {
		return rdf.NewString(lexical), nil
	}
	// The reader policy of package rdf: a tag that is not well-formed BCP
	// 47 is kept with a warning; one no RDF syntax can write drops the
	// statement (the zero Term), with a warning.
	if msg, writable := rdf.CheckLangTag(e.lang); msg != "" {
		action := "kept"
		if !writable {
			action = "statement dropped"
		}
		if err := p.warnf(e.langAt, "%s; %s", msg, action); err != nil || !writable {
			return rdf.Term{}, err
		}
	}
	t := rdf.NewLangString(lexical, e.lang)
	if e.version && e.dir != "" {
		t.Dir = e.dir
		t.Datatype = rdf.RDFDirLangString
	}
	return t, nil
}
