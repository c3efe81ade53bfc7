package kg_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

// Generate questions about an RDF graph, print the counts per family, and
// score two answers.
func ExampleGenerate() {
	d, err := rdfio.Read(strings.NewReader(`@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:ada a ex:Person ; rdfs:label "Ada Lovelace" ; ex:born "1815" ; ex:colleague ex:charles .
ex:charles a ex:Person ; rdfs:label "Charles Babbage" ; ex:born "1791" .
`), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		panic(err)
	}
	families, _ := kg.ParseFamilies("lookup,multi-hop,count")
	set, err := kg.Generate(d, kg.Options{Families: families, PerFamily: 1, Seed: 1201})
	if err != nil {
		panic(err)
	}
	set.WriteCounts(os.Stdout)
	for _, q := range set.Questions {
		fmt.Printf("%s: %s -> %s\n", q.ID, q.Text, q.Gold.Value)
	}
	fmt.Println(task.ScoreKG.Score(set.Questions[2], "There are 2 people.").Correct)
	// Output:
	// lookup: 1 questions (2 candidates)
	// multi_hop: 1 questions (1 candidates)
	// count: 1 questions (1 candidates)
	// total: 3 questions
	// lookup-001: What is the born of Ada Lovelace? -> 1815
	// multi_hop-001: What is the colleague of Ada Lovelace? -> Charles Babbage
	// count-001: How many entities of type Person are there? -> 2
	// true
}
