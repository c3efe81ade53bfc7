package turtle_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

func ExampleParse() {
	src := `@prefix ex: <http://example.org/> .
ex:alice a ex:Person ; ex:knows [ ex:name "Bob" ] .`
	sink := rdf.SinkFunc(func(q rdf.Quad) error {
		fmt.Println(q)
		return nil
	})
	if err := turtle.Parse(strings.NewReader(src), turtle.Turtle, sink, rdf.ReadOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <http://example.org/alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/Person> .
	// _:genid0 <http://example.org/name> "Bob" .
	// <http://example.org/alice> <http://example.org/knows> _:genid0 .
}

func ExampleWrite() {
	d := rdf.NewDataset()
	d.AddPrefix("ex", "http://example.org/")
	alice, knows, name := rdf.NewIRI("http://example.org/alice"), rdf.NewIRI("http://example.org/knows"), rdf.NewIRI("http://example.org/name")
	d.AddTriple(alice, knows, rdf.NewBlank("b"))
	d.AddTriple(rdf.NewBlank("b"), name, rdf.NewString("Bob"))
	d.AddTriple(alice, rdf.NewIRI(rdf.RDFType), rdf.NewIRI("http://example.org/Person"))
	if err := turtle.Write(os.Stdout, d, turtle.Turtle, turtle.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// @prefix ex: <http://example.org/> .
	//
	// ex:alice a ex:Person ;
	//     ex:knows [ ex:name "Bob" ] .
}

func ExampleParse_error() {
	err := turtle.Parse(strings.NewReader("<http://x/s> <http://x/p> \"unterminated .\n"), turtle.Turtle,
		rdf.NewDataset(), rdf.ReadOptions{File: "data.ttl"})
	fmt.Println(err)
	// Output:
	// data.ttl:1:42: line break in a short string (use """ or \n)
}
