package rdfxml

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// WriteOptions control Write.
type WriteOptions struct {
	// Indent is the indentation unit; empty means two spaces.
	Indent string
	// Prefixes are preferred namespace prefixes, tried before the dataset's
	// own Prefixes.
	Prefixes []rdf.Prefix
}

// ErrTripleTerm is returned by Write for a triple term whose value is not
// in canonical form (not made by rdf.NewTripleTerm).
var ErrTripleTerm = errors.New("rdfxml: malformed RDF 1.2 triple term")

// Write writes the default graph of d as RDF/XML: one rdf:Description per
// subject (rdf:about for IRIs, rdf:nodeID for blank nodes), subjects,
// predicates and objects sorted by rdf.Compare, so the output depends only
// on the set of triples and the prefixes. Namespace prefixes come from
// opts.Prefixes and then d.Prefixes ("rdf" is always the RDF namespace), the
// remaining namespaces get ns1, ns2, ... in sorted order. Literals keep their
// datatype (rdf:datatype) or language (xml:lang, and its:dir with
// rdf:version="1.2" for a base direction).
//
// IRIs are written as they are, so an IRI whose path has "." or ".."
// segments reads back normalized (RDF/XML readers resolve rdf:about and
// rdf:resource values by RFC 3986).
//
// It is an error if d has quads in a named graph, if a predicate IRI cannot
// be split into a namespace and an XML NCName local name (one that readers
// of XML 1.0 before its fifth edition, such as Go's encoding/xml, also
// accept: not U+3400 or U+1F600, for example) or is an RDF/XML
// syntax name (such as rdf:li or rdf:about), or if a literal holds a
// character that XML 1.0 cannot represent. RDF 1.2 triple terms are written
// as rdf:parseType="Triple" property elements (with rdf:version="1.2" on
// rdf:RDF).
func Write(w io.Writer, d *rdf.Dataset, opts WriteOptions) error {
	quads := d.Sorted()
	for _, q := range quads {
		if !q.G.IsZero() {
			return fmt.Errorf("rdfxml: RDF/XML cannot hold named graphs (graph %s)", q.G)
		}
	}
	indent := opts.Indent
	if indent == "" {
		indent = "  "
	}

	// Namespaces of the predicates, and whether RDF 1.2 directions occur.
	type split struct{ ns, local string }
	splits := map[string]split{}
	names := newXMLNames()
	needed := map[string]bool{rdf.RDFNS: true}
	dir, version := false, false
	// Triple terms' triples are written as property elements too.
	var inner []rdf.Quad
	var collect func(t rdf.Term) error
	collect = func(t rdf.Term) error {
		s, p, o, err := t.Triple()
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrTripleTerm, t, err)
		}
		inner = append(inner, rdf.Quad{S: s, P: p, O: o})
		if o.Kind == rdf.TripleKind {
			return collect(o)
		}
		return nil
	}
	for _, q := range quads {
		if q.O.Kind == rdf.TripleKind {
			version = true
			if err := collect(q.O); err != nil {
				return err
			}
		}
	}
	for _, q := range append(slices.Clone(quads), inner...) {
		if q.O.Dir != "" {
			dir = true
		}
		if _, ok := splits[q.P.Value]; ok {
			continue
		}
		if q.P.Kind != rdf.IRIKind {
			return fmt.Errorf("rdfxml: predicate %s is not an IRI", q.P)
		}
		ns, local, ok := splitIRI(q.P.Value, names)
		if !ok || ns == "" {
			return fmt.Errorf("rdfxml: predicate <%s> does not end in an XML name that XML 1.0 readers before the fifth edition (such as Go's encoding/xml) also accept, so RDF/XML cannot write it", q.P.Value)
		}
		if ns == rdf.RDFNS && (isCoreSyntaxTerm(local) || isOldTerm(local) || local == nameLi || local == nameDescription) {
			return fmt.Errorf("rdfxml: predicate rdf:%s is an RDF/XML syntax name and cannot be written as a property", local)
		}
		splits[q.P.Value] = split{ns, local}
		needed[ns] = true
	}
	if dir {
		needed[itsNS] = true
	}
	prefixes := assignPrefixes(needed, append(slices.Clone(opts.Prefixes), d.Prefixes...))
	labels := blankLabels(append(slices.Clone(quads), inner...))

	bw := bufio.NewWriter(w)
	ew := &errWriter{w: bw}
	ew.str(`<?xml version="1.0" encoding="utf-8"?>` + "\n<rdf:RDF")
	nss := slices.SortedFunc(maps.Keys(prefixes), func(a, b string) int { return strings.Compare(prefixes[a], prefixes[b]) })
	for _, ns := range nss {
		ew.str("\n" + indent + "xmlns:" + prefixes[ns] + `="`)
		ew.attr(ns)
		ew.str(`"`)
	}
	if dir || version {
		ew.str("\n" + indent + `rdf:version="1.2"`)
	}
	ew.str(">\n")

	// subject ends the start tag of a node element with the attribute
	// that names its subject s.
	subject := func(s rdf.Term) {
		if s.Kind == rdf.BlankKind {
			ew.str(`rdf:nodeID="` + labels[s.Value] + `">` + "\n")
			return
		}
		ew.str(`rdf:about="`)
		ew.attr(s.Value)
		ew.str("\">\n")
	}

	// prop writes the property element of p and o at the given depth; a
	// triple term object is rdf:parseType="Triple" around a node element
	// with its one triple.
	var prop func(level int, p, o rdf.Term)
	prop = func(level int, p, o rdf.Term) {
		pad := strings.Repeat(indent, level)
		sp := splits[p.Value]
		name := prefixes[sp.ns] + ":" + sp.local
		ew.str(pad + "<" + name)
		switch o.Kind {
		case rdf.IRIKind:
			ew.str(` rdf:resource="`)
			ew.attr(o.Value)
			ew.str("\"/>\n")
			return
		case rdf.BlankKind:
			ew.str(` rdf:nodeID="` + labels[o.Value] + "\"/>\n")
			return
		case rdf.TripleKind:
			ts, tp, to, _ := o.Triple() // checked by collect
			ew.str(` rdf:parseType="Triple">` + "\n" + pad + indent + "<rdf:Description ")
			subject(ts)
			prop(level+2, tp, to)
			ew.str(pad + indent + "</rdf:Description>\n" + pad + "</" + name + ">\n")
			return
		}
		switch {
		case o.Lang != "":
			ew.str(` xml:lang="`)
			ew.attr(o.Lang)
			ew.str(`"`)
			if o.Dir != "" {
				ew.str(" " + prefixes[itsNS] + `:dir="`)
				ew.attr(o.Dir)
				ew.str(`"`)
			}
		case o.Datatype != "" && o.Datatype != rdf.XSDString:
			ew.str(` rdf:datatype="`)
			ew.attr(o.Datatype)
			ew.str(`"`)
		}
		ew.str(">")
		ew.text(o.Value)
		ew.str("</" + name + ">\n")
	}

	for i := 0; i < len(quads); {
		s := quads[i].S
		ew.str(indent + "<rdf:Description ")
		subject(s)
		for ; i < len(quads) && quads[i].S == s; i++ {
			prop(2, quads[i].P, quads[i].O)
		}
		ew.str(indent + "</rdf:Description>\n")
	}
	ew.str("</rdf:RDF>\n")
	if ew.err != nil {
		return ew.err
	}
	return bw.Flush()
}

// assignPrefixes chooses a prefix for each needed namespace.
func assignPrefixes(needed map[string]bool, preferred []rdf.Prefix) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	take := func(name, ns string) bool {
		// Prefix names are ASCII: encoding/xml, which the reader uses,
		// refuses some names XML 1.0 (fifth edition) allows.
		if !needed[ns] || out[ns] != "" || used[name] || !isNCName(name) || !isASCII(name) ||
			len(name) >= 3 && strings.EqualFold(name[:3], "xml") {
			return false
		}
		out[ns], used[name] = name, true
		return true
	}
	take("rdf", rdf.RDFNS) // the writer spells the syntax names rdf:...
	for _, p := range preferred {
		take(p.Name, p.IRI)
	}
	take("its", itsNS)
	rest := make([]string, 0, len(needed))
	for ns := range needed {
		if out[ns] == "" {
			rest = append(rest, ns)
		}
	}
	slices.Sort(rest)
	n := 0
	for _, ns := range rest {
		for {
			n++
			if take("ns"+strconv.Itoa(n), ns) {
				break
			}
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// blankLabels maps blank node labels to rdf:nodeID values: a label that is
// an NCName is kept, others get b1, b2, ... (in sorted order, avoiding the
// kept ones).
func blankLabels(quads []rdf.Quad) map[string]string {
	var all []string
	for _, q := range quads {
		for _, t := range [2]rdf.Term{q.S, q.O} {
			if t.Kind == rdf.BlankKind {
				all = append(all, t.Value)
			}
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	out := make(map[string]string, len(all))
	used := map[string]bool{}
	for _, l := range all {
		if isNCName(l) {
			out[l], used[l] = l, true
		}
	}
	n := 0
	for _, l := range all {
		if out[l] != "" {
			continue
		}
		for {
			n++
			c := "b" + strconv.Itoa(n)
			if !used[c] {
				out[l], used[c] = c, true
				break
			}
		}
	}
	return out
}

// errWriter writes to a bufio.Writer and keeps the first error, including
// the characters XML 1.0 cannot represent.
type errWriter struct {
	w   *bufio.Writer
	err error
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// text writes character data, escaping &, <, > and carriage returns.
func (e *errWriter) text(s string) { e.escaped(s, false) }

// attr writes an attribute value (without quotes), escaping &, <, " and the
// white space characters that attribute normalization would change.
func (e *errWriter) attr(s string) { e.escaped(s, true) }

func (e *errWriter) escaped(s string, attr bool) {
	start := 0
	for i := 0; i < len(s) && e.err == nil; {
		r, size := utf8.DecodeRuneInString(s[i:])
		rep := xmlEscape(r, attr)
		switch {
		case r == utf8.RuneError && size == 1:
			e.err = fmt.Errorf("rdfxml: invalid UTF-8 in %q", s)
			return
		case rep != "":
		case r < 0x20 && r != '\t' && r != '\n', r == 0xFFFE, r == 0xFFFF:
			e.err = fmt.Errorf("rdfxml: the character U+%04X cannot be written in XML 1.0", r)
			return
		default:
			i += size
			continue
		}
		e.str(s[start:i])
		e.str(rep)
		i += size
		start = i
	}
	e.str(s[start:])
}
