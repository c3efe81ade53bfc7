package bench

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// WriteDir on a graph with traversal queries and one without: the second
// gets no Pareto chart (every format would sit at the same made-up
// traversal score) but a note saying why; a format that wrote nothing has
// no bar; lossy bars say so.
func TestWriteDirCharts(t *testing.T) {
	one := 1.0
	rep := &Report{Tokenizers: []string{"o200k_base"},
		Graphs: []GraphInfo{{Name: "with", Queries: []Query{{}}}, {Name: "without"}}}
	for _, g := range []string{"with", "without"} {
		var tr *float64
		if g == "with" {
			tr = &one
		}
		rep.Results = append(rep.Results,
			Result{Graph: g, Format: "turtle", Lossless: true, UTF8Bytes: 300, Tokens: map[string]int{"o200k_base": 100}, RoundTripEqual: true, Traversal: tr},
			Result{Graph: g, Format: "isolda", Lossless: true, UTF8Bytes: 200, Tokens: map[string]int{"o200k_base": 80}, RoundTripEqual: true, Traversal: tr},
			Result{Graph: g, Format: "entity_centric", UTF8Bytes: 90, Tokens: map[string]int{"o200k_base": 30}},
			Result{Graph: g, Format: "onto_entity_centric", UTF8Bytes: 0, Tokens: map[string]int{"o200k_base": 0}})
	}
	dir := t.TempDir()
	if err := WriteDir(dir, rep); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `src="pareto-1.svg"`) || strings.Contains(string(index), `pareto-2.svg`) ||
		!strings.Contains(string(index), "no traversal queries on this graph") {
		t.Errorf("index.html:\n%s", index)
	}
	if _, err := os.Stat(filepath.Join(dir, "pareto-2.svg")); err == nil {
		t.Error("pareto-2.svg written for a graph without queries")
	}
	tok, err := os.ReadFile(filepath.Join(dir, "tokens-2.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(tok), "onto_entity_centric") || strings.Count(string(tok), `class="bar"`) != 3 ||
		!strings.Contains(string(tok), ">entity_centric (lossy)</text>") {
		t.Errorf("token chart:\n%s", tok)
	}
	par, _ := os.ReadFile(filepath.Join(dir, "pareto-1.svg"))
	// isolda (80 tokens, 1, 1) dominates turtle (100 tokens, 1, 1).
	if !strings.Contains(string(par), "turtle: 100 tokens of the complete text") || !strings.Contains(string(par), "dominated by isolda") {
		t.Errorf("Pareto chart:\n%s", par)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
}

// TestTokenChartGraphView: a format lossless for the labelled-graph view
// only (csv, compact_json) is drawn neither as a lossless one nor as a
// lossy one: its own colour, label mark and legend entry.
func TestTokenChartGraphView(t *testing.T) {
	res := []Result{
		{Format: "turtle", Lossless: true, Scope: ScopeRDF, Tokens: map[string]int{"o200k_base": 100}},
		{Format: "csv", Lossless: true, Scope: ScopeGraph, Tokens: map[string]int{"o200k_base": 60}},
		{Format: "plain", Lossless: false, Scope: ScopeLossy, Tokens: map[string]int{"o200k_base": 40}},
	}
	svg := tokenChart("t", res, "o200k_base").SVG()
	fills := map[string]string{}
	for _, m := range regexp.MustCompile(`fill="(#[0-9A-Fa-f]{6})"><title>([^:]+):`).FindAllStringSubmatch(svg, -1) {
		fills[m[2]] = m[1]
	}
	if len(fills) != 3 || fills["turtle"] == fills["csv (graph view)"] || fills["csv (graph view)"] == fills["plain (lossy)"] || fills["turtle"] == fills["plain (lossy)"] {
		t.Errorf("bar colours: %v\n%s", fills, svg)
	}
	if !strings.Contains(svg, ">lossless for the graph view only</text>") {
		t.Errorf("no legend entry for the graph view:\n%s", svg)
	}
	// Without such a format, the legend has two entries as before.
	if svg := tokenChart("t", []Result{res[0], res[2]}, "o200k_base").SVG(); strings.Contains(svg, "graph view") {
		t.Errorf("a graph-view legend without a graph-view format:\n%s", svg)
	}
}
