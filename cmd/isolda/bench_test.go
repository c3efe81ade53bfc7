package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/xmltest"
)

func TestBenchDefaultRun(t *testing.T) {
	dir := t.TempDir()
	jsonFile, csvFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.csv")
	// Its speed is measured by bench.BenchmarkDefaultRun, not here.
	code, out, errs := runCLI(t, "", "bench", "--check", "--json", jsonFile, "--csv", csvFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range examples.Names() {
		if !strings.Contains(out, "# "+name+":") {
			t.Errorf("no table for %s", name)
		}
	}
	for _, want := range []string{"## lossless: decode to a dataset isomorphic", "## LOSSY formats", "ratio/turtle", "o200k_base", "RDFC-1.0 SHA-256"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	var rep struct {
		Tokenizers []string `json:"tokenizers"`
		Graphs     []struct {
			Name string `json:"name"`
			Hash string `json:"hash"`
		} `json:"graphs"`
		Results []map[string]any `json:"results"`
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	nf := len(formats.All())
	if len(rep.Graphs) != len(examples.Names()) || len(rep.Results) != len(rep.Graphs)*nf || rep.Tokenizers[0] != "o200k_base" {
		t.Errorf("JSON: %d graphs, %d results, tokenizers %v", len(rep.Graphs), len(rep.Results), rep.Tokenizers)
	}
	rows := readCSV(t, csvFile)
	if len(rows) != len(rep.Results)+1 {
		t.Errorf("CSV has %d rows for %d results", len(rows), len(rep.Results))
	}
}

func TestBenchTokenizerColumnsAndFiles(t *testing.T) {
	dir := t.TempDir()
	ttl := writeIn(t, dir, "g.ttl", "@prefix ex: <http://example.org/> .\nex:a ex:knows ex:b .\nex:b ex:knows ex:c .\nex:a ex:name \"A\" .\n")
	code, out, errs := runCLI(t, "", "bench", "-t", "o200k_base", "-t", "cl100k_base", "--formats", "turtle,ntriples,isolda,typed_edges,list_of_edges", ttl, ttl)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "g.ttl: 3 statements") || !strings.Contains(out, "o200k_base  cl100k_base") {
		t.Errorf("output:\n%s", out)
	}
	// N-Triples of this graph, counted by hand: two lines of 75 bytes
	// (<http://example.org/a> <http://example.org/knows> <http://example.org/b> .)
	// and one of 55 (<http://example.org/a> <http://example.org/name> "A" .).
	found := false
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 3 && f[1] == "ntriples" {
			found = f[3] == "205"
		}
	}
	if !found {
		t.Errorf("ntriples row lacks 205 bytes:\n%s", out)
	}
	if !strings.Contains(out, "g.ttl (2): 3 statements") {
		t.Errorf("a file named twice must get its own table:\n%s", out)
	}
	if !strings.Contains(out, "ntriples") || !strings.Contains(out, "list_of_edges") || strings.Contains(out, "pretty_json") {
		t.Errorf("format selection not applied:\n%s", out)
	}
}

func TestBenchErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeIn(t, dir, "bad.ttl", "@prefix ex: <http://example.org/> .\nex:a ex:b .\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "-t", "no-such-tokenizer"}, "no-such-tokenizer"},
		{[]string{"bench", "--formats", "nope"}, `unknown format "nope"`},
		{[]string{"bench", "--synthetic", "graphs"}, "unknown --synthetic"},
		{[]string{"bench", "--synthetic", "services", "--services", "-1"}, "must not be negative"},
		{[]string{"bench", "--synthetic", "services", "--orderings", "sideways"}, `unknown ordering "sideways"`},
		{[]string{"bench", bad}, "bad.ttl:2:"},
		{[]string{"bench", filepath.Join(dir, "missing.ttl")}, "missing.ttl"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// The synthetic graph of the article: the byte counts and SHA-256 of the
// five formats equal the reference program's texts (fixtures of
// formats/graphrag, written by the reference program).
func TestBenchSyntheticMatchesReference(t *testing.T) {
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "baseline.json")
	code, out, errs := runCLI(t, "", "bench", "--synthetic", "services", "--services", "40", "--noise-edges", "80",
		"--seed", "7", "--json", jsonFile, "--budgets", "512,2048", "--check")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "43 nodes, 88 edges") || !strings.Contains(out, "# budget study") || !strings.Contains(out, "# Pareto frontier") {
		t.Errorf("output:\n%s", out)
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Parameters map[string]any `json:"parameters"`
		Graph      struct{ Nodes, Edges int }
		Formats    map[string]struct {
			UTF8Bytes      int    `json:"utf8_bytes"`
			SHA256         string `json:"sha256"`
			RoundTripEqual bool   `json:"round_trip_equal"`
		} `json:"formats"`
		Budgets []map[string]any `json:"budgets"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Graph.Nodes != 43 || rep.Graph.Edges != 88 || rep.Parameters["seed"] != 7.0 {
		t.Errorf("graph %+v, parameters %v", rep.Graph, rep.Parameters)
	}
	for _, name := range []string{"pretty_json", "compact_json", "jsonl", "csv", "typed_edges"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "formats", "graphrag", "testdata", "default", "graph."+name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(text)
		got := rep.Formats[name]
		if got.UTF8Bytes != len(text) || got.SHA256 != hex.EncodeToString(sum[:]) || !got.RoundTripEqual {
			t.Errorf("%s: %d bytes, sha256 %s; reference %d bytes, %x", name, got.UTF8Bytes, got.SHA256, len(text), sum)
		}
	}
	// 6 article formats x 5 orderings x 2 policies x 2 budgets.
	if len(rep.Budgets) != 6*5*2*2 {
		t.Errorf("%d budget cells", len(rep.Budgets))
	}
}

func TestBenchOutDir(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bench", "--formats", "turtle,isolda,csv,adjacency", "--out", filepath.Join(dir, "rdf")},
		{"bench", "--synthetic", "services", "--budgets", "512,1024", "--out", filepath.Join(dir, "syn")},
	} {
		if code, _, errs := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	for _, c := range []struct{ sub, svg string }{{"rdf", "tokens-1.svg"}, {"rdf", "pareto-3.svg"}, {"syn", "tokens.svg"}, {"syn", "pareto.svg"}} {
		p := filepath.Join(dir, c.sub)
		index, err := os.ReadFile(filepath.Join(p, "index.html"))
		if err != nil || !strings.Contains(string(index), `src="`+c.svg+`"`) {
			t.Errorf("%s/index.html does not show %s (%v)", c.sub, c.svg, err)
		}
		svg, err := os.ReadFile(filepath.Join(p, c.svg))
		if err != nil {
			t.Fatal(err)
		}
		// Well-formed XML with an svg root.
		var root string
		for _, tok := range xmltest.Tokens(t, string(svg)) {
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("%s/%s: root %q", c.sub, c.svg, root)
		}
		for _, f := range []string{"report.json", "results.csv"} {
			if _, err := os.Stat(filepath.Join(p, f)); err != nil {
				t.Error(err)
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "syn", "pareto.svg"))
	if !strings.Contains(string(svg), "dominated by") {
		t.Error("the synthetic Pareto chart marks no dominated format")
	}
}

func TestBenchFailureCases(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "--failure-cases")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# duplicate_identifiers:", "# delimiter_collisions:", "# direction_reversal:",
		"# relationship_type_collapse:", "# orphan_edges:", "# broken_monolithic_json: 4 of 6 formats survive",
		"# tokenizer_mismatch:", "# identifier_leakage:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestBenchBudgetsOnRDF(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "--formats", "ntriples,turtle,typed_edges", "--budgets", "128,4096")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "# budget study") || !strings.Contains(out, "28/28") {
		t.Errorf("output:\n%s", out)
	}
	if code, _, errs := runCLI(t, "", "bench", "--budgets", "0"); code != exitBadInput || !strings.Contains(errs, "budgets must be positive") {
		t.Errorf("budget 0: exit %d, %s", code, errs)
	}
	// Without --budgets the RDF run has no budget study.
	if _, out, _ := runCLI(t, "", "bench", "--formats", "turtle"); strings.Contains(out, "# budget study") {
		t.Error("budget study without --budgets")
	}
}

func TestBenchGeneratedGraph(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "--synthetic", "complete", "--nodes", "6", "--seed", "3", "--check")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The complete graph on 6 nodes has 15 edges.
	if !strings.Contains(out, "# complete-n6-seed3: labelled graph, 6 nodes, 15 edges") || !strings.Contains(out, "typed_edges") {
		t.Errorf("output:\n%s", out)
	}
	if code, _, errs := runCLI(t, "", "bench", "--synthetic", "er", "--nodes", "100000"); code != exitBadInput || !strings.Contains(errs, "outside 1..500") {
		t.Errorf("too many nodes: exit %d, %s", code, errs)
	}
}

// TestBenchOrderingsOnRDF: --orderings makes the record ordering a factor
// of the RDF budget study, recorded in the table, the JSON (with the
// shuffle seed) and the CSV.
func TestBenchOrderingsOnRDF(t *testing.T) {
	data, err := examples.Read("demo.ttl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ttl, jsonFile, csvFile := filepath.Join(dir, "demo.ttl"), filepath.Join(dir, "r.json"), filepath.Join(dir, "r.csv")
	if err := os.WriteFile(ttl, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "bench", ttl, "--formats", "isolda,ntriples,typed_edges,pretty_json",
		"--orderings", "shuffle,interleaved", "--shuffle-seed", "7", "--budgets", "100,100000", "--json", jsonFile, "--csv", csvFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rowOf := func(format, ordering, policy string) []string {
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 5 && f[1] == format && f[2] == ordering && f[3] == policy {
				return f
			}
		}
		t.Errorf("no row %s %s %s in\n%s", format, ordering, policy, out)
		return make([]string, 6)
	}
	if r := rowOf("isolda", "shuffle", "raw"); r[4] != "invariant" {
		t.Errorf("isolda is not labelled order-invariant: %v", r)
	}
	if r := rowOf("ntriples", "shuffle", "record"); r[4] != "sensitive" {
		t.Errorf("ntriples is labelled %v", r)
	}
	if r := rowOf("pretty_json", "interleaved", "record"); r[5] != "n/a" {
		t.Errorf("interleaved pretty_json: %v", r)
	}
	if r := rowOf("typed_edges", "interleaved", "record"); r[5] == "n/a" {
		t.Errorf("interleaved typed_edges: %v", r)
	}
	for _, want := range []string{"# interleaved not applicable to ntriples, isolda: RDF statements", "# interleaved not applicable to pretty_json: node and edge records are written in separate blocks"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep struct {
		BudgetParameters struct {
			Orderings   []string `json:"orderings"`
			ShuffleSeed uint64   `json:"shuffle_seed"`
			Budgets     []int    `json:"budgets"`
		} `json:"budget_parameters"`
		Budgets []struct {
			Format            string `json:"format"`
			Ordering          string `json:"ordering"`
			ShuffleSeed       uint64 `json:"shuffle_seed"`
			Budget            int    `json:"budget_tokens"`
			NotApplicable     string `json:"not_applicable"`
			GoldPaths         int    `json:"gold_paths"`
			GoldPathsSurvived *int   `json:"gold_paths_survived"`
			GoldPathsSurvive  bool   `json:"gold_paths_survive"`
		} `json:"budgets"`
	}
	js, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if bp := rep.BudgetParameters; bp.ShuffleSeed != 7 || strings.Join(bp.Orderings, ",") != "shuffle,interleaved" || len(bp.Budgets) != 2 {
		t.Errorf("budget_parameters %+v", bp)
	}
	// 4 lossless formats x 2 orderings x 2 policies x 2 budgets.
	if len(rep.Budgets) != 4*2*2*2 {
		t.Errorf("%d budget cells", len(rep.Budgets))
	}
	for _, c := range rep.Budgets {
		if c.ShuffleSeed != 7 || c.GoldPathsSurvived == nil {
			t.Errorf("cell %+v lacks the seed or gold_paths_survived", c)
		}
		if c.NotApplicable == "" && c.Budget == 100000 && (!c.GoldPathsSurvive || c.GoldPaths == 0) {
			t.Errorf("cell %+v: the whole graph fits, every gold path must survive", c)
		}
	}
	rows := readCSV(t, csvFile)
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	budgetRows := 0
	for _, row := range rows[1:] {
		if row[col["kind"]] == "budget" {
			budgetRows++
			if row[col["shuffle_seed"]] != "7" || row[col["ordering"]] == "" || row[col["gold_paths_survived"]] == "" {
				t.Errorf("CSV budget row %v", row)
			}
		}
	}
	if budgetRows != len(rep.Budgets) {
		t.Errorf("CSV: %d budget rows, JSON %d cells", budgetRows, len(rep.Budgets))
	}
	// --orderings alone runs the study on the default budgets; an
	// unknown ordering is bad input.
	if code, out, errs := runCLI(t, "", "bench", ttl, "--formats", "ntriples", "--orderings", "bfs_from_query"); code != exitOK ||
		!strings.Contains(out, "bfs_from_query  raw") || !strings.Contains(out, "8192") {
		t.Errorf("--orderings alone: exit %d, %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI(t, "", "bench", ttl, "--orderings", "sideways"); code != exitBadInput || !strings.Contains(errs, `unknown ordering "sideways"`) {
		t.Errorf("unknown ordering: exit %d, %s", code, errs)
	}
}

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
