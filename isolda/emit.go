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

// header returns the column header of a key: term plus value-class suffix.
func (e *encoder) header(k gkey) string {
	if h, ok := e.headers[k]; ok {
		return h
	}
	var b []byte
	if k.cls == syntax.ClsType {
		b = append(b, 'a')
	} else {
		b = e.n.AppendTerm(b, e.term(k.pred).Value)
	}
	switch k.cls {
	case syntax.ClsLink:
		b = append(b, '>')
		e.use["link"] = true
	case syntax.ClsIRI:
		b = append(b, ":iri"...)
		e.use["typed"] = true
	case syntax.ClsLang:
		b = appendLangTag(b, k.lang, k.dir)
		e.use["lang"] = true
	case syntax.ClsTyped:
		b = append(b, ':')
		b = e.n.AppendDatatype(b, k.dt)
		e.use["typed"] = true
	case syntax.ClsType:
		e.use["a"] = true
	case syntax.ClsLangAny:
		b = append(b, '@')
		e.use["langs"] = true
	}
	h := string(b)
	e.headers[k] = h
	return h
}

// appendID appends an entity's id. An id that is the entity's IRI
// (IRIIDs) is not quoted for its ':' on an entity id line.
func (e *encoder) appendID(b []byte, id rdf.TermID, ctx int) []byte {
	if ctx == naming.CtxBlockKey && e.iriID[id] {
		ctx = naming.CtxCell
	}
	return naming.AppendText(b, e.ids[id], e.v02, ctx)
}

// appendValue appends one value of a column.
func (e *encoder) appendValue(b []byte, k gkey, v rdf.TermID, ctx int) []byte {
	t := e.term(v)
	start := len(b)
	switch k.cls {
	case syntax.ClsLink:
		if lc, ok := e.listItems[v]; ok {
			return e.appendList(b, lc)
		}
		if e.inline[v] {
			return e.appendInline(b, v)
		}
		if t.Kind == rdf.BlankKind {
			e.use["blank"] = true
		}
		b = naming.AppendText(b, e.ids[v], e.qLink, ctx)
	case syntax.ClsIRI:
		b = e.n.AppendIRICell(b, t.Value, ctx)
	case syntax.ClsType:
		return e.n.AppendTerm(b, t.Value)
	case syntax.ClsLangAny:
		b = naming.AppendText(b, t.Value, e.v02, ctx)
		b = appendLangTag(b, t.Lang, t.Dir)
	default:
		b = naming.AppendText(b, t.Value, e.v02, ctx)
	}
	if len(b) > start && b[start] == '"' {
		e.use["quoted"] = true
	}
	return b
}

// appendList writes a well-formed RDF list in place: (N) a | b, with the
// items' value class after N unless they are entities: (N:int), (N@en).
// In a list of entities, an IRI that is not an entity is written <IRI>.
func (e *encoder) appendList(b []byte, lc listCell) []byte {
	e.use["list"] = true
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(len(lc.items)), 10)
	b = e.appendSuffix(b, lc.key)
	b = append(b, ") "...)
	for i, it := range lc.items {
		if i > 0 {
			b = append(b, " | "...)
		}
		if lc.key.cls == syntax.ClsLink && !e.entity[it] {
			b = naming.AppendAngle(b, e.term(it).Value)
			continue
		}
		b = e.appendValue(b, lc.key, it, naming.CtxCell)
	}
	return b
}

// appendSuffix appends the value-class suffix of a list: nothing for
// entities, :iri, @lang, :string for plain strings, or :datatype.
func (e *encoder) appendSuffix(b []byte, k gkey) []byte {
	switch k.cls {
	case syntax.ClsIRI:
		return append(b, ":iri"...)
	case syntax.ClsLang:
		b = appendLangTag(b, k.lang, k.dir)
		return b
	case syntax.ClsPlain:
		return append(b, ":string"...)
	case syntax.ClsTyped:
		b = append(b, ':')
		return e.n.AppendDatatype(b, k.dt)
	}
	return b
}

// appendInline writes a blank node in place: {p: v, q> w}, properties
// sorted by header, the main class first among the values of a.
func (e *encoder) appendInline(b []byte, v rdf.TermID) []byte {
	e.use["inline"] = true
	ie := e.inlineRows[v]
	groups := ie.row.groups
	if !e.v04 {
		groups = slices.Clone(groups)
	}
	if e.v04 {
		// 0.4: the main class before the brace, the others under a.
		if ie.main != 0 {
			b = e.n.AppendTerm(b, e.term(ie.main).Value)
		}
		groups = mergeLangs(groups)
	} else if ie.main != 0 {
		typeKey := gkey{pred: e.typeID, cls: syntax.ClsType}
		i := slices.IndexFunc(groups, func(g group) bool { return g.key == typeKey })
		if i < 0 {
			groups = append(groups, group{key: typeKey, vals: []rdf.TermID{ie.main}})
		} else {
			groups[i] = group{key: typeKey, vals: append([]rdf.TermID{ie.main}, groups[i].vals...)}
		}
	}
	// The groups with their headers, sorted by header (one header lookup
	// per group; the row's own groups stay in key order).
	type hg struct {
		h string
		g *group
	}
	var buf [16]hg
	hgs := buf[:0]
	for i := range groups {
		hgs = append(hgs, hg{e.header(groups[i].key), &groups[i]})
	}
	byHeader := func(p, q hg) int { return strings.Compare(p.h, q.h) }
	if !slices.IsSortedFunc(hgs, byHeader) {
		slices.SortFunc(hgs, byHeader)
	}
	b = append(b, '{')
	sep := ""
	if t := e.term(v); t.Kind == rdf.IRIKind {
		// 0.4: a nested IRI entity gives its IRI first.
		e.use["iri"] = true
		b = append(b, "@iri: "...)
		b = e.n.AppendIRICell(b, t.Value, naming.CtxCell)
		sep = ", "
	}
	for i, x := range hgs {
		g := x.g
		if i > 0 || sep != "" {
			b = append(b, ", "...)
		}
		b = append(b, x.h...)
		if g.key.cls == syntax.ClsLink {
			b = append(b, ' ')
		} else {
			b = append(b, ": "...)
		}
		b = e.appendCell(b, g.key, g.vals, naming.CtxCell)
	}
	return append(b, '}')
}

// appendCell appends a cell: one value, or [N] a | b | ...
func (e *encoder) appendCell(b []byte, k gkey, vals []rdf.TermID, ctx int) []byte {
	if len(vals) == 1 {
		return e.appendValue(b, k, vals[0], ctx)
	}
	e.use["multi"] = true
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(len(vals)), 10)
	b = append(b, "] "...)
	for i, v := range vals {
		if i > 0 {
			b = append(b, " | "...)
		}
		b = e.appendValue(b, k, v, ctx)
	}
	return b
}

func (e *encoder) appendClassName(b []byte, class rdf.TermID) []byte {
	if class == 0 {
		e.use["thing"] = true
		return append(b, "Thing_"...)
	}
	return e.n.AppendTerm(b, e.term(class).Value)
}

type extraBlock struct {
	ent    rdf.TermID
	groups []group
}

// body writes the sections of every graph.
func (e *encoder) body() []byte {
	var b []byte
	for _, part := range e.parts {
		if part.name != 0 {
			e.use["graph"] = true
			b = append(b, "@graph "...)
			if t := e.term(part.name); t.Kind == rdf.BlankKind {
				b = append(b, "_:"...)
				b = e.appendID(b, part.name, naming.CtxCell)
			} else {
				b = e.n.AppendIRICell(b, t.Value, naming.CtxCell)
			}
			b = append(b, "\n\n"...)
		}
		var extras []extraBlock
		for _, t := range part.tables {
			if e.v04 {
				b = e.writeTable04(b, t)
			} else {
				b = e.writeTable(b, t, &extras)
			}
			b = append(b, '\n')
		}
		if len(extras) > 0 {
			e.use["extra"] = true
			b = append(b, "~extra:\n"...)
			for _, x := range extras {
				b = append(b, "  "...)
				b = e.appendID(b, x.ent, naming.CtxBlockKey)
				b = append(b, ":\n"...)
				b = e.appendProps(b, x.groups, 4)
			}
			b = append(b, '\n')
		}
		if e.opts.InverseIndex {
			b = e.writeInverse(b, part)
		}
	}
	return b
}

// appendProps writes one "spec: cell" (or "spec> cell") line per group,
// sorted by header, at the given indentation.
func (e *encoder) appendProps(b []byte, groups []group, indent int) []byte {
	groups = slices.Clone(groups)
	slices.SortFunc(groups, func(p, q group) int {
		return strings.Compare(e.header(p.key), e.header(q.key))
	})
	for _, g := range groups {
		b = appendIndent(b, indent)
		b = append(b, e.header(g.key)...)
		if g.key.cls == syntax.ClsLink {
			b = append(b, ' ')
		} else {
			b = append(b, ": "...)
		}
		b = e.appendCell(b, g.key, g.vals, naming.CtxCell)
		b = append(b, '\n')
	}
	return b
}

// appendIndent appends n spaces.
func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// writeBlocks writes a section as blocks: "Type[N]:", then per entity an
// "  id:" line, its "    @iri: ..." line and one line per property.
func (e *encoder) writeBlocks(b []byte, t *table) []byte {
	e.use["blocks"] = true
	b = e.appendClassName(b, t.class)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(len(t.rows)+t.inlineN), 10)
	b = append(b, "]:\n"...)
	for _, r := range t.rows {
		b = append(b, "  "...)
		b = e.appendID(b, r.ent, naming.CtxBlockKey)
		b = append(b, ":\n"...)
		if tm := e.term(r.ent); tm.Kind == rdf.IRIKind {
			e.use["iri"] = true
			b = append(b, "    @iri: "...)
			b = e.n.AppendIRICell(b, tm.Value, naming.CtxCell)
			b = append(b, '\n')
		} else {
			e.use["blank"] = true
		}
		b = e.appendProps(b, r.groups, 4)
	}
	return b
}

// writeInverse writes the ~in: section of a graph: for each link target
// with two or more incoming links, the sources grouped by property.
func (e *encoder) writeInverse(b []byte, part graphPart) []byte {
	type in struct{ pred, src rdf.TermID }
	incoming := map[rdf.TermID][]in{}
	var targets []rdf.TermID
	for _, t := range part.tables {
		for _, r := range t.rows {
			for _, g := range r.groups {
				if g.key.cls != syntax.ClsLink {
					continue
				}
				for _, v := range g.vals {
					if incoming[v] == nil {
						targets = append(targets, v)
					}
					incoming[v] = append(incoming[v], in{g.key.pred, r.ent})
				}
			}
		}
	}
	slices.SortFunc(targets, func(x, y rdf.TermID) int { return cmp.Compare(e.pos[x], e.pos[y]) })
	started := false
	for _, tg := range targets {
		ins := incoming[tg]
		if len(ins) < 2 {
			continue
		}
		if !started {
			e.use["in"] = true
			b = append(b, "~in:\n"...)
			started = true
		}
		b = append(b, "  "...)
		b = e.appendID(b, tg, naming.CtxBlockKey)
		b = append(b, ":\n"...)
		slices.SortFunc(ins, func(x, y in) int {
			if x.pred != y.pred {
				return strings.Compare(e.header(gkey{pred: x.pred, cls: syntax.ClsPlain}), e.header(gkey{pred: y.pred, cls: syntax.ClsPlain}))
			}
			return cmp.Compare(e.pos[x.src], e.pos[y.src])
		})
		for i := 0; i < len(ins); {
			j := i
			var srcs []rdf.TermID
			for j < len(ins) && ins[j].pred == ins[i].pred {
				srcs = append(srcs, ins[j].src)
				j++
			}
			b = append(b, "    "...)
			b = append(b, e.header(gkey{pred: ins[i].pred, cls: syntax.ClsPlain})...)
			b = append(b, "< "...)
			b = e.appendCell(b, gkey{pred: ins[i].pred, cls: syntax.ClsLink}, srcs, naming.CtxCell)
			b = append(b, '\n')
			i = j
		}
	}
	if started {
		b = append(b, '\n')
	}
	return b
}

func (e *encoder) writeTable(b []byte, t *table, extras *[]extraBlock) []byte {
	n := len(t.rows)
	hasLabel := t.labelCol.pred != 0
	// Remaining groups of each row: the label value used as id is consumed;
	// the label group of a row that writes @id goes to ~extra.
	rem := make([][]group, n)
	hasIRI := false
	for i, r := range t.rows {
		if e.term(r.ent).Kind == rdf.IRIKind {
			hasIRI = true
		} else {
			e.use["blank"] = true
		}
		rem[i] = e.rowGroups(r, t.labelCol)
	}
	count, keys := countKeys(rem, t.labelCol)
	tc := e.newTableCells(rem, columns02(keys, count, n), count)
	switch e.opts.Layout {
	case LayoutBlocks:
		return e.writeBlocks(b, t)
	case LayoutHybrid:
		if e.tooSparse(tc) {
			return e.writeBlocks(b, t)
		}
	}
	e.use["table"] = true
	// Constants: the same non-empty values in every row of a table of two or more.
	isConst := e.constantColumns(tc)
	// Header.
	b = e.appendClassName(b, t.class)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(n+t.inlineN), 10)
	b = append(b, "]{"...)
	// IRIIDs: when every row's id is its IRI, @iri is the first column.
	iriFirst := e.iriFirst(hasLabel, n, func(i int) rdf.TermID { return t.rows[i].ent })
	b = e.appendIDColumns(b, hasLabel, iriFirst, hasIRI, t.labelCol)
	for ci, k := range tc.cols {
		if !isConst[ci] {
			b = append(b, ", "...)
			b = append(b, e.header(k)...)
		}
	}
	b = append(b, '}')
	b = e.appendConstants(b, tc, isConst)
	b = append(b, ":\n"...)
	// Rows.
	for i, r := range t.rows {
		b = append(b, "  "...)
		b = e.appendRowID(b, r, hasLabel, iriFirst)
		b = e.appendRowIRI(b, r.ent, hasIRI, iriFirst)
		for ci, k := range tc.cols {
			if isConst[ci] {
				continue
			}
			b = append(b, ", "...)
			if vals := tc.cell(i, ci); vals != nil {
				b = e.appendCell(b, k, vals, naming.CtxCell)
			} else {
				e.use["empty"] = true
			}
		}
		b = endRow(b)
		// Everything else goes to ~extra.
		switch rest := tc.rests[i]; {
		case len(rest) == 0:
		case e.continuation:
			e.use["continuation"] = true
			b = e.appendProps(b, rest, 4)
		default:
			*extras = append(*extras, extraBlock{ent: r.ent, groups: rest})
		}
	}
	return b
}

// appendLangTag appends @ and a language tag, with --dir for a base
// direction.
func appendLangTag(b []byte, lang, dir string) []byte {
	b = append(b, '@')
	b = append(b, lang...)
	if dir != "" {
		b = append(b, "--"...)
		b = append(b, dir...)
	}
	return b
}
