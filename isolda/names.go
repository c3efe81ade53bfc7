package isolda

import (
	"github.com/isolda/isolda/isolda/internal/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/isolda/isolda/rdf"
	"golang.org/x/text/unicode/norm"
)

// Well-known namespaces and their prefix names (SPEC.md, "Prefixes").
var wellKnown = [][2]string{
	{"rdf", rdf.RDFNS},
	{"rdfs", rdf.RDFSNS},
	{"xsd", rdf.XSD},
	{"owl", "http://www.w3.org/2002/07/owl#"},
	{"skos", "http://www.w3.org/2004/02/skos/core#"},
	{"dct", "http://purl.org/dc/terms/"},
	{"dc", "http://purl.org/dc/elements/1.1/"},
	{"foaf", "http://xmlns.com/foaf/0.1/"},
	{"schema", "http://schema.org/"},
	{"schema", "https://schema.org/"},
	{"dcat", "http://www.w3.org/ns/dcat#"},
	{"prov", "http://www.w3.org/ns/prov#"},
	{"wd", "http://www.wikidata.org/entity/"},
	{"wdt", "http://www.wikidata.org/prop/direct/"},
	{"p", "http://www.wikidata.org/prop/"},
	{"ps", "http://www.wikidata.org/prop/statement/"},
	{"pq", "http://www.wikidata.org/prop/qualifier/"},
	{"wikibase", "http://wikiba.se/ontology#"},
	{"ontolex", "http://www.w3.org/ns/lemon/ontolex#"},
	{"lexinfo", "http://www.lexinfo.net/ontology/3.0/lexinfo#"},
	{"sh", "http://www.w3.org/ns/shacl#"},
	{"void", "http://rdfs.org/ns/void#"},
	{"vcard", "http://www.w3.org/2006/vcard/ns#"},
	{"org", "http://www.w3.org/ns/org#"},
	{"geo", "http://www.opengis.net/ont/geosparql#"},
	{"time", "http://www.w3.org/2006/time#"},
	{"dcmitype", "http://purl.org/dc/dcmitype/"},
	{"nmo", "http://nomisma.org/ontology#"},
}

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

// reservedBare are names that may not be written as bare terms.
func reservedBare(s string) bool {
	return s == "a" || s == "id" || s == "Thing_"
}

// reservedPrefix are names that may not be prefix names.
func reservedPrefix(s string) bool {
	switch s {
	case "a", "id", "iri", "int", "decimal", "double", "bool", "date", "dateTime",
		"http", "https", "urn", "mailto", "file", "ftp", "tag", "data", "_", "Thing_":
		return true
	}
	return false
}

// namer writes IRIs as terms (headers) and as cell values.
type namer struct {
	v02 quoting
	v04 bool // 0.4 bare terms, `:local` IRIs, predeclared prefixes
	// angleNS (0.1 and 0.2): a term whose local part is not a LOCAL is
	// written <pfx:rest> when its namespace is declared (SPEC.md section 4,
	// rule 4), so an IRI written <x:...> with x a declared prefix escapes
	// that ':'.
	angleNS  bool
	vocab    string
	implicit map[string]bool   // predeclared prefix names (0.4): no @prefix line
	use      map[string]bool   // 0.4: glossary flags of the forms written (shared with the encoder)
	nsPrefix map[string]string // namespace -> prefix name
	prefixNS map[string]string // prefix name -> namespace
	alias    map[string]string // IRI -> alias
	aliasIRI map[string]string // alias -> IRI
}

func newNamer(v02 quoting) *namer {
	return &namer{v02: v02, nsPrefix: map[string]string{}, prefixNS: map[string]string{},
		alias: map[string]string{}, aliasIRI: map[string]string{}, implicit: map[string]bool{}}
}

// bare returns the vocab local name of iri when it can be written bare.
func (n *namer) bare(iri string) (string, bool) {
	if n.vocab == "" || !strings.HasPrefix(iri, n.vocab) {
		return "", false
	}
	l := iri[len(n.vocab):]
	if n.v04 {
		var ok bool
		if l, ok = bareTerm04(l); !ok {
			return "", false
		}
	}
	if !n.v04 && !syntax.IsName(l) || reservedBare(l) {
		return "", false
	}
	if _, ok := n.prefixNS[l]; ok {
		return "", false
	}
	if _, ok := n.aliasIRI[l]; ok {
		return "", false
	}
	return l, true
}

// appendTerm appends iri as a term: alias, vocab name, pfx:local or <iri>.
func (n *namer) appendTerm(b []byte, iri string) []byte {
	if a, ok := n.alias[iri]; ok {
		return append(b, a...)
	}
	if l, ok := n.bare(iri); ok {
		if n.v04 && strings.IndexByte(l, ' ') >= 0 {
			n.use["space"] = true
		}
		return append(b, l...)
	}
	return n.appendPrefixed(b, iri)
}

// appendPrefixed appends pfx:local or <iri> (0.1 and 0.2: <pfx:rest> when
// the namespace is declared but its local part is not a LOCAL).
func (n *namer) appendPrefixed(b []byte, iri string) []byte {
	ns, local := splitNS(iri)
	p, declared := n.nsPrefix[ns]
	if declared && (isLocal(local) || !n.v04 && !n.angleNS && isLocalPct(local)) {
		if n.v04 {
			n.use["prefix"] = true
		}
		b = append(b, p...)
		b = append(b, ':')
		return append(b, local...)
	}
	if n.angleNS {
		if declared && local != "" {
			b = append(b, '<')
			b = append(b, p...)
			b = append(b, ':')
			b = appendAngleBody(b, local)
			return append(b, '>')
		}
		if i := strings.IndexByte(iri, ':'); i > 0 {
			if _, ok := n.prefixNS[iri[:i]]; ok {
				// The IRI itself starts like <pfx:...>: its ':' is escaped.
				b = append(b, '<')
				b = append(b, iri[:i]...)
				b = append(b, `\u003a`...)
				b = appendAngleBody(b, iri[i+1:])
				return append(b, '>')
			}
		}
	}
	return appendAngle(b, iri)
}

// appendDatatype appends the datatype part after ':' in a header.
func (n *namer) appendDatatype(b []byte, dt string) []byte {
	if s := syntax.ShortOf(dt); s != "" {
		return append(b, s...)
	}
	return n.appendPrefixed(b, dt)
}

// appendIRICell appends an IRI as a cell value: pfx:local, the bare IRI, or
// the IRI as a JSON string.
func (n *namer) appendIRICell(b []byte, iri string, ctx int) []byte {
	if n.v04 {
		// 0.4: the longest namespace the IRI starts with: @vocab (:rest)
		// or a declared or well-known prefix (pfx:rest).
		for j := len(iri); j > 0; j-- {
			if c := iri[j-1]; c != '/' && c != '#' && c != ':' {
				continue
			}
			ns := iri[:j]
			if ns == n.vocab && j < len(iri) {
				if c := ":" + iri[j:]; !needsQuote(c, n.v02, ctx) {
					n.use["vocabiri"] = true
					return append(b, c...)
				}
				break
			}
			if p, ok := n.nsPrefix[ns]; ok {
				if c := p + ":" + iri[j:]; !needsQuote(c, n.v02, ctx) {
					n.use["prefix"] = true
					return append(b, c...)
				}
				break
			}
		}
	}
	ns, local := splitNS(iri)
	if p, ok := n.nsPrefix[ns]; ok {
		c := p + ":" + local
		if !needsQuote(c, n.v02, ctx) {
			if n.v04 {
				n.use["prefix"] = true
			}
			return append(b, c...)
		}
	}
	if !needsQuote(iri, n.v02, ctx) && !strings.HasPrefix(iri, "_:") && !strings.HasPrefix(iri, "<") && !(n.v04 && strings.HasPrefix(iri, ":")) {
		if i := strings.IndexByte(iri, ':'); i < 0 || n.prefixNS[iri[:i]] == "" {
			return append(b, iri...)
		}
	}
	return appendQuoted(b, iri)
}

// slugify makes a slug: letters and digits lower-cased (diacritics removed),
// runs of anything else and camelCase boundaries turned into one '-'.
func slugify(s string) string {
	s = norm.NFKD.String(s)
	var b strings.Builder
	dash := false
	prevLower := false
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if unicode.IsUpper(r) && prevLower && b.Len() > 0 {
				dash = true
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
			b.WriteRune(unicode.ToLower(r))
			n++
			if n >= 60 {
				break
			}
			continue
		}
		dash = true
		prevLower = false
	}
	return b.String()
}

// camel makes a term alias from a label: words of letters and digits
// (diacritics removed) joined in lowerCamelCase, or UpperCamelCase for classes.
// With limit (0.3 and 0.4, isolda's versions), an alias longer than 40
// bytes is not made; 0.2 has no limit (the paper states none, SPEC.md
// section 4.3).
func camel(label string, upper, limit bool) string {
	s := norm.NFKD.String(label)
	var words []string
	var w strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			w.WriteRune(r)
			continue
		}
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	if w.Len() > 0 {
		words = append(words, w.String())
	}
	var b strings.Builder
	for i, word := range words {
		if i == 0 && !upper {
			b.WriteString(strings.ToLower(word[:1]) + word[1:])
		} else {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	out := b.String()
	if out == "" || limit && len(out) > 40 {
		return ""
	}
	if !syntax.IsNameStart(out[0]) {
		out = "_" + out
	}
	return out
}

// sortedKeys returns a map's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
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
			ns, l := splitNS(e.term(q[2]).Value)
			if syntax.IsName(l) && !reservedBare(l) {
				vc[ns]++
			}
			continue
		}
		ns, l := splitNS(p)
		if syntax.IsName(l) && !reservedBare(l) {
			vc[ns]++
		}
	}
	best := 0
	for _, ns := range sortedKeys(vc) {
		if vc[ns] > best {
			best, e.n.vocab = vc[ns], ns
		}
	}
	// Prefixes: namespaces used three or more times outside bare names.
	bareVocab := func(iri string) bool {
		if e.n.vocab == "" || !strings.HasPrefix(iri, e.n.vocab) {
			return false
		}
		l := iri[len(e.n.vocab):]
		return syntax.IsName(l) && !reservedBare(l)
	}
	uses := map[string]int{}
	add := func(iri string) {
		ns, _ := splitNS(iri)
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
			if ns, l := splitNS(t.Datatype); isLocal(l) && (ns == rdf.XSD || ns == rdf.RDFNS) {
				dtNS[ns] = true
			}
		}
	}
	var chosen []string
	for _, ns := range sortedKeys(uses) {
		if (uses[ns] >= 3 || dtNS[ns]) && (e.vocabPrefix || ns != e.n.vocab) {
			chosen = append(chosen, ns)
		}
	}
	taken := func(name string) bool {
		_, ok := e.n.prefixNS[name]
		return ok || reservedPrefix(name) || !syntax.IsName(name)
	}
	assign := func(name, ns string) {
		e.n.prefixNS[name] = ns
		e.n.nsPrefix[ns] = name
	}
	for _, ns := range chosen {
		for _, wk := range wellKnown {
			if wk[1] == ns && !taken(wk[0]) {
				assign(wk[0], ns)
				break
			}
		}
	}
	for _, ns := range chosen {
		if _, ok := e.n.nsPrefix[ns]; ok {
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
		if _, ok := e.n.nsPrefix[ns]; ok {
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
		if l, ok := e.n.bare(e.term(id).Value); ok {
			used[l] = true
			continue
		}
		if e.termLabel(id) != 0 {
			list = append(list, id)
		}
	}
	slices.SortFunc(list, func(a, b rdf.TermID) int { return strings.Compare(e.term(a).Value, e.term(b).Value) })
	for _, id := range list {
		a := camel(e.term(e.termLabel(id)).Value, isClass[id], e.v04 || e.ver == V03)
		if a == "" || reservedBare(a) || used[a] || e.n.prefixNS[a] != "" || reservedPrefix(a) {
			continue
		}
		used[a] = true
		e.n.alias[e.term(id).Value] = a
		e.n.aliasIRI[a] = e.term(id).Value
	}
}
