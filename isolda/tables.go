package isolda

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/isolda/internal/naming"
	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// The table decisions that 0.1–0.3 (emit.go) and 0.4 (emit04.go) share:
// which keys become columns and in what order, where each row's values
// go, whether the hybrid layout falls back to blocks, which columns are
// constants and whether the id is the IRI. Each emitter then writes its
// own header and rows from a tableCells.

// tableCells is a table's columns and each row's values in them.
type tableCells struct {
	n     int            // rows
	cols  []gkey         // in header order
	cells [][]rdf.TermID // row i, column ci at i*len(cols)+ci; nil: empty
	rests [][]group      // each row's groups that are in no column
}

// cell returns row i's values in column ci, nil for an empty cell.
func (tc *tableCells) cell(i, ci int) []rdf.TermID { return tc.cells[i*len(tc.cols)+ci] }

// countKeys counts, for each key of the rows' groups rem (one slice per
// row; the label column left out), the rows that have it; keys are in
// order of first appearance.
func countKeys(rem [][]group, labelCol gkey) (count map[gkey]int, keys []gkey) {
	count = map[gkey]int{}
	for _, gs := range rem {
		for _, g := range gs {
			if labelCol.pred != 0 && g.key == labelCol {
				continue
			}
			if count[g.key] == 0 {
				keys = append(keys, g.key)
			}
			count[g.key]++
		}
	}
	return count, keys
}

// columns02 chooses the columns of a 0.1–0.3 table: the keys that half
// of its n rows or more have.
func columns02(keys []gkey, count map[gkey]int, n int) []gkey {
	var cols []gkey
	for _, k := range keys {
		if 2*count[k] >= n {
			cols = append(cols, k)
		}
	}
	return cols
}

// columns04 chooses the columns of a 0.4 table: the keys cheaper as a
// column than as property lines (columnCost04), and in a nested table
// the keys every row has. A nested table that needs a cell (needCell: a
// blank row has no id cell) but would have no column gets its most used
// key, so that no row line is ever empty.
func (e *encoder) columns04(keys []gkey, count map[gkey]int, n int, nested, needCell bool) []gkey {
	var cols []gkey
	for _, k := range keys {
		if columnCost04(e.header(k), count[k], n) || (nested && count[k] == n) {
			cols = append(cols, k)
		}
	}
	if needCell && len(cols) == 0 && len(keys) > 0 {
		best := keys[0]
		for _, k := range keys[1:] {
			if count[k] > count[best] {
				best = k
			}
		}
		cols = append(cols, best)
	}
	return cols
}

// columnCost04 reports whether a key present in cnt of n rows is cheaper
// as a column (its header once plus one separator per row) than as cnt
// property lines (key, ": " and a line break each), by tokenEstimate.
func columnCost04(header string, cnt, n int) bool {
	t := tokenEstimate(header)
	return t+1+n <= cnt*(t+2)
}

// newTableCells sorts the chosen columns (sortColumns) and places each
// row's groups rem[i] in its cells or its rest.
func (e *encoder) newTableCells(rem [][]group, cols []gkey, count map[gkey]int) *tableCells {
	e.sortColumns(cols, count)
	n, nc := len(rem), len(cols)
	colIdx := make(map[gkey]int, nc)
	for ci, k := range cols {
		colIdx[k] = ci
	}
	tc := &tableCells{n: n, cols: cols, cells: make([][]rdf.TermID, n*nc), rests: make([][]group, n)}
	for i, gs := range rem {
		for _, g := range gs {
			if ci, ok := colIdx[g.key]; ok {
				tc.cells[i*nc+ci] = g.vals
			} else {
				tc.rests[i] = append(tc.rests[i], g)
			}
		}
	}
	return tc
}

// rowGroups returns a row's groups without the label value its first
// cell holds (a label row of a table with a label column).
func (e *encoder) rowGroups(r *row, labelCol gkey) []group {
	if labelCol.pred == 0 || !r.label || !slices.ContainsFunc(r.groups, func(g group) bool { return g.key == labelCol }) {
		return r.groups
	}
	gs := make([]group, 0, len(r.groups))
	for _, g := range r.groups {
		if g.key == labelCol {
			var ok bool
			if g, ok = e.withoutLabelValue(r.ent, g); !ok {
				continue
			}
		}
		gs = append(gs, g)
	}
	return gs
}

// withoutLabelValue returns the label column's group of ent without the
// label its first cell already holds, and false when nothing is left.
func (e *encoder) withoutLabelValue(ent rdf.TermID, g group) (group, bool) {
	lv := e.labelVal[ent]
	var vals []rdf.TermID
	for _, v := range g.vals {
		if v != lv {
			vals = append(vals, v)
		}
	}
	return group{key: g.key, vals: vals}, len(vals) > 0
}

// tooSparse reports whether the hybrid layout writes the table as blocks:
// its fraction of filled cells (the id and @iri columns not counted) is
// below Theta.
func (e *encoder) tooSparse(tc *tableCells) bool {
	nc := len(tc.cols)
	if nc == 0 {
		return false
	}
	filled := 0
	for _, c := range tc.cells {
		if c != nil {
			filled++
		}
	}
	return float64(filled) < e.opts.Theta*float64(tc.n*nc)
}

// constantColumns reports for each column whether it is a constant: a
// table of two rows or more whose rows all hold the same non-empty values
// in it (never with NoConstants).
func (e *encoder) constantColumns(tc *tableCells) []bool {
	isConst := make([]bool, len(tc.cols))
	if tc.n < 2 || e.opts.NoConstants {
		return isConst
	}
	for ci := range tc.cols {
		first := tc.cell(0, ci)
		same := first != nil
		for i := 1; same && i < tc.n; i++ {
			same = slices.Equal(first, tc.cell(i, ci))
		}
		isConst[ci] = same
	}
	return isConst
}

// keyTally counts, over a set of entities, the ones that have each key
// (keys in order of first appearance) and whether they all hold the same
// values in it: what the nested tables and nested columns of 0.4 need to
// find their constants.
type keyTally struct {
	keys  []gkey
	count map[gkey]int
	first map[gkey][]rdf.TermID
	same  map[gkey]bool
}

func newKeyTally() *keyTally {
	return &keyTally{count: map[gkey]int{}, first: map[gkey][]rdf.TermID{}, same: map[gkey]bool{}}
}

// add counts one entity's groups.
func (t *keyTally) add(gs []group) {
	for _, g := range gs {
		if t.count[g.key] == 0 {
			t.keys = append(t.keys, g.key)
			t.first[g.key], t.same[g.key] = g.vals, true
		} else {
			t.same[g.key] = t.same[g.key] && slices.Equal(t.first[g.key], g.vals)
		}
		t.count[g.key]++
	}
}

// constant reports whether key k is a constant of the n (two or more)
// entities counted by t, as constantColumns decides for a table's rows:
// every one of them holds the same values in it (never with NoConstants).
func (e *encoder) constant(t *keyTally, k gkey, n int) bool {
	return t.count[k] == n && t.same[k] && !e.opts.NoConstants
}

// iriFirst reports whether a top-level table's first column is @iri: with
// IRIIDs, no label column and every one of its n rows' entities ent(i)
// identified by its IRI.
func (e *encoder) iriFirst(hasLabel bool, n int, ent func(i int) rdf.TermID) bool {
	first := !hasLabel && e.iriIDs && n > 0
	for i := 0; first && i < n; i++ {
		first = e.iriID[ent(i)]
	}
	return first
}

// sortColumns orders the columns of a table (SPEC.md section 6.3): a
// first, then by the number of rows that have them (descending), ties by
// header text.
func (e *encoder) sortColumns(cols []gkey, count map[gkey]int) {
	slices.SortFunc(cols, func(a, b gkey) int {
		if (a.cls == syntax.ClsType) != (b.cls == syntax.ClsType) {
			if a.cls == syntax.ClsType {
				return -1
			}
			return 1
		}
		if count[a] != count[b] {
			return cmp.Compare(count[b], count[a])
		}
		return strings.Compare(e.header(a), e.header(b))
	})
}

// appendIDColumns appends a table header's first columns: the label
// column, @iri (the IRI as id) or id, then @iri when rows have IRIs that
// are not already their ids.
func (e *encoder) appendIDColumns(b []byte, hasLabel, iriFirst, hasIRI bool, labelCol gkey) []byte {
	switch {
	case hasLabel:
		b = append(b, e.header(labelCol)...)
	case iriFirst:
		e.use["iriid"] = true
		b = append(b, "@iri"...)
	default:
		b = append(b, "id"...)
	}
	if hasIRI && !iriFirst {
		e.use["iri"] = true
		b = append(b, ", @iri"...)
	}
	return b
}

// appendRowID appends a row's first cell under appendIDColumns' header:
// the IRI (iriFirst), the label id of a label row, @ and the id of a row
// whose id is not the label of a label column, or the id.
func (e *encoder) appendRowID(b []byte, r *row, hasLabel, iriFirst bool) []byte {
	switch {
	case iriFirst:
		return e.n.AppendIRICell(b, e.term(r.ent).Value, naming.CtxCell)
	case !r.label && hasLabel:
		e.use["slugcell"] = true
		b = append(b, '@')
	}
	return e.appendID(b, r.ent, naming.CtxCell)
}

// appendRowIRI appends a row's @iri cell (empty for a blank node) when
// the table has an @iri column after its first.
func (e *encoder) appendRowIRI(b []byte, ent rdf.TermID, hasIRI, iriFirst bool) []byte {
	if hasIRI && !iriFirst {
		b = append(b, ", "...)
		if tm := e.term(ent); tm.Kind == rdf.IRIKind {
			b = e.n.AppendIRICell(b, tm.Value, naming.CtxCell)
		}
	}
	return b
}

// appendConstants appends the constant columns after a table header:
// " p=v, q=w".
func (e *encoder) appendConstants(b []byte, tc *tableCells, isConst []bool) []byte {
	sep := " "
	for ci, k := range tc.cols {
		if isConst[ci] {
			e.use["constant"] = true
			b = append(b, sep...)
			sep = ", "
			b = append(b, e.header(k)...)
			b = append(b, '=')
			b = e.appendCell(b, k, tc.cell(0, ci), naming.CtxConstant)
		}
	}
	return b
}

// endRow ends a row line: trailing spaces (empty cells) dropped, then LF.
func endRow(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return append(b, '\n')
}
