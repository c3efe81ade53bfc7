package graph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// Well-known IRIs.
const (
	RDFType   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	RDFSLabel = "http://www.w3.org/2000/01/rdf-schema#label"
	xsdString = "http://www.w3.org/2001/XMLSchema#string"
	langStr   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
	dirLangS  = "http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString"
)

// DefaultLabelPredicates are the label predicates FromRDF looks at, in
// order of preference.
func DefaultLabelPredicates() []string {
	return []string{
		RDFSLabel,
		"http://www.w3.org/2004/02/skos/core#prefLabel",
		"http://schema.org/name",
		"https://schema.org/name",
		"http://xmlns.com/foaf/0.1/name",
		"http://purl.org/dc/terms/title",
		"http://purl.org/dc/elements/1.1/title",
		"http://www.w3.org/2004/02/skos/core#altLabel",
		"http://www.wikidata.org/prop/direct/P1476",
		"http://www.w3.org/ns/lemon/ontolex#writtenRep",
		"http://purl.org/dc/terms/identifier",
	}
}

// CommonPrefixes are namespaces FromRDF compacts with when the dataset did
// not declare them.
func CommonPrefixes() []rdf.Prefix {
	return []rdf.Prefix{
		{Name: "rdf", IRI: "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
		{Name: "rdfs", IRI: "http://www.w3.org/2000/01/rdf-schema#"},
		{Name: "owl", IRI: "http://www.w3.org/2002/07/owl#"},
		{Name: "xsd", IRI: "http://www.w3.org/2001/XMLSchema#"},
		{Name: "skos", IRI: "http://www.w3.org/2004/02/skos/core#"},
		{Name: "schema", IRI: "http://schema.org/"},
		{Name: "schema", IRI: "https://schema.org/"},
		{Name: "foaf", IRI: "http://xmlns.com/foaf/0.1/"},
		{Name: "dcterms", IRI: "http://purl.org/dc/terms/"},
		{Name: "dc", IRI: "http://purl.org/dc/elements/1.1/"},
		{Name: "dcat", IRI: "http://www.w3.org/ns/dcat#"},
		{Name: "prov", IRI: "http://www.w3.org/ns/prov#"},
		{Name: "wd", IRI: "http://www.wikidata.org/entity/"},
		{Name: "wdt", IRI: "http://www.wikidata.org/prop/direct/"},
		{Name: "ontolex", IRI: "http://www.w3.org/ns/lemon/ontolex#"},
	}
}

// Options configure FromRDF.
type Options struct {
	// LabelPredicates are the predicates whose literal values label a node,
	// in order of preference; nil means DefaultLabelPredicates.
	LabelPredicates []string
	// Languages are the preferred label languages in order ("" is a
	// literal without language); nil means "en", then "". Labels in other
	// languages are used when no preferred one exists.
	Languages []string
	// Prefixes compact IRIs into ids; the dataset's own prefixes come first,
	// then these, then CommonPrefixes unless NoCommonPrefixes.
	Prefixes         []rdf.Prefix
	NoCommonPrefixes bool
	// Undirected makes the resulting graph undirected.
	Undirected bool
}

// Compactor writes IRIs as prefixed names the way FromRDF writes node and
// edge ids: with the longest namespace that leaves a clean local name
// (non-empty, of letters, digits and - _ . only, not ending in a dot).
type Compactor struct {
	prefixes []rdf.Prefix // longest namespace first
}

// NewCompactor returns the Compactor of the prefix lists, in order of
// precedence: the first prefix of each namespace and of each name counts.
func NewCompactor(lists ...[]rdf.Prefix) *Compactor {
	var all []rdf.Prefix
	seenNS := map[string]bool{}
	seenName := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			if p.IRI == "" || seenNS[p.IRI] || seenName[p.Name] {
				continue
			}
			seenNS[p.IRI], seenName[p.Name] = true, true
			all = append(all, p)
		}
	}
	slices.SortStableFunc(all, func(a, b rdf.Prefix) int { return cmp.Compare(len(b.IRI), len(a.IRI)) })
	return &Compactor{prefixes: all}
}

// localOK reports whether local reads well after a prefix: non-empty, of
// letters, digits and - _ . only, not ending in a dot.
func localOK(local string) bool {
	if local == "" || strings.HasSuffix(local, ".") {
		return false
	}
	for _, r := range local {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f) {
			return false
		}
	}
	return true
}

// Compact returns iri as a prefixed name, and false when no prefix
// leaves a clean local name.
func (c *Compactor) Compact(iri string) (string, bool) {
	for _, p := range c.prefixes {
		if local, ok := strings.CutPrefix(iri, p.IRI); ok && localOK(local) {
			return p.Name + ":" + local, true
		}
	}
	return "", false
}

// iri compacts iri, leaving it whole when no prefix fits.
func (c *Compactor) iri(iri string) string {
	if name, ok := c.Compact(iri); ok {
		return name
	}
	return iri
}

func (c *Compactor) term(t rdf.Term) string {
	if t.IsBlank() {
		return "_:" + t.Value
	}
	if t.IsTriple() {
		// An RDF 1.2 triple term: its canonical N-Triples form, so that
		// its id reads as a triple and cannot clash with an IRI's.
		return t.String()
	}
	return c.iri(t.Value)
}

// FromRDF derives the labelled graph of a dataset (all graphs merged):
//
//   - nodes are the IRIs and blank nodes that are subjects, or objects of a
//     triple other than rdf:type, sorted by ID;
//   - ID is the IRI compacted with a prefix (dataset, Options.Prefixes,
//     CommonPrefixes), the full IRI when no prefix gives a clean local name
//     or when two IRIs would share an id, and _:label for blank nodes;
//   - Label is a literal of the most preferred label predicate, preferring
//     Options.Languages in order, then the smallest lexical form;
//   - Types are the compacted rdf:type objects;
//   - edges are the triples whose object is an IRI or blank node, except
//     rdf:type, typed with the compacted predicate, sorted and distinct;
//   - every literal-valued triple (labels included) is an Attr.
func FromRDF(d *rdf.Dataset, opts Options) *Graph {
	var common []rdf.Prefix
	if !opts.NoCommonPrefixes {
		common = CommonPrefixes()
	}
	c := NewCompactor(d.Prefixes, opts.Prefixes, common)
	labelPreds := opts.LabelPredicates
	if labelPreds == nil {
		labelPreds = DefaultLabelPredicates()
	}
	langs := opts.Languages
	if langs == nil {
		langs = []string{"en", ""}
	}

	type nodeInfo struct {
		term  rdf.Term
		types []string
		attrs []Attr
		label rdf.Term
		rank  [3]int // label predicate rank, language rank, 0
	}
	nodes := map[rdf.Term]*nodeInfo{}
	var order []rdf.Term
	node := func(t rdf.Term) *nodeInfo {
		k := t.Key()
		if n, ok := nodes[k]; ok {
			return n
		}
		n := &nodeInfo{term: t, rank: [3]int{len(labelPreds), len(langs) + 1, 0}}
		nodes[k] = n
		order = append(order, k)
		return n
	}
	type rawEdge struct{ s, p, o rdf.Term }
	var edges []rawEdge
	langRank := func(lang string) int {
		for i, l := range langs {
			if strings.EqualFold(l, lang) || (l != "" && len(lang) > len(l) && strings.EqualFold(lang[:len(l)], l) && lang[len(l)] == '-') {
				return i
			}
		}
		return len(langs)
	}
	for _, q := range d.Sorted() {
		s := node(q.S)
		switch {
		case q.O.IsLiteral():
			dt := q.O.Datatype
			if dt == xsdString || dt == langStr || dt == dirLangS {
				dt = ""
			} else {
				dt = c.iri(dt)
			}
			s.attrs = append(s.attrs, Attr{Key: c.iri(q.P.Value), Value: q.O.Value, Lang: q.O.Lang, Datatype: dt})
			if pi := slices.Index(labelPreds, q.P.Value); pi >= 0 {
				r := [3]int{pi, langRank(q.O.Lang), 0}
				if cmpRank(r, s.rank) < 0 || (r == s.rank && q.O.Value < s.label.Value) {
					s.rank, s.label = r, q.O
				}
			}
		case q.P.Value == RDFType:
			s.types = append(s.types, c.term(q.O))
		default:
			node(q.O)
			edges = append(edges, rawEdge{q.S, q.P, q.O})
		}
	}

	// Ids, with a fall back to full IRIs on collisions.
	ids := map[rdf.Term]string{}
	byID := map[string][]rdf.Term{}
	for _, k := range order {
		id := c.term(nodes[k].term)
		ids[k] = id
		byID[id] = append(byID[id], k)
	}
	for _, k := range order {
		if len(byID[ids[k]]) > 1 && k.IsIRI() {
			ids[k] = k.Value
		}
	}

	g := &Graph{Directed: !opts.Undirected}
	for _, k := range order {
		n := nodes[k]
		slices.Sort(n.types)
		slices.SortFunc(n.attrs, compareAttrs)
		g.Nodes = append(g.Nodes, Node{
			ID:    ids[k],
			Label: n.label.Value,
			Types: slices.Compact(n.types),
			Attrs: slices.Compact(n.attrs),
		})
	}
	slices.SortFunc(g.Nodes, func(a, b Node) int { return cmp.Compare(a.ID, b.ID) })
	for _, e := range edges {
		g.Edges = append(g.Edges, Edge{From: ids[e.s.Key()], To: ids[e.o.Key()], Type: c.iri(e.p.Value)})
	}
	slices.SortFunc(g.Edges, CompareEdges)
	g.Edges = slices.Compact(g.Edges)
	return g
}

func cmpRank(a, b [3]int) int {
	for i := range a {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareAttrs(a, b Attr) int {
	return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value),
		cmp.Compare(a.Lang, b.Lang), cmp.Compare(a.Datatype, b.Datatype))
}
