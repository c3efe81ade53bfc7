package formats

import (
	"errors"
	"slices"
	"strconv"
	"sync"

	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// InputKind is the model a format reads.
type InputKind int

// The input models of the formats.
const (
	// InputRDF is an RDF dataset.
	InputRDF InputKind = iota
	// InputGraph is a labelled graph (package graph): nodes with ids,
	// labels and types, typed directed edges. From an RDF dataset it is
	// graph.FromRDF's view.
	InputGraph
	// InputOntology is an ontology: concepts, and relations with domain
	// and range.
	InputOntology
)

// String names the input kind.
func (k InputKind) String() string {
	switch k {
	case InputRDF:
		return "RDF dataset"
	case InputGraph:
		return "labelled graph"
	case InputOntology:
		return "ontology"
	}
	return "InputKind(" + strconv.Itoa(int(k)) + ")"
}

// ErrNoDataset is returned by a format that needs an RDF dataset when the
// Input only holds a labelled graph.
var ErrNoDataset = errors.New("formats: this format needs an RDF dataset, the input is a labelled graph")

// Input is what an encoder reads: an RDF dataset, and the views other
// formats need, each derived from it on first use and then kept. An Input
// must not be copied after first use; its methods are safe for concurrent
// use.
type Input struct {
	// Dataset is the RDF dataset; nil for an input made by NewGraphInput.
	Dataset *rdf.Dataset
	// GraphOptions configure the labelled-graph view (graph.FromRDF).
	GraphOptions graph.Options

	graphOnce sync.Once
	graph     *graph.Graph
	kgOnce    sync.Once
	kg        *kgllmbench.KG
	ontOnce   sync.Once
	ont       *ontology.Ontology
}

// NewInput returns the input of a dataset.
func NewInput(d *rdf.Dataset) *Input { return &Input{Dataset: d} }

// NewGraphInput returns an input that only holds a labelled graph (such as
// the GraphRAG article's synthetic graph): formats of labelled graphs accept
// it, RDF formats fail with ErrNoDataset.
func NewGraphInput(g *graph.Graph) *Input {
	in := &Input{}
	in.graphOnce.Do(func() { in.graph = g })
	return in
}

// Graph returns the labelled-graph view, derived once with
// graph.FromRDF(in.Dataset, in.GraphOptions).
func (in *Input) Graph() *graph.Graph {
	in.graphOnce.Do(func() {
		d := in.Dataset
		if d == nil {
			d = rdf.NewDataset()
		}
		in.graph = graph.FromRDF(d, in.GraphOptions)
	})
	return in.graph
}

// KG returns the KG-LLM-Bench model of the labelled graph, derived once
// (see ToKG).
func (in *Input) KG() *kgllmbench.KG {
	in.kgOnce.Do(func() { in.kg = ToKG(in.Graph()) })
	return in.kg
}

// Ontology returns the ontology view, derived once with ToOntology, or
// the ontology given to NewOntologyInput.
func (in *Input) Ontology() *ontology.Ontology {
	in.ontOnce.Do(func() { in.ont = ToOntology(in.Dataset) })
	return in.ont
}

// NewOntologyInput returns an input that holds an ontology (such as a
// Text2KGBench ontology file read with ontology.LoadFile): the ontology
// formats write it; the other formats see an empty graph, and RDF formats
// fail with ErrNoDataset.
func NewOntologyInput(o *ontology.Ontology) *Input {
	in := &Input{}
	in.ontOnce.Do(func() { in.ont = o })
	return in
}

// ToKG adapts a labelled graph to KG-LLM-Bench's KG model:
//
//   - entities are the nodes in graph order, with ids "0", "1", ... (the
//     benchmark's ids are decimal integers) and as label the node's Label,
//     or its ID when it has none;
//   - relations are the distinct edge types in bytewise order, with ids
//     "0", "1", ... and the edge type (a compacted predicate such as
//     schema:knows) as label;
//   - edges are the graph's edges in order, each naming its entity and
//     relation ids.
//
// Wikidata ids are empty and no entity is core. Node types and literal
// attributes are not part of the model.
func ToKG(g *graph.Graph) *kgllmbench.KG {
	kg := &kgllmbench.KG{}
	ent := make(map[string]string, len(g.Nodes))
	for i, n := range g.Nodes {
		id := strconv.Itoa(i)
		if _, dup := ent[n.ID]; !dup {
			ent[n.ID] = id
		}
		label := n.Label
		if label == "" {
			label = n.ID
		}
		kg.Entities = append(kg.Entities, kgllmbench.Entity{ID: id, Label: label})
	}
	var types []string
	for _, e := range g.Edges {
		types = append(types, e.Type)
	}
	slices.Sort(types)
	types = slices.Compact(types)
	rel := make(map[string]string, len(types))
	for i, t := range types {
		id := strconv.Itoa(i)
		rel[t] = id
		kg.Relations = append(kg.Relations, kgllmbench.Relation{ID: id, Label: t})
	}
	for _, e := range g.Edges {
		h, ok1 := ent[e.From]
		t, ok2 := ent[e.To]
		if !ok1 || !ok2 {
			continue // an orphan edge has no entity to name
		}
		kg.Edges = append(kg.Edges, kgllmbench.Edge{Head: h, Relation: rel[e.Type], Tail: t})
	}
	return kg
}
