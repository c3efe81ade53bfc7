package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
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
	c, err := run(d, Options{})
	if err != nil {
		return "", err
	}
	h := sha256.New()
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

// issuer is an identifier issuer: it issues prefix0, prefix1, ... to blank
// nodes (by index) in order of request and remembers the order.
type issuer struct {
	prefix string
	ids    map[int32]string
	order  []int32
}

func newIssuer(prefix string) *issuer {
	return &issuer{prefix: prefix, ids: map[int32]string{}}
}

func (is *issuer) issue(n int32) string {
	if id, ok := is.ids[n]; ok {
		return id
	}
	id := is.prefix + strconv.Itoa(len(is.order))
	is.ids[n] = id
	is.order = append(is.order, n)
	return id
}

func (is *issuer) clone() *issuer {
	c := &issuer{prefix: is.prefix, ids: make(map[int32]string, len(is.ids)), order: slices.Clone(is.order)}
	for k, v := range is.ids {
		c.ids[k] = v
	}
	return c
}

// rdfc is the canonicalization state of RDFC-1.0.
type rdfc struct {
	d       *rdf.Dataset
	newHash func() hash.Hash
	quads   []rdf.IDQuad
	blank   []int32  // term ID -> blank node index, or -1
	labels  []string // blank node index -> input label
	bquads  [][]int32
	canon   *issuer
	first   []string // cached Hash First Degree Quads results
	work    int64
	max     int64
	buf     []byte
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
	r, _, err := canonicalize(d, opts)
	return r, err
}

// canonicalize is Canonicalize that also returns the work done.
func canonicalize(d *rdf.Dataset, opts Options) (*Result, int64, error) {
	c, err := run(d, opts)
	if err != nil {
		if c != nil {
			return nil, c.work, err
		}
		return nil, 0, err
	}
	res := &Result{Issued: make(map[string]string, len(c.labels))}
	for b, l := range c.labels {
		res.Issued[l] = c.canon.ids[int32(b)]
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

// run issues the canonical identifiers of RDFC-1.0 (steps 1 to 5).
func run(d *rdf.Dataset, opts Options) (*rdfc, error) {
	nh, err := newHash(opts.HashAlgorithm)
	if err != nil {
		return nil, err
	}
	c := &rdfc{d: d, newHash: nh, quads: d.IDQuads(), max: opts.MaxWork, canon: newIssuer("c14n")}
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
	if c.max == 0 {
		c.max = DefaultRDFCWork + RDFCWorkPerBlank*int64(n)
	}

	// Steps 3 and 4: first degree hashes; unique ones get canonical labels.
	byHash := map[string][]int32{}
	for b := range n {
		h := c.hashFirstDegree(int32(b))
		byHash[h] = append(byHash[h], int32(b))
	}
	hashes := make([]string, 0, len(byHash))
	for h := range byHash {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	for _, h := range hashes {
		if l := byHash[h]; len(l) == 1 {
			c.canon.issue(l[0])
		}
	}
	// Step 5: N-degree hashes for the shared first degree hashes.
	for _, h := range hashes {
		l := byHash[h]
		if len(l) == 1 {
			continue
		}
		type pathResult struct {
			hash   string
			issuer *issuer
		}
		var list []pathResult
		for _, b := range l {
			if _, ok := c.canon.ids[b]; ok {
				continue
			}
			tmp := newIssuer("b")
			tmp.issue(b)
			hh, is, err := c.hashNDegree(b, tmp)
			if err != nil {
				return c, err
			}
			list = append(list, pathResult{hh, is})
		}
		slices.SortStableFunc(list, func(a, b pathResult) int { return strings.Compare(a.hash, b.hash) })
		for _, r := range list {
			for _, b := range r.issuer.order {
				c.canon.issue(b)
			}
		}
	}
	return c, nil
}

// lines returns the canonical N-Quads lines (step 6): every quad with
// canonical labels, each line ending in "\n", sorted.
func (c *rdfc) lines() []string {
	name := func(b int32) string { return c.canon.ids[b] }
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

func (c *rdfc) hashString(s string) string {
	h := c.newHash()
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil))
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

// hashRelated is the Hash Related Blank Node algorithm (4.7).
func (c *rdfc) hashRelated(related int32, q rdf.IDQuad, is *issuer, position byte) string {
	var in strings.Builder
	in.WriteByte(position)
	if position != 'g' {
		in.WriteByte('<')
		in.WriteString(c.d.Term(q[1]).Value)
		in.WriteByte('>')
	}
	if id, ok := c.canon.ids[related]; ok {
		in.WriteString("_:" + id)
	} else if id, ok := is.ids[related]; ok {
		in.WriteString("_:" + id)
	} else {
		in.WriteString(c.hashFirstDegree(related))
	}
	return c.hashString(in.String())
}

func (c *rdfc) spend(n int64) error {
	c.work += n
	if c.max >= 0 && c.work > c.max {
		return fmt.Errorf("canon: RDFC-1.0 needs more than %d Hash N-Degree Quads calls and permutations: %w", c.max, rdf.ErrLimit)
	}
	return nil
}

// hashNDegree is the Hash N-Degree Quads algorithm (4.8).
func (c *rdfc) hashNDegree(b int32, is *issuer) (string, *issuer, error) {
	if err := c.spend(1); err != nil {
		return "", nil, err
	}
	// Steps 1-3: related blank nodes grouped by their related hash.
	related := map[string][]int32{}
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
				// Blank nodes inside a triple term object are related
				// in the object position.
				for _, r := range list {
					if r != b {
						h := c.hashRelated(r, q, is, pos.tag)
						related[h] = append(related[h], r)
					}
				}
				continue
			}
			r := c.blank[id]
			if r < 0 || r == b {
				continue
			}
			h := c.hashRelated(r, q, is, pos.tag)
			related[h] = append(related[h], r)
		}
	}
	hashes := make([]string, 0, len(related))
	for h := range related {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	// Step 5.
	var data strings.Builder
	for _, h := range hashes {
		data.WriteString(h)
		chosenPath := ""
		var chosen *issuer
		perm := newPermuter(related[h], c.labels)
		for perm.hasNext() {
			p := perm.next()
			if err := c.spend(1); err != nil {
				return "", nil, err
			}
			cp := is.clone()
			var path strings.Builder
			var recursion []int32
			skip := false
			for _, r := range p {
				if id, ok := c.canon.ids[r]; ok {
					path.WriteString("_:" + id)
				} else {
					if _, ok := cp.ids[r]; !ok {
						recursion = append(recursion, r)
					}
					path.WriteString("_:" + cp.issue(r))
				}
				if chosenPath != "" && path.Len() >= len(chosenPath) && path.String() > chosenPath {
					skip = true
					break
				}
			}
			if skip {
				continue
			}
			for _, r := range recursion {
				rh, ris, err := c.hashNDegree(r, cp)
				if err != nil {
					return "", nil, err
				}
				path.WriteString("_:" + cp.issue(r))
				path.WriteString("<" + rh + ">")
				cp = ris
				if chosenPath != "" && path.Len() >= len(chosenPath) && path.String() > chosenPath {
					skip = true
					break
				}
			}
			if skip {
				continue
			}
			if chosenPath == "" || path.String() < chosenPath {
				chosenPath = path.String()
				chosen = cp
			}
		}
		data.WriteString(chosenPath)
		is = chosen
	}
	return c.hashString(data.String()), is, nil
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
