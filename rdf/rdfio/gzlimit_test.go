package rdfio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMaxDecompressed: Read (the in-memory path) refuses a gzip input that
// unpacks to more than MaxDecompressed bytes with a clear limit error,
// accepts one of exactly that size, and ReadInto (streaming) is not bound.
func TestMaxDecompressed(t *testing.T) {
	doc := strings.Repeat(" ", 1<<20) + "<a> <b> <c> .\n"
	data := gz(t, doc)
	_, err := Read(bytes.NewReader(data), Options{ReadOptions: rdf.ReadOptions{File: "x.nt.gz"}, Format: NTriples, MaxDecompressed: 1 << 20})
	if !errors.Is(err, rdf.ErrLimit) || !strings.Contains(err.Error(), "once decompressed") || !strings.HasPrefix(err.Error(), "x.nt.gz") {
		t.Errorf("over the limit: %v", err)
	}
	d, err := Read(bytes.NewReader(data), Options{Format: NTriples, MaxDecompressed: int64(len(doc))})
	if err != nil || d.Len() != 1 {
		t.Errorf("exactly the limit: %v", err)
	}
	n := 0
	err = ReadInto(bytes.NewReader(data), rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), Options{Format: NTriples, MaxDecompressed: 1 << 10})
	if err != nil || n != 1 {
		t.Errorf("streaming: %d statements, %v", n, err)
	}
	// Uncompressed input is bound by Limits.MaxBytes only.
	if _, err := Read(strings.NewReader(doc), Options{Format: NTriples, MaxDecompressed: 1 << 10}); err != nil {
		t.Errorf("plain input: %v", err)
	}
}

// TestMaxDecompressedJSONLD: JSON-LD, whose reader keeps the whole
// document, is bounded even through the streaming entry points.
func TestMaxDecompressedJSONLD(t *testing.T) {
	data := gz(t, strings.Repeat(" ", 1<<20)+`{"@id": "http://a", "http://b": "c"}`)
	opts := Options{ReadOptions: rdf.ReadOptions{File: "x.jsonld.gz"}, Format: JSONLD, MaxDecompressed: 1 << 20}
	sink := rdf.SinkFunc(func(rdf.Quad) error { return nil })
	for name, err := range map[string]error{
		"ReadInto":          ReadInto(bytes.NewReader(data), sink, opts),
		"ReadIntoPipelined": ReadIntoPipelined(bytes.NewReader(data), sink, opts),
	} {
		if !errors.Is(err, rdf.ErrLimit) || !strings.Contains(err.Error(), "once decompressed") {
			t.Errorf("%s: %v", name, err)
		}
	}
	opts.MaxDecompressed = 2 << 20
	n := 0
	if err := ReadInto(bytes.NewReader(data), rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), opts); err != nil || n != 1 {
		t.Errorf("within the bound: %d statements, %v", n, err)
	}
}
