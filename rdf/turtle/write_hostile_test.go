package turtle_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// equalItemList returns "ex:a ex:p ( 1 1 ... 1 )" with n items.
func equalItemList(n int) *rdf.Dataset {
	d := rdf.NewDataset()
	one := rdf.NewLiteral("1", rdf.XSDInteger)
	node := func(i int) rdf.Term { return rdf.NewBlank("l" + strconv.Itoa(i)) }
	d.Add(rdf.Quad{S: iri("a"), P: iri("p"), O: node(0)})
	for i := range n {
		d.Add(rdf.Quad{S: node(i), P: rdf.NewIRI(rdf.RDFFirst), O: one})
		next := rdf.NewIRI(rdf.RDFNil)
		if i+1 < n {
			next = node(i + 1)
		}
		d.Add(rdf.Quad{S: node(i), P: rdf.NewIRI(rdf.RDFRest), O: next})
	}
	return d
}

// TestWriteLongListLinear writes a 10,000-item list. Finding lists used to
// collect the items of every suffix of every list (quadratic: 400 MB and
// 7 s of CPU for this one); it must now allocate little more than the
// output.
func TestWriteLongListLinear(t *testing.T) {
	const n = 10000
	d := equalItemList(n)
	var out bytes.Buffer
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	err := turtle.Write(&out, d, turtle.Turtle, turtle.WriteOptions{})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 32<<20 {
		t.Errorf("writing a %d-item list allocated %d MB, want at most 32 MB", n, alloc>>20)
	}
	if want := "<http://ex.org/a> <http://ex.org/p> (" + strings.Repeat(" 1", n) + " ) .\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("output ends with %q", out.String()[max(0, out.Len()-200):])
	}
	if msg := roundTrip(d, turtle.TriG); msg != "" {
		t.Error(msg[:min(len(msg), 2000)])
	}
}

// TestWriteLongNestedChain writes a chain of 50,000 blank nodes, each
// used once as an object: written nested 64 deep at most, it reads back
// the same. (Breaking cycles of nested nodes used to walk the chain from
// every node of it.)
func TestWriteLongNestedChain(t *testing.T) {
	const n = 50000
	d := rdf.NewDataset()
	node := func(i int) rdf.Term { return rdf.NewBlank("n" + strconv.Itoa(i)) }
	d.Add(rdf.Quad{S: iri("a"), P: iri("p"), O: node(0)})
	for i := range n {
		d.Add(rdf.Quad{S: node(i), P: iri("p"), O: node(i + 1)})
	}
	// And a cycle of nested nodes, which must still be broken.
	d.Add(rdf.Quad{S: bnode("c1"), P: iri("q"), O: bnode("c2")})
	d.Add(rdf.Quad{S: bnode("c2"), P: iri("q"), O: bnode("c1")})
	if msg := roundTrip(d, turtle.Turtle); msg != "" {
		t.Error(msg[:min(len(msg), 2000)])
	}
}

// cancelWriter cancels a context at its first write.
type cancelWriter struct {
	cancel context.CancelFunc
	n      int
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	w.cancel()
	w.n += len(p)
	return len(p), nil
}

// TestWriteContext checks that WriteContext stops soon after its context
// is cancelled: here, at the first flush of the output, on a long list and
// on many subjects.
func TestWriteContext(t *testing.T) {
	many := rdf.NewDataset()
	for i := range 30000 {
		many.Add(rdf.Quad{S: iri("s" + strconv.Itoa(i)), P: iri("p"), O: rdf.NewString("v")})
	}
	for name, d := range map[string]*rdf.Dataset{"list": equalItemList(50000), "subjects": many} {
		for _, syntax := range []turtle.Syntax{turtle.Turtle, turtle.TriG} {
			ctx, cancel := context.WithCancel(context.Background())
			w := &cancelWriter{cancel: cancel}
			err := turtle.WriteContext(ctx, w, d, syntax, turtle.WriteOptions{})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: err = %v, want context.Canceled", name, err)
			}
			// Polling every 1024 objects: well under the whole output
			// (over 100 KB for both).
			if w.n > 64<<10 {
				t.Errorf("%s: %d bytes written after cancellation", name, w.n)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := turtle.WriteContext(ctx, &out, many, turtle.Turtle, turtle.WriteOptions{}); !errors.Is(err, context.Canceled) || out.Len() != 0 {
		t.Errorf("cancelled before: err = %v, %d bytes written", err, out.Len())
	}
}
