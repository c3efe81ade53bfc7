package turtle_test

import (
	"bufio"
	"io"
	"os"
	"testing"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// BenchmarkParseNomisma parses the 757k-triple Nomisma thesaurus (37.5 MB)
// from disk into a counting sink and reports triples per second.
func BenchmarkParseNomisma(b *testing.B) {
	path := shared.MustPath(b, "data", "big", "nomisma.ttl")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	var n int64
	cpu0 := cputime.Used()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		sink := rdf.SinkFunc(func(rdf.Quad) error { n++; return nil })
		if err := turtle.Parse(bufio.NewReaderSize(f, 1<<16), turtle.Turtle, sink, rdf.ReadOptions{File: path}); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
	if cpu := cputime.Used() - cpu0; cpu > 0 {
		// CPU time, unlike wall time, does not depend on the load of the machine.
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "triples/cpu-s")
	}
}

// BenchmarkParseNomismaDataset parses Nomisma into an rdf.Dataset (end to
// end, including interning).
func BenchmarkParseNomismaDataset(b *testing.B) {
	path := shared.MustPath(b, "data", "big", "nomisma.ttl")
	var n int
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		d := rdf.NewDataset()
		if err := turtle.Parse(f, turtle.Turtle, d, rdf.ReadOptions{File: path}); err != nil {
			b.Fatal(err)
		}
		n = d.Len()
		f.Close()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

// BenchmarkWriteNomisma writes the Nomisma thesaurus as Turtle.
func BenchmarkWriteNomisma(b *testing.B) {
	path := shared.MustPath(b, "data", "big", "nomisma.ttl")
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	d := rdf.NewDataset()
	if err := turtle.Parse(bufio.NewReader(f), turtle.Turtle, d, rdf.ReadOptions{File: path}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var n int64
	for b.Loop() {
		cw := &countWriter{}
		if err := turtle.Write(cw, d, turtle.Turtle, turtle.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		n = cw.n
	}
	b.SetBytes(n)
	b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// BenchmarkWriteLongList writes "ex:a ex:p ( 1 1 ... )" with 40,000 items
// as Turtle (list detection was quadratic in the list's length).
func BenchmarkWriteLongList(b *testing.B) {
	d := equalItemList(40000)
	b.ResetTimer()
	for b.Loop() {
		if err := turtle.Write(io.Discard, d, turtle.Turtle, turtle.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
