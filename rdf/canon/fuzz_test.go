package canon

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// FuzzCanon feeds arbitrary N-Quads to both algorithms: neither may panic
// or exceed its work limit silently, and both must give the same result
// for a relabelled, shuffled copy.
func FuzzCanon(f *testing.F) {
	dir := shared.MustPath(f, "conformance", "rdf-canon", "rdfc10")
	for _, n := range []string{"test021", "test044", "test054", "test059", "test074"} {
		b, err := os.ReadFile(filepath.Join(dir, n+"-in.nq"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(clique(5)))
	f.Add([]byte(cycle("a", 3, "p") + cycle("b", 3, "p")))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		d, err := readNQuads(bytesReader(data))
		if err != nil || d.Len() > 200 {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(len(data)), 1))
		e := relabel(d, rng)
		opts := Options{MaxWork: 1 << 22}
		if sameOrderRelabelled(t, d, e, opts) {
			ok, err := IsomorphicWith(d, e, opts)
			if err != nil || !ok {
				t.Fatalf("Isomorphic with a relabelled copy = %v, %v", ok, err)
			}
		}
		for _, q := range d.Quads() {
			if q.P.IsBlank() {
				return // not RDF: Canonicalize rejects it
			}
		}
		ropts := Options{MaxWork: 1 << 12}
		ra, errA := Canonicalize(d, ropts)
		rb, errB := Canonicalize(e, ropts)
		if errA != nil || errB != nil {
			mustBeLimit(t, errA, errB)
			return
		}
		if ra.NQuads != rb.NQuads {
			t.Fatalf("RDFC-1.0 differs on a relabelled copy:\n%s---\n%s", ra.NQuads, rb.NQuads)
		}
	})
}

// sameOrderRelabelled checks that BlankOrder puts the blank nodes of d and
// of its relabelled copy e in the same order. It reports false when either
// ran out of work (any other error fails t).
func sameOrderRelabelled(t *testing.T, d, e *rdf.Dataset, opts Options) bool {
	t.Helper()
	oa, errA := BlankOrderWith(d, opts)
	ob, errB := BlankOrderWith(e, opts)
	if errA != nil || errB != nil {
		mustBeLimit(t, errA, errB)
		return false
	}
	if !slices.Equal(renamed(t, d, oa), renamed(t, e, ob)) {
		t.Fatal("BlankOrder differs on a relabelled copy")
	}
	return true
}

func mustBeLimit(t *testing.T, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil && !errors.Is(err, rdf.ErrLimit) {
			t.Fatalf("unexpected error %v", err)
		}
	}
}

// graphFromBytes builds a dataset over up to 16 blank nodes from fuzz
// bytes: each 3-byte group is a quad (subject, object, predicate and graph
// choices), which reaches symmetric structures far more often than text.
func graphFromBytes(data []byte) *rdf.Dataset {
	d := rdf.NewDataset()
	if len(data) == 0 {
		return d
	}
	n := int(data[0]%16) + 1
	node := func(b byte) rdf.Term {
		if int(b%32) < 2*n {
			return rdf.NewBlank("b" + strconv.Itoa(int(b%32)%n))
		}
		return rdf.NewIRI("http://ex/i" + strconv.Itoa(int(b%4)))
	}
	for i := 1; i+2 < len(data) && d.Len() < 300; i += 3 {
		q := rdf.Quad{S: node(data[i]), P: rdf.NewIRI("http://ex/p" + strconv.Itoa(int(data[i+2]&1))), O: node(data[i+1])}
		if data[i+2]&0x20 != 0 {
			// An RDF 1.2 triple term, sharing blank nodes with the graph.
			q.O = rdf.NewTripleTerm(node(data[i+1]), q.P, node(data[i]))
			if data[i+2]&0x40 != 0 {
				q.O = rdf.NewTripleTerm(node(data[i]), q.P, q.O)
			}
		}
		switch data[i+2] >> 1 & 3 {
		case 1:
			q.G = rdf.NewIRI("http://ex/g")
		case 2:
			q.G = rdf.NewBlank("b" + strconv.Itoa(int(data[i+2]>>3)%n))
		}
		d.Add(q)
	}
	return d
}

// FuzzLabel checks the fast labelling on fuzzed blank node graphs: it must
// be invariant under relabelling and agree with RDFC-1.0 (or, where
// RDFC-1.0 is incomplete, brute force) on whether a near miss is
// isomorphic.
func FuzzLabel(f *testing.F) {
	f.Add([]byte{5, 0, 1, 0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 0, 0})
	f.Add([]byte{15, 0, 1, 4, 1, 0, 4, 2, 3, 5, 3, 2, 5, 4, 5, 16, 5, 4, 16})
	f.Add([]byte{5, 0, 1, 0x20, 1, 2, 0x60, 2, 3, 0, 3, 4, 0x21, 4, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := graphFromBytes(data)
		if d.Len() == 0 {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(len(data)), 2))
		e := relabel(d, rng)
		opts := Options{MaxWork: 1 << 22}
		if !sameOrderRelabelled(t, d, e, opts) {
			return
		}
		crossCheck(t, d, nearMiss(d, rng), opts)
	})
}
