// Package graphtext writes labelled graphs (package graph) as the text
// encodings that graph-reasoning studies feed to language models, exactly as
// their sources write them:
//
//   - the encoders of Talk like a Graph (Fatemi, Halcrow and Perozzi, ICLR
//     2024; google-research graphqa/graph_text_encoder.py), named tlag_*:
//     adjacency, incident, friendship, coauthorship, social_network,
//     politician, expert, got, south_park and random, with their node-name
//     lists and quirks;
//   - the 15 graph serializations of the study "Graph Serializations for
//     Reasoning LLMs" (its Table 1 and appendix H.2): turtle, jsonld,
//     shacl_lite, text2kgbench, entity_centric, relation_indexed,
//     markdown_table, toon, mermaid, dot, adjacency, edge_list, structured,
//     nl_summary and friendship;
//   - toon_spec, a conforming TOON 4.0 document of the graph (package
//     formats/toon).
//
// Formats whose Info says Lossless keep every node identifier, label and
// type list, every edge (from, type, to) in order, and the direction flag,
// and have a decoder (Decode) that rejects malformed input with an
// *rdf.ParseError. No format carries node attributes (graph.Attr).
//
// # The study's formats
//
// Appendix H.2 prints adjacency, edge_list, mermaid, markdown_table, toon,
// nl_summary and relation_indexed on an untyped undirected graph, with its
// line breaks lost in extraction; those outputs match it word for word.
// The other eight are only named or described there, and the labelled,
// typed and directed cases are nowhere shown, so this package defines them:
//
//   - Node names are the graph's ids in every study format (the study keeps
//     "the same node identifiers" across formats); an edge without a type
//     is written with the relation linkedTo, as relation_indexed shows.
//   - edge_list, markdown_table and toon write an id that is not a plain
//     word (see below) as a Go-quoted string with | escaped as \x7c; edge
//     types appear as "a -[type]- b" (edge_list) or a relation column
//     (markdown_table); labels and types as "id \"label\" (T1, T2)" items
//     (edge_list) or an id | label | types table (markdown_table); a
//     directed graph is "Graph (directed)." and "**Edges (directed)**".
//   - dot quotes ids that are not DOT identifiers or numerals and writes
//     labels as label= and the type list as class= (space-separated, a
//     space inside a type written \s, an empty type \0).
//   - mermaid names nodes N0, N1, ... and shows a node's label (or its id,
//     unless the id is its index) in ["..."].
//   - turtle, jsonld and shacl_lite put nodes, relations and types in
//     Options.Namespace; shacl_lite gives each node a shape with
//     sh:targetNode, sh:class per type, and per relation a property shape
//     with sh:minCount = sh:maxCount = the number of neighbours and sh:in.
//   - text2kgbench writes "Nodes: a, b, \nEdges: rel(a,b), ..." after the
//     ontology form of Text2KGBench prompts; entity_centric writes "## id"
//     sections with --[rel]--> lines; structured writes G = (V, E) in
//     set-builder notation ({u, v} for undirected edges, (u, rel, v) when
//     typed); friendship is Talk like a Graph's friendship text on the ids.
//
// A plain word is valid UTF-8 made of printable, non-space characters other
// than " , ( ) [ ] | \ and `.
package graphtext

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/isolda/isolda/formats/internal/registry"
	"github.com/isolda/isolda/graph"
)

// Families of the study's Table 1.
const (
	FamilySemanticWeb = "semantic web"
	FamilyConstraint  = "constraint"
	FamilyStructured  = "structured natural language"
	FamilyTabular     = "tabular"
	FamilyDiagram     = "diagram"
	FamilyConnect     = "connectivity"
	FamilyProse       = "prose"
)

// Sources named by Info.Source.
const (
	SourceTLAG  = "Talk like a Graph (Fatemi, Halcrow, Perozzi, ICLR 2024), graphqa/graph_text_encoder.py"
	SourceStudy = "Graph Serializations for Reasoning LLMs, appendix H.2"
	SourceTOON  = "TOON spec 4.0 (formats/toon)"
)

// Info describes a format.
type Info struct {
	Name     string
	Family   string // one of the Family* constants
	Source   string // the paper or benchmark whose output the format reproduces
	Lossless bool   // node ids, labels, types, typed edges and direction survive Decode
	Loses    string // what a lossy format drops, in words; empty when Lossless
	// Undirected is true when a directed graph is an error (Talk like a
	// Graph's social encoders are defined for undirected graphs only).
	Undirected bool
}

// Options tune Encode. The zero value reproduces the sources.
type Options struct {
	// Names overrides the node-name list of the tlag_* encoders: node i (in
	// graph order) is written as Names[i]. Nil uses the encoder's own list.
	Names []string
	// UseIDs makes the tlag_* encoders name nodes by their IDs instead of a
	// name list (Names is then ignored).
	UseIDs bool
	// Namespace is the IRI namespace of nodes, relations and types in the
	// turtle, jsonld and shacl_lite formats; empty means
	// "http://example.org/graph#".
	Namespace string
}

// DefaultNamespace is the namespace of Options.Namespace when it is empty.
const DefaultNamespace = "http://example.org/graph#"

// DefaultRelation is the relation name the study's formats write for an
// edge without a type (appendix H.2: "linkedTo").
const DefaultRelation = "linkedTo"

type format struct {
	info   Info
	encode func(w *bufio.Writer, g *graph.Graph, opts Options) error
	decode func(r io.Reader) (*graph.Graph, error)
}

// What the lossy formats drop, in words; the lossy-format tests check each
// list against graphs that differ only in that aspect.
const (
	lossEnds      = "for undirected graphs, which end of an edge is written first"
	lossTLAG      = "node identifiers (nodes are named from a fixed list by position), labels, types, edge types, parallel edges, and " + lossEnds
	lossTLAGUndir = lossTLAG + "; a directed graph is an error"
)

func formats() []format {
	tlag := func(name, family string, f func(w *bufio.Writer, g *graph.Graph, opts Options) error, loses string) format {
		return format{info: Info{Name: name, Family: family, Source: SourceTLAG, Loses: loses}, encode: f}
	}
	study := func(name, family string, f func(w *bufio.Writer, g *graph.Graph, opts Options) error, loses string) format {
		return format{info: Info{Name: name, Family: family, Source: SourceStudy, Loses: loses}, encode: f}
	}
	tlagUndirected := func(name string, f func(w *bufio.Writer, g *graph.Graph, opts Options) error) format {
		t := tlag(name, FamilyProse, f, lossTLAGUndir)
		t.info.Undirected = true
		return t
	}
	lossless := func(f format, dec func(io.Reader) (*graph.Graph, error)) format {
		f.info.Lossless = true
		f.info.Loses = ""
		f.decode = dec
		return f
	}
	return []format{
		study("turtle", FamilySemanticWeb, encTurtle, "edge direction (an edge is one triple from its first node, whatever the graph's direction) and parallel edges of the same type (an RDF graph is a set)"),
		study("jsonld", FamilySemanticWeb, encJSONLD, "edge direction (an edge is one link from its first node, whatever the graph's direction) and parallel edges of the same type (an RDF graph is a set)"),
		study("shacl_lite", FamilyConstraint, encSHACL, "labels, parallel edges, edges to unlisted nodes, and "+lossEnds+" (each node's neighbours per relation become a set, sized by sh:minCount and sh:maxCount)"),
		study("text2kgbench", FamilyStructured, encText2KG, "labels, types and edge direction"),
		study("entity_centric", FamilyStructured, encEntityCentric, "parallel edges, edges to unlisted nodes, and "+lossEnds),
		study("relation_indexed", FamilyStructured, encRelationIndexed, "labels, types and edge direction (every edge is written u -> v)"),
		lossless(study("markdown_table", FamilyTabular, encMarkdown, ""), decMarkdown),
		study("toon", FamilyTabular, encToonStudy, "labels, types and edge types (the study's TOON-style view has only node ids and u|v rows)"),
		study("mermaid", FamilyDiagram, encMermaid, "types and edges to unlisted nodes; a labelled node's identifier (nodes are N0, N1, ... showing their label, or their id when unlabelled)"),
		lossless(study("dot", FamilyDiagram, encDOT, ""), decDOT),
		study("adjacency", FamilyConnect, encAdjacency, "labels, types, edge types, parallel edges, edges to unlisted nodes, and "+lossEnds),
		lossless(study("edge_list", FamilyConnect, encEdgeList, ""), decEdgeList),
		study("structured", FamilyConnect, encStructured, "labels, types and parallel edges (E is a set)"),
		study("nl_summary", FamilyProse, encNLSummary, "types, parallel edges, edges to unlisted nodes, and "+lossEnds),
		study("friendship", FamilyProse, encStudyFriendship, "labels, types, edge types and edge direction"),
		lossless(format{info: Info{Name: "toon_spec", Family: FamilyTabular, Source: SourceTOON}, encode: encToonSpec}, decToonSpec),
		tlag("tlag_adjacency", FamilyConnect, tlagAdjacencyWith("adjacency"), lossTLAG),
		tlag("tlag_incident", FamilyConnect, tlagIncident, "labels, types, edge types, parallel edges, and "+lossEnds+"; node identifiers appear only at the head of each line (neighbours are named from the integer list by position)"),
		tlagUndirected("tlag_friendship", tlagFriendship("friendship")),
		tlagUndirected("tlag_coauthorship", tlagCoauthorship),
		tlagUndirected("tlag_social_network", tlagSocial("social_network")),
		tlagUndirected("tlag_politician", tlagSocial("politician")),
		tlag("tlag_expert", FamilyConnect, tlagExpert, lossTLAG),
		tlagUndirected("tlag_got", tlagFriendship("got")),
		tlagUndirected("tlag_south_park", tlagFriendship("south_park")),
		tlag("tlag_random", FamilyConnect, tlagAdjacencyWith("random"), lossTLAG),
	}
}

func lookup(name string) (format, bool) {
	return registry.Find(formats(), name, func(f format) string { return f.info.Name })
}

// Names returns the names of every format, in registry order: the study's
// 15 formats (as listed in its Table 1), toon_spec, then the tlag_*
// encoders.
func Names() []string {
	return registry.Map(formats(), func(f format) string { return f.info.Name })
}

// StudyNames returns the 15 graph formats of the study, in Table 1 order.
func StudyNames() []string { return Names()[:15] }

// Formats returns the metadata of every format, in the order of Names.
func Formats() []Info {
	return registry.Map(formats(), func(f format) Info { return f.info })
}

// Lookup returns the metadata of the named format.
func Lookup(name string) (Info, bool) {
	f, ok := lookup(name)
	return f.info, ok
}

// Encode writes g to w in the named format.
func Encode(w io.Writer, g *graph.Graph, format string, opts Options) error {
	f, ok := lookup(format)
	if !ok {
		return fmt.Errorf("graphtext: unknown format %q", format)
	}
	if g == nil {
		g = &graph.Graph{}
	}
	bw := bufio.NewWriter(w)
	if err := f.encode(bw, g, opts); err != nil {
		return err
	}
	return bw.Flush()
}

// Decode reads a graph written in the named lossless format. Malformed input
// is reported as an *rdf.ParseError with its line and column.
func Decode(r io.Reader, format string) (*graph.Graph, error) {
	f, ok := lookup(format)
	if !ok {
		return nil, fmt.Errorf("graphtext: unknown format %q", format)
	}
	if f.decode == nil {
		return nil, fmt.Errorf("graphtext: format %q is lossy and has no decoder", format)
	}
	return f.decode(r)
}

// Equal reports whether two graphs have the same direction, the same nodes
// (ID, Label and Types, in order) and the same edges in order: what a
// lossless format preserves. Attributes are not compared; nil and empty
// type lists are equal.
func Equal(a, b *graph.Graph) bool {
	if a.Directed != b.Directed || len(a.Nodes) != len(b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
		return false
	}
	for i := range a.Nodes {
		x, y := a.Nodes[i], b.Nodes[i]
		if x.ID != y.ID || x.Label != y.Label || !slices.Equal(x.Types, y.Types) {
			return false
		}
	}
	return true
}
