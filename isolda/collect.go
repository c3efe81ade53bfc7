// Collect: the dataset an encoder writes (Crop, validation), its entities in
// document order, the blank nodes written in place and the lists written as
// (N) cells.

package isolda

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// Crop returns the dataset a document encoded with opts represents: d
// itself, or, with Anchor and Hops > 0, the quads whose subject is at most
// Hops links from the anchor (links followed in both directions).
func Crop(d *rdf.Dataset, opts Options) (*rdf.Dataset, error) {
	c, _, err := crop(d, opts)
	return c, err
}

// crop resolves the anchor and crops d (SPEC.md, "Anchor mode").
func crop(d *rdf.Dataset, opts Options) (*rdf.Dataset, rdf.Term, error) {
	if opts.Anchor == "" {
		if opts.Hops != 0 {
			return nil, rdf.Term{}, fmt.Errorf("isolda: hops needs an anchor")
		}
		return d, rdf.Term{}, nil
	}
	if opts.Hops < 0 {
		return nil, rdf.Term{}, fmt.Errorf("isolda: hops %d is negative", opts.Hops)
	}
	full := opts
	full.Anchor, full.Hops = "", 0
	e, err := prepare(d, full, rdf.Term{})
	if err != nil {
		return nil, rdf.Term{}, err
	}
	var anchor rdf.TermID
	if id, ok := d.Lookup(rdf.NewIRI(opts.Anchor)); ok && e.entity[id] {
		anchor = id
	} else {
		for _, id := range e.order {
			if e.ids[id] == opts.Anchor {
				anchor = id
				break
			}
		}
	}
	if anchor == 0 {
		return nil, rdf.Term{}, fmt.Errorf("isolda: anchor %q is neither the IRI nor the id of an entity", opts.Anchor)
	}
	at := d.Term(anchor)
	if opts.Hops == 0 {
		return d, at, nil
	}
	// Distances by breadth-first search over links in both directions.
	adj := map[rdf.TermID][]rdf.TermID{}
	for _, q := range d.IDQuads() {
		if e.entity[q[2]] && !(q[1] == e.typeID && d.Term(q[2]).Kind == rdf.IRIKind) {
			adj[q[0]] = append(adj[q[0]], q[2])
			adj[q[2]] = append(adj[q[2]], q[0])
		}
	}
	dist := map[rdf.TermID]int{anchor: 0}
	queue := []rdf.TermID{anchor}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if dist[u] == opts.Hops {
			continue
		}
		for _, v := range adj[u] {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	out := rdf.NewDataset()
	out.Prefixes = append(out.Prefixes, d.Prefixes...)
	out.Base = d.Base
	for _, q := range d.IDQuads() {
		if _, ok := dist[q[0]]; ok {
			out.Add(d.Quad(q))
		}
	}
	return out, at, nil
}

// validate rejects terms that are not RDF: invalid UTF-8, bad language tags.
func (e *encoder) validate() error {
	for id := 1; id <= e.d.NumTerms(); id++ {
		t := e.d.Term(rdf.TermID(id))
		if !utf8.ValidString(t.Value) || !utf8.ValidString(t.Datatype) {
			return fmt.Errorf("isolda: term %q is not valid UTF-8", t.Value)
		}
		if t.Kind == rdf.LiteralKind && (t.Lang != "" || t.Dir != "") {
			if !syntax.ValidLang(t.Lang) {
				return fmt.Errorf("isolda: invalid language tag %q", t.Lang)
			}
			if t.Dir != "" && t.Dir != "ltr" && t.Dir != "rtl" {
				return fmt.Errorf("isolda: invalid base direction %q", t.Dir)
			}
		}
	}
	for _, q := range e.d.IDQuads() {
		if e.d.Term(q[1]).Kind != rdf.IRIKind {
			return fmt.Errorf("isolda: predicate %s is not an IRI", e.d.Term(q[1]))
		}
		if k := e.d.Term(q[0]).Kind; k != rdf.IRIKind && k != rdf.BlankKind {
			return fmt.Errorf("isolda: subject %s is not an IRI or blank node", e.d.Term(q[0]))
		}
		if e.d.Term(q[2]).Kind == rdf.TripleKind {
			return fmt.Errorf("isolda: the notation cannot represent the RDF 1.2 triple term %s", e.d.Term(q[2]))
		}
		if k := e.d.Term(q[3]).Kind; k == rdf.LiteralKind {
			return fmt.Errorf("isolda: graph name %s is a literal", e.d.Term(q[3]))
		}
	}
	return nil
}

func (e *encoder) term(id rdf.TermID) rdf.Term { return e.d.Term(id) }

func (e *encoder) blanks() error {
	n := e.d.NumTerms() + 1
	e.rank = make([]int32, n)
	order, err := blankOrder(e.d)
	if err != nil {
		return err
	}
	for i, b := range order {
		id, _ := e.d.Lookup(b)
		e.rank[id] = int32(i + 1)
	}
	return nil
}

// cmpNode orders nodes: IRIs by IRI, then blank nodes by canonical rank.
func (e *encoder) cmpNode(a, b rdf.TermID) int {
	ta, tb := e.term(a), e.term(b)
	if ta.Kind != tb.Kind {
		return cmp.Compare(ta.Kind, tb.Kind)
	}
	if ta.Kind == rdf.BlankKind {
		return cmp.Compare(e.rank[a], e.rank[b])
	}
	return strings.Compare(ta.Value, tb.Value)
}

func (e *encoder) entities() {
	n := e.d.NumTerms() + 1
	e.entity = make([]bool, n)
	for _, q := range e.d.IDQuads() {
		e.entity[q[0]] = true
	}
	for id := 1; id < n; id++ {
		if e.term(rdf.TermID(id)).Kind == rdf.BlankKind {
			e.entity[id] = true
		}
	}
}

// bfs computes the document order of entities (SPEC.md, "Order").
func (e *encoder) bfs() {
	n := e.d.NumTerms() + 1
	out := make([]int32, n)
	type edge struct{ p, o rdf.TermID }
	adjOut := make([][]edge, n)
	adjIn := make([][]edge, n)
	for _, q := range e.d.IDQuads() {
		out[q[0]]++
		if e.entity[q[2]] && !(q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind) {
			adjOut[q[0]] = append(adjOut[q[0]], edge{q[1], q[2]})
			adjIn[q[2]] = append(adjIn[q[2]], edge{q[1], q[0]})
		}
	}
	cmpEdge := func(a, b edge) int {
		if a.p != b.p {
			if c := strings.Compare(e.term(a.p).Value, e.term(b.p).Value); c != 0 {
				return c
			}
		}
		return e.cmpNode(a.o, b.o)
	}
	var starts []rdf.TermID
	for id := 1; id < n; id++ {
		if e.entity[id] {
			starts = append(starts, rdf.TermID(id))
		}
	}
	slices.SortFunc(starts, func(a, b rdf.TermID) int {
		if out[a] != out[b] {
			return cmp.Compare(out[b], out[a])
		}
		return e.cmpNode(a, b)
	})
	if e.anchor != 0 {
		starts = append([]rdf.TermID{e.anchor}, starts...)
	}
	e.pos = make([]int32, n)
	for i := range e.pos {
		e.pos[i] = -1
	}
	e.order = make([]rdf.TermID, 0, len(starts))
	visit := func(id rdf.TermID) {
		e.pos[id] = int32(len(e.order))
		e.order = append(e.order, id)
	}
	for _, s := range starts {
		if e.pos[s] >= 0 {
			continue
		}
		head := len(e.order)
		visit(s)
		for head < len(e.order) {
			u := e.order[head]
			head++
			for _, adj := range [][]edge{adjOut[u], adjIn[u]} {
				if len(adj) > 1 {
					slices.SortFunc(adj, cmpEdge)
				}
				for _, ed := range adj {
					if e.pos[ed.o] < 0 {
						visit(ed.o)
					}
				}
			}
		}
	}
}

// maxInlineDepth bounds the nesting of inline blank nodes.
const maxInlineDepth = 16

// inlineSet chooses the blank nodes written in place (SPEC.md, "Options").
func (e *encoder) inlineSet() {
	n := e.d.NumTerms() + 1
	e.inline = make([]bool, n)
	e.inlineRows = make([]inlineEnt, n)
	if !e.opts.InlineBlanks && !e.v04 {
		return
	}
	refs := make([]int32, n)
	parent := make([]rdf.TermID, n)
	refGraph := make([]rdf.TermID, n)
	bad := make([]bool, n)
	// 0.4 also nests the IRI entities that one link points to and that
	// have no label (as statement nodes of Wikidata) or no class, their
	// IRI in an @iri cell.
	typed := make([]bool, n)
	var member [][2]rdf.TermID // (entity, class), for classCoherent
	for _, q := range e.d.IDQuads() {
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			typed[q[0]] = true
			if e.v04 {
				member = append(member, [2]rdf.TermID{q[0], q[2]})
			}
		}
	}
	nestable := func(id rdf.TermID) bool {
		t := e.term(id)
		if e.v04 && id == e.anchor {
			return false
		}
		return t.Kind == rdf.BlankKind || e.v04 && t.Kind == rdf.IRIKind && e.entity[id] && (e.labelVal[id] == 0 || !typed[id])
	}
	for _, q := range e.d.IDQuads() {
		if nestable(q[2]) {
			refs[q[2]]++
			parent[q[2]], refGraph[q[2]] = q[0], q[3]
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				bad[q[2]] = true // a class, not a link
			}
		}
		bad[q[3]] = true // graph names are never inline
	}
	for _, q := range e.d.IDQuads() {
		if nestable(q[0]) && (refs[q[0]] != 1 || refGraph[q[0]] != q[3]) {
			bad[q[0]] = true
		}
	}
	var cands []rdf.TermID
	for id, x := range e.listNode {
		bad[id] = bad[id] || x // list nodes are written as (N) cells
	}
	if !e.v04 {
		for _, lc := range e.listItems {
			for _, it := range lc.items {
				bad[it] = true // list items are ids, so inline nodes never nest through a list
			}
		}
	}
	for id := 1; id < n; id++ {
		if nestable(rdf.TermID(id)) && refs[id] == 1 && !bad[id] {
			e.inline[id] = true
			cands = append(cands, rdf.TermID(id))
		}
	}
	if e.v04 {
		e.classCoherent(typed, member)
	}
	if !e.v04 {
		// The cuts below do not depend on this order (each cycle loses
		// its smallest node, depths count from the top of each chain);
		// 0.4 skips the sort.
		slices.SortFunc(cands, e.cmpNode)
	}
	// Break cycles of inline nodes: the member with the smallest rank gets
	// a row. Then cut chains deeper than maxInlineDepth.
	state := make([]uint8, n) // 0 new, 1 on the current walk, 2 done
	depth := make([]int32, n)
	for _, c := range cands {
		var path []rdf.TermID
		x := c
		for e.inline[x] && state[x] == 0 {
			state[x] = 1
			path = append(path, x)
			x = parent[x]
		}
		if e.inline[x] && state[x] == 1 {
			i := slices.Index(path, x)
			m := slices.MinFunc(path[i:], e.cmpNode)
			e.inline[m] = false
		}
		for _, p := range path {
			state[p] = 2
		}
	}
	for _, c := range cands {
		if !e.inline[c] || depth[c] != 0 {
			continue
		}
		var path []rdf.TermID
		x := c
		for e.inline[x] && depth[x] == 0 {
			path = append(path, x)
			x = parent[x]
		}
		d := int32(0)
		if e.inline[x] {
			d = depth[x]
		}
		for i := len(path) - 1; i >= 0; i-- {
			d++
			if d > maxInlineDepth {
				e.inline[path[i]] = false
				d = 0
				depth[path[i]] = -1
				continue
			}
			depth[path[i]] = d
		}
	}
}

// classCoherent un-nests, in 0.4, every IRI entity of a class that has an
// entity not nested (member: the (entity, class) pairs of rdf:type) (SPEC.md section 17.5): a class is either in tables,
// where headers count its entities, or nested; untyped entities and blank
// nodes are not concerned. Un-nesting an entity can open its other
// classes, hence the fixed point.
func (e *encoder) classCoherent(typed []bool, member [][2]rdf.TermID) {
	open := make([]bool, len(e.inline)) // by class: has an entity not nested
	for changed := true; changed; {
		changed = false
		for _, m := range member {
			if !e.inline[m[0]] {
				open[m[1]] = true
			}
		}
		for _, m := range member {
			if e.inline[m[0]] && open[m[1]] && typed[m[0]] && e.term(m[0]).Kind == rdf.IRIKind {
				e.inline[m[0]] = false
				changed = true
			}
		}
	}
}

// maxListLength bounds the items of a list written as a (N) cell.
const maxListLength = 1 << 16

// findLists finds the well-formed RDF lists written as (N) cells (0.3,
// SPEC.md section 15): a chain of blank nodes from a head to rdf:nil where
// every node has exactly one rdf:first and one rdf:rest quad and no other
// quad as subject, is the object of exactly one quad (the head: of a quad
// whose predicate is neither rdf:first nor rdf:rest and whose subject has
// no other link value for that predicate in that graph; the others: of the
// previous node's rdf:rest), is no graph name, all in one graph; and whose
// items all have the same column key.
func (e *encoder) findLists() {
	n := e.d.NumTerms() + 1
	e.listNode = make([]bool, n)
	e.listItems = map[rdf.TermID]listCell{}
	if !e.lists {
		return
	}
	first, ok1 := e.d.Lookup(rdf.NewIRI(rdf.RDFFirst))
	rest, ok2 := e.d.Lookup(rdf.NewIRI(rdf.RDFRest))
	nilID, ok3 := e.d.Lookup(rdf.NewIRI(rdf.RDFNil))
	if !ok1 || !ok2 || !ok3 {
		return
	}
	type nodeInfo struct {
		nFirst, nRest, nOther, nIn int
		item, next, graph          rdf.TermID
		in                         rdf.IDQuad
	}
	info := map[rdf.TermID]*nodeInfo{}
	get := func(id rdf.TermID) *nodeInfo {
		x := info[id]
		if x == nil {
			x = &nodeInfo{}
			info[id] = x
		}
		return x
	}
	graphName := map[rdf.TermID]bool{}
	type spg struct{ s, p, g rdf.TermID }
	links := map[spg]int{}
	for _, q := range e.d.IDQuads() {
		graphName[q[3]] = true
		if e.entity[q[2]] && !(q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind) {
			links[spg{q[0], q[1], q[3]}]++
		}
		if e.term(q[0]).Kind == rdf.BlankKind {
			x := get(q[0])
			switch q[1] {
			case first:
				x.nFirst++
				x.item = q[2]
			case rest:
				x.nRest++
				x.next = q[2]
			default:
				x.nOther++
			}
			if q[1] == first || q[1] == rest {
				if x.nFirst+x.nRest == 1 {
					x.graph = q[3]
				} else if x.graph != q[3] {
					x.nOther++ // first and rest in different graphs
				}
			}
		}
		if e.term(q[2]).Kind == rdf.BlankKind {
			x := get(q[2])
			x.nIn++
			x.in = q
		}
	}
	valid := func(id rdf.TermID) bool {
		x := info[id]
		return x != nil && x.nFirst == 1 && x.nRest == 1 && x.nOther == 0 && x.nIn == 1 &&
			!graphName[id] && x.in[3] == x.graph
	}
	var heads []rdf.TermID
	for id := range info {
		if !valid(id) {
			continue
		}
		in := info[id].in
		if in[1] == first || in[1] == rest || links[spg{in[0], in[1], in[3]}] != 1 {
			continue
		}
		heads = append(heads, id)
	}
	slices.SortFunc(heads, func(a, b rdf.TermID) int { return cmp.Compare(e.rank[a], e.rank[b]) })
	for _, h := range heads {
		var nodes, items []rdf.TermID
		x := h
		ok := true
		for x != nilID {
			if !valid(x) || len(nodes) >= maxListLength || (x != h && (info[x].in[1] != rest || info[x].in[0] != nodes[len(nodes)-1])) {
				ok = false
				break
			}
			nodes = append(nodes, x)
			items = append(items, info[x].item)
			x = info[x].next
		}
		if !ok {
			continue
		}
		// One column key for every item; entities may be mixed with IRIs
		// that are not entities (written <IRI>).
		key := e.classOf(first, items[0])
		for _, it := range items[1:] {
			k := e.classOf(first, it)
			switch {
			case k == key:
			case k.cls == syntax.ClsLink && key.cls == syntax.ClsIRI:
				key = k
			case k.cls == syntax.ClsIRI && key.cls == syntax.ClsLink:
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, nd := range nodes {
			e.listNode[nd] = true
		}
		e.listItems[h] = listCell{items: items, key: key}
	}
}
