package baseline_test

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/rdf"
)

// BenchmarkEncode encodes the Wikidata lexeme example (the largest example)
// in each baseline; BenchmarkDecode reads it back.
func BenchmarkEncode(b *testing.B) {
	d := benchDataset(b)
	for _, name := range baseline.Names() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := baseline.Encode(io.Discard, d, name); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "quads/s")
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	d := benchDataset(b)
	for _, name := range baseline.Names() {
		var buf bytes.Buffer
		if err := baseline.Encode(&buf, d, name); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := baseline.Decode(bytes.NewReader(buf.Bytes()), name, rdf.ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "quads/s")
		})
	}
}

func benchDataset(b *testing.B) *rdf.Dataset {
	b.Helper()
	return readExample(b, filepath.Join("..", "..", "examples", "wikidata-L691820-lexeme.ttl"))
}
