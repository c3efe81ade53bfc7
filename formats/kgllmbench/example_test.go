package kgllmbench_test

import (
	"os"

	"github.com/isolda/isolda/formats/kgllmbench"
)

// The list_of_edges example of shared/reference/benchmarks.md §1.5.
func ExampleTextualize() {
	kg := &kgllmbench.KG{
		Entities: []kgllmbench.Entity{
			{ID: "0", WikidataID: "Q31", Label: "Belgium", Core: true},
			{ID: "3101", WikidataID: "Q32", Label: "Luxembourg", Core: true},
			{ID: "22010", WikidataID: "Q4916", Label: "euro"},
		},
		Relations: []kgllmbench.Relation{{ID: "40", WikidataID: "P47", Label: "shares border with"}, {ID: "4", WikidataID: "P38", Label: "currency"}},
		Edges:     []kgllmbench.Edge{{Head: "0", Relation: "40", Tail: "3101"}, {Head: "3101", Relation: "4", Tail: "22010"}},
	}
	if err := kgllmbench.Textualize(os.Stdout, kg, "list_of_edges"); err != nil {
		panic(err)
	}
	// Output:
	// Edges: [
	// (Belgium, shares border with, Luxembourg),
	// (Luxembourg, currency, euro)
	// ]
}
