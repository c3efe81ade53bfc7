package synth

import (
	"io"
	"testing"
)

// BenchmarkWrite generates 1,000,000 statements (about 105 MB).
func BenchmarkWrite(b *testing.B) {
	b.SetBytes(105_000_000)
	for b.Loop() {
		if err := Write(io.Discard, Options{Triples: 1_000_000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
