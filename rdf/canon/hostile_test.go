package canon

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/isolda/isolda/rdf"
)

// Hostile datasets: chains of blank nodes that no first degree hash tells
// apart. RDFC-1.0's work on them grows with the square of their length.

// listOf returns "ex:a ex:p ( item item ... )" with n items.
func listOf(n int, item func(i int) rdf.Term) *rdf.Dataset {
	d := rdf.NewDataset()
	first, rest := rdf.NewIRI(rdf.RDFFirst), rdf.NewIRI(rdf.RDFRest)
	node := func(i int) rdf.Term { return rdf.NewBlank("l" + strconv.Itoa(i)) }
	d.Add(rdf.Quad{S: rdf.NewIRI("http://example.org/a"), P: rdf.NewIRI("http://example.org/p"), O: node(0)})
	for i := range n {
		d.Add(rdf.Quad{S: node(i), P: first, O: item(i)})
		next := rdf.NewIRI(rdf.RDFNil)
		if i+1 < n {
			next = node(i + 1)
		}
		d.Add(rdf.Quad{S: node(i), P: rest, O: next})
	}
	return d
}

// ring returns n blank nodes, each pointing to the next, the last to the
// first.
func ring(n int) *rdf.Dataset {
	d := rdf.NewDataset()
	p := rdf.NewIRI("http://example.org/p")
	for i := range n {
		d.Add(rdf.Quad{S: rdf.NewBlank("r" + strconv.Itoa(i)), P: p, O: rdf.NewBlank("r" + strconv.Itoa((i+1)%n))})
	}
	return d
}

// torus returns an n x n grid of blank nodes, wrapped around both ways.
func torus(n int) *rdf.Dataset {
	d := rdf.NewDataset()
	p, q := rdf.NewIRI("http://example.org/p"), rdf.NewIRI("http://example.org/q")
	v := func(i, j int) rdf.Term { return rdf.NewBlank(fmt.Sprintf("t%d_%d", (i+n)%n, (j+n)%n)) }
	for i := range n {
		for j := range n {
			d.Add(rdf.Quad{S: v(i, j), P: p, O: v(i+1, j)})
			d.Add(rdf.Quad{S: v(i, j), P: q, O: v(i, j+1)})
		}
	}
	return d
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestRDFCChainsAreRefusedCheaply checks that RDFC-1.0 refuses chains of
// alike blank nodes with a limit error after little work and memory. Each
// Hash N-Degree Quads call on them walks the whole chain, once for every
// member: before the lower bound of precheck, and while each level of the
// recursion copied its issuer, a 10,000-item list of equal items ran out of
// memory and a 2,000-node ring allocated hundreds of megabytes.
func TestRDFCChainsAreRefusedCheaply(t *testing.T) {
	one := rdf.NewLiteral("1", rdf.XSDInteger)
	for _, c := range []struct {
		name string
		d    *rdf.Dataset
	}{
		{"list of 10000 equal items", listOf(10000, func(int) rdf.Term { return one })},
		{"ring of 2000", ring(2000)},
		{"ring of 50000", ring(50000)},
		{"torus 30x30", torus(30)},
	} {
		var err error
		var work int64
		bytes := allocated(func() { _, work, err = canonicalize(context.Background(), c.d, Options{}) })
		if !errors.Is(err, rdf.ErrLimit) {
			t.Errorf("%s: err = %v, want a limit error", c.name, err)
		}
		// The dataset's own index is about 100 bytes per quad; precheck
		// needs a few arrays of blank nodes.
		if limit := uint64(64<<20 + 1000*c.d.Len()); bytes > limit {
			t.Errorf("%s: allocated %d MB, want at most %d MB", c.name, bytes>>20, limit>>20)
		}
		if work != 0 {
			t.Errorf("%s: %d units of N-degree work before refusing, want 0 (refused by the lower bound)", c.name, work)
		}
		t.Logf("%s: %d quads, %d KB allocated: %v", c.name, c.d.Len(), bytes>>10, err)
	}
}

// TestRDFCLongChainsWithinTheLimit: a list whose items come in pairs (0 1
// ... k 0 1 ... k) is one chain of alike blank nodes, but only two members
// of each first degree hash group: RDFC-1.0 needs linear work per member
// and completes. Its recursion is as deep as the list is long; memory must
// stay linear (the issuer is not copied per level), and a relabelled,
// shuffled copy gets the same hash.
func TestRDFCLongChainsWithinTheLimit(t *testing.T) {
	const n = 4000
	d := listOf(n, func(i int) rdf.Term { return rdf.NewLiteral(strconv.Itoa(i%(n/2)), rdf.XSDInteger) })
	var h1 string
	var err error
	bytes := allocated(func() { h1, err = Hash(d) })
	if err != nil {
		t.Fatal(err)
	}
	// Copying the issuer at each level allocated 160 MB here.
	if bytes > 40<<20 {
		t.Errorf("allocated %d MB, want at most 40 MB", bytes>>20)
	}
	// The reference implementation, rdf-canonize 5.0.0 (node), gives this
	// hash for the same list.
	const reference = "616015ad67528f882f74c29db40b01353dcd7cb55d4250f70b1b463d303d387c"
	if h1 != reference {
		t.Errorf("hash %s, want the reference %s", h1, reference)
	}
	h2, err := Hash(relabel(d, rand.New(rand.NewPCG(3, 4))))
	if err != nil || h1 != h2 {
		t.Errorf("relabelled copy: hash %s (%v), want %s", h2, err, h1)
	}
	// Longer than the recursion bound: a limit error, not a stack overflow.
	long := listOf(40000, func(i int) rdf.Term { return rdf.NewLiteral(strconv.Itoa(i%20000), rdf.XSDInteger) })
	if _, err := Hash(long); !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("list of 40000 items in pairs: err = %v, want a limit error", err)
	}
}

// TestRDFCContext checks that HashContext and CanonicalizeContext stop
// when the context is cancelled, on a clique that would otherwise run for
// a very long time (no work limit).
func TestRDFCContext(t *testing.T) {
	d := parseNQ(t, clique(10))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := HashContext(ctx, d, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := CanonicalizeContext(ctx, d, Options{MaxWork: -1})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: err = %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("returned %v after the deadline", el)
	}
}

// TestLabelContextAndMemory checks the fast labelling's bounds: a blank
// node with 2000 identical triangles hanging from it makes the search
// individualize one triangle per level; memory is bounded by the size of
// the component (it reached 424 MB before) and a cancelled context stops
// the search.
func TestLabelContextAndMemory(t *testing.T) {
	d := rdf.NewDataset()
	p, q := rdf.NewIRI("http://example.org/p"), rdf.NewIRI("http://example.org/q")
	v := func(i, j int) rdf.Term { return rdf.NewBlank(fmt.Sprintf("c%d_%d", i, j)) }
	for i := range 2000 {
		d.Add(rdf.Quad{S: rdf.NewBlank("hub"), P: p, O: v(i, 0)})
		for j := range 3 {
			d.Add(rdf.Quad{S: v(i, j), P: q, O: v(i, (j+1)%3)})
		}
	}
	var err error
	bytes := allocated(func() { _, err = BlankOrder(d) })
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("err = %v, want a limit error", err)
	}
	if bytes > 150<<20 {
		t.Errorf("allocated %d MB, want at most 150 MB", bytes>>20)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BlankOrderContext(ctx, d, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("BlankOrderContext: err = %v", err)
	}
	if _, err := IsomorphicContext(ctx, d, d, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("IsomorphicContext: err = %v", err)
	}
}
