// Package chunk writes one document per entity of a knowledge graph, for
// retrieval (GraphRAG indexes): the entity's statements, the statements
// linking to it, and the labels and types of its neighbours, in any format
// of the registry, cut to a token budget.
//
// The work is split into steps that only ever look at one node's records,
// so that it runs on any group-by engine: Map turns each statement into
// keyed records, Round (once per hop) lets every node send its description
// to its neighbours, Gather collects an entity's records into its
// neighbourhood, and Encode writes the document. Run executes the steps on
// one machine with an external sort (package chunk/extsort), in bounded
// memory; cmd/isolda-beam executes the same steps as an Apache Beam
// pipeline. Both give the same documents, byte for byte.
//
// # What a document holds
//
// An entity is an IRI that is the subject of a statement (restricted to
// instances of Options.Classes when given). Its neighbours are the IRIs
// and blank nodes it links to and those linking to it. With one hop (the
// default) its document holds, each counted once: its own statements; the
// statements linking to it; and each neighbour's description: its rdf:type
// statements and its labels (the label predicates of graph.
// DefaultLabelPredicates; the labels in Options.Languages, else the
// smallest one), or, for a blank node, which has no name, all its
// statements. With k hops, the neighbours up to k-1 links away contribute
// their statements and the links to them, and those k links away their
// descriptions. Paths do not go through hubs (nodes with more than
// MaxStatements statements or links), which describe themselves only.
//
// Each part of a neighbourhood is bounded by MaxStatements (own
// statements, links to the entity, statements of neighbours), taking the
// first in the order of their encoded records, so that a hub's document
// stays small; statements_total counts what the document holds before the
// token budget.
//
// # The cut
//
// The statements are ranked: the entity's types, labels, then its other
// statements; the descriptions of the nodes it links to; the statements
// linking to it; the descriptions of the nodes linking to it; then farther
// neighbours by distance (each group sorted by rdf.CompareQuads). The
// document is the largest prefix of that ranking whose encoding fits the
// budget (textbudget.LargestFit over the number of statements kept, each
// candidate encoded afresh). Cutting the statements, not the text, is
// what keeps every document of a lossless format decodable to exactly the
// statements it reports keeping: cutting an ISOLDA text by rows would
// leave references to entities whose rows are gone, which decode as new
// blank nodes.
package chunk

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/textbudget"
	"github.com/isolda/isolda/token"
)

// Defaults of Options.
const (
	DefaultFormat        = "isolda"
	DefaultTokenizer     = token.O200KBase
	DefaultMaxStatements = 1000
	// MaxHops bounds Options.Hops: each hop is a round of messages, and
	// neighbourhoods grow quickly with it.
	MaxHops = 8
)

// Options configure a Chunker. They are plain values (JSON) so that
// distributed workers can rebuild the same Chunker.
type Options struct {
	// Format is the registry name of the documents' format; empty means
	// "isolda".
	Format string `json:"format"`
	// Tokenizer names the tokenizer of the budget and of the counts (see
	// token.Registry.Get); empty means o200k_base.
	Tokenizer string `json:"tokenizer"`
	// Budget is the most tokens a document may have; 0 means no cut.
	Budget int `json:"budget"`
	// Hops is the radius of the neighbourhood (see the package comment);
	// 0 means 1.
	Hops int `json:"hops"`
	// Classes, when not empty, restricts the entities to instances of
	// these class IRIs.
	Classes []string `json:"classes,omitempty"`
	// Glossary is the ISOLDA glossary: "full" (the default when empty),
	// "legend" or "none" (it is the same for every document, so an index
	// can hold it once). Only ISOLDA formats have one.
	Glossary string `json:"glossary,omitempty"`
	// Languages are the label languages a neighbour's description keeps
	// ("" is a label without language); nil means "en" and "".
	Languages []string `json:"languages,omitempty"`
	// MaxStatements bounds each part of a neighbourhood (see the package
	// comment); 0 means DefaultMaxStatements.
	MaxStatements int `json:"max_statements"`
}

// Chunk is one entity's document: a line of the output.
type Chunk struct {
	Entity string `json:"entity"`
	Format string `json:"format"`
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
	// SHA256 is the hex SHA-256 of Text.
	SHA256 string `json:"sha256"`
	// Kept counts the statements Text encodes, Total those of the
	// neighbourhood before the cut.
	Kept  int `json:"statements_kept"`
	Total int `json:"statements_total"`
}

// AppendJSON appends the chunk as one JSON line (with its LF), keys in the
// order of the struct, no HTML escaping: deterministic bytes.
func (c *Chunk) AppendJSON(dst []byte) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(c) // cannot fail: strings and ints
	return append(dst, b.Bytes()...)
}

// Emit receives a keyed record. The slices are only valid during the
// call.
type Emit func(key, val []byte) error

// Chunker runs the steps with fixed options. Its methods are safe for
// concurrent use.
type Chunker struct {
	opts    Options
	tok     token.Tokenizer
	format  formats.Format
	iso     *isolda.Options // set for ISOLDA formats
	labels  map[string]bool
	classes map[string]bool
	langs   map[string]bool
	cap     int
	hops    int
	empty   int       // tokens of the document of an empty graph
	bufs    sync.Pool // of *encodeBuf
	// unbounded makes Round and Gather read and send everything, as
	// before their bounds (see Round): the tests' reference.
	unbounded bool
	// openAll makes Run's last hop send to every IRI, without the set of
	// those whose Gather reads none of its messages (tests).
	openAll bool
	// trace, when set, sees every message Run's rounds send: the hop,
	// the sender's key, the message's key and value (tests).
	trace func(hop int, sender, key, val []byte)
}

// New returns a Chunker. tok is the tokenizer to use; nil loads the one
// opts.Tokenizer names from a default token.Registry. A budget too small
// for the format's document of an empty graph is an error.
func New(opts Options, tok token.Tokenizer) (*Chunker, error) {
	if opts.Format == "" {
		opts.Format = DefaultFormat
	}
	if opts.Tokenizer == "" {
		opts.Tokenizer = DefaultTokenizer
	}
	if opts.Hops == 0 {
		opts.Hops = 1
	}
	if opts.MaxStatements == 0 {
		opts.MaxStatements = DefaultMaxStatements
	}
	switch {
	case opts.Hops < 1 || opts.Hops > MaxHops:
		return nil, fmt.Errorf("chunk: hops %d is not between 1 and %d", opts.Hops, MaxHops)
	case opts.Budget < 0:
		return nil, fmt.Errorf("chunk: budget %d is negative", opts.Budget)
	case opts.MaxStatements < 1:
		return nil, fmt.Errorf("chunk: max statements %d is not positive", opts.MaxStatements)
	}
	f, ok := formats.Get(opts.Format)
	if !ok {
		return nil, fmt.Errorf("chunk: unknown format %q (see isolda formats)", opts.Format)
	}
	c := &Chunker{opts: opts, tok: tok, format: f, cap: opts.MaxStatements, hops: opts.Hops,
		labels: map[string]bool{}, classes: map[string]bool{}, langs: map[string]bool{}}
	if v, ok := formats.IsoldaVersion(f.Name); ok {
		c.iso = &isolda.Options{Version: v, Glossary: opts.Glossary}
	} else if opts.Glossary != "" && opts.Glossary != isolda.GlossaryFull {
		return nil, fmt.Errorf("chunk: --glossary applies to ISOLDA formats only, not %s", f.Name)
	}
	for _, p := range graph.DefaultLabelPredicates() {
		c.labels[p] = true
	}
	for _, cl := range opts.Classes {
		c.classes[cl] = true
	}
	langs := opts.Languages
	if langs == nil {
		langs = []string{"en", ""}
	}
	for _, l := range langs {
		c.langs[strings.ToLower(l)] = true
	}
	if c.tok == nil {
		var err error
		if c.tok, err = token.NewRegistry(token.Options{}).Get(opts.Tokenizer); err != nil {
			return nil, fmt.Errorf("chunk: %w", err)
		}
	}
	empty, err := c.encode(nil)
	if err != nil {
		return nil, fmt.Errorf("chunk: %s cannot encode an empty graph: %w", f.Name, err)
	}
	c.empty = c.tok.Count(empty)
	if n := c.empty; opts.Budget > 0 && n > opts.Budget {
		return nil, fmt.Errorf("chunk: a budget of %d tokens is smaller than the %s document of an empty graph (%d tokens)%s",
			opts.Budget, f.Name, n, glossaryHint(c.iso))
	}
	return c, nil
}

func glossaryHint(iso *isolda.Options) string {
	if iso != nil && iso.Glossary != isolda.GlossaryNone {
		return "; leave the glossary out with --glossary none"
	}
	return ""
}

// ExpandClass returns the IRI of a class given as an IRI or as a prefixed
// name of one of graph.CommonPrefixes (schema:Person).
func ExpandClass(c string) (string, error) {
	if strings.Contains(c, "://") || strings.HasPrefix(c, "urn:") {
		return c, nil
	}
	var names []string
	pfx, local, ok := strings.Cut(c, ":")
	for _, p := range graph.CommonPrefixes() {
		if ok && p.Name == pfx {
			return p.IRI + local, nil
		}
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	return "", fmt.Errorf("%q is neither an IRI nor a prefixed name with one of the prefixes %s", c, strings.Join(names, ", "))
}

// Hops returns the number of rounds to run between Map and Gather.
func (c *Chunker) Hops() int { return c.hops }

// isDesc reports whether q describes its subject: a type or a label.
func (c *Chunker) isDesc(q rdf.Quad) bool {
	return q.P.Value == rdf.RDFType && isNode(q.O) || c.labels[q.P.Value] && q.O.Kind == rdf.LiteralKind
}

// Mapper turns statements into keyed records. It is not safe for
// concurrent use; make one per goroutine.
type Mapper struct {
	c        *Chunker
	key, val []byte
}

// NewMapper returns a Mapper.
func (c *Chunker) NewMapper() *Mapper { return &Mapper{c: c} }

// Map emits the records of one statement: keyed by its subject (a
// description or another statement of it), and when its object is
// another IRI or blank node, keyed by the object (a link to it).
func (m *Mapper) Map(q rdf.Quad, emit Emit) error {
	if !isNode(q.S) {
		return nil // readers give no other subjects
	}
	m.key = nodeKey(m.key[:0], q.S)
	tag := tagOwn
	if m.c.isDesc(q) {
		tag = tagDesc
	}
	m.val = appendQuad(append(m.val[:0], tag), q, q.S)
	if err := emit(m.key, m.val); err != nil {
		return err
	}
	if !isNode(q.O) || q.O == q.S {
		return nil
	}
	m.key = nodeKey(m.key[:0], q.O)
	m.val = appendQuad(append(m.val[:0], tagIn), q, q.O)
	return emit(m.key, m.val)
}

// node accumulates what the steps need of a node's statements, within the
// bounds.
type node struct {
	c     *Chunker
	term  rdf.Term
	desc  []rdf.Quad // descriptive statements (types, labels)
	own   []rdf.Quad // all its statements, descriptive ones first
	in    []rdf.Quad // statements linking to it
	nbrs  []rdf.Term // neighbours of the statements kept, in order
	seen  map[rdf.Term]bool
	hub   bool // more statements or links than the bounds
	ownN  int
	inN   int
	dtype bool // has a type of Options.Classes
}

func (c *Chunker) newNode(t rdf.Term) *node {
	return &node{c: c, term: t, seen: map[rdf.Term]bool{t: true}}
}

// addNbr adds a neighbour; it reports whether it was new.
func (n *node) addNbr(t rdf.Term) bool {
	if n.seen[t] {
		return false
	}
	n.seen[t] = true
	n.nbrs = append(n.nbrs, t)
	return true
}

// add takes a statement record; it returns the neighbour left out of the
// bounds (for a hub to describe itself to), if any.
func (n *node) add(r record) (overflow rdf.Term) {
	switch r.tag {
	case tagDesc, tagOwn:
		n.ownN++
		if r.tag == tagDesc && len(n.desc) < n.c.cap {
			n.desc = append(n.desc, r.q)
			if r.q.P.Value == rdf.RDFType && n.c.classes[r.q.O.Value] {
				n.dtype = true
			}
		}
		if len(n.own) < n.c.cap {
			n.own = append(n.own, r.q)
			if isNode(r.q.O) {
				n.addNbr(r.q.O)
			}
			return rdf.Term{}
		}
		n.hub = true
		if isNode(r.q.O) && !n.seen[r.q.O] {
			return r.q.O
		}
	case tagIn:
		n.inN++
		if len(n.in) < n.c.cap {
			n.in = append(n.in, r.q)
			n.addNbr(r.q.S)
			return rdf.Term{}
		}
		n.hub = true
		if !n.seen[r.q.S] {
			return r.q.S
		}
	}
	return rdf.Term{}
}

// describe returns the description of node t from its statements own
// (statements of other subjects are ignored): for a blank node all of
// them; else its types and its labels in the preferred languages, or,
// with none, its smallest label. The result is sorted.
func (c *Chunker) describe(t rdf.Term, own []rdf.Quad) []rdf.Quad {
	var out, labels []rdf.Quad
	preferred := false
	for _, q := range own {
		switch {
		case !q.S.Equal(t):
		case t.Kind == rdf.BlankKind || q.P.Value == rdf.RDFType && isNode(q.O):
			out = append(out, q)
		case c.labels[q.P.Value] && q.O.Kind == rdf.LiteralKind:
			if c.langs[strings.ToLower(q.O.Lang)] {
				if !preferred {
					labels, preferred = labels[:0], true
				}
				labels = append(labels, q)
			} else if !preferred {
				labels = append(labels, q)
			}
		}
	}
	if !preferred && len(labels) > 1 {
		labels = []rdf.Quad{slices.MinFunc(labels, func(a, b rdf.Quad) int {
			return cmpOr(rdf.Compare(a.O, b.O), rdf.CompareQuads(a, b))
		})}
	}
	out = append(out, labels...)
	slices.SortFunc(out, rdf.CompareQuads)
	return slices.CompactFunc(out, rdf.Quad.Equal)
}

// descriptive returns, written over dst, the statements of a package of
// origin that describe may keep, or, when there is none, the package's
// first statement: the last Round then meets the origin as before (it
// forwards at most cap origins), and describes it as before (the package
// is not cut: it has no more than cap statements).
func (c *Chunker) descriptive(origin rdf.Term, pkg []rdf.Quad, dst *[]rdf.Quad) []rdf.Quad {
	out := (*dst)[:0]
	for _, q := range pkg {
		if q.S == origin && (origin.Kind == rdf.BlankKind || q.P.Value == rdf.RDFType && isNode(q.O) ||
			c.labels[q.P.Value] && q.O.Kind == rdf.LiteralKind) {
			out = append(out, q)
		}
	}
	if len(out) == 0 && len(pkg) > 0 {
		out = append(out, pkg[0])
	}
	*dst = out
	return out
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// Values is a node's records: their values, in ascending byte order,
// without repeats (as a sort-based group-by gives them).
type Values = iter.Seq[[]byte]

// Round runs hop j (1 to Hops) at the node key: it sends the node's
// description (or, before the last hop, its statements and the links to
// it) to its neighbours, and forwards what its neighbours sent in hop j-1
// one link further. vals holds the node's statement records and the
// messages of hop j-1.
func (c *Chunker) Round(j int, key []byte, vals Values, emit Emit) error {
	return c.round(j, key, vals, emit, nil)
}

// round is Round, given the keys of the IRIs whose Gather reads no
// message of hop j or later (closed, when not nil). In the last hop it
// sends them nothing; in the hop before, it sends them (and blank nodes,
// whose Gather reads nothing) only what the last Round reads: the
// description of each origin.
func (c *Chunker) round(j int, key []byte, vals Values, emit Emit, closed map[string]struct{}) error {
	t, err := keyTerm(key)
	if err != nil {
		return err
	}
	n := c.newNode(t)
	var desc []rdf.Quad
	described := false
	var kbuf, vbuf []byte
	var trim []rdf.Quad
	last := j == c.hops && !c.unbounded
	send := func(to rdf.Term, dist int, origin rdf.Term, qs []rdf.Quad) error {
		if last && to.Kind != rdf.IRIKind {
			return nil // only Gather reads the last hop, and only an IRI's
		}
		kbuf = nodeKey(kbuf[:0], to)
		if closed != nil && (last || j == c.hops-1) {
			_, unread := closed[string(kbuf)]
			switch {
			case last && unread:
				return nil
			case !last && (unread || to.Kind == rdf.BlankKind) && len(qs) <= c.cap:
				qs = c.descriptive(origin, qs, &trim)
			}
		}
		for _, q := range qs {
			vbuf = appendMsg(vbuf[:0], dist, origin, q, to)
			if err := emit(kbuf, vbuf); err != nil {
				return err
			}
		}
		return nil
	}
	// Messages of hop j-1, forwarded per origin.
	var origin rdf.Term
	var pkg []rdf.Quad
	var prefix []byte // the current origin's message prefix (MessageOrigin)
	forwarded := 0
	// In the last hop Gather is the only reader: of what this node sends
	// to neighbour i it reads at most the first cap statements not about
	// the neighbour; sent[i] counts those sent.
	var sent []int
	forward := func() error {
		if origin.Kind == rdf.None || n.hub || forwarded >= c.cap {
			return nil
		}
		forwarded++
		payload := pkg
		if j == c.hops {
			payload = c.describe(origin, pkg)
		}
		if last && sent == nil {
			sent = make([]int, len(n.nbrs))
		}
		for i, x := range n.nbrs {
			if x == origin || last && sent[i] >= c.cap {
				continue
			}
			if err := send(x, j, origin, payload); err != nil {
				return err
			}
			if last {
				for _, q := range payload {
					if q.S != x && q.O != x {
						sent[i]++
					}
				}
			}
		}
		return nil
	}
	for val := range vals {
		if j > 1 && !c.unbounded && len(val) > 0 && val[0] == tagMsg {
			// What forward will not read need not be decoded.
			if n.hub || forwarded >= c.cap {
				break
			}
			if p, ok := MessageOrigin(val); ok && len(pkg) >= c.cap && bytes.Equal(p, prefix) {
				continue
			}
		}
		r, err := decodeValue(val, t)
		if err != nil {
			return err
		}
		if r.tag != tagDesc && !described {
			desc, described = c.describe(t, n.desc), true
		}
		switch r.tag {
		case tagDesc, tagOwn, tagIn:
			over := n.add(r)
			// A hub describes itself to the neighbours beyond the bounds
			// as it meets them (a blank node's description is not known
			// yet: it is all its statements).
			if j == 1 && over.Kind != rdf.None && t.Kind == rdf.IRIKind {
				if err := send(over, 1, t, desc); err != nil {
					return err
				}
			}
		case tagMsg:
			if j == 1 || r.dist != j-1 || r.origin == t {
				continue
			}
			if r.origin != origin {
				if err := forward(); err != nil {
					return err
				}
				origin, pkg = r.origin, pkg[:0]
				p, _ := MessageOrigin(val)
				prefix = append(prefix[:0], p...)
			}
			if len(pkg) < c.cap {
				pkg = append(pkg, r.q)
			}
		}
	}
	if j > 1 {
		return forward()
	}
	if !described {
		desc = c.describe(t, n.desc)
	}
	payload := desc
	switch {
	case t.Kind == rdf.BlankKind:
		payload = c.describe(t, n.own)
	case c.hops > 1 && !n.hub:
		payload = append(slices.Clone(n.own), n.in...)
	}
	for _, x := range n.nbrs {
		if err := send(x, 1, t, payload); err != nil {
			return err
		}
	}
	return nil
}

// Neighbourhood is what Gather collects of an entity: the input of
// Encode.
type Neighbourhood struct {
	Entity rdf.Term
	own    []rdf.Quad
	in     []rdf.Quad
	out    map[rdf.Term]bool // nodes the kept own statements link to
	from   map[rdf.Term]bool // nodes of the kept links to the entity
	msgs   []record
}

// Gather collects the neighbourhood of the node key from its records (its
// statements and the messages of every hop). It returns nil when the node
// is not an entity to write: a blank node, an IRI that is the subject of
// no statement, or one without a type of Options.Classes.
func (c *Chunker) Gather(key []byte, vals Values) (*Neighbourhood, error) {
	if len(key) == 0 || key[0] != kIRI {
		return nil, nil
	}
	t, err := keyTerm(key)
	if err != nil {
		return nil, err
	}
	n := c.newNode(t)
	nb := &Neighbourhood{Entity: t}
	seen := map[rdf.Quad]bool{}
	checked := false
records:
	for val := range vals {
		r, err := decodeValue(val, t)
		if err != nil {
			return nil, err
		}
		if r.tag != tagDesc && !checked {
			if len(c.classes) > 0 && !n.dtype || r.tag != tagOwn && n.ownN == 0 {
				return nil, nil
			}
			checked = true
		}
		switch r.tag {
		case tagDesc, tagOwn, tagIn:
			n.add(r)
		case tagMsg:
			if len(nb.msgs) == 0 {
				nb.own, nb.in = n.own, n.in
				nb.out, nb.from = c.linked(n)
				for _, q := range nb.own {
					seen[q.Key()] = true
				}
				for _, q := range nb.in {
					seen[q.Key()] = true
				}
			}
			q := r.q
			switch {
			case r.origin == t || q.S == t || q.O == t:
				continue // the entity's own statements and links come from its records
			case r.dist == 1 && !nb.out[r.origin] && !nb.from[r.origin]:
				continue // a neighbour beyond the bounds
			case len(nb.msgs) >= c.cap || seen[q.Key()]:
				continue
			}
			seen[q.Key()] = true
			nb.msgs = append(nb.msgs, r)
			if len(nb.msgs) >= c.cap && !c.unbounded {
				break records // the rest would be left out: messages come last
			}
		}
	}
	if !checked && (len(c.classes) > 0 && !n.dtype || n.ownN == 0) {
		return nil, nil
	}
	if nb.out == nil {
		nb.own, nb.in = n.own, n.in
		nb.out, nb.from = c.linked(n)
	}
	return nb, nil
}

// linked returns the nodes the kept statements of n link to and from.
func (c *Chunker) linked(n *node) (out, from map[rdf.Term]bool) {
	out, from = map[rdf.Term]bool{}, map[rdf.Term]bool{}
	for _, q := range n.own {
		if isNode(q.O) {
			out[q.O] = true
		}
	}
	for _, q := range n.in {
		from[q.S] = true
	}
	return out, from
}

// Statements returns the statements of a neighbourhood, deduplicated, in
// the order the cut keeps them (see the package comment).
func (c *Chunker) Statements(nb *Neighbourhood) []rdf.Quad {
	typ := func(q rdf.Quad) int {
		switch {
		case q.P.Value == rdf.RDFType:
			return 0
		case c.labels[q.P.Value] && q.O.Kind == rdf.LiteralKind:
			return 1
		}
		return 2
	}
	own := slices.Clone(nb.own)
	slices.SortFunc(own, func(a, b rdf.Quad) int { return cmpOr(typ(a)-typ(b), rdf.CompareQuads(a, b)) })
	in := slices.Clone(nb.in)
	slices.SortFunc(in, rdf.CompareQuads)
	var outD, inD []rdf.Quad
	var far [][]rdf.Quad
	for _, m := range nb.msgs {
		switch {
		case m.dist == 1 && nb.out[m.origin]:
			outD = append(outD, m.q)
		case m.dist == 1:
			inD = append(inD, m.q)
		default:
			for len(far) < m.dist-1 {
				far = append(far, nil)
			}
			far[m.dist-2] = append(far[m.dist-2], m.q)
		}
	}
	all := own
	for _, part := range append([][]rdf.Quad{outD, in, inD}, far...) {
		slices.SortFunc(part, rdf.CompareQuads)
		all = append(all, part...)
	}
	// Each statement once, at its first (highest) rank.
	seen := make(map[rdf.Quad]bool, len(all))
	out := all[:0]
	for _, q := range all {
		if k := q.Key(); !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	return out
}

// encodeBuf is where encode writes: the encoders buffer their output in a
// bufio.Writer of 64 KiB, which they take as it is when given one
// (bufio.NewWriterSize), so reusing one spares an allocation per call.
type encodeBuf struct {
	b  bytes.Buffer
	bw *bufio.Writer
}

// encode writes the document of a list of statements.
func (c *Chunker) encode(qs []rdf.Quad) (string, error) {
	d := rdf.NewDataset()
	for _, q := range qs {
		d.Add(q)
	}
	eb, _ := c.bufs.Get().(*encodeBuf)
	if eb == nil {
		eb = &encodeBuf{}
		eb.bw = bufio.NewWriterSize(&eb.b, 64<<10)
	}
	defer c.bufs.Put(eb)
	eb.b.Reset()
	eb.bw.Reset(&eb.b)
	var err error
	if c.iso != nil {
		err = isolda.Encode(eb.bw, d, *c.iso)
	} else {
		err = c.format.Encode(eb.bw, formats.NewInput(d))
	}
	if ferr := eb.bw.Flush(); err == nil {
		err = ferr
	}
	return eb.b.String(), err
}

// Encode writes the document of a neighbourhood, cut to the budget.
func (c *Chunker) Encode(nb *Neighbourhood) (Chunk, error) {
	qs := c.Statements(nb)
	ch := Chunk{Entity: nb.Entity.Value, Format: c.format.Name, Total: len(qs)}
	text, err := c.encode(qs)
	if err != nil {
		return ch, fmt.Errorf("chunk: %s: %w", nb.Entity.Value, err)
	}
	n := c.tok.Count(text)
	k := len(qs)
	if c.opts.Budget > 0 && n > c.opts.Budget {
		var encErr error
		best, bestText, bestN := 0, "", -1
		// The token count grows with the statements kept about linearly:
		// interpolate between the empty document and the whole one.
		k = textbudget.LargestWithin(len(qs), c.opts.Budget, c.empty, n, func(k int) int {
			t, err := c.encode(qs[:k])
			if err != nil {
				encErr = err
				return c.opts.Budget + 1
			}
			m := c.tok.Count(t)
			if m <= c.opts.Budget && k >= best {
				best, bestText, bestN = k, t, m
			}
			return m
		})
		if encErr != nil {
			return ch, fmt.Errorf("chunk: %s: %w", nb.Entity.Value, encErr)
		}
		if k != best || bestN < 0 { // k is 0, never probed
			bestText, err = c.encode(qs[:k])
			if err != nil {
				return ch, fmt.Errorf("chunk: %s: %w", nb.Entity.Value, err)
			}
			bestN = c.tok.Count(bestText)
		}
		text, n = bestText, bestN
	}
	sum := sha256.Sum256([]byte(text))
	ch.Text, ch.Tokens, ch.SHA256, ch.Kept = text, n, hex.EncodeToString(sum[:]), k
	return ch, nil
}
