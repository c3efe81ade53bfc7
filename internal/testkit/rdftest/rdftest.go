// Package rdftest reads the RDF that tests use, written inline (Turtle
// fixtures, a command's N-Quads output) or in files (the examples, the
// corpus), into a dataset, failing the test on an error. Tests only; the tests of rdf/rdfio itself cannot import it.
package rdftest

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// Read reads text with rdfio.Read and opts (the syntax, a base, ...),
// failing the test when it does not parse.
func Read(t testing.TB, text string, opts rdfio.Options) *rdf.Dataset {
	t.Helper()
	d, err := rdfio.Read(strings.NewReader(text), opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ReadFile reads the file at path with rdfio.ReadFile and opts (the syntax
// from the file name unless opts names one), failing the test with the
// path when it cannot be read or does not parse.
func ReadFile(t testing.TB, path string, opts rdfio.Options) *rdf.Dataset {
	t.Helper()
	d, err := rdfio.ReadFile(path, nil, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}
