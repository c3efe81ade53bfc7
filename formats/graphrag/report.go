package graphrag

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/jsonobj"
)

// Parameters are the reference program's command-line parameters.
type Parameters struct {
	Services   int    `json:"services"`
	NoiseEdges int    `json:"noise_edges"`
	Seed       int64  `json:"seed"`
	Encoding   string `json:"encoding"`
	Output     string `json:"output"`
}

// DefaultParameters are the reference program's defaults.
func DefaultParameters() Parameters {
	return Parameters{Services: 40, NoiseEdges: 80, Seed: 7, Encoding: "o200k_base", Output: "benchmark-results.json"}
}

// GraphSize counts a graph's records.
type GraphSize struct {
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
}

// FormatResult is one format's measurements, as in the reference report.
type FormatResult struct {
	UTF8Bytes         int         `json:"utf8_bytes"`
	Characters        int         `json:"characters"`
	Tokens            int         `json:"tokens"`
	RoundTripEqual    bool        `json:"round_trip_equal"`
	QueryChecks       QueryChecks `json:"query_checks"`
	TraversalAccuracy float64     `json:"traversal_accuracy"`
}

// Named is a format's result of type R with its format's name.
type Named[R any] struct {
	Name   string
	Result R
	// Text is the encoded text (not part of the JSON report).
	Text string
}

// Results are per-format results in the order measured; they marshal as a
// JSON object keyed by format name in that order, like the reference
// program's dict.
type Results[R any] []Named[R]

// MarshalJSON writes the results as an object keyed by format name.
func (rs Results[R]) MarshalJSON() ([]byte, error) {
	return jsonobj.Marshal(len(rs), func(i int) (string, any) { return rs[i].Name, rs[i].Result })
}

// NamedResult is a FormatResult with its format's name.
type NamedResult = Named[FormatResult]

// FormatResults are the per-format results of the reference report.
type FormatResults = Results[FormatResult]

// Report is the reference program's JSON report.
type Report struct {
	Parameters  Parameters    `json:"parameters"`
	Graph       GraphSize     `json:"graph"`
	GoldQueries GoldQueries   `json:"gold_queries"`
	Formats     FormatResults `json:"formats"`
}

// Run does what the reference program's main does without writing files:
// it generates the graph for p, answers the gold queries, and for each of
// formats (nil means the five reference formats) encodes, decodes, compares
// the canonical graphs and reruns the queries on the decoded graph. Tokens
// are counted with countTokens (the tokenizer for p.Encoding); nil records
// zero tokens.
func Run(p Parameters, formats []Format, countTokens func(string) int) (*Report, error) {
	g, err := Generate(p.Services, p.NoiseEdges, p.Seed)
	if err != nil {
		return nil, err
	}
	if formats == nil {
		for _, f := range Formats() {
			if f.Reference {
				formats = append(formats, f)
			}
		}
	}
	gold := QuerySuite(g)
	rep := &Report{Parameters: p, Graph: GraphSize{len(g.Nodes), len(g.Edges)}, GoldQueries: gold}
	for _, f := range formats {
		var b strings.Builder
		if err := f.Encode(&b, g); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		text := b.String()
		dec, err := f.Decode(strings.NewReader(text), DecodeOptions{File: f.Name})
		if err != nil {
			return nil, fmt.Errorf("%s: decoding its own output: %w", f.Name, err)
		}
		checks := gold.Check(QuerySuite(dec))
		res := FormatResult{
			UTF8Bytes:         len(text),
			Characters:        utf8.RuneCountInString(text),
			RoundTripEqual:    Equal(g, dec),
			QueryChecks:       checks,
			TraversalAccuracy: checks.Accuracy(),
		}
		if countTokens != nil {
			res.Tokens = countTokens(text)
		}
		rep.Formats = append(rep.Formats, NamedResult{Name: f.Name, Result: res, Text: text})
	}
	return rep, nil
}
