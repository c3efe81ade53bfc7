// Package formats is the format lab's registry: every serialization of a
// knowledge graph that isolda can produce, in one list, each with its family,
// its source, whether it is lossless, and an encoder (and a decoder when it is
// lossless).
//
// The registry holds ISOLDA itself (isolda, the default version 0.4, and
// isolda-0.1, isolda-0.2 and isolda-0.3); the RDF syntaxes; the ISOLDA
// paper's baselines (package formats/baseline); TOON of an RDF dataset; the
// GraphRAG article's six formats (formats/graphrag); KG-LLM-Bench's
// textualizations (formats/kgllmbench); the formats of the serialization
// study and of Talk like a Graph (formats/graphtext); and the study's
// ontology formats (formats/ontology, named onto_*). Formats of labelled
// graphs read graph.FromRDF's view of the dataset (Input.Graph), ontology
// formats its RDFS/OWL view (Input.Ontology, see ToOntology), so every
// format can be compared on the same RDF file.
//
// Each Format carries what callers used to look up by name: its ISOLDA
// Version, its Cost class (what a server reserves to write it), its Slate
// class in an adaptive selection, whether its source refuses a directed
// graph (DirectedError) and an options-aware EncodeContext. Get takes a
// registry name; Lookup also reads what users type (FoldName, aliases).
//
// The list is built once, on first use, and never changes after that (an
// immutable registry, like the standard library's image formats); All
// returns a copy the caller may change.
package formats

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/formats/toon"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// The descriptive families of the serialization study
// (../shared/spec/001_2264b1b960dd163f.txt, Table 1), in its order;
// declared once, in package graphtext.
const (
	FamilySemanticWeb = graphtext.FamilySemanticWeb
	FamilyConstraint  = graphtext.FamilyConstraint
	FamilyStructured  = graphtext.FamilyStructured
	FamilyTabular     = graphtext.FamilyTabular
	FamilyDiagram     = graphtext.FamilyDiagram
	FamilyConnect     = graphtext.FamilyConnect
	FamilyProse       = graphtext.FamilyProse
)

// Families returns the families in the order of the study's Table 1.
func Families() []string {
	return []string{FamilySemanticWeb, FamilyConstraint, FamilyStructured, FamilyTabular,
		FamilyDiagram, FamilyConnect, FamilyProse}
}

// Sources named by Format.Source.
const (
	SourceISOLDA   = "ISOLDA paper (Indexed Subject-Ordered Linked Data for AI), section 3; docs/SPEC.md"
	SourceBaseline = "ISOLDA paper (Indexed Subject-Ordered Linked Data for AI), section 4.4, baselines"
	SourceW3C      = "W3C RDF 1.1/1.2 syntaxes"
	SourceTOON     = "TOON spec 4.0 of the b-json document"
	SourceGraphRAG = "GraphRAG serialization article (How Graph Serialization Format Affects GraphRAG Cost and Accuracy), reference implementation"
	SourceKGLLM    = "KG-LLM-Bench (Markowitz et al. 2025), kg_builder.py"
)

// Format is one serialization in the registry.
//
// Lossless means the format has a decoder that gives back its input model
// exactly: Decode (RDF formats) returns a dataset isomorphic to the input;
// DecodeGraph (labelled-graph formats) returns the records the format keeps
// of the labelled graph. Loses says in words what the text drops of an RDF
// dataset (for a lossless labelled-graph format: what the graph view and the
// format leave out of the RDF); it is empty for lossless RDF formats.
type Format struct {
	// Name is the registry name (unique; what `isolda convert -t` takes).
	Name string
	// Family is one of the study's Table 1 families (see Families).
	Family string
	// Source names the paper, benchmark or standard the format comes from.
	Source string
	// Lossless is true when Decode or DecodeGraph inverts Encode.
	Lossless bool
	// Loses says what the format drops; empty for lossless RDF formats.
	Loses string
	// Input is the model the encoder reads.
	Input InputKind
	// Encode writes the input in this format.
	Encode func(w io.Writer, in *Input) error
	// Decode reads a lossless RDF format back; nil otherwise.
	Decode func(r io.Reader) (*rdf.Dataset, error)
	// DecodeGraph reads a lossless labelled-graph format back; nil
	// otherwise.
	DecodeGraph func(r io.Reader) (*graph.Graph, error)
	// EncodeContext is Encode with a context and, for the ISOLDA formats,
	// the notation's options (nil means the defaults; an empty Version the
	// format's own). The RDF syntaxes whose writers watch ctx (Turtle, TriG,
	// JSON-LD) stop soon after it is done; the other formats ignore ctx and
	// o. Unlike Encode, the ISOLDA formats' EncodeContext passes a triple
	// term to the notation instead of refusing it (as the server always
	// did).
	EncodeContext func(ctx context.Context, w io.Writer, in *Input, o *isolda.Options) error
	// Version is the ISOLDA version of an ISOLDA format (isolda.V04 for
	// isolda); empty for every other format.
	Version string
	// Pinned is true when the name fixes the version (isolda-0.2 is 0.2
	// whatever a caller's options say); false for isolda, whose Version is
	// the notation's default that options may change, and for the other
	// formats.
	Pinned bool
	// Cost is the class of the encoder's working set (what a server
	// reserves per quad to write it).
	Cost Cost
	// Slate is the role the format can play in an adaptive selection's
	// slate: SlateCompact, SlateSemantic, or empty (a task-specific guest
	// only).
	Slate string
	// DirectedError is true when the source's encoder refuses a directed
	// graph (Talk like a Graph's social encoders); Encode writes its
	// undirected copy instead, losing edge direction.
	DirectedError bool
}

// Cost is the class of a format's working set.
type Cost int

// The cost classes.
const (
	// CostFull formats build a model of the graph (the labelled-graph
	// view, the JSON-LD tree, ...) besides the text: the default.
	CostFull Cost = iota
	// CostLight formats write from the dataset as it is (ISOLDA and the
	// RDF syntaxes that stream).
	CostLight
)

// The slate classes of Format.Slate (adaptive's Class values).
const (
	SlateCompact  = "compact"
	SlateSemantic = "semantic"
)

// Renamed maps the names of formats of other packages that collide with a
// registry name or an RDF syntax name (as rdfio.ParseFormat reads it) to
// their registry names: the study's turtle, jsonld and toon (graphs of
// labelled nodes) would be confused with the RDF syntaxes and the RDF TOON
// format, and KG-LLM-Bench's nt with N-Triples.
func Renamed() map[string]string {
	return map[string]string{"turtle": "study_turtle", "jsonld": "study_jsonld", "toon": "study_toon", "nt": "kgllm_nt"}
}

// All returns every registered format, sorted by family (in the order of
// Families), then by name (bytewise). The slice is the caller's own.
func All() []Format { return slices.Clone(registry()) }

// registry is the sorted registry, built on first use and never changed
// after: a Format holds only strings, bools, ints and functions, so the
// shared values are immutable, and Get and Names (on every server request)
// do not rebuild the list each time.
var registry = sync.OnceValue(build)

// build constructs the registry.
func build() []Format {
	var fs []Format
	fs = append(fs, rdfFormats()...)
	fs = append(fs, graphragFormats()...)
	fs = append(fs, kgllmFormats()...)
	fs = append(fs, graphtextFormats()...)
	fs = append(fs, ontologyFormats()...)
	for i := range fs {
		if fs[i].Source != SourceW3C { // the RDF syntaxes write or refuse triple terms themselves
			fs[i].Encode = refuseTripleTerms(fs[i].Name, fs[i].Encode)
		}
		if fs[i].EncodeContext == nil {
			enc := fs[i].Encode
			fs[i].EncodeContext = func(_ context.Context, w io.Writer, in *Input, _ *isolda.Options) error { return enc(w, in) }
		}
	}
	fam := Families()
	slices.SortStableFunc(fs, func(a, b Format) int {
		return cmp.Or(cmp.Compare(slices.Index(fam, a.Family), slices.Index(fam, b.Family)),
			strings.Compare(a.Name, b.Name))
	})
	return fs
}

// refuseTripleTerms wraps the encoder of a format that cannot represent
// RDF 1.2 triple terms: for a dataset with one, it returns an error naming
// it instead of dropping it.
func refuseTripleTerms(name string, enc func(io.Writer, *Input) error) func(io.Writer, *Input) error {
	return func(w io.Writer, in *Input) error {
		if in.Dataset != nil {
			for id := 1; id <= in.Dataset.NumTerms(); id++ {
				if t := in.Dataset.Term(rdf.TermID(id)); t.Kind == rdf.TripleKind {
					return fmt.Errorf("formats: %s cannot represent the RDF 1.2 triple term %s", name, t)
				}
			}
		}
		return enc(w, in)
	}
}

// Get returns the format with the given name.
func Get(name string) (Format, bool) {
	for _, f := range registry() {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Names returns the registry names in the order of All.
func Names() []string {
	var out []string
	for _, f := range registry() {
		out = append(out, f.Name)
	}
	return out
}

// dataset returns the input's dataset or ErrNoDataset.
func dataset(in *Input) (*rdf.Dataset, error) {
	if in.Dataset == nil {
		return nil, ErrNoDataset
	}
	return in.Dataset, nil
}

// rdfFormats are the formats of RDF datasets: ISOLDA, the RDF syntaxes, the
// baselines and TOON.
func rdfFormats() []Format {
	isoldaFormat := func(name, version string, pinned bool, cost Cost) Format {
		return Format{
			Name: name, Family: FamilyTabular, Source: SourceISOLDA, Lossless: true, Input: InputRDF,
			Version: version, Pinned: pinned, Cost: cost,
			Encode: func(w io.Writer, in *Input) error {
				d, err := dataset(in)
				if err != nil {
					return err
				}
				return isolda.Encode(w, d, isolda.Options{Version: version})
			},
			EncodeContext: func(_ context.Context, w io.Writer, in *Input, o *isolda.Options) error {
				d, err := dataset(in)
				if err != nil {
					return err
				}
				var opts isolda.Options
				if o != nil {
					opts = *o
				}
				opts.Version = cmp.Or(opts.Version, version)
				return isolda.Encode(w, d, opts)
			},
			Decode: isolda.Decode,
		}
	}
	fs := []Format{
		isoldaFormat("isolda", isolda.V04, false, CostLight),
		isoldaFormat("isolda-0.1", isolda.V01, true, CostLight),
		// 0.2's working set has not been measured (BenchmarkMemoryPerQuad
		// serializes the default version): the server reserves the full
		// cost for it.
		isoldaFormat("isolda-0.2", isolda.V02, true, CostFull),
		isoldaFormat("isolda-0.3", isolda.V03, true, CostLight),
	}
	for _, syn := range rdfio.Syntaxes() {
		if syn.Write == nil {
			continue
		}
		read := cmp.Or(syn.ReadBy, syn.Name)
		cost := CostFull
		if syn.Stream != nil { // the syntaxes that stream write from the dataset as it is
			cost = CostLight
		}
		write := func(ctx context.Context, w io.Writer, in *Input, _ *isolda.Options) error {
			d, err := dataset(in)
			if err != nil {
				return err
			}
			return rdfio.WriteContext(ctx, w, d, string(syn.Name), rdfio.WriteOptions{})
		}
		fs = append(fs, Format{
			Name: string(syn.Name), Family: FamilySemanticWeb, Source: SourceW3C, Lossless: true, Loses: syn.Loses, Input: InputRDF,
			Cost: cost, EncodeContext: write,
			Encode: func(w io.Writer, in *Input) error {
				return write(context.Background(), w, in, nil)
			},
			Decode: func(r io.Reader) (*rdf.Dataset, error) {
				return rdfio.Read(r, rdfio.Options{Format: read})
			},
		})
	}
	for _, name := range baseline.Names() {
		fs = append(fs, Format{
			Name: name, Family: FamilySemanticWeb, Source: SourceBaseline, Lossless: true, Input: InputRDF,
			Encode: func(w io.Writer, in *Input) error {
				d, err := dataset(in)
				if err != nil {
					return err
				}
				return baseline.Encode(w, d, name)
			},
			Decode: func(r io.Reader) (*rdf.Dataset, error) {
				return baseline.Decode(r, name, rdf.ReadOptions{})
			},
		})
	}
	fs = append(fs, Format{
		Name: "toon", Family: FamilyTabular, Source: SourceTOON, Lossless: true, Input: InputRDF,
		Encode: encodeTOON, Decode: decodeTOON,
	})
	return fs
}

// encodeTOON writes the dataset as TOON 4.0: the b-json document (compact
// JSON-LD with ISOLDA's @vocab and prefixes, nodes referenced once nested)
// converted to TOON, keeping key order and number digits.
func encodeTOON(w io.Writer, in *Input) error {
	d, err := dataset(in)
	if err != nil {
		return err
	}
	var js bytes.Buffer
	if err := baseline.Encode(&js, d, baseline.JSON); err != nil {
		return err
	}
	v, err := toon.FromJSON(js.Bytes())
	if err != nil {
		return err
	}
	return toon.Encode(w, v, toon.EncodeOptions{})
}

// decodeTOON reads TOON 4.0, converts it to JSON and reads that as b-json.
func decodeTOON(r io.Reader) (*rdf.Dataset, error) {
	v, err := toon.Decode(r, toon.DecodeOptions{})
	if err != nil {
		return nil, err
	}
	js, err := toon.ToJSON(v)
	if err != nil {
		return nil, err
	}
	return baseline.Decode(bytes.NewReader(js), baseline.JSON, rdf.ReadOptions{})
}

// What the labelled-graph view leaves out of an RDF dataset.
const viewLoses = "literal-valued triples other than one preferred label per node, and named graphs (merged)"

// graphragFormats are the GraphRAG article's formats of its node and edge
// records (graphrag.FromGraph of the labelled graph).
func graphragFormats() []Format {
	family := map[string]string{
		graphrag.CSV: FamilyTabular,
	}
	var fs []Format
	for _, gf := range graphrag.Formats() {
		f := Format{
			Name: gf.Name, Family: cmp.Or(family[gf.Name], FamilyConnect), Source: SourceGraphRAG,
			Lossless: true, Input: InputGraph,
			Loses: "node labels; " + viewLoses + " (the records keep each node's id and its types joined by spaces, and the typed edges)",
			Encode: func(w io.Writer, in *Input) error {
				return gf.Encode(w, graphrag.FromGraph(in.Graph()))
			},
			DecodeGraph: func(r io.Reader) (*graph.Graph, error) {
				g, err := gf.Decode(r, graphrag.DecodeOptions{})
				if err != nil {
					return nil, err
				}
				return graphrag.ToGraph(g), nil
			},
		}
		fs = append(fs, f)
	}
	return fs
}

// kgllmFormats are KG-LLM-Bench's textualizations of the KG model (ToKG).
func kgllmFormats() []Format {
	var fs []Format
	for _, info := range kgllmbench.Formats() {
		family := FamilySemanticWeb
		switch {
		case info.Name == "list_of_edges":
			family = FamilyConnect
		case strings.HasPrefix(info.Name, "structured_"):
			family = FamilyStructured
		}
		loses := "node ids (entities are named by label), node types, " + viewLoses
		if info.Loses != "" {
			loses += "; " + info.Loses
		}
		fs = append(fs, Format{
			Name: cmp.Or(Renamed()[info.Name], info.Name), Family: family, Source: SourceKGLLM, Lossless: false, Loses: loses, Input: InputGraph,
			Encode: func(w io.Writer, in *Input) error {
				return kgllmbench.Textualize(w, in.KG(), info.Name)
			},
		})
	}
	return fs
}

// graphtextFormats are the serialization study's and Talk like a Graph's
// formats of the labelled graph.
func graphtextFormats() []Format {
	// The slate classes (adaptive.ClassOf) follow the study's Table 1
	// families: connectivity, tabular and diagram formats and the two
	// one-line-per-edge structured formats are compact; the semantic web
	// and constraint formats semantic; prose, entity_centric (one markdown
	// section per node, about 2.3k o200k tokens on a 50-node Hardened graph
	// against 0.75k-1.0k for the compact formats), Talk like a Graph's
	// encoders and every other format have none.
	slate := map[string]string{
		"adjacency": SlateCompact, "edge_list": SlateCompact, "structured": SlateCompact,
		"relation_indexed": SlateCompact, "text2kgbench": SlateCompact, "toon": SlateCompact,
		"toon_spec": SlateCompact, "markdown_table": SlateCompact, "mermaid": SlateCompact, "dot": SlateCompact,
		"turtle": SlateSemantic, "jsonld": SlateSemantic, "shacl_lite": SlateSemantic,
	}
	renamed := Renamed()
	var fs []Format
	for _, info := range graphtext.Formats() {
		name := cmp.Or(renamed[info.Name], info.Name)
		// Talk like a Graph's social encoders are only defined for
		// undirected graphs: they get the undirected copy of the view.
		undirected := info.Undirected
		f := Format{
			Name: name, Family: info.Family, Source: info.Source, Lossless: info.Lossless, Input: InputGraph,
			Slate: slate[info.Name], DirectedError: undirected,
			Encode: func(w io.Writer, in *Input) error {
				g := in.Graph()
				if undirected && g.Directed {
					u := *g
					u.Directed = false
					g = &u
				}
				return graphtext.Encode(w, g, info.Name, graphtext.Options{})
			},
		}
		switch {
		case info.Lossless:
			f.Loses = viewLoses
			f.DecodeGraph = func(r io.Reader) (*graph.Graph, error) { return graphtext.Decode(r, info.Name) }
		case undirected:
			f.Loses = info.Loses + " (a directed graph is written as its undirected copy, losing edge direction); " + viewLoses
		default:
			f.Loses = info.Loses + "; " + viewLoses
		}
		fs = append(fs, f)
	}
	return fs
}

// EncodeString encodes in in the named format and returns the text.
func EncodeString(name string, in *Input) (string, error) {
	f, ok := Get(name)
	if !ok {
		return "", fmt.Errorf("formats: unknown format %q", name)
	}
	var b strings.Builder
	if err := f.Encode(&b, in); err != nil {
		return "", err
	}
	return b.String(), nil
}

// IsoldaVersion returns the ISOLDA version a registry name stands for
// ("isolda" is the default version, isolda.V04; "isolda-0.2" is 0.2), and
// false for every other format (Format.Version).
func IsoldaVersion(name string) (string, bool) {
	f, ok := Get(name)
	return f.Version, ok && f.Version != ""
}

// FoldName folds a format name for lookup: lower case, '_' read as '-'.
func FoldName(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
}

// Lookup returns the format a user-typed name means: the registry name
// itself, the name folded by FoldName (pretty-json, ISOLDA_0.3), "isolda-0.4"
// for the registry's isolda (the default version), or a short name or alias
// of an RDF syntax that the registry writes (nt, ttl, n-quads, json-ld; not
// html, which is read only). The CLI, the MCP server and the WebAssembly
// core all read names through it.
func Lookup(name string) (Format, bool) {
	if f, ok := Get(name); ok {
		return f, true
	}
	key := FoldName(name)
	for _, f := range All() {
		if FoldName(f.Name) == key {
			return f, true
		}
	}
	if key == "isolda-"+isolda.V04 {
		return Get("isolda")
	}
	if syn, ok := rdfio.Lookup(key); ok {
		return Get(string(syn.Name))
	}
	return Format{}, false
}
