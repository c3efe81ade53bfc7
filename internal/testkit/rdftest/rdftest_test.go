package rdftest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/rdf/rdfio"
)

// TestRead reads a Turtle statement and an N-Quads one in a
// named graph.
func TestRead(t *testing.T) {
	d := Read(t, "@prefix ex: <http://example.org/> .\nex:a ex:p \"x\" .\n", rdfio.Options{Format: rdfio.Turtle})
	if d.Len() != 1 || d.Sorted()[0].S.Value != "http://example.org/a" {
		t.Errorf("turtle: %v", d.Sorted())
	}
	d = Read(t, "<http://example.org/a> <http://example.org/p> <http://example.org/b> <http://example.org/g> .\n", rdfio.Options{Format: rdfio.NQuads})
	if d.Len() != 1 || d.Sorted()[0].G.Value != "http://example.org/g" {
		t.Errorf("n-quads: %v", d.Sorted())
	}
}

// TestReadFile reads a Turtle file named by its extension.
func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.ttl")
	if err := os.WriteFile(path, []byte("<http://example.org/a> <http://example.org/p> 1 .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := ReadFile(t, path, rdfio.Options{}); d.Len() != 1 || d.Sorted()[0].O.Value != "1" {
		t.Errorf("%v", d.Sorted())
	}
}
