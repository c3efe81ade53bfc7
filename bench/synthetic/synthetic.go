// Package synthetic is the GraphRAG serialization article's benchmark on its
// synthetic service graph (`isolda bench --synthetic services`): the
// reference program's report (package graphrag) for the article's formats,
// the registry's other labelled-graph formats measured on the same graph,
// the budget study of package bench, and the report's tables, CSV, JSON and
// charts.
package synthetic

import (
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/token"
)

// Options configure Run.
type Options struct {
	// Parameters are the reference program's parameters (services, noise
	// edges, seed); Encoding is overwritten with the primary tokenizer's
	// name and Output is kept as given.
	Parameters graphrag.Parameters
	// Tokenizers count tokens; the first one fills the reference field
	// "tokens". At least one is required.
	Tokenizers []token.Tokenizer
	// Extra adds the registry's labelled-graph formats (other than the
	// article's own) to the article's formats.
	Extra bool
	// Formats and Skip filter the formats by name (nil Formats: all).
	Formats, Skip []string
	// Budgets, if not empty, runs the budget study (see bench.BudgetOptions)
	// on the article's formats.
	Budgets []int
	// Orderings are the record orderings of the budget study (nil means
	// bench.Orderings()).
	Orderings []string
	// ShuffleSeed seeds the shuffled ordering.
	ShuffleSeed uint64
}

// Result is one format's measurements on the synthetic graph: the
// reference program's fields, then isolda's.
type Result struct {
	graphrag.FormatResult
	// Lossless says whether the format has a decoder (lossy formats have
	// round_trip_equal false and traversal_accuracy 0 by definition).
	Lossless bool `json:"lossless"`
	// Reference is true for the reference program's five formats.
	Reference bool   `json:"reference"`
	Family    string `json:"family"`
	// TokensBy maps every tokenizer's name to its count.
	TokensBy map[string]int `json:"tokens_by_tokenizer"`
	// SHA256 is the hex SHA-256 of the UTF-8 text.
	SHA256 string `json:"sha256"`
	// Error is set when the format could not encode or decode the graph.
	Error string `json:"error,omitempty"`
}

// NamedResult is a Result with its format's name.
type NamedResult = graphrag.Named[Result]

// Results marshal as a JSON object keyed by format name, in the
// order measured, like the reference program's dict.
type Results = graphrag.Results[Result]

// Report keeps the reference program's report structure
// (parameters, graph, gold_queries, formats) and adds isolda's fields.
type Report struct {
	Parameters  graphrag.Parameters  `json:"parameters"`
	Graph       graphrag.GraphSize   `json:"graph"`
	GoldQueries graphrag.GoldQueries `json:"gold_queries"`
	Formats     Results              `json:"formats"`
	// GraphHash is the SHA-256 of the canonical typed_edges text of the
	// graph (the reference program's canonical tuples, one record a line).
	GraphHash  string               `json:"graph_hash"`
	Tool       string               `json:"tool"`
	Versions   bench.Versions       `json:"versions"`
	Tokenizers []string             `json:"tokenizers"`
	Budgets    []bench.BudgetResult `json:"budgets,omitempty"`
	// Pareto is the Pareto analysis of the formats (Report.ParetoFrontier).
	Pareto []bench.ParetoPoint `json:"pareto"`
	// BudgetParameters records the budget study's factors.
	BudgetParameters *bench.BudgetParameters `json:"budget_parameters,omitempty"`
	Millis           float64                 `json:"elapsed_ms"`
}

// Run runs the article's benchmark on its synthetic service graph:
// graphrag.Run for the article's formats (the five reference formats and
// typed_edges_dict), then, with Extra, every other labelled-graph format
// of the registry on graphrag.ToGraph of the same graph, and the budget
// study when Budgets are given.
func Run(opts Options) (*Report, error) {
	if len(opts.Tokenizers) == 0 {
		return nil, errors.New("bench: no tokenizer")
	}
	start := time.Now()
	p := opts.Parameters
	p.Encoding = opts.Tokenizers[0].Name()
	keep := func(name string) bool {
		if len(opts.Formats) > 0 && !slices.Contains(opts.Formats, name) {
			return false
		}
		return !slices.Contains(opts.Skip, name)
	}
	article := []graphrag.Format{} // not nil: nil makes graphrag.Run use its five
	for _, f := range graphrag.Formats() {
		if keep(f.Name) {
			article = append(article, f)
		}
	}
	primary := opts.Tokenizers[0]
	base, err := graphrag.Run(p, article, primary.Count)
	if err != nil {
		return nil, err
	}
	g, err := graphrag.Generate(p.Services, p.NoiseEdges, p.Seed)
	if err != nil {
		return nil, err
	}
	rep := &Report{Parameters: p, Graph: base.Graph, GoldQueries: base.GoldQueries,
		Tool: "isolda bench --synthetic services", Versions: bench.BuildVersions()}
	for _, t := range opts.Tokenizers {
		rep.Tokenizers = append(rep.Tokenizers, t.Name())
	}
	canonText, err := graphrag.EncodeString(graphrag.TypedEdges, graphrag.Canonical(g))
	if err != nil {
		return nil, err
	}
	rep.GraphHash = bench.SHA256Hex(canonText)
	for i, r := range base.Formats {
		res := Result{FormatResult: r.Result, Lossless: true, Reference: article[i].Reference,
			Family: familyOf(r.Name), TokensBy: countAll(opts.Tokenizers, r.Text), SHA256: bench.SHA256Hex(r.Text)}
		rep.Formats = append(rep.Formats, NamedResult{Name: r.Name, Result: res, Text: r.Text})
	}
	if opts.Extra {
		rep.Formats = append(rep.Formats, extraFormats(g, base.GoldQueries, opts.Tokenizers, keep)...)
	}
	if len(opts.Budgets) > 0 {
		bp := bench.BudgetParameters{Budgets: opts.Budgets, Policies: bench.Policies(), Orderings: opts.Orderings,
			ShuffleSeed: opts.ShuffleSeed, Tokenizer: primary.Name()}
		if bp.Orderings == nil {
			bp.Orderings = bench.Orderings()
		}
		rep.BudgetParameters = &bp
		rep.Budgets, err = bench.Budgets(g, article, bench.BudgetOptions{Budgets: bp.Budgets, Orderings: bp.Orderings,
			ShuffleSeed: bp.ShuffleSeed, Count: primary.Count})
		if err != nil {
			return nil, err
		}
	}
	rep.Pareto = rep.ParetoFrontier()
	rep.Millis = float64(time.Since(start).Microseconds()) / 1000
	return rep, nil
}

// extraFormats measures the registry's labelled-graph formats other than
// the article's on the synthetic graph.
func extraFormats(g graphrag.Graph, gold graphrag.GoldQueries, toks []token.Tokenizer, keep func(string) bool) []NamedResult {
	in := formats.NewGraphInput(graphrag.ToGraph(g))
	var out []NamedResult
	for _, f := range formats.All() {
		if f.Input != formats.InputGraph || f.Source == formats.SourceGraphRAG || !keep(f.Name) {
			continue
		}
		res := Result{Lossless: f.Lossless, Family: f.Family}
		text, err := bench.GuardedEncode(f, in)
		if err != nil {
			res.Error = err.Error()
			out = append(out, NamedResult{Name: f.Name, Result: res})
			continue
		}
		res.UTF8Bytes, res.Characters = len(text), utf8.RuneCountInString(text)
		res.TokensBy = countAll(toks, text)
		res.Tokens = res.TokensBy[toks[0].Name()]
		res.SHA256 = bench.SHA256Hex(text)
		if f.DecodeGraph != nil {
			dec, err := bench.GuardedDecode(f.DecodeGraph, text)
			if err != nil {
				res.Error = "decoding its own output: " + err.Error()
			} else {
				d := graphrag.FromGraph(dec)
				res.RoundTripEqual = graphrag.Equal(g, d)
				res.QueryChecks = gold.Check(graphrag.QuerySuite(d))
				res.TraversalAccuracy = res.QueryChecks.Accuracy()
			}
		}
		out = append(out, NamedResult{Name: f.Name, Result: res, Text: text})
	}
	return out
}

// familyOf returns the registry family of an article format.
func familyOf(name string) string {
	if f, ok := formats.Get(name); ok {
		return f.Family
	}
	return formats.FamilyConnect
}

func countAll(toks []token.Tokenizer, text string) map[string]int {
	m := make(map[string]int, len(toks))
	for _, t := range toks {
		m[t.Name()] = t.Count(text)
	}
	return m
}

// ParetoFrontier returns the Pareto analysis of the synthetic report: with a budget
// study, the formats of the study scored by traversal accuracy at every
// budget under record-aware truncation in canonical order (or the first
// ordering studied); without one, the lossless formats scored by
// traversal accuracy of the complete text.
func (rep *Report) ParetoFrontier() []bench.ParetoPoint {
	var pts []bench.ParetoPoint
	if len(rep.Budgets) > 0 && rep.BudgetParameters != nil {
		ordering := bench.OrderCanonical
		if !slices.Contains(rep.BudgetParameters.Orderings, ordering) && len(rep.BudgetParameters.Orderings) > 0 {
			ordering = rep.BudgetParameters.Orderings[0]
		}
		for _, f := range rep.Formats {
			var scores []float64
			for _, b := range rep.Budgets {
				if b.Format == f.Name && b.Ordering == ordering && b.Policy == bench.PolicyRecord {
					scores = append(scores, b.TraversalAccuracy)
				}
			}
			if scores != nil {
				pts = append(pts, bench.ParetoPoint{Name: f.Name, Tokens: f.Result.Tokens, Scores: scores})
			}
		}
		return bench.Pareto(pts)
	}
	for _, f := range rep.Formats {
		if f.Result.Lossless && f.Result.Error == "" {
			pts = append(pts, bench.ParetoPoint{Name: f.Name, Tokens: f.Result.Tokens,
				Scores: []float64{f.Result.TraversalAccuracy}})
		}
	}
	return bench.Pareto(pts)
}
