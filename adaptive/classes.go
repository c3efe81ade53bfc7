package adaptive

import (
	"cmp"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphtext"
)

// Class is the slate role a format can play.
type Class string

// Format classes.
const (
	// Compact formats list the graph's facts tersely, one short line (or
	// row, or cell) per edge or node, with no vocabulary around them; the
	// slate's two anchors are the best of them.
	Compact Class = "compact"
	// Semantic formats state the graph with an explicit vocabulary (IRIs,
	// classes, property shapes); the slate's third member is the best of
	// them.
	Semantic Class = "semantic"
	// Other formats (prose, entity-centric sections, Talk like a Graph's
	// encoders, anything not in the table) can only enter the slate as
	// task-specific guests.
	Other Class = "other"
)

// ClassOf returns the slate class of a registry format name. The table
// follows the study's Table 1 families: connectivity, tabular and diagram
// formats and the two one-line-per-edge structured formats are Compact
// (adjacency, edge_list, structured, relation_indexed, text2kgbench,
// study_toon, toon_spec, markdown_table, mermaid, dot); the semantic web and
// constraint formats are Semantic (study_turtle, study_jsonld, shacl_lite);
// prose (nl_summary, friendship), entity_centric (one markdown section per
// node, about 2.3k o200k tokens on a 50-node Hardened graph against
// 0.75k–1.0k for the compact formats) and every other name are Other.
func ClassOf(format string) Class {
	switch format {
	case "adjacency", "edge_list", "structured", "relation_indexed", "text2kgbench",
		"study_toon", "toon_spec", "markdown_table", "mermaid", "dot":
		return Compact
	case "study_turtle", "study_jsonld", "shacl_lite":
		return Semantic
	}
	return Other
}

// StudyFormats returns the registry names of the study's 15 GraphQA formats
// in its Table 1 order (the candidates of a default calibration).
func StudyFormats() []string {
	ren := formats.Renamed()
	var out []string
	for _, n := range graphtext.StudyNames() {
		out = append(out, cmp.Or(ren[n], n))
	}
	return out
}
