package testgraph_test

import (
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestDatasetOptions checks that each option adds its construct across a
// few seeds and that, without it, the construct never appears.
func TestDatasetOptions(t *testing.T) {
	type seen struct{ named, triple, list, relative, nul, dir bool }
	look := func(o testgraph.Options) (s seen, maxLen int) {
		for seed := range uint64(60) {
			d := testgraph.Dataset(testgraph.Seeded(seed), o)
			maxLen = max(maxLen, d.Len())
			for _, q := range d.Quads() {
				s.named = s.named || !q.G.IsZero()
				s.list = s.list || q.P.Value == rdf.RDFFirst
				for _, x := range []rdf.Term{q.S, q.O, q.G} {
					s.triple = s.triple || x.IsTriple()
					s.relative = s.relative || x.IsIRI() && !rdf.IsAbsoluteIRI(x.Value)
				}
				s.nul = s.nul || q.O.IsLiteral() && len(q.O.Value) > 0 && q.O.Value[0] == 0
				s.dir = s.dir || q.O.Dir != ""
			}
		}
		return s, maxLen
	}
	plain, n := look(testgraph.Options{})
	if plain.named || plain.triple || plain.list || plain.relative || !plain.dir || !plain.nul || n < 40 {
		t.Errorf("no options: %+v, at most %d quads", plain, n)
	}
	all, n := look(testgraph.Options{Named: true, Raw: true, Lists: true, TripleTerms: true, Small: true})
	if !all.named || !all.triple || !all.list || !all.relative || !all.dir || n > 8+3*2*8 {
		t.Errorf("every option: %+v, at most %d quads", all, n)
	}
}

// TestSameChoicesSameDataset: the generator depends on its choices only,
// and the fuzzer's bytes are choices too (none left: every choice 0).
func TestSameChoicesSameDataset(t *testing.T) {
	o := testgraph.Options{Named: true, Raw: true, Lists: true, TripleTerms: true, Small: true}
	for _, b := range [][]byte{nil, []byte("\x03\x05\x01\x02\x07\x09\x0b\x0d\x11\x13"), []byte("hostile {x} \x00\xff")} {
		a, c := testgraph.Dataset(testgraph.FromBytes(b), o), testgraph.Dataset(testgraph.FromBytes(b), o)
		if iso, err := canon.Isomorphic(a, c); err != nil || !iso || a.Len() == 0 {
			t.Errorf("%q: two datasets from the same bytes differ (%d quads, %v)", b, a.Len(), err)
		}
	}
}

// TestShuffled: the copy is isomorphic, keeps the prefixes, and with rename
// no blank node keeps its label.
func TestShuffled(t *testing.T) {
	for seed := range uint64(10) {
		d := testgraph.Dataset(testgraph.Seeded(seed), testgraph.Options{Named: true, TripleTerms: true})
		d.Prefixes = append(d.Prefixes, rdf.Prefix{Name: "ex", IRI: "http://example.org/"})
		for _, rename := range []bool{false, true} {
			s := testgraph.Shuffled(d, seed, rename)
			if iso, err := canon.Isomorphic(d, s); err != nil || !iso || len(s.Prefixes) != 1 {
				t.Errorf("seed %d rename %v: not the same dataset (%v) or prefixes %v", seed, rename, err, s.Prefixes)
			}
			old := map[string]bool{}
			for _, q := range d.Quads() {
				rdf.EachBlank(q.S, func(b rdf.Term) { old[b.Value] = true })
				rdf.EachBlank(q.O, func(b rdf.Term) { old[b.Value] = true })
			}
			for _, q := range s.Quads() {
				rdf.EachBlank(q.O, func(b rdf.Term) {
					if old[b.Value] == rename {
						t.Errorf("seed %d rename %v: blank node %s", seed, rename, b.Value)
					}
				})
			}
		}
	}
}

// TestLabelled: without NotUTF8 every string is UTF-8; with it some are not;
// both directions, duplicate ids, self-loops and orphan edges occur.
func TestLabelled(t *testing.T) {
	for _, notUTF8 := range []bool{false, true} {
		var bad, directed, undirected, dup, loop, orphan bool
		for seed := range uint64(200) {
			g := testgraph.Labelled(testgraph.Seeded(seed), testgraph.LabelledOptions{NotUTF8: notUTF8})
			directed, undirected = directed || g.Directed, undirected || !g.Directed
			ids := map[string]bool{}
			for _, n := range g.Nodes {
				dup = dup || ids[n.ID]
				ids[n.ID] = true
				bad = bad || !utf8.ValidString(n.ID) || !utf8.ValidString(n.Label)
			}
			for _, e := range g.Edges {
				loop = loop || e.From == e.To
				orphan = orphan || !ids[e.From] || !ids[e.To]
				bad = bad || !utf8.ValidString(e.From) || !utf8.ValidString(e.To) || !utf8.ValidString(e.Type)
			}
		}
		if bad != notUTF8 || !directed || !undirected || !dup || !loop || !orphan {
			t.Errorf("NotUTF8 %v: not UTF-8 %v, directed %v, undirected %v, duplicate %v, self-loop %v, orphan %v",
				notUTF8, bad, directed, undirected, dup, loop, orphan)
		}
	}
}
