package isolda

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/isolda/internal/naming"
	"github.com/isolda/isolda/rdf"
)

// gkey is a column: a predicate and a value class.
type gkey struct {
	pred rdf.TermID
	cls  uint8
	dt   string // datatype IRI for syntax.ClsTyped
	lang string // language tag as written, for syntax.ClsLang
	dir  string // base direction, for syntax.ClsLang
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
	v02      naming.Quoting // quoting rules of the version
	qLink    naming.Quoting // quoting rules of link values (ids): also '(' and '<' in 0.3
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

	n      *naming.Namer
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
		e.n.Use = e.use
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
	var q naming.Quoting
	if v02 {
		q |= naming.QuoteAt
	}
	if v04 {
		q |= naming.QuoteUnder
	}
	ql := q
	if v03 {
		ql |= naming.QuoteParen
	}
	e := &encoder{d: d, opts: opts, v02: q, qLink: ql, ver: ver, v04: v04, n: naming.NewNamer(q), headers: map[gkey]string{}, use: map[string]bool{},
		prefLang: v02 && !opts.NoPreferredLanguage, rowIDs: v02 && !opts.NoRowLabelIDs,
		termAliases: v02 && !opts.NoTermAliases, vocabPrefix: v02 && !opts.NoVocabPrefix,
		iriIDs: v02 && (v03 || opts.IRIIDs), dtPrefixes: v02 && opts.DatatypePrefixes, lists: v03,
		continuation: opts.Continuation || v03}
	e.n.V04 = v04
	e.n.AngleNS = !v03
	e.graphCol = graphCol && v04
	if v04 {
		e.n.Use = e.use
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
