package isolda

import (
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/isolda/internal/naming"
	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// Label predicates in the order of preference (SPEC.md, "Labels").
var labelPreds = []string{
	"http://schema.org/name", "https://schema.org/name",
	"http://schema.org/headline", "https://schema.org/headline",
	rdf.RDFSNS + "label",
	"http://purl.org/dc/terms/title",
	"http://xmlns.com/foaf/0.1/name",
	"http://www.w3.org/2004/02/skos/core#prefLabel",
}

// labelRank returns the rank of a label predicate (both schema.org schemes
// share a rank), or -1.
func labelRank(iri string) int {
	for i, p := range labelPreds {
		if p == iri {
			if i < 4 {
				return i / 2
			}
			return i - 2
		}
	}
	return -1
}

// names chooses @vocab, the prefixes and the @term aliases.
func (e *encoder) names() {
	if e.v04 {
		e.names04()
		return
	}
	// @vocab: the namespace of most predicate and class occurrences.
	vc := map[string]int{}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue // written as a (N) cell
		}
		p := e.term(q[1]).Value
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			ns, l := naming.SplitNS(e.term(q[2]).Value)
			if syntax.IsName(l) && !naming.ReservedBare(l) {
				vc[ns]++
			}
			continue
		}
		ns, l := naming.SplitNS(p)
		if syntax.IsName(l) && !naming.ReservedBare(l) {
			vc[ns]++
		}
	}
	best := 0
	for _, ns := range naming.SortedKeys(vc) {
		if vc[ns] > best {
			best, e.n.Vocab = vc[ns], ns
		}
	}
	// Prefixes: namespaces used three or more times outside bare names.
	bareVocab := func(iri string) bool {
		if e.n.Vocab == "" || !strings.HasPrefix(iri, e.n.Vocab) {
			return false
		}
		l := iri[len(e.n.Vocab):]
		return syntax.IsName(l) && !naming.ReservedBare(l)
	}
	uses := map[string]int{}
	add := func(iri string) {
		ns, _ := naming.SplitNS(iri)
		if ns != "" {
			uses[ns]++
		}
	}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			// A (N) cell writes only the items: IRIs that are not
			// entities, and datatypes.
			if q[1] == e.typeID || e.term(q[1]).Value != rdf.RDFFirst {
				continue
			}
			switch o := e.term(q[2]); {
			case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
				add(o.Value)
			case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
				add(o.Datatype)
			}
			continue
		}
		s, p, o, g := e.term(q[0]), e.term(q[1]), e.term(q[2]), e.term(q[3])
		if s.Kind == rdf.IRIKind {
			add(s.Value)
		}
		isType := q[1] == e.typeID && o.Kind == rdf.IRIKind
		if !isType && !bareVocab(p.Value) {
			add(p.Value)
		}
		switch {
		case isType:
			if !bareVocab(o.Value) {
				add(o.Value)
			}
		case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
			add(o.Value)
		case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
			add(o.Datatype)
		}
		if g.Kind == rdf.IRIKind {
			add(g.Value)
		}
	}
	// DatatypePrefixes: the xsd or rdf namespace of a written datatype is
	// declared whatever its number of uses.
	dtNS := map[string]bool{}
	if e.dtPrefixes {
		for id := 1; id <= e.d.NumTerms(); id++ {
			t := e.term(rdf.TermID(id))
			if t.Kind != rdf.LiteralKind || t.Lang != "" || t.Datatype == rdf.XSDString || syntax.ShortOf(t.Datatype) != "" {
				continue
			}
			if ns, l := naming.SplitNS(t.Datatype); naming.IsLocal(l) && (ns == rdf.XSD || ns == rdf.RDFNS) {
				dtNS[ns] = true
			}
		}
	}
	var chosen []string
	for _, ns := range naming.SortedKeys(uses) {
		if (uses[ns] >= 3 || dtNS[ns]) && (e.vocabPrefix || ns != e.n.Vocab) {
			chosen = append(chosen, ns)
		}
	}
	taken := func(name string) bool {
		_, ok := e.n.PrefixNS[name]
		return ok || naming.ReservedPrefix(name) || !syntax.IsName(name)
	}
	assign := func(name, ns string) {
		e.n.PrefixNS[name] = ns
		e.n.NSPrefix[ns] = name
	}
	wellKnown := naming.WellKnown()
	for _, ns := range chosen {
		for _, wk := range wellKnown {
			if wk[1] == ns && !taken(wk[0]) {
				assign(wk[0], ns)
				break
			}
		}
	}
	for _, ns := range chosen {
		if _, ok := e.n.NSPrefix[ns]; ok {
			continue
		}
		var names []string
		for _, p := range e.d.Prefixes {
			if p.IRI == ns && !taken(p.Name) {
				names = append(names, p.Name)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			assign(names[0], ns)
		}
	}
	k := 1
	for _, ns := range chosen {
		if _, ok := e.n.NSPrefix[ns]; ok {
			continue
		}
		for taken("ns" + strconv.Itoa(k)) {
			k++
		}
		assign("ns"+strconv.Itoa(k), ns)
	}
	if e.termAliases {
		e.aliases()
	}
}

// aliases declares @term names for predicates and classes that have a label
// and are not written bare.
func (e *encoder) aliases() {
	isClass := map[rdf.TermID]bool{}
	terms := map[rdf.TermID]bool{}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue
		}
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			isClass[q[2]] = true
			terms[q[2]] = true
		} else {
			terms[q[1]] = true
		}
	}
	var list []rdf.TermID
	used := map[string]bool{}
	for id := range terms {
		if l, ok := e.n.Bare(e.term(id).Value); ok {
			used[l] = true
			continue
		}
		if e.termLabel(id) != 0 {
			list = append(list, id)
		}
	}
	slices.SortFunc(list, func(a, b rdf.TermID) int { return strings.Compare(e.term(a).Value, e.term(b).Value) })
	for _, id := range list {
		a := naming.Camel(e.term(e.termLabel(id)).Value, isClass[id], e.v04 || e.ver == V03)
		if a == "" || naming.ReservedBare(a) || used[a] || e.n.PrefixNS[a] != "" || naming.ReservedPrefix(a) {
			continue
		}
		used[a] = true
		e.n.Alias[e.term(id).Value] = a
		e.n.AliasIRI[a] = e.term(id).Value
	}
}
