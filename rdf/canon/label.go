package canon

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/isolda/isolda/rdf"
)

// blankBit marks a blank node in an encoded quad position; the other bits
// are the blank node's index. Positions without it hold the rank of a
// non-blank term (1-based) or 0 for the default graph.
const blankBit = 1 << 31

// problem is a dataset reduced to what blank node labelling needs: the
// quads that contain a blank node, with non-blank terms replaced by their
// rank in rdf.Compare order among the terms of those quads.
//
// RDF 1.2 triple terms that hold blank nodes become vertices too (auxiliary
// vertices, whose p.blanks entry is the triple term itself): each has two
// auxiliary quads, {T, markSubject, s, markAux} and {T, p, o, markAux},
// whose marks no real term's rank equals. A bijection of blank nodes maps
// one dataset onto another exactly when it extends to the auxiliary
// vertices so that all quads map onto each other, so certificates stay
// complete invariants.
type problem struct {
	blanks []rdf.Term   // vertex index -> blank node (or triple term), in order of first appearance
	terms  []rdf.Term   // rank-1 -> non-blank term, sorted by rdf.Compare
	quads  [][4]uint32  // quads with at least one blank node, encoded
	ground []rdf.IDQuad // quads without blank nodes
}

// Marks of the auxiliary quads of triple terms with blank nodes.
const (
	markAux     = blankBit - 1
	markSubject = blankBit - 2
)

// newProblem extracts the blank node quads of d.
func newProblem(d *rdf.Dataset) (*problem, error) {
	nt := d.NumTerms() + 1
	if nt >= markSubject {
		return nil, fmt.Errorf("canon: %d terms: %w", nt, rdf.ErrLimit)
	}
	// code[id]: 0 unknown, blankBit|i for vertex i, or rank (after ranking).
	// IDs from nt on are terms that occur only inside triple terms.
	code := make([]uint32, nt)
	const seen = 1
	p := &problem{}
	var ids []rdf.TermID
	var extra []rdf.Term                // term ID nt+i -> term
	var extraID map[rdf.Term]rdf.TermID // keyed by Term.Key
	var aux [][4]rdf.TermID             // auxiliary quads, as term IDs
	termOf := func(id rdf.TermID) rdf.Term {
		if int(id) < nt {
			return d.Term(id)
		}
		return extra[int(id)-nt]
	}
	idOf := func(t rdf.Term) rdf.TermID {
		if id, ok := d.Lookup(t); ok {
			return id
		}
		if extraID == nil {
			extraID = map[rdf.Term]rdf.TermID{}
		}
		k := t.Key()
		if id, ok := extraID[k]; ok {
			return id
		}
		id := rdf.TermID(nt + len(extra))
		extra = append(extra, t)
		extraID[k] = id
		code = append(code, 0)
		return id
	}
	isVertex := func(t rdf.Term) bool {
		return t.Kind == rdf.BlankKind || t.Kind == rdf.TripleKind && rdf.HasBlank(t)
	}
	var visit func(id rdf.TermID) error
	visit = func(id rdf.TermID) error {
		if id == 0 || code[id] != 0 {
			return nil
		}
		t := termOf(id)
		if !isVertex(t) {
			code[id] = seen
			ids = append(ids, id)
			return nil
		}
		if len(p.blanks) >= markSubject-nt {
			return fmt.Errorf("canon: too many blank nodes: %w", rdf.ErrLimit)
		}
		code[id] = blankBit | uint32(len(p.blanks))
		p.blanks = append(p.blanks, t)
		if t.Kind != rdf.TripleKind {
			return nil
		}
		ts, tp, to, err := t.Triple()
		if err != nil {
			return fmt.Errorf("canon: %w", err)
		}
		sid, pid, oid := idOf(ts), idOf(tp), idOf(to)
		aux = append(aux, [4]rdf.TermID{id, sid, pid, oid})
		for _, x := range [3]rdf.TermID{sid, pid, oid} {
			if err := visit(x); err != nil {
				return err
			}
		}
		return nil
	}
	for _, q := range d.IDQuads() {
		hasBlank := false
		for _, id := range q {
			if id != 0 && isVertex(d.Term(id)) {
				hasBlank = true
				break
			}
		}
		if !hasBlank {
			p.ground = append(p.ground, q)
			continue
		}
		for _, id := range q {
			if err := visit(id); err != nil {
				return nil, err
			}
		}
	}
	if len(ids) >= markSubject-1 {
		return nil, fmt.Errorf("canon: %d terms: %w", len(ids), rdf.ErrLimit)
	}
	slices.SortFunc(ids, func(a, b rdf.TermID) int { return rdf.Compare(termOf(a), termOf(b)) })
	p.terms = make([]rdf.Term, len(ids))
	for i, id := range ids {
		p.terms[i] = termOf(id)
		code[id] = uint32(i + 1)
	}
	p.quads = make([][4]uint32, 0, d.Len()-len(p.ground)+2*len(aux))
	for _, q := range d.IDQuads() {
		e := [4]uint32{code[q[0]], code[q[1]], code[q[2]], code[q[3]]}
		if e[0]&blankBit != 0 || e[1]&blankBit != 0 || e[2]&blankBit != 0 || e[3]&blankBit != 0 {
			p.quads = append(p.quads, e)
		}
	}
	for _, a := range aux {
		p.quads = append(p.quads,
			[4]uint32{code[a[0]], markSubject, code[a[1]], markAux},
			[4]uint32{code[a[0]], code[a[2]], code[a[3]], markAux})
	}
	return p, nil
}

// work counts units of work against a limit, polling a context now and
// then.
type work struct {
	n, max int64
	ctx    context.Context
	check  int64 // work at which ctx is polled next
}

func newWork(ctx context.Context, opts Options) *work {
	w := &work{max: opts.MaxWork, ctx: ctx, check: labelCheckEvery}
	if w.max == 0 {
		w.max = DefaultLabelWork
	}
	return w
}

// labelCheckEvery is how often, in units of work, the context is polled.
const labelCheckEvery = 1 << 16

func (w *work) add(n int) error {
	w.n += int64(n)
	if w.max >= 0 && w.n > w.max {
		return fmt.Errorf("canon: blank node labelling needs more than %d units of work: %w", w.max, rdf.ErrLimit)
	}
	if w.n >= w.check {
		w.check = w.n + labelCheckEvery
		if err := w.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// component is a connected component of blank nodes (two blank nodes are
// connected when they occur in the same quad) with its quads.
type component struct {
	verts  []int32     // local index -> blank index in the problem
	quads  [][4]uint32 // quads with blank nodes as blankBit|local index
	adjOff []int32     // adj[adjOff[v]:adjOff[v+1]] are v's quads
	adj    []int32

	// Results of labelling.
	cert  []uint32 // canonical certificate: the sorted relabelled quads
	order []int32  // label -> local vertex
}

// components splits the problem's blank nodes into connected components,
// in order of first appearance.
func (p *problem) components() []*component {
	n := len(p.blanks)
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, q := range p.quads {
		r := int32(-1)
		for _, x := range q {
			if x&blankBit == 0 {
				continue
			}
			b := find(int32(x &^ blankBit))
			if r < 0 {
				r = b
			} else if b != r {
				if b < r {
					r, b = b, r
				}
				parent[b] = r
			}
		}
	}
	compOf := make([]int32, n)
	local := make([]int32, n)
	var comps []*component
	for i := range n {
		r := find(int32(i))
		if r == int32(i) {
			compOf[i] = int32(len(comps))
			comps = append(comps, &component{})
		} else {
			compOf[i] = compOf[r]
		}
		c := comps[compOf[i]]
		local[i] = int32(len(c.verts))
		c.verts = append(c.verts, int32(i))
	}
	for _, q := range p.quads {
		var c *component
		for j, x := range q {
			if x&blankBit != 0 {
				b := x &^ blankBit
				if c == nil {
					c = comps[compOf[b]]
				}
				q[j] = blankBit | uint32(local[b])
			}
		}
		c.quads = append(c.quads, q)
	}
	for _, c := range comps {
		c.buildAdj()
	}
	return comps
}

// buildAdj fills the incidence lists: each quad is listed once per distinct
// blank node in it.
func (c *component) buildAdj() {
	k := len(c.verts)
	c.adjOff = make([]int32, k+1)
	each := func(q [4]uint32, f func(v uint32)) {
		for j, x := range q {
			if x&blankBit == 0 {
				continue
			}
			dup := false
			for _, y := range q[:j] {
				if y == x {
					dup = true
					break
				}
			}
			if !dup {
				f(x &^ blankBit)
			}
		}
	}
	for _, q := range c.quads {
		each(q, func(v uint32) { c.adjOff[v+1]++ })
	}
	for i := range k {
		c.adjOff[i+1] += c.adjOff[i]
	}
	c.adj = make([]int32, c.adjOff[k])
	fill := slices.Clone(c.adjOff[:k])
	for qi, q := range c.quads {
		each(q, func(v uint32) {
			c.adj[fill[v]] = int32(qi)
			fill[v]++
		})
	}
}

// partition is an ordered partition of a component's vertices into cells
// of consecutive positions. A vertex's colour is the start position of its
// cell. Every vertex of a cell has the same signature, stored once per cell.
type partition struct {
	elems []int32  // position -> vertex
	pos   []int32  // vertex -> position
	cell  []int32  // vertex -> start of its cell
	end   []int32  // cell start -> end of the cell (exclusive)
	csig  []uint64 // cell start -> signature of its vertices
	sig   []uint64 // vertex -> signature
}

func newPartition(k int) *partition {
	p := &partition{
		elems: make([]int32, k),
		pos:   make([]int32, k),
		cell:  make([]int32, k),
		end:   make([]int32, k),
		csig:  make([]uint64, k),
		sig:   make([]uint64, k),
	}
	for i := range k {
		p.elems[i] = int32(i)
		p.pos[i] = int32(i)
	}
	if k > 0 {
		p.end[0] = int32(k)
	}
	return p
}

func (p *partition) clone() *partition {
	return &partition{
		elems: slices.Clone(p.elems),
		pos:   slices.Clone(p.pos),
		cell:  slices.Clone(p.cell),
		end:   slices.Clone(p.end),
		csig:  slices.Clone(p.csig),
		sig:   slices.Clone(p.sig),
	}
}

// Tags keep blank node colours, the blank node itself and term ranks apart
// in signatures.
const (
	selfTag  uint64 = 0x5bd1e9955bd1e995
	blankTag uint64 = 1 << 40
)

// mix64 is the SplitMix64 finalizer.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// signature hashes the multiset of v's quads, each seen from v: v itself,
// the colours of the other blank nodes and the ranks of the other terms, by
// position. It depends only on the structure and the current colours.
func (c *component) signature(p *partition, v int32) uint64 {
	var sum uint64
	for _, qi := range c.adj[c.adjOff[v]:c.adjOff[v+1]] {
		h := uint64(0x9e3779b97f4a7c15)
		for _, x := range c.quads[qi] {
			val := uint64(x)
			if x&blankBit != 0 {
				u := int32(x &^ blankBit)
				if u == v {
					val = selfTag
				} else {
					val = blankTag | uint64(p.cell[u])
				}
			}
			h = mix64(h ^ val)
		}
		sum += mix64(h + 0x632be59bd9b4e019)
	}
	return sum
}

// labeller holds scratch space for refining the partitions of one component.
type labeller struct {
	c    *component
	w    *work
	mark []bool // vertex -> already in the dirty list / mover set
	next []int32
}

// refine splits cells until every vertex's signature agrees with its cell's,
// starting from the vertices in dirty (whose neighbours' colours changed).
// The result depends only on the structure and the input partition's cells,
// not on the order of vertices inside cells.
func (l *labeller) refine(p *partition, dirty []int32) error {
	c := l.c
	for len(dirty) > 0 {
		work := 0
		for _, v := range dirty {
			p.sig[v] = c.signature(p, v)
			work += int(c.adjOff[v+1]-c.adjOff[v]) + 1
		}
		if err := l.w.add(work); err != nil {
			return err
		}
		slices.SortFunc(dirty, func(a, b int32) int {
			if x := cmp.Compare(p.cell[a], p.cell[b]); x != 0 {
				return x
			}
			return cmp.Compare(p.sig[a], p.sig[b])
		})
		changed := l.next[:0]
		for i := 0; i < len(dirty); {
			s := p.cell[dirty[i]]
			j := i
			for j < len(dirty) && p.cell[dirty[j]] == s {
				j++
			}
			changed = l.split(p, s, dirty[i:j], changed)
			i = j
		}
		// The next round recomputes the neighbours of recoloured vertices.
		next := c.appendNeighbours(dirty[:0], changed, l.mark)
		l.next = changed
		dirty = next
	}
	return nil
}

// split splits the cell starting at s, whose vertices in run (sorted by
// signature) were recomputed. Vertices whose signature still equals the
// cell's stay in front, keeping colour s; the others move to the end of the
// cell, grouped by signature in increasing order. Recoloured vertices are
// appended to changed.
func (l *labeller) split(p *partition, s int32, run []int32, changed []int32) []int32 {
	e := p.end[s]
	old := p.csig[s]
	var movers []int32
	for _, v := range run {
		if p.sig[v] != old {
			movers = append(movers, v)
		}
	}
	if len(movers) == 0 {
		return changed
	}
	t := e - int32(len(movers)) // the movers' region is [t, e)
	for _, v := range movers {
		l.mark[v] = true
	}
	// Swap the movers in front of t with the non-movers in [t, e).
	q := t
	for _, v := range movers {
		if p.pos[v] >= t {
			continue
		}
		for l.mark[p.elems[q]] {
			q++
		}
		u := p.elems[q]
		p.elems[p.pos[v]] = u
		p.pos[u] = p.pos[v]
		q++
	}
	for i, v := range movers {
		l.mark[v] = false
		p.elems[t+int32(i)] = v
		p.pos[v] = t + int32(i)
	}
	if t > s {
		p.end[s] = t
	}
	for i := 0; i < len(movers); {
		j := i
		for j < len(movers) && p.sig[movers[j]] == p.sig[movers[i]] {
			j++
		}
		g := t + int32(i)
		p.end[g] = t + int32(j)
		p.csig[g] = p.sig[movers[i]]
		for _, v := range movers[i:j] {
			if p.cell[v] != g {
				p.cell[v] = g
				changed = append(changed, v)
			}
		}
		i = j
	}
	return changed
}

// individualize gives v a colour of its own: it moves to the end of its
// cell, as a singleton cell.
func (l *labeller) individualize(p *partition, v int32) {
	s := p.cell[v]
	e := p.end[s]
	last := e - 1
	u := p.elems[last]
	p.elems[p.pos[v]] = u
	p.pos[u] = p.pos[v]
	p.elems[last] = v
	p.pos[v] = last
	p.end[s] = last
	p.end[last] = e
	p.cell[v] = last
	p.csig[last] = p.sig[v]
}

// searcher explores the individualization-refinement tree of a component.
type searcher struct {
	labeller
	path      []int32 // vertices individualized on the way to the current node
	first     []uint32
	firstElem []int32
	firstPath []int32
	best      []uint32
	bestElem  []int32
	bestPath  []int32
	autos     [][]int32              // automorphisms found, as vertex permutations
	live      int                    // partition entries alive on the search path
	qset      map[[4]uint32]struct{} // the component's quads, for twins
	stack     []*partition           // reusable child partitions by depth
	scratch   certScratch
}

// labelComponent computes c.cert and c.order.
func labelComponent(c *component, w *work) error {
	k := len(c.verts)
	if k == 1 {
		c.order = []int32{0}
		c.cert = slices.Clone(c.certificate([]int32{0}, &certScratch{}))
		return w.add(len(c.quads))
	}
	s := &searcher{labeller: labeller{c: c, w: w, mark: make([]bool, k)}}
	p := newPartition(k)
	all := make([]int32, k)
	for i := range all {
		all[i] = int32(i)
	}
	if err := s.refine(p, all); err != nil {
		return err
	}
	if _, err := s.search(p); err != nil {
		return err
	}
	c.cert = s.best
	c.order = s.bestElem
	return nil
}

// certificate relabels the component's quads (the vertex at position i of
// elems gets label i) and sorts them. It reuses the buffers of scratch,
// whose result it returns.
func (c *component) certificate(elems []int32, scratch *certScratch) []uint32 {
	lab := slices.Grow(scratch.lab[:0], len(elems))[:len(elems)]
	for i, v := range elems {
		lab[v] = uint32(i)
	}
	qs := slices.Grow(scratch.qs[:0], len(c.quads))[:len(c.quads)]
	for i, q := range c.quads {
		for j, x := range q {
			if x&blankBit != 0 {
				x = blankBit | lab[x&^blankBit]
			}
			qs[i][j] = x
		}
	}
	slices.SortFunc(qs, compareQuads)
	out := scratch.out[:0]
	for _, q := range qs {
		out = append(out, q[:]...)
	}
	scratch.lab, scratch.qs, scratch.out = lab, qs, out
	return out
}

// certScratch holds reusable buffers for certificates.
type certScratch struct {
	lab []uint32
	qs  [][4]uint32
	out []uint32
}

// childOf returns a copy of p for a child at the given depth, reusing the
// buffers of the previous child at that depth (the search is depth-first,
// so at most one child per depth is alive).
func (s *searcher) childOf(p *partition, depth int) *partition {
	for len(s.stack) <= depth {
		s.stack = append(s.stack, nil)
	}
	c := s.stack[depth]
	if c == nil {
		c = p.clone()
		s.stack[depth] = c
		return c
	}
	copy(c.elems, p.elems)
	copy(c.pos, p.pos)
	copy(c.cell, p.cell)
	copy(c.end, p.end)
	copy(c.csig, p.csig)
	copy(c.sig, p.sig)
	return c
}

// search explores the subtree below the node whose (equitable) partition is
// p. It returns the depth of the node at which the search must continue
// when an automorphism made the rest of this subtree redundant, or -1.
func (s *searcher) search(p *partition) (int, error) {
	depth := len(s.path)
	k := int32(len(p.elems))
	t := int32(0)
	for t < k && p.end[t]-t == 1 {
		t = p.end[t]
	}
	if t == k {
		return s.leaf(p)
	}
	members := slices.Clone(p.elems[t:p.end[t]])
	s.live += len(p.elems)
	defer func() { s.live -= len(p.elems) }()
	if s.live > max(minLive, liveFactor*int(k)) {
		return 0, fmt.Errorf("canon: blank node labelling search too deep (%d levels): %w", depth, rdf.ErrLimit)
	}
	twins, err := s.twins(members)
	if err != nil {
		return 0, err
	}
	if twins {
		// Any order of the cell's members is as good as any other: an
		// automorphism maps one to the other. Individualize them all, in
		// one child.
		if err := s.w.add(len(p.elems)); err != nil {
			return 0, err
		}
		child := s.childOf(p, depth)
		var dirty []int32
		for _, v := range members[:len(members)-1] {
			s.individualize(child, v)
		}
		for _, v := range members {
			dirty = append(dirty, s.neighbours(v)...)
		}
		slices.Sort(dirty)
		dirty = slices.Compact(dirty)
		if err := s.refine(child, dirty); err != nil {
			return 0, err
		}
		s.path = append(s.path, members[0])
		back, err := s.search(child)
		s.path = s.path[:depth]
		if err != nil || back >= 0 && back < depth {
			return back, err
		}
		return -1, nil
	}
	var orbit []int32 // union-find over vertices, built when automorphisms appear
	var seen []bool   // orbit root -> some explored child is in that orbit
	autoSeen := len(s.autos)
	var explored []int32
	for _, v := range members {
		if orbit != nil && seen[find(orbit, v)] {
			continue // an automorphism maps an explored child to v
		}
		if err := s.w.add(len(p.elems)); err != nil {
			return 0, err
		}
		child := s.childOf(p, depth)
		s.individualize(child, v)
		if err := s.refine(child, s.neighbours(v)); err != nil {
			return 0, err
		}
		s.path = append(s.path, v)
		back, err := s.search(child)
		s.path = s.path[:depth]
		if err != nil {
			return 0, err
		}
		if back >= 0 && back < depth {
			return back, nil
		}
		explored = append(explored, v)
		if orbit != nil {
			seen[find(orbit, v)] = true
		}
		if len(s.autos) > autoSeen {
			if orbit == nil {
				orbit = make([]int32, k)
				for i := range orbit {
					orbit[i] = int32(i)
				}
				seen = make([]bool, k)
			}
			for _, g := range s.autos[autoSeen:] {
				for x, y := range g {
					a, b := find(orbit, int32(x)), find(orbit, y)
					if a != b {
						orbit[max(a, b)] = min(a, b)
					}
				}
			}
			autoSeen = len(s.autos)
			clear(seen)
			for _, u := range explored {
				seen[find(orbit, u)] = true
			}
		}
	}
	return -1, nil
}

// The number of partition entries kept alive along the current search path
// (about 40 bytes each) is bounded by minLive or liveFactor times the size
// of the component, whichever is larger: memory stays within a small
// multiple of the input's. Graphs whose search goes deeper, such as a blank
// node with thousands of identical cycles hanging from it, fail with
// rdf.ErrLimit.
const (
	minLive    = 1 << 21
	liveFactor = 16
)

// twins reports whether any permutation of the members of a cell is an
// automorphism (fixing every other vertex). It checks that swapping each
// member with the next one maps the quads onto themselves: these
// transpositions generate all permutations of the cell. This covers
// interchangeable leaves (twins that share no quad) as well as cliques.
func (s *searcher) twins(members []int32) (bool, error) {
	c := s.c
	if s.qset == nil {
		s.qset = make(map[[4]uint32]struct{}, len(c.quads))
		for _, q := range c.quads {
			s.qset[q] = struct{}{}
		}
	}
	for i := 1; i < len(members); i++ {
		u, v := blankBit|uint32(members[i-1]), blankBit|uint32(members[i])
		for _, w := range [2]int32{members[i-1], members[i]} {
			adj := c.adj[c.adjOff[w]:c.adjOff[w+1]]
			if err := s.w.add(len(adj)); err != nil {
				return false, err
			}
			for _, qi := range adj {
				q := c.quads[qi]
				for j, x := range q {
					switch x {
					case u:
						q[j] = v
					case v:
						q[j] = u
					}
				}
				if _, ok := s.qset[q]; !ok {
					return false, nil
				}
			}
		}
	}
	return true, nil
}

func compareQuads(a, b [4]uint32) int {
	for j := range a {
		if a[j] != b[j] {
			return cmp.Compare(a[j], b[j])
		}
	}
	return 0
}

// neighbours returns the blank nodes sharing a quad with v (v included).
func (s *searcher) neighbours(v int32) []int32 {
	return s.c.appendNeighbours(nil, []int32{v}, s.mark)
}

// appendNeighbours appends to out, each once, the blank nodes sharing a
// quad with one of vs. mark, indexed by blank node, must be all false; it
// is all false again on return.
func (c *component) appendNeighbours(out, vs []int32, mark []bool) []int32 {
	from := len(out)
	for _, v := range vs {
		for _, qi := range c.adj[c.adjOff[v]:c.adjOff[v+1]] {
			for _, x := range c.quads[qi] {
				if x&blankBit == 0 {
					continue
				}
				w := int32(x &^ blankBit)
				if !mark[w] {
					mark[w] = true
					out = append(out, w)
				}
			}
		}
	}
	for _, w := range out[from:] {
		mark[w] = false
	}
	return out
}

func find(parent []int32, x int32) int32 {
	for parent[x] != x {
		parent[x] = parent[parent[x]]
		x = parent[x]
	}
	return x
}

// leaf handles a discrete partition: it compares its certificate with the
// first and the best leaf found so far. Equal certificates reveal an
// automorphism, which makes the current subtree (up to the deepest common
// ancestor with that leaf) redundant.
func (s *searcher) leaf(p *partition) (int, error) {
	if err := s.w.add(len(s.c.quads) + len(p.elems)); err != nil {
		return 0, err
	}
	cert := s.c.certificate(p.elems, &s.scratch)
	if s.first == nil {
		s.first, s.firstElem, s.firstPath = slices.Clone(cert), slices.Clone(p.elems), slices.Clone(s.path)
		s.best, s.bestElem, s.bestPath = s.first, s.firstElem, s.firstPath
		return -1, nil
	}
	for _, ref := range []struct {
		cert        []uint32
		elems, path []int32
	}{{s.first, s.firstElem, s.firstPath}, {s.best, s.bestElem, s.bestPath}} {
		if !slices.Equal(cert, ref.cert) {
			continue
		}
		g := make([]int32, len(p.elems))
		for i, v := range ref.elems {
			g[v] = p.elems[i]
		}
		s.autos = append(s.autos, g)
		common := 0
		for common < len(s.path) && common < len(ref.path) && s.path[common] == ref.path[common] {
			common++
		}
		return common, nil
	}
	if slices.Compare(cert, s.best) < 0 {
		s.best, s.bestElem, s.bestPath = slices.Clone(cert), slices.Clone(p.elems), slices.Clone(s.path)
	}
	return -1, nil
}

// canonical is the canonical labelling of a dataset's blank nodes.
type canonical struct {
	p     *problem
	comps []*component // sorted by size, then certificate
}

// label computes the canonical labelling of d's blank nodes.
func label(ctx context.Context, d *rdf.Dataset, opts Options) (*canonical, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := newProblem(d)
	if err != nil {
		return nil, err
	}
	w := newWork(ctx, opts)
	comps := p.components()
	for _, c := range comps {
		if err := labelComponent(c, w); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(comps, compareComponents)
	return &canonical{p: p, comps: comps}, nil
}

func compareComponents(a, b *component) int {
	if x := cmp.Compare(len(a.verts), len(b.verts)); x != 0 {
		return x
	}
	if x := cmp.Compare(len(a.cert), len(b.cert)); x != 0 {
		return x
	}
	return slices.Compare(a.cert, b.cert)
}

// order returns the blank nodes in canonical order.
func (c *canonical) order() []rdf.Term {
	out := make([]rdf.Term, 0, len(c.p.blanks))
	for _, comp := range c.comps {
		for _, v := range comp.order {
			if t := c.p.blanks[comp.verts[v]]; t.Kind == rdf.BlankKind {
				out = append(out, t) // not the auxiliary vertices of triple terms
			}
		}
	}
	return out
}

// BlankOrder returns the blank nodes of d in a canonical order: relabelling
// the blank nodes of d and reordering its quads gives the same sequence up
// to the relabelling. Blank nodes whose positions differ only by an
// automorphism of d are interchangeable, so any order among them is the same
// structural sequence.
//
// Blank nodes are ordered by connected component (two blank nodes are
// connected when they share a quad), smaller components first, and then by
// the canonical labelling of each component.
func BlankOrder(d *rdf.Dataset) ([]rdf.Term, error) {
	return BlankOrderWith(d, Options{})
}

// BlankOrderWith is BlankOrder with options (only MaxWork is used).
func BlankOrderWith(d *rdf.Dataset, opts Options) ([]rdf.Term, error) {
	return BlankOrderContext(context.Background(), d, opts)
}

// BlankOrderContext is BlankOrderWith with a context: it stops with
// ctx.Err() soon after ctx is cancelled.
func BlankOrderContext(ctx context.Context, d *rdf.Dataset, opts Options) ([]rdf.Term, error) {
	c, err := label(ctx, d, opts)
	if err != nil {
		return nil, err
	}
	return c.order(), nil
}

// Labels maps every blank node of d to a canonical label "c14nN", N being
// its index in BlankOrder. The labels are canonical but are not RDFC-1.0's
// (use Canonicalize for those).
func Labels(d *rdf.Dataset) (map[rdf.Term]string, error) {
	order, err := BlankOrder(d)
	if err != nil {
		return nil, err
	}
	m := make(map[rdf.Term]string, len(order))
	for i, t := range order {
		m[t] = "c14n" + strconv.Itoa(i)
	}
	return m, nil
}

// Isomorphic reports whether a and b are the same dataset up to a renaming
// of blank nodes (in any position, including graph names).
func Isomorphic(a, b *rdf.Dataset) (bool, error) {
	return IsomorphicWith(a, b, Options{})
}

// IsomorphicWith is Isomorphic with options (only MaxWork is used; each
// dataset gets the full limit).
func IsomorphicWith(a, b *rdf.Dataset, opts Options) (bool, error) {
	return IsomorphicContext(context.Background(), a, b, opts)
}

// IsomorphicContext is IsomorphicWith with a context: it stops with
// ctx.Err() soon after ctx is cancelled.
func IsomorphicContext(ctx context.Context, a, b *rdf.Dataset, opts Options) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if a.Len() != b.Len() {
		return false, nil
	}
	pa, err := newProblem(a)
	if err != nil {
		return false, err
	}
	pb, err := newProblem(b)
	if err != nil {
		return false, err
	}
	if len(pa.blanks) != len(pb.blanks) || len(pa.quads) != len(pb.quads) ||
		len(pa.terms) != len(pb.terms) {
		return false, nil
	}
	for i, t := range pa.terms {
		if !t.Equal(pb.terms[i]) {
			return false, nil
		}
	}
	if !sameGround(a, b, pa.ground, pb.ground) {
		return false, nil
	}
	// Quick reject on the component sizes before labelling.
	ca, cb := pa.components(), pb.components()
	if len(ca) != len(cb) {
		return false, nil
	}
	sizes := func(cs []*component) []int {
		out := make([]int, 0, 2*len(cs))
		for _, c := range cs {
			out = append(out, len(c.verts), len(c.quads))
		}
		return out
	}
	if sa, sb := sizes(ca), sizes(cb); !slices.Equal(sortPairs(sa), sortPairs(sb)) {
		return false, nil
	}
	for _, cs := range [][]*component{ca, cb} {
		w := newWork(ctx, opts)
		for _, c := range cs {
			if err := labelComponent(c, w); err != nil {
				return false, err
			}
		}
		slices.SortStableFunc(cs, compareComponents)
	}
	for i := range ca {
		if !slices.Equal(ca[i].cert, cb[i].cert) {
			return false, nil
		}
	}
	return true, nil
}

// sortPairs sorts a flat list of (size, quads) pairs.
func sortPairs(s []int) [][2]int {
	out := make([][2]int, len(s)/2)
	for i := range out {
		out[i] = [2]int{s[2*i], s[2*i+1]}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if x := cmp.Compare(a[0], b[0]); x != 0 {
			return x
		}
		return cmp.Compare(a[1], b[1])
	})
	return out
}

// sameGround reports whether the quads without blank nodes are the same:
// a's are translated to b's term IDs, then both lists are sorted and
// compared.
func sameGround(a, b *rdf.Dataset, ga, gb []rdf.IDQuad) bool {
	if len(ga) != len(gb) {
		return false
	}
	const unmapped = ^rdf.TermID(0)
	toB := make([]rdf.TermID, a.NumTerms()+1)
	for i := range toB {
		toB[i] = unmapped
	}
	toB[0] = 0
	xa := make([]rdf.IDQuad, len(ga))
	for i, q := range ga {
		for j, id := range q {
			m := toB[id]
			if m == unmapped {
				var ok bool
				if m, ok = b.Lookup(a.Term(id)); !ok {
					return false
				}
				toB[id] = m
			}
			xa[i][j] = m
		}
	}
	xb := slices.Clone(gb)
	cmpQ := func(x, y rdf.IDQuad) int {
		for j := range x {
			if x[j] != y[j] {
				return cmp.Compare(x[j], y[j])
			}
		}
		return 0
	}
	slices.SortFunc(xa, cmpQ)
	slices.SortFunc(xb, cmpQ)
	return slices.Equal(xa, xb)
}
