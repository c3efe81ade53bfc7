package synth

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
)

func generate(t testing.TB, n int64, seed uint64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, Options{Triples: n, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestExactCountAndValid checks that the output is valid N-Triples with
// exactly the number of statements asked for, none repeated, for sizes
// that cut an entity in the middle.
func TestExactCountAndValid(t *testing.T) {
	for _, n := range []int64{0, 1, 13, 14, 15, 999, 20_000} {
		data := generate(t, n, 1)
		if got := int64(bytes.Count(data, []byte("\n"))); got != n {
			t.Fatalf("n=%d: %d lines", n, got)
		}
		d := rdf.NewDataset()
		if err := ntriples.Parse(bytes.NewReader(data), ntriples.NTriples, d, rdf.ReadOptions{File: "synth"}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if int64(d.Len()) != n {
			t.Fatalf("n=%d: %d distinct statements", n, d.Len())
		}
	}
}

// TestDeterministic checks that a seed fixes the bytes and that seeds
// differ.
func TestDeterministic(t *testing.T) {
	a, b := generate(t, 5000, 42), generate(t, 5000, 42)
	if !bytes.Equal(a, b) {
		t.Fatal("same seed, different output")
	}
	if bytes.Equal(a, generate(t, 5000, 43)) {
		t.Fatal("different seeds, same output")
	}
}

// TestShape checks the features the generator promises on a mid-sized
// graph: every class used, labels in two languages, typed literals,
// blank nodes, escapes, and skewed in-degrees (hubs).
func TestShape(t *testing.T) {
	data := generate(t, 200_000, 7)
	d := rdf.NewDataset()
	if err := ntriples.Parse(bytes.NewReader(data), ntriples.NTriples, d, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	langs := map[string]bool{}
	datatypes := map[string]bool{}
	in := map[string]int{}
	blanks, escapes := 0, 0
	for _, q := range d.Quads() {
		if q.P.Value == rdfType && q.S.IsIRI() && strings.HasPrefix(q.O.Value, NS) {
			types[q.O.Value]++
		}
		if q.S.IsBlank() {
			blanks++
		}
		if q.O.IsLiteral() {
			langs[q.O.Lang] = true
			datatypes[q.O.Datatype] = true
			if strings.ContainsAny(q.O.Value, "\"\n") {
				escapes++
			}
		}
		if q.O.IsIRI() && strings.HasPrefix(q.O.Value, NS+"e") {
			in[q.O.Value]++
		}
	}
	for _, c := range classes {
		if types[NS+c.name] == 0 {
			t.Errorf("no entity of class %s", c.name)
		}
	}
	if types[NS+"Person"] < 3*types[NS+"Concept"] {
		t.Errorf("class frequencies not skewed: %v", types)
	}
	if len(langs) < 4 || !langs["en"] || !langs[""] {
		t.Errorf("languages: %v", langs)
	}
	for _, dt := range []string{rdf.XSDString, rdf.RDFLangString, xsd + "date", xsd + "integer", xsd + "decimal"} {
		if !datatypes[dt] {
			t.Errorf("no literal of datatype %s", dt)
		}
	}
	if blanks == 0 || escapes == 0 {
		t.Errorf("blank-node statements %d, literals with escapes %d", blanks, escapes)
	}
	var degrees []int
	for _, n := range in {
		degrees = append(degrees, n)
	}
	slices.Sort(degrees)
	median, top := degrees[len(degrees)/2], degrees[len(degrees)-1]
	if top < 100*median {
		t.Errorf("in-degrees not skewed: median %d, max %d", median, top)
	}
}

// heapProbe is a writer that samples the live heap (after a collection)
// every megabyte written.
type heapProbe struct {
	n       int
	lo, hi  uint64
	sampled bool
}

func (h *heapProbe) Write(p []byte) (int, error) {
	h.n += len(p)
	if h.n >= 1<<20 {
		h.n = 0
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if !h.sampled || m.HeapAlloc < h.lo {
			h.lo = m.HeapAlloc
		}
		h.hi = max(h.hi, m.HeapAlloc)
		h.sampled = true
	}
	return len(p), nil
}

// TestStreamsInConstantMemory checks that the live heap does not grow
// while 300,000 statements (about 30 MB) are written.
func TestStreamsInConstantMemory(t *testing.T) {
	var h heapProbe
	if err := Write(&h, Options{Triples: 300_000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if !h.sampled {
		t.Fatal("no sample")
	}
	if h.hi-h.lo > 1<<20 {
		t.Fatalf("live heap grew from %d to %d bytes", h.lo, h.hi)
	}
}
