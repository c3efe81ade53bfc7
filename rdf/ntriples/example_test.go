package ntriples_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
)

func ExampleParse() {
	src := `<http://example.org/athens> <http://www.w3.org/2000/01/rdf-schema#label> "Athens"@EN .
<http://example.org/athens> <http://example.org/population> "664046"^^<http://www.w3.org/2001/XMLSchema#integer> .
`
	d := rdf.NewDataset()
	if err := ntriples.Parse(strings.NewReader(src), ntriples.NTriples, d, rdf.ReadOptions{File: "cities.nt"}); err != nil {
		fmt.Println(err)
		return
	}
	if err := ntriples.Write(os.Stdout, d, ntriples.NTriples); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <http://example.org/athens> <http://example.org/population> "664046"^^<http://www.w3.org/2001/XMLSchema#integer> .
	// <http://example.org/athens> <http://www.w3.org/2000/01/rdf-schema#label> "Athens"@EN .
}

// A warning: the reader keeps an IRI that a \u escape gives a '{' (as in
// schema.org's SearchAction), and reports it; with Strict it is an error.
func ExampleParse_warning() {
	src := `<http://example.org/s> <http://schema.org/target> <https://example.com/?s=\u007Bq\u007D> .` + "\n"
	warn := func(e *rdf.ParseError) { fmt.Println("warning:", e) }
	d := rdf.NewDataset()
	err := ntriples.Parse(strings.NewReader(src), ntriples.NTriples, d, rdf.ReadOptions{File: "a.nt", Warn: warn})
	fmt.Println(d.Len(), err)
	err = ntriples.Parse(strings.NewReader(src), ntriples.NTriples, rdf.NewDataset(), rdf.ReadOptions{File: "a.nt", Strict: true})
	fmt.Println(err)
	// Output:
	// warning: a.nt:1:51: IRI "https://example.com/?s={q}" contains the character "{", which IRIs may not contain
	// 1 <nil>
	// a.nt:1:51: IRI "https://example.com/?s={q}" contains the character "{", which IRIs may not contain
}

func ExampleReader() {
	src := "# a comment\n<http://example.org/s> <http://example.org/p> _:b1 <http://example.org/g> .\n_:b1 <http://example.org/p> \"x\" ."
	r := ntriples.NewReader(strings.NewReader(src), ntriples.NQuads, rdf.ReadOptions{})
	for {
		q, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("line %d: %v in graph %q\n", r.Line(), q.O, q.G.Value)
	}
	// Output:
	// line 2: _:b1 in graph "http://example.org/g"
	// line 3: "x" in graph ""
}

func ExampleParse_error() {
	src := "<http://example.org/s> <http://example.org/p> \"x\" .\n<http://example.org/s> <http://example.org/p> \"bad\\q\" .\n"
	err := ntriples.Parse(strings.NewReader(src), ntriples.NTriples, rdf.NewDataset(), rdf.ReadOptions{File: "data.nt"})
	fmt.Println(err)
	// Output:
	// data.nt:2:51: invalid escape \q in a string: expected one of \t \b \n \r \f \" \' \\ \uXXXX \UXXXXXXXX
}
