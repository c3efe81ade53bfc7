package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestPhases logs the CPU time of reading and of encoding (not a timed
// test: figures for BENCHMARKS.md). ISOLDA_PHASES_NT names an N-Triples
// file, read as the CLI reads it and also packed and unpacked in Go;
// ISOLDA_PHASES_PACKED a packed dataset written by the Python package
// (isolda._pack.pack(graph)), unpacked as encode(graph) does.
func TestPhases(t *testing.T) {
	nt, packed := os.Getenv("ISOLDA_PHASES_NT"), os.Getenv("ISOLDA_PHASES_PACKED")
	if nt == "" && packed == "" {
		t.Skip("set ISOLDA_PHASES_NT and/or ISOLDA_PHASES_PACKED to time the phases on a file")
	}
	encode := func(name string, read func() (*rdf.Dataset, error)) {
		t.Helper()
		for range 2 {
			t0 := cputime.Used()
			d, err := read()
			if err != nil {
				t.Fatal(err)
			}
			t1 := cputime.Used()
			var buf bytes.Buffer
			if err := isolda.Encode(&buf, d, isolda.Options{}); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: read %.2f s CPU, encode %.2f s CPU, %d bytes", name, (t1 - t0).Seconds(), (cputime.Used() - t1).Seconds(), buf.Len())
		}
	}
	if nt != "" {
		encode("N-Triples as the CLI reads it", func() (*rdf.Dataset, error) { return rdfio.ReadFile(nt, nil, rdfio.Options{}) })
		d := rdftest.ReadFile(t, nt, rdfio.Options{})
		b, err := pack(d)
		if err != nil {
			t.Fatal(err)
		}
		encode("packed in Go (file order), unpacked", func() (*rdf.Dataset, error) { return unpack(b) })
	}
	if packed != "" {
		b, err := os.ReadFile(packed)
		if err != nil {
			t.Fatal(err)
		}
		encode("packed by Python, unpacked", func() (*rdf.Dataset, error) { return unpack(b) })
	}
}
