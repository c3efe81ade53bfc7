package isolda

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

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
// blank nodes relabelled.
func shuffled(d *rdf.Dataset, seed uint64) *rdf.Dataset {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	qs := d.Quads()
	r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	relabel := map[string]string{}
	re := func(t rdf.Term) rdf.Term {
		if t.Kind != rdf.BlankKind {
			return t
		}
		l, ok := relabel[t.Value]
		if !ok {
			l = "n" + itoa36(len(relabel)*7919%100003) + string(rune('a'+r.IntN(26)))
			relabel[t.Value] = l
		}
		return rdf.NewBlank(l)
	}
	out := rdf.NewDataset()
	for _, q := range qs {
		out.Add(rdf.Quad{S: re(q.S), P: q.P, O: re(q.O), G: re(q.G)})
	}
	out.Prefixes = append(out.Prefixes, d.Prefixes...)
	return out
}

func itoa36(i int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{digits[i%36]}, b...)
		i /= 36
	}
	return string(b)
}
