package canon

import (
	"context"
	"encoding/hex"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// Result is the outcome of RDFC-1.0.
type Result struct {
	// NQuads is the canonical N-Quads document: one line per quad, each
	// ending with "\n", sorted in code point order, blank nodes labelled
	// c14n0, c14n1, ...
	NQuads string
	// Issued maps each input blank node label (without "_:") to its
	// canonical label (the issued identifiers map of the canonical issuer).
	Issued map[string]string
}

// Hash returns the lower-case hex SHA-256 of d's RDFC-1.0 canonical N-Quads
// (with the default options).
func Hash(d *rdf.Dataset) (string, error) {
	return HashContext(context.Background(), d, Options{})
}

// HashContext is Hash with options and a context: it stops with ctx.Err()
// soon after ctx is cancelled (the work is polled every few thousand units)
// and fails with an error wrapping rdf.ErrLimit when the work exceeds
// opts.MaxWork. opts.HashAlgorithm selects the hash of the canonicalization
// and of the result.
func HashContext(ctx context.Context, d *rdf.Dataset, opts Options) (string, error) {
	c, err := run(ctx, d, opts)
	if err != nil {
		return "", err
	}
	h := c.newHash()
	// The digest has no WriteString: copy the lines into one buffer in
	// blocks rather than converting each.
	buf := make([]byte, 0, 16<<10)
	for _, l := range c.lines() {
		if len(buf)+len(l) > cap(buf) && len(buf) > 0 {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(buf, l...)
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// issuer is the canonical identifier issuer: it issues c14n0, c14n1, ...
// to blank nodes (by index) in order of request.
type issuer struct {
	ids   []int32 // blank node index -> number issued, or -1
	order []int32 // blank node indexes in order of issue
}

func newIssuer(n int) *issuer {
	is := &issuer{ids: make([]int32, n)}
	for i := range is.ids {
		is.ids[i] = -1
	}
	return is
}

// issue returns the number issued to b, issuing the next one if needed.
func (is *issuer) issue(b int32) int32 {
	if id := is.ids[b]; id >= 0 {
		return id
	}
	id := int32(len(is.order))
	is.ids[b] = id
	is.order = append(is.order, b)
	return id
}

// undo forgets the numbers issued after the first mark ones.
func (is *issuer) undo(mark int) {
	for _, b := range is.order[mark:] {
		is.ids[b] = -1
	}
	is.order = is.order[:mark]
}

// rdfc is the canonicalization state of RDFC-1.0.
//
// The temporary issuers of Hash N-Degree Quads are not copied: the
// algorithm only ever extends the issuer it is given, so one issuer (tmp)
// holds the current one, a mark (its length) stands for a copy, and
// returning to a copy undoes what was issued since. Memory stays linear in
// the number of blank nodes whatever the depth of the recursion.
type rdfc struct {
	ctx     context.Context
	d       *rdf.Dataset
	newHash func() hash.Hash
	quads   []rdf.IDQuad
	blank   []int32  // term ID -> blank node index, or -1
	labels  []string // blank node index -> input label
	bquads  [][]int32
	canon   *issuer  // the canonical issuer (c14n)
	tmp     *issuer  // the current temporary issuer (b)
	first   []string // cached Hash First Degree Quads results
	work    int64
	max     int64
	check   int64    // work at which ctx is checked next
	buf     []byte   // line buffer of Hash First Degree Quads
	rbuf    []byte   // input buffer of Hash Related Blank Node
	nt      []string // term ID -> N-Triples form, filled lazily
	// RDF 1.2: the blank nodes inside each triple term (by term ID) that
	// has any, in order of appearance, and every blank node's index by
	// label (both nil when no triple term holds a blank node).
	inner   map[rdf.TermID][]int32
	byLabel map[string]int32
}

// Canonicalize runs RDFC-1.0 on d: it returns the canonical N-Quads and
// the issued identifiers map. It fails with an error wrapping rdf.ErrLimit
// when the work exceeds opts.MaxWork (see DefaultRDFCWork), which happens
// on deliberately hard ("poison") graphs.
//
// Where RDFC-1.0 leaves a choice to the order of the input (blank nodes
// with equal hashes are processed in order of first appearance, and
// permutations in the order of the rdf-canonize reference implementation),
// this follows the reference implementation. RDFC-1.0 is not a complete
// canonical form: in rare datasets (such as some with blank node graph
// names), two non-automorphic blank nodes get equal hashes and the output
// depends on quad order (the reference implementation behaves the same).
// Use Isomorphic to compare datasets.
func Canonicalize(d *rdf.Dataset, opts Options) (*Result, error) {
	r, _, err := canonicalize(context.Background(), d, opts)
	return r, err
}

// CanonicalizeContext is Canonicalize with a context: it stops with
// ctx.Err() soon after ctx is cancelled.
func CanonicalizeContext(ctx context.Context, d *rdf.Dataset, opts Options) (*Result, error) {
	r, _, err := canonicalize(ctx, d, opts)
	return r, err
}

// canonicalize is Canonicalize that also returns the work done.
func canonicalize(ctx context.Context, d *rdf.Dataset, opts Options) (*Result, int64, error) {
	c, err := run(ctx, d, opts)
	if err != nil {
		if c != nil {
			return nil, c.work, err
		}
		return nil, 0, err
	}
	res := &Result{Issued: make(map[string]string, len(c.labels))}
	for b, l := range c.labels {
		res.Issued[l] = c.canonName(int32(b))
	}
	lines := c.lines()
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range lines {
		b.WriteString(l)
	}
	res.NQuads = b.String()
	return res, c.work, nil
}

// canonName is the canonical identifier issued to b.
func (c *rdfc) canonName(b int32) string {
	return "c14n" + strconv.Itoa(int(c.canon.ids[b]))
}

// run issues the canonical identifiers of RDFC-1.0 (steps 1 to 5).
func run(ctx context.Context, d *rdf.Dataset, opts Options) (*rdfc, error) {
	nh, err := newHash(opts.HashAlgorithm)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := &rdfc{ctx: ctx, d: d, newHash: nh, quads: d.IDQuads(), max: opts.MaxWork, check: checkEvery}
	c.blank = make([]int32, d.NumTerms()+1)
	c.nt = make([]string, d.NumTerms()+1)
	for i := range c.blank {
		c.blank[i] = -1
	}
	// Blank nodes in order of first appearance (subject, object, graph).
	// Blank nodes inside a triple term are components of the quad too
	// (RDF 1.2; RDFC-1.0 itself predates triple terms): they appear in
	// the object position, in the order of the term's canonical form.
	for _, q := range c.quads {
		if q[2] != 0 && d.Term(q[2]).Kind == rdf.TripleKind && rdf.HasBlank(d.Term(q[2])) {
			c.inner = map[rdf.TermID][]int32{}
			c.byLabel = map[string]int32{}
			break
		}
	}
	note := func(qi int, label string, id rdf.TermID) {
		var b int32
		if c.byLabel != nil {
			var ok bool
			if b, ok = c.byLabel[label]; !ok {
				b = -1
			}
		} else {
			b = c.blank[id]
		}
		if b < 0 {
			b = int32(len(c.labels))
			c.labels = append(c.labels, label)
			c.bquads = append(c.bquads, nil)
			if c.byLabel != nil {
				c.byLabel[label] = b
			}
		}
		if id != 0 {
			c.blank[id] = b
		}
		if l := c.bquads[b]; len(l) == 0 || l[len(l)-1] != int32(qi) {
			c.bquads[b] = append(l, int32(qi))
		}
	}
	for qi, q := range c.quads {
		if q[1] != 0 && d.Term(q[1]).IsBlank() {
			return nil, fmt.Errorf("canon: blank node %s as predicate is not RDF", d.Term(q[1]))
		}
		for k, id := range [3]rdf.TermID{q[0], q[2], q[3]} {
			if id == 0 {
				continue
			}
			t := d.Term(id)
			if k == 1 && c.inner != nil && t.Kind == rdf.TripleKind {
				list, seen := c.inner[id]
				if !seen && !rdf.HasBlank(t) {
					continue
				}
				rdf.EachBlank(t, func(b rdf.Term) {
					id, _ := d.Lookup(b)
					note(qi, b.Value, id)
					if !seen {
						list = append(list, c.byLabel[b.Value])
					}
				})
				c.inner[id] = list
				continue
			}
			if !t.IsBlank() {
				continue
			}
			note(qi, t.Value, id)
		}
	}
	n := len(c.labels)
	c.first = make([]string, n)
	c.canon, c.tmp = newIssuer(n), newIssuer(n)
	if c.max == 0 {
		c.max = DefaultRDFCWork + RDFCWorkPerBlank*int64(n)
	}

	// Steps 3 and 4: first degree hashes; unique ones get canonical labels.
	byHash := map[string][]int32{}
	for b := range n {
		if b&(checkEvery-1) == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return c, err
			}
		}
		h := c.hashFirstDegree(int32(b))
		byHash[h] = append(byHash[h], int32(b))
	}
	hashes := slices.Sorted(maps.Keys(byHash))
	for _, h := range hashes {
		if l := byHash[h]; len(l) == 1 {
			c.canon.issue(l[0])
		}
	}
	if err := c.precheck(hashes, byHash); err != nil {
		return c, err
	}
	// Step 5: N-degree hashes for the shared first degree hashes.
	for _, h := range hashes {
		l := byHash[h]
		if len(l) == 1 {
			continue
		}
		type pathResult struct {
			hash  string
			order []int32 // the blank nodes the temporary issuer issued
		}
		var list []pathResult
		for _, b := range l {
			if c.canon.ids[b] >= 0 {
				continue
			}
			c.tmp.undo(0)
			c.tmp.issue(b)
			hh, err := c.hashNDegree(b, 0)
			if err != nil {
				return c, err
			}
			if err := c.spend(int64(len(c.tmp.order))); err != nil {
				return c, err
			}
			list = append(list, pathResult{hh, slices.Clone(c.tmp.order)})
		}
		slices.SortStableFunc(list, func(a, b pathResult) int { return strings.Compare(a.hash, b.hash) })
		for _, r := range list {
			for _, b := range r.order {
				c.canon.issue(b)
			}
		}
	}
	return c, nil
}

// precheck fails early, with the same error as spend, when step 5 cannot
// fit in the work limit. Hash N-Degree Quads, called for a blank node b,
// recurses into every blank node it relates to that has no canonical
// identifier yet (the first permutation of each group is always explored,
// and each recursion issues a temporary identifier), so it is called at
// least once for every blank node of b's component (blank nodes joined by
// shared quads, among those without canonical identifiers). Each call
// costs 1 + its related blank nodes; after a group of equal first degree
// hashes, all of its members' components are issued. The sum of those
// costs is a lower bound of the work: on chains of alike blank nodes
// (long lists of equal items, rings, tori) it is quadratic, and this
// refuses them in linear time instead of running until the limit.
func (c *rdfc) precheck(hashes []string, byHash map[string][]int32) error {
	n := len(c.labels)
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	cost := make([]int64, n)
	for b := range n {
		if c.canon.ids[b] >= 0 {
			continue
		}
		cost[b]++
		c.eachRelated(int32(b), func(r int32, _ rdf.IDQuad, _ byte) {
			cost[b]++
			if c.canon.ids[r] >= 0 {
				return
			}
			x, y := find(parent, int32(b)), find(parent, r)
			if x != y {
				parent[max(x, y)] = min(x, y)
			}
		})
	}
	comp := make([]int64, n) // root -> cost of one call per member
	for b := range n {
		if c.canon.ids[b] < 0 {
			comp[find(parent, int32(b))] += cost[b]
		}
	}
	done := make([]bool, n) // root -> issued by an earlier group
	var bound int64
	var roots []int32
	for _, h := range hashes {
		l := byHash[h]
		if len(l) == 1 {
			continue
		}
		roots = roots[:0]
		for _, b := range l {
			r := find(parent, b)
			if done[r] {
				continue
			}
			bound += comp[r]
			roots = append(roots, r)
		}
		if c.max >= 0 && bound > c.max {
			return c.limitError()
		}
		for _, r := range roots {
			done[r] = true
		}
	}
	return nil
}

// lines returns the canonical N-Quads lines (step 6): every quad with
// canonical labels, each line ending in "\n", sorted.
func (c *rdfc) lines() []string {
	name := c.canonName
	total := 0
	for _, q := range c.quads {
		total += c.lineLen(q, name)
	}
	var b strings.Builder
	b.Grow(total)
	ends := make([]int, len(c.quads))
	for i, q := range c.quads {
		c.buf = c.appendQuad(c.buf[:0], q, name)
		b.Write(c.buf)
		ends[i] = b.Len()
	}
	all := b.String()
	lines := make([]string, len(c.quads))
	start := 0
	for i, e := range ends {
		lines[i] = all[start:e]
		start = e
	}
	slices.Sort(lines)
	return lines
}

// lineLen is the length of the line appendQuad writes.
func (c *rdfc) lineLen(q rdf.IDQuad, name func(b int32) string) int {
	n := 3 // " .\n"
	for i, id := range q {
		if i == 3 && id == 0 {
			break
		}
		if i > 0 {
			n++
		}
		if b := c.blank[id]; b >= 0 {
			n += 2 + len(name(b))
		} else {
			n += len(c.term(id)) // an estimate for triple terms with blank nodes
		}
	}
	return n
}

// term returns the canonical N-Triples form of a non-blank term, cached.
func (c *rdfc) term(id rdf.TermID) string {
	if s := c.nt[id]; s != "" {
		return s
	}
	var b strings.Builder
	rdf.AppendTerm(&b, c.d.Term(id))
	c.nt[id] = b.String()
	return c.nt[id]
}

// appendQuad appends the canonical N-Quads line of q, with each blank node
// b written as "_:" + name(b), and a line break.
func (c *rdfc) appendQuad(buf []byte, q rdf.IDQuad, name func(b int32) string) []byte {
	for i, id := range q {
		if i == 3 && id == 0 {
			break
		}
		if i > 0 {
			buf = append(buf, ' ')
		}
		if b := c.blank[id]; b >= 0 {
			buf = append(buf, "_:"...)
			buf = append(buf, name(b)...)
		} else if _, ok := c.inner[id]; ok && i == 2 {
			buf = c.appendTriple(buf, c.d.Term(id), name)
		} else {
			buf = append(buf, c.term(id)...)
		}
	}
	return append(buf, " .\n"...)
}

// appendTriple appends a triple term holding blank nodes in canonical
// N-Triples form, with each blank node b written as "_:" + name(b).
func (c *rdfc) appendTriple(buf []byte, t rdf.Term, name func(b int32) string) []byte {
	var sb strings.Builder
	var rec func(t rdf.Term)
	rec = func(t rdf.Term) {
		switch {
		case t.Kind == rdf.BlankKind:
			sb.WriteString("_:")
			sb.WriteString(name(c.byLabel[t.Value]))
		case t.Kind == rdf.TripleKind && rdf.HasBlank(t):
			s, p, o, err := t.Triple()
			if err != nil {
				rdf.AppendTerm(&sb, t)
				return
			}
			sb.WriteString("<<( ")
			rec(s)
			sb.WriteByte(' ')
			rdf.AppendTerm(&sb, p)
			sb.WriteByte(' ')
			rec(o)
			sb.WriteString(" )>>")
		default:
			rdf.AppendTerm(&sb, t)
		}
	}
	rec(t)
	return append(buf, sb.String()...)
}

// hashFirstDegree is the Hash First Degree Quads algorithm (4.6).
func (c *rdfc) hashFirstDegree(b int32) string {
	if h := c.first[b]; h != "" {
		return h
	}
	lines := make([]string, 0, len(c.bquads[b]))
	for _, qi := range c.bquads[b] {
		c.buf = c.appendQuad(c.buf[:0], c.quads[qi], func(r int32) string {
			if r == b {
				return "a"
			}
			return "z"
		})
		lines = append(lines, string(c.buf))
	}
	slices.Sort(lines)
	h := c.newHash()
	for _, l := range lines {
		h.Write([]byte(l))
	}
	c.first[b] = hex.EncodeToString(h.Sum(nil))
	return c.first[b]
}

// hashRelated is the Hash Related Blank Node algorithm (4.7), with the
// current temporary issuer.
func (c *rdfc) hashRelated(related int32, q rdf.IDQuad, position byte) string {
	in := c.rbuf[:0]
	in = append(in, position)
	if position != 'g' {
		in = append(in, '<')
		in = append(in, c.d.Term(q[1]).Value...)
		in = append(in, '>')
	}
	if id := c.canon.ids[related]; id >= 0 {
		in = append(in, "_:c14n"...)
		in = strconv.AppendInt(in, int64(id), 10)
	} else if id := c.tmp.ids[related]; id >= 0 {
		in = append(in, "_:b"...)
		in = strconv.AppendInt(in, int64(id), 10)
	} else {
		in = append(in, c.hashFirstDegree(related)...)
	}
	c.rbuf = in
	h := c.newHash()
	h.Write(in)
	return hex.EncodeToString(h.Sum(nil))
}

// eachRelated calls f for every blank node related to b (step 3 of Hash
// N-Degree Quads): each other blank node of each quad of b, with the quad
// and the position ('s', 'o' or 'g'). Blank nodes inside a triple term
// object are related in the object position.
func (c *rdfc) eachRelated(b int32, f func(r int32, q rdf.IDQuad, position byte)) {
	for _, qi := range c.bquads[b] {
		q := c.quads[qi]
		for _, pos := range [3]struct {
			i   int
			tag byte
		}{{0, 's'}, {2, 'o'}, {3, 'g'}} {
			id := q[pos.i]
			if id == 0 {
				continue
			}
			if list, ok := c.inner[id]; ok && pos.i == 2 {
				for _, r := range list {
					if r != b {
						f(r, q, pos.tag)
					}
				}
				continue
			}
			if r := c.blank[id]; r >= 0 && r != b {
				f(r, q, pos.tag)
			}
		}
	}
}

// checkEvery is how often, in units of work, the context is polled.
const checkEvery = 1 << 12

// maxRDFCDepth bounds the recursion of Hash N-Degree Quads (which follows
// chains of alike blank nodes), keeping the goroutine stack small.
const maxRDFCDepth = 1 << 13

// spend counts n units of work against the limit, polling the context now
// and then.
func (c *rdfc) spend(n int64) error {
	c.work += n
	if c.max >= 0 && c.work > c.max {
		return c.limitError()
	}
	if c.work >= c.check {
		c.check = c.work + checkEvery
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (c *rdfc) limitError() error {
	return fmt.Errorf("canon: RDFC-1.0 needs more than %d units of work (blank nodes related, permuted or issued by Hash N-Degree Quads): %w", c.max, rdf.ErrLimit)
}

// hashNDegree is the Hash N-Degree Quads algorithm (4.8) for b, with the
// current temporary issuer (c.tmp) as its issuer. It leaves c.tmp as the
// issuer the algorithm returns, an extension of the one it was given.
func (c *rdfc) hashNDegree(b int32, depth int) (string, error) {
	if depth >= maxRDFCDepth {
		return "", fmt.Errorf("canon: RDFC-1.0 Hash N-Degree Quads recursion deeper than %d: %w", maxRDFCDepth, rdf.ErrLimit)
	}
	// Steps 1-3: related blank nodes grouped by their related hash (a
	// stable sort keeps each group in order of appearance).
	type rel struct {
		hash string
		r    int32
	}
	var related []rel
	c.eachRelated(b, func(r int32, q rdf.IDQuad, position byte) {
		related = append(related, rel{c.hashRelated(r, q, position), r})
	})
	if err := c.spend(1 + int64(len(related))); err != nil {
		return "", err
	}
	slices.SortStableFunc(related, func(x, y rel) int { return strings.Compare(x.hash, y.hash) })
	// Step 5.
	var data strings.Builder
	var path []byte
	var saved, group []int32
	for i := 0; i < len(related); {
		h := related[i].hash
		group = group[:0]
		for ; i < len(related) && related[i].hash == h; i++ {
			group = append(group, related[i].r)
		}
		data.WriteString(h)
		var chosenPath string
		mark := len(c.tmp.order)
		current := false // c.tmp is the chosen issuer
		perm := newPermuter(group, c.labels)
		for first := true; perm.hasNext(); first = false {
			p := perm.next()
			if err := c.spend(int64(len(p))); err != nil {
				return "", err
			}
			if !first {
				// Start again from the issuer given (step 5.4.2's copy).
				c.tmp.undo(mark)
			}
			current = false
			path = path[:0]
			var recursion []int32
			skip := false
			for _, r := range p {
				if id := c.canon.ids[r]; id >= 0 {
					path = append(path, "_:c14n"...)
					path = strconv.AppendInt(path, int64(id), 10)
				} else {
					if c.tmp.ids[r] < 0 {
						recursion = append(recursion, r)
					}
					path = append(path, "_:b"...)
					path = strconv.AppendInt(path, int64(c.tmp.issue(r)), 10)
				}
				if chosenPath != "" && len(path) >= len(chosenPath) && string(path) > chosenPath {
					skip = true
					break
				}
			}
			if skip {
				continue
			}
			for _, r := range recursion {
				// The recursion extends c.tmp, as step 5.4.5.3 replaces
				// the copy by the issuer it returns.
				rh, err := c.hashNDegree(r, depth+1)
				if err != nil {
					return "", err
				}
				path = append(path, "_:b"...)
				path = strconv.AppendInt(path, int64(c.tmp.issue(r)), 10)
				path = append(path, '<')
				path = append(path, rh...)
				path = append(path, '>')
				if chosenPath != "" && len(path) >= len(chosenPath) && string(path) > chosenPath {
					skip = true
					break
				}
			}
			if skip {
				continue
			}
			if chosenPath == "" || string(path) < chosenPath {
				chosenPath = string(path)
				current = true
				if perm.hasNext() {
					// Later permutations start from the mark again: keep
					// what this one issued.
					if err := c.spend(int64(len(c.tmp.order) - mark)); err != nil {
						return "", err
					}
					saved = append(saved[:0], c.tmp.order[mark:]...)
				}
			}
		}
		data.WriteString(chosenPath)
		if !current {
			c.tmp.undo(mark)
			for _, r := range saved {
				c.tmp.issue(r)
			}
		}
	}
	h := c.newHash()
	h.Write([]byte(data.String()))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// permuter enumerates the permutations of a list of blank nodes with the
// Steinhaus-Johnson-Trotter algorithm, starting from the list sorted by
// label, in the same order as the rdf-canonize reference implementation
// (which matters only for which of several equal paths is chosen first).
type permuter struct {
	cur    []int32
	labels []string
	left   map[int32]bool
	done   bool
}

func newPermuter(list []int32, labels []string) *permuter {
	cur := slices.Clone(list)
	slices.SortStableFunc(cur, func(a, b int32) int { return strings.Compare(labels[a], labels[b]) })
	p := &permuter{cur: cur, labels: labels, left: map[int32]bool{}}
	for _, x := range cur {
		p.left[x] = true
	}
	return p
}

func (p *permuter) hasNext() bool { return !p.done }

func (p *permuter) next() []int32 {
	out := slices.Clone(p.cur)
	gt := func(a, b int32) bool { return p.labels[a] > p.labels[b] }
	k, pos := int32(-1), 0
	n := len(p.cur)
	for i, e := range p.cur {
		left := p.left[e]
		if (k < 0 || gt(e, k)) &&
			((left && i > 0 && gt(e, p.cur[i-1])) || (!left && i < n-1 && gt(e, p.cur[i+1]))) {
			k, pos = e, i
		}
	}
	if k < 0 {
		p.done = true
		return out
	}
	swap := pos + 1
	if p.left[k] {
		swap = pos - 1
	}
	p.cur[pos] = p.cur[swap]
	p.cur[swap] = k
	for _, e := range p.cur {
		if gt(e, k) {
			p.left[e] = !p.left[e]
		}
	}
	return out
}
