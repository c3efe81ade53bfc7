package bench

import (
	"os"
	"path/filepath"
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
