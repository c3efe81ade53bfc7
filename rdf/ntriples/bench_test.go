package ntriples

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// openNomisma opens the gzipped Nomisma N-Triples dump of the shared
// data folder, unpacking as it is read; it is closed when tb ends.
func openNomisma(tb testing.TB) io.Reader {
	tb.Helper()
	zr := shared.OpenGzip(tb, shared.MustPath(tb, "data", "big", "nomisma.nt.gz"))
	tb.Cleanup(func() { zr.Close() })
	return zr
}

// bigFile unpacks the Nomisma N-Triples dump into a temporary folder and
// returns its path.
func bigFile(b *testing.B) string {
	b.Helper()
	zr := openNomisma(b)
	dst := filepath.Join(b.TempDir(), "nomisma.nt")
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return dst
}

// nomismaTriples is the number of triples in nomisma.nt.gz (its README).
const nomismaTriples = 756972

// BenchmarkParseNomisma parses the 91 MB Nomisma dump from a file, end to
// end, and reports triples per second.
func BenchmarkParseNomisma(b *testing.B) {
	path := bigFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Used()
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		err = Parse(f, NTriples, rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), rdf.ReadOptions{File: path})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if n != nomismaTriples {
			b.Fatalf("got %d triples, want %d", n, nomismaTriples)
		}
	}
	cpu := cputime.Used() - cpu0
	b.ReportMetric(float64(nomismaTriples)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
	if cpu > 0 {
		// Triples per second of CPU time (all threads, GC included): the
		// rate on an idle machine, when other processes share the cores.
		b.ReportMetric(float64(nomismaTriples)*float64(b.N)/cpu.Seconds(), "triples/cpu-s")
	}
}

const sample = `# A small sample with the features real files use.
<http://example.org/s1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2004/02/skos/core#Concept> .
<http://example.org/s1> <http://www.w3.org/2004/02/skos/core#prefLabel> "Athens"@en .
<http://example.org/s1> <http://www.w3.org/2004/02/skos/core#prefLabel> "Αθήνα"@el .
<http://example.org/s1> <http://www.w3.org/2003/01/geo/wgs84_pos#lat> "37.9838"^^<http://www.w3.org/2001/XMLSchema#decimal> .
<http://example.org/s1> <http://purl.org/dc/terms/description> "A city \"of\" note,\nwith escapes \u00E9." .
_:b1 <http://www.w3.org/ns/prov#wasDerivedFrom> <http://example.org/s1> .
<http://example.org/s2> <http://www.w3.org/2004/02/skos/core#related> _:b1 .
`

// BenchmarkParseSample parses a small in-memory document.
func BenchmarkParseSample(b *testing.B) {
	doc := strings.Repeat(sample, 100)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n := 0
		err := Parse(strings.NewReader(doc), NTriples, rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), rdf.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if n != 700 {
			b.Fatalf("got %d triples, want 700", n)
		}
	}
}

// BenchmarkWriteSample writes the quads of the small sample.
func BenchmarkWriteSample(b *testing.B) {
	var qs []rdf.Quad
	if err := Parse(strings.NewReader(strings.Repeat(sample, 100)), NTriples, rdf.SinkFunc(func(q rdf.Quad) error {
		qs = append(qs, q)
		return nil
	}), rdf.ReadOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w := NewWriter(io.Discard, NTriples)
		for _, q := range qs {
			if err := w.WriteQuad(q); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(qs))*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}
