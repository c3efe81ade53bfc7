package kgllmbench

import (
	"bufio"
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/rdf"
)

// This file emulates what the benchmark's make_rdflib_graph builds and what
// rdflib 7's Turtle serializer (plugins/serializers/turtle.py) and JSON-LD
// serializer (plugins/serializers/jsonld.py) write for it.

const (
	exNS        = "http://example.org/countries#"
	rdfProperty = rdf.RDFNS + "Property"
	rdfsLabel   = rdf.RDFSNS + "label"
	exCountry   = exNS + "Country"
)

// term is an IRI or a plain literal.
type term struct {
	value string
	lit   bool
}

func (t term) key() string {
	if t.lit {
		return "L" + t.value
	}
	return "I" + t.value
}

// rdfSubject holds one subject's predicates and objects in insertion order,
// as rdflib's Memory store iterates them.
type rdfSubject struct {
	preds []string
	objs  map[string][]term
	seen  map[string]bool // predicate + "\x00" + object key
}

// rdfGraph is a set of triples with insertion order kept.
type rdfGraph struct {
	subjects []string
	bySubj   map[string]*rdfSubject
	triples  [][3]term
}

func newRDFGraph() *rdfGraph {
	return &rdfGraph{bySubj: map[string]*rdfSubject{}}
}

func (g *rdfGraph) add(s, p string, o term) {
	sub, ok := g.bySubj[s]
	if !ok {
		sub = &rdfSubject{objs: map[string][]term{}, seen: map[string]bool{}}
		g.bySubj[s] = sub
		g.subjects = append(g.subjects, s)
	}
	k := p + "\x00" + o.key()
	if sub.seen[k] {
		return
	}
	sub.seen[k] = true
	if _, ok := sub.objs[p]; !ok {
		sub.preds = append(sub.preds, p)
	}
	sub.objs[p] = append(sub.objs[p], o)
	g.triples = append(g.triples, [3]term{{value: s}, {value: p}, o})
}

// makeRDFGraph is the benchmark's make_rdflib_graph.
func makeRDFGraph(kg *KG, entityIDs, relationIDs bool) (*rdfGraph, error) {
	ts, err := labelTriples(kg)
	if err != nil {
		return nil, err
	}
	g := newRDFGraph()
	if entityIDs {
		for _, e := range kg.Entities {
			iri := exNS + py.URLQuote(e.ID)
			g.add(iri, rdf.RDFType, term{value: exCountry})
			g.add(iri, rdfsLabel, term{value: e.Label, lit: true})
		}
	}
	if relationIDs {
		for _, r := range kg.Relations {
			iri := exNS + py.URLQuote("R"+r.ID)
			g.add(iri, rdf.RDFType, term{value: rdfProperty})
			g.add(iri, rdfsLabel, term{value: r.Label, lit: true})
		}
	}
	for _, t := range ts {
		h, r, tl := t.head, t.rel, t.tail
		if entityIDs {
			h, tl = t.headID, t.tailID
		}
		if relationIDs {
			r = "R" + t.relID
		}
		g.add(exNS+py.URLQuote(h), exNS+py.URLQuote(r), term{value: exNS + py.URLQuote(tl)})
	}
	return g, nil
}

// ---------------------------------------------------------------- Turtle

// nsManager emulates the parts of rdflib's NamespaceManager.compute_qname
// and TurtleSerializer.getQName the benchmark's IRIs reach.
type nsManager struct {
	prefixOf map[string]string // namespace -> prefix (bound in the graph)
	nsOf     map[string]string // prefix -> namespace
	used     map[string]string // prefixes the serializer used (addNamespace)
	splits   map[string]split  // split_uri results by IRI
}

type split struct {
	ns, local string
	ok        bool // split_uri succeeded
	valid     bool // _is_valid_uri
}

// rdflibDefaultPrefixes are the namespaces a rdflib 7 Graph binds by default
// ("rdflib" bind_namespaces) plus the benchmark's binds.
var rdflibDefaultPrefixes = [][2]string{
	{"brick", "https://brickschema.org/schema/Brick#"},
	{"csvw", "http://www.w3.org/ns/csvw#"},
	{"dc", "http://purl.org/dc/elements/1.1/"},
	{"dcat", "http://www.w3.org/ns/dcat#"},
	{"dcmitype", "http://purl.org/dc/dcmitype/"},
	{"dcterms", "http://purl.org/dc/terms/"},
	{"dcam", "http://purl.org/dc/dcam/"},
	{"doap", "http://usefulinc.com/ns/doap#"},
	{"foaf", "http://xmlns.com/foaf/0.1/"},
	{"geo", "http://www.opengis.net/ont/geosparql#"},
	{"odrl", "http://www.w3.org/ns/odrl/2/"},
	{"org", "http://www.w3.org/ns/org#"},
	{"prof", "http://www.w3.org/ns/dx/prof/"},
	{"prov", "http://www.w3.org/ns/prov#"},
	{"qb", "http://purl.org/linked-data/cube#"},
	{"schema", "https://schema.org/"},
	{"sh", "http://www.w3.org/ns/shacl#"},
	{"skos", "http://www.w3.org/2004/02/skos/core#"},
	{"sosa", "http://www.w3.org/ns/sosa/"},
	{"ssn", "http://www.w3.org/ns/ssn/"},
	{"time", "http://www.w3.org/2006/time#"},
	{"vann", "http://purl.org/vocab/vann/"},
	{"void", "http://rdfs.org/ns/void#"},
	{"wgs", "https://www.w3.org/2003/01/geo/wgs84_pos#"},
	{"owl", "http://www.w3.org/2002/07/owl#"},
	{"rdf", rdf.RDFNS},
	{"rdfs", rdf.RDFSNS},
	{"xsd", "http://www.w3.org/2001/XMLSchema#"},
	{"xml", "http://www.w3.org/XML/1998/namespace"},
	{"ex", exNS},
}

func newNSManager() *nsManager {
	m := &nsManager{prefixOf: map[string]string{}, nsOf: map[string]string{}, used: map[string]string{}, splits: map[string]split{}}
	for _, p := range rdflibDefaultPrefixes {
		m.prefixOf[p[1]] = p[0]
		m.nsOf[p[0]] = p[1]
	}
	return m
}

func inCategories(r rune, cats ...*unicode.RangeTable) bool {
	return unicode.IsOneOf(cats, r)
}

func isNameChar(r rune) bool {
	return inCategories(r, unicode.Ll, unicode.Lu, unicode.Lo, unicode.Lt, unicode.Nl, unicode.Mc, unicode.Me, unicode.Mn, unicode.Lm, unicode.Nd)
}

func isSplitStart(r rune) bool {
	return inCategories(r, unicode.Ll, unicode.Lu, unicode.Lo, unicode.Lt, unicode.Nl, unicode.Nd) || r == '_'
}

// splitURI is rdflib.namespace.split_uri.
func splitURI(uri string) (ns, local string, ok bool) {
	const xmlns = "http://www.w3.org/XML/1998/namespace"
	if strings.HasPrefix(uri, xmlns) {
		return xmlns, strings.SplitN(uri, xmlns, 3)[1], true
	}
	rs := []rune(uri)
	for i := len(rs) - 1; i >= 0; i-- {
		c := rs[i]
		if isNameChar(c) {
			continue
		}
		if strings.ContainsRune("\u00B7\u0387-._%()", c) {
			continue
		}
		for j := i; j < len(rs); j++ {
			if isSplitStart(rs[j]) {
				if j == 0 {
					return "", "", false
				}
				return string(rs[:j]), string(rs[j:]), true
			}
		}
		return "", "", false
	}
	return "", "", false
}

// isValidURI is rdflib.term._is_valid_uri.
func isValidURI(uri string) bool {
	return !strings.ContainsAny(uri, "<>\" {}|\\^`")
}

// qname is TurtleSerializer.getQName: the prefixed name for iri, or "" when
// rdflib writes the full IRI. gen allows binding a new nsN prefix.
func (m *nsManager) qname(iri string, gen bool) string {
	sp, seen := m.splits[iri]
	if !seen {
		sp.valid = isValidURI(iri)
		if sp.valid {
			sp.ns, sp.local, sp.ok = splitURI(iri)
		}
		m.splits[iri] = sp
	}
	if !sp.valid {
		return ""
	}
	ns, local, ok := sp.ns, sp.local, sp.ok
	var prefix string
	if !ok {
		p, bound := m.prefixOf[iri]
		if !bound {
			return ""
		}
		prefix, ns, local = p, iri, ""
	} else {
		p, bound := m.prefixOf[ns]
		if !bound {
			if !gen {
				return ""
			}
			for n := 1; ; n++ {
				p = "ns" + strconv.Itoa(n)
				if _, taken := m.nsOf[p]; !taken {
					break
				}
			}
			m.prefixOf[ns] = p
			m.nsOf[p] = ns
		}
		prefix = p
	}
	local = strings.ReplaceAll(strings.ReplaceAll(local, "(", `\(`), ")", `\)`)
	if strings.HasSuffix(local, ".") {
		return ""
	}
	m.used[prefix] = ns
	return prefix + ":" + local
}

// turtleLiteral is Literal._quote_encode for a plain literal.
func turtleLiteral(s string) string {
	if strings.Contains(s, "\n") {
		enc := strings.ReplaceAll(s, `\`, `\\`)
		if strings.Contains(s, `"""`) {
			enc = strings.ReplaceAll(enc, `"""`, `\"\"\"`)
		}
		if n := len(enc); n > 0 && enc[n-1] == '"' && (n < 2 || enc[n-2] != '\\') {
			enc = enc[:n-1] + `\"`
		}
		return `"""` + strings.ReplaceAll(enc, "\r", `\r`) + `"""`
	}
	return `"` + turtleEscaper.Replace(s) + `"`
}

// turtleEscaper is immutable and safe for concurrent use.
var turtleEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`)

// writeTurtle is g.serialize(format="turtle") for make_rdflib_graph's graph.
func writeTurtle(w *bufio.Writer, kg *KG, entityIDs, relationIDs bool) error {
	g, err := makeRDFGraph(kg, entityIDs, relationIDs)
	if err != nil {
		return err
	}
	m := newNSManager()
	refs := map[string]int{}
	// preprocess: reference counts and the namespaces used.
	for _, t := range g.triples {
		if !t[2].lit {
			refs[t[2].value]++
		}
		m.qname(t[0].value, false)
		if t[1].value != rdf.RDFType {
			m.qname(t[1].value, true)
		}
		if !t[2].lit {
			m.qname(t[2].value, false)
		}
	}
	label := func(iri string, verb bool) string {
		if verb && iri == rdf.RDFType {
			return "a"
		}
		if q := m.qname(iri, verb); q != "" {
			return q
		}
		return "<" + iri + ">"
	}
	subjects := slices.Clone(g.subjects)
	slices.SortFunc(subjects, func(a, b string) int {
		return cmp.Or(cmp.Compare(refs[a], refs[b]), strings.Compare(a, b))
	})
	prefixes := slices.Sorted(maps.Keys(m.used))
	for _, p := range prefixes {
		w.WriteString("@prefix " + p + ": <" + m.used[p] + "> .\n")
	}
	for _, s := range subjects {
		sub := g.bySubj[s]
		w.WriteString("\n")
		w.WriteString(label(s, false))
		preds := sortPredicates(sub.preds)
		for i, p := range preds {
			if i > 0 {
				w.WriteString(" ;\n    ")
			} else {
				w.WriteString(" ")
			}
			w.WriteString(label(p, true))
			objs := slices.Clone(sub.objs[p])
			slices.SortFunc(objs, compareObjects)
			for j, o := range objs {
				if j > 0 {
					w.WriteString(",\n        ")
				} else {
					w.WriteString(" ")
				}
				if o.lit {
					w.WriteString(turtleLiteral(o.value))
				} else {
					w.WriteString(label(o.value, false))
				}
			}
		}
		w.WriteString(" .\n")
	}
	_, err = w.WriteString("\n")
	return err
}

// sortPredicates is TurtleSerializer.sortProperties: rdf:type, rdfs:label,
// then the others in IRI order.
func sortPredicates(preds []string) []string {
	out := make([]string, 0, len(preds))
	var rest []string
	hasType, hasLabel := false, false
	for _, p := range preds {
		switch p {
		case rdf.RDFType:
			hasType = true
		case rdfsLabel:
			hasLabel = true
		default:
			rest = append(rest, p)
		}
	}
	if hasType {
		out = append(out, rdf.RDFType)
	}
	if hasLabel {
		out = append(out, rdfsLabel)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// compareObjects orders objects as rdflib's _object_comparator: IRIs
// before literals, each by string value (code point order).
func compareObjects(a, b term) int {
	if a.lit != b.lit {
		if a.lit {
			return 1
		}
		return -1
	}
	return strings.Compare(a.value, b.value)
}

// ---------------------------------------------------------------- JSON-LD

// jsonLDContext is the benchmark's JSON-LD context, written under
// "@context" as rdflib nests it, keys sorted.
var jsonLDContext = [][2]string{{"ex", exNS}, {"label", "rdfs:label"}, {"rdf", rdf.RDFNS}, {"rdfs", rdf.RDFSNS}, {"type", "@type"}}

// shrinkIRI is rdflib's jsonld Context.shrink_iri / to_symbol for the
// benchmark's context: split at the last '#', '/' or ':' and use the ex,
// rdf or rdfs prefix when the namespace is one of them.
func shrinkIRI(iri string) string {
	for _, d := range []string{"#", "/", ":"} {
		if at := strings.LastIndex(iri, d); at >= 0 {
			ns, name := iri[:at+1], iri[at+1:]
			switch ns {
			case exNS:
				return "ex:" + name
			case rdf.RDFNS:
				return "rdf:" + name
			case rdf.RDFSNS:
				return "rdfs:" + name
			}
			return iri
		}
	}
	return iri
}

// jsonLDKey is the property key rdflib's Converter.add_to_node chooses: a
// context term whose IRI is exactly p (find_term), else the compact IRI.
func jsonLDKey(p string) string {
	switch p {
	case exNS:
		return "ex"
	case rdf.RDFNS:
		return "rdf"
	case rdf.RDFSNS:
		return "rdfs"
	case rdfsLabel:
		return "label"
	}
	return shrinkIRI(p)
}

// jsonLDValue is one value of a node property.
type jsonLDValue struct {
	id  string // "@id" of a node reference, or
	str string // a plain string (label, type)
	ref bool
}

// writeJSONLD is g.serialize(format="json-ld", indent=2, context={"@context":
// {...}}): rdflib's from_rdf with the benchmark's context, written by
// json.dumps(indent=2, sort_keys=True, ensure_ascii=False). Nodes come in
// the order rdflib gives them with PYTHONHASHSEED=0 (pySubjectOrder), the
// setting of the benchmark's regenerated instances; with another hash seed
// rdflib would order them differently.
func writeJSONLD(w *bufio.Writer, kg *KG, entityIDs, relationIDs bool) error {
	g, err := makeRDFGraph(kg, entityIDs, relationIDs)
	if err != nil {
		return err
	}
	d := py.NewDumper(w, 2, false)
	d.OpenObject()
	d.Key("@context")
	d.OpenObject()
	d.Key("@context")
	d.OpenObject()
	for _, kv := range jsonLDContext {
		d.Key(kv[0])
		d.String(kv[1])
	}
	d.Close()
	d.Close()
	d.Key("@graph")
	d.OpenArray()
	for _, s := range g.pySubjectOrder() {
		sub := g.bySubj[s]
		props := map[string][]jsonLDValue{}
		var keys []string
		addVal := func(k string, v jsonLDValue) {
			if _, ok := props[k]; !ok {
				keys = append(keys, k)
			}
			props[k] = append(props[k], v)
		}
		for _, p := range sub.preds {
			for _, o := range sub.objs[p] {
				switch {
				case p == rdfsLabel && o.lit:
					addVal("label", jsonLDValue{str: o.value})
				case p == rdf.RDFType && !o.lit:
					addVal("type", jsonLDValue{str: shrinkIRI(o.value)})
				case o.lit:
					addVal(jsonLDKey(p), jsonLDValue{str: o.value})
				default:
					addVal(jsonLDKey(p), jsonLDValue{id: shrinkIRI(o.value), ref: true})
				}
			}
		}
		keys = append(keys, "@id")
		props["@id"] = []jsonLDValue{{str: shrinkIRI(s)}}
		slices.Sort(keys)
		d.OpenObject()
		for _, k := range keys {
			d.Key(k)
			vals := props[k]
			if len(vals) == 1 {
				writeJSONLDValue(d, vals[0])
				continue
			}
			d.OpenArray()
			for _, v := range vals {
				writeJSONLDValue(d, v)
			}
			d.Close()
		}
		d.Close()
	}
	d.Close()
	d.Close()
	return d.Err()
}

// pySubjectOrder returns the subjects in the order rdflib 7's JSON-LD
// serializer visits them under CPython 3.11 with PYTHONHASHSEED=0:
// from_graph iterates set(graph.subjects()), and subjects() walks a copy
// of the Memory store's set of the graph's triples (a tuple's hash combines
// its terms' hashes; a URIRef and a plain Literal hash as their str).
func (g *rdfGraph) pySubjectOrder() []string {
	triples := py.NewHashSet[int]() // indexes into g.triples, which are distinct
	for i, t := range g.triples {
		triples.Add(i, py.TupleHash(py.StrHash(t[0].value), py.StrHash(t[1].value), py.StrHash(t[2].value)))
	}
	subjects := py.NewHashSet[string]()
	for _, i := range triples.Copy().Items() {
		s := g.triples[i][0].value
		subjects.Add(s, py.StrHash(s))
	}
	return subjects.Items()
}

func writeJSONLDValue(d *py.Dumper, v jsonLDValue) {
	if !v.ref {
		d.String(v.str)
		return
	}
	d.OpenObject()
	d.Key("@id")
	d.String(v.id)
	d.Close()
}

// writeNT is g.serialize(format="nt") for the label-based graph (to_nt):
// one "<s> <p> <o> .\n" line per triple. rdflib iterates a Python set of
// triples, so its line order depends on the hash seed; ours is insertion
// order.
func writeNT(w *bufio.Writer, kg *KG) error {
	g, err := makeRDFGraph(kg, false, false)
	if err != nil {
		return err
	}
	for _, t := range g.triples {
		w.WriteString("<" + t[0].value + "> <" + t[1].value + "> ")
		if t[2].lit {
			w.WriteString(turtleLiteral(t[2].value))
		} else {
			w.WriteString("<" + t[2].value + ">")
		}
		w.WriteString(" .\n")
	}
	return nil
}
