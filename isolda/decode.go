package isolda

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// Decode reads an ISOLDA document (either version) and returns its dataset.
// Malformed input gives an *rdf.ParseError with the line and column.
func Decode(r io.Reader) (*rdf.Dataset, error) {
	return DecodeWith(r, DecodeOptions{})
}

// DecodeWith is Decode with a file name for errors and limits.
func DecodeWith(r io.Reader, opts DecodeOptions) (*rdf.Dataset, error) {
	dec := &decoder{
		file:     opts.File,
		lim:      opts.Limits.WithDefaults(),
		v02:      true,
		prefixes: map[string]string{},
		aliases:  map[string]string{},
		nodes:    map[string]*node{},
		inlineN:  map[string]int{},
	}
	if err := dec.run(r); err != nil {
		return nil, err
	}
	return dec.build(), nil
}

// Column kinds in the decoder.
const (
	colID    = iota + 100 // "id": the first cell is only the id
	colAtIRI              // "@iri"
	colGraph              // "@graph" (0.4): the graph of the row's quads
)

type colSpec struct {
	kind int // clsLink ... clsTyped, colID, colAtIRI
	pred string
	dt   string
	lang string
	dir  string
	nest *nestSpec // 0.4 nested column: p> Class{a, b}
}

// nestSpec is the nested part of a 0.4 nested column header: the class of
// its entities, their properties by position (an optional @iri first),
// and the properties every one of them has with the same values.
type nestSpec struct {
	class    string
	hasClass bool
	iri      bool
	subs     []colSpec
	consts   []constant
}

type node struct {
	id      string
	iri     string
	hasIRI  bool
	defined bool
	blank   int
}

type pquad struct {
	s    *node
	p    string
	o    rdf.Term
	on   *node
	g    rdf.Term
	gn   *node
	line int
}

type tableRec struct {
	class     string
	want, got int
	line      int
}

type constant struct {
	col  colSpec
	vals []val
}

type decoder struct {
	file string
	lim  rdf.Limits
	v02  bool
	v03  bool // (N) list cells
	v04  bool // 0.4: bare terms with spaces, :x IRIs, predeclared prefixes, nested entities

	vocab    string
	prefixes map[string]string
	aliases  map[string]string
	nodes    map[string]*node
	nblank   int

	quads []pquad

	tables  []tableRec     // tables of the current graph, checked at its end
	inlineN map[string]int // inline entities of the current graph per class ("" = Thing_)

	graph  rdf.Term
	graphN *node
	// The graph of the current @graph section; graph and graphN differ
	// from it while a row with a @graph cell (0.4) is read.
	secGraph  rdf.Term
	secGraphN *node

	// current section
	state    int // 0 top, 1 table, 2 extra, 3 ignored (~in)
	class    string
	hasClass bool
	cols     []colSpec
	consts   []constant
	want     int
	got      int
	headLine int
	block    *node
	blockIRI string // @iri of the current entity of a blocks section
	hasBIRI  bool

	nest []nestFrame // open nested tables (0.4), innermost last

	line int
	text string
}

// nestFrame is an open nested table of a 0.4 document: its rows, at
// indentation indent, are blank nodes that are values of pred of parent.
type nestFrame struct {
	indent int
	h      tableHeader
	got    int
	line   int
	parent *node
	pred   string
	row    *node // the entity of the frame's last row
}

const (
	stTop = iota
	stTable
	stExtra
	stIgnore
	stBlocks
)

func (d *decoder) errAt(off int, format string, args ...any) error {
	if off > len(d.text) {
		off = len(d.text)
	}
	if off < 0 {
		off = 0
	}
	return &rdf.ParseError{File: d.file, Line: d.line, Column: utf8.RuneCountInString(d.text[:off]) + 1,
		Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) run(r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<16)
	maxLine := d.lim.MaxTermLength + 1024
	if d.lim.MaxTermLength < 0 {
		maxLine = -1
	}
	var total int64
	var buf []byte
	for {
		buf = buf[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			buf = append(buf, chunk...)
			if maxLine >= 0 && len(buf) > maxLine {
				d.line++
				d.text = ""
				return d.errAt(0, "line longer than %d bytes (limit exceeded)", maxLine)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(buf) == 0 && err == io.EOF {
			break
		}
		total += int64(len(buf))
		if d.lim.MaxBytes >= 0 && total > d.lim.MaxBytes {
			return &rdf.ParseError{File: d.file, Line: d.line + 1, Msg: "input larger than the size limit (limit exceeded)"}
		}
		d.line++
		s := string(buf)
		s = strings.TrimSuffix(s, "\n")
		s = strings.TrimSuffix(s, "\r")
		d.text = s
		if !utf8.ValidString(s) {
			return d.errAt(0, "invalid UTF-8")
		}
		if e := d.handle(s); e != nil {
			return e
		}
		if err == io.EOF {
			break
		}
	}
	d.text = ""
	if err := d.endSection(); err != nil {
		return err
	}
	return d.endGraph()
}

// endGraph checks the counts of the tables of the graph that ends: rows
// plus inline entities of the class.
func (d *decoder) endGraph() error {
	for _, t := range d.tables {
		if in := d.inlineN[t.class]; t.got+in != t.want {
			msg := fmt.Sprintf("table header declares %d rows but %d follow", t.want, t.got)
			if in > 0 {
				msg = fmt.Sprintf("table header declares %d entities but %d rows and %d inline entities follow", t.want, t.got, in)
			}
			return &rdf.ParseError{File: d.file, Line: t.line, Column: 1, Msg: msg}
		}
	}
	d.tables = d.tables[:0]
	clear(d.inlineN)
	return nil
}

// finishEntity defines the current entity of a blocks section.
func (d *decoder) finishEntity() error {
	if d.state != stBlocks || d.block == nil {
		return nil
	}
	n := d.block
	if n.defined && (n.hasIRI != d.hasBIRI || n.iri != d.blockIRI) {
		return d.errAt(0, "id %q is already used by another entity", n.id)
	}
	n.defined, n.hasIRI, n.iri = true, d.hasBIRI, d.blockIRI
	return nil
}

func (d *decoder) endSection() error {
	if err := d.closeNested(0); err != nil {
		return err
	}
	d.graph, d.graphN = d.secGraph, d.secGraphN
	if err := d.finishEntity(); err != nil {
		return err
	}
	if d.state == stTable || d.state == stBlocks {
		class := ""
		if d.hasClass {
			class = d.class
		}
		d.tables = append(d.tables, tableRec{class, d.want, d.got, d.headLine})
	}
	d.state = stTop
	d.block = nil
	return nil
}

func (d *decoder) handle(s string) error {
	if strings.TrimRight(s, " \t") == "" {
		return nil
	}
	switch s[0] {
	case '#':
		if d.line == 1 {
			for _, v := range []string{V01, V03, V04} {
				if strings.HasPrefix(s, "# ISOLDA "+v) {
					d.setVersion(v)
				}
			}
		}
		return nil
	case '@':
		if err := d.endSection(); err != nil {
			return err
		}
		return d.directive(s)
	case '~':
		if err := d.endSection(); err != nil {
			return err
		}
		switch strings.TrimRight(s, " ") {
		case "~extra:":
			d.state = stExtra
		case "~in:":
			d.state = stIgnore
		default:
			return d.errAt(0, "expected ~extra: or ~in:")
		}
		return nil
	case ' ':
		return d.indented(s)
	}
	if err := d.endSection(); err != nil {
		return err
	}
	return d.sectionHeader(s)
}

// setVersion sets the notation version v (false if v is none). 0.4
// predeclares the well-known prefixes.
func (d *decoder) setVersion(v string) bool {
	switch v {
	case V01:
		d.v02, d.v03, d.v04 = false, false, false
	case V02:
		d.v02, d.v03, d.v04 = true, false, false
	case V03:
		d.v02, d.v03, d.v04 = true, true, false
	case V04:
		d.v02, d.v03, d.v04 = true, true, true
		for _, p := range wellKnown04 {
			if _, ok := d.prefixes[p[0]]; !ok {
				d.prefixes[p[0]] = p[1]
			}
		}
	default:
		return false
	}
	return true
}

func (d *decoder) directive(s string) error {
	word, rest, _ := strings.Cut(s, " ")
	off := len(word) + 1
	switch word {
	case "@vocab":
		v, err := d.wholeText(rest, off)
		if err != nil {
			return err
		}
		d.vocab = v
	case "@prefix":
		n := scanName(rest)
		if n == 0 || n >= len(rest) || rest[n] != ':' {
			return d.errAt(off, "expected a prefix name followed by ':'")
		}
		name := rest[:n]
		v, err := d.wholeText(strings.TrimLeft(rest[n+1:], " "), off+n+1+(len(rest[n+1:])-len(strings.TrimLeft(rest[n+1:], " "))))
		if err != nil {
			return err
		}
		d.prefixes[name] = v
	case "@term":
		name, val, ok := strings.Cut(rest, " = ")
		if !ok || !isName(name) {
			return d.errAt(off, "expected @term name = term")
		}
		iri, n, err := d.parseTerm(val, off+len(name)+3)
		if err != nil {
			return err
		}
		if n != len(val) {
			return d.errAt(off+len(name)+3+n, "expected end of line after the term")
		}
		d.aliases[name] = iri
	case "@types":
		// Redundant with the tables: ignored.
	case "@isolda":
		if !d.setVersion(rest) {
			return d.errAt(off, "expected @isolda 0.1, 0.2, 0.3 or 0.4")
		}
	case "@graph":
		if err := d.endGraph(); err != nil {
			return err
		}
		if strings.HasPrefix(rest, "_:") {
			id, err := d.wholeText(rest[2:], off+2)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.Term{}, d.ref(id)
			d.secGraph, d.secGraphN = d.graph, d.graphN
		} else {
			v, quoted, err := d.oneValue(rest, off)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.NewIRI(d.expandIRI(v, quoted)), nil
			d.secGraph, d.secGraphN = d.graph, d.graphN
		}
	default:
		return d.errAt(0, "expected a directive: @vocab, @prefix, @term, @types, @graph or @isolda")
	}
	return nil
}

// wholeText reads a whole value (quoted or not) that must fill the rest.
func (d *decoder) wholeText(s string, off int) (string, error) {
	v, _, err := d.oneValue(s, off)
	return v, err
}

// oneValue parses a single value (quoted or not) that fills s.
func (d *decoder) oneValue(s string, off int) (string, bool, error) {
	if s == "" {
		return "", false, d.errAt(off, "expected a value")
	}
	if s[0] == '"' {
		v, n, msg := unquote(s)
		if msg != "" {
			return "", false, d.errAt(off+n, "%s", msg)
		}
		if n != len(s) {
			return "", false, d.errAt(off+n, "expected end of value after the closing quote")
		}
		return v, true, nil
	}
	return s, false, nil
}

func (d *decoder) ref(id string) *node {
	n := d.nodes[id]
	if n == nil {
		n = &node{id: id}
		d.nodes[id] = n
	}
	return n
}

// expandIRI turns an IRI cell into an IRI.
func (d *decoder) expandIRI(v string, quoted bool) string {
	if quoted {
		return v
	}
	if d.v04 && strings.HasPrefix(v, ":") {
		return d.vocab + v[1:]
	}
	if i := strings.IndexByte(v, ':'); i > 0 {
		if ns, ok := d.prefixes[v[:i]]; ok {
			return ns + v[i+1:]
		}
	}
	return v
}

// angle reads <...> at the start of s (s[0] == '<') as scanAngle does; in
// 0.1 and 0.2 a declared prefix name followed by ':' at its start is
// expanded, <ex:member%20of> (SPEC.md section 4, rule 4). The encoder writes
// that ':' as \u003a in an IRI that only looks like one.
func (d *decoder) angle(s string) (string, int, string) {
	iri, n, msg := scanAngle(s)
	if msg != "" || d.v03 {
		return iri, n, msg
	}
	if m := scanName(s[1:]); m > 0 && 1+m < len(s) && s[1+m] == ':' {
		if ns, ok := d.prefixes[s[1:1+m]]; ok {
			return ns + iri[m+1:], n, ""
		}
	}
	return iri, n, ""
}

// parseTerm reads a term at the start of s: <iri>, pfx:local, alias or
// vocab name. It returns the IRI and the bytes consumed.
func (d *decoder) parseTerm(s string, off int) (string, int, error) {
	if s == "" {
		return "", 0, d.errAt(off, "expected a term")
	}
	if s[0] == '<' {
		iri, n, msg := d.angle(s)
		if msg != "" {
			return "", 0, d.errAt(off+n, "%s", msg)
		}
		return iri, n, nil
	}
	n := scanName(s)
	if n == 0 && d.v04 {
		n = scanTerm04(s)
	}
	if n == 0 {
		return "", 0, d.errAt(off, "expected a term: a name, pfx:local or <IRI>")
	}
	name := s[:n]
	if ns, ok := d.prefixes[name]; ok && n < len(s) && s[n] == ':' {
		l := scanLocal(s[n+1:])
		if l > 0 {
			return ns + s[n+1:n+1+l], n + 1 + l, nil
		}
	}
	if d.v04 {
		// 0.4 bare terms: words separated by single spaces (%20).
		n = scanTerm04(s)
		name = s[:n]
	}
	if iri, ok := d.aliases[name]; ok {
		return iri, n, nil
	}
	if d.vocab == "" {
		return "", 0, d.errAt(off, "name %q used without @vocab", name)
	}
	if d.v04 {
		return d.vocab + strings.ReplaceAll(name, " ", "%20"), n, nil
	}
	return d.vocab + name, n, nil
}

// parseSpec reads a column spec: id, @iri, a, or a term with its suffix.
func (d *decoder) parseSpec(s string, off int) (colSpec, int, error) {
	delim := func(i int) bool { return i >= len(s) || strings.IndexByte(",}= :", s[i]) >= 0 }
	switch {
	case d.v04 && strings.HasPrefix(s, "@graph") && delim(6):
		return colSpec{kind: colGraph}, 6, nil
	case strings.HasPrefix(s, "@iri") && delim(4):
		return colSpec{kind: colAtIRI}, 4, nil
	case strings.HasPrefix(s, "id") && delim(2) && (len(s) == 2 || s[2] != ':'):
		return colSpec{kind: colID}, 2, nil
	case strings.HasPrefix(s, "a") && delim(1):
		return colSpec{kind: clsType, pred: rdf.RDFType}, 1, nil
	}
	iri, n, err := d.parseTerm(s, off)
	if err != nil {
		return colSpec{}, 0, err
	}
	c, m, err := d.parseSuffix(colSpec{kind: clsPlain, pred: iri}, s[n:], off+n)
	return c, n + m, err
}

// parseSuffix reads the value-class suffix at the start of s (>, @lang,
// :iri, :datatype) and returns the column and the bytes consumed (0 when
// there is none, or for the ": " of a block key).
func (d *decoder) parseSuffix(c colSpec, s string, off int) (colSpec, int, error) {
	n := 0
	if len(s) == 0 {
		return c, 0, nil
	}
	switch s[n] {
	case '>':
		c.kind = clsLink
		n++
	case '@':
		j := n + 1
		for j < len(s) && (s[j] == '-' || isNameChar(s[j])) && s[j] != '_' {
			j++
		}
		tag := s[n+1 : j]
		if tag == "" && d.v04 {
			c.kind = clsLangAny // p@: each value carries its language
			n = j
			break
		}
		if l, dir, ok := strings.Cut(tag, "--"); ok {
			if dir != "ltr" && dir != "rtl" {
				return c, 0, d.errAt(off+n, "expected --ltr or --rtl after the language tag")
			}
			tag, c.dir = l, dir
		}
		if !validLang(tag) {
			return c, 0, d.errAt(off+n+1, "expected a language tag after '@'")
		}
		c.kind, c.lang = clsLang, tag
		n = j
	case ':':
		rest := s[n+1:]
		if rest == "" || rest[0] == ' ' {
			return c, n, nil // a block key "p: value"
		}
		if strings.HasPrefix(rest, "iri") && (len(rest) == 3 || strings.IndexByte(",}=: )", rest[3]) >= 0) {
			c.kind = clsIRI
			return c, n + 4, nil
		}
		if rest[0] == '<' {
			dt, m, msg := d.angle(rest)
			if msg != "" {
				return c, 0, d.errAt(off+n+1+m, "%s", msg)
			}
			c.kind, c.dt = clsTyped, dt
			return c, n + 1 + m, nil
		}
		m := scanName(rest)
		if m == 0 {
			return c, 0, d.errAt(off+n+1, "expected a datatype after ':' (int, date, pfx:local, <IRI>) or iri")
		}
		name := rest[:m]
		if ns, ok := d.prefixes[name]; ok && m < len(rest) && rest[m] == ':' {
			if l := scanLocal(rest[m+1:]); l > 0 {
				c.kind, c.dt = clsTyped, ns+rest[m+1:m+1+l]
				return c, n + 1 + m + 1 + l, nil
			}
		}
		if dt := shortIRI(name); dt != "" {
			c.kind, c.dt = clsTyped, dt
			return c, n + 1 + m, nil
		}
		return c, 0, d.errAt(off+n+1, "unknown datatype %q: expected int, decimal, double, bool, date, dateTime, pfx:local or <IRI>", name)
	}
	return c, n, nil
}

// splitTop splits s at unquoted occurrences of sep; it returns the parts and
// their offsets, with ASCII spaces trimmed.
func (d *decoder) splitTop(s string, off int, sep byte) ([]string, []int, error) {
	var parts []string
	var offs []int
	start, depth := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '"':
				_, n, msg := unquote(s[i:])
				if msg != "" {
					return nil, nil, d.errAt(off+i+n, "%s", msg)
				}
				i += n - 1
				continue
			case '{':
				depth++
				if d.lim.MaxDepth >= 0 && depth > d.lim.MaxDepth {
					return nil, nil, d.errAt(off+i, "inline entities nested deeper than %d (limit exceeded)", d.lim.MaxDepth)
				}
				continue
			case '}':
				depth--
				if depth < 0 {
					return nil, nil, d.errAt(off+i, "'}' without '{'")
				}
				continue
			}
			if depth > 0 {
				continue
			}
		} else if depth > 0 {
			return nil, nil, d.errAt(off+i, "expected '}' to close an inline entity")
		}
		if i == len(s) || s[i] == sep {
			p := s[start:i]
			lead := len(p) - len(strings.TrimLeft(p, " "))
			parts = append(parts, strings.Trim(p, " "))
			offs = append(offs, off+start+lead)
			start = i + 1
		}
	}
	return parts, offs, nil
}

type val struct {
	lang   string // language tag and direction of a p@ value (0.4)
	dir    string
	text   string
	quoted bool
	inline bool // {p: v, ...}
	off    int
	list   *listVal // (N) a | b (0.3)
	angle  bool     // <IRI> item of a list of entities: an IRI, not an id
}

// listVal is a (N) cell: its items and their value class.
type listVal struct {
	col   colSpec
	items []val
}

// splitMulti splits a cell "[N] a | b" into its N values (and their
// offsets), checking the count.
func (d *decoder) splitMulti(s string, off int) ([]string, []int, error) {
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return nil, nil, d.errAt(off, "expected [N] followed by N values")
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil || n < 1 || s[1] == '+' || s[1] == '-' {
		return nil, nil, d.errAt(off+1, "expected a count in [N]")
	}
	if end+1 >= len(s) || s[end+1] != ' ' {
		return nil, nil, d.errAt(off+end+1, "expected a space after [N]")
	}
	parts, offs, err := d.splitTop(s[end+2:], off+end+2, '|')
	if err != nil {
		return nil, nil, err
	}
	if len(parts) != n {
		return nil, nil, d.errAt(off, "[%d] announces %d values but %d follow", n, n, len(parts))
	}
	return parts, offs, nil
}

// parseCell parses a cell: empty, one value, [N] a | b, or (in a link
// column of a 0.3 document) an RDF list (N) a | b.
func (d *decoder) parseCell(s string, off int, link bool) ([]val, error) {
	if s == "" {
		return nil, nil
	}
	if s[0] == '[' {
		parts, offs, err := d.splitMulti(s, off)
		if err != nil {
			return nil, err
		}
		out := make([]val, len(parts))
		for i, p := range parts {
			if p == "" {
				return nil, d.errAt(offs[i], "expected a value in the list")
			}
			if p[0] == '{' || d.inline04(p, link) {
				out[i] = val{text: p, inline: true, off: offs[i]}
				continue
			}
			if p[0] == '(' && d.v03 && link {
				return nil, d.errAt(offs[i], "a list (N) cannot be one of several values")
			}
			v, q, err := d.oneValue(p, offs[i])
			if err != nil {
				return nil, err
			}
			out[i] = val{text: v, quoted: q, off: offs[i]}
		}
		return out, nil
	}
	if s[0] == '{' || d.inline04(s, link) {
		return []val{{text: s, inline: true, off: off}}, nil
	}
	if s[0] == '(' && d.v03 && link {
		lv, err := d.parseList(s, off)
		if err != nil {
			return nil, err
		}
		return []val{{list: lv, off: off}}, nil
	}
	v, q, err := d.oneValue(s, off)
	if err != nil {
		return nil, err
	}
	return []val{{text: v, quoted: q, off: off}}, nil
}

// parseList parses a (N) cell: "(" count [class] ")" then N items
// separated by " | ", where class is :iri, :datatype or @lang (no class:
// the items are entity ids).
func (d *decoder) parseList(s string, off int) (*listVal, error) {
	j := 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(s[1:j])
	if err != nil || n < 1 {
		return nil, d.errAt(off+1, "expected a count in (N)")
	}
	lv := &listVal{col: colSpec{kind: clsLink, pred: rdf.RDFFirst}}
	if strings.HasPrefix(s[j:], ":string)") {
		lv.col = colSpec{kind: clsPlain, pred: rdf.RDFFirst}
		j += len(":string")
	} else if j < len(s) && s[j] != ')' {
		c, m, err := d.parseSuffix(colSpec{kind: clsPlain, pred: rdf.RDFFirst}, s[j:], off+j)
		if err != nil {
			return nil, err
		}
		if m == 0 || c.kind == clsLink {
			return nil, d.errAt(off+j, "expected ':iri', ':datatype' or '@lang' after the count of a list")
		}
		lv.col = c
		j += m
	}
	if j >= len(s) || s[j] != ')' {
		return nil, d.errAt(off+j, "expected ')' after the count of a list")
	}
	if j+1 >= len(s) || s[j+1] != ' ' {
		return nil, d.errAt(off+j+1, "expected a space after (N)")
	}
	parts, offs, err := d.splitTop(s[j+2:], off+j+2, '|')
	if err != nil {
		return nil, err
	}
	if len(parts) != n {
		return nil, d.errAt(off, "(%d) announces %d items but %d follow", n, n, len(parts))
	}
	for i, p := range parts {
		if p == "" {
			return nil, d.errAt(offs[i], "expected an item in the list")
		}
		if p[0] == '{' || d.inline04(p, lv.col.kind == clsLink) {
			if !d.v04 || lv.col.kind != clsLink {
				return nil, d.errAt(offs[i], "a list item is an id or a value, not an inline entity")
			}
			lv.items = append(lv.items, val{text: p, inline: true, off: offs[i]})
			continue
		}
		if p[0] == '<' && lv.col.kind == clsLink {
			iri, m, msg := scanAngle(p)
			if msg != "" {
				return nil, d.errAt(offs[i]+m, "%s", msg)
			}
			if m != len(p) {
				return nil, d.errAt(offs[i]+m, "expected ' | ' or the end of the list after <IRI>")
			}
			lv.items = append(lv.items, val{text: iri, off: offs[i], angle: true})
			continue
		}
		v, q, err := d.oneValue(p, offs[i])
		if err != nil {
			return nil, err
		}
		lv.items = append(lv.items, val{text: v, quoted: q, off: offs[i]})
	}
	return lv, nil
}

// addList adds the nodes of a list and returns its head.
func (d *decoder) addList(lv *listVal) (*node, error) {
	nodes := make([]*node, len(lv.items))
	for i := range nodes {
		nodes[i] = &node{defined: true}
	}
	for i, it := range lv.items {
		if err := d.addValues(nodes[i], lv.col, []val{it}); err != nil {
			return nil, err
		}
		q := pquad{s: nodes[i], p: rdf.RDFRest, o: rdf.NewIRI(rdf.RDFNil)}
		if i+1 < len(nodes) {
			q.on = nodes[i+1]
		}
		if err := d.addQuad(q); err != nil {
			return nil, err
		}
	}
	return nodes[0], nil
}

// inlineEntity decodes {p: v, q> w} as a new blank node and counts it for
// its class (its first a value, else Thing_).
func (d *decoder) inlineEntity(text string, off int) (*node, error) {
	n := &node{defined: true}
	if d.v04 && text[0] != '{' {
		// 0.4: the main class before the brace.
		iri, m, err := d.parseTerm(text, off)
		if err != nil {
			return nil, err
		}
		if m >= len(text) || text[m] != '{' {
			return nil, d.errAt(off+m, "expected '{' after the class of a nested entity")
		}
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(iri)}); err != nil {
			return nil, err
		}
		text, off = text[m:], off+m
	}
	if len(text) < 2 || text[len(text)-1] != '}' {
		return nil, d.errAt(off, "expected '}' at the end of the inline entity")
	}
	inner := text[1 : len(text)-1]
	class := ""
	if strings.Trim(inner, " ") != "" {
		props, offs, err := d.splitTop(inner, off+1, ',')
		if err != nil {
			return nil, err
		}
		for i, p := range props {
			if v, ok := strings.CutPrefix(p, "@iri: "); ok && d.v04 && i == 0 {
				// 0.4: a nested IRI entity.
				iri, q, err := d.oneValue(v, offs[i]+6)
				if err != nil {
					return nil, err
				}
				n.hasIRI, n.iri = true, d.expandIRI(iri, q)
				continue
			}
			c, m, err := d.parseSpec(p, offs[i])
			if err != nil {
				return nil, err
			}
			if c.kind == colID || c.kind == colAtIRI {
				return nil, d.errAt(offs[i], "id and @iri cannot be properties of an inline entity")
			}
			rest := p[m:]
			if c.kind == clsLink {
				if !strings.HasPrefix(rest, " ") {
					return nil, d.errAt(offs[i]+m, "expected a space after '>'")
				}
				rest, m = rest[1:], m+1
			} else {
				if !strings.HasPrefix(rest, ": ") {
					return nil, d.errAt(offs[i]+m, "expected ': ' after the property")
				}
				rest, m = rest[2:], m+2
			}
			if rest == "" {
				return nil, d.errAt(offs[i]+m, "expected a value")
			}
			vals, err := d.cell(rest, offs[i]+m, c)
			if err != nil {
				return nil, err
			}
			if err := d.addValues(n, c, vals); err != nil {
				return nil, err
			}
			if c.kind == clsType && class == "" && len(vals) > 0 {
				// addValues appended the type quads last: the first is the main class.
				class = d.quads[len(d.quads)-len(vals)].o.Value
			}
		}
	}
	if !d.v04 { // 0.4 counts nested entities in no table header
		d.inlineN[class]++
	}
	return n, nil
}

// inline04 reports whether a cell value of a 0.4 link column is a nested
// entity written Class{...}: a bare id never holds a brace.
func (d *decoder) inline04(s string, link bool) bool {
	if !d.v04 || !link || s == "" || s[0] == '"' || s[0] == '(' {
		return false
	}
	if s[0] == '<' {
		// <IRI>{...}: a class written in angle brackets.
		_, n, msg := scanAngle(s)
		return msg == "" && n < len(s) && s[n] == '{'
	}
	return strings.IndexByte(s, '{') > 0
}

func (d *decoder) addQuad(q pquad) error {
	q.g, q.gn, q.line = d.graph, d.graphN, d.line
	if d.lim.MaxQuads >= 0 && int64(len(d.quads)) >= d.lim.MaxQuads {
		return d.errAt(0, "more quads than the limit (limit exceeded)")
	}
	d.quads = append(d.quads, q)
	return nil
}

// addValues adds the triples of one cell.
func (d *decoder) addValues(s *node, c colSpec, vals []val) error {
	for _, v := range vals {
		q := pquad{s: s, p: c.pred}
		switch c.kind {
		case clsLink:
			if v.list != nil {
				n, err := d.addList(v.list)
				if err != nil {
					return err
				}
				q.on = n
			} else if v.angle {
				q.o = rdf.NewIRI(v.text)
			} else if v.inline {
				inline := d.inlineEntity
				if c.nest != nil {
					inline = func(text string, off int) (*node, error) { return d.nestCell(c.nest, text, off) }
				}
				n, err := inline(v.text, v.off)
				if err != nil {
					return err
				}
				q.on = n
			} else {
				q.on = d.ref(v.text)
			}
		case clsIRI:
			q.o = rdf.NewIRI(d.expandIRI(v.text, v.quoted))
		case clsType:
			if v.quoted || v.inline {
				return d.errAt(v.off, "expected a class name")
			}
			iri, n, err := d.parseTerm(v.text, v.off)
			if err != nil {
				return err
			}
			if n != len(v.text) {
				return d.errAt(v.off+n, "expected the end of the class name")
			}
			q.o = rdf.NewIRI(iri)
		case clsPlain:
			q.o = rdf.NewString(v.text)
		case clsLang:
			q.o = rdf.NewLangString(v.text, c.lang)
			if c.dir != "" {
				q.o.Dir = c.dir
				q.o.Datatype = rdf.RDFDirLangString
			}
		case clsLangAny:
			q.o = rdf.NewLangString(v.text, v.lang)
			if v.dir != "" {
				q.o.Dir = v.dir
				q.o.Datatype = rdf.RDFDirLangString
			}
		case clsTyped:
			q.o = rdf.NewLiteral(v.text, c.dt)
		default:
			return d.errAt(v.off, "this column cannot hold values here")
		}
		if v.inline && c.kind != clsLink {
			return d.errAt(v.off, "an inline entity can only be the value of a link (p>)")
		}
		if v.list != nil && c.kind != clsLink {
			return d.errAt(v.off, "a list (N) can only be the value of a link (p>)")
		}
		if err := d.addQuad(q); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) sectionHeader(s string) error {
	if !strings.HasSuffix(s, ":") {
		return d.errAt(len(s), "expected ':' at the end of the table header")
	}
	s = s[:len(s)-1]
	d.text = d.text[:len(s)]
	h, err := d.parseHeader(s, 0, false)
	if err != nil {
		return err
	}
	d.class, d.hasClass = h.class, h.hasClass
	if h.blocks {
		d.state, d.want, d.got, d.headLine, d.block = stBlocks, h.want, 0, d.line, nil
		return nil
	}
	d.cols = append(d.cols[:0], h.cols...)
	d.consts = append(d.consts[:0], h.consts...)
	d.state, d.want, d.got, d.headLine, d.block = stTable, h.want, 0, d.line, nil
	return nil
}

// tableHeader is a parsed table header: Type[N]{columns} constants.
type tableHeader struct {
	class    string
	hasClass bool
	want     int
	blocks   bool // Type[N] without columns: a blocks section
	cols     []colSpec
	consts   []constant
}

// parseHeader parses a table header without its final ':'; base is the
// offset of s in the line. A nested table (0.4) has no id column: its
// first column is a property.
func (d *decoder) parseHeader(s string, base int, nested bool) (tableHeader, error) {
	var h tableHeader
	pos := 0
	if strings.HasPrefix(s, "Thing_[") {
		pos = len("Thing_")
	} else {
		iri, n, err := d.parseTerm(s, base)
		if err != nil {
			return h, err
		}
		h.class, h.hasClass = iri, true
		pos = n
	}
	if pos >= len(s) || s[pos] != '[' {
		return h, d.errAt(base+pos, "expected [N] after the type")
	}
	end := strings.IndexByte(s[pos:], ']')
	if end < 0 {
		return h, d.errAt(base+pos, "expected ']'")
	}
	n, err := strconv.Atoi(s[pos+1 : pos+end])
	if err != nil || n < 0 || s[pos+1] == '+' || s[pos+1] == '-' {
		return h, d.errAt(base+pos+1, "expected the number of rows in [N]")
	}
	h.want = n
	pos += end + 1
	if pos == len(s) && !nested {
		h.blocks = true
		return h, nil
	}
	if pos >= len(s) || s[pos] != '{' {
		return h, d.errAt(base+pos, "expected '{' and the columns")
	}
	pos++
	for !(nested && pos < len(s) && s[pos] == '}' && len(h.cols) == 0) {
		c, m, err := d.parseSpec(s[pos:], base+pos)
		if err != nil {
			return h, err
		}
		if c.kind == clsLink && d.v04 && strings.HasPrefix(s[pos+m:], " ") {
			// A nested column: p> Class{a, b}.
			ns, k, err := d.parseNestSpec(s[pos+m+1:], base+pos+m+1)
			if err != nil {
				return h, err
			}
			c.nest = ns
			m += 1 + k
		}
		switch {
		case nested && (c.kind == colID || c.kind == colGraph):
			return h, d.errAt(base+pos, "a nested table has no id or @graph column")
		case nested && c.kind == colAtIRI && len(h.cols) > 0:
			return h, d.errAt(base+pos, "@iri can only be the first column of a nested table")
		case c.kind == colGraph && (len(h.cols) == 0 || slices.ContainsFunc(h.cols, func(x colSpec) bool { return x.kind == colGraph })):
			return h, d.errAt(base+pos, "@graph is a column after the first, once")
		case len(h.cols) == 0 && !nested:
			if c.kind != colID && c.kind != colAtIRI && c.kind != clsPlain && c.kind != clsLang {
				return h, d.errAt(base+pos, "expected id, @iri or a label column as the first column")
			}
		case c.kind == colID:
			return h, d.errAt(base+pos, "id can only be the first column")
		case c.kind == colAtIRI && len(h.cols) > 0 && h.cols[0].kind == colAtIRI:
			return h, d.errAt(base+pos, "@iri is already the first column")
		}
		h.cols = append(h.cols, c)
		pos += m
		if pos < len(s) && s[pos] == '}' {
			break
		}
		if !strings.HasPrefix(s[pos:], ", ") {
			return h, d.errAt(base+pos, "expected ', ' or '}' in the column list")
		}
		pos += 2
	}
	pos++
	if pos < len(s) {
		if s[pos] != ' ' {
			return h, d.errAt(base+pos, "expected ':' or constants after '}'")
		}
		pos++
		parts, offs, err := d.splitTop(s[pos:], base+pos, ',')
		if err != nil {
			return h, err
		}
		for i, p := range parts {
			c, m, err := d.parseSpec(p, offs[i])
			if err != nil {
				return h, err
			}
			if c.kind == colID || c.kind == colAtIRI || c.kind == colGraph {
				return h, d.errAt(offs[i], "id, @iri and @graph cannot be constants")
			}
			if m >= len(p) || p[m] != '=' {
				return h, d.errAt(offs[i]+m, "expected '=' after the constant's property")
			}
			vals, err := d.cell(p[m+1:], offs[i]+m+1, c)
			if err != nil {
				return h, err
			}
			if len(vals) == 0 {
				return h, d.errAt(offs[i]+m+1, "expected a constant value")
			}
			h.consts = append(h.consts, constant{c, vals})
		}
	}
	return h, nil
}

func (d *decoder) indented(s string) error {
	switch d.state {
	case stIgnore:
		return nil
	case stTable:
		if d.v04 {
			return d.indented04(s)
		}
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected a table row before its continuation lines")
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) < 3 || s[1] != ' ' || s[2] == ' ' {
			return d.errAt(0, "expected a table row indented by two spaces")
		}
		return d.tableRow(s[2:], 2)
	case stBlocks:
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected an entity id line before its properties")
			}
			if v, ok := strings.CutPrefix(s[4:], "@iri: "); ok {
				if d.hasBIRI {
					return d.errAt(4, "a second @iri for the same entity")
				}
				iri, q, err := d.oneValue(v, 10)
				if err != nil {
					return err
				}
				d.blockIRI, d.hasBIRI = d.expandIRI(iri, q), true
				return nil
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) >= 3 && s[1] == ' ' && s[2] != ' ' {
			if err := d.finishEntity(); err != nil {
				return err
			}
			if !strings.HasSuffix(s, ":") {
				return d.errAt(len(s), "expected ':' after the entity id")
			}
			if d.got >= d.want {
				return d.errAt(2, "more entities than the %d the section header declares", d.want)
			}
			d.got++
			id, err := d.wholeText(s[2:len(s)-1], 2)
			if err != nil {
				return err
			}
			d.block, d.blockIRI, d.hasBIRI = d.ref(id), "", false
			if d.hasClass {
				return d.addQuad(pquad{s: d.block, p: rdf.RDFType, o: rdf.NewIRI(d.class)})
			}
			return nil
		}
		return d.errAt(0, "expected an entity id (two spaces) or a property (four spaces)")
	case stExtra:
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected an entity id line before its properties")
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) >= 3 && s[1] == ' ' && s[2] != ' ' {
			if !strings.HasSuffix(s, ":") {
				return d.errAt(len(s), "expected ':' after the entity id")
			}
			id, err := d.wholeText(s[2:len(s)-1], 2)
			if err != nil {
				return err
			}
			d.block = d.ref(id)
			return nil
		}
		return d.errAt(0, "expected an entity id (two spaces) or a property (four spaces)")
	}
	return d.errAt(0, "unexpected indented line outside a table or ~extra")
}

func (d *decoder) blockProp(s string, off int) error {
	c, m, err := d.parseSpec(s, off)
	if err != nil {
		return err
	}
	if c.kind == colID || c.kind == colAtIRI {
		return d.errAt(off, "id and @iri cannot be block properties")
	}
	rest := s[m:]
	if c.kind == clsLink {
		if !strings.HasPrefix(rest, " ") {
			return d.errAt(off+m, "expected a space after '>'")
		}
		rest = rest[1:]
		m++
	} else {
		if !strings.HasPrefix(rest, ": ") {
			return d.errAt(off+m, "expected ': ' after the property")
		}
		rest = rest[2:]
		m += 2
	}
	if rest == "" {
		return d.errAt(off+m, "expected a value")
	}
	vals, err := d.cell(rest, off+m, c)
	if err != nil {
		return err
	}
	return d.addValues(d.block, c, vals)
}

func (d *decoder) tableRow(s string, off int) error {
	if d.got >= d.want {
		return d.errAt(off, "more rows than the %d the table header declares", d.want)
	}
	d.got++
	cells, offs, err := d.splitTop(s, off, ',')
	if err != nil {
		return err
	}
	if len(cells) != len(d.cols) {
		return d.errAt(off, "expected %d cells, found %d", len(d.cols), len(cells))
	}
	if err := d.rowGraph(cells, offs); err != nil {
		return err
	}
	// First cell: the id, maybe also the label.
	first, fo := cells[0], offs[0]
	if (first == "" || first == "_") && d.v04 && d.cols[0].kind != colAtIRI {
		return d.anonRow(cells, offs)
	}
	if first == "" {
		return d.errAt(fo, "expected the entity id in the first cell")
	}
	var id string
	labelled := false
	lc := d.cols[0]
	if lc.kind == colAtIRI {
		// 0.3 (IRIIDs): the id is the IRI as written in the cell.
		if first[0] == '[' {
			return d.errAt(fo, "expected one IRI in the first cell, not a list")
		}
		id, err = d.wholeText(first, fo)
	} else if lc.kind != colID && d.v02 && first[0] == '@' {
		id, err = d.wholeText(first[1:], fo+1)
	} else {
		if first[0] == '[' {
			return d.errAt(fo, "expected one id in the first cell, not a list")
		}
		id, err = d.wholeText(first, fo)
		labelled = lc.kind != colID
	}
	if err != nil {
		return err
	}
	n := d.ref(id)
	// @iri
	iri, hasIRI := "", false
	for i, c := range d.cols {
		if c.kind == colAtIRI && cells[i] != "" {
			v, q, err := d.oneValue(cells[i], offs[i])
			if err != nil {
				return err
			}
			iri, hasIRI = d.expandIRI(v, q), true
		}
	}
	if n.defined {
		if n.hasIRI != hasIRI || n.iri != iri {
			return d.errAt(fo, "id %q is already used by another entity", id)
		}
	}
	n.defined, n.hasIRI, n.iri = true, hasIRI, iri
	d.block = n
	if labelled {
		if err := d.addValues(n, lc, []val{{text: id, off: fo}}); err != nil {
			return err
		}
	}
	if d.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(d.class)}); err != nil {
			return err
		}
	}
	for i := 1; i < len(d.cols); i++ {
		if d.cols[i].kind == colAtIRI || d.cols[i].kind == colGraph {
			continue
		}
		vals, err := d.cell(cells[i], offs[i], d.cols[i])
		if err != nil {
			return err
		}
		if err := d.addValues(n, d.cols[i], vals); err != nil {
			return err
		}
	}
	for _, c := range d.consts {
		if err := d.addValues(n, c.col, c.vals); err != nil {
			return err
		}
	}
	return nil
}

// build resolves ids and returns the dataset.
func (d *decoder) build() *rdf.Dataset {
	ds := rdf.NewDataset()
	term := func(n *node) rdf.Term {
		if n.hasIRI {
			return rdf.NewIRI(n.iri)
		}
		if n.blank == 0 {
			d.nblank++
			n.blank = d.nblank
		}
		return rdf.NewBlank("b" + strconv.Itoa(n.blank))
	}
	for _, q := range d.quads {
		o, g := q.o, q.g
		if q.on != nil {
			o = term(q.on)
		}
		if q.gn != nil {
			g = term(q.gn)
		}
		ds.Add(rdf.Quad{S: term(q.s), P: rdf.NewIRI(q.p), O: o, G: g})
	}
	if d.vocab != "" {
		ds.AddPrefix("", d.vocab)
	}
	for _, p := range sortedKeys(d.prefixes) {
		ds.AddPrefix(p, d.prefixes[p])
	}
	return ds
}

// indented04 reads an indented line of a 0.4 table section: a row of the
// table (two spaces), a row of an open nested table, a property line of
// the entity of the row above it, or the header of a nested table (a
// property line whose value is Type[N]{columns}:).
func (d *decoder) indented04(s string) error {
	k := len(s) - len(strings.TrimLeft(s, " "))
	if k%2 != 0 || k == 0 {
		return d.errAt(0, "expected an indentation of an even number of spaces")
	}
	if k == 2 {
		if err := d.closeNested(0); err != nil {
			return err
		}
		return d.tableRow(s[2:], 2)
	}
	if err := d.closeNested(k); err != nil {
		return err
	}
	if len(d.nest) > 0 && d.nest[len(d.nest)-1].indent == k {
		return d.nestedRow(&d.nest[len(d.nest)-1], s[k:], k)
	}
	// A property line of the entity of the row at k-2.
	var ent *node
	switch {
	case k == 4:
		ent = d.block
	case len(d.nest) > 0 && d.nest[len(d.nest)-1].indent == k-2:
		ent = d.nest[len(d.nest)-1].row
	}
	if ent == nil {
		return d.errAt(k, "expected a row before this indented line")
	}
	c, m, err := d.parseSpec(s[k:], k)
	if err != nil {
		return err
	}
	if c.kind == clsLink && strings.HasPrefix(s[k+m:], " ") && strings.HasSuffix(s, ":") && nestedHeader(s[k+m+1:]) {
		h, err := d.parseHeader(s[k+m+1:len(s)-1], k+m+1, true)
		if err != nil {
			return err
		}
		d.nest = append(d.nest, nestFrame{indent: k + 2, h: h, line: d.line, parent: ent, pred: c.pred})
		return nil
	}
	saved := d.block
	d.block = ent
	err = d.blockProp(s[k:], k)
	d.block = saved
	return err
}

// nestedHeader reports whether the value of a link property line is the
// header of a nested table, Type[N]{...: a bare id never holds a brace.
func nestedHeader(v string) bool {
	if v == "" || v[0] == '"' || v[0] == '[' || v[0] == '(' || v[0] == '{' {
		return false
	}
	i := strings.IndexByte(v, '{')
	return i > 0 && v[i-1] == ']' && strings.IndexByte(v[:i], '[') > 0
}

// closeNested closes the nested tables whose rows are indented by more
// than k spaces (all of them for k = 0), checking their row counts.
func (d *decoder) closeNested(k int) error {
	for len(d.nest) > 0 && d.nest[len(d.nest)-1].indent > k {
		f := d.nest[len(d.nest)-1]
		d.nest = d.nest[:len(d.nest)-1]
		if f.got != f.h.want {
			return &rdf.ParseError{File: d.file, Line: f.line, Column: 1,
				Msg: fmt.Sprintf("nested table header declares %d rows but %d follow", f.h.want, f.got)}
		}
	}
	return nil
}

// nestedRow reads a row of a nested table: a new blank node, value of the
// frame's property of its parent.
func (d *decoder) nestedRow(f *nestFrame, s string, off int) error {
	if f.got >= f.h.want {
		return d.errAt(off, "more rows than the %d the nested table header declares", f.h.want)
	}
	f.got++
	cells, offs, err := d.splitTop(s, off, ',')
	if err != nil {
		return err
	}
	if len(cells) != len(f.h.cols) {
		return d.errAt(off, "expected %d cells, found %d", len(f.h.cols), len(cells))
	}
	n := &node{defined: true}
	f.row = n
	if len(f.h.cols) > 0 && f.h.cols[0].kind == colAtIRI && cells[0] != "" {
		v, q, err := d.oneValue(cells[0], offs[0])
		if err != nil {
			return err
		}
		n.hasIRI, n.iri = true, d.expandIRI(v, q)
	}
	if err := d.addQuad(pquad{s: f.parent, p: f.pred, on: n}); err != nil {
		return err
	}
	if f.h.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(f.h.class)}); err != nil {
			return err
		}
	}
	for i, c := range f.h.cols {
		if c.kind == colAtIRI {
			continue
		}
		vals, err := d.cell(cells[i], offs[i], c)
		if err != nil {
			return err
		}
		if err := d.addValues(n, c, vals); err != nil {
			return err
		}
	}
	for _, c := range f.h.consts {
		if err := d.addValues(n, c.col, c.vals); err != nil {
			return err
		}
	}
	return nil
}

// anonRow reads a 0.4 table row whose first cell is empty: a blank node
// that no link points to (and, in a label column, without that label).
func (d *decoder) anonRow(cells []string, offs []int) error {
	n := &node{defined: true}
	d.block = n
	if d.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(d.class)}); err != nil {
			return err
		}
	}
	for i := 1; i < len(d.cols); i++ {
		c := d.cols[i]
		if c.kind == colGraph {
			continue
		}
		if c.kind == colAtIRI {
			if cells[i] != "" {
				return d.errAt(offs[i], "a row with an empty first cell is a blank node: its @iri must be empty")
			}
			continue
		}
		vals, err := d.cell(cells[i], offs[i], c)
		if err != nil {
			return err
		}
		if err := d.addValues(n, c, vals); err != nil {
			return err
		}
	}
	for _, c := range d.consts {
		if err := d.addValues(n, c.col, c.vals); err != nil {
			return err
		}
	}
	return nil
}

// cell parses a cell of column c: a p@ cell (0.4) holds values that each
// end with their language, any other cell is read by parseCell.
func (d *decoder) cell(s string, off int, c colSpec) ([]val, error) {
	if c.nest != nil {
		if s == "" {
			return nil, nil
		}
		if s[0] != '{' || s[len(s)-1] != '}' {
			return nil, d.errAt(off, "expected {values} in a nested column")
		}
		return []val{{text: s, off: off, inline: true}}, nil
	}
	if c.kind != clsLangAny {
		return d.parseCell(s, off, c.kind == clsLink)
	}
	if s == "" {
		return nil, nil
	}
	parts, offs := []string{s}, []int{off}
	if s[0] == '[' {
		var err error
		if parts, offs, err = d.splitMulti(s, off); err != nil {
			return nil, err
		}
	}
	out := make([]val, len(parts))
	for i, p := range parts {
		v, err := d.langValue(p, offs[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// langValue reads text@tag (the tag after the last '@') or "text"@tag,
// with an optional --ltr or --rtl after the tag.
func (d *decoder) langValue(p string, off int) (val, error) {
	var text, rest string
	if strings.HasPrefix(p, `"`) {
		t, n, msg := unquote(p)
		if msg != "" {
			return val{}, d.errAt(off+n, "%s", msg)
		}
		text, rest = t, p[n:]
		if !strings.HasPrefix(rest, "@") {
			return val{}, d.errAt(off+n, "expected @ and a language tag after the quoted value")
		}
		rest = rest[1:]
	} else {
		i := strings.LastIndexByte(p, '@')
		if i <= 0 {
			return val{}, d.errAt(off, "expected a value followed by @ and its language tag")
		}
		text, rest = p[:i], p[i+1:]
	}
	v := val{text: text, off: off}
	tag := rest
	if l, dir, ok := strings.Cut(tag, "--"); ok {
		if dir != "ltr" && dir != "rtl" {
			return val{}, d.errAt(off+len(p)-len(rest), "expected --ltr or --rtl after the language tag")
		}
		tag, v.dir = l, dir
	}
	if !validLang(tag) {
		return val{}, d.errAt(off+len(p)-len(rest), "expected a language tag after '@'")
	}
	v.lang = tag
	return v, nil
}

// rowGraph sets the graph of a row's quads from its @graph cell (0.4): an
// IRI value, _: and the id of a blank node, or empty for the graph of the
// section.
func (d *decoder) rowGraph(cells []string, offs []int) error {
	for i, c := range d.cols {
		if c.kind != colGraph {
			continue
		}
		d.graph, d.graphN = d.secGraph, d.secGraphN
		v := cells[i]
		switch {
		case v == "":
		case strings.HasPrefix(v, "_:"):
			id, err := d.wholeText(v[2:], offs[i]+2)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.Term{}, d.ref(id)
		default:
			iri, quoted, err := d.oneValue(v, offs[i])
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.NewIRI(d.expandIRI(iri, quoted)), nil
		}
	}
	return nil
}

// parseNestSpec parses the nested part of a column header, " Class{a, b=v}"
// without its leading space, and returns it and the bytes consumed.
func (d *decoder) parseNestSpec(s string, off int) (*nestSpec, int, error) {
	ns := &nestSpec{}
	pos := 0
	if !strings.HasPrefix(s, "{") {
		iri, n, err := d.parseTerm(s, off)
		if err != nil {
			return nil, 0, err
		}
		ns.class, ns.hasClass, pos = iri, true, n
	}
	if pos >= len(s) || s[pos] != '{' {
		return nil, 0, d.errAt(off+pos, "expected '{' and the properties of a nested column")
	}
	end := matchBrace(s, pos)
	if end < 0 {
		return nil, 0, d.errAt(off+pos, "expected '}' to close the nested column")
	}
	parts, offs, err := d.splitTop(s[pos+1:end], off+pos+1, ',')
	if err != nil {
		return nil, 0, err
	}
	for i, p := range parts {
		if p == "" && len(parts) == 1 {
			break
		}
		if p == "@iri" && i == 0 {
			ns.iri = true
			continue
		}
		c, m, err := d.parseSpec(p, offs[i])
		if err != nil {
			return nil, 0, err
		}
		if c.kind == colID || c.kind == colAtIRI || c.kind == colGraph {
			return nil, 0, d.errAt(offs[i], "id, @iri and @graph cannot be properties of a nested column")
		}
		switch {
		case m == len(p):
			ns.subs = append(ns.subs, c)
		case p[m] == '=':
			vals, err := d.cell(p[m+1:], offs[i]+m+1, c)
			if err != nil {
				return nil, 0, err
			}
			if len(vals) == 0 {
				return nil, 0, d.errAt(offs[i]+m+1, "expected a constant value")
			}
			ns.consts = append(ns.consts, constant{c, vals})
		default:
			return nil, 0, d.errAt(offs[i]+m, "expected ',' or '=' after a property of a nested column")
		}
	}
	return ns, end + 1, nil
}

// matchBrace returns the index of the '}' that closes the '{' at s[i],
// skipping JSON strings and <IRI>s, or -1.
func matchBrace(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				i += j
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// nestCell decodes a cell {v1, v2} of a nested column: a new blank node
// (or IRI node, with @iri) with the column's class, its values by
// position and its constants.
func (d *decoder) nestCell(ns *nestSpec, text string, off int) (*node, error) {
	n := &node{defined: true}
	parts, offs := []string{}, []int{}
	if inner := text[1 : len(text)-1]; strings.Trim(inner, " ") != "" || len(ns.subs)+b2i(ns.iri) > 0 {
		var err error
		if parts, offs, err = d.splitTop(inner, off+1, ','); err != nil {
			return nil, err
		}
	}
	want := len(ns.subs) + b2i(ns.iri)
	if len(parts) != want {
		return nil, d.errAt(off, "expected %d values in the nested cell, found %d", want, len(parts))
	}
	if ns.iri {
		if parts[0] != "" {
			v, q, err := d.oneValue(parts[0], offs[0])
			if err != nil {
				return nil, err
			}
			n.hasIRI, n.iri = true, d.expandIRI(v, q)
		}
		parts, offs = parts[1:], offs[1:]
	}
	if ns.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(ns.class)}); err != nil {
			return nil, err
		}
	}
	for i, c := range ns.subs {
		vals, err := d.cell(parts[i], offs[i], c)
		if err != nil {
			return nil, err
		}
		if err := d.addValues(n, c, vals); err != nil {
			return nil, err
		}
	}
	for _, c := range ns.consts {
		if err := d.addValues(n, c.col, c.vals); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
