package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf/rdfio"
)

func TestGraphBudgets(t *testing.T) {
	data, err := examples.Read("demo.ttl")
	if err != nil {
		t.Fatal(err)
	}
	d, err := rdfio.Read(bytes.NewReader(data), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	fs, err := SelectFormats([]string{"ntriples", "turtle", "isolda", "typed_edges", "list_of_edges"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	budgets := []int{100, 250, 4096}
	res, err := GraphBudgets(Input{Name: "demo", Dataset: d}, fs, GraphBudgetOptions{Budgets: budgets, Count: tok.Count})
	if err != nil {
		t.Fatal(err)
	}
	// list_of_edges is lossy: no decoder, no cells.
	if want := 4 * 2 * len(budgets); len(res) != want {
		t.Fatalf("%d cells, want %d", len(res), want)
	}
	for _, r := range res {
		if r.Error != "" || r.Format == "list_of_edges" {
			t.Errorf("%+v", r)
		}
		if r.Tokens > r.Budget {
			t.Errorf("%+v: over budget", r)
		}
		if r.Budget == 4096 && (!r.Parses || r.Retained != r.Total || r.Traversal == nil || *r.Traversal != 1) {
			t.Errorf("%+v: the whole graph fits in 4096 tokens", r)
		}
		if r.Policy == PolicyRecord && !r.Parses {
			t.Errorf("%+v: record-aware text must parse", r)
		}
	}
	// Record-aware N-Triples keeps the most whole lines of the canonical
	// N-Triples text that fit.
	full, err := formats.EncodeString("ntriples", formats.NewInput(d))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(full, "\n"), "\n")
	lines[len(lines)-1] += "\n" // each line keeps its "\n"
	for _, r := range res {
		if r.Format != "ntriples" || r.Policy != PolicyRecord {
			continue
		}
		k := 0
		for k < len(lines) && tok.Count(strings.Join(lines[:k+1], "")) <= r.Budget {
			k++
		}
		if r.Retained != k {
			t.Errorf("budget %d: %d statements kept, %d lines fit", r.Budget, r.Retained, k)
		}
	}
	var b strings.Builder
	if err := WriteGraphBudgetTable(&b, res, budgets); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# budget study") || strings.Count(b.String(), "\ndemo ") != 4*2 {
		t.Errorf("table:\n%s", b.String())
	}
}
