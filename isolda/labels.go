// Naming entities: preferred labels, the first column of each table, and
// every entity's id (label, slug or IRI; none for an anonymous blank node).

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

// langGroup ranks a label literal: 0 English, 1 untagged, 2 other.
func langGroup(t rdf.Term) int {
	if t.Lang == "" {
		return 1
	}
	l := strings.ToLower(t.Lang)
	if l == "en" || strings.HasPrefix(l, "en-") {
		return 0
	}
	return 2
}

// labels chooses each entity's preferred label and whether it may be its id.
func (e *encoder) labels() {
	n := e.d.NumTerms() + 1
	e.labelVal = make([]rdf.TermID, n)
	e.labelOK = make([]bool, n)
	rankOf := map[rdf.TermID]int{}
	for _, p := range labelPreds {
		if id, ok := e.d.Lookup(rdf.NewIRI(p)); ok {
			rankOf[id] = labelRank(p)
		}
	}
	if len(rankOf) == 0 {
		return
	}
	type cand struct {
		rank int
		val  rdf.TermID
	}
	cands := map[rdf.TermID][]cand{}
	for _, q := range e.d.IDQuads() {
		r, ok := rankOf[q[1]]
		if !ok {
			continue
		}
		o := e.term(q[2])
		if o.Kind != rdf.LiteralKind || (o.Datatype != rdf.XSDString && o.Lang == "") {
			continue
		}
		cands[q[0]] = append(cands[q[0]], cand{r, q[2]})
	}
	count := map[string]int{}
	for s, cs := range cands {
		best := slices.MinFunc(cs, func(a, b cand) int {
			if a.rank != b.rank {
				return cmp.Compare(a.rank, b.rank)
			}
			ta, tb := e.term(a.val), e.term(b.val)
			if e.prefLang {
				if ga, gb := langGroup(ta), langGroup(tb); ga != gb {
					return cmp.Compare(ga, gb)
				}
			}
			return rdf.Compare(ta, tb)
		})
		e.labelVal[s] = best.val
		ok := e.term(best.val).Value != ""
		if !e.prefLang {
			// 0.1: the label is an id only when it is the entity's only
			// literal of its label predicate (distinct literals).
			distinct := map[rdf.TermID]bool{}
			for _, c := range cs {
				if c.rank == best.rank {
					distinct[c.val] = true
				}
			}
			ok = ok && len(distinct) == 1
		}
		e.labelOK[s] = ok
		count[e.term(best.val).Value]++
	}
	// 0.4: of the entities that share a label, the one with strictly the
	// most outgoing triples (the entity the document is about, beside its
	// sitelinks or namesakes) keeps it as its id.
	var keeper map[string]rdf.TermID
	shared := false
	for _, k := range count {
		shared = shared || k > 1
	}
	if e.v04 && shared {
		out := make([]int32, n)
		for _, q := range e.d.IDQuads() {
			out[q[0]]++
		}
		keeper = map[string]rdf.TermID{}
		tie := map[string]bool{}
		for s := range cands {
			if !e.labelOK[s] {
				continue
			}
			l := e.term(e.labelVal[s]).Value
			k, ok := keeper[l]
			switch {
			case !ok || out[s] > out[k]:
				keeper[l], tie[l] = s, false
			case out[s] == out[k]:
				tie[l] = true
			}
		}
		for l := range tie {
			if tie[l] {
				delete(keeper, l)
			}
		}
	}
	for s := range cands {
		if e.opts.IDs == IDsSlug {
			e.labelOK[s] = false
			continue
		}
		if e.labelOK[s] && count[e.term(e.labelVal[s]).Value] > 1 {
			if k, ok := keeper[e.term(e.labelVal[s]).Value]; !ok || k != s {
				e.labelOK[s] = false
			}
		}
	}
}

// Wikidata property namespaces whose terms take the label of the wd: entity
// with the same local name.
var wikidataProps = []string{
	"http://www.wikidata.org/prop/direct/",
	"http://www.wikidata.org/prop/",
	"http://www.wikidata.org/prop/statement/",
	"http://www.wikidata.org/prop/qualifier/",
}

// termLabel returns the label literal of a property or class: its own
// preferred label, or for a Wikidata property IRI the label of its entity.
func (e *encoder) termLabel(id rdf.TermID) rdf.TermID {
	if lv := e.labelVal[id]; lv != 0 {
		return lv
	}
	iri := e.term(id).Value
	for _, ns := range wikidataProps {
		if l, ok := strings.CutPrefix(iri, ns); ok && syntax.IsName(l) {
			if eid, ok := e.d.Lookup(rdf.NewIRI("http://www.wikidata.org/entity/" + l)); ok {
				return e.labelVal[eid]
			}
		}
	}
	return 0
}

// decideLabels chooses each table's first column (SPEC.md section 6.2).
// An entity keeps its label id whatever the tables it is in: in 0.1 a
// table whose rows are not all label rows has the first column id, and its
// rows' ids are their label ids or slugs (section 5.3).
func (e *encoder) decideLabels() {
	for _, part := range e.parts {
		for _, t := range part.tables {
			counts := map[gkey]int{}
			var keys []gkey
			for _, r := range t.rows {
				if k, ok := e.labelKey(r); ok {
					if counts[k] == 0 {
						keys = append(keys, k)
					}
					counts[k]++
				}
			}
			t.labelCol = gkey{}
			if len(keys) > 0 {
				slices.SortFunc(keys, func(a, b gkey) int {
					if counts[a] != counts[b] {
						return cmp.Compare(counts[b], counts[a])
					}
					if ra, rb := labelRank(e.term(a.pred).Value), labelRank(e.term(b.pred).Value); ra != rb {
						return cmp.Compare(ra, rb)
					}
					return e.cmpKey(a, b)
				})
				k := counts[keys[0]]
				n := len(t.rows)
				if (e.rowIDs && 2*k >= n) || (!e.rowIDs && k == n) {
					t.labelCol = keys[0]
				}
			}
			for _, r := range t.rows {
				k, ok := e.labelKey(r)
				r.label = ok && t.labelCol.pred != 0 && k == t.labelCol
			}
		}
	}
}

// assignIDs gives every entity its id: the label when allowed, else a slug.
func (e *encoder) assignIDs() {
	n := e.d.NumTerms() + 1
	e.ids = make([]string, n)
	e.iriID = make([]bool, n)
	used := map[string]bool{}
	for _, id := range e.order {
		if e.labelOK[id] {
			l := e.term(e.labelVal[id]).Value
			e.ids[id] = l
			used[l] = true
		}
	}
	// The global main class of each entity, for type-and-number slugs.
	classCount := map[rdf.TermID]int{}
	mainClass := map[rdf.TermID]rdf.TermID{}
	if e.typeID != 0 {
		seen := map[[2]rdf.TermID]bool{}
		for _, q := range e.d.IDQuads() {
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind && !seen[[2]rdf.TermID{q[0], q[2]}] {
				seen[[2]rdf.TermID{q[0], q[2]}] = true
				classCount[q[2]]++
			}
		}
		for _, q := range e.d.IDQuads() {
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				c, m := q[2], mainClass[q[0]]
				if m == 0 || classCount[c] > classCount[m] ||
					(classCount[c] == classCount[m] && e.term(c).Value < e.term(m).Value) {
					mainClass[q[0]] = c
				}
			}
		}
	}
	eligible := e.iriEligible()
	anon := e.anonymous()
	counters := map[string]int{}
	next := map[string]int{} // next suffix to try per slug base
	for _, id := range e.order {
		if e.ids[id] != "" || e.listNode[id] || (anon != nil && anon[id]) || (e.inline[id] && e.v04) {
			continue
		}
		base := ""
		if lv := e.labelVal[id]; lv != 0 {
			base = naming.Slugify(e.term(lv).Value)
		}
		if base == "" && e.term(id).Kind == rdf.IRIKind {
			_, local := naming.SplitNS(e.term(id).Value)
			base = naming.Slugify(local)
		}
		if eligible != nil && eligible[id] {
			if s := e.iriText(e.term(id).Value); !used[s] {
				e.ids[id] = s
				e.iriID[id] = true
				used[s] = true
				continue
			}
		}
		if base != "" {
			s := base
			if used[s] {
				k := max(next[base], 2)
				for s = base + "-" + strconv.Itoa(k); used[s]; k++ {
					s = base + "-" + strconv.Itoa(k+1)
				}
				next[base] = k + 1
			}
			e.ids[id] = s
			used[s] = true
			continue
		}
		tb := "node"
		if c, ok := mainClass[id]; ok {
			_, local := naming.SplitNS(e.term(c).Value)
			if s := naming.Slugify(local); s != "" {
				tb = s
			}
		}
		for {
			counters[tb]++
			s := tb + "-" + strconv.Itoa(counters[tb])
			if !used[s] {
				e.ids[id] = s
				used[s] = true
				break
			}
		}
	}
}

// anonymous marks the blank nodes of a 0.4 document that need no id: never
// the object of a quad nor a graph name, a subject in one graph only, and
// without a label id (SPEC.md section 17.6). Not with --ids slug or the
// blocks and hybrid layouts, where every entity has an id line.
func (e *encoder) anonymous() []bool {
	if !e.v04 || e.opts.IDs == IDsSlug || e.opts.Layout == LayoutBlocks || e.opts.Layout == LayoutHybrid {
		return nil
	}
	n := e.d.NumTerms() + 1
	anon := make([]bool, n)
	graphOf := make([]rdf.TermID, n)
	for id := 1; id < n; id++ {
		anon[id] = e.term(rdf.TermID(id)).Kind == rdf.BlankKind && e.entity[id] && !e.labelOK[id]
	}
	for _, q := range e.d.IDQuads() {
		anon[q[2]] = false
		anon[q[3]] = false
		if graphOf[q[0]] == 0 {
			graphOf[q[0]] = q[3] + 1
		} else if graphOf[q[0]] != q[3]+1 {
			anon[q[0]] = false
		}
	}
	if e.anchor != 0 {
		anon[e.anchor] = false
	}
	return anon
}

// iriText returns the text of an IRI as an @iri cell holds it: pfx:local or
// the IRI itself (the content of the JSON string when it is quoted).
func (e *encoder) iriText(iri string) string {
	c := e.n.AppendIRICell(nil, iri, naming.CtxCell)
	if len(c) > 0 && c[0] == '"' {
		return iri
	}
	return string(c)
}

// iriEligible chooses the entities identified by their IRI (IRIIDs, SPEC.md
// section 15): IRI entities without a label whose IRI as written costs
// fewer estimated tokens than a slug plus an @iri cell,
// (1+r)·T(iri) < (1+r)·T(slug) + T(iri) with r the number of links to the
// entity, and whose every row is in a table with an id first column where
// every row is such an entity (so the table's first column is @iri).
func (e *encoder) iriEligible() []bool {
	if !e.iriIDs {
		return nil
	}
	n := e.d.NumTerms() + 1
	incoming := make([]int32, n)
	for _, q := range e.d.IDQuads() {
		if e.entity[q[2]] && !(q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind) {
			incoming[q[2]]++
		}
	}
	ok := make([]bool, n)
	costIRI, costSlug := make([]int, n), make([]int, n)
	for _, id := range e.order {
		t := e.term(id)
		// 0.4: also an entity whose label is not its id (shared labels);
		// nested entities have no id.
		if t.Kind != rdf.IRIKind || e.labelVal[id] != 0 && (!e.v04 || e.labelOK[id]) || e.v04 && e.inline[id] {
			continue
		}
		s := e.iriText(t.Value)
		if s == "" {
			continue
		}
		_, local := naming.SplitNS(t.Value)
		slug := naming.Slugify(local)
		if slug == "" {
			slug = "node-1"
		}
		r := 1 + int(incoming[id])
		costIRI[id], costSlug[id] = r*tokenEstimate(s), r*tokenEstimate(slug)+tokenEstimate(s)
		// 0.3 decides entity by entity, 0.4 table by table (below).
		ok[id] = e.v04 || costIRI[id] < costSlug[id]
	}
	for changed := true; changed; {
		changed = false
		for _, part := range e.parts {
			for _, t := range part.tables {
				all := t.labelCol.pred == 0
				ci, cs := 0, 0
				for _, r := range t.rows {
					all = all && ok[r.ent]
					ci, cs = ci+costIRI[r.ent], cs+costSlug[r.ent]
				}
				if all && (!e.v04 || ci <= cs) {
					continue
				}
				for _, r := range t.rows {
					if ok[r.ent] {
						ok[r.ent] = false
						changed = true
					}
				}
			}
		}
	}
	return ok
}

// tokenEstimate is a rough count of the tokens of s for IRIIDs: one per
// word piece (an optional leading punctuation character, capitals, then
// lower-case letters; one more per 8 letters), one per 3 digits, one per
// other character.
func tokenEstimate(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			n += (j - i + 2) / 3
			i = j
		default:
			j := i
			if !isLetter(c) && i+1 < len(s) && isLetter(s[i+1]) {
				j++
			}
			k := j
			for k < len(s) && s[k] >= 'A' && s[k] <= 'Z' {
				k++
			}
			for k < len(s) && ((s[k] >= 'a' && s[k] <= 'z') || s[k] >= 0x80) {
				k++
			}
			if k == i {
				k = i + 1
			}
			n += 1 + (k-i)/8
			i = k
		}
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' || c >= 0x80 }
