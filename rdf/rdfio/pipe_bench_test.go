package rdfio

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

// nomisma returns Nomisma's N-Triples (unzipped) or Turtle, in memory.
func nomisma(b *testing.B, name string) []byte {
	data := shared.ReadFile(b, "data", "big", name)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			b.Fatal(err)
		}
	}
	return data
}

// benchStream converts in memory through a streaming writer, as
// isolda convert --stream does.
func benchStream(b *testing.B, name string, in Format, newWriter func(io.Writer) interface {
	rdf.Sink
	Flush() error
}) {
	data := nomisma(b, name)
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		w := newWriter(io.Discard)
		count := rdf.SinkFunc(func(q rdf.Quad) error { n++; return w.AddQuad(q) })
		// As the CLI does: the writers copy what they keep.
		opts := Options{Format: in, ReadOptions: rdf.ReadOptions{Transient: true}}
		if err := ReadIntoPipelined(bytes.NewReader(data), count, opts); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "quads/s")
}

// BenchmarkStreamNTriplesToNQuads is isolda convert --stream -t nquads of
// Nomisma's N-Triples (757k triples), in memory.
func BenchmarkStreamNTriplesToNQuads(b *testing.B) {
	benchStream(b, "nomisma.nt.gz", NTriples, func(w io.Writer) interface {
		rdf.Sink
		Flush() error
	} {
		return ntriples.NewWriter(w, ntriples.NQuads)
	})
}

// BenchmarkStreamTurtleToNTriples is isolda convert --stream -t ntriples
// of Nomisma's Turtle.
func BenchmarkStreamTurtleToNTriples(b *testing.B) {
	benchStream(b, "nomisma.ttl", Turtle, func(w io.Writer) interface {
		rdf.Sink
		Flush() error
	} {
		return ntriples.NewWriter(w, ntriples.NTriples)
	})
}

// BenchmarkStreamTurtleToTurtle is isolda convert --stream -t turtle of
// Nomisma's Turtle (prefixes passed through, subjects grouped).
func BenchmarkStreamTurtleToTurtle(b *testing.B) {
	benchStream(b, "nomisma.ttl", Turtle, func(w io.Writer) interface {
		rdf.Sink
		Flush() error
	} {
		return turtle.NewStreamWriter(w, turtle.Turtle, nil)
	})
}
