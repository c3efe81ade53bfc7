package synthetic

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/token"
)

// The fixtures in ../../formats/graphrag/testdata were produced by the GraphRAG
// article's reference program (benchmark_graph_formats.py, CPython 3.11.7;
// see gen_fixtures.py there): they are the oracle for the synthetic graph.
const fixtures = "../../formats/graphrag/testdata"

// referenceSets is the part of reference.json the tests read.
type referenceSets struct {
	ParamSets []struct {
		Services    int                  `json:"services"`
		NoiseEdges  int                  `json:"noise_edges"`
		Seed        int64                `json:"seed"`
		Nodes       int                  `json:"nodes"`
		Edges       int                  `json:"edges"`
		GoldQueries graphrag.GoldQueries `json:"gold_queries"`
		Formats     map[string]struct {
			UTF8Bytes  int    `json:"utf8_bytes"`
			Characters int    `json:"characters"`
			SHA256     string `json:"sha256"`
		} `json:"formats"`
	} `json:"param_sets"`
}

func TestSyntheticMatchesReferenceProgram(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceSets
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	pass, fail := 0, 0
	for _, ps := range ref.ParamSets {
		name := fmt.Sprintf("services=%d,noise=%d,seed=%d", ps.Services, ps.NoiseEdges, ps.Seed)
		p := graphrag.DefaultParameters()
		p.Services, p.NoiseEdges, p.Seed = ps.Services, ps.NoiseEdges, ps.Seed
		rep, err := Run(Options{Parameters: p, Tokenizers: []token.Tokenizer{tok}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ok := true
		check := func(cond bool, format string, args ...any) {
			if !cond {
				ok = false
				t.Errorf(name+": "+format, args...)
			}
		}
		check(rep.Graph.Nodes == ps.Nodes && rep.Graph.Edges == ps.Edges, "graph %d nodes %d edges, reference %d, %d",
			rep.Graph.Nodes, rep.Graph.Edges, ps.Nodes, ps.Edges)
		check(reflect.DeepEqual(normGold(rep.GoldQueries), normGold(ps.GoldQueries)), "gold queries differ from the reference")
		seen := 0
		for _, f := range rep.Formats {
			want, isRef := ps.Formats[f.Name]
			check(f.Result.RoundTripEqual && f.Result.TraversalAccuracy == 1, "%s: round trip %v, traversal %v",
				f.Name, f.Result.RoundTripEqual, f.Result.TraversalAccuracy)
			if !isRef {
				continue
			}
			seen++
			check(f.Result.Reference, "%s not marked as a reference format", f.Name)
			check(f.Result.UTF8Bytes == want.UTF8Bytes, "%s: %d bytes, reference %d", f.Name, f.Result.UTF8Bytes, want.UTF8Bytes)
			check(f.Result.Characters == want.Characters, "%s: %d characters, reference %d", f.Name, f.Result.Characters, want.Characters)
			check(f.Result.SHA256 == want.SHA256, "%s: sha256 %s, reference %s", f.Name, f.Result.SHA256, want.SHA256)
		}
		check(seen == len(ps.Formats), "%d of the reference's %d formats measured", seen, len(ps.Formats))
		if ok {
			pass++
		} else {
			fail++
		}
	}
	t.Logf("bench: GraphRAG reference program parameter sets: %d/%d pass", pass, pass+fail)
}

// normGold makes nil and empty lists compare equal.
func normGold(g graphrag.GoldQueries) graphrag.GoldQueries {
	if g.APIDependencies3Hops == nil {
		g.APIDependencies3Hops = []string{}
	}
	if g.IdentityFailureAffectedServices == nil {
		g.IdentityFailureAffectedServices = []string{}
	}
	for k, v := range g.OwnersOfAffectedServices {
		if v == nil {
			g.OwnersOfAffectedServices[k] = []string{}
		}
	}
	if g.OwnersOfAffectedServices == nil {
		g.OwnersOfAffectedServices = map[string][]string{}
	}
	return g
}

// TestSyntheticReportKeepsReferenceStructure compares the JSON report for
// the default parameters with the reference program's own report: every
// key and value of the reference (but the tokens, counted by a stub
// tokenizer there, and the output file name) must be in ours.
func TestSyntheticReportKeepsReferenceStructure(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "default", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Options{Parameters: graphrag.DefaultParameters(), Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Extra: true, Budgets: []int{512, 4096}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := bench.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, w, g any)
	walk = func(path string, w, g any) {
		switch w := w.(type) {
		case map[string]any:
			gm, ok := g.(map[string]any)
			if !ok {
				t.Errorf("%s: want an object, got %T", path, g)
				return
			}
			for k, v := range w {
				if k == "tokens" || path == ".parameters" && k == "output" {
					continue
				}
				gv, ok := gm[k]
				if !ok {
					t.Errorf("%s.%s: missing", path, k)
					continue
				}
				walk(path+"."+k, v, gv)
			}
		default:
			if !reflect.DeepEqual(w, g) {
				t.Errorf("%s: got %v, reference %v", path, g, w)
			}
		}
	}
	walk("", want, got)
	// The formats object keeps the reference program's order, then adds
	// isolda's formats.
	order := []string{`"pretty_json":`, `"compact_json":`, `"jsonl":`, `"csv":`, `"typed_edges":`, `"typed_edges_dict":`, `"edge_list":`}
	text := buf.String()
	last := -1
	for _, k := range order {
		i := strings.Index(text, k)
		if i <= last {
			t.Errorf("format key %s out of order or missing", k)
		}
		last = i
	}
	for _, k := range []string{`"tokens_by_tokenizer"`, `"sha256"`, `"budgets"`, `"graph_hash"`, `"versions"`, `"lossless"`} {
		if !strings.Contains(text, k) {
			t.Errorf("report lacks isolda's field %s", k)
		}
	}
}

// TestSyntheticTokensAreThoseOfTheReferenceText checks that the tokens
// reported are the tokenizer's count of the reference program's text.
func TestSyntheticTokensAreThoseOfTheReferenceText(t *testing.T) {
	tok := testgraph.O200k(t)
	rep, err := Run(Options{Parameters: graphrag.DefaultParameters(), Tokenizers: []token.Tokenizer{tok}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Formats {
		text, err := os.ReadFile(filepath.Join(fixtures, "default", "graph."+f.Name+".txt"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if want := tok.Count(string(text)); f.Result.Tokens != want || f.Result.TokensBy[tok.Name()] != want {
			t.Errorf("%s: %d tokens, the reference text has %d", f.Name, f.Result.Tokens, want)
		}
	}
	if n != 5 {
		t.Errorf("%d reference texts compared, want 5", n)
	}
}

// TestSyntheticCSVSeeds: every row of the synthetic CSV carries the
// graph's seed and the budget study's shuffle seed, and every budget row
// its ordering and gold-path outcome.
func TestSyntheticCSVSeeds(t *testing.T) {
	p := graphrag.DefaultParameters()
	p.Services, p.NoiseEdges, p.Seed = 12, 10, 5
	rep, err := Run(Options{Parameters: p, Tokenizers: []token.Tokenizer{testgraph.O200k(t)},
		Budgets: []int{256}, ShuffleSeed: 11})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, rep); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	budgets := 0
	for _, row := range rows[1:] {
		if row[col["seed"]] != "5" || row[col["shuffle_seed"]] != "11" {
			t.Errorf("row %v lacks the seeds", row)
		}
		if row[col["kind"]] == "budget" {
			budgets++
			if row[col["ordering"]] == "" || row[col["gold_paths_survive"]] == "" {
				t.Errorf("budget row %v", row)
			}
		}
	}
	if budgets != len(rep.Budgets) || budgets == 0 {
		t.Errorf("%d budget rows for %d cells", budgets, len(rep.Budgets))
	}
}

// TestTableNoTrailingSpaces: the synthetic tables, budget study included,
// end no line with a space.
func TestTableNoTrailingSpaces(t *testing.T) {
	tok := testgraph.O200k(t)
	var b strings.Builder
	syn, err := Run(Options{Parameters: graphrag.DefaultParameters(), Tokenizers: []token.Tokenizer{tok},
		Extra: true, Budgets: []int{500, 1000}, Orderings: []string{bench.OrderCanonical}})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTable(&b, syn); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("WriteTable: line %d ends with a space: %q", i+1, line)
		}
	}
}
