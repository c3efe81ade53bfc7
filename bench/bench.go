// Package bench is isolda's offline format benchmark (issue 7): before any
// model is called, it measures for a graph and a tokenizer what each format
// of the registry (package formats) costs and whether it keeps what
// questions need. It implements the GraphRAG serialization article
// (../shared/spec/002_20b823f74d856c24.txt) and applies it to every format:
//
//   - UTF-8 bytes, characters and tokens of every format, for any number of
//     tokenizers, and the ratio of tokens to Turtle's;
//   - round-trip fidelity of the lossless formats (decode and compare: RDF
//     isomorphism for RDF formats, equal canonical node and edge sets for
//     labelled-graph formats); lossy formats are labelled as such and ranked
//     apart;
//   - deterministic traversal accuracy: multi-hop and reverse-edge queries
//     generated from the input graph, answered on the decoded graph;
//   - the RDFC-1.0 SHA-256 hash of every input graph;
//   - the article's synthetic service graph (package bench/synthetic)
//     with its reference report structure, and token budgets under raw
//     and record-aware truncation with several record orderings (Budgets);
//   - the same budget study on RDF inputs (GraphBudgets): every lossless
//     format × record ordering × policy × budget, with the kept text's
//     parse outcome, retained nodes and edges, the surviving gold paths of
//     the generated queries (Query.GoldPath) and traversal accuracy; the
//     formats whose encoder sorts its records are labelled
//     order-invariant.
//
// Results are plain values; WriteTable, WriteCSV and WriteJSON render them.
// The package has no mutable package-level state and its output does not
// depend on map iteration order.
package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/token"
)

// Fidelity outcomes of a round trip.
const (
	// FidelityIsomorphic: an RDF format decoded to a dataset isomorphic to
	// the input.
	FidelityIsomorphic = "isomorphic"
	// FidelityEqual: a labelled-graph format decoded to the same canonical
	// node and edge sets as the input's labelled-graph view.
	FidelityEqual = "equal"
	// FidelityDiffers: the decoded graph differs from the input.
	FidelityDiffers = "differs"
	// FidelityDecodeError: the decoder rejected the encoder's own text.
	FidelityDecodeError = "decode-error"
	// FidelityLossy: the format has no decoder; it is lossy by design.
	FidelityLossy = "lossy"
	// FidelityNotApplicable: the format could not encode this input.
	FidelityNotApplicable = "n/a"
)

// Scopes of a format's losslessness, the sections of the table.
const (
	// ScopeRDF: the format decodes to a dataset isomorphic to the input.
	ScopeRDF = "rdf"
	// ScopeGraph: the format keeps the labelled-graph view only (node
	// ids, types and typed edges; not the other literals, nor named
	// graphs), and decodes to it.
	ScopeGraph = "graph"
	// ScopeLossy: the format has no decoder.
	ScopeLossy = "lossy"
)

// scopeOf returns the scope of a registry format.
func scopeOf(f formats.Format) string {
	switch {
	case !f.Lossless:
		return ScopeLossy
	case f.Decode != nil:
		return ScopeRDF
	case f.DecodeGraph != nil:
		return ScopeGraph
	}
	return ScopeLossy
}

// ReferenceFormat is the format token ratios are computed against.
const ReferenceFormat = "turtle"

// fallbackReference replaces ReferenceFormat for datasets with named graphs,
// which Turtle cannot write.
const fallbackReference = "trig"

// Input is one graph to benchmark.
type Input struct {
	// Name identifies the graph in results (a file name).
	Name string
	// Dataset is the graph.
	Dataset *rdf.Dataset
	// Graph is a labelled graph to benchmark instead, when Dataset is nil
	// (such as a generated random graph): only the formats of labelled
	// graphs apply to it, the RDF formats are reported as not applicable.
	Graph *graph.Graph
}

// Options configure Run.
type Options struct {
	// Tokenizers count tokens; the first is the primary one, used for
	// ranking and ratios. At least one is required.
	Tokenizers []token.Tokenizer
	// Formats restricts the run to these registry names (nil: all).
	Formats []string
	// Skip removes these registry names.
	Skip []string
	// Queries is the number of traversal queries of each kind generated
	// per graph (0 means DefaultQueries).
	Queries int
	// Budgets, if not empty, adds the budget study (GraphBudgets) of
	// every lossless format at these token budgets.
	Budgets []int
	// Orderings are the record orderings of the budget study (nil:
	// canonical only).
	Orderings []string
	// ShuffleSeed seeds the shuffled ordering.
	ShuffleSeed uint64
	// Progress, if set, is called after each graph × format with the
	// number of steps done and the total.
	Progress func(done, total int)
}

// DefaultQueries is the default number of queries of each kind per graph.
const DefaultQueries = 4

// GraphInfo describes one benchmarked graph.
type GraphInfo struct {
	Name string `json:"name"`
	// Quads is the number of RDF statements.
	Quads int `json:"quads"`
	// Nodes and Edges count the labelled-graph view (graph.FromRDF).
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// Hash is the RDFC-1.0 SHA-256 hash of the dataset (LabelledHash for
	// a labelled-graph input).
	Hash string `json:"hash"`
	// HashError says why Hash is empty (a work limit on hostile input).
	HashError string `json:"hash_error,omitempty"`
	// Queries are the generated traversal queries with their gold answers.
	Queries []Query `json:"queries"`
	// Reference names the format ratios are computed against (none for
	// a labelled-graph input).
	Reference string `json:"ratio_reference"`
	// Pareto is the Pareto analysis of the lossless formats (see
	// Report.ParetoOf).
	Pareto []ParetoPoint `json:"pareto"`
	// GlossaryTokens is, per tokenizer, what the glossary of the default
	// ISOLDA document costs: its tokens minus those of the same document
	// with --glossary none (absent when the isolda format was not run).
	GlossaryTokens map[string]int `json:"isolda_glossary_tokens,omitempty"`
}

// NotOntology is the Error of an ontology format (onto_*) on a graph
// without RDFS or OWL classes or properties: such a graph has no ontology
// view, and the format would print an empty template.
const NotOntology = "not an ontology: no RDFS/OWL classes or properties"

// Result is the measurement of one format on one graph.
type Result struct {
	Graph     string `json:"graph"`
	GraphHash string `json:"graph_hash"`
	Format    string `json:"format"`
	Family    string `json:"family"`
	Input     string `json:"input_model"`
	Lossless  bool   `json:"lossless"`
	// Scope says what a lossless format keeps: ScopeRDF (the dataset) or
	// ScopeGraph (only the labelled-graph view); ScopeLossy otherwise.
	Scope string `json:"lossless_scope"`
	Loses string `json:"loses,omitempty"`
	// Error is set when the format cannot encode this graph (it is then
	// not applicable and has no measurements).
	Error      string `json:"error,omitempty"`
	UTF8Bytes  int    `json:"utf8_bytes"`
	Characters int    `json:"characters"`
	// Tokens maps tokenizer names to counts.
	Tokens map[string]int `json:"tokens"`
	// RatioToReference maps tokenizer names to tokens divided by the
	// reference format's (Turtle, or TriG for datasets with named graphs).
	RatioToReference map[string]float64 `json:"ratio_to_turtle"`
	// Fidelity is one of the Fidelity constants.
	Fidelity string `json:"fidelity"`
	// FidelityDetail explains a failed round trip.
	FidelityDetail string `json:"fidelity_detail,omitempty"`
	// RoundTripEqual is Fidelity == isomorphic or equal.
	RoundTripEqual bool `json:"round_trip_equal"`
	// Traversal is the fraction of the graph's queries answered right on
	// the decoded graph; nil when the format has no decoder or the graph
	// no queries.
	Traversal *float64 `json:"traversal_accuracy"`
	// SHA256 is the hex SHA-256 of the text.
	SHA256 string `json:"sha256"`
	// EncodeMillis is the encoding time (not deterministic; informative).
	EncodeMillis float64 `json:"encode_ms"`
}

// Versions records what produced a report.
type Versions struct {
	Go     string `json:"go"`
	Module string `json:"module"`
	ISOLDA string `json:"isolda_notation"`
}

// Report is the result of Run.
type Report struct {
	Tool       string   `json:"tool"`
	Versions   Versions `json:"versions"`
	Tokenizers []string `json:"tokenizers"`
	Formats    []string `json:"formats"`
	// QueriesPerKind is the number of queries of each kind generated per
	// graph (at most; fewer when the graph has fewer candidates).
	QueriesPerKind int         `json:"queries_per_kind"`
	Graphs         []GraphInfo `json:"graphs"`
	Results        []Result    `json:"results"`
	// BudgetList and Budgets are the budget study, when asked for, and
	// BudgetParameters its factors (budgets, policies, orderings, shuffle
	// seed, tokenizer).
	BudgetList       []int               `json:"budget_list,omitempty"`
	BudgetParameters *BudgetParameters   `json:"budget_parameters,omitempty"`
	Budgets          []GraphBudgetResult `json:"budgets,omitempty"`
	// Millis is the wall time of the run (informative).
	Millis float64 `json:"elapsed_ms"`
}

// BudgetParameters are the factors of a budget study.
type BudgetParameters struct {
	Budgets     []int    `json:"budgets"`
	Policies    []string `json:"policies"`
	Orderings   []string `json:"orderings"`
	ShuffleSeed uint64   `json:"shuffle_seed"`
	Tokenizer   string   `json:"tokenizer"`
}

// BuildVersions returns the build's versions.
func BuildVersions() Versions {
	v := Versions{Go: runtime.Version(), Module: "(devel)", ISOLDA: isolda.V02}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v.Module = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v.Module += " " + s.Value
			}
		}
	}
	return v
}

// SelectFormats returns the registry formats named by only (all when
// empty) minus skip, in registry order; an unknown name is an error.
func SelectFormats(only, skip []string) ([]formats.Format, error) {
	all := formats.All()
	known := make(map[string]bool, len(all))
	for _, f := range all {
		known[f.Name] = true
	}
	for _, n := range slices.Concat(only, skip) {
		if !known[n] {
			return nil, fmt.Errorf("bench: unknown format %q", n)
		}
	}
	var out []formats.Format
	for _, f := range all {
		if (len(only) == 0 || slices.Contains(only, f.Name)) && !slices.Contains(skip, f.Name) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Run benchmarks every selected format on every input. Inputs must have
// distinct names, which key the results.
func Run(inputs []Input, opts Options) (*Report, error) {
	if len(opts.Tokenizers) == 0 {
		return nil, errors.New("bench: no tokenizer")
	}
	fs, err := SelectFormats(opts.Formats, opts.Skip)
	if err != nil {
		return nil, err
	}
	if err := checkOrderings(opts.Orderings); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, in := range inputs {
		switch {
		case in.Dataset == nil && in.Graph == nil:
			return nil, fmt.Errorf("bench: input %q has no dataset and no graph", in.Name)
		case names[in.Name]:
			return nil, fmt.Errorf("bench: two inputs are named %q", in.Name)
		}
		names[in.Name] = true
	}
	start := time.Now()
	rep := &Report{Tool: "isolda bench", Versions: BuildVersions()}
	for _, t := range opts.Tokenizers {
		rep.Tokenizers = append(rep.Tokenizers, t.Name())
	}
	for _, f := range fs {
		rep.Formats = append(rep.Formats, f.Name)
	}
	nq := opts.Queries
	if nq <= 0 {
		nq = DefaultQueries
	}
	rep.QueriesPerKind = nq
	if len(opts.Budgets) > 0 {
		bp := BudgetParameters{Budgets: opts.Budgets, Policies: Policies(), Orderings: opts.Orderings,
			ShuffleSeed: opts.ShuffleSeed, Tokenizer: rep.Tokenizers[0]}
		if bp.Orderings == nil {
			bp.Orderings = []string{OrderCanonical}
		}
		rep.BudgetList, rep.BudgetParameters = opts.Budgets, &bp
	}
	total, done := len(inputs)*len(fs), 0
	for _, in := range inputs {
		info, results := runGraph(in, fs, opts.Tokenizers, nq, func() {
			done++
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
		})
		rep.Graphs = append(rep.Graphs, info)
		rep.Results = append(rep.Results, results...)
		if bp := rep.BudgetParameters; bp != nil {
			cells, err := GraphBudgets(in, fs, GraphBudgetOptions{Budgets: bp.Budgets, Orderings: bp.Orderings,
				ShuffleSeed: bp.ShuffleSeed, Count: opts.Tokenizers[0].Count, Queries: nq})
			if err != nil {
				return nil, err
			}
			rep.Budgets = append(rep.Budgets, cells...)
		}
	}
	for i := range rep.Graphs {
		rep.Graphs[i].Pareto = rep.ParetoOf(rep.Graphs[i].Name)
	}
	rep.Millis = float64(time.Since(start).Microseconds()) / 1000
	return rep, nil
}

// runGraph measures every format on one graph.
func runGraph(in Input, fs []formats.Format, toks []token.Tokenizer, nq int, step func()) (GraphInfo, []Result) {
	fin := inputOf(in)
	g := fin.Graph()
	info := GraphInfo{Name: in.Name, Nodes: len(g.Nodes), Edges: len(g.Edges)}
	graphQueries := GenerateQueries(labelledEdges(g), nq)
	if in.Dataset == nil {
		info.Hash, info.Queries = LabelledHash(g), graphQueries
	} else {
		info.Quads, info.Reference = in.Dataset.Len(), ReferenceFormat
		if h, err := canon.Hash(in.Dataset); err != nil {
			info.HashError = err.Error()
		} else {
			info.Hash = h
		}
		if slices.ContainsFunc(in.Dataset.Graphs(), func(t rdf.Term) bool { return !t.IsZero() }) {
			info.Reference = fallbackReference
		}
		info.Queries = GenerateQueries(datasetEdges(in.Dataset), nq)
	}

	var results []Result
	for _, f := range fs {
		r := Result{Graph: in.Name, GraphHash: info.Hash, Format: f.Name, Family: f.Family,
			Input: f.Input.String(), Lossless: f.Lossless, Scope: scopeOf(f), Loses: f.Loses}
		if f.Input == formats.InputOntology && in.Dataset != nil {
			if o := fin.Ontology(); len(o.Concepts) == 0 && len(o.Relations) == 0 {
				r.Error, r.Fidelity = NotOntology, FidelityNotApplicable
				results = append(results, r)
				step()
				continue
			}
		}
		t0 := time.Now()
		text, err := GuardedEncode(f, fin)
		r.EncodeMillis = float64(time.Since(t0).Microseconds()) / 1000
		if err != nil {
			r.Error = err.Error()
			r.Fidelity = FidelityNotApplicable
			results = append(results, r)
			step()
			continue
		}
		r.UTF8Bytes = len(text)
		r.Characters = utf8.RuneCountInString(text)
		sum := sha256.Sum256([]byte(text))
		r.SHA256 = hex.EncodeToString(sum[:])
		r.Tokens = make(map[string]int, len(toks))
		for _, t := range toks {
			r.Tokens[t.Name()] = t.Count(text)
		}
		switch {
		case f.Decode != nil:
			roundTrip(&r, text, f.Decode, func(dec *rdf.Dataset) (string, string) { return rdfFidelity(in.Dataset, dec) },
				info.Queries, datasetEdges)
		case f.DecodeGraph != nil:
			roundTrip(&r, text, f.DecodeGraph, func(dec *graph.Graph) (string, string) { return graphFidelity(g, dec) },
				graphQueries, labelledEdges)
		default:
			r.Fidelity = FidelityLossy
		}
		r.RoundTripEqual = r.Fidelity == FidelityIsomorphic || r.Fidelity == FidelityEqual
		results = append(results, r)
		step()
	}
	setRatios(results, info.Reference)
	if in.Dataset != nil && slices.ContainsFunc(results, func(r Result) bool { return r.Format == GlossaryFormat && r.Error == "" }) {
		info.GlossaryTokens = glossaryTokens(in.Dataset, results, toks)
	}
	return info, results
}

// GlossaryFormat is the format whose glossary cost GraphInfo records: the
// default ISOLDA notation.
const GlossaryFormat = "isolda"

// glossaryTokens returns, per tokenizer, the tokens of GlossaryFormat's
// document minus those of the same document without its glossary (nil if
// that document cannot be written).
func glossaryTokens(d *rdf.Dataset, results []Result, toks []token.Tokenizer) map[string]int {
	var full map[string]int
	for _, r := range results {
		if r.Format == GlossaryFormat {
			full = r.Tokens
		}
	}
	var b strings.Builder
	if err := Guard(func() error {
		return isolda.Encode(&b, d, isolda.Options{Glossary: isolda.GlossaryNone})
	}); err != nil {
		return nil
	}
	out := make(map[string]int, len(toks))
	for _, t := range toks {
		out[t.Name()] = full[t.Name()] - t.Count(b.String())
	}
	return out
}

// inputOf returns the formats input of a benchmark input.
func inputOf(in Input) *formats.Input {
	if in.Dataset == nil {
		return formats.NewGraphInput(in.Graph)
	}
	return formats.NewInput(in.Dataset)
}

// LabelledHash identifies a labelled graph: the hex SHA-256 of its sorted,
// distinct lines "N<TAB>id" for nodes and "E<TAB>from<TAB>type<TAB>to" for
// edges, each ending in a newline.
func LabelledHash(g *graph.Graph) string {
	var lines []string
	for _, n := range g.Nodes {
		lines = append(lines, "N\t"+n.ID+"\n")
	}
	for _, e := range g.Edges {
		lines = append(lines, "E\t"+e.From+"\t"+e.Type+"\t"+e.To+"\n")
	}
	slices.Sort(lines)
	return SHA256Hex(strings.Join(slices.Compact(lines), ""))
}

// Guard runs fn and turns a panic of a format's encoder or decoder into an
// error, so that one faulty format cannot stop a benchmark of all of them.
func Guard(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return fn()
}

// GuardedEncode encodes in with f under Guard and returns the text
// written (up to the error, if any).
func GuardedEncode(f formats.Format, in *formats.Input) (string, error) {
	var b strings.Builder
	err := Guard(func() error { return f.Encode(&b, in) })
	return b.String(), err
}

// GuardedDecode decodes text with decode (a format's Decode or
// DecodeGraph) under Guard.
func GuardedDecode[T any](decode func(io.Reader) (T, error), text string) (T, error) {
	var dec T
	err := Guard(func() (err error) { dec, err = decode(strings.NewReader(text)); return err })
	return dec, err
}

// roundTrip decodes r's text with decode and sets r's fidelity, from
// fidelity of the decoded value, and its traversal accuracy on queries
// over the decoded edges.
func roundTrip[T any](r *Result, text string, decode func(io.Reader) (T, error), fidelity func(T) (string, string), queries []Query, edges func(T) []Triple) {
	dec, err := GuardedDecode(decode, text)
	if err != nil {
		r.Fidelity, r.FidelityDetail = FidelityDecodeError, err.Error()
		return
	}
	r.Fidelity, r.FidelityDetail = fidelity(dec)
	r.Traversal = accuracy(queries, func() []Triple { return edges(dec) })
}

// accuracy returns the traversal accuracy of the queries on the decoded
// edges, or nil when there are no queries (a graph whose nodes are all
// blank has none: blank node labels do not survive a round trip).
func accuracy(queries []Query, edges func() []Triple) *float64 {
	if len(queries) == 0 {
		return nil
	}
	acc := Accuracy(queries, edges())
	return &acc
}

// setRatios fills RatioToReference from the reference format's tokens.
func setRatios(results []Result, reference string) {
	i := slices.IndexFunc(results, func(r Result) bool { return r.Format == reference && r.Error == "" })
	if i < 0 {
		return
	}
	ref := results[i].Tokens
	for j := range results {
		r := &results[j]
		if r.Error != "" {
			continue
		}
		r.RatioToReference = make(map[string]float64, len(r.Tokens))
		for name, n := range r.Tokens {
			if ref[name] > 0 {
				r.RatioToReference[name] = float64(n) / float64(ref[name])
			}
		}
	}
}

// rdfFidelity compares a decoded dataset with the input.
func rdfFidelity(want, got *rdf.Dataset) (string, string) {
	ok, err := canon.Isomorphic(want, got)
	switch {
	case err != nil:
		return FidelityDiffers, "isomorphism check: " + err.Error()
	case ok:
		return FidelityIsomorphic, ""
	}
	return FidelityDiffers, fmt.Sprintf("decoded %d statements, input has %d; not isomorphic", got.Len(), want.Len())
}

// graphFidelity compares a decoded labelled graph with the input's view:
// the sets of node ids and of edges (from, type, to) must be equal.
func graphFidelity(want, got *graph.Graph) (string, string) {
	if d := graph.SameRecords(want, got); d != "" {
		return FidelityDiffers, d
	}
	return FidelityEqual, ""
}

// SHA256Hex returns the hex SHA-256 of the UTF-8 text s.
func SHA256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
