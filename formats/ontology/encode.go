package ontology

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/internal/jsonobj"
	"github.com/isolda/isolda/rdf"
)

func conceptLabels(o *Ontology) []string {
	out := make([]string, len(o.Concepts))
	for i, c := range o.Concepts {
		out[i] = c.Label
	}
	return out
}

// conceptsThenRelations writes head, the concept labels joined by ", ",
// mid, then one line per relation.
func conceptsThenRelations(w *bufio.Writer, o *Ontology, head, mid string, line func(r Relation)) {
	w.WriteString(head)
	w.WriteString(strings.Join(conceptLabels(o), ", "))
	w.WriteString(mid)
	for _, r := range o.Relations {
		line(r)
	}
}

// encEdgeList: CONCEPTS line, then "Domain --[rel]--> Range" per relation.
func encEdgeList(w *bufio.Writer, o *Ontology) {
	conceptsThenRelations(w, o, "CONCEPTS: ", "\nRELATIONS (domain --[rel]--> range):\n", func(r Relation) {
		fmt.Fprintf(w, "%s --[%s]--> %s\n", r.Domain, r.Label, r.Range)
	})
}

// encRelationIndexed: CONCEPTS line, then "rel: Domain --> Range".
func encRelationIndexed(w *bufio.Writer, o *Ontology) {
	conceptsThenRelations(w, o, "CONCEPTS: ", "\nRELATIONS (relation -> domain --> range):\n", func(r Relation) {
		fmt.Fprintf(w, "%s: %s --> %s\n", r.Label, r.Domain, r.Range)
	})
}

// domains returns the concept labels, then any other domain used by a
// relation, in order of first use.
func domains(o *Ontology) []string {
	out := conceptLabels(o)
	seen := map[string]bool{}
	for _, c := range out {
		seen[c] = true
	}
	for _, r := range o.Relations {
		if !seen[r.Domain] {
			seen[r.Domain] = true
			out = append(out, r.Domain)
		}
	}
	return out
}

// encEntityCentric: one section per concept (and per other domain) with
// its outgoing relations.
func encEntityCentric(w *bufio.Writer, o *Ontology) {
	seen := map[string]bool{}
	first := true
	for _, d := range domains(o) {
		if seen[d] {
			continue // a concept listed twice gets one section
		}
		seen[d] = true
		if !first {
			w.WriteByte('\n')
		}
		first = false
		w.WriteString("## ")
		w.WriteString(d)
		w.WriteByte('\n')
		n := 0
		for _, r := range o.Relations {
			if r.Domain == d {
				fmt.Fprintf(w, "--[%s]--> %s\n", r.Label, r.Range)
				n++
			}
		}
		if n == 0 {
			w.WriteString("(no outgoing relations)\n")
		}
	}
}

// encMarkdown: a concept table and a relation table.
func encMarkdown(w *bufio.Writer, o *Ontology) {
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	w.WriteString("**Concepts**\n| # | Label |\n|---|-------|\n")
	for i, c := range o.Concepts {
		fmt.Fprintf(w, "| %d | %s |\n", i+1, cell(c.Label))
	}
	w.WriteString("\n**Relations (typed)**\n| Relation | Domain | Range |\n|---|---|---|\n")
	for _, r := range o.Relations {
		fmt.Fprintf(w, "| %s | %s | %s |\n", cell(r.Label), cell(r.Domain), cell(r.Range))
	}
}

// mermaidName makes a Mermaid class name: letters, digits and _ kept,
// anything else written _.
func mermaidName(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	if sb.Len() == 0 {
		return "_"
	}
	return sb.String()
}

// encMermaid: a class diagram with one association per relation.
func encMermaid(w *bufio.Writer, o *Ontology) {
	w.WriteString("classDiagram\n")
	for _, c := range o.Concepts {
		w.WriteString("  class ")
		w.WriteString(mermaidName(c.Label))
		w.WriteByte('\n')
	}
	for _, r := range o.Relations {
		fmt.Fprintf(w, "  %s --> %s : %s\n", mermaidName(r.Domain), mermaidName(r.Range), strings.ReplaceAll(r.Label, "\n", " "))
	}
}

// encNLSummary: prose.
func encNLSummary(w *bufio.Writer, o *Ontology) {
	conceptsThenRelations(w, o, "This ontology defines the entity types: ", ".\nThe following typed relations are defined:\n", func(r Relation) {
		fmt.Fprintf(w, "- A %s can be related via %q to a %s.\n", r.Domain, r.Label, r.Range)
	})
}

// encText2KG: the ontology block of the Text2KGBench prompts
// (baselines/prompts/*.jsonl): a trailing comma after the concepts, spaces
// in relation labels written _.
func encText2KG(w *bufio.Writer, o *Ontology) {
	w.WriteString("Ontology Concepts: ")
	// ", ".join(concepts) + ",": a comma, no space, after the last.
	w.WriteString(strings.Join(conceptLabels(o), ", "))
	w.WriteString(",\nOntology Relations: ")
	for i, r := range o.Relations {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "%s(%s,%s)", strings.ReplaceAll(r.Label, " ", "_"), r.Domain, r.Range)
	}
	w.WriteByte('\n')
}

// encStructured: a header-labelled bulleted list.
func encStructured(w *bufio.Writer, o *Ontology) {
	w.WriteString("Concepts:\n")
	for _, c := range o.Concepts {
		w.WriteString("- ")
		w.WriteString(c.Label)
		w.WriteByte('\n')
	}
	w.WriteString("Relations:\n")
	for _, r := range o.Relations {
		fmt.Fprintf(w, "- %s (domain: %s, range: %s)\n", r.Label, r.Domain, r.Range)
	}
}

// encToon: TOON-style header-then-pipe columns, as the study's graph toon.
func encToon(w *bufio.Writer, o *Ontology) {
	w.WriteString("Concepts[label]:")
	if len(o.Concepts) > 0 {
		w.WriteByte(' ')
		w.WriteString(strings.Join(conceptLabels(o), ", "))
	}
	w.WriteString("\nRelations[relation|domain|range]:\n")
	for _, r := range o.Relations {
		fmt.Fprintf(w, "  %s | %s | %s\n", r.Label, r.Domain, r.Range)
	}
}

// Namespace is the IRI namespace of concepts and relations in the turtle,
// jsonld and shacl_lite formats.
const Namespace = "http://example.org/ontology/"

// iriRef writes a name in Namespace as Turtle (graphtext.IRIRef).
func iriRef(local string) string { return graphtext.IRIRef(Namespace, local) }

func literal(s string) string { return rdf.QuoteLiteral(strings.ToValidUTF8(s, "\uFFFD")) }

// encTurtle: OWL classes and RDF properties with rdfs:domain and
// rdfs:range.
func encTurtle(w *bufio.Writer, o *Ontology) {
	w.WriteString("@prefix : <" + Namespace + "> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n")
	for _, c := range o.Concepts {
		fmt.Fprintf(w, "%s a owl:Class ; rdfs:label %s .\n", iriRef(c.Label), literal(c.Label))
	}
	if len(o.Concepts) > 0 && len(o.Relations) > 0 {
		w.WriteByte('\n')
	}
	for _, r := range o.Relations {
		fmt.Fprintf(w, "%s a rdf:Property ; rdfs:label %s ; rdfs:domain %s ; rdfs:range %s .\n", iriRef(r.Label), literal(r.Label), iriRef(r.Domain), iriRef(r.Range))
	}
}

// encSHACL: one node shape per concept targeting its class, with a
// property shape (sh:path, sh:class) per relation of that domain.
func encSHACL(w *bufio.Writer, o *Ontology) {
	w.WriteString("@prefix : <" + Namespace + "> .\n@prefix sh: <http://www.w3.org/ns/shacl#> .\n\n")
	seen := map[string]bool{}
	for _, c := range o.Concepts {
		if seen[c.Label] {
			continue
		}
		seen[c.Label] = true
		fmt.Fprintf(w, "%s a sh:NodeShape ;\n    sh:targetClass %s", iriRef(c.Label+"Shape"), iriRef(c.Label))
		for _, r := range o.Relations {
			if r.Domain == c.Label {
				fmt.Fprintf(w, " ;\n    sh:property [ sh:path %s ; sh:class %s ]", iriRef(r.Label), iriRef(r.Range))
			}
		}
		w.WriteString(" .\n")
	}
}

// encJSONLD: the same statements as turtle, as JSON-LD with a context.
func encJSONLD(w *bufio.Writer, o *Ontology) {
	ref := graphtext.PercentEncode
	ctx := jsonobj.Object{
		{Key: "@base", Value: Namespace}, {Key: "@vocab", Value: Namespace},
		{Key: "owl", Value: "http://www.w3.org/2002/07/owl#"},
		{Key: "rdf", Value: "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
		{Key: "rdfs", Value: "http://www.w3.org/2000/01/rdf-schema#"},
		{Key: "label", Value: "rdfs:label"},
		{Key: "domain", Value: jsonobj.Object{{Key: "@id", Value: "rdfs:domain"}, {Key: "@type", Value: "@id"}}},
		{Key: "range", Value: jsonobj.Object{{Key: "@id", Value: "rdfs:range"}, {Key: "@type", Value: "@id"}}},
	}
	var items []any
	for _, c := range o.Concepts {
		items = append(items, jsonobj.Object{{Key: "@id", Value: ref(c.Label)}, {Key: "@type", Value: "owl:Class"}, {Key: "label", Value: strings.ToValidUTF8(c.Label, "\uFFFD")}})
	}
	for _, r := range o.Relations {
		items = append(items, jsonobj.Object{{Key: "@id", Value: ref(r.Label)}, {Key: "@type", Value: "rdf:Property"}, {Key: "label", Value: strings.ToValidUTF8(r.Label, "\uFFFD")}, {Key: "domain", Value: ref(r.Domain)}, {Key: "range", Value: ref(r.Range)}})
	}
	if items == nil {
		items = []any{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// Encoding fixed-shape strings cannot fail; a write error surfaces at
	// Flush.
	_ = enc.Encode(jsonobj.Object{{Key: "@context", Value: ctx}, {Key: "@graph", Value: items}})
}
