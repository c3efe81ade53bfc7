package bench

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/textbudget"
)

// Truncation policies of the budget study.
const (
	// PolicyRaw keeps the longest prefix of the complete text whose token
	// count is within the budget (the article's raw budget: it may cut a
	// record or a JSON document in half).
	PolicyRaw = "raw"
	// PolicyRecord keeps whole records while the next one fits; for the
	// monolithic JSON formats, the largest valid document that fits
	// (graphrag.FitRecords's policy).
	PolicyRecord = "record"
)

// Policies returns the truncation policies in report order.
func Policies() []string { return []string{PolicyRaw, PolicyRecord} }

// Record orderings of the budget study (the article's list). On the
// synthetic service graph (Budgets) they order its node and edge records
// as said here; on RDF inputs (GraphBudgets) they order the statements of
// the RDF formats and the node and edge records of the labelled-graph
// formats, with the generated queries' start nodes as the query entities
// (see GraphBudgets).
const (
	// OrderCanonical is the canonical identifier order (nodes sorted,
	// then edges sorted), the reference program's order.
	OrderCanonical = "canonical"
	// OrderShuffle shuffles nodes and edges with a recorded seed (PCG).
	OrderShuffle = "shuffle"
	// OrderRelevant puts the records of the gold paths first (in
	// canonical order), then the others.
	OrderRelevant = "relevant_first"
	// OrderBFS orders nodes breadth-first from the query entities
	// (svc-api, db-identity on the synthetic graph) over edges in both
	// directions, and edges by the earlier of their endpoints in that
	// order.
	OrderBFS = "bfs_from_query"
	// OrderInterleaved is OrderBFS with each node record followed by its
	// outgoing edges, for the line formats (jsonl, csv, typed_edges,
	// typed_edges_dict); the JSON documents cannot interleave, and RDF
	// statements have no separate node records.
	OrderInterleaved = "interleaved"
)

// Orderings returns every ordering, in report order.
func Orderings() []string {
	return []string{OrderCanonical, OrderShuffle, OrderRelevant, OrderBFS, OrderInterleaved}
}

// DefaultBudgets are the article's budgets.
func DefaultBudgets() []int { return []int{512, 1024, 2048, 4096, 8192} }

// BudgetOptions configure Budgets.
type BudgetOptions struct {
	Budgets     []int
	Orderings   []string
	ShuffleSeed uint64
	// Count measures a text (tokens of the primary tokenizer).
	Count func(string) int
}

// BudgetResult is one cell of the budget study.
type BudgetResult struct {
	Format   string `json:"format"`
	Ordering string `json:"ordering"`
	Policy   string `json:"policy"`
	Budget   int    `json:"budget_tokens"`
	// Tokens is the size of the kept text.
	Tokens int `json:"tokens"`
	// Parses says whether the format's strict decoder accepts the kept
	// text.
	Parses bool `json:"parse_success"`
	// Nodes and Edges are the retained records (0 when it does not parse).
	Nodes int `json:"retained_nodes"`
	Edges int `json:"retained_edges"`
	// EvidenceSurvival is the fraction of gold-path records retained.
	EvidenceSurvival float64 `json:"evidence_survival"`
	// GoldPathsSurvive is EvidenceSurvival == 1.
	GoldPathsSurvive  bool                 `json:"gold_paths_survive"`
	QueryChecks       graphrag.QueryChecks `json:"query_checks"`
	TraversalAccuracy float64              `json:"traversal_accuracy"`
	// Error says why a cell could not be computed (an ordering the format
	// does not support).
	Error string `json:"error,omitempty"`
}

// fitRecords is graphrag.FitRecords's policy (the largest prefix of the
// records, nodes first, whose text fits; for the JSON documents a complete
// document) with a galloping search, whose cost grows with the budget
// rather than with the graph.
func fitRecords(f graphrag.Format, g graphrag.Graph, budget int, count func(string) int) (string, error) {
	var firstErr error
	encode := func(k int) string {
		var b strings.Builder
		if err := f.Encode(&b, g.Prefix(k)); err != nil && firstErr == nil {
			firstErr = err
		}
		return b.String()
	}
	k := textbudget.LargestFit(g.Records(), func(k int) bool { return firstErr == nil && count(encode(k)) <= budget })
	text := encode(k)
	return text, firstErr
}

// lineFormats are the formats that write one line per record and so can
// interleave node and edge records.
func lineFormats() []string {
	return []string{graphrag.JSONL, graphrag.CSV, graphrag.TypedEdges, graphrag.TypedEdgesDict}
}

// Budgets runs the budget study on g for every format × ordering × policy
// × budget, in that nesting order.
func Budgets(g graphrag.Graph, fs []graphrag.Format, opts BudgetOptions) ([]BudgetResult, error) {
	if opts.Count == nil {
		return nil, errors.New("bench: Budgets needs a Count function")
	}
	orderings := opts.Orderings
	if orderings == nil {
		orderings = Orderings()
	}
	for _, o := range orderings {
		if !slices.Contains(Orderings(), o) {
			return nil, fmt.Errorf("bench: unknown ordering %q", o)
		}
	}
	gold := graphrag.QuerySuite(g)
	evidence := Evidence(g)
	var out []BudgetResult
	for _, f := range fs {
		for _, o := range orderings {
			og, recs := order(g, o, evidence, opts.ShuffleSeed)
			full, err := encodeOrdered(f, og, recs, o)
			for _, p := range Policies() {
				for _, b := range opts.Budgets {
					r := BudgetResult{Format: f.Name, Ordering: o, Policy: p, Budget: b}
					if err != nil {
						r.Error = err.Error()
						out = append(out, r)
						continue
					}
					var text string
					switch {
					case p == PolicyRaw:
						text = textbudget.Raw(full.text, opts.Count, b).Text
					case o == OrderInterleaved:
						text = full.fitLines(b, opts.Count)
					default:
						if text, err = fitRecords(f, og, b, opts.Count); err != nil {
							return nil, err
						}
					}
					r.Tokens = opts.Count(text)
					dec, derr := f.Decode(strings.NewReader(text), graphrag.DecodeOptions{})
					if derr == nil {
						r.Parses = true
						r.Nodes, r.Edges = len(dec.Nodes), len(dec.Edges)
						r.EvidenceSurvival = Survival(evidence, dec)
						r.GoldPathsSurvive = r.EvidenceSurvival == 1
						r.QueryChecks = gold.Check(graphrag.QuerySuite(dec))
						r.TraversalAccuracy = r.QueryChecks.Accuracy()
					}
					out = append(out, r)
				}
			}
		}
	}
	return out, nil
}

// record is a node record (edge -1) or an edge record (node -1) of an
// ordered graph, by index.
type record struct{ node, edge int }

// encoded is a complete text and, for line formats, its lines.
type encoded struct {
	text   string
	header []string // lines before the first record
	lines  []string // one line per record, in record order
	final  string   // text after the last record line ("\n" for csv)
}

// fitLines keeps the header and the most record lines that fit.
func (e encoded) fitLines(budget int, count func(string) int) string {
	build := func(k int) string {
		parts := slices.Concat(e.header, e.lines[:k])
		return strings.Join(parts, "\n") + e.final
	}
	return build(textbudget.LargestFit(len(e.lines), func(k int) bool { return count(build(k)) <= budget }))
}

// encodeOrdered encodes og; for the interleaved ordering it rearranges
// the record lines of a line format in the order recs.
func encodeOrdered(f graphrag.Format, og graphrag.Graph, recs []record, ordering string) (encoded, error) {
	var b strings.Builder
	if err := f.Encode(&b, og); err != nil {
		return encoded{}, err
	}
	text := b.String()
	if ordering != OrderInterleaved {
		return encoded{text: text}, nil
	}
	if !slices.Contains(lineFormats(), f.Name) {
		return encoded{}, fmt.Errorf("%s cannot interleave node and edge records", f.Name)
	}
	final := ""
	body := text
	if strings.HasSuffix(body, "\n") {
		final, body = "\n", body[:len(body)-1]
	}
	var lines []string
	if body != "" {
		lines = strings.Split(body, "\n")
	}
	// The header is what the format writes for a graph without records:
	// no line for jsonl, one for csv and typed_edges, three for
	// typed_edges_dict.
	var empty strings.Builder
	if err := f.Encode(&empty, graphrag.Graph{}); err != nil {
		return encoded{}, err
	}
	h := 0
	if e := strings.TrimSuffix(empty.String(), "\n"); e != "" {
		h = strings.Count(e, "\n") + 1
	}
	n := og.Records()
	if len(lines) != h+n {
		return encoded{}, fmt.Errorf("%s: %d lines for %d records and %d header lines (a record spans lines)", f.Name, len(lines), n, h)
	}
	e := encoded{header: lines[:h], final: final}
	for _, r := range recs {
		i := r.node
		if r.node < 0 {
			i = len(og.Nodes) + r.edge
		}
		e.lines = append(e.lines, lines[h+i])
	}
	e.text = strings.Join(slices.Concat(e.header, e.lines), "\n") + final
	return e, nil
}

// Evidence returns the records of the gold paths of the article's three
// queries on g, as "N|id|type" and "E|source|relation|target" keys: the
// breadth-first tree edges from svc-api within three depends_on hops,
// the reverse breadth-first tree edges from db-identity, the owned_by
// edges of the affected services, and the node records of every node on
// those paths. Records are sorted.
func Evidence(g graphrag.Graph) []string {
	out, in := map[string][]graphrag.Edge{}, map[string][]graphrag.Edge{}
	for _, e := range g.Edges {
		if e.Relation == graphrag.DependsOn {
			out[e.Source] = append(out[e.Source], e)
			in[e.Target] = append(in[e.Target], e)
		}
	}
	var keys []string
	nodes := map[string]bool{}
	addEdge := func(e graphrag.Edge) {
		keys = append(keys, edgeKey(e))
		nodes[e.Source], nodes[e.Target] = true, true
	}
	bfs := func(start string, maxHops int, adj map[string][]graphrag.Edge, next func(graphrag.Edge) string) {
		seen := map[string]bool{start: true}
		frontier := []string{start}
		for h := 0; (maxHops < 0 || h < maxHops) && len(frontier) > 0; h++ {
			var nf []string
			for _, n := range frontier {
				for _, e := range adj[n] {
					m := next(e)
					if !seen[m] {
						seen[m] = true
						addEdge(e)
						nf = append(nf, m)
					}
				}
			}
			frontier = nf
		}
	}
	bfs("svc-api", 3, out, func(e graphrag.Edge) string { return e.Target })
	bfs("db-identity", -1, in, func(e graphrag.Edge) string { return e.Source })
	gold := graphrag.QuerySuite(g)
	affected := map[string]bool{}
	for _, s := range gold.IdentityFailureAffectedServices {
		affected[s] = true
	}
	for _, e := range g.Edges {
		if e.Relation == graphrag.OwnedBy && affected[e.Source] {
			addEdge(e)
		}
	}
	nodes["svc-api"], nodes["db-identity"] = true, true
	for _, n := range g.Nodes {
		if nodes[n.ID] {
			keys = append(keys, nodeKey(n))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

func nodeKey(n graphrag.Node) string {
	return "N|" + graphrag.EscapeAtom(n.ID) + "|" + graphrag.EscapeAtom(n.Type)
}

func edgeKey(e graphrag.Edge) string {
	return "E|" + graphrag.EscapeAtom(e.Source) + "|" + graphrag.EscapeAtom(e.Relation) + "|" + graphrag.EscapeAtom(e.Target)
}

// Survival is the fraction of evidence records present in d.
func Survival(evidence []string, d graphrag.Graph) float64 {
	if len(evidence) == 0 {
		return 1
	}
	have := map[string]bool{}
	for _, n := range d.Nodes {
		have[nodeKey(n)] = true
	}
	for _, e := range d.Edges {
		have[edgeKey(e)] = true
	}
	k := 0
	for _, r := range evidence {
		if have[r] {
			k++
		}
	}
	return float64(k) / float64(len(evidence))
}

// order returns g in the given ordering (nodes, then edges) and the record
// sequence of the interleaved ordering (for the others: nodes then edges).
func order(g graphrag.Graph, ordering string, evidence []string, seed uint64) (graphrag.Graph, []record) {
	nodes, edges := slices.Clone(g.Nodes), slices.Clone(g.Edges)
	slices.SortStableFunc(nodes, graphrag.CompareNodes)
	slices.SortStableFunc(edges, graphrag.CompareEdges)
	switch ordering {
	case OrderShuffle:
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		r.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	case OrderRelevant:
		ev := map[string]bool{}
		for _, k := range evidence {
			ev[k] = true
		}
		rank := func(b bool) int {
			if b {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(nodes, func(a, b graphrag.Node) int {
			return cmp.Compare(rank(ev[nodeKey(a)]), rank(ev[nodeKey(b)]))
		})
		slices.SortStableFunc(edges, func(a, b graphrag.Edge) int {
			return cmp.Compare(rank(ev[edgeKey(a)]), rank(ev[edgeKey(b)]))
		})
	case OrderBFS, OrderInterleaved:
		pos := bfsOrder(nodes, edges, []string{"svc-api", "db-identity"})
		slices.SortStableFunc(nodes, func(a, b graphrag.Node) int { return cmp.Compare(pos[a.ID], pos[b.ID]) })
		slices.SortStableFunc(edges, func(a, b graphrag.Edge) int {
			return cmp.Compare(min(pos[a.Source], pos[a.Target]), min(pos[b.Source], pos[b.Target]))
		})
	}
	og := graphrag.Graph{Nodes: nodes, Edges: edges}
	recs := records(nodes, edges, func(n graphrag.Node) string { return n.ID },
		func(e graphrag.Edge) string { return e.Source }, ordering == OrderInterleaved)
	return og, recs
}

// records lists the records of a graph's nodes and edges (in the chosen
// order; id gives a node's id, source an edge's source id): all nodes then
// all edges, or, interleaved, each node followed by its not yet listed
// outgoing edges, and then the edges whose source is no node.
func records[N, E any](nodes []N, edges []E, id func(N) string, source func(E) string, interleaved bool) []record {
	recs := make([]record, 0, len(nodes)+len(edges))
	if !interleaved {
		for i := range nodes {
			recs = append(recs, record{node: i, edge: -1})
		}
		for j := range edges {
			recs = append(recs, record{node: -1, edge: j})
		}
		return recs
	}
	bySource := map[string][]int{}
	for j, e := range edges {
		bySource[source(e)] = append(bySource[source(e)], j)
	}
	used := make([]bool, len(edges))
	for i, n := range nodes {
		recs = append(recs, record{node: i, edge: -1})
		for _, j := range bySource[id(n)] {
			if !used[j] {
				used[j] = true
				recs = append(recs, record{node: -1, edge: j})
			}
		}
	}
	for j := range edges {
		if !used[j] {
			recs = append(recs, record{node: -1, edge: j})
		}
	}
	return recs
}

// bfsOrder numbers node ids breadth-first from starts over edges in both
// directions (neighbours in edge order); unreached ids come after, in
// node order.
func bfsOrder(nodes []graphrag.Node, edges []graphrag.Edge, starts []string) map[string]int {
	adj := map[string][]string{}
	for _, e := range edges {
		adj[e.Source] = append(adj[e.Source], e.Target)
		adj[e.Target] = append(adj[e.Target], e.Source)
	}
	pos := map[string]int{}
	var queue []string
	for _, s := range starts {
		if _, ok := pos[s]; !ok {
			pos[s] = len(pos)
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj[n] {
			if _, ok := pos[m]; !ok {
				pos[m] = len(pos)
				queue = append(queue, m)
			}
		}
	}
	for _, n := range nodes {
		if _, ok := pos[n.ID]; !ok {
			pos[n.ID] = len(pos)
		}
	}
	for _, e := range edges {
		for _, id := range []string{e.Source, e.Target} {
			if _, ok := pos[id]; !ok {
				pos[id] = len(pos)
			}
		}
	}
	return pos
}
