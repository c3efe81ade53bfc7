package bench

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/textbudget"
)

// exampleInput returns one embedded example.
func exampleInput(t *testing.T, name string) Input {
	t.Helper()
	for _, in := range exampleInputs(t) {
		if in.Name == name {
			return in
		}
	}
	t.Fatalf("no example %s", name)
	return Input{}
}

// reinsert returns a dataset with d's statements added in the order of
// perm applied to d.Sorted(), and d's prefixes and base.
func reinsert(d *rdf.Dataset, perm []int) *rdf.Dataset {
	sorted := d.Sorted()
	nd := rdf.NewDataset()
	for _, p := range d.Prefixes {
		nd.AddPrefix(p.Name, p.IRI)
	}
	nd.Base = d.Base
	for _, i := range perm {
		nd.Add(sorted[i])
	}
	return nd
}

// TestISOLDAIsOrderInvariant proves that the ISOLDA encoder's bytes do not
// depend on the order in which the statements are given (canonical,
// reversed, and shuffled with math/rand, independent of the study's PCG
// shuffle), and that the budget study labels it order-invariant while
// N-Triples (written in the ordering's order) and the labelled-graph
// formats are order-sensitive.
func TestISOLDAIsOrderInvariant(t *testing.T) {
	for _, in := range exampleInputs(t) {
		n := in.Dataset.Len()
		canonical := allRecords(n)
		reversed := slices.Clone(canonical)
		slices.Reverse(reversed)
		shuffled := slices.Clone(canonical)
		rand.New(rand.NewSource(42)).Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, name := range []string{"isolda", "isolda-0.1", "isolda-0.3", "turtle"} {
			var texts []string
			for _, perm := range [][]int{canonical, reversed, shuffled} {
				s, err := formats.EncodeString(name, formats.NewInput(reinsert(in.Dataset, perm)))
				if err != nil {
					t.Fatal(err)
				}
				texts = append(texts, s)
			}
			if texts[0] != texts[1] || texts[0] != texts[2] {
				t.Errorf("%s on %s: the text depends on the statement order", name, in.Name)
			}
		}
	}
	tok := testgraph.O200k(t)
	fs, err := SelectFormats([]string{"isolda", "ntriples", "typed_edges"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := exampleInput(t, "wikidata-L691820-lexeme.ttl")
	res, err := GraphBudgets(in, fs, GraphBudgetOptions{Budgets: []int{300, 1500}, Orderings: Orderings(), ShuffleSeed: 3, Count: tok.Count})
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string][]GraphBudgetResult{}
	for _, r := range res {
		if want := r.Format == "isolda"; r.OrderInvariant != want {
			t.Errorf("%s %s: order_invariant %v, want %v", r.Format, r.Ordering, r.OrderInvariant, want)
		}
		if r.Format == "isolda" && r.Policy == PolicyRaw && r.NotApplicable == "" {
			r.Ordering = ""
			raw[fmt.Sprint(r.Budget)] = append(raw[fmt.Sprint(r.Budget)], r)
		}
	}
	// Raw truncation of an order-invariant text is the same in every
	// ordering (four apply: interleaved does not).
	for b, cells := range raw {
		if len(cells) != 4 {
			t.Errorf("budget %s: %d raw isolda cells", b, len(cells))
		}
		for _, c := range cells[1:] {
			if !reflect.DeepEqual(c, cells[0]) {
				t.Errorf("budget %s: raw isolda cells differ: %+v, %+v", b, c, cells[0])
			}
		}
	}
}

// TestOrderingDeterminism: the same seed gives the same bytes, another
// seed another shuffled text; every ordering is a permutation.
func TestOrderingDeterminism(t *testing.T) {
	in := exampleInput(t, "lod-datagovuk-reference-intervals.ttl")
	tok := testgraph.O200k(t)
	fs, err := SelectFormats([]string{"ntriples", "isolda", "typed_edges", "jsonl"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed uint64) []byte {
		res, err := GraphBudgets(in, fs, GraphBudgetOptions{Budgets: []int{400}, Orderings: Orderings(), ShuffleSeed: seed, Count: tok.Count})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, res); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if a, b := run(9), run(9); !bytes.Equal(a, b) {
		t.Error("two runs with seed 9 differ")
	}
	// A cell depends on its budget only, not on the other budgets cut
	// before it (ISOLDA 0.3's count does not grow with every statement
	// on this graph, so a search that reused other budgets' bounds
	// would differ).
	i3, _ := SelectFormats([]string{"isolda-0.3"}, nil)
	cellsAt := func(budgets ...int) []GraphBudgetResult {
		res, err := GraphBudgets(in, i3, GraphBudgetOptions{Budgets: budgets, Orderings: []string{OrderRelevant}, Count: tok.Count})
		if err != nil {
			t.Fatal(err)
		}
		var out []GraphBudgetResult
		for _, r := range res {
			if r.Budget == 8192 {
				out = append(out, r)
			}
		}
		return out
	}
	if a, b := cellsAt(8192), cellsAt(DefaultBudgets()...); !reflect.DeepEqual(a, b) {
		t.Errorf("the 8192 cells depend on the other budgets:\n%+v\n%+v", a, b)
	}
	sorted := in.Dataset.Sorted()
	queries := GenerateQueries(datasetEdges(in.Dataset), DefaultQueries)
	for _, o := range Orderings() {
		p := statementOrder(sorted, o, queries, 9)
		if q := statementOrder(sorted, o, queries, 9); !slices.Equal(p, q) {
			t.Errorf("%s: two orders with one seed differ", o)
		}
		if s := slices.Sorted(slices.Values(p)); !slices.Equal(s, allRecords(len(sorted))) {
			t.Errorf("%s: not a permutation of the statements", o)
		}
	}
	if slices.Equal(statementOrder(sorted, OrderShuffle, queries, 9), statementOrder(sorted, OrderShuffle, queries, 10)) {
		t.Error("seeds 9 and 10 shuffle the same way")
	}
	// The shuffled N-Triples text is the canonical text's lines in
	// another order.
	f, _ := formats.Get("ntriples")
	canon, err := formats.EncodeString("ntriples", formats.NewInput(in.Dataset))
	if err != nil {
		t.Fatal(err)
	}
	sub := rdfSubject(in.Dataset, sorted, f, statementOrder(sorted, OrderShuffle, queries, 9), queries)
	shuffled, err := sub.encode(allRecords(sub.total))
	if err != nil {
		t.Fatal(err)
	}
	lines := func(s string) []string { return slices.Sorted(slices.Values(strings.SplitAfter(s, "\n"))) }
	if shuffled == canon || !slices.Equal(lines(shuffled), lines(canon)) {
		t.Error("the shuffled N-Triples text is not a permutation of the canonical lines")
	}
	g := inputOf(in).Graph()
	for _, o := range Orderings() {
		nodes, edges, recs := graphOrder(g, o, GenerateQueries(labelledEdges(g), DefaultQueries), 9)
		if len(recs) != len(g.Nodes)+len(g.Edges) || len(nodes) != len(g.Nodes) || len(edges) != len(g.Edges) {
			t.Errorf("%s: %d records", o, len(recs))
		}
		if fid, detail := graphFidelity(g, &graph.Graph{Nodes: nodes, Edges: edges}); fid != FidelityEqual {
			t.Errorf("%s: %s", o, detail)
		}
	}
}

// TestGoldPathsSurvive: at a budget large enough for the whole graph every
// gold path survives in every format and ordering; at a tiny budget not
// all do. For record-aware N-Triples in canonical order the number of
// surviving gold paths is checked against the lines that fit, counted
// independently.
func TestGoldPathsSurvive(t *testing.T) {
	tok := testgraph.O200k(t)
	fs, err := SelectFormats([]string{"ntriples", "turtle", "isolda", "typed_edges", "csv", "pretty_json"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var survived, cells int
	for _, in := range exampleInputs(t) {
		res, err := GraphBudgets(in, fs, GraphBudgetOptions{Budgets: []int{25, 1 << 20}, Orderings: Orderings(), ShuffleSeed: 1, Count: tok.Count})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.NotApplicable != "" {
				if r.Ordering != OrderInterleaved || slices.Contains(InterleavedFormats(), r.Format) {
					t.Errorf("%+v: not applicable", r)
				}
				continue
			}
			if r.Error != "" || r.GoldPaths == 0 {
				t.Errorf("%+v", r)
				continue
			}
			cells++
			if r.GoldPathsSurvive {
				survived++
			}
			switch r.Budget {
			case 1 << 20:
				if !r.Parses || !r.GoldPathsSurvive || r.GoldPathsSurvived != r.GoldPaths || r.Retained != r.Total {
					t.Errorf("%s %s %s %s: whole graph, %d/%d gold paths", r.Graph, r.Format, r.Ordering, r.Policy, r.GoldPathsSurvived, r.GoldPaths)
				}
			case 25:
				if r.GoldPathsSurvive || r.GoldPathsSurvived == r.GoldPaths {
					t.Errorf("%s %s %s %s: every gold path survives in 25 tokens", r.Graph, r.Format, r.Ordering, r.Policy)
				}
			}
		}
		// Independent count for record-aware canonical N-Triples at a
		// middle budget: the lines of the canonical text that fit, and
		// the queries whose gold path is in them.
		nt, _ := SelectFormats([]string{"ntriples"}, nil)
		const budget = 700
		mid, err := GraphBudgets(in, nt, GraphBudgetOptions{Budgets: []int{budget}, Count: tok.Count})
		if err != nil {
			t.Fatal(err)
		}
		full, err := formats.EncodeString("ntriples", formats.NewInput(in.Dataset))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(full, "\n")
		k := 0
		for k < len(lines) && tok.Count(strings.Join(lines[:k+1], "")) <= budget {
			k++
		}
		kept := rdftest.Read(t, strings.Join(lines[:k], ""), rdfio.Options{Format: rdfio.NTriples})
		have := map[string]bool{}
		for _, q := range kept.Quads() {
			if !q.O.IsLiteral() {
				have[q.S.Value+" "+q.P.Value+" "+q.O.Value] = true
			}
		}
		want := 0
		for _, q := range GenerateQueries(datasetEdges(in.Dataset), DefaultQueries) {
			all := true
			for _, e := range q.GoldPath {
				all = all && have[strings.TrimPrefix(e.S, "_:")+" "+e.P+" "+strings.TrimPrefix(e.O, "_:")]
			}
			if all {
				want++
			}
		}
		for _, r := range mid[1:] { // the record-aware cell
			if r.Retained != k || r.GoldPathsSurvived != want {
				t.Errorf("%s: record-aware N-Triples at %d: %d statements, %d gold paths; %d lines fit, %d gold paths in them",
					in.Name, budget, r.Retained, r.GoldPathsSurvived, k, want)
			}
		}
	}
	t.Logf("bench: gold-path survival: %d of %d cells (budgets 25 and 2^20) keep every gold path", survived, cells)
}

// TestBFSOrderingKeepsNeighbourhood: at a small budget the breadth-first
// ordering keeps the edges nearest the query anchors: every retained edge
// is within one hop of an anchor, and every edge nearer than the farthest
// retained one is retained. Distances come from package graph's
// single-source BFS from each anchor on an undirected Adj built here,
// independent of the study's multi-source numbering. Canonical order at
// the same budget keeps edges farther away.
func TestBFSOrderingKeepsNeighbourhood(t *testing.T) {
	tok := testgraph.O200k(t)
	in := exampleInput(t, "lod-datagovuk-reference-intervals.ttl")
	edges := datasetEdges(in.Dataset)
	var keys []string
	for _, e := range edges {
		keys = append(keys, e.S, e.O)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	index := map[string]int{}
	for i, k := range keys {
		index[k] = i
	}
	var pairs [][2]int
	for _, e := range edges {
		pairs = append(pairs, [2]int{index[e.S], index[e.O]})
	}
	adj := graph.NewAdj(len(keys), pairs, false)
	level := make([]int, len(keys))
	for i := range level {
		level[i] = len(keys) + 1
	}
	queries := GenerateQueries(edges, DefaultQueries)
	for _, q := range queries {
		_, dist := adj.BFS(index[q.Start])
		for i, d := range dist {
			if d >= 0 {
				level[i] = min(level[i], d)
			}
		}
	}
	edgeLevel := func(e Triple) int { return min(level[index[e.S]], level[index[e.O]]) }
	f, _ := formats.Get("ntriples")
	sorted := in.Dataset.Sorted()
	const budget = 10000
	keptEdges := func(ordering string) []Triple {
		sub := rdfSubject(in.Dataset, sorted, f, statementOrder(sorted, ordering, queries, 1), queries)
		perm := allRecords(sub.total)
		k := textbudget.LargestFit(sub.total, func(k int) bool {
			s, _ := sub.encode(perm[:k])
			return tok.Count(s) <= budget
		})
		text, _ := sub.encode(perm[:k])
		d := rdftest.Read(t, text, rdfio.Options{Format: rdfio.NTriples})
		return datasetEdges(d)
	}
	kept := keptEdges(OrderBFS)
	if len(kept) == 0 {
		t.Fatal("no edge kept")
	}
	far, have := 0, map[Triple]bool{}
	for _, e := range kept {
		// N-Triples keeps blank node labels: every key is the input's.
		if _, ok := index[e.S]; !ok {
			t.Fatalf("kept edge %v has an unknown subject", e)
		}
		if _, ok := index[e.O]; !ok {
			t.Fatalf("kept edge %v has an unknown object", e)
		}
		far = max(far, edgeLevel(e))
		have[e] = true
	}
	if far != 1 {
		t.Errorf("the farthest retained edge is %d hops from the anchors, want 1 at this budget", far)
	}
	nearer := 0
	for _, e := range edges {
		if edgeLevel(e) < far {
			nearer++
			if !have[e] {
				t.Errorf("%v is %d hops from the anchors but not kept", e, edgeLevel(e))
			}
		}
	}
	farCanon := 0
	for _, e := range keptEdges(OrderCanonical) {
		farCanon = max(farCanon, edgeLevel(e))
	}
	if nearer == 0 || farCanon <= far {
		t.Errorf("canonical order keeps edges at most %d hops away, breadth-first %d: the test does not discriminate", farCanon, far)
	}
	t.Logf("budget %d: breadth-first keeps %d edges within %d hop(s) (%d nearer edges all kept); canonical reaches %d hops",
		budget, len(kept), far, nearer, farCanon)

	// The same property for the labelled-graph view, interleaved
	// typed_edges: every retained edge is within one hop of an anchor.
	g := inputOf(in).Graph()
	gq := GenerateQueries(labelledEdges(g), DefaultQueries)
	gidx := g.Index()
	var gpairs [][2]int
	for _, e := range g.Edges {
		gpairs = append(gpairs, [2]int{gidx[e.From], gidx[e.To]})
	}
	gadj := graph.NewAdj(len(g.Nodes), gpairs, false)
	glevel := make([]int, len(g.Nodes))
	for i := range glevel {
		glevel[i] = len(g.Nodes) + 1
	}
	for _, q := range gq {
		_, dist := gadj.BFS(gidx[q.Start])
		for i, d := range dist {
			if d >= 0 {
				glevel[i] = min(glevel[i], d)
			}
		}
	}
	te, _ := formats.Get("typed_edges")
	sub := graphSubject(g, te, OrderInterleaved, gq, 1)
	perm := allRecords(sub.total)
	k := textbudget.LargestFit(sub.total, func(k int) bool {
		s, _ := sub.encode(perm[:k])
		return tok.Count(s) <= 600
	})
	text, _ := sub.encode(perm[:k])
	dec, err := te.DecodeGraph(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(dec.Edges) == 0 {
		t.Fatal("interleaved typed_edges kept no edge")
	}
	for _, e := range dec.Edges {
		if l := min(glevel[gidx[e.From]], glevel[gidx[e.To]]); l > 1 {
			t.Errorf("interleaved typed_edges keeps %v, %d hops from the anchors", e, l)
		}
	}
}
