package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// fuzzGraph builds a service graph from NUL-separated identifiers: each
// one a service node, consecutive ones joined by depends_on and owned_by
// edges, plus svc-api and db-identity so that the queries have anchors.
func fuzzGraph(data []byte) graphrag.Graph {
	ids := []string{"svc-api", "db-identity"}
	for _, b := range bytes.Split(data, []byte{0}) {
		if len(ids) < 64 {
			ids = append(ids, string(b))
		}
	}
	var g graphrag.Graph
	for i, id := range ids {
		g.Nodes = append(g.Nodes, graphrag.Node{ID: id, Type: graphrag.Service})
		if i > 0 {
			rel := graphrag.DependsOn
			if i%3 == 0 {
				rel = graphrag.OwnedBy
			}
			g.Edges = append(g.Edges, graphrag.Edge{Source: ids[i-1], Relation: rel, Target: id})
		}
	}
	return graphrag.Canonical(g)
}

func FuzzBudgets(f *testing.F) {
	f.Add([]byte("svc-a\x00svc-b\x00team-x"))
	f.Add([]byte("a|b\x00new\nline\x00quo\"te,x\x00\\p\x00\xff\xfe"))
	f.Add([]byte(""))
	count := func(s string) int { return len(s) }
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzGraph(data)
		res, err := Budgets(g, graphrag.Formats(), BudgetOptions{Budgets: []int{16, 128, 1024}, ShuffleSeed: 3, Count: count})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Error != "" {
				// Only the interleaved ordering, or a graph the encoder
				// rejects (invalid UTF-8), may fail.
				if _, err := graphrag.EncodeString(r.Format, g); err == nil && r.Ordering != OrderInterleaved {
					t.Errorf("%+v", r)
				}
				continue
			}
			if r.Policy == PolicyRecord && !r.Parses {
				t.Errorf("record-aware text does not parse: %+v", r)
			}
			if r.Policy == PolicyRaw && r.Tokens > r.Budget {
				t.Errorf("raw text over budget: %+v", r)
			}
			if r.EvidenceSurvival < 0 || r.EvidenceSurvival > 1 || r.TraversalAccuracy < 0 || r.TraversalAccuracy > 1 {
				t.Errorf("fractions out of range: %+v", r)
			}
		}
		// Interleaving either fails cleanly or keeps every record.
		og, recs := order(g, OrderInterleaved, Evidence(g), 1)
		for _, name := range lineFormats() {
			fm, _ := graphrag.Lookup(name)
			e, err := encodeOrdered(fm, og, recs, OrderInterleaved)
			if err != nil {
				continue
			}
			dec, err := fm.Decode(strings.NewReader(e.text), graphrag.DecodeOptions{})
			if err != nil {
				t.Errorf("%s: interleaved text does not decode: %v", name, err)
				continue
			}
			if want, err := fm.Decode(strings.NewReader(mustEncodeGraph(t, name, og)), graphrag.DecodeOptions{}); err == nil && !graphrag.Equal(dec, want) {
				t.Errorf("%s: interleaving changes the graph", name)
			}
		}
	})
}

func mustEncodeGraph(t *testing.T, name string, g graphrag.Graph) string {
	t.Helper()
	s, err := graphrag.EncodeString(name, g)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzRun runs a few formats over arbitrary N-Triples: the harness must
// neither panic nor hang, and must give every format an outcome.
func FuzzRun(f *testing.F) {
	f.Add("<http://e/a> <http://e/p> <http://e/b> .\n_:x <http://e/p> \"v\"@en .\n")
	f.Add("<http://e/a> <http://e/p> \"a\\nb|c\"^^<http://e/dt> .\n")
	tok := testgraph.O200k(f)
	f.Fuzz(func(t *testing.T, text string) {
		d, err := rdfio.Read(strings.NewReader(text), rdfio.Options{Format: rdfio.NTriples})
		if err != nil || d.Len() > 200 {
			return
		}
		rep, err := Run([]Input{{Name: "fuzz", Dataset: d}}, Options{Tokenizers: []token.Tokenizer{tok},
			Formats: []string{"turtle", "isolda", "b-ttl-ids", "typed_edges", "edge_list", "list_of_edges"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			if strings.HasPrefix(r.Error, "panic") || strings.HasPrefix(r.FidelityDetail, "panic") {
				t.Errorf("%s: %s%s", r.Format, r.Error, r.FidelityDetail)
			}
			// The fidelity of other packages' formats is theirs to test:
			// Turtle, for one, cannot keep an IRI with dot segments such
			// as <http:.#0> (resolution removes them).
			if r.Fidelity == "" {
				t.Errorf("%s: no fidelity outcome", r.Format)
			}
		}
	})
}

// FuzzGraphBudgets runs the RDF budget study in every ordering over
// arbitrary N-Triples (tokens counted as bytes): no panic, no hang, every
// cell within its bounds, and at a budget holding the whole graph
// N-Triples keeps every statement and every gold path.
func FuzzGraphBudgets(f *testing.F) {
	f.Add("<http://e/a> <http://e/p> <http://e/b> .\n<http://e/b> <http://e/p> _:x .\n_:x <http://e/q> <http://e/a> .\n")
	f.Add("<http://e/a> <http://e/p> \"a\\nb|c\"^^<http://e/dt> .\n<http://e/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://e/T> .\n")
	f.Add("<http://e/a> <http://e/p> <http://e/a> .\n")
	fs, err := SelectFormats([]string{"ntriples", "isolda", "typed_edges", "jsonl", "pretty_json"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	count := func(s string) int { return len(s) }
	const whole = 1 << 20
	f.Fuzz(func(t *testing.T, text string) {
		d, err := rdfio.Read(strings.NewReader(text), rdfio.Options{Format: rdfio.NTriples})
		if err != nil || d.Len() > 100 {
			return
		}
		res, err := GraphBudgets(Input{Name: "fuzz", Dataset: d}, fs, GraphBudgetOptions{Budgets: []int{40, 400, whole},
			Orderings: Orderings(), ShuffleSeed: 5, Count: count})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.NotApplicable != "" {
				continue
			}
			if strings.HasPrefix(r.Error, "panic") {
				t.Errorf("%+v", r)
			}
			if r.GoldPathsSurvived > r.GoldPaths || r.GoldPathsSurvive && !r.Parses || r.Retained > r.Total && r.Format == "ntriples" {
				t.Errorf("cell out of bounds: %+v", r)
			}
			if r.Policy == PolicyRaw && r.Tokens > r.Budget {
				t.Errorf("raw text over budget: %+v", r)
			}
			if r.Format == "ntriples" && r.Budget == whole && (r.Retained != d.Len() || !r.GoldPathsSurvive) {
				t.Errorf("whole graph: %+v", r)
			}
		}
	})
}
