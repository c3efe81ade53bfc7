package bench

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/internal/testkit/isoldatest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/token"
)

// noTrailingSpace fails for every line of text that ends in a space or tab.
func noTrailingSpace(t *testing.T, what, text string) {
	t.Helper()
	n := 0
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimRight(line, " \t") != line {
			if n++; n <= 3 {
				t.Errorf("%s: line %d ends in a space: %q", what, i+1, line)
			}
		}
	}
	if n > 3 {
		t.Errorf("%s: %d lines end in a space", what, n)
	}
}

func TestVersus(t *testing.T) {
	// Hand-computed: 524-339 = 185, 185/339 = 54.57%; 10178-19512 = -9334,
	// -9334/19512 = -47.84%.
	for _, c := range []struct {
		n, than int
		want    string
	}{{524, 339, "+185 (+54.6%)"}, {10178, 19512, "-9334 (-47.8%)"}, {7, 7, "+0 (+0.0%)"}, {0, 5, "-"}, {5, 0, "-"}} {
		if got := versus(c.n, c.than); got != c.want {
			t.Errorf("versus(%d, %d) = %q, want %q", c.n, c.than, got, c.want)
		}
	}
}

// TestSummaryLeadsTheTable checks that the table starts with one summary
// row per graph whose figures are those of the ranked results.
func TestSummaryLeadsTheTable(t *testing.T) {
	in := []Input{exampleInput(t, examples.Default), exampleInput(t, "wikidata-L691820-lexeme.ttl")}
	tok := testgraph.O200k(t)
	rep, err := Run(in, Options{Tokenizers: []token.Tokenizer{tok}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "# Which lossless format, at what cost (o200k_base tokens)") ||
		!strings.HasPrefix(lines[1], "graph ") || !strings.HasPrefix(lines[2], examples.Default+" ") ||
		!strings.HasPrefix(lines[3], "wikidata-L691820-lexeme.ttl ") || lines[4] != "" {
		t.Fatalf("the table does not start with the summary:\n%s", strings.Join(lines[:6], "\n"))
	}
	tokens := func(graph, format string) int {
		for _, r := range rep.Results {
			if r.Graph == graph && r.Format == format {
				return r.Tokens[tok.Name()]
			}
		}
		t.Fatalf("no result for %s on %s", format, graph)
		return 0
	}
	for i, s := range rep.Summaries() {
		g := in[i]
		// The smallest lossless format, by a plain scan of the results.
		best := -1
		for _, r := range rep.Results {
			if r.Graph == g.Name && r.Scope == ScopeRDF && r.RoundTripEqual && (best < 0 || r.Tokens[tok.Name()] < best) {
				best = r.Tokens[tok.Name()]
			}
		}
		if s.SmallestTokens != best || s.Smallest == "" {
			t.Errorf("%s: smallest %s %d, want %d tokens", g.Name, s.Smallest, s.SmallestTokens, best)
		}
		// The glossary costs the difference of two independent encodings.
		full := isoldatest.Encode(t, g.Dataset, isolda.Options{})
		bare := isoldatest.Encode(t, g.Dataset, isolda.Options{Glossary: isolda.GlossaryNone})
		wantGlossary := tok.Count(full) - tok.Count(bare)
		if s.Glossary != wantGlossary || wantGlossary <= 0 {
			t.Errorf("%s: glossary %d tokens, want %d", g.Name, s.Glossary, wantGlossary)
		}
		if s.ISOLDA != tok.Count(full) || s.ReferenceTokens != tokens(g.Name, "turtle") || s.JSONLD != tokens(g.Name, "jsonld-compact") {
			t.Errorf("%s: summary %+v", g.Name, s)
		}
		row := lines[2+i]
		for _, want := range []string{versus(s.ISOLDA, s.ReferenceTokens), versus(s.ISOLDA, s.JSONLD),
			fmt.Sprintf("%d (", s.Glossary), "25/25 lossless exact", fmt.Sprintf("on %d queries", len(rep.Graphs[i].Queries))} {
			if !strings.Contains(row, want) {
				t.Errorf("summary row lacks %q: %q", want, row)
			}
		}
	}
	// The demo graph: Turtle and TriG tie at the smallest size.
	if s := rep.Summaries()[0]; s.Smallest != "trig = turtle" {
		t.Errorf("demo: smallest %q, want the tie trig = turtle", s.Smallest)
	}
	noTrailingSpace(t, "WriteTable", b.String())
}

// TestOntologyFormatsNotApplicable checks that the onto_* formats apply to
// the OWL example only, and are listed with the reason elsewhere.
func TestOntologyFormatsNotApplicable(t *testing.T) {
	in := []Input{exampleInput(t, examples.Default), exampleInput(t, "lod-datagovuk-reference-intervals.ttl")}
	rep, err := Run(in, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)}})
	if err != nil {
		t.Fatal(err)
	}
	onto := 0
	for _, r := range rep.Results {
		if !strings.HasPrefix(r.Format, "onto_") {
			continue
		}
		onto++
		demo := r.Graph == examples.Default
		if got := r.Error == NotOntology; got != demo {
			t.Errorf("%s on %s: error %q", r.Format, r.Graph, r.Error)
		}
		if !demo && (r.UTF8Bytes < 100 || r.Fidelity != FidelityLossy) {
			t.Errorf("%s on the OWL example: %d bytes, fidelity %s", r.Format, r.UTF8Bytes, r.Fidelity)
		}
	}
	if onto != 24 {
		t.Errorf("%d onto_* results, want 12 per graph", onto)
	}
	var b strings.Builder
	if err := WriteTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# not applicable to this graph: onto_edge_list, onto_entity_centric,") ||
		strings.Contains(b.String(), "onto_entity_centric    LOSSY     0") {
		t.Errorf("the demo graph's table ranks the onto_* formats:\n%s", b.String())
	}
}

// TestGraphWithoutQueries checks a graph with no links: no traversal
// column, "no queries" in the summary and a Pareto analysis on round-trip
// fidelity alone.
func TestGraphWithoutQueries(t *testing.T) {
	d := rdf.NewDataset()
	for _, s := range []string{"a", "b"} {
		d.Add(rdf.Quad{S: rdf.NewIRI("http://e/" + s), P: rdf.NewIRI("http://e/p"), O: rdf.NewString("x")})
	}
	rep, err := Run([]Input{{Name: "flat", Dataset: d}}, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Formats: []string{"isolda", "turtle", "jsonld-compact", "csv"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "no traversal queries") || strings.Contains(out, "fidelity  traversal") ||
		!strings.Contains(out, "  no queries\n") {
		t.Errorf("graph without queries:\n%s", out)
	}
	for _, p := range rep.Graphs[0].Pareto {
		if len(p.Scores) != 1 || p.Scores[0] != 1 {
			t.Errorf("Pareto point %+v: want the fidelity score alone", p)
		}
	}
	noTrailingSpace(t, "WriteTable", out)
}

// TestTablesNoTrailingSpaces checks the other terminal tables.
func TestTablesNoTrailingSpaces(t *testing.T) {
	tok := testgraph.O200k(t)
	rep, err := Run([]Input{exampleInput(t, examples.Default)}, Options{Tokenizers: []token.Tokenizer{tok},
		Formats: []string{"isolda", "ntriples", "typed_edges"}, Budgets: []int{256, 512}, Orderings: Orderings()})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# budget study") {
		t.Fatalf("no budget table:\n%s", b.String())
	}
	noTrailingSpace(t, "WriteTable with budgets", b.String())

}

// TestTrimWriter checks the line trimming on writes split mid-line.
func TestTrimWriter(t *testing.T) {
	var b bytes.Buffer
	w := &trimWriter{w: &b}
	for _, part := range []string{"a  ", "\t\nb", "  \n", "c \t"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "a\nb\nc" {
		t.Errorf("got %q", got)
	}
}
