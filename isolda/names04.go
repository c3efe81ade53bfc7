package isolda

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/isolda/internal/naming"
	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// WellKnownPrefixes returns ISOLDA 0.4's predeclared prefixes (name and
// namespace), sorted by name.
func WellKnownPrefixes() []rdf.Prefix {
	wk := syntax.WellKnown04()
	out := make([]rdf.Prefix, len(wk))
	for i, p := range wk {
		out[i] = rdf.Prefix{Name: p[0], IRI: p[1]}
	}
	return out
}

// names04 chooses @vocab, the prefixes and the @term aliases of a 0.4
// document (SPEC.md section 17.3): the vocabulary as in 0.2 but counting
// 0.4 bare terms; the well-known prefixes are predeclared; every other
// namespace gets a derived name and is declared only when that saves
// tokens by the estimate of tokenEstimate.
func (e *encoder) names04() {
	// Occurrences of each term, then of each namespace whose local names
	// can be bare.
	occ := make([]int32, e.d.NumTerms()+1)
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue
		}
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			occ[q[2]]++
		} else {
			occ[q[1]]++
		}
	}
	vc := map[string]int{}
	for id, k := range occ {
		if k == 0 {
			continue
		}
		ns, l := naming.SplitNS(e.term(rdf.TermID(id)).Value)
		if t, ok := naming.BareTerm04(l); ok && !naming.ReservedBare(t) {
			vc[ns] += int(k)
		}
	}
	best := 0
	for _, ns := range naming.SortedKeys(vc) {
		if vc[ns] > best {
			best, e.n.Vocab = vc[ns], ns
		}
	}
	for _, p := range syntax.WellKnown04() {
		e.n.PrefixNS[p[0]] = p[1]
		e.n.NSPrefix[p[1]] = p[0]
		e.n.Implicit[p[0]] = true
	}
	e.choosePrefixes04()
	if e.termAliases {
		e.aliases()
	}
}

// maxPrefixes04 bounds the prefixes a 0.4 document declares.
const maxPrefixes04 = 64

// choosePrefixes04 declares the prefixes of a 0.4 document (SPEC.md
// section 17.3). Every IRI written in a cell (an entity's IRI, an IRI
// value, a graph name) may use the longest declared namespace it starts
// with, a term (predicate, class, datatype) only its own namespace. A
// candidate is every namespace of a term and every prefix of an IRI that
// ends in '/', '#' or ':' after the scheme; candidates are declared
// greedily, the largest estimated saving first (tokenEstimate: each use
// saves the namespace minus "name:", the declaration costs its line),
// while the saving is positive.
func (e *encoder) choosePrefixes04() {
	terms := map[string]int{} // namespace -> estimated writings of its terms
	nIRI := make([]int32, e.d.NumTerms()+1)
	iriUse := func(id rdf.TermID) { nIRI[id]++ } // IRI written in cells -> uses
	// A term is written in table headers and on property lines: count
	// each use up to termUses (a header column is written once).
	const termUses = 4
	seenTerm := make([]int8, e.d.NumTerms()+1)
	addTerm := func(id rdf.TermID, iri string) {
		if id != 0 && seenTerm[id] >= termUses {
			return
		}
		seenTerm[id]++
		if _, bare := e.n.Bare(iri); bare {
			return
		}
		if ns, l := naming.SplitNS(iri); ns != "" && naming.IsLocal(l) {
			terms[ns]++
		}
	}
	type sg struct{ s, g rdf.TermID }
	seenSG := map[sg]bool{}                   // subjects of named graphs
	seenDef := make([]int8, e.d.NumTerms()+1) // subjects of the default graph
	lastDT, lastDTID := "", rdf.TermID(0)     // datatypes come in runs
	for _, q := range e.d.IDQuads() {
		s, p, o, g := e.term(q[0]), e.term(q[1]), e.term(q[2]), e.term(q[3])
		if e.listNode[q[0]] {
			if p.Value == rdf.RDFFirst {
				switch {
				case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
					iriUse(q[2])
				case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
					addTerm(0, o.Datatype)
				}
			}
			continue
		}
		if s.Kind == rdf.IRIKind && (q[3] == 0 && seenDef[q[0]] == 0 || q[3] != 0 && !seenSG[sg{q[0], q[3]}]) {
			if q[3] == 0 {
				seenDef[q[0]] = 1
			} else {
				seenSG[sg{q[0], q[3]}] = true
			}
			iriUse(q[0])
		}
		isType := q[1] == e.typeID && o.Kind == rdf.IRIKind
		if !isType {
			addTerm(q[1], p.Value)
		}
		switch {
		case isType:
			addTerm(q[2], o.Value)
		case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
			iriUse(q[2])
		case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
			if o.Datatype != lastDT {
				lastDT = o.Datatype
				lastDTID, _ = e.d.Lookup(rdf.NewIRI(o.Datatype))
			}
			addTerm(lastDTID, o.Datatype)
		}
		if g.Kind == rdf.IRIKind && !seenSG[sg{0, q[3]}] {
			seenSG[sg{0, q[3]}] = true
			iriUse(q[3])
		}
	}
	free := func(ns string) bool {
		_, ok := e.n.NSPrefix[ns]
		return ok || ns == e.n.Vocab
	}
	// Candidates and the IRIs under each.
	type cand struct {
		ns, base  string
		sav, decl int
		terms     int
		iris      []int
		done      bool
	}
	byNS := map[string]*cand{}
	var cands []*cand
	get := func(ns string) *cand {
		c := byNS[ns]
		if c == nil {
			c = &cand{ns: ns}
			byNS[ns] = c
			cands = append(cands, c)
		}
		return c
	}
	for _, ns := range naming.SortedKeys(terms) {
		if !free(ns) {
			get(ns).terms = terms[ns]
		}
	}
	var ids []rdf.TermID
	for id, k := range nIRI {
		if k > 0 {
			ids = append(ids, rdf.TermID(id))
		}
	}
	// The order of the IRIs does not matter: only sums over them do.
	list := make([]string, len(ids))
	use := make([]int, len(ids))
	for i, id := range ids {
		list[i], use[i] = e.term(id).Value, int(nIRI[id])
	}
	have := make([]int, len(list)) // saving of the best namespace so far
	freeSaving := map[string]int{}
	for i, iri := range list {
		start := strings.Index(iri, "://")
		if start < 0 {
			start = strings.IndexByte(iri, ':')
		} else {
			start += 3
		}
		if start < 0 {
			continue
		}
		for j := start + 1; j <= len(iri); j++ {
			if c := iri[j-1]; c != '/' && c != '#' && c != ':' {
				continue
			}
			ns := iri[:j]
			if free(ns) {
				sv, ok := freeSaving[ns]
				if !ok {
					sv = tokenEstimate(ns) - tokenEstimate(e.n.NSPrefix[ns]) - 1
					freeSaving[ns] = sv
				}
				have[i] = max(have[i], sv)
				continue
			}
			c := get(ns)
			c.iris = append(c.iris, i)
		}
	}
	// Estimates, for the candidates that can gain: a derived name is
	// only worth computing for a namespace used twice or more.
	live := cands[:0]
	for _, c := range cands {
		if c.terms == 0 && (len(c.iris) == 0 || len(c.iris) == 1 && use[c.iris[0]] < 2) {
			continue // one use never pays for a declaration
		}
		c.base = naming.DerivePrefix(c.ns)
		t, tn := tokenEstimate(c.ns), tokenEstimate(c.base)
		c.sav, c.decl = t-tn-1, t+tn+3
		live = append(live, c)
	}
	cands = live
	// Greedy: declare the candidate with the largest positive gain.
	for picked := 0; picked < maxPrefixes04; picked++ {
		var best *cand
		bestGain := 0
		for _, c := range cands {
			if c.done {
				continue
			}
			gain := c.terms*c.sav - c.decl
			for _, i := range c.iris {
				if d := c.sav - have[i]; d > 0 {
					gain += use[i] * d
				}
			}
			if gain > bestGain || (gain == bestGain && best != nil && gain > 0 && c.ns < best.ns) {
				best, bestGain = c, gain
			}
		}
		if best == nil {
			break
		}
		best.done = true
		for _, i := range best.iris {
			have[i] = max(have[i], best.sav)
		}
	}
	// Names: the most used namespace first (ties in bytewise order) takes
	// its first free derived name; a number is added only when all are
	// taken.
	var chosen []*cand
	for _, c := range cands {
		if c.done {
			chosen = append(chosen, c)
		}
	}
	total := func(c *cand) int {
		n := c.terms
		for _, i := range c.iris {
			n += use[i]
		}
		return n
	}
	slices.SortFunc(chosen, func(a, b *cand) int {
		if ta, tb := total(a), total(b); ta != tb {
			return cmp.Compare(tb, ta)
		}
		return strings.Compare(a.ns, b.ns)
	})
	for _, c := range chosen {
		name := ""
		for _, w := range naming.PrefixNames(c.ns) {
			if !e.prefixTaken(w) {
				name = w
				break
			}
		}
		for k := 2; name == ""; k++ {
			if w := c.base + strconv.Itoa(k); !e.prefixTaken(w) {
				name = w
			}
		}
		e.n.PrefixNS[name] = c.ns
		e.n.NSPrefix[c.ns] = name
	}
}

// prefixTaken reports whether a prefix name is in use or reserved.
func (e *encoder) prefixTaken(name string) bool {
	_, ok := e.n.PrefixNS[name]
	return ok || naming.ReservedPrefix(name)
}
