package turtle

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// WriteOptions control Write.
type WriteOptions struct {
	// Prefixes are the namespace prefixes the writer may use. When nil, it
	// uses the dataset's own prefixes plus rdf, rdfs, xsd and owl (when
	// their names are free). Only prefixes that the output uses are
	// written, sorted by name.
	Prefixes []rdf.Prefix
	// Base, when set, is written as @base and IRIs are written relative to
	// it where that resolves back to the same IRI.
	Base string
}

// wellKnown are the prefixes added by default.
var wellKnown = []rdf.Prefix{
	{Name: "owl", IRI: "http://www.w3.org/2002/07/owl#"},
	{Name: "rdf", IRI: rdf.RDFNS},
	{Name: "rdfs", IRI: rdf.RDFSNS},
	{Name: "xsd", IRI: rdf.XSD},
}

// ErrNamedGraphs is returned when Write is asked to write a dataset with
// named graphs as Turtle, which has no syntax for them.
var ErrNamedGraphs = errors.New("turtle: the dataset has named graphs; write it as TriG")

// Write writes d as Turtle or TriG. The output depends only on the set of
// quads and the options: prefixes sorted by name, subjects sorted (IRIs,
// then blank nodes), rdf:type first (as "a") then predicates by IRI, objects
// sorted; blank nodes used once as an object are nested as [ ... ] and
// well-formed lists are written as ( ... ). TriG writes the default graph
// first and each named graph as a GRAPH block. Turtle fails with
// ErrNamedGraphs when d has named graphs.
//
// RDF 1.2 reification is written with its syntax where that is exact: an
// asserted triple with reifiers as "s p o ~ r {| ... |}" (the reifier's
// other properties in the block, a blank reifier used nowhere else left
// out), a reifier of one unasserted triple as the subject
// "<< s p o ~ r >>", and a nested blank node whose only property is
// rdf:reifies as the object "<< s p o >>". Output that uses RDF 1.2
// syntax starts with VERSION "1.2"; RDF 1.1 data is written without it.
//
// parse(write(d)) is isomorphic to d, except that characters an IRI may not
// contain (kept by lenient readers from messy data) are percent-encoded.
// Nesting is limited to 64 levels; deeper blank nodes keep their labels.
func Write(w io.Writer, d *rdf.Dataset, syntax Syntax, opts WriteOptions) error {
	return WriteContext(context.Background(), w, d, syntax, opts)
}

// WriteContext is Write with a context: it stops with ctx.Err() soon after
// ctx is cancelled (it polls ctx every thousand objects or so), leaving w with
// part of the document.
func WriteContext(ctx context.Context, w io.Writer, d *rdf.Dataset, syntax Syntax, opts WriteOptions) error {
	if syntax == Turtle {
		for _, q := range d.IDQuads() {
			if q[3] != 0 {
				return ErrNamedGraphs
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	wr := newWriter(d, syntax, opts)
	wr.ctx = ctx
	// A first pass without output finds the prefixes the body uses, so the
	// body can then stream to w after the header.
	wr.out = discard{}
	if err := wr.body(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if wr.rdf12 {
		bw.WriteString("VERSION \"1.2\"\n")
	}
	if opts.Base != "" {
		bw.WriteString("@base <")
		writeIRIBody(bw, opts.Base)
		bw.WriteString("> .\n")
	}
	var used []rdf.Prefix
	for _, p := range wr.prefixes {
		if wr.used[p.Name] {
			used = append(used, p)
		}
	}
	slices.SortFunc(used, func(a, b rdf.Prefix) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range used {
		bw.WriteString("@prefix ")
		bw.WriteString(p.Name)
		bw.WriteString(": <")
		writeIRIBody(bw, p.IRI)
		bw.WriteString("> .\n")
	}
	if (wr.rdf12 || opts.Base != "" || len(used) > 0) && len(wr.sorted) > 0 {
		bw.WriteByte('\n')
	}
	wr.out = bw
	if err := wr.body(); err != nil {
		bw.Flush()
		return err
	}
	return bw.Flush()
}

// discard is a byteWriter that drops everything.
type discard struct{}

func (discard) WriteString(s string) (int, error) { return len(s), nil }
func (discard) WriteByte(byte) error              { return nil }

type writer struct {
	ctx    context.Context
	d      *rdf.Dataset
	syntax Syntax
	base   string
	out    byteWriter // where the body goes

	prefixes []rdf.Prefix // usable prefixes, longest namespace first
	used     map[string]bool

	rank    []int        // rank[id]: position of the term in rdf.Compare order
	objRefs []int32      // uses as an object, over the whole dataset, by term ID
	home    []rdf.TermID // the graph a blank node was first seen in, +1 (0: not seen)
	multi   []bool       // blank nodes used in more than one graph
	isGraph []bool
	inline  []bool                       // blank nodes written nested where referenced
	sorted  []rdf.IDQuad                 // quads by graph, subject, predicate (rdf:type first), object
	cells   map[rdf.TermID][2]rdf.TermID // nodes heading lists written ( ... ): item and rest
	nilID   rdf.TermID
	relabel map[rdf.TermID]string
	// innerLabel relabels, like relabel, the blank nodes that occur only
	// inside triple terms (which have no term ID).
	innerLabel map[string]string
	typeID     rdf.TermID
	bySubj     map[[2]rdf.TermID][]rdf.IDQuad // (graph, subject) -> quads sorted by P, O
	indent     int
	nest       int          // current nesting of [ ] and ( )
	spill      []rdf.TermID // nodes too deep to nest, to write at top level

	// RDF 1.2 reification sugar. skip holds the rdf:reifies quads the
	// sugar expresses (left out of bySubj); annot maps an asserted quad to
	// its reifiers, written "~ r"; absorbed reifiers have their other
	// properties written in the annotation block "{| ... |}", and
	// anonymous ones among them are written without a label; reified maps
	// a (graph, reifier) written as a subject "<< s p o ~ r >>" to its
	// triple term.
	annot     map[rdf.IDQuad][]rdf.TermID
	absorbed  map[[2]rdf.TermID]bool // by (graph, reifier)
	anonymous []bool
	reified   map[[2]rdf.TermID]rdf.Term
	reifiesID rdf.TermID
	rdf12     bool // the output uses RDF 1.2 syntax (set by the first pass)

	ticks int64 // objects written, for polling ctx
	err   error // ctx's error, once polled after cancellation
}

func newWriter(d *rdf.Dataset, syntax Syntax, opts WriteOptions) *writer {
	w := &writer{d: d, syntax: syntax, base: opts.Base, used: map[string]bool{}}
	// Prefixes: valid names only, one per name, longest namespace first.
	cands := opts.Prefixes
	if cands == nil {
		cands = slices.Clone(d.Prefixes)
		for _, wk := range wellKnown {
			if !slices.ContainsFunc(cands, func(p rdf.Prefix) bool { return p.Name == wk.Name }) {
				cands = append(cands, wk)
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range cands {
		if seen[p.Name] || !validPrefixName(p.Name) || p.IRI == "" {
			continue
		}
		seen[p.Name] = true
		w.prefixes = append(w.prefixes, p)
	}
	slices.SortStableFunc(w.prefixes, func(a, b rdf.Prefix) int {
		if len(a.IRI) != len(b.IRI) {
			return len(b.IRI) - len(a.IRI)
		}
		return strings.Compare(a.Name, b.Name)
	})

	// Term ranks.
	n := d.NumTerms() + 1
	ids := make([]rdf.TermID, n)
	for i := range ids {
		ids[i] = rdf.TermID(i)
	}
	slices.SortFunc(ids, func(a, b rdf.TermID) int { return rdf.Compare(d.Term(a), d.Term(b)) })
	w.rank = make([]int, n)
	for i, id := range ids {
		w.rank[id] = i
	}
	w.typeID, _ = d.Lookup(rdf.NewIRI(rdf.RDFType))

	// Blank node labels: keep them when all are valid, else number them.
	valid := true
	for _, id := range ids {
		t := d.Term(id)
		if t.Kind == rdf.BlankKind && !validBlankLabel(t.Value) {
			valid = false
			break
		}
		if t.Kind == rdf.TripleKind {
			rdf.EachBlank(t, func(b rdf.Term) { valid = valid && validBlankLabel(b.Value) })
		}
	}
	if !valid {
		w.relabel = map[rdf.TermID]string{}
		w.innerLabel = map[string]string{}
		k := 0
		for _, id := range ids {
			if d.Term(id).Kind == rdf.BlankKind {
				w.relabel[id] = "b" + strconv.Itoa(k)
				k++
			}
		}
		for _, id := range ids {
			if t := d.Term(id); t.Kind == rdf.TripleKind {
				rdf.EachBlank(t, func(b rdf.Term) {
					if _, ok := d.Lookup(b); !ok && w.innerLabel[b.Value] == "" {
						w.innerLabel[b.Value] = "b" + strconv.Itoa(k)
						k++
					}
				})
			}
		}
	}

	// Usage statistics.
	w.objRefs = make([]int32, n)
	w.home = make([]rdf.TermID, n)
	w.multi = make([]bool, n)
	w.isGraph = make([]bool, n)
	w.bySubj = map[[2]rdf.TermID][]rdf.IDQuad{}
	see := func(id, g rdf.TermID) {
		if d.Term(id).Kind != rdf.BlankKind {
			return
		}
		if h := w.home[id]; h == 0 {
			w.home[id] = g + 1
		} else if h != g+1 {
			w.multi[id] = true
		}
	}
	for _, q := range d.IDQuads() {
		w.objRefs[q[2]]++
		see(q[0], q[3])
		see(q[2], q[3])
		if q[3] != 0 {
			w.isGraph[q[3]] = true
		}
		if d.Term(q[2]).Kind == rdf.TripleKind {
			// A blank node inside a triple term is written with its
			// label everywhere: never nested as [ ... ] or [].
			rdf.EachBlank(d.Term(q[2]), func(b rdf.Term) {
				if id, ok := d.Lookup(b); ok {
					w.multi[id] = true
				}
			})
		}
	}
	w.sorted = slices.Clone(d.IDQuads())
	slices.SortFunc(w.sorted, func(a, b rdf.IDQuad) int {
		if a[3] != b[3] {
			return w.rank[a[3]] - w.rank[b[3]]
		}
		if a[0] != b[0] {
			return w.rank[a[0]] - w.rank[b[0]]
		}
		return w.comparePO(a, b)
	})
	for i := 0; i < len(w.sorted); {
		j := i + 1
		for j < len(w.sorted) && w.sorted[j][0] == w.sorted[i][0] && w.sorted[j][3] == w.sorted[i][3] {
			j++
		}
		w.bySubj[[2]rdf.TermID{w.sorted[i][3], w.sorted[i][0]}] = w.sorted[i:j:j]
		i = j
	}

	// Candidates for nesting: blank nodes used once as an object, in one
	// graph only, never as a graph name.
	w.inline = make([]bool, n)
	parent := map[rdf.TermID]rdf.TermID{}
	for _, q := range d.IDQuads() {
		o := q[2]
		if d.Term(o).Kind == rdf.BlankKind && w.objRefs[o] == 1 && !w.multi[o] && !w.isGraph[o] {
			w.inline[o] = true
			parent[o] = q[0]
		}
	}
	w.breakCycles(ids, parent)
	w.findLists(ids)
	w.reification(parent)
	return w
}

// breakCycles makes nested nodes that are written inside one another in a
// cycle top-level nodes: in each cycle of the parent relation among nested
// blank nodes, the one first in term order (ids lists the terms in order).
// Each node is walked once.
func (w *writer) breakCycles(ids []rdf.TermID, parent map[rdf.TermID]rdf.TermID) {
	const onWalk, done = 1, 2
	state := make([]uint8, len(w.inline))
	var walk []rdf.TermID
	for _, id := range ids {
		if !w.inline[id] || state[id] != 0 {
			continue
		}
		walk = walk[:0]
		x := id
		for w.inline[x] && state[x] == 0 {
			state[x] = onWalk
			walk = append(walk, x)
			x = parent[x]
		}
		if w.inline[x] && state[x] == onWalk {
			cyc := walk[slices.Index(walk, x):]
			first := slices.MinFunc(cyc, func(a, b rdf.TermID) int { return w.rank[a] - w.rank[b] })
			w.inline[first] = false
		}
		for _, y := range walk {
			state[y] = done
		}
	}
}

// findLists finds the nested blank nodes that head a well-formed list,
// written ( ... ): each node of the list is a nested blank node with
// exactly an rdf:first and an rdf:rest, the last rest being rdf:nil. Each
// node is examined once: a node heads a list when it is a list cell whose
// rest is rdf:nil or heads a list.
func (w *writer) findLists(ids []rdf.TermID) {
	d := w.d
	w.cells = map[rdf.TermID][2]rdf.TermID{}
	firstID, _ := d.Lookup(rdf.NewIRI(rdf.RDFFirst))
	restID, _ := d.Lookup(rdf.NewIRI(rdf.RDFRest))
	nilID, hasNil := d.Lookup(rdf.NewIRI(rdf.RDFNil))
	if firstID == 0 || restID == 0 || !hasNil {
		return
	}
	w.nilID = nilID
	// cell returns the item and rest of a list cell.
	cell := func(node rdf.TermID) (first, rest rdf.TermID, ok bool) {
		if !w.inline[node] || d.Term(node).Kind != rdf.BlankKind {
			return 0, 0, false
		}
		qs := w.bySubj[[2]rdf.TermID{w.home[node] - 1, node}]
		if len(qs) != 2 {
			return 0, 0, false
		}
		for _, q := range qs {
			switch q[1] {
			case firstID:
				first = q[2]
			case restID:
				rest = q[2]
			}
		}
		return first, rest, first != 0 && rest != 0
	}
	const unknown, onWalk, yes, no = 0, 1, 2, 3
	state := make([]uint8, len(w.inline))
	var walk []rdf.TermID
	var items [][2]rdf.TermID
	for _, id := range ids {
		if !w.inline[id] || state[id] != unknown {
			continue
		}
		walk, items = walk[:0], items[:0]
		node, end := id, uint8(no)
		for {
			if node == nilID {
				end = yes
				break
			}
			if state[node] != unknown {
				end = state[node]
				if end == onWalk {
					end = no // a cycle
				}
				break
			}
			first, rest, ok := cell(node)
			if !ok {
				state[node] = no
				break
			}
			state[node] = onWalk
			walk = append(walk, node)
			items = append(items, [2]rdf.TermID{first, rest})
			node = rest
		}
		for i, x := range walk {
			state[x] = end
			if end == yes {
				w.cells[x] = items[i]
			}
		}
	}
}

// listItems returns the items of the list headed by o, or false when o
// does not head a list.
func (w *writer) listItems(o rdf.TermID) ([]rdf.TermID, bool) {
	if _, ok := w.cells[o]; !ok {
		return nil, false
	}
	var items []rdf.TermID
	for x := o; x != w.nilID; x = w.cells[x][1] {
		items = append(items, w.cells[x][0])
	}
	return items, true
}

// reification finds the rdf:reifies statements the RDF 1.2 annotation
// and reified-triple syntax can express exactly, and removes them from
// bySubj. parent maps nested blank nodes to the subject they are written
// in.
func (w *writer) reification(parent map[rdf.TermID]rdf.TermID) {
	d := w.d
	n := len(w.rank)
	w.annot = map[rdf.IDQuad][]rdf.TermID{}
	w.absorbed = map[[2]rdf.TermID]bool{}
	w.anonymous = make([]bool, n)
	w.reified = map[[2]rdf.TermID]rdf.Term{}
	reifiesID, ok := d.Lookup(rdf.NewIRI(rdf.RDFReifies))
	if !ok {
		return
	}
	w.reifiesID = reifiesID
	firstID, _ := d.Lookup(rdf.NewIRI(rdf.RDFFirst))
	restID, _ := d.Lookup(rdf.NewIRI(rdf.RDFRest))
	asserted := map[rdf.IDQuad]bool{}
	count := map[[2]rdf.TermID]int{} // rdf:reifies quads by (graph, reifier)
	total := make([]int, n)          // rdf:reifies quads by reifier
	for _, q := range d.IDQuads() {
		asserted[q] = true
		if q[1] == reifiesID && d.Term(q[2]).Kind == rdf.TripleKind {
			count[[2]rdf.TermID{q[3], q[0]}]++
			total[q[0]]++
		}
	}
	skip := map[rdf.IDQuad]bool{}
	var absorbed [][2]rdf.TermID                // (graph, reifier), in quad order
	absParent := map[[2]rdf.TermID]rdf.TermID{} // the subject it is written in
	for _, q := range w.sorted {
		r, g := q[0], q[3]
		if q[1] != reifiesID {
			continue
		}
		tt := d.Term(q[2])
		if tt.Kind != rdf.TripleKind {
			continue
		}
		rt := d.Term(r)
		if rt.Kind != rdf.IRIKind && rt.Kind != rdf.BlankKind {
			continue
		}
		ts, tp, to, err := tt.Triple()
		if err != nil || !sugarSubject(ts) || tp.Kind != rdf.IRIKind {
			continue
		}
		sid, ok1 := d.Lookup(ts)
		pid, ok2 := d.Lookup(tp)
		oid, ok3 := d.Lookup(to)
		aq := rdf.IDQuad{sid, pid, oid, g}
		listTriple := ts.Kind == rdf.BlankKind && (pid == firstID || pid == restID)
		if ok1 && ok2 && ok3 && asserted[aq] && !listTriple && !w.inline[r] {
			skip[q] = true
			w.annot[aq] = append(w.annot[aq], r)
			if count[[2]rdf.TermID{g, r}] == 1 {
				w.absorbed[[2]rdf.TermID{g, r}] = true
				absorbed = append(absorbed, [2]rdf.TermID{g, r})
				absParent[[2]rdf.TermID{g, r}] = sid
				w.anonymous[r] = rt.Kind == rdf.BlankKind && total[r] == 1 &&
					w.objRefs[r] == 0 && !w.multi[r] && !w.isGraph[r]
			}
			continue
		}
		if count[[2]rdf.TermID{g, r}] == 1 && !w.inline[r] && !(ok1 && ok2 && ok3 && asserted[aq]) {
			skip[q] = true
			w.reified[[2]rdf.TermID{g, r}] = tt
		}
	}
	if len(skip) == 0 {
		return
	}
	// Anonymous reifiers with properties come first: a "{| ... |}" block
	// after "~ r" would describe r.
	for aq, rs := range w.annot {
		key := func(r rdf.TermID) int {
			if w.anonymous[r] && w.absorbed[[2]rdf.TermID{aq[3], r}] && len(w.bySubj[[2]rdf.TermID{aq[3], r}]) > 1 {
				return 0
			}
			return 1
		}
		slices.SortFunc(rs, func(a, b rdf.TermID) int {
			if ka, kb := key(a), key(b); ka != kb {
				return ka - kb
			}
			return w.rank[a] - w.rank[b]
		})
	}
	// Break cycles of nodes written inside one another. Nested blank
	// nodes have one graph; absorbed reifiers are nested per graph. In
	// each cycle, the absorbed reifier first in quad order is written at
	// top level. Each (graph, node) is walked once.
	const onWalk, done = 1, 2
	state := map[[2]rdf.TermID]uint8{}
	index := make(map[[2]rdf.TermID]int, len(absorbed))
	for i, k := range absorbed {
		index[k] = i
	}
	var walk [][2]rdf.TermID
	for _, k := range absorbed {
		if state[k] != 0 {
			continue
		}
		g := k[0]
		walk = walk[:0]
		x := k
		for state[x] == 0 {
			state[x] = onWalk
			walk = append(walk, x)
			var p rdf.TermID
			if w.absorbed[x] {
				p = absParent[x]
			} else {
				p = parent[x[1]]
			}
			x = [2]rdf.TermID{g, p}
			if !w.absorbed[x] && !w.inline[p] {
				break
			}
		}
		if state[x] == onWalk && (w.absorbed[x] || w.inline[x[1]]) {
			first := -1
			for _, y := range walk[slices.Index(walk, x):] {
				if i, ok := index[y]; ok && w.absorbed[y] && (first < 0 || i < first) {
					first = i
				}
			}
			if first >= 0 {
				delete(w.absorbed, absorbed[first])
				w.anonymous[absorbed[first][1]] = false
			}
		}
		for _, y := range walk {
			state[y] = done
		}
	}
	// A labelled blank reifier is never nested as [ ... ] or written [].
	for _, rs := range w.annot {
		for _, r := range rs {
			if !w.anonymous[r] && d.Term(r).Kind == rdf.BlankKind {
				w.multi[r] = true
			}
		}
	}
	for k, qs := range w.bySubj {
		if !slices.ContainsFunc(qs, func(q rdf.IDQuad) bool { return skip[q] }) {
			continue
		}
		w.bySubj[k] = slices.DeleteFunc(slices.Clone(qs), func(q rdf.IDQuad) bool { return skip[q] })
	}
}

// comparePO orders quads by predicate (rdf:type first) then object.
func (w *writer) comparePO(a, b rdf.IDQuad) int {
	if a[1] != b[1] {
		if a[1] == w.typeID {
			return -1
		}
		if b[1] == w.typeID {
			return 1
		}
		return w.rank[a[1]] - w.rank[b[1]]
	}
	return w.rank[a[2]] - w.rank[b[2]]
}

// checkEvery is how many objects the writer writes between polls of its
// context.
const checkEvery = 1024

// body writes the body of the document (or, with discard as out, finds
// what it uses). It stops with the context's error once it is cancelled.
func (w *writer) body() error {
	w.ticks, w.err = 0, nil
	for i := 0; i < len(w.sorted); {
		g := w.sorted[i][3]
		if i > 0 {
			w.out.WriteByte('\n')
		}
		if g != 0 {
			w.out.WriteString("GRAPH ")
			w.term(g, false)
			w.out.WriteString(" {\n")
			w.indent = 1
		}
		first := true
		for i < len(w.sorted) && w.sorted[i][3] == g {
			if w.err != nil {
				return w.err
			}
			s := w.sorted[i][0]
			for i < len(w.sorted) && w.sorted[i][3] == g && w.sorted[i][0] == s {
				i++
			}
			if w.inline[s] || w.absorbed[[2]rdf.TermID{g, s}] {
				continue // written where it is referenced
			}
			tt, isReified := w.reified[[2]rdf.TermID{g, s}]
			if !isReified && len(w.bySubj[[2]rdf.TermID{g, s}]) == 0 {
				continue // all said by RDF 1.2 annotations
			}
			if !first {
				w.out.WriteByte('\n')
			}
			first = false
			w.writeIndent()
			st := w.d.Term(s)
			if isReified {
				rt := w.d.Term(s)
				w.reifiedTriple(s, tt, rt.Kind != rdf.BlankKind || w.objRefs[s] > 0 || w.multi[s] || w.isGraph[s])
			} else if st.Kind == rdf.BlankKind && w.objRefs[s] == 0 && !w.multi[s] && !w.isGraph[s] {
				// An unreferenced blank node needs no label.
				w.out.WriteString("[]")
			} else {
				w.term(s, false)
			}
			w.predicateObjects(g, s, w.indent+1)
			w.out.WriteString(" .\n")
		}
		// Nodes nested too deeply to inline, in the order met.
		for len(w.spill) > 0 {
			s := w.spill[0]
			w.spill = w.spill[1:]
			w.out.WriteByte('\n')
			w.writeIndent()
			w.term(s, false)
			w.predicateObjects(g, s, w.indent+1)
			w.out.WriteString(" .\n")
		}
		if g != 0 {
			w.indent = 0
			w.out.WriteString("}\n")
		}
	}
	return w.err
}

// stopped counts one object written and reports whether the writer must
// stop: the context is polled every checkEvery objects, and its error kept
// in w.err.
func (w *writer) stopped() bool {
	if w.err != nil {
		return true
	}
	w.ticks++
	if w.ticks%checkEvery == 0 {
		w.err = w.ctx.Err()
	}
	return w.err != nil
}

func (w *writer) writeIndent() {
	for i := 0; i < w.indent; i++ {
		w.out.WriteString("    ")
	}
}

func (w *writer) newline(level int) {
	w.out.WriteByte('\n')
	for i := 0; i < level; i++ {
		w.out.WriteString("    ")
	}
}

// predicateObjects writes " p o1, o2 ;\n p2 o3" for subject s in graph g.
func (w *writer) predicateObjects(g, s rdf.TermID, level int) {
	qs := w.bySubj[[2]rdf.TermID{g, s}]
	for i, q := range qs {
		switch {
		case i == 0:
			w.out.WriteByte(' ')
			w.predicate(q[1])
		case q[1] == qs[i-1][1]:
			w.out.WriteString(", ")
			w.object(g, q[2], level)
			w.annotation(q, level)
			continue
		default:
			w.out.WriteString(" ;")
			w.newline(level)
			w.predicate(q[1])
		}
		w.out.WriteByte(' ')
		w.object(g, q[2], level)
		w.annotation(q, level)
	}
}

// sugarSubject reports whether t may be the subject of a reified triple.
func sugarSubject(t rdf.Term) bool {
	return t.Kind == rdf.IRIKind || t.Kind == rdf.BlankKind
}

// reifiedObject reports the triple term t when the nested blank node o
// has no property but "o rdf:reifies t", so that o can be written as
// << s p o >>.
func (w *writer) reifiedObject(g, o rdf.TermID) (rdf.Term, bool) {
	qs := w.bySubj[[2]rdf.TermID{g, o}]
	if w.reifiesID == 0 || len(qs) != 1 || qs[0][1] != w.reifiesID {
		return rdf.Term{}, false
	}
	t := w.d.Term(qs[0][2])
	if t.Kind != rdf.TripleKind {
		return rdf.Term{}, false
	}
	ts, tp, _, err := t.Triple()
	if err != nil || !sugarSubject(ts) || tp.Kind != rdf.IRIKind {
		return rdf.Term{}, false
	}
	return t, true
}

// annotation writes the reifiers of q and the annotation blocks of those
// reifiers whose properties are written there.
func (w *writer) annotation(q rdf.IDQuad, level int) {
	for _, r := range w.annot[q] {
		w.rdf12 = true
		qs := w.bySubj[[2]rdf.TermID{q[3], r}]
		absorbed := w.absorbed[[2]rdf.TermID{q[3], r}]
		if !absorbed || len(qs) == 0 || w.nest >= maxNest {
			w.out.WriteString(" ~")
			if !w.anonymous[r] || len(qs) > 0 {
				w.out.WriteByte(' ')
				w.term(r, true)
			}
			if absorbed && len(qs) > 0 {
				w.spill = append(w.spill, r)
			}
			continue
		}
		if !w.anonymous[r] {
			w.out.WriteString(" ~ ")
			w.term(r, true)
		}
		w.nest++
		w.out.WriteString(" {|")
		w.predicateObjects(q[3], r, level+1)
		w.out.WriteString(" |}")
		w.nest--
	}
}

// reifiedTriple writes << s p o ~ r >> for the reifier r of the triple
// term t, or << s p o >> (a fresh blank node) when label is false.
func (w *writer) reifiedTriple(r rdf.TermID, t rdf.Term, label bool) {
	w.rdf12 = true
	var b strings.Builder
	saved := w.out
	w.out = &b
	w.tripleTerm(t)
	w.out = saved
	inner := b.String()
	w.out.WriteString("<< ")
	w.out.WriteString(inner[len("<<( ") : len(inner)-len(" )>>")])
	if label {
		w.out.WriteString(" ~ ")
		w.term(r, false)
	}
	w.out.WriteString(" >>")
}

func (w *writer) predicate(p rdf.TermID) {
	if p == w.typeID {
		w.out.WriteByte('a')
		return
	}
	w.term(p, false)
}

// maxNest bounds the nesting of [ ] and ( ) in the output, keeping it
// readable by parsers with depth limits and the writer's recursion bounded;
// deeper nodes are written with their label and described at top level.
const maxNest = 64

func (w *writer) object(g, o rdf.TermID, level int) {
	if w.stopped() {
		return
	}
	_, isList := w.cells[o]
	if (isList || w.inline[o] && len(w.bySubj[[2]rdf.TermID{g, o}]) > 0) && w.nest >= maxNest {
		w.spill = append(w.spill, o)
		w.term(o, true)
		return
	}
	if items, ok := w.listItems(o); ok {
		w.nest++
		w.out.WriteByte('(')
		for _, it := range items {
			w.out.WriteByte(' ')
			w.object(g, it, level)
		}
		w.out.WriteString(" )")
		w.nest--
		return
	}
	if w.inline[o] {
		if t, ok := w.reifiedObject(g, o); ok {
			w.reifiedTriple(o, t, false)
			return
		}
		if len(w.bySubj[[2]rdf.TermID{g, o}]) == 0 {
			w.out.WriteString("[]")
			return
		}
		qs := w.bySubj[[2]rdf.TermID{g, o}]
		w.nest++
		defer func() { w.nest-- }()
		w.out.WriteByte('[')
		w.predicateObjects(g, o, level+1)
		if qs[0][1] == qs[len(qs)-1][1] {
			w.out.WriteString(" ]") // one predicate: keep it on one line
		} else {
			w.newline(level)
			w.out.WriteByte(']')
		}
		return
	}
	w.term(o, true)
}

// term writes an IRI, blank node or literal.
func (w *writer) term(id rdf.TermID, obj bool) {
	t := w.d.Term(id)
	switch t.Kind {
	case rdf.IRIKind:
		if obj && t.Value == rdf.RDFNil {
			w.out.WriteString("()")
			return
		}
		w.iri(t.Value)
	case rdf.BlankKind:
		w.out.WriteString("_:")
		if w.relabel != nil {
			w.out.WriteString(w.relabel[id])
		} else {
			w.out.WriteString(t.Value)
		}
	case rdf.LiteralKind:
		w.literal(t)
	case rdf.TripleKind:
		w.rdf12 = true
		w.tripleTerm(t)
	}
}

// tripleTerm writes an RDF 1.2 triple term as <<( s p o )>>.
func (w *writer) tripleTerm(t rdf.Term) {
	s, p, o, err := t.Triple()
	if err != nil {
		// Not from NewTripleTerm: write the value as it is.
		w.out.WriteString("<<( ")
		w.out.WriteString(t.Value)
		w.out.WriteString(" )>>")
		return
	}
	w.out.WriteString("<<( ")
	for i, x := range [3]rdf.Term{s, p, o} {
		if i > 0 {
			w.out.WriteByte(' ')
		}
		switch x.Kind {
		case rdf.IRIKind:
			w.iri(x.Value)
		case rdf.BlankKind:
			w.out.WriteString("_:")
			if w.relabel == nil {
				w.out.WriteString(x.Value)
			} else if id, ok := w.d.Lookup(x); ok {
				w.out.WriteString(w.relabel[id])
			} else {
				w.out.WriteString(w.innerLabel[x.Value])
			}
		case rdf.LiteralKind:
			w.literal(x)
		case rdf.TripleKind:
			w.tripleTerm(x)
		}
	}
	w.out.WriteString(" )>>")
}

func (w *writer) iri(s string) {
	for _, p := range w.prefixes {
		if len(s) >= len(p.IRI) && s[:len(p.IRI)] == p.IRI {
			if local, ok := escapeLocal(s[len(p.IRI):]); ok {
				w.used[p.Name] = true
				w.out.WriteString(p.Name)
				w.out.WriteByte(':')
				w.out.WriteString(local)
				return
			}
		}
	}
	if w.base != "" {
		if rel, ok := relativize(w.base, s); ok {
			s = rel
		}
	}
	w.out.WriteByte('<')
	writeIRIBody(w.out, s)
	w.out.WriteByte('>')
}

// relativize returns a reference that resolves against base to iri.
func relativize(base, iri string) (string, bool) {
	cands := make([]string, 0, 2)
	if i := strings.LastIndexByte(base, '/'); i >= 0 && strings.HasPrefix(iri, base[:i+1]) {
		cands = append(cands, iri[i+1:])
	}
	if strings.HasPrefix(iri, base) {
		cands = append(cands, iri[len(base):])
	}
	if len(cands) == 2 && len(cands[1]) < len(cands[0]) {
		cands[0], cands[1] = cands[1], cands[0]
	}
	for _, c := range cands {
		if c == "" || strings.HasPrefix(c, "/") || strings.ContainsRune(strings.SplitN(strings.SplitN(c, "/", 2)[0], "?", 2)[0], ':') {
			continue
		}
		if rdf.ResolveIRI(base, c) == iri {
			return c, true
		}
	}
	if rdf.ResolveIRI(base, "") == iri {
		return "", true
	}
	return "", false
}

type byteWriter interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

const hexDigits = "0123456789ABCDEF"

// writeIRIBody writes an IRI. The characters an IRIREF may not contain
// (found only in invalid IRIs kept from messy data) are written as \u00XX
// escapes, which every reader reads back into the same IRI, with a warning
// (the reader policy of package rdf).
func writeIRIBody(w byteWriter, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || iriByteOK(c) {
			continue
		}
		w.WriteString(s[start:i])
		w.WriteString(`\u00`)
		w.WriteByte(hexDigits[c>>4])
		w.WriteByte(hexDigits[c&15])
		start = i + 1
	}
	w.WriteString(s[start:])
}

// escapeLocal returns local written as a PN_LOCAL, with backslash escapes
// where needed, or false when it cannot be one (or would need escapes of
// /, # or ?, where a full IRI reads better).
func escapeLocal(local string) (string, bool) {
	if local == "" {
		return "", true
	}
	if plainLocal(local) {
		return local, true
	}
	if !utf8.ValidString(local) {
		return "", false
	}
	var b strings.Builder
	for i, r := range local {
		last := i+utf8.RuneLen(r) == len(local)
		switch {
		case r == ':' || r == '_' || r >= '0' && r <= '9' || isPNCharsBase(r):
			b.WriteRune(r)
		case r == '%':
			if i+2 < len(local) && isHex(local[i+1]) && isHex(local[i+2]) {
				b.WriteByte('%')
			} else {
				b.WriteString(`\%`)
			}
		case r == '.':
			if i == 0 || last {
				b.WriteString(`\.`)
			} else {
				b.WriteByte('.')
			}
		case r == '-' || r == 0xB7 || r >= 0x300 && r <= 0x36F || r == 0x203F || r == 0x2040:
			if i == 0 {
				if r != '-' {
					return "", false
				}
				b.WriteString(`\-`)
			} else {
				b.WriteRune(r)
			}
		case r == '/' || r == '#' || r == '?':
			return "", false
		case r < utf8.RuneSelf && isLocalEsc(byte(r)):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainLocal reports whether local is an ASCII PN_LOCAL needing no escapes.
func plainLocal(local string) bool {
	for i := 0; i < len(local); i++ {
		c := local[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '_' || c == ':':
		case c == '-' && i > 0:
		case c == '.' && i > 0 && i < len(local)-1:
		default:
			return false
		}
	}
	return true
}

func validPrefixName(name string) bool {
	return name == "" || validPNName(name, isPNCharsBase)
}

func validBlankLabel(label string) bool {
	return label != "" && validPNName(label, func(r rune) bool { return isPNCharsU(r) || r >= '0' && r <= '9' })
}

// validPNName reports whether s is valid UTF-8 made of a first character
// that first accepts, then PN_CHARS and '.', not ending with '.'.
func validPNName(s string, first func(rune) bool) bool {
	for i, r := range s {
		switch {
		case i == 0:
			if !first(r) {
				return false
			}
		case r == '.':
			if i == len(s)-1 {
				return false
			}
		case !isPNChars(r):
			return false
		}
	}
	return utf8.ValidString(s)
}

func (w *writer) literal(t rdf.Term) {
	switch t.Datatype {
	case rdf.XSDInteger:
		if isInteger(t.Value) {
			w.out.WriteString(t.Value)
			return
		}
	case rdf.XSDDecimal:
		if isDecimal(t.Value) {
			w.out.WriteString(t.Value)
			return
		}
	case rdf.XSDDouble:
		if isDouble(t.Value) {
			w.out.WriteString(t.Value)
			return
		}
	case rdf.XSDBoolean:
		if t.Value == "true" || t.Value == "false" {
			w.out.WriteString(t.Value)
			return
		}
	}
	w.quoted(t.Value)
	switch {
	case t.Lang != "":
		w.out.WriteByte('@')
		w.out.WriteString(t.Lang)
		if t.Dir != "" {
			w.out.WriteString("--")
			w.out.WriteString(t.Dir)
		}
	case t.Datatype != "" && t.Datatype != rdf.XSDString:
		w.out.WriteString("^^")
		w.iri(t.Datatype)
	}
}

// quoted writes a string: as a long string when it has line breaks and
// that form is safe, otherwise as a short string with escapes.
func (w *writer) quoted(s string) {
	if strings.IndexByte(s, '\n') >= 0 {
		w.out.WriteString(`"""`)
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '"':
				if i+1 == len(s) || s[i+1] == '"' {
					w.out.WriteString(`\"`)
				} else {
					w.out.WriteByte('"')
				}
			case c == '\\':
				w.out.WriteString(`\\`)
			case c == '\n' || c == '\t':
				w.out.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				writeEscape(w.out, c)
			default:
				w.out.WriteByte(c)
			}
		}
		w.out.WriteString(`"""`)
		return
	}
	w.out.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
			continue
		}
		w.out.WriteString(s[start:i])
		switch c {
		case '"':
			w.out.WriteString(`\"`)
		case '\\':
			w.out.WriteString(`\\`)
		case '\n':
			w.out.WriteString(`\n`)
		case '\t':
			w.out.WriteString(`\t`)
		default:
			writeEscape(w.out, c)
		}
		start = i + 1
	}
	w.out.WriteString(s[start:])
	w.out.WriteByte('"')
}

func writeEscape(b byteWriter, c byte) {
	switch c {
	case '\r':
		b.WriteString(`\r`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	default:
		b.WriteString(`\u00`)
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

// isInteger reports whether s matches INTEGER.
func isInteger(s string) bool {
	s = trimSign(s)
	return s != "" && digits(s) == len(s)
}

// isDecimal reports whether s matches DECIMAL.
func isDecimal(s string) bool {
	s = trimSign(s)
	s = s[digits(s):]
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	return digits(s[1:]) == len(s)-1
}

// isDouble reports whether s matches DOUBLE.
func isDouble(s string) bool {
	s = trimSign(s)
	n := digits(s)
	mant := n
	s = s[n:]
	if s != "" && s[0] == '.' {
		f := digits(s[1:])
		mant += f
		s = s[1+f:]
	}
	if mant == 0 || s == "" || (s[0] != 'e' && s[0] != 'E') {
		return false
	}
	s = trimSign(s[1:])
	return s != "" && digits(s) == len(s)
}
