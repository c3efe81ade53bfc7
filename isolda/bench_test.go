package isolda

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
)

// bigSlice reads the first n triples (n <= 0: all) of the Nomisma file.
func bigSlice(b *testing.B, n int) *rdf.Dataset {
	b.Helper()
	f, err := os.Open(shared.MustPath(b, "data", "big", "nomisma.nt.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for i := 0; sc.Scan() && (n <= 0 || i < n); i++ {
		buf.Write(sc.Bytes())
		buf.WriteByte('\n')
	}
	d := rdf.NewDataset()
	if err := ntriples.Parse(&buf, ntriples.NTriples, d, rdf.ReadOptions{}); err != nil {
		b.Fatal(err)
	}
	return d
}

func benchEncode(b *testing.B, n int) { benchEncodeWith(b, n, Options{Version: V02}) }

func benchEncodeWith(b *testing.B, n int, opts Options) {
	d := bigSlice(b, n)
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
	d := bigSlice(b, n)
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
