// Package isolda implements ISOLDA (Indexed Subject-Ordered Linked Data for
// AI), a text notation of RDF datasets meant to be read by language models:
// an encoder, a decoder and a round-trip checker. docs/SPEC.md is the
// normative description of the notation; this package implements versions
// 0.4 (the default: nested blank nodes, well-known prefixes, a separable
// glossary), 0.2 (the paper's notation), 0.1 and 0.3 (0.2 with the
// token-saving options on).
//
// Encoding is lossless (decoding gives back a dataset isomorphic to the
// input) and deterministic (the bytes depend only on the dataset and its
// declared prefix names, not on quad order, blank node labels or map order).
package isolda

import (
	"fmt"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// Versions of the notation: "0.1", "0.2", "0.3" and "0.4".
const (
	V01 = syntax.V01
	V02 = syntax.V02
	V03 = syntax.V03
	V04 = syntax.V04
)

// Options control the encoder. The zero value encodes ISOLDA 0.4 with its
// defaults; Version "0.2" gives the paper's notation.
type Options struct {
	// Version is the notation version: "0.4" (the default when empty,
	// docs/SPEC.md section 17), "0.2", "0.1" or "0.3" (0.2 with IRIIDs and
	// Continuation on, and RDF lists written as (N) cells).
	Version string
	// IDs chooses entity ids: "label" (the default when empty: labels where
	// unique, else slugs) or "slug" (slugs for every entity).
	IDs string
	// NoConstants keeps values shared by every row in the rows instead of
	// moving them to the header as p=v.
	NoConstants bool
	// NoTypes omits the @types line.
	NoTypes bool
	// Glossary is "full" (the default when empty), "legend" (only the first
	// line) or "none" (no glossary; an @isolda line then gives the version).
	Glossary string
	// Layout is "table" (the default when empty: every section is a table),
	// "blocks" (every section is written as blocks: one entity per id: line,
	// one property per line) or "hybrid" (a section is written as blocks when
	// the fraction of filled cells of its table, not counting the first and
	// @iri columns, is below Theta).
	Layout string
	// Theta is the regularity threshold of the hybrid layout (default 0: all
	// tables).
	Theta float64
	// Continuation writes the properties of a row that are not columns as
	// indented lines under the row instead of in ~extra:.
	Continuation bool
	// InlineBlanks writes a blank node that is the object of exactly one
	// quad (and a subject, if at all, only in that quad's graph) in place,
	// as {p: v, q> w}, instead of as a row; table headers still count it.
	InlineBlanks bool
	// InverseIndex adds a ~in: section listing, for each entity that is the
	// target of two or more links, its incoming links by property. The
	// decoder ignores it.
	InverseIndex bool
	// Anchor (an entity's IRI, or its id in the uncropped document) puts
	// that entity first: the breadth-first order starts from it.
	Anchor string
	// Hops, with Anchor, crops the document to the entities at most Hops
	// links away (0: no crop). A cropped document is lossless only with
	// respect to Crop(d, opts).
	Hops int
	// The four changes of 0.2 can be switched off one by one (no effect on 0.1).
	NoPreferredLanguage bool // 0.1 label rule: a label is an id only if it is the only label literal
	NoRowLabelIDs       bool // 0.1 table rule: one row without a label id makes the table use slugs
	NoTermAliases       bool // no @term aliases
	NoVocabPrefix       bool // never declare the @vocab namespace as a prefix
	// IRIIDs identifies an IRI entity without a label id by its IRI as
	// written in an @iri cell (pfx:local) instead of a slug; a table whose
	// rows all have such ids has @iri as its first column and no id column.
	// On in 0.3; no effect on 0.1.
	IRIIDs bool
	// DatatypePrefixes declares the xsd (or rdf) namespace whenever a
	// datatype written in a header or list is in it, whatever its number
	// of uses: xsd:gYear instead of <...#gYear>.
	// No effect on 0.1.
	DatatypePrefixes bool
}

// Values of Options.IDs and Options.Glossary.
const (
	IDsLabel       = "label"
	IDsSlug        = "slug"
	GlossaryFull   = "full"
	GlossaryLegend = "legend"
	GlossaryNone   = "none"
	LayoutTable    = "table"
	LayoutBlocks   = "blocks"
	LayoutHybrid   = "hybrid"
)

func (o Options) check() error {
	switch o.IDs {
	case "", IDsLabel, IDsSlug:
	default:
		return fmt.Errorf("isolda: unknown ids option %q (want %q or %q)", o.IDs, IDsLabel, IDsSlug)
	}
	switch o.Layout {
	case "", LayoutTable, LayoutBlocks, LayoutHybrid:
	default:
		return fmt.Errorf("isolda: unknown layout %q (want table, blocks or hybrid)", o.Layout)
	}
	if o.Theta < 0 || o.Theta > 1 || o.Theta != o.Theta {
		return fmt.Errorf("isolda: theta %v is not between 0 and 1", o.Theta)
	}
	switch o.Glossary {
	case "", GlossaryFull, GlossaryLegend, GlossaryNone:
	default:
		return fmt.Errorf("isolda: unknown glossary option %q (want full, legend or none)", o.Glossary)
	}
	return nil
}

func (o Options) version() (string, error) {
	switch o.Version {
	case "", V04:
		return V04, nil
	case V02:
		return V02, nil
	case V01:
		return V01, nil
	case V03:
		return V03, nil
	}
	return "", fmt.Errorf("isolda: unknown version %q (want %q, %q, %q or %q)", o.Version, V01, V02, V03, V04)
}

// DecodeOptions control the decoder.
type DecodeOptions struct {
	// File names the input in error messages.
	File string
	// Limits bound the input size (MaxBytes), the number of quads (MaxQuads)
	// and the length of one line (MaxTermLength plus 1 KiB); zero fields take
	// rdf.DefaultLimits.
	Limits rdf.Limits
}

// CheckResult is the outcome of a round trip.
type CheckResult struct {
	// Isomorphic is true when the decoded dataset is isomorphic to the input.
	Isomorphic bool
	// Missing lists a few input quads absent from the decoded dataset, and
	// Extra a few decoded quads absent from the input, with blank nodes
	// relabelled canonically (c1, c2, ...).
	Missing, Extra []rdf.Quad
	// Bytes is the size of the encoded document.
	Bytes int
}
