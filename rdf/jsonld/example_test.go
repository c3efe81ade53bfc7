package jsonld_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
)

func ExampleParse() {
	doc := `{"@context": "https://schema.org", "@id": "https://example.com/gig", "@type": "MusicEvent",
	         "name": "Years & Years", "startDate": "2015-10-26"}`
	d := rdf.NewDataset()
	if err := jsonld.Parse(strings.NewReader(doc), d, jsonld.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range d.Quads() {
		fmt.Println(q)
	}
	// Output:
	// <https://example.com/gig> <http://schema.org/name> "Years & Years" .
	// <https://example.com/gig> <http://schema.org/startDate> "2015-10-26"^^<http://schema.org/Date> .
	// <https://example.com/gig> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/MusicEvent> .
}

func ExampleParseHTML() {
	page := `<html><head><script type="application/ld+json">
	{"@context": {"@vocab": "http://schema.org/"}, "@type": "Person", "name": "Ada"}
	</script></head></html>`
	d := rdf.NewDataset()
	if err := jsonld.ParseHTML(strings.NewReader(page), d, jsonld.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range d.Quads() {
		fmt.Println(q)
	}
	// Output:
	// _:b0 <http://schema.org/name> "Ada" .
	// _:b0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Person> .
}

func ExampleWrite() {
	d := rdf.NewDataset()
	d.AddPrefix("ex", "http://example.org/")
	d.AddTriple(rdf.NewIRI("http://example.org/a"), rdf.NewIRI("http://example.org/p"), rdf.NewLangString("hi", "en"))
	if err := jsonld.Write(os.Stdout, d, jsonld.WriteOptions{Form: jsonld.Compacted}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"@context":{"ex":"http://example.org/"},"@id":"ex:a","ex:p":{"@language":"en","@value":"hi"}}
}

func ExampleParse_error() {
	doc := `{"@context": {"@vocab": "http://schema.org/"},
 "@id": "https://example.com/gig", "name": "Years & Years",
 "organizer": {"@id": 42}}`
	err := jsonld.Parse(strings.NewReader(doc), rdf.NewDataset(), jsonld.Options{ReadOptions: rdf.ReadOptions{File: "gig.jsonld"}})
	fmt.Println(err)
	var pe *rdf.ParseError
	if errors.As(err, &pe) {
		fmt.Println("byte offset:", pe.Offset, doc[pe.Offset:pe.Offset+2])
	}
	// Output:
	// gig.jsonld:3:23: jsonld: invalid @id value: 42
	// byte offset: 129 42
}
