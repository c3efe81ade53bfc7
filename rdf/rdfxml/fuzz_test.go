package rdfxml

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// FuzzParseRDFXML checks that the reader never panics or runs away on any
// input, that its errors are ParseErrors with a position, and that whatever
// it reads and the writer accepts reads back as the same graph.
func FuzzParseRDFXML(f *testing.F) {
	for _, suite := range []string{"rdfxml", "rdf12-rdfxml"} {
		root := shared.MustPath(f, "conformance", suite)
		_ = filepath.WalkDir(root, func(path string, de os.DirEntry, err error) error {
			if err == nil && !de.IsDir() && filepath.Ext(path) == ".rdf" {
				if src, err := os.ReadFile(path); err == nil {
					f.Add(src)
				}
			}
			return nil
		})
	}
	lim := rdf.Limits{MaxBytes: 1 << 20, MaxQuads: 1 << 14, MaxDepth: 64, MaxTermLength: 1 << 16}
	f.Fuzz(func(t *testing.T, src []byte) {
		d := rdf.NewDataset()
		err := Parse(bytes.NewReader(src), d, rdf.ReadOptions{Base: "http://example.org/base/doc.rdf", Limits: lim})
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Offset < 0 || pe.Offset > int64(len(src)) {
				t.Fatalf("error is not a positioned *rdf.ParseError: %#v", err)
			}
			checkOffset(t, src, pe)
			return
		}
		if d.Len() > 200 {
			return // keep the isomorphism check cheap
		}
		for _, q := range d.Quads() {
			for _, term := range []rdf.Term{q.S, q.O} {
				if term.Kind == rdf.IRIKind && rdf.ResolveIRI("", term.Value) != term.Value {
					return // dot segments: readers normalize rdf:about and rdf:resource values
				}
			}
		}
		var out bytes.Buffer
		if err := Write(&out, d, WriteOptions{}); err != nil {
			return // not every graph has an RDF/XML form
		}
		back := rdf.NewDataset()
		if err := Parse(bytes.NewReader(out.Bytes()), back, rdf.ReadOptions{}); err != nil {
			t.Fatalf("reading the written document: %v\n%s", err, out.String())
		}
		ok, err := canon.Isomorphic(d, back)
		if err != nil {
			return // the isomorphism checker's own work limit
		}
		if !ok {
			t.Fatalf("round trip differs\nwritten:\n%s\nfirst:\n%s\nback:\n%s", out.String(), dump(d), dump(back))
		}
	})
}

// checkOffset fails when the line and column of pe are not those of its
// byte offset in src, for UTF-8 input (with or without a byte order mark)
// that declares no other encoding.
func checkOffset(t *testing.T, src []byte, pe *rdf.ParseError) {
	if !utf8.Valid(src) || bytes.Contains(bytes.ToLower(src), []byte("encoding")) {
		return
	}
	bom := bytes.HasPrefix(src, []byte("\xef\xbb\xbf"))
	line, col := 1, 1
	for i, c := range src[:pe.Offset] {
		switch {
		case c == '\n':
			line, col = line+1, 1
		case c&0xC0 != 0x80 && !(i == 0 && bom):
			col++
		}
	}
	if line != pe.Line || col != pe.Column {
		t.Fatalf("%v: offset %d is at %d:%d", pe, pe.Offset, line, col)
	}
}
