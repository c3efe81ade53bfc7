package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// exampleInputs reads the embedded examples.
func exampleInputs(t testing.TB) []Input {
	t.Helper()
	var in []Input
	for _, name := range examples.Names() {
		data, err := examples.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := rdfio.Read(bytes.NewReader(data), rdfio.Options{Format: rdfio.Turtle})
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Name: name, Dataset: d})
	}
	return in
}

func TestRunExamples(t *testing.T) {
	// Its speed is measured by BenchmarkDefaultRun, not here.
	rep, err := Run(exampleInputs(t), Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Graphs) != len(examples.Names()) || len(rep.Results) != len(rep.Graphs)*len(formats.All()) {
		t.Fatalf("%d graphs, %d results", len(rep.Graphs), len(rep.Results))
	}
	counts := map[string]int{}
	for _, r := range rep.Results {
		f, _ := formats.Get(r.Format)
		switch {
		case r.Error != "":
			if r.Lossless {
				t.Errorf("lossless %s cannot encode %s: %s", r.Format, r.Graph, r.Error)
			}
			counts["n/a"]++
		case f.Decode != nil:
			if r.Fidelity != FidelityIsomorphic || r.Scope != ScopeRDF || r.Traversal == nil || *r.Traversal != 1 {
				t.Errorf("%s on %s: fidelity %s (%s), scope %s, traversal %s", r.Format, r.Graph, r.Fidelity,
					r.FidelityDetail, r.Scope, traversalText(r.Traversal))
			}
			counts[r.Scope]++
		case f.DecodeGraph != nil:
			if r.Fidelity != FidelityEqual || r.Scope != ScopeGraph || r.Traversal == nil || *r.Traversal != 1 {
				t.Errorf("%s on %s: fidelity %s (%s), scope %s, traversal %s", r.Format, r.Graph, r.Fidelity,
					r.FidelityDetail, r.Scope, traversalText(r.Traversal))
			}
			counts[r.Scope]++
		default:
			if r.Lossless || r.Scope != ScopeLossy || r.Fidelity != FidelityLossy || r.Traversal != nil {
				t.Errorf("%s on %s: a format without decoder must be lossy: %+v", r.Format, r.Graph, r)
			}
			counts[r.Scope]++
		}
		if r.Error == "" {
			sum := sha256.Sum256(mustEncode(t, r.Format, rep, r.Graph))
			if hex.EncodeToString(sum[:]) != r.SHA256 {
				t.Errorf("%s on %s: sha256 differs from the encoder's text", r.Format, r.Graph)
			}
		}
	}
	for _, g := range rep.Graphs {
		if len(g.Queries) == 0 || g.Hash == "" || g.Reference != ReferenceFormat {
			t.Errorf("%s: %d queries, hash %q, reference %s", g.Name, len(g.Queries), g.Hash, g.Reference)
		}
		// Lossless formats are never ranked among lossy ones.
		ranked := rep.Ranked(g.Name)
		last := 0
		for _, r := range ranked {
			i := slices.Index(scopes(), r.Scope)
			if r.Error != "" {
				i = 3
			}
			if i < last {
				t.Errorf("%s: %s (%s) ranked after a later section", g.Name, r.Format, r.Scope)
			}
			last = i
		}
	}
	t.Logf("examples: %d results: %v", len(rep.Results), counts)
	t.Logf("bench: examples: RDF-lossless %d isomorphic, graph-lossless %d equal, lossy %d, not applicable %d",
		counts[ScopeRDF], counts[ScopeGraph], counts[ScopeLossy], counts["n/a"])

	var table bytes.Buffer
	if err := WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# demo.ttl:", "## LOSSY formats", "ratio/turtle", "isomorphic"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	var c bytes.Buffer
	if err := WriteCSV(&c, rep); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(rep.Results)+1 || !slices.Equal(rows[0], CSVHeader(rep.Tokenizers)) {
		t.Errorf("CSV: %d rows, header %v", len(rows), rows[0])
	}
}

// mustEncode re-encodes a graph of the report's inputs in a format.
func mustEncode(t *testing.T, format string, rep *Report, graph string) []byte {
	t.Helper()
	for _, in := range exampleInputs(t) {
		if in.Name == graph {
			s, err := formats.EncodeString(format, formats.NewInput(in.Dataset))
			if err != nil {
				t.Fatal(err)
			}
			return []byte(s)
		}
	}
	t.Fatalf("no graph %s", graph)
	return nil
}

// TestGraphHashIsRDFC10 checks the recorded graph hash against the W3C
// RDF Dataset Canonicalization suite: the SHA-256 of the expected canonical
// N-Quads of each rdfc10 test.
func TestGraphHashIsRDFC10(t *testing.T) {
	dir := shared.MustPath(t, "conformance", "rdf-canon", "rdfc10")
	pass := 0
	tests := []string{"test001", "test002", "test003", "test004", "test005", "test016", "test044"}
	for _, name := range tests {
		data, err := os.ReadFile(filepath.Join(dir, name+"-in.nq"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, name+"-rdfc10.nq"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := rdfio.Read(bytes.NewReader(data), rdfio.Options{Format: rdfio.NQuads})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run([]Input{{Name: name, Dataset: d}}, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
			Formats: []string{"nquads", "turtle"}})
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(want)
		if got := rep.Graphs[0].Hash; got != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: graph hash %s, want sha256 of the expected canonical form %x", name, got, sum)
		} else {
			pass++
		}
	}
	t.Logf("bench: W3C rdf-canon graph hashes: %d/%d pass", pass, len(tests))
}

func TestRatioFallsBackToTriGForNamedGraphs(t *testing.T) {
	d := rdf.NewDataset()
	d.Add(rdf.Quad{S: rdf.NewIRI("http://e/a"), P: rdf.NewIRI("http://e/p"), O: rdf.NewIRI("http://e/b"), G: rdf.NewIRI("http://e/g")})
	rep, err := Run([]Input{{Name: "g", Dataset: d}}, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Formats: []string{"turtle", "trig", "nquads"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Graphs[0].Reference != "trig" {
		t.Errorf("reference %s, want trig", rep.Graphs[0].Reference)
	}
	for _, r := range rep.Results {
		switch r.Format {
		case "turtle":
			if r.Error == "" || r.Fidelity != FidelityNotApplicable {
				t.Errorf("turtle with a named graph: %+v", r)
			}
		case "trig":
			if r.RatioToReference[token.O200KBase] != 1 || r.Fidelity != FidelityIsomorphic {
				t.Errorf("trig: %+v", r)
			}
		}
	}
}

func TestSelectFormats(t *testing.T) {
	fs, err := SelectFormats([]string{"turtle", "isolda", "csv"}, []string{"csv"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"isolda", "turtle"}) {
		t.Errorf("got %v", names)
	}
	if _, err := SelectFormats([]string{"nope"}, nil); err == nil {
		t.Error("an unknown format must be an error")
	}
	if _, err := Run(nil, Options{}); err == nil {
		t.Error("Run without a tokenizer must fail")
	}
	toks := []token.Tokenizer{testgraph.O200k(t)}
	if _, err := Run([]Input{{Name: "x"}}, Options{Tokenizers: toks}); err == nil {
		t.Error("an input without a dataset must be an error")
	}
	d := rdf.NewDataset()
	if _, err := Run([]Input{{Name: "x", Dataset: d}, {Name: "x", Dataset: d}}, Options{Tokenizers: toks}); err == nil {
		t.Error("two inputs with one name must be an error")
	}
}

func TestFidelityDetectsChanges(t *testing.T) {
	a, b, c := rdf.NewIRI("http://e/a"), rdf.NewIRI("http://e/b"), rdf.NewIRI("http://e/c")
	p := rdf.NewIRI("http://e/p")
	want := rdf.NewDataset()
	want.AddTriple(a, p, b)
	want.AddTriple(b, p, c)
	got := rdf.NewDataset()
	got.AddTriple(a, p, b)
	got.AddTriple(c, p, b) // direction reversed
	if f, _ := rdfFidelity(want, got); f != FidelityDiffers {
		t.Errorf("reversed edge: fidelity %s", f)
	}
	if f, _ := rdfFidelity(want, want.Clone()); f != FidelityIsomorphic {
		t.Errorf("clone: fidelity %s", f)
	}
	queries := GenerateQueries(datasetEdges(want), 4)
	if acc := Accuracy(queries, datasetEdges(got)); acc == 1 {
		t.Errorf("traversal accuracy on a reversed edge is 1")
	}
	in := formats.NewInput(want)
	g := in.Graph()
	rev := *g
	rev.Edges = slices.Clone(g.Edges)
	rev.Edges[1].From, rev.Edges[1].To = rev.Edges[1].To, rev.Edges[1].From
	if f, _ := graphFidelity(g, &rev); f != FidelityDiffers {
		t.Errorf("graph with a reversed edge: fidelity %s", f)
	}
	if f, _ := graphFidelity(g, g); f != FidelityEqual {
		t.Errorf("same graph: fidelity %s", f)
	}
}

// A graph of blank nodes only has no traversal queries (blank node labels
// do not survive a round trip), so no traversal accuracy is claimed.
func TestBlankGraphHasNoTraversal(t *testing.T) {
	d := rdf.NewDataset()
	p := rdf.NewIRI("http://e/p")
	d.AddTriple(rdf.NewBlank("a"), p, rdf.NewBlank("b"))
	d.AddTriple(rdf.NewBlank("b"), p, rdf.NewBlank("c"))
	rep, err := Run([]Input{{Name: "blank", Dataset: d}}, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Formats: []string{"turtle", "typed_edges"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Graphs[0].Queries) != 0 {
		t.Errorf("queries on a blank graph: %v", rep.Graphs[0].Queries)
	}
	for _, r := range rep.Results {
		if r.Traversal != nil || !r.RoundTripEqual {
			t.Errorf("%s: traversal %s, round trip %v", r.Format, traversalText(r.Traversal), r.RoundTripEqual)
		}
	}
}

func TestGuardRecoversPanics(t *testing.T) {
	err := Guard(func() error { panic("boom") })
	if err == nil || err.Error() != "panic: boom" {
		t.Errorf("got %v", err)
	}
	if err := Guard(func() error { return nil }); err != nil {
		t.Errorf("got %v", err)
	}
}

// An empty graph runs through every format without error or panic.
func TestRunEmptyGraph(t *testing.T) {
	rep, err := Run([]Input{{Name: "empty", Dataset: rdf.NewDataset()}}, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Budgets: []int{64}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Lossless && r.Error == "" && !r.RoundTripEqual {
			t.Errorf("%s: %s %s", r.Format, r.Fidelity, r.FidelityDetail)
		}
		if strings.HasPrefix(r.Error, "panic") {
			t.Errorf("%s: %s", r.Format, r.Error)
		}
	}
}

// Generated GraphQA graphs: the deterministic generators have their
// textbook sizes, and every lossless labelled-graph format round-trips them.
func TestRunGeneratedGraphs(t *testing.T) {
	var inputs []Input
	want := map[string][2]int{} // nodes, edges
	for _, c := range []struct {
		gen          string
		n            int
		nodes, edges int
	}{
		{"path", 6, 6, 5},      // a path on n nodes has n-1 edges
		{"complete", 6, 6, 15}, // n(n-1)/2
		{"er", 12, 12, -1},
		{"ba", 12, 12, -1},
		{"sbm", 12, 12, -1},
	} {
		in, err := GeneratedInput(c.gen, c.n, 5)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, in)
		want[in.Name] = [2]int{c.nodes, c.edges}
	}
	if _, err := GeneratedInput("nope", 5, 1); err == nil {
		t.Error("an unknown generator must be an error")
	}
	rep, err := Run(inputs, Options{Tokenizers: []token.Tokenizer{testgraph.O200k(t)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Graphs {
		w := want[g.Name]
		if g.Nodes != w[0] || w[1] >= 0 && g.Edges != w[1] || g.Reference != "" || len(g.Hash) != 64 {
			t.Errorf("%s: %d nodes, %d edges, reference %q, hash %q; want %v", g.Name, g.Nodes, g.Edges, g.Reference, g.Hash, w)
		}
	}
	graphOK := 0
	for _, r := range rep.Results {
		switch r.Scope {
		case ScopeRDF:
			if r.Error == "" {
				t.Errorf("%s on %s: an RDF format cannot encode a labelled graph", r.Format, r.Graph)
			}
		case ScopeGraph:
			if r.Error != "" || r.Fidelity != FidelityEqual {
				t.Errorf("%s on %s: %s %s %s", r.Format, r.Graph, r.Error, r.Fidelity, r.FidelityDetail)
			}
			if r.Traversal != nil && *r.Traversal != 1 {
				t.Errorf("%s on %s: traversal %v", r.Format, r.Graph, *r.Traversal)
			}
			graphOK++
		}
	}
	t.Logf("generated graphs: %d lossless labelled-graph results round-trip", graphOK)
}
