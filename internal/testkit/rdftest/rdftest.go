// Package rdftest reads the RDF text that tests write inline (Turtle
// fixtures, a command's N-Quads output) into a dataset, failing the test
// on an error. Tests only; the tests of rdf/rdfio itself cannot import it.
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
