package baseline_test

import (
	"os"
	"strings"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/rdf/rdfio"
)

func ExampleEncode() {
	d, err := rdfio.Read(strings.NewReader(`
@prefix schema: <http://schema.org/> .
@prefix ex: <http://example.org/> .
ex:gig a schema:MusicEvent ; schema:name "Live # 1" ; schema:location ex:venue ;
    schema:offers [ a schema:Offer ; schema:price 25 ] .
ex:venue a schema:Place ; schema:name "The Olympia" .
`), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		panic(err)
	}
	if err := baseline.Encode(os.Stdout, d, baseline.TTLIDs); err != nil {
		panic(err)
	}
	// Output:
	// @prefix : <http://schema.org/> .
	// @prefix ex: <http://example.org/> .
	//
	// ex:gig a :MusicEvent ;
	//     :location ex:venue ;  # The Olympia
	//     :name "Live # 1" ;
	//     :offers [
	//         a :Offer ;
	//         :price 25
	//     ] .
	//
	// ex:venue a :Place ;
	//     :name "The Olympia" .
}
