package formats_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/rdfio"
)

// The ontology view of the OWL example holds what its Turtle text states
// (facts read off ../shared/data/examples/lod-datagovuk-reference-intervals.ttl).
func TestToOntologyOWLExample(t *testing.T) {
	d := rdftest.ReadFile(t, filepath.Join("..", "examples", "lod-datagovuk-reference-intervals.ttl"), rdfio.Options{})
	o := formats.ToOntology(d)
	if o.ID != "intervals" {
		t.Errorf("ontology id %q, want intervals (the owl:Ontology is <http://reference.data.gov.uk/def/intervals/>)", o.ID)
	}
	wantRel := []ontology.Relation{
		// :intervalContainsDay rdfs:domain :Interval ; rdfs:range :Day (labelled "Generic Day (Class)").
		{ID: "intervalContainsDay", Label: "intervalContainsDay", Domain: "Interval", Range: "Generic Day (Class)"},
		// rdfs:domain is a union (a blank node): no domain; rdfs:range xsd:duration.
		{ID: "hasXsdDurationDescription", Label: "hasXsdDurationDescription (DataTypeProperty)", Range: "duration"},
		// rdf:Property with rdfs:range rdf:List.
		{ID: "intervalContainsDays", Label: "intervalContainsDays", Range: "List"},
	}
	for _, want := range wantRel {
		if !slices.Contains(o.Relations, want) {
			t.Errorf("missing relation %+v", want)
		}
	}
	for _, want := range []ontology.Concept{{ID: "Day", Label: "Generic Day (Class)"}, {ID: "Interval", Label: "Interval"}, {ID: "IntervalList", Label: "IntervalList"}} {
		if !slices.Contains(o.Concepts, want) {
			t.Errorf("missing concept %+v", want)
		}
	}
	// Instances are not concepts: :April is a :MonthOfYear.
	for _, c := range o.Concepts {
		if c.ID == "April" {
			t.Error("the instance :April became a concept")
		}
	}
	// Every ontology format writes it; the compact text2kgbench form names
	// the relation with its domain and range.
	for _, name := range formats.Names() {
		f, _ := formats.Get(name)
		if f.Input != formats.InputOntology {
			continue
		}
		text, err := formats.EncodeString(name, formats.NewInput(d))
		if err != nil || text == "" {
			t.Errorf("%s: %v", name, err)
		}
		if name == "onto_text2kgbench" && !strings.Contains(text, "intervalContainsDay(Interval,Generic Day (Class))") {
			t.Errorf("%s lacks intervalContainsDay(Interval,Generic Day (Class)):\n%.400s", name, text)
		}
	}
}

// A Text2KGBench ontology file goes through the registry unchanged.
func TestOntologyInput(t *testing.T) {
	o, err := ontology.LoadFile(filepath.Join(shared.MustPath(t, "data", "text2kgbench", "ontologies"), "1_university_ontology.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := formats.EncodeString("onto_text2kgbench", formats.NewOntologyInput(o))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := ontology.Encode(&want, o, "text2kgbench"); err != nil {
		t.Fatal(err)
	}
	if got != want.String() || !strings.Contains(got, "Ontology Concepts:") {
		t.Errorf("registry output differs from ontology.Encode:\n%s", got)
	}
}
