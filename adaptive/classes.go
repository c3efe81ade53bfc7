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
	Compact Class = formats.SlateCompact
	// Semantic formats state the graph with an explicit vocabulary (IRIs,
	// classes, property shapes); the slate's third member is the best of
	// them.
	Semantic Class = formats.SlateSemantic
	// Other formats (prose, entity-centric sections, Talk like a Graph's
	// encoders, anything not in the table) can only enter the slate as
	// task-specific guests.
	Other Class = "other"
)

// ClassOf returns the slate class of a registry format name: its
// formats.Format.Slate (the table follows the study's Table 1 families:
// connectivity, tabular and diagram formats and the two one-line-per-edge
// structured formats are Compact; the semantic web and constraint formats
// Semantic; prose, entity_centric and Talk like a Graph's encoders), Other
// for a format without one and for a name not in the registry.
func ClassOf(format string) Class {
	if f, ok := formats.Get(format); ok && f.Slate != "" {
		return Class(f.Slate)
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
