// Package relabel gives the blank nodes of a JSON-LD document's quads
// labels that depend only on the quads, so that the reader's output does
// not depend on the order of the document's keys or on Go map iteration.
package relabel

import (
	"cmp"
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// Blanks gives the blank nodes of one document labels that depend
// on the quads rather than on the order json-gold issued them in (which
// follows Go map iteration for @reverse and a few other constructs), and
// sorts the quads by rdf.CompareQuads.
//
// Each blank node gets a hash of the quads it occurs in (itself written
// _:a, other blank nodes _:z, as in RDFC-1.0's first-degree hash), refined
// twice with the hashes of its neighbours; nodes are numbered in hash
// order. Only nodes that still tie after refinement (for example the two
// ends of a symmetric pattern) keep an order that follows the issued
// labels, and for those the dataset is the same up to isomorphism anyway.
func Blanks(quads []rdf.Quad, prefix string) []rdf.Quad {
	index := map[string]int{} // label -> node number
	var labels []string
	occ := map[int][]int{} // node -> quads it occurs in
	note := func(t rdf.Term, qi int) {
		if !t.IsBlank() {
			return
		}
		n, ok := index[t.Value]
		if !ok {
			n = len(labels)
			index[t.Value] = n
			labels = append(labels, t.Value)
		}
		if o := occ[n]; len(o) == 0 || o[len(o)-1] != qi {
			occ[n] = append(o, qi)
		}
	}
	for i, q := range quads {
		note(q.S, i)
		note(q.P, i)
		note(q.O, i)
		note(q.G, i)
	}
	if len(labels) == 0 {
		slices.SortFunc(quads, rdf.CompareQuads)
		return quads
	}

	// First-degree hashes.
	hashes := make([]string, len(labels))
	var sb strings.Builder
	lines := []string{}
	for n, label := range labels {
		lines = lines[:0]
		for _, qi := range occ[n] {
			lines = append(lines, firstDegreeLine(quads[qi], label))
		}
		slices.Sort(lines)
		sb.Reset()
		for _, l := range lines {
			sb.WriteString(l)
		}
		hashes[n] = hashString(sb.String())
	}
	// Refinement with the neighbours' hashes.
	for range 2 {
		next := make([]string, len(labels))
		for n, label := range labels {
			lines = lines[:0]
			for _, qi := range occ[n] {
				q := quads[qi]
				for pos, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
					if t.IsBlank() && t.Value != label {
						lines = append(lines, strconv.Itoa(pos)+q.P.Value+"|"+hashes[index[t.Value]])
					}
				}
			}
			slices.Sort(lines)
			sb.Reset()
			sb.WriteString(hashes[n])
			for _, l := range lines {
				sb.WriteString(l)
			}
			next[n] = hashString(sb.String())
		}
		hashes = next
	}

	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(hashes[a], hashes[b]); c != 0 {
			return c
		}
		return cmp.Compare(labels[a], labels[b])
	})
	newLabel := make([]string, len(labels))
	for i, n := range order {
		newLabel[n] = prefix + strconv.Itoa(i)
	}
	relabel := func(t rdf.Term) rdf.Term {
		if t.IsBlank() {
			t.Value = newLabel[index[t.Value]]
		}
		return t
	}
	for i, q := range quads {
		quads[i] = rdf.Quad{S: relabel(q.S), P: relabel(q.P), O: relabel(q.O), G: relabel(q.G)}
	}
	slices.SortFunc(quads, rdf.CompareQuads)
	return quads
}

// firstDegreeLine writes q as N-Quads with blank node self as _:a and any
// other blank node as _:z.
func firstDegreeLine(q rdf.Quad, self string) string {
	mask := func(t rdf.Term) rdf.Term {
		if t.IsBlank() {
			if t.Value == self {
				return rdf.NewBlank("a")
			}
			return rdf.NewBlank("z")
		}
		return t
	}
	return rdf.Quad{S: mask(q.S), P: mask(q.P), O: mask(q.O), G: mask(q.G)}.String() + "\n"
}

func hashString(s string) string {
	sum := sha256.Sum256([]byte(s))
	return string(sum[:])
}
