package isolda

// Blank node canonicalization comes from package rdf/canon; blankOrder and
// isomorphic are the only entry points the rest of the package uses.

import (
	"slices"
	"strconv"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// blankOrder returns the dataset's blank nodes in canonical order: an order
// that depends only on the structure of the dataset, not on blank node labels
// or quad order.
func blankOrder(d *rdf.Dataset) ([]rdf.Term, error) {
	return canon.BlankOrder(d)
}

// canonicalQuads returns the dataset's quads with blank nodes relabelled
// c1..cn in canonical order, sorted.
func canonicalQuads(d *rdf.Dataset) ([]rdf.Quad, error) {
	order, err := blankOrder(d)
	if err != nil {
		return nil, err
	}
	label := make(map[rdf.Term]string, len(order))
	for i, b := range order {
		label[b] = "c" + strconv.Itoa(i+1)
	}
	out := d.Quads()
	re := func(t rdf.Term) rdf.Term {
		if t.Kind == rdf.BlankKind {
			return rdf.NewBlank(label[t])
		}
		return t
	}
	for i, q := range out {
		out[i] = rdf.Quad{S: re(q.S), P: re(q.P), O: re(q.O).Key(), G: re(q.G)}
	}
	slices.SortFunc(out, rdf.CompareQuads)
	return out, nil
}

// isomorphic reports whether two datasets are isomorphic, and, when they are
// not, the quads of each that the other lacks under the canonical blank node
// labels.
func isomorphic(a, b *rdf.Dataset) (bool, []rdf.Quad, []rdf.Quad, error) {
	iso, err := canon.Isomorphic(a, b)
	if err != nil || iso {
		return iso, nil, nil, err
	}
	qa, err := canonicalQuads(a)
	if err != nil {
		return false, nil, nil, err
	}
	qb, err := canonicalQuads(b)
	if err != nil {
		return false, nil, nil, err
	}
	var missing, extra []rdf.Quad
	i, j := 0, 0
	for i < len(qa) || j < len(qb) {
		switch {
		case j >= len(qb) || (i < len(qa) && rdf.CompareQuads(qa[i], qb[j]) < 0):
			missing = append(missing, qa[i])
			i++
		case i >= len(qa) || rdf.CompareQuads(qa[i], qb[j]) > 0:
			extra = append(extra, qb[j])
			j++
		default:
			i++
			j++
		}
	}
	return false, missing, extra, nil
}
