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

// nestGroup is a set of nested blank nodes of one class that are values of
// one property of one entity, written as a nested table under its row
// (SPEC.md section 17.5).
type nestGroup struct {
	key   gkey
	class rdf.TermID // 0 for Thing_
	rows  []*row
}

// row04 is a row ready to be written: the groups left for its cells and
// property lines, and its nested tables.
type row04 struct {
	r      *row
	rem    []group
	nested []nestGroup
}

// spec04 describes a 0.4 table: a top-level table, or a nested table whose
// header follows a property key.
type spec04 struct {
	class    rdf.TermID
	labelCol gkey // top-level tables only
	nested   bool // rows are nested blank nodes: no id, no @iri
	key      gkey // nested: the property the rows are values of
	indent   int  // indentation of the header line
}

// splitNested moves the nested values of a row's link groups into nested
// tables: for each property, the nested blank nodes of one class, when
// there are two or more of them and every one has a property that all of
// them have (so that no nested row is empty).
func (e *encoder) splitNested(gs []group) ([]group, []nestGroup) {
	// Most rows have no property with two nested values: keep their
	// groups as they are.
	some := false
	for i := 0; i < len(gs) && !some && !e.noNestTable; i++ {
		if g := gs[i]; g.key.cls == syntax.ClsLink && len(g.vals) >= 2 {
			n := 0
			for _, v := range g.vals {
				if e.inline[v] {
					n++
				}
			}
			some = n >= 2
		}
	}
	if !some {
		return gs, nil
	}
	var out []group
	var nests []nestGroup
	for _, g := range gs {
		if g.key.cls != syntax.ClsLink || len(g.vals) < 2 || e.noNestTable {
			out = append(out, g)
			continue
		}
		byClass := map[rdf.TermID][]rdf.TermID{}
		var classes []rdf.TermID
		for _, v := range g.vals {
			if !e.inline[v] {
				continue
			}
			c := e.inlineRows[v].main
			if byClass[c] == nil {
				classes = append(classes, c)
			}
			byClass[c] = append(byClass[c], v)
		}
		moved := map[rdf.TermID]bool{}
		for _, c := range classes {
			vs := byClass[c]
			if len(vs) < 2 || !e.haveCommonKey(vs) {
				continue
			}
			ng := nestGroup{key: g.key, class: c}
			for _, v := range vs {
				ng.rows = append(ng.rows, e.inlineRows[v].row)
				moved[v] = true
			}
			nests = append(nests, ng)
		}
		if len(moved) == 0 {
			out = append(out, g)
			continue
		}
		var rest []rdf.TermID
		for _, v := range g.vals {
			if !moved[v] {
				rest = append(rest, v)
			}
		}
		if len(rest) > 0 {
			out = append(out, group{key: g.key, vals: rest})
		}
	}
	slices.SortFunc(nests, func(a, b nestGroup) int {
		if c := strings.Compare(e.header(a.key), e.header(b.key)); c != 0 {
			return c
		}
		return strings.Compare(e.className(a.class), e.className(b.class))
	})
	return out, nests
}

// haveCommonKey reports whether nested entities vs can be the rows of a
// nested table: every one of them must have a value in a column of that
// table (columns chosen as emitTable04 does) that is not a constant, so
// that no row is empty.
func (e *encoder) haveCommonKey(vs []rdf.TermID) bool {
	t := newKeyTally()
	for _, v := range vs {
		t.add(e.inlineRows[v].row.groups)
	}
	n := len(vs)
	cell := func(k gkey) bool {
		col := columnCost04(e.header(k), t.count[k], n) || t.count[k] == n
		return col && !e.constant(t, k, n)
	}
	for _, v := range vs {
		ok := false
		for _, g := range e.inlineRows[v].row.groups {
			if g.key.cls != syntax.ClsLink && cell(g.key) || g.key.cls == syntax.ClsLink && cell(g.key) && !e.allNested(g.vals) {
				ok = true
				break
			}
		}
		if !ok && e.term(v).Kind != rdf.IRIKind {
			return false
		}
	}
	return true
}

// allNested reports whether every value would go to a nested table (two
// or more nested entities of a class), leaving its cell empty.
func (e *encoder) allNested(vals []rdf.TermID) bool {
	if len(vals) < 2 {
		return false
	}
	byClass := map[rdf.TermID][]rdf.TermID{}
	for _, v := range vals {
		if !e.inline[v] {
			return false
		}
		c := e.inlineRows[v].main
		byClass[c] = append(byClass[c], v)
	}
	for _, vs := range byClass {
		if len(vs) < 2 || !e.haveCommonKey(vs) {
			return false
		}
	}
	return true
}

// className is the written name of a class (Thing_ for 0).
func (e *encoder) className(c rdf.TermID) string {
	if c == 0 {
		return "Thing_"
	}
	return string(e.n.AppendTerm(nil, e.term(c).Value))
}

// writeTable04 writes a top-level table of a 0.4 document.
func (e *encoder) writeTable04(b []byte, t *table) []byte {
	rows := make([]row04, len(t.rows))
	for i, r := range t.rows {
		rows[i].r = r
		rows[i].rem, rows[i].nested = e.splitNested(e.rowGroups(r, t.labelCol))
	}
	if e.opts.Layout == LayoutBlocks {
		return e.writeBlocks(b, t)
	}
	return e.emitTable04(b, spec04{class: t.class, labelCol: t.labelCol}, rows, t)
}

// emitTable04 writes a table: header, rows, their property lines and
// their nested tables.
func (e *encoder) emitTable04(b []byte, sp spec04, rows []row04, t *table) []byte {
	n := len(rows)
	hasLabel := sp.labelCol.pred != 0
	hasIRI, hasGraph := false, false
	// A nested row has no id cell: a blank one needs a cell of its own
	// (an IRI row has its @iri cell). haveCommonKey chose the table so
	// that every blank row has one; columns04 makes sure of it.
	needCell := false
	rem := make([][]group, n)
	for i, r := range rows {
		hasGraph = hasGraph || e.graphCol && r.r.graph != 0
		isIRI := e.term(r.r.ent).Kind == rdf.IRIKind
		hasIRI = hasIRI || isIRI
		needCell = needCell || sp.nested && !isIRI
		rem[i] = r.rem
	}
	count, keys := countKeys(rem, sp.labelCol)
	tc := e.newTableCells(rem, e.columns04(keys, count, n, sp.nested, needCell), count)
	if t != nil && e.opts.Layout == LayoutHybrid && e.tooSparse(tc) {
		return e.writeBlocks(b, t)
	}
	e.use["table"] = true
	isConst := e.constantColumns(tc)
	if sp.nested && slices.Contains(isConst, true) && !slices.Contains(isConst, false) {
		// A nested row needs a cell: the first column stays one.
		isConst[0] = false
	}
	// Nested columns: a link column whose values are single nested
	// entities of one class writes their properties by position.
	nestCols := make([]*nestCol, len(tc.cols))
	for ci, k := range tc.cols {
		if !isConst[ci] && k.cls == syntax.ClsLink && !e.noNestCol {
			vals := make([][]rdf.TermID, n)
			for i := range rows {
				vals[i] = tc.cell(i, ci)
			}
			nestCols[ci] = e.nestColumn(vals)
		}
	}
	iriFirst := !sp.nested && e.iriFirst(hasLabel, n, func(i int) rdf.TermID { return rows[i].r.ent })
	if !sp.nested && !hasIRI {
		e.use["blank"] = true // rows of blank nodes and no @iri column
	}
	// Header.
	b = appendIndent(b, sp.indent)
	if sp.nested {
		e.use["nested"] = true
		b = append(b, e.header(sp.key)...)
		b = append(b, ' ')
	}
	b = e.appendClassName(b, sp.class)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, "]{"...)
	sep := ""
	if sp.nested && hasIRI {
		e.use["iri"] = true
		b = append(b, "@iri"...)
		sep = ", "
	}
	if !sp.nested {
		b = e.appendIDColumns(b, hasLabel, iriFirst, hasIRI, sp.labelCol)
		if hasGraph {
			e.use["graphcol"] = true
			b = append(b, ", @graph"...)
		}
		sep = ", "
	}
	for ci, k := range tc.cols {
		if !isConst[ci] {
			b = append(b, sep...)
			sep = ", "
			b = append(b, e.header(k)...)
			if nc := nestCols[ci]; nc != nil {
				b = e.appendNestSpec(b, nc)
			}
		}
	}
	b = append(b, '}')
	b = e.appendConstants(b, tc, isConst)
	b = append(b, ":\n"...)
	// An anonymous row is an empty first cell, or "_" when the row has
	// no other cell (a line is never empty).
	anonMark := hasGraph || hasIRI && !iriFirst || slices.Contains(isConst, false)
	rowIndent := sp.indent + 2
	for i, r := range rows {
		b = appendIndent(b, rowIndent)
		first := true
		if sp.nested && hasIRI {
			if tm := e.term(r.r.ent); tm.Kind == rdf.IRIKind {
				b = e.n.AppendIRICell(b, tm.Value, naming.CtxCell)
			}
			first = false
		}
		if !sp.nested {
			if !iriFirst && e.ids[r.r.ent] == "" {
				e.use["anon"] = true
				if !anonMark {
					b = append(b, '_')
				}
			} else {
				b = e.appendRowID(b, r.r, hasLabel, iriFirst)
			}
			b = e.appendRowIRI(b, r.r.ent, hasIRI, iriFirst)
			if hasGraph {
				b = append(b, ", "...)
				if r.r.graph != 0 {
					b = e.appendGraphName(b, r.r.graph)
				}
			}
			first = false
		}
		for ci, k := range tc.cols {
			if isConst[ci] {
				continue
			}
			if !first {
				b = append(b, ", "...)
			}
			first = false
			if vals := tc.cell(i, ci); vals != nil {
				if nc := nestCols[ci]; nc != nil {
					b = e.appendNestCell(b, nc, vals[0])
				} else {
					b = e.appendCell(b, k, vals, naming.CtxCell)
				}
			} else {
				e.use["empty"] = true
			}
		}
		b = endRow(b)
		if rest := tc.rests[i]; len(rest) > 0 {
			e.use["continuation"] = true
			b = e.appendProps(b, mergeLangs(rest), rowIndent+2)
		}
		for _, ng := range r.nested {
			nrows := make([]row04, len(ng.rows))
			for i, nr := range ng.rows {
				nrows[i].r = nr
				nrows[i].rem, nrows[i].nested = e.splitNested(nr.groups)
			}
			b = e.emitTable04(b, spec04{class: ng.class, nested: true, key: ng.key, indent: rowIndent + 2}, nrows, nil)
		}
	}
	return b
}

// mergeLangs joins the language groups of a predicate that has values in
// two or more languages into one p@ group, values ordered by language tag,
// direction, then term order (SPEC.md section 17.7).
func mergeLangs(gs []group) []group {
	// Most rows have no predicate in two languages: keep them as they are.
	multi := false
	for i := 1; i < len(gs) && !multi; i++ {
		multi = gs[i].key.cls == syntax.ClsLang && gs[i-1].key.cls == syntax.ClsLang && gs[i].key.pred == gs[i-1].key.pred
	}
	if !multi {
		return gs
	}
	tags := map[rdf.TermID]int{}
	for _, g := range gs {
		if g.key.cls == syntax.ClsLang {
			tags[g.key.pred]++
		}
	}
	var out []group
	merged := map[rdf.TermID]int{} // predicate -> index in out
	for _, g := range gs {
		if g.key.cls != syntax.ClsLang || tags[g.key.pred] < 2 {
			out = append(out, g)
			continue
		}
		i, ok := merged[g.key.pred]
		if !ok {
			i = len(out)
			merged[g.key.pred] = i
			out = append(out, group{key: gkey{pred: g.key.pred, cls: syntax.ClsLangAny}})
		}
		out[i].vals = append(out[i].vals, g.vals...)
	}
	return out
}

// appendGraphName writes a graph name as a @graph line or cell holds it:
// an IRI value, or _: and the id of a blank node.
func (e *encoder) appendGraphName(b []byte, g rdf.TermID) []byte {
	if t := e.term(g); t.Kind == rdf.BlankKind {
		b = append(b, "_:"...)
		return e.appendID(b, g, naming.CtxCell)
	}
	return e.n.AppendIRICell(b, e.term(g).Value, naming.CtxCell)
}

// nestCol is a nested column (SPEC.md section 17.5): the values of a link
// column are nested entities, at most one per row, of one class; their
// properties are written by position in the order of subs, except the
// constant ones (same values in every nested entity), written once in
// the header.
type nestCol struct {
	class  rdf.TermID
	iri    bool // some are IRIs: an @iri position first
	subs   []gkey
	consts map[gkey][]rdf.TermID
}

// nestColumn returns the nested column of a link column with the given
// cells, or nil when the column is not one: two or more rows must have a
// value, every value must be one nested entity of one class without nested
// tables of its own.
func (e *encoder) nestColumn(cells [][]rdf.TermID) *nestCol {
	var ents []rdf.TermID
	for _, vs := range cells {
		if len(vs) > 1 {
			return nil
		}
		if len(vs) == 1 {
			if !e.inline[vs[0]] || e.listItems[vs[0]].items != nil {
				return nil
			}
			ents = append(ents, vs[0])
		}
	}
	if len(ents) < 2 {
		return nil
	}
	nc := &nestCol{class: e.inlineRows[ents[0]].main, consts: map[gkey][]rdf.TermID{}}
	t := newKeyTally()
	for _, v := range ents {
		ie := e.inlineRows[v]
		if ie.main != nc.class {
			return nil
		}
		if rest, nests := e.splitNested(ie.row.groups); len(nests) > 0 || len(rest) != len(ie.row.groups) {
			return nil
		}
		nc.iri = nc.iri || e.term(v).Kind == rdf.IRIKind
		t.add(mergeLangs(ie.row.groups))
	}
	nc.subs = t.keys
	slices.SortFunc(nc.subs, func(a, b gkey) int {
		if t.count[a] != t.count[b] {
			return cmp.Compare(t.count[b], t.count[a])
		}
		return strings.Compare(e.header(a), e.header(b))
	})
	for _, k := range nc.subs {
		if e.constant(t, k, len(ents)) {
			nc.consts[k] = t.first[k]
		}
	}
	return nc
}

// appendNestSpec writes the nested part of a column header: " Class{a, b,
// c=v}" (no class: " {a, b}").
func (e *encoder) appendNestSpec(b []byte, nc *nestCol) []byte {
	e.use["nestcol"] = true
	b = append(b, ' ')
	if nc.class != 0 {
		b = e.n.AppendTerm(b, e.term(nc.class).Value)
	}
	b = append(b, '{')
	sep := ""
	if nc.iri {
		e.use["iri"] = true
		b = append(b, "@iri"...)
		sep = ", "
	}
	for _, k := range nc.subs {
		b = append(b, sep...)
		sep = ", "
		b = append(b, e.header(k)...)
		if vals, ok := nc.consts[k]; ok {
			b = append(b, '=')
			b = e.appendCell(b, k, vals, naming.CtxConstant)
		}
	}
	return append(b, '}')
}

// appendNestCell writes a nested entity of a nested column: {v1, v2}, its
// values in the order of the header, constants left out.
func (e *encoder) appendNestCell(b []byte, nc *nestCol, v rdf.TermID) []byte {
	ie := e.inlineRows[v]
	groups := mergeLangs(ie.row.groups)
	b = append(b, '{')
	sep := ""
	if nc.iri {
		if t := e.term(v); t.Kind == rdf.IRIKind {
			b = e.n.AppendIRICell(b, t.Value, naming.CtxCell)
		}
		sep = ", "
	}
	for _, k := range nc.subs {
		if _, ok := nc.consts[k]; ok {
			continue
		}
		b = append(b, sep...)
		sep = ", "
		for _, g := range groups {
			if g.key == k {
				b = e.appendCell(b, k, g.vals, naming.CtxCell)
				break
			}
		}
	}
	return append(b, '}')
}
