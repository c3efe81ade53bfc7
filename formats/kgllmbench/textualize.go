package kgllmbench

import (
	"bufio"
	"fmt"
	"io"

	"github.com/isolda/isolda/formats/internal/registry"
)

// FormatInfo describes one textualization.
type FormatInfo struct {
	// Name is the benchmark's format name, as Textualize accepts it.
	Name string
	// Lossless is true when the text keeps everything in the KG model
	// (entity and relation ids and labels, and every edge).
	Lossless bool
	// Loses says in words what the text drops (empty when Lossless).
	Loses string
	// Paper is true for the five formats of the paper's results.
	Paper bool
}

const losesCommon = "Wikidata ids and the core flag of entities (and literal datatypes, but the KG has none)"

// textualization is one format of the benchmark: its metadata, its
// description in the prompt and its writer.
type textualization struct {
	info        FormatInfo
	description string
	write       func(w *bufio.Writer, kg *KG) error
}

// textualizations lists the formats in the benchmark's order.
func textualizations() []textualization {
	rdflib := func(write func(*bufio.Writer, *KG, bool, bool) error, entityIDs, relationIDs bool) func(*bufio.Writer, *KG) error {
		return func(w *bufio.Writer, kg *KG) error { return write(w, kg, entityIDs, relationIDs) }
	}
	return []textualization{
		{FormatInfo{Name: "list_of_edges", Paper: true, Loses: "entity and relation ids (entities with the same label become indistinguishable; labels containing \", \" or \")\" make lines ambiguous), entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as a list of directed edges of the form (subject, relation, object).", writeListOfEdges},
		{FormatInfo{Name: "structured_yaml", Paper: true, Loses: "entity and relation ids (entities with the same label merge into one key), edge order (heads and relations are sorted), entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as a structured YAML format. Each entity is a key, and the value is a dictionary of relations and objects.", writeStructuredYAML},
		{FormatInfo{Name: "structured_json", Paper: true, Loses: "entity and relation ids (entities with the same label merge into one key), edge order (edges are grouped by head label and relation), entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as a structured JSON format. Each entity is a key, and the value is a dictionary of relations and objects.", writeStructuredJSON},
		{FormatInfo{Name: "rdf_turtle1", Loses: "entity and relation ids (nodes and predicates are percent-encoded labels, so entities with the same label merge), edge order, entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as RDF Turtle format with URI encoded labels.", rdflib(writeTurtle, false, false)},
		{FormatInfo{Name: "rdf_turtle2", Loses: "relation ids (predicates are percent-encoded relation labels), edge order (subjects, predicates and objects are sorted), relations without edges, " + losesCommon}, "The knowledge graph is presented as RDF Turtle format using node IDs and URI encoded relations.", rdflib(writeTurtle, true, false)},
		{FormatInfo{Name: "rdf_turtle3", Paper: true, Loses: "edge order (subjects, predicates and objects are sorted), " + losesCommon}, "The knowledge graph is presented as RDF Turtle format using node IDs and relation IDs.", rdflib(writeTurtle, true, true)},
		{FormatInfo{Name: "json_ld1", Loses: "entity and relation ids (nodes and predicates are percent-encoded labels, so entities with the same label merge), edge order, entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as JSON-LD format with URI encoded labels.", rdflib(writeJSONLD, false, false)},
		{FormatInfo{Name: "json_ld2", Loses: "relation ids (predicates are percent-encoded relation labels), edge order (node order is random in the source; keys are sorted), relations without edges, " + losesCommon}, "The knowledge graph is presented as JSON-LD format using node IDs and URI encoded relations.", rdflib(writeJSONLD, true, false)},
		{FormatInfo{Name: "json_ld3", Paper: true, Loses: "edge order (node order is random in the source; keys are sorted), " + losesCommon}, "The knowledge graph is presented as JSON-LD format using node IDs and relation IDs.", rdflib(writeJSONLD, true, true)},
		{FormatInfo{Name: "nt", Loses: "entity and relation ids (IRIs are percent-encoded labels, so entities with the same label merge), edge order (random in the source), entities and relations without edges, " + losesCommon}, "The knowledge graph is presented as N-Triples format.", writeNT},
	}
}

// lookup returns the named textualization.
func lookup(format string) (textualization, bool) {
	return registry.Find(textualizations(), format, func(t textualization) string { return t.info.Name })
}

// Formats lists the textualizations Textualize supports, in the benchmark's
// order. No format is lossless with respect to the KG model: none writes
// Wikidata ids or the core flag.
func Formats() []FormatInfo {
	return registry.Map(textualizations(), func(t textualization) FormatInfo { return t.info })
}

// Description returns the benchmark's description of a format (the
// DESCRIPTION of the prompt), or "" for an unknown format. The texts of
// rdf_turtle1, json_ld1 and nt follow the benchmark's docstrings; those
// formats were not used in the paper and their descriptions have no oracle.
func Description(format string) string {
	t, _ := lookup(format)
	return t.description
}

// Prompt returns the benchmark's full prompt (BaseTask.structure_prompt):
// the introduction with the format's description, the KG text and the
// question.
func Prompt(format, text, question string) string {
	return PromptDescribed(Description(format), text, question)
}

// PromptDescribed is Prompt with a given DESCRIPTION, for textualizations
// the benchmark does not have.
func PromptDescribed(description, text, question string) string {
	intro := "Your job is to answer questions using the following knowledge graph. " + description +
		". You must rely exclusively on the information presented in the Knowledge Graph to answer questions. " +
		"If the answer includes entities, always respond using the entity label rather than entity ID (if applicable)."
	return intro + "\n\nKnowledge Graph:\n" + text + "\n\n" + question
}

// Textualize writes kg in the named format exactly as KG-LLM-Bench's
// KnowledgeGraphTextPresenter.convert returns it (see Formats for the
// names). Edges whose head or tail is not an entity of kg, or whose
// relation has no RelationLabel and is not a relation of kg, are an error
// (the benchmark raises KeyError).
//
// Where the benchmark's output depends on Python's hash seed, Textualize
// writes the output of PYTHONHASHSEED=0 for json_ld1/2/3 (the order of
// their nodes, as the benchmark's regenerated instances have it), and one
// of the possible outputs elsewhere: nt lines in triple insertion order,
// rdf_turtle1's generated nsN prefixes numbered in triple insertion order.
func Textualize(w io.Writer, kg *KG, format string) error {
	t, ok := lookup(format)
	if !ok {
		return fmt.Errorf("kgllmbench: unknown format %q", format)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := t.write(bw, kg); err != nil {
		return err
	}
	return bw.Flush()
}

// triple is an edge with labels resolved.
type triple struct {
	head, rel, tail       string // labels
	headID, relID, tailID string
}

// labelTriples resolves the edges' labels (get_triplets).
func labelTriples(kg *KG) ([]triple, error) {
	ents := make(map[string]string, len(kg.Entities))
	for _, e := range kg.Entities {
		ents[e.ID] = e.Label
	}
	rels := make(map[string]string, len(kg.Relations))
	for _, r := range kg.Relations {
		rels[r.ID] = r.Label
	}
	out := make([]triple, len(kg.Edges))
	for i, e := range kg.Edges {
		h, ok := ents[e.Head]
		if !ok {
			return nil, fmt.Errorf("kgllmbench: edge %d: unknown head entity %q", i, e.Head)
		}
		t, ok := ents[e.Tail]
		if !ok {
			return nil, fmt.Errorf("kgllmbench: edge %d: unknown tail entity %q", i, e.Tail)
		}
		r, ok := rels[e.Relation]
		if e.RelationLabel != "" {
			r, ok = e.RelationLabel, true
		}
		if !ok {
			return nil, fmt.Errorf("kgllmbench: edge %d: unknown relation %q", i, e.Relation)
		}
		out[i] = triple{h, r, t, e.Head, e.Relation, e.Tail}
	}
	return out, nil
}

func writeListOfEdges(w *bufio.Writer, kg *KG) error {
	ts, err := labelTriples(kg)
	if err != nil {
		return err
	}
	w.WriteString("Edges: [\n")
	for i, t := range ts {
		if i > 0 {
			w.WriteString(",\n")
		}
		w.WriteString("(")
		w.WriteString(t.head)
		w.WriteString(", ")
		w.WriteString(t.rel)
		w.WriteString(", ")
		w.WriteString(t.tail)
		w.WriteString(")")
	}
	_, err = w.WriteString("\n]\n")
	return err
}

// structured is the benchmark's {head: {relation: [tails]}} dict, with keys
// in insertion order.
type structured struct {
	heads []string
	rels  map[string]*relMap
}

type relMap struct {
	keys  []string
	tails map[string][]string
}

func buildStructured(kg *KG) (*structured, error) {
	ts, err := labelTriples(kg)
	if err != nil {
		return nil, err
	}
	s := &structured{rels: map[string]*relMap{}}
	for _, t := range ts {
		rm, ok := s.rels[t.head]
		if !ok {
			rm = &relMap{tails: map[string][]string{}}
			s.rels[t.head] = rm
			s.heads = append(s.heads, t.head)
		}
		if _, ok := rm.tails[t.rel]; !ok {
			rm.keys = append(rm.keys, t.rel)
		}
		rm.tails[t.rel] = append(rm.tails[t.rel], t.tail)
	}
	return s, nil
}
