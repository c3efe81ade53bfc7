package isolda

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

var versions = []string{V02, V01, V03, V04}

// readNQuads reads an N-Triples or N-Quads file with the RDF layer's reader.
func readNQuads(t testing.TB, path string) (*rdf.Dataset, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := rdf.NewDataset()
	err = ntriples.Parse(f, ntriples.NQuads, d, rdf.ReadOptions{File: path})
	return d, err
}

// readTurtle parses Turtle or TriG text.
func readTurtle(t testing.TB, text, base string) *rdf.Dataset {
	t.Helper()
	d := rdf.NewDataset()
	if err := turtle.Parse(strings.NewReader(text), turtle.TriG, d, rdf.ReadOptions{Base: base}); err != nil {
		t.Fatalf("input graph: %v", err)
	}
	return d
}

func encodeString(t testing.TB, d *rdf.Dataset, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, d, opts); err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b.String()
}

// roundTrip encodes d, decodes the text and reports whether the result is
// isomorphic to d (checked with rdf/canon, an independent implementation).
func roundTrip(t testing.TB, d *rdf.Dataset, opts Options) (string, error, bool) {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, d, opts); err != nil {
		return "", err, false
	}
	text := b.String()
	got, err := Decode(strings.NewReader(text))
	if err != nil {
		return text, err, false
	}
	iso, err := canon.Isomorphic(d, got)
	if err != nil {
		return text, err, false
	}
	return text, nil, iso
}

// shuffled returns a copy of d with its quads in a random order and its
// blank nodes relabelled (testgraph.Shuffled).
func shuffled(d *rdf.Dataset, seed uint64) *rdf.Dataset { return testgraph.Shuffled(d, seed, true) }
