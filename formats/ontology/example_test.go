package ontology_test

import (
	"fmt"
	"os"

	"github.com/isolda/isolda/formats/ontology"
)

func ExampleEncode() {
	o := &ontology.Ontology{
		Concepts:  []ontology.Concept{{ID: "Person", Label: "Person"}, {ID: "City", Label: "City"}},
		Relations: []ontology.Relation{{ID: "livesIn", Label: "livesIn", Domain: "Person", Range: "City"}},
	}
	for _, format := range []string{"text2kgbench", "entity_centric"} {
		if err := ontology.Encode(os.Stdout, o, format); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// Ontology Concepts: Person, City,
	// Ontology Relations: livesIn(Person,City)
	// ## Person
	// --[livesIn]--> City
	//
	// ## City
	// (no outgoing relations)
}
