package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/textbudget"
)

func TestRawPrefix(t *testing.T) {
	count := func(s string) int { return len(s) }
	text := "aé€b" // 1 + 2 + 3 + 1 bytes
	for budget, want := range map[int]string{0: "", 1: "a", 2: "a", 3: "aé", 5: "aé", 6: "aé€", 7: text, 100: text} {
		if got := textbudget.Raw(text, count, budget).Text; got != want {
			t.Errorf("budget %d: %q, want %q", budget, got, want)
		}
	}
}

// tinyServices is a hand-made service graph whose gold paths are worked out
// by hand in TestEvidence.
func tinyServices() graphrag.Graph {
	n := func(id, typ string) graphrag.Node { return graphrag.Node{ID: id, Type: typ} }
	e := func(s, r, t string) graphrag.Edge { return graphrag.Edge{Source: s, Relation: r, Target: t} }
	g := graphrag.Graph{
		Nodes: []graphrag.Node{n("db-identity", "database"), n("svc-api", "service"), n("svc-auth", "service"),
			n("svc-web", "service"), n("svc-x", "service"), n("team-core", "team")},
		Edges: []graphrag.Edge{e("svc-api", "depends_on", "svc-auth"), e("svc-api", "owned_by", "team-core"),
			e("svc-auth", "depends_on", "db-identity"), e("svc-web", "depends_on", "svc-api"),
			e("svc-web", "depends_on", "svc-x"), e("svc-x", "depends_on", "svc-auth"), e("svc-x", "owned_by", "team-core")},
	}
	return g
}

func TestEvidence(t *testing.T) {
	got := Evidence(tinyServices())
	// svc-api's dependencies: api→auth, auth→db. Reverse tree from
	// db-identity: auth→db, api→auth, x→auth, web→api (web→x reaches a
	// node already seen). Owners of the affected services api, auth, web,
	// x: api and x are owned by team-core. Every node is on a path.
	want := []string{
		"E|svc-api|depends_on|svc-auth", "E|svc-api|owned_by|team-core", "E|svc-auth|depends_on|db-identity",
		"E|svc-web|depends_on|svc-api", "E|svc-x|depends_on|svc-auth", "E|svc-x|owned_by|team-core",
		"N|db-identity|database", "N|svc-api|service", "N|svc-auth|service", "N|svc-web|service",
		"N|svc-x|service", "N|team-core|team",
	}
	if !slices.Equal(got, want) {
		t.Errorf("evidence\n%v\nwant\n%v", got, want)
	}
	g := tinyServices()
	if s := Survival(got, g); s != 1 {
		t.Errorf("survival of the whole graph %v", s)
	}
	g.Edges = slices.DeleteFunc(slices.Clone(g.Edges), func(e graphrag.Edge) bool { return e.Source == "svc-x" && e.Relation == "depends_on" })
	if s := Survival(got, g); s != 11.0/12 {
		t.Errorf("survival without svc-x -> svc-auth: %v, want 11/12", s)
	}
}

func TestOrderings(t *testing.T) {
	g := tinyServices()
	ev := Evidence(g)
	for _, o := range Orderings() {
		og, recs := order(g, o, ev, 1)
		if len(recs) != g.Records() || !graphrag.Equal(og, g) {
			t.Errorf("%s: not a permutation of the records", o)
		}
	}
	og, _ := order(g, OrderBFS, ev, 1)
	var ids []string
	for _, n := range og.Nodes {
		ids = append(ids, n.ID)
	}
	// From svc-api and db-identity, neighbours in canonical edge order:
	// svc-api: svc-auth, team-core, svc-web; db-identity: (svc-auth seen);
	// svc-auth: (db, api seen), svc-x; then nothing new.
	if want := []string{"svc-api", "db-identity", "svc-auth", "team-core", "svc-web", "svc-x"}; !slices.Equal(ids, want) {
		t.Errorf("bfs node order %v, want %v", ids, want)
	}
	_, recs := order(g, OrderInterleaved, ev, 1)
	// svc-api's node record is followed by its two outgoing edges.
	if recs[0].node != 0 || recs[1].node != -1 || recs[2].node != -1 || recs[3].node != 1 {
		t.Errorf("interleaved records start %v", recs[:4])
	}
	a, _ := order(g, OrderShuffle, ev, 1)
	b, _ := order(g, OrderShuffle, ev, 1)
	c, _ := order(g, OrderShuffle, ev, 2)
	if !slices.Equal(a.Edges, b.Edges) || slices.Equal(a.Edges, c.Edges) {
		t.Error("shuffle must depend on the seed and only on it")
	}
}

// TestInterleavedDecodes checks that every line format accepts its records
// interleaved and gives back the same graph.
func TestInterleavedDecodes(t *testing.T) {
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	og, recs := order(g, OrderInterleaved, Evidence(g), 1)
	for _, name := range lineFormats() {
		f, _ := graphrag.Lookup(name)
		e, err := encodeOrdered(f, og, recs, OrderInterleaved)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := f.Decode(strings.NewReader(e.text), graphrag.DecodeOptions{Strict: true})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !graphrag.Equal(dec, g) {
			t.Errorf("%s: interleaved text decodes to another graph", name)
		}
	}
	f, _ := graphrag.Lookup(graphrag.PrettyJSON)
	if _, err := encodeOrdered(f, og, recs, OrderInterleaved); err == nil {
		t.Error("pretty_json cannot interleave")
	}
}

func TestBudgets(t *testing.T) {
	tok := testgraph.O200k(t)
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	fs := graphrag.Formats()
	budgets := []int{512, 1024, 8192}
	res, err := Budgets(g, fs, BudgetOptions{Budgets: budgets, ShuffleSeed: 1, Count: tok.Count})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(fs) * len(Orderings()) * len(Policies()) * len(budgets); len(res) != want {
		t.Fatalf("%d cells, want %d", len(res), want)
	}
	for _, r := range res {
		if r.Error != "" {
			if r.Ordering != OrderInterleaved || slices.Contains(lineFormats(), r.Format) {
				t.Errorf("%+v: unexpected error", r)
			}
			continue
		}
		if r.Tokens > r.Budget {
			t.Errorf("%+v: kept text exceeds the budget", r)
		}
		// 8192 tokens hold every format of this graph whole.
		if r.Budget == 8192 && (!r.Parses || r.Nodes != 43 || r.Edges != 88 || !r.GoldPathsSurvive || r.TraversalAccuracy != 1) {
			t.Errorf("%+v: the whole graph fits", r)
		}
		if r.Policy == PolicyRecord && !r.Parses {
			t.Errorf("%+v: record-aware truncation must parse", r)
		}
	}
	// Record-aware truncation of typed_edges in canonical order keeps the
	// most whole lines of the reference program's text that fit.
	text, err := os.ReadFile(filepath.Join(fixtures, "default", "graph.typed_edges.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for _, b := range budgets {
		k := 1
		for k < len(lines) && tok.Count(strings.Join(lines[:k+1], "\n")) <= b {
			k++
		}
		i := slices.IndexFunc(res, func(r BudgetResult) bool {
			return r.Format == graphrag.TypedEdges && r.Ordering == OrderCanonical && r.Policy == PolicyRecord && r.Budget == b
		})
		if r := res[i]; r.Nodes+r.Edges != k-1 || r.Tokens != tok.Count(strings.Join(lines[:k], "\n")) {
			t.Errorf("budget %d: kept %d records (%d tokens), want %d", b, r.Nodes+r.Edges, r.Tokens, k-1)
		}
		// Raw truncation keeps a prefix of the reference text.
		raw := textbudget.Raw(string(text), tok.Count, b).Text
		if !strings.HasPrefix(string(text), raw) || tok.Count(raw) > b {
			t.Errorf("budget %d: raw prefix is not within budget", b)
		}
	}
	if _, err := Budgets(g, fs, BudgetOptions{Budgets: budgets, Orderings: []string{"nope"}, Count: tok.Count}); err == nil {
		t.Error("an unknown ordering must be an error")
	}
}

func TestPareto(t *testing.T) {
	pts := Pareto([]ParetoPoint{
		{Name: "a", Tokens: 100, Scores: []float64{1, 1}},
		{Name: "b", Tokens: 100, Scores: []float64{1, 0.5}},  // dominated by a (same tokens, worse score)
		{Name: "c", Tokens: 50, Scores: []float64{0.5, 0.5}}, // cheapest: on the frontier
		{Name: "d", Tokens: 200, Scores: []float64{1, 1}},    // dominated by a (more tokens)
		{Name: "e", Tokens: 100, Scores: []float64{1, 1}},    // equal to a: not dominated
		{Name: "f", Tokens: 10, Scores: []float64{1}},        // incomparable score vector
	})
	got := map[string]string{}
	for _, p := range pts {
		got[p.Name] = p.DominatedBy
		if p.Dominated != (p.DominatedBy != "") {
			t.Errorf("%s: inconsistent", p.Name)
		}
	}
	want := map[string]string{"a": "", "b": "a", "c": "", "d": "a", "e": "", "f": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s dominated by %q, want %q", k, got[k], v)
		}
	}
	if pts[0].Name != "f" || pts[1].Name != "c" {
		t.Errorf("not sorted by tokens: %v", pts)
	}
}
