package rdfxml

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/shared"
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
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error is not a positioned *rdf.ParseError: %#v", err)
			}
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
