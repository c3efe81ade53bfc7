package rdfxml

import (
	"bytes"
	"io"
	"testing"

	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
)

// nomismaSample returns the first n triples of the Nomisma.org graph.
func nomismaSample(b *testing.B, n int) *rdf.Dataset { return testgraph.Nomisma(b, n) }

// BenchmarkParse reads 100,000 Nomisma.org triples written as RDF/XML.
func BenchmarkParse(b *testing.B) {
	d := nomismaSample(b, 100000)
	var doc bytes.Buffer
	if err := Write(&doc, d, WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.Len()))
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := Parse(bytes.NewReader(doc.Bytes()), rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), rdf.ReadOptions{})
		if err != nil || n != d.Len() {
			b.Fatalf("%d triples, %v", n, err)
		}
	}
	b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

// BenchmarkWrite writes 100,000 Nomisma.org triples as RDF/XML.
func BenchmarkWrite(b *testing.B) {
	d := nomismaSample(b, 100000)
	b.ResetTimer()
	for b.Loop() {
		if err := Write(io.Discard, d, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}
