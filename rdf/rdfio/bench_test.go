package rdfio

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// benchRead reads a big shared file into a dataset b.N times.
func benchRead(b *testing.B, name string) {
	path := shared.MustPath(b, "data", "big", name)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		d, err := ReadFile(path, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n = d.Len()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "quads/s")
}

// BenchmarkReadDatasetTurtle measures end-to-end reading of Nomisma's
// Turtle (757k triples) into an interned, deduplicated rdf.Dataset.
func BenchmarkReadDatasetTurtle(b *testing.B) { benchRead(b, "nomisma.ttl") }

// BenchmarkReadDatasetNTriplesGz is the same from gzipped N-Triples.
func BenchmarkReadDatasetNTriplesGz(b *testing.B) { benchRead(b, "nomisma.nt.gz") }

// BenchmarkSummarize measures `isolda stats` on the parsed dataset.
func BenchmarkSummarize(b *testing.B) {
	d, err := ReadFile(filepath.Join(shared.MustPath(b, "data", "big"), "nomisma.ttl"), nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rdf.Summarize(d)
	}
}
