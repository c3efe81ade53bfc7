package isolda

import (
	"bytes"
	"testing"

	"github.com/isolda/isolda/internal/testkit/testgraph"
)

func benchEncode(b *testing.B, n int) { benchEncodeWith(b, n, Options{Version: V02}) }

func benchEncodeWith(b *testing.B, n int, opts Options) {
	d := testgraph.Nomisma(b, n)
	var out bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		out.Reset()
		if err := Encode(&out, d, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Len()), "triples")
	b.SetBytes(int64(out.Len()))
}

func benchDecode(b *testing.B, n int) { benchDecodeWith(b, n, Options{Version: V02}) }

func benchDecodeWith(b *testing.B, n int, opts Options) {
	d := testgraph.Nomisma(b, n)
	var text bytes.Buffer
	if err := Encode(&text, d, opts); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(text.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Len()), "triples")
	b.SetBytes(int64(text.Len()))
}

func BenchmarkEncode1k(b *testing.B)   { benchEncode(b, 1000) }
func BenchmarkEncode10k(b *testing.B)  { benchEncode(b, 10000) }
func BenchmarkEncode100k(b *testing.B) { benchEncode(b, 100000) }
func BenchmarkEncode757k(b *testing.B) { benchEncode(b, 0) }
func BenchmarkDecode1k(b *testing.B)   { benchDecode(b, 1000) }
func BenchmarkDecode10k(b *testing.B)  { benchDecode(b, 10000) }
func BenchmarkDecode100k(b *testing.B) { benchDecode(b, 100000) }
func BenchmarkDecode757k(b *testing.B) { benchDecode(b, 0) }

func BenchmarkEncode757kV03(b *testing.B) { benchEncodeWith(b, 0, Options{Version: V03}) }
func BenchmarkDecode757kV03(b *testing.B) { benchDecodeWith(b, 0, Options{Version: V03}) }

func BenchmarkEncode757kV04(b *testing.B) { benchEncodeWith(b, 0, Options{Version: V04}) }
func BenchmarkDecode757kV04(b *testing.B) { benchDecodeWith(b, 0, Options{Version: V04}) }
