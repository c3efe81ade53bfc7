package rdfxml_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfxml"
)

func ExampleParse_error() {
	doc := `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <ex:Person rdf:about="http://example.org/alice" rdf:nodeID="a"/>
</rdf:RDF>`
	err := rdfxml.Parse(strings.NewReader(doc), rdf.NewDataset(), rdf.ReadOptions{File: "people.rdf"})
	fmt.Println(err)
	var pe *rdf.ParseError
	if errors.As(err, &pe) {
		fmt.Println("byte offset:", pe.Offset, doc[pe.Offset:pe.Offset+10])
	}
	// Output:
	// people.rdf:2:51: rdf:about and rdf:nodeID on one node element
	// byte offset: 147 rdf:nodeID
}
