package isolda

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// The table decisions that 0.2 (emit.go) and 0.4 (emit04.go) share. Each
// emitter lays out its own cells; cell(i, ci) is row i's values in column
// ci, nil for an empty cell.

// tooSparse reports whether the hybrid layout writes a table of n rows and
// nc columns as blocks: its fraction of filled cells (the id and @iri
// columns not counted) is below Theta.
func (e *encoder) tooSparse(n, nc int, cell func(i, ci int) []rdf.TermID) bool {
	if nc == 0 {
		return false
	}
	filled := 0
	for i := range n {
		for ci := range nc {
			if cell(i, ci) != nil {
				filled++
			}
		}
	}
	return float64(filled) < e.opts.Theta*float64(n*nc)
}

// constantColumns reports for each of nc columns whether it is a constant:
// a table of two rows or more whose rows all hold the same non-empty
// values in it (never with NoConstants).
func (e *encoder) constantColumns(n, nc int, cell func(i, ci int) []rdf.TermID) []bool {
	isConst := make([]bool, nc)
	if n < 2 || e.opts.NoConstants {
		return isConst
	}
	for ci := range nc {
		first := cell(0, ci)
		same := first != nil
		for i := 1; same && i < n; i++ {
			same = slices.Equal(first, cell(i, ci))
		}
		isConst[ci] = same
	}
	return isConst
}

// sortColumns orders the columns of a table (SPEC.md section 6.3): a
// first, then by the number of rows that have them (descending), ties by
// header text.
func (e *encoder) sortColumns(cols []gkey, count map[gkey]int) {
	slices.SortFunc(cols, func(a, b gkey) int {
		if (a.cls == clsType) != (b.cls == clsType) {
			if a.cls == clsType {
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
