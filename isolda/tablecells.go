package isolda

import (
	"slices"

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
