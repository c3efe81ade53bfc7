package isolda

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// Value classes of a column (SPEC.md, "Columns and value classes").
const (
	clsLink    = iota + 1 // an entity, written by its id
	clsIRI                // an IRI that is not an entity
	clsType               // an rdf:type class (the "a" column)
	clsPlain              // xsd:string
	clsLang               // language-tagged string
	clsTyped              // any other datatype
	clsLangAny            // 0.4: language-tagged strings, each value with its tag (p@)
)

// gkey is a column: a predicate and a value class.
type gkey struct {
	pred rdf.TermID
	cls  uint8
	dt   string // datatype IRI for clsTyped
	lang string // language tag as written, for clsLang
	dir  string // base direction, for clsLang
}

type group struct {
	key  gkey
	vals []rdf.TermID
}

type row struct {
	ent    rdf.TermID
	groups []group
	label  bool       // the first cell is the entity's label (label column)
	graph  rdf.TermID // 0.4 @graph column: the graph of the row's quads
}

type table struct {
	class    rdf.TermID // 0 for Thing_
	rows     []*row
	labelCol gkey // pred == 0 when the first column is "id"
	inlineN  int  // entities of this class in this graph written inline
}

// inlineEnt is a blank node written in place: its values and main class.
type inlineEnt struct {
	row  *row
	main rdf.TermID
}

// listCell is a well-formed RDF list written in place: its items and
// their common column key (predicate rdf:first).
type listCell struct {
	items []rdf.TermID
	key   gkey
}

type graphPart struct {
	name   rdf.TermID
	tables []*table
}

type encoder struct {
	d        *rdf.Dataset
	opts     Options
	v02      quoting // quoting rules of the version
	qLink    quoting // quoting rules of link values (ids): also '(' and '<' in 0.3
	ver      string
	v04      bool // ISOLDA 0.4 (SPEC.md section 17)
	graphCol bool // 0.4: named graphs as a @graph column instead of sections
	// 0.4 alternatives for small documents: no nested columns, no nested
	// tables (their entities are then written in place, T{...}).
	noNestCol, noNestTable bool

	// Token-saving options of 0.3 (SPEC.md section 15).
	iriIDs, dtPrefixes bool
	iriID              []bool // the entity's id is its IRI as written (IRIIDs)
	lists              bool   // ordered-list syntax (0.3)
	continuation       bool   // Continuation, or 0.3
	listNode           []bool // blank nodes of lists written as (N) cells
	listItems          map[rdf.TermID]listCell

	// The four changes of 0.2, each switchable (SPEC.md, "Options").
	prefLang, rowIDs, termAliases, vocabPrefix bool

	n      *namer
	typeID rdf.TermID

	rank   []int32 // canonical rank of blank nodes (1..n), by TermID
	entity []bool  // subjects and blank nodes
	pos    []int32 // position in the BFS order, by TermID
	order  []rdf.TermID

	anchor rdf.TermID // the first start of the search (0: none)

	inline     []bool      // blank nodes written in place (InlineBlanks)
	inlineRows []inlineEnt // by TermID: the row of a blank node written in place

	labelVal []rdf.TermID // preferred label literal, by TermID (0 = none)
	labelOK  []bool       // the label may be the entity's id
	ids      []string     // entity ids, by TermID

	parts   []graphPart
	headers map[gkey]string

	// constructs used, for the glossary
	use map[string]bool
}

// Encode writes d as an ISOLDA document.
func Encode(w io.Writer, d *rdf.Dataset, opts Options) error {
	gloss, body, err := encodeParts(d, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(gloss)
	if len(gloss) > 0 && len(body) > 0 {
		bw.WriteByte('\n')
	}
	bw.Write(body)
	return bw.Flush()
}

// Parts is an ISOLDA document split into its glossary and its body.
type Parts struct {
	// Glossary is the # lines that explain the notation, each ending in
	// LF (empty with --glossary none). In 0.4 it depends only on the set of
	// constructs the body uses: the same set gives the same bytes, so it
	// can be sent once (a system prompt, a prompt cache) for many bodies.
	Glossary string
	// Body is the rest of the document, after an @isolda directive that
	// names the version (the full document names it in the glossary's
	// first line instead), so that it decodes on its own.
	Body string
}

// EncodeParts encodes d and returns the glossary and the body apart:
// SplitParts of the document Encode writes.
func EncodeParts(d *rdf.Dataset, opts Options) (Parts, error) {
	var b strings.Builder
	if err := Encode(&b, d, opts); err != nil {
		return Parts{}, err
	}
	return SplitParts(b.String()), nil
}

// SplitParts splits a document Encode wrote into its glossary (the #
// lines up to the first empty line) and its body (the rest, after an
// @isolda directive naming the version the glossary's first line names).
// Glossary + "\n" + Body without its first line is the document; a
// document without a glossary is all body.
func SplitParts(doc string) Parts {
	if !strings.HasPrefix(doc, "#") {
		return Parts{Body: doc}
	}
	gloss, rest := doc, ""
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		gloss, rest = doc[:i+1], doc[i+2:]
	}
	ver := V02
	for _, v := range []string{V01, V03, V04} {
		if strings.HasPrefix(doc, "# ISOLDA "+v) {
			ver = v
		}
	}
	return Parts{Glossary: gloss, Body: "@isolda " + ver + "\n" + rest}
}

// encodeParts encodes d: the glossary lines and the body (directives and
// sections).
//
// A panic in the encoder is a bug (the shaped property test and
// FuzzEncode04 hunt for them); should one remain, the caller gets an
// error naming it instead of a dead process: a chunk run or a server
// request fails one document, not all of them.
func encodeParts(d *rdf.Dataset, opts Options) (gloss, body []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			gloss, body, err = nil, nil, fmt.Errorf("isolda: internal error while encoding (a bug: please report it with the input): %v", p)
		}
	}()
	cropped, anchor, err := crop(d, opts)
	if err != nil {
		return nil, nil, err
	}
	gloss, body, err = encodeMode(cropped, opts, anchor, false)
	if err != nil || !hasNamedGraph(cropped) {
		return gloss, body, err
	}
	if ver, _ := opts.version(); ver != V04 || (opts.Layout != "" && opts.Layout != LayoutTable) {
		return gloss, body, nil
	}
	// 0.4: named graphs as sections or as a @graph column, whichever the
	// token estimate finds smaller (sections on a tie).
	g2, b2, err := encodeMode(cropped, opts, anchor, true)
	if err != nil {
		return nil, nil, err
	}
	if tokenEstimate(string(g2))+tokenEstimate(string(b2)) < tokenEstimate(string(gloss))+tokenEstimate(string(body)) {
		return g2, b2, nil
	}
	return gloss, body, nil
}

// hasNamedGraph reports whether d has a quad in a named graph.
func hasNamedGraph(d *rdf.Dataset) bool {
	for _, q := range d.IDQuads() {
		if q[3] != 0 {
			return true
		}
	}
	return false
}

// encodeMode encodes d with named graphs as sections or (graphCol, 0.4)
// as a @graph column.
func encodeMode(d *rdf.Dataset, opts Options, anchor rdf.Term, graphCol bool) (gloss, body []byte, err error) {
	e, err := prepareMode(d, opts, anchor, graphCol)
	if err != nil {
		return nil, nil, err
	}
	gloss, body = e.emit()
	if !e.v04 || len(body) >= smallBody {
		return gloss, body, nil
	}
	// A small 0.4 document: a nested column or a nested table must save
	// more than its glossary entry costs, else the entities are written
	// in place (by the token estimate; the default on a tie).
	best := tokenEstimate(string(gloss)) + tokenEstimate(string(body))
	for _, alt := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		e.noNestCol, e.noNestTable = alt[0], alt[1]
		g2, b2 := e.emit()
		if n := tokenEstimate(string(g2)) + tokenEstimate(string(b2)); n < best {
			best, gloss, body = n, g2, b2
		}
	}
	return gloss, body, nil
}

// smallBody is the size under which a 0.4 encoder tries the document
// without nested columns or nested tables (whose glossary entries weigh
// on small documents).
const smallBody = 1 << 14

// emit writes the glossary and the body of a prepared encoder.
func (e *encoder) emit() (gloss, body []byte) {
	e.use = map[string]bool{}
	e.headers = map[gkey]string{}
	if e.v04 {
		e.n.use = e.use
	}
	sections := e.body()
	for len(sections) > 0 && sections[len(sections)-1] == '\n' {
		sections = sections[:len(sections)-1]
	}
	gloss, dirs := e.head()
	body = dirs
	if len(sections) > 0 {
		if len(body) > 0 {
			body = append(body, '\n')
		}
		body = append(body, sections...)
		body = append(body, '\n')
	}
	return gloss, body
}

// prepare runs every step of the encoder up to writing: order, names, ids
// and layout. anchor, when set, is the first start of the search.
func prepare(d *rdf.Dataset, opts Options, anchor rdf.Term) (*encoder, error) {
	return prepareMode(d, opts, anchor, false)
}

// prepareMode is prepare with named graphs as a @graph column (0.4).
func prepareMode(d *rdf.Dataset, opts Options, anchor rdf.Term, graphCol bool) (*encoder, error) {
	ver, err := opts.version()
	if err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	v02 := ver != V01
	v04 := ver == V04
	v03 := ver == V03 || v04 // 0.4 keeps every change of 0.3
	var q quoting
	if v02 {
		q |= quoteAt
	}
	if v04 {
		q |= quoteUnder
	}
	ql := q
	if v03 {
		ql |= quoteParen
	}
	e := &encoder{d: d, opts: opts, v02: q, qLink: ql, ver: ver, v04: v04, n: newNamer(q), headers: map[gkey]string{}, use: map[string]bool{},
		prefLang: v02 && !opts.NoPreferredLanguage, rowIDs: v02 && !opts.NoRowLabelIDs,
		termAliases: v02 && !opts.NoTermAliases, vocabPrefix: v02 && !opts.NoVocabPrefix,
		iriIDs: v02 && (v03 || opts.IRIIDs), dtPrefixes: v02 && opts.DatatypePrefixes, lists: v03,
		continuation: opts.Continuation || v03}
	e.n.v04 = v04
	e.n.angleNS = !v03
	e.graphCol = graphCol && v04
	if v04 {
		e.n.use = e.use
	}
	if err := e.validate(); err != nil {
		return nil, err
	}
	if id, ok := d.Lookup(rdf.NewIRI(rdf.RDFType)); ok {
		e.typeID = id
	}
	if err := e.blanks(); err != nil {
		return nil, err
	}
	e.entities()
	if !anchor.IsZero() {
		e.anchor, _ = d.Lookup(anchor)
	}
	e.bfs()
	e.findLists()
	e.labels()
	e.inlineSet()
	e.names()
	e.layout()
	e.decideLabels()
	e.assignIDs()
	return e, nil
}

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
			if !validLang(t.Lang) {
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

// names chooses @vocab, the prefixes and the @term aliases.
func (e *encoder) names() {
	if e.v04 {
		e.names04()
		return
	}
	// @vocab: the namespace of most predicate and class occurrences.
	vc := map[string]int{}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue // written as a (N) cell
		}
		p := e.term(q[1]).Value
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			ns, l := splitNS(e.term(q[2]).Value)
			if isName(l) && !reservedBare(l) {
				vc[ns]++
			}
			continue
		}
		ns, l := splitNS(p)
		if isName(l) && !reservedBare(l) {
			vc[ns]++
		}
	}
	best := 0
	for _, ns := range sortedKeys(vc) {
		if vc[ns] > best {
			best, e.n.vocab = vc[ns], ns
		}
	}
	// Prefixes: namespaces used three or more times outside bare names.
	bareVocab := func(iri string) bool {
		if e.n.vocab == "" || !strings.HasPrefix(iri, e.n.vocab) {
			return false
		}
		l := iri[len(e.n.vocab):]
		return isName(l) && !reservedBare(l)
	}
	uses := map[string]int{}
	add := func(iri string) {
		ns, _ := splitNS(iri)
		if ns != "" {
			uses[ns]++
		}
	}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			// A (N) cell writes only the items: IRIs that are not
			// entities, and datatypes.
			if q[1] == e.typeID || e.term(q[1]).Value != rdf.RDFFirst {
				continue
			}
			switch o := e.term(q[2]); {
			case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
				add(o.Value)
			case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && shortOf(o.Datatype) == "":
				add(o.Datatype)
			}
			continue
		}
		s, p, o, g := e.term(q[0]), e.term(q[1]), e.term(q[2]), e.term(q[3])
		if s.Kind == rdf.IRIKind {
			add(s.Value)
		}
		isType := q[1] == e.typeID && o.Kind == rdf.IRIKind
		if !isType && !bareVocab(p.Value) {
			add(p.Value)
		}
		switch {
		case isType:
			if !bareVocab(o.Value) {
				add(o.Value)
			}
		case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
			add(o.Value)
		case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && shortOf(o.Datatype) == "":
			add(o.Datatype)
		}
		if g.Kind == rdf.IRIKind {
			add(g.Value)
		}
	}
	// DatatypePrefixes: the xsd or rdf namespace of a written datatype is
	// declared whatever its number of uses.
	dtNS := map[string]bool{}
	if e.dtPrefixes {
		for id := 1; id <= e.d.NumTerms(); id++ {
			t := e.term(rdf.TermID(id))
			if t.Kind != rdf.LiteralKind || t.Lang != "" || t.Datatype == rdf.XSDString || shortOf(t.Datatype) != "" {
				continue
			}
			if ns, l := splitNS(t.Datatype); isLocal(l) && (ns == rdf.XSD || ns == rdf.RDFNS) {
				dtNS[ns] = true
			}
		}
	}
	var chosen []string
	for _, ns := range sortedKeys(uses) {
		if (uses[ns] >= 3 || dtNS[ns]) && (e.vocabPrefix || ns != e.n.vocab) {
			chosen = append(chosen, ns)
		}
	}
	taken := func(name string) bool {
		_, ok := e.n.prefixNS[name]
		return ok || reservedPrefix(name) || !isName(name)
	}
	assign := func(name, ns string) {
		e.n.prefixNS[name] = ns
		e.n.nsPrefix[ns] = name
	}
	for _, ns := range chosen {
		for _, wk := range wellKnown {
			if wk[1] == ns && !taken(wk[0]) {
				assign(wk[0], ns)
				break
			}
		}
	}
	for _, ns := range chosen {
		if _, ok := e.n.nsPrefix[ns]; ok {
			continue
		}
		var names []string
		for _, p := range e.d.Prefixes {
			if p.IRI == ns && !taken(p.Name) {
				names = append(names, p.Name)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			assign(names[0], ns)
		}
	}
	k := 1
	for _, ns := range chosen {
		if _, ok := e.n.nsPrefix[ns]; ok {
			continue
		}
		for taken("ns" + strconv.Itoa(k)) {
			k++
		}
		assign("ns"+strconv.Itoa(k), ns)
	}
	if e.termAliases {
		e.aliases()
	}
}

// aliases declares @term names for predicates and classes that have a label
// and are not written bare.
func (e *encoder) aliases() {
	isClass := map[rdf.TermID]bool{}
	terms := map[rdf.TermID]bool{}
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue
		}
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			isClass[q[2]] = true
			terms[q[2]] = true
		} else {
			terms[q[1]] = true
		}
	}
	var list []rdf.TermID
	used := map[string]bool{}
	for id := range terms {
		if l, ok := e.n.bare(e.term(id).Value); ok {
			used[l] = true
			continue
		}
		if e.termLabel(id) != 0 {
			list = append(list, id)
		}
	}
	slices.SortFunc(list, func(a, b rdf.TermID) int { return strings.Compare(e.term(a).Value, e.term(b).Value) })
	for _, id := range list {
		a := camel(e.term(e.termLabel(id)).Value, isClass[id], e.v04 || e.ver == V03)
		if a == "" || reservedBare(a) || used[a] || e.n.prefixNS[a] != "" || reservedPrefix(a) {
			continue
		}
		used[a] = true
		e.n.alias[e.term(id).Value] = a
		e.n.aliasIRI[a] = e.term(id).Value
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
		if l, ok := strings.CutPrefix(iri, ns); ok && isName(l) {
			if eid, ok := e.d.Lookup(rdf.NewIRI("http://www.wikidata.org/entity/" + l)); ok {
				return e.labelVal[eid]
			}
		}
	}
	return 0
}

// classOf returns the column key of a quad's object.
func (e *encoder) classOf(p, o rdf.TermID) gkey {
	t := e.term(o)
	switch {
	case p == e.typeID && t.Kind == rdf.IRIKind:
		return gkey{pred: p, cls: clsType}
	case e.entity[o]:
		return gkey{pred: p, cls: clsLink}
	case t.Kind == rdf.IRIKind:
		return gkey{pred: p, cls: clsIRI}
	case t.Lang != "":
		return gkey{pred: p, cls: clsLang, lang: t.Lang, dir: t.Dir}
	case t.Datatype == rdf.XSDString:
		return gkey{pred: p, cls: clsPlain}
	}
	return gkey{pred: p, cls: clsTyped, dt: t.Datatype}
}

// layout groups the quads of each graph into tables and rows.
func (e *encoder) layout() {
	qs := e.d.IDQuads()
	idx := make([]int, len(qs))
	for i := range idx {
		idx[i] = i
	}
	cmpGraph := func(a, b rdf.TermID) int {
		if a == b {
			return 0
		}
		if a == 0 {
			return -1
		}
		if b == 0 {
			return 1
		}
		return e.cmpNode(a, b)
	}
	if e.graphCol {
		// 0.4 @graph column: one part; a row per entity and graph, in
		// document order, then graph order.
		slices.SortFunc(idx, func(a, b int) int {
			qa, qb := qs[a], qs[b]
			if c := cmp.Compare(e.pos[qa[0]], e.pos[qb[0]]); c != 0 {
				return c
			}
			return cmpGraph(qa[3], qb[3])
		})
		e.parts = []graphPart{e.layoutGraph(0, qs, idx)}
		return
	}
	slices.SortFunc(idx, func(a, b int) int {
		qa, qb := qs[a], qs[b]
		if c := cmpGraph(qa[3], qb[3]); c != 0 {
			return c
		}
		return cmp.Compare(e.pos[qa[0]], e.pos[qb[0]])
	})
	for i := 0; i < len(idx); {
		g := qs[idx[i]][3]
		j := i
		for j < len(idx) && qs[idx[j]][3] == g {
			j++
		}
		e.parts = append(e.parts, e.layoutGraph(g, qs, idx[i:j]))
		i = j
	}
}

func (e *encoder) layoutGraph(g rdf.TermID, qs []rdf.IDQuad, idx []int) graphPart {
	type subj struct {
		id    rdf.TermID
		graph rdf.TermID
		quads []int
	}
	var subs []subj
	for i := 0; i < len(idx); {
		s, sg := qs[idx[i]][0], qs[idx[i]][3]
		j := i
		for j < len(idx) && qs[idx[j]][0] == s && qs[idx[j]][3] == sg {
			j++
		}
		subs = append(subs, subj{s, sg, idx[i:j]})
		i = j
	}
	// Entities per class in this graph.
	classCount := map[rdf.TermID]int{}
	for _, s := range subs {
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				classCount[q[2]]++
			}
		}
	}
	part := graphPart{name: g}
	type kv struct {
		k gkey
		v rdf.TermID
	}
	var kvs []kv // reused for every subject
	tables := map[rdf.TermID]*table{}
	inlineCount := map[rdf.TermID]int{}
	for _, s := range subs {
		if e.listNode[s.id] {
			continue
		}
		main := rdf.TermID(0)
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				c := q[2]
				if main == 0 || classCount[c] > classCount[main] ||
					(classCount[c] == classCount[main] && e.term(c).Value < e.term(main).Value) {
					main = c
				}
			}
		}
		r := &row{ent: s.id, graph: s.graph}
		kvs = kvs[:0]
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && q[2] == main {
				continue
			}
			kvs = append(kvs, kv{e.classOf(q[1], q[2]), q[2]})
		}
		slices.SortFunc(kvs, func(a, b kv) int {
			if c := e.cmpKey(a.k, b.k); c != 0 {
				return c
			}
			return e.cmpVal(a.k.cls, a.v, b.v)
		})
		// One allocation for the groups and one for their values, which
		// are capped sub-slices of it.
		ngroups := 0
		for i := range kvs {
			if i == 0 || kvs[i].k != kvs[i-1].k {
				ngroups++
			}
		}
		if len(kvs) > 0 {
			vals := make([]rdf.TermID, len(kvs))
			for i, x := range kvs {
				vals[i] = x.v
			}
			r.groups = make([]group, 0, ngroups)
			for i := 0; i < len(kvs); {
				j := i
				for j < len(kvs) && kvs[j].k == kvs[i].k {
					j++
				}
				r.groups = append(r.groups, group{key: kvs[i].k, vals: vals[i:j:j]})
				i = j
			}
		}
		if e.inline[s.id] {
			e.inlineRows[s.id] = inlineEnt{row: r, main: main}
			inlineCount[main]++
			continue
		}
		t := tables[main]
		if t == nil {
			t = &table{class: main}
			tables[main] = t
			part.tables = append(part.tables, t)
		}
		t.rows = append(t.rows, r)
	}
	// Inline blank nodes that are not subjects count as Thing_.
	for _, k := range idx {
		if o := qs[k][2]; e.inline[o] {
			if e.inlineRows[o].row == nil {
				e.inlineRows[o] = inlineEnt{row: &row{ent: o}}
				inlineCount[0]++
			}
		}
	}
	for _, t := range part.tables {
		if !e.v04 { // 0.4 counts nested entities in no table header
			t.inlineN = inlineCount[t.class]
		}
	}
	return part
}

func (e *encoder) cmpKey(a, b gkey) int {
	if a.pred != b.pred {
		if c := strings.Compare(e.term(a.pred).Value, e.term(b.pred).Value); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.cls, b.cls); c != 0 {
		return c
	}
	if c := strings.Compare(a.dt, b.dt); c != 0 {
		return c
	}
	if c := strings.Compare(a.lang, b.lang); c != 0 {
		return c
	}
	return strings.Compare(a.dir, b.dir)
}

func (e *encoder) cmpVal(cls uint8, a, b rdf.TermID) int {
	if cls == clsLink {
		return cmp.Compare(e.pos[a], e.pos[b])
	}
	return rdf.Compare(e.term(a), e.term(b))
}

// labelKey is the label column a row's label would use.
func (e *encoder) labelKey(r *row) (gkey, bool) {
	lv := e.labelVal[r.ent]
	if lv == 0 || !e.labelOK[r.ent] {
		return gkey{}, false
	}
	for _, gr := range r.groups {
		for _, v := range gr.vals {
			if v == lv && labelRank(e.term(gr.key.pred).Value) >= 0 {
				return gr.key, true
			}
		}
	}
	return gkey{}, false
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
			base = slugify(e.term(lv).Value)
		}
		if base == "" && e.term(id).Kind == rdf.IRIKind {
			_, local := splitNS(e.term(id).Value)
			base = slugify(local)
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
			_, local := splitNS(e.term(c).Value)
			if s := slugify(local); s != "" {
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
	c := e.n.appendIRICell(nil, iri, ctxCell)
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
		_, local := splitNS(t.Value)
		slug := slugify(local)
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

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' || c >= 0x80 }

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
			case k.cls == clsLink && key.cls == clsIRI:
				key = k
			case k.cls == clsIRI && key.cls == clsLink:
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
