package baseline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// maxNest is the deepest nesting of node objects or [ ] blocks; a node that
// would be nested deeper is written as a reference and then at top level.
const maxNest = 32

// Namespaces returns the @vocab IRI and the prefixes ISOLDA chooses for d
// (docs/SPEC.md section 4: @vocab is the namespace of most predicate and class
// occurrences, a namespace used three or more times gets a prefix). They are
// read from the directives of ISOLDA 0.2's encoding of d, so the baselines use
// exactly the encoder's choice. The prefixes are sorted by name; vocab is ""
// when ISOLDA writes no @vocab line.
func Namespaces(d *rdf.Dataset) (vocab string, prefixes []rdf.Prefix, err error) {
	var buf bytes.Buffer
	if err := isolda.Encode(&buf, d, isolda.Options{Version: isolda.V02}); err != nil {
		return "", nil, err
	}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<26)
	// The directives follow the glossary (# lines) and end at the first
	// line that is neither a comment, empty, nor a directive.
scan:
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@vocab "):
			vocab = directiveText(line[len("@vocab "):])
		case strings.HasPrefix(line, "@prefix "):
			if name, iri, ok := strings.Cut(line[len("@prefix "):], ": "); ok {
				prefixes = append(prefixes, rdf.Prefix{Name: name, IRI: directiveText(iri)})
			}
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "@"):
		default:
			break scan
		}
	}
	slices.SortFunc(prefixes, func(a, b rdf.Prefix) int { return strings.Compare(a.Name, b.Name) })
	return vocab, prefixes, nil
}

// directiveText decodes the text of an ISOLDA directive: a JSON string when
// quoted, else the text itself.
func directiveText(s string) string {
	if strings.HasPrefix(s, `"`) {
		var v string
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	return s
}

// layout is what both baselines need: the quads with canonical blank node
// labels, grouped by graph and subject, the namespaces and the node labels.
type layout struct {
	vocab    string
	prefixes []rdf.Prefix
	graphs   []*graphPart
	labels   map[rdf.Term]string // preferred label of each node that has one
}

// graphPart is one graph of the dataset.
type graphPart struct {
	name     rdf.Term // zero for the default graph
	subjects []rdf.Term
	props    map[rdf.Term][]rdf.Quad // subject -> its quads, rdf:type first, then by predicate and object
	objCount map[rdf.Term]int        // node -> number of quads of this graph with it as object
	classRef map[rdf.Term]int        // IRI -> number of quads of this graph with it as rdf:type object
}

// newLayout builds the layout of d.
func newLayout(d *rdf.Dataset) (*layout, error) {
	vocab, prefixes, err := Namespaces(d)
	if err != nil {
		return nil, err
	}
	quads := d.Quads()
	// Canonical blank node labels make the output independent of the
	// input's labels; when canonicalization exceeds its work budget the
	// input labels are kept (the output is then still deterministic for a
	// given input).
	if rel, err := canon.Labels(d); err == nil && len(rel) > 0 {
		relabel := func(t rdf.Term) rdf.Term {
			if t.Kind == rdf.BlankKind {
				if l, ok := rel[t]; ok {
					return rdf.NewBlank(l)
				}
			}
			return t
		}
		for i, q := range quads {
			quads[i] = rdf.Quad{S: relabel(q.S), P: q.P, O: relabel(q.O), G: relabel(q.G)}
		}
	}
	slices.SortFunc(quads, compareLayout)
	l := &layout{vocab: vocab, prefixes: prefixes, labels: nodeLabels(quads)}
	var cur *graphPart
	for _, q := range quads {
		if cur == nil || cur.name != q.G {
			cur = &graphPart{name: q.G, props: map[rdf.Term][]rdf.Quad{}, objCount: map[rdf.Term]int{},
				classRef: map[rdf.Term]int{}}
			l.graphs = append(l.graphs, cur)
		}
		if _, ok := cur.props[q.S]; !ok {
			cur.subjects = append(cur.subjects, q.S)
		}
		cur.props[q.S] = append(cur.props[q.S], q)
		if !q.O.IsLiteral() {
			cur.objCount[q.O]++
		}
		if q.O.IsIRI() && q.P.Value == rdf.RDFType {
			cur.classRef[q.O]++
		}
	}
	return l, nil
}

// compareLayout orders quads by graph (the default graph first), subject
// (IRIs before blank nodes), predicate (rdf:type first, then by IRI) and
// object.
func compareLayout(a, b rdf.Quad) int {
	if c := rdf.Compare(a.G, b.G); c != 0 {
		if a.G.IsZero() {
			return -1
		}
		if b.G.IsZero() {
			return 1
		}
		return c
	}
	if c := rdf.Compare(a.S, b.S); c != 0 {
		return c
	}
	at, bt := a.P.Value == rdf.RDFType, b.P.Value == rdf.RDFType
	if at != bt {
		if at {
			return -1
		}
		return 1
	}
	if c := rdf.Compare(a.P, b.P); c != 0 {
		return c
	}
	return rdf.Compare(a.O, b.O)
}

// nodeLabels picks one label per node: a literal of the most preferred label
// predicate (graph.DefaultLabelPredicates), preferring English, then no
// language, then any, and among those the smallest lexical form.
func nodeLabels(quads []rdf.Quad) map[rdf.Term]string {
	preds := graph.DefaultLabelPredicates()
	type cand struct {
		rank, lang int
		value      string
	}
	best := map[rdf.Term]cand{}
	for _, q := range quads {
		if !q.O.IsLiteral() {
			continue
		}
		rank := slices.Index(preds, q.P.Value)
		if rank < 0 {
			continue
		}
		lang := 2
		switch strings.ToLower(q.O.Lang) {
		case "en":
			lang = 0
		case "":
			lang = 1
		}
		c := cand{rank, lang, q.O.Value}
		if b, ok := best[q.S]; !ok || c.rank < b.rank || c.rank == b.rank &&
			(c.lang < b.lang || c.lang == b.lang && c.value < b.value) {
			best[q.S] = c
		}
	}
	out := make(map[rdf.Term]string, len(best))
	for t, c := range best {
		out[t] = c.value
	}
	return out
}

// blankScope records, for each blank node, whether it occurs in more than one
// graph or as a graph name: such a node must keep its label, since a nested
// node without a label would be a fresh node.
func blankScope(l *layout) map[rdf.Term]bool {
	where := map[rdf.Term]int{}
	shared := map[rdf.Term]bool{}
	note := func(t rdf.Term, g int) {
		if t.Kind != rdf.BlankKind {
			return
		}
		if w, ok := where[t]; ok && w != g {
			shared[t] = true
		}
		where[t] = g
	}
	for i, g := range l.graphs {
		if g.name.Kind == rdf.BlankKind {
			shared[g.name] = true
		}
		for _, s := range g.subjects {
			for _, q := range g.props[s] {
				note(q.S, i)
				note(q.O, i)
			}
		}
	}
	return shared
}

// nsIndex maps namespace IRIs to prefix names.
type nsIndex map[string]string

// split finds the longest namespace of the index that iri starts with,
// cutting it after its last '#', '/' or ':' (namespaces end with one of
// these, and valid local parts contain none), such that the rest passes
// valid.
func (x nsIndex) split(iri string, valid func(string) bool) (name, local string, ok bool) {
	cuts := [3]int{strings.LastIndexByte(iri, '#'), strings.LastIndexByte(iri, '/'), strings.LastIndexByte(iri, ':')}
	slices.Sort(cuts[:])
	for k := len(cuts) - 1; k >= 0; k-- {
		i := cuts[k]
		if i < 0 {
			break
		}
		if p, found := x[iri[:i+1]]; found && valid(iri[i+1:]) {
			return p, iri[i+1:], true
		}
	}
	return "", "", false
}
