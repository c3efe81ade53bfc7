package bench

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/textbudget"
)

// GraphBudgetResult is one cell of the budget study of an RDF graph (or
// a labelled graph): a lossless format in one record ordering, cut to a
// token budget under one policy.
type GraphBudgetResult struct {
	Graph  string `json:"graph"`
	Format string `json:"format"`
	Scope  string `json:"lossless_scope"`
	// Ordering is the record ordering (see the Order constants and
	// GraphBudgets).
	Ordering string `json:"ordering"`
	// ShuffleSeed seeds the shuffled ordering (recorded in every cell).
	ShuffleSeed uint64 `json:"shuffle_seed"`
	// OrderInvariant says the format's complete text is byte-identical
	// whatever the order of its records (its encoder sorts them): raw
	// truncation is then the same in every ordering, and the ordering only
	// decides which records record-aware truncation keeps.
	OrderInvariant bool `json:"order_invariant"`
	// NotApplicable says why the ordering does not apply to the format
	// (the cell has no measurements then).
	NotApplicable string `json:"not_applicable,omitempty"`
	// Policy is PolicyRaw (the longest prefix of the text within the
	// budget) or PolicyRecord (the longest prefix of the ordered records,
	// statements for RDF formats or node and edge records for
	// labelled-graph formats, whose encoding fits).
	Policy string `json:"policy"`
	Budget int    `json:"budget_tokens"`
	Tokens int    `json:"tokens"`
	Parses bool   `json:"parse_success"`
	// Retained and Total count statements (RDF formats) or node and edge
	// records (labelled-graph formats).
	Retained int `json:"retained"`
	Total    int `json:"total"`
	// RetainedNodes and RetainedEdges count the nodes and edges of the
	// decoded text's labelled-graph view.
	RetainedNodes int `json:"retained_nodes"`
	RetainedEdges int `json:"retained_edges"`
	// GoldPaths is the number of queries; GoldPathsSurvived the number
	// whose gold path (Query.GoldPath) is entirely in the decoded text's
	// edges (for RDF formats a blank node matches any blank node, since
	// labels do not survive a round trip); GoldPathsSurvive says every
	// one did and the text parses.
	GoldPaths         int  `json:"gold_paths"`
	GoldPathsSurvived int  `json:"gold_paths_survived"`
	GoldPathsSurvive  bool `json:"gold_paths_survive"`
	// Traversal is the accuracy of the graph's queries on the decoded
	// text; nil when it does not parse or the graph has no queries.
	Traversal *float64 `json:"traversal_accuracy"`
	Error     string   `json:"error,omitempty"`
}

// GraphBudgetOptions configure GraphBudgets.
type GraphBudgetOptions struct {
	// Budgets are the token budgets.
	Budgets []int
	// Orderings are the record orderings (nil: canonical only).
	Orderings []string
	// ShuffleSeed seeds the shuffled ordering.
	ShuffleSeed uint64
	// Count measures a text (tokens of the primary tokenizer).
	Count func(string) int
	// Queries is the number of queries of each kind (0: DefaultQueries).
	Queries int
}

// budgetSubject is one format's records of one input: encode writes the
// records at the given indexes in that order; measure decodes a text.
type budgetSubject struct {
	total   int
	encode  func(recs []int) (string, error)
	measure func(text string, r *GraphBudgetResult)
}

// GraphBudgets runs the budget study on one graph for the lossless formats
// among fs that apply to it (the lossy ones have no decoder to measure
// with): for every format × ordering × policy × budget, in that nesting
// order, the kept text's parse outcome, retained records, nodes and edges,
// gold-path survival and traversal accuracy. The queries are those of
// GenerateQueries on the input (on datasetEdges for RDF formats, on the
// graph view's edges for labelled-graph formats); their start nodes are
// the query anchors of the orderings, which are the article's list
// applied to the records of each kind of format.
//
// The records of an RDF format are the statements of the dataset. The
// orderings give the order in which the statements are handed to the
// encoder (record-aware truncation keeps the longest prefix of that order
// whose text fits):
//
//   - canonical: rdf.Dataset.Sorted;
//   - shuffle: canonical, then shuffled with the recorded seed (PCG, as
//     for the synthetic graph);
//   - relevant_first: the statements on the gold paths of the generated
//     queries first, then the node statements (rdf:type and literal
//     values) of the query anchors and the nodes on the gold paths, then
//     the others, each group in canonical order;
//   - bfs_from_query: by the breadth-first rank, from the query anchors
//     (the queries' start nodes, in query order), of the statement's
//     subject, or for an edge statement of the earlier of its subject and
//     object; the breadth-first search runs on the undirected labelled
//     graph view (package graph's Adj of the dataset's IRI and blank nodes
//     and its non-type, non-literal statements, the structure of
//     graph.FromRDF), neighbours in increasing key order, unreached nodes
//     last in key order; ties in canonical order;
//   - interleaved: not applicable. Statements have no separate node and
//     edge sections.
//
// Most RDF encoders sort the statements they are given (ISOLDA by design;
// when this was written, every RDF syntax of the registry): their text is
// the same under every ordering, and GraphBudgetResult.OrderInvariant,
// measured on each graph, says so; the ordering
// then only decides which statements record-aware truncation keeps. The
// line formats N-Triples and N-Quads write one canonical line per
// statement; their text is written in the ordering's order (the registry
// encoder's lines, rearranged), so they are order-sensitive.
//
// The records of a labelled-graph format are the node records and the
// edge records of the graph view; every labelled-graph encoder writes them
// in the order given, nodes then edges:
//
//   - canonical: nodes by id, edges by (from, type, to);
//   - shuffle: nodes shuffled, then edges shuffled, with the seed;
//   - relevant_first: the anchors and the nodes on the gold paths first,
//     the gold-path edges first, each group in canonical order;
//   - bfs_from_query: nodes by breadth-first rank from the anchors (as
//     above, on the graph's Adj), edges by the earlier rank of their
//     endpoints;
//   - interleaved: the breadth-first order with each node record
//     followed by its outgoing edges, for the formats that write one line
//     per record (InterleavedFormats); the others keep nodes and edges in
//     separate blocks and are not applicable.
func GraphBudgets(in Input, fs []formats.Format, opts GraphBudgetOptions) ([]GraphBudgetResult, error) {
	if opts.Count == nil {
		return nil, errors.New("bench: GraphBudgets needs a Count function")
	}
	orderings := opts.Orderings
	if orderings == nil {
		orderings = []string{OrderCanonical}
	}
	if err := checkOrderings(orderings); err != nil {
		return nil, err
	}
	queries := opts.Queries
	if queries <= 0 {
		queries = DefaultQueries
	}
	count := opts.Count
	fin := inputOf(in)
	g := fin.Graph()
	graphQ := GenerateQueries(labelledEdges(g), queries)
	var rdfQ []Query
	var sorted []rdf.Quad
	if in.Dataset != nil {
		rdfQ = GenerateQueries(datasetEdges(in.Dataset), queries)
		sorted = in.Dataset.Sorted()
	}
	var out []GraphBudgetResult
	for _, f := range fs {
		scope := scopeOf(f)
		if scope == ScopeLossy || scope == ScopeRDF && in.Dataset == nil {
			continue
		}
		subject := func(ordering string, seed uint64) budgetSubject {
			if scope == ScopeRDF {
				return rdfSubject(in.Dataset, sorted, f, statementOrder(sorted, ordering, rdfQ, seed), rdfQ)
			}
			return graphSubject(g, f, ordering, graphQ, seed)
		}
		// Order invariance: the complete text in canonical order, in a
		// shuffled order and in every studied ordering is the same.
		canonical := subject(OrderCanonical, 0)
		canonText, canonErr := canonical.encode(allRecords(canonical.total))
		invariant := canonErr == nil
		fulls := map[string]string{}
		subjects := map[string]budgetSubject{}
		for _, o := range slices.Concat([]string{OrderShuffle}, orderings) {
			if notApplicable(f, o) != "" {
				continue
			}
			if _, ok := subjects[o]; ok {
				continue
			}
			sub := subject(o, opts.ShuffleSeed)
			full, err := sub.encode(allRecords(sub.total))
			if err != nil {
				invariant = false
				continue
			}
			subjects[o], fulls[o] = sub, full
			if full != canonText {
				invariant = false
			}
		}
		rawCache := map[[2]string]GraphBudgetResult{}
		for _, o := range orderings {
			na := notApplicable(f, o)
			sub, full := subjects[o], fulls[o]
			var fullErr error
			if na == "" {
				if _, ok := subjects[o]; !ok {
					sub = subject(o, opts.ShuffleSeed)
					full, fullErr = sub.encode(allRecords(sub.total))
				}
			}
			var cells *cutter
			if na == "" && fullErr == nil {
				cells = newCutter(sub, full, count)
			}
			for _, policy := range Policies() {
				for _, b := range opts.Budgets {
					r := GraphBudgetResult{Graph: in.Name, Format: f.Name, Scope: scope, Ordering: o,
						ShuffleSeed: opts.ShuffleSeed, OrderInvariant: invariant, Policy: policy, Budget: b}
					switch {
					case na != "":
						r.NotApplicable = na
					case fullErr != nil:
						r.Error = fullErr.Error()
					case policy == PolicyRaw:
						// Raw truncation depends only on the complete
						// text: cells of identical texts are computed once.
						key := [2]string{full, strconv.Itoa(b)}
						if c, ok := rawCache[key]; ok {
							c.Ordering = o
							r = c
						} else {
							cells.raw(b, &r)
							rawCache[key] = r
						}
					default:
						cells.record(b, &r)
					}
					out = append(out, r)
				}
			}
		}
	}
	return out, nil
}

// cutter cuts one subject's text to budgets. The searches of every
// budget probe the same prefixes, so token counts are remembered by prefix
// length (raw) and by number of records (record-aware).
type cutter struct {
	sub          budgetSubject
	full         string
	count        func(string) int
	fullTokens   int
	prefixTokens map[int]int
	recordTokens map[int]int
}

func newCutter(sub budgetSubject, full string, count func(string) int) *cutter {
	c := &cutter{sub: sub, full: full, count: count, prefixTokens: map[int]int{}, recordTokens: map[int]int{}}
	c.fullTokens = c.countPrefix(full)
	c.recordTokens[sub.total] = c.fullTokens
	return c
}

// countPrefix counts a prefix of the complete text.
func (c *cutter) countPrefix(s string) int {
	n, ok := c.prefixTokens[len(s)]
	if !ok {
		n = c.count(s)
		c.prefixTokens[len(s)] = n
	}
	return n
}

// raw fills r with the longest prefix of the text within budget b.
func (c *cutter) raw(b int, r *GraphBudgetResult) {
	r.Total = c.sub.total
	text := c.full
	if c.fullTokens > b {
		text = textbudget.Raw(c.full, c.countPrefix, b).Text
	}
	r.Tokens = c.countPrefix(text)
	c.sub.measure(text, r)
}

// record fills r with the text of the longest prefix of the records whose
// encoding is within budget b.
func (c *cutter) record(b int, r *GraphBudgetResult) {
	r.Total = c.sub.total
	perm := allRecords(c.sub.total)
	var err error
	k := c.sub.total // the whole graph, when it fits
	if c.fullTokens > b {
		// The memo saves work, not probes: the search, and so the
		// result, is the same whatever other budgets were cut before
		// (token counts need not grow with every record).
		k = textbudget.LargestFit(c.sub.total, func(k int) bool {
			n, ok := c.recordTokens[k]
			if !ok {
				t, e := c.sub.encode(perm[:k])
				if e != nil {
					err = e
					return false
				}
				n = c.count(t)
				c.recordTokens[k] = n
			}
			return n <= b
		})
	}
	var text string
	if err == nil {
		text, err = c.sub.encode(perm[:k])
	}
	if err != nil {
		r.Error = err.Error()
		return
	}
	r.Tokens = c.count(text)
	c.sub.measure(text, r)
}

// allRecords returns 0, 1, ..., n-1.
func allRecords(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// goldSurvival counts the queries whose gold path is entirely in edges;
// with blankWildcard, blank node keys match any blank node.
func goldSurvival(queries []Query, edges []Triple, blankWildcard bool) int {
	key := func(t Triple) Triple {
		if blankWildcard {
			if isBlank(t.S) {
				t.S = "_:"
			}
			if isBlank(t.O) {
				t.O = "_:"
			}
		}
		return t
	}
	have := make(map[Triple]bool, len(edges))
	for _, e := range edges {
		have[key(e)] = true
	}
	n := 0
	for _, q := range queries {
		if !slices.ContainsFunc(q.GoldPath, func(e Triple) bool { return !have[key(e)] }) {
			n++
		}
	}
	return n
}

// rdfSubject is the budget subject of an RDF format: the statements of
// sorted in the order perm. The statement-line formats write the registry
// encoder's canonical line of each statement in that order; the others
// encode a dataset with the statements added in that order (and the
// input's prefixes and base).
func rdfSubject(d *rdf.Dataset, sorted []rdf.Quad, f formats.Format, perm []int, queries []Query) budgetSubject {
	sub := budgetSubject{total: len(sorted)}
	var lines []string
	if slices.Contains(statementLineFormats(), f.Name) {
		lines = statementLines(d, sorted, f)
	}
	sub.encode = func(recs []int) (string, error) {
		if lines != nil {
			var b strings.Builder
			for _, i := range recs {
				b.WriteString(lines[perm[i]])
			}
			return b.String(), nil
		}
		nd := rdf.NewDataset()
		for _, p := range d.Prefixes {
			nd.AddPrefix(p.Name, p.IRI)
		}
		nd.Base = d.Base
		for _, i := range recs {
			nd.Add(sorted[perm[i]])
		}
		return GuardedEncode(f, formats.NewInput(nd))
	}
	sub.measure = func(text string, r *GraphBudgetResult) {
		r.GoldPaths = len(queries)
		dec, err := GuardedDecode(f.Decode, text)
		if err != nil {
			return
		}
		view := graph.FromRDF(dec, graph.Options{})
		edges := datasetEdges(dec)
		r.Parses, r.Retained = true, dec.Len()
		r.RetainedNodes, r.RetainedEdges = len(view.Nodes), len(view.Edges)
		r.Traversal = accuracy(queries, func() []Triple { return edges })
		r.GoldPathsSurvived = goldSurvival(queries, edges, true)
		r.GoldPathsSurvive = r.GoldPathsSurvived == r.GoldPaths
	}
	return sub
}

// statementLines returns the lines of f's canonical text, one per
// statement of sorted, when the text is exactly the canonical N-Quads line
// of each statement in order; nil otherwise (the format is then encoded
// as a whole, in its encoder's order).
func statementLines(d *rdf.Dataset, sorted []rdf.Quad, f formats.Format) []string {
	text, err := GuardedEncode(f, formats.NewInput(d))
	if err != nil {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if len(lines) == 0 || lines[len(lines)-1] != "" || len(lines)-1 != len(sorted) {
		return nil
	}
	lines = lines[:len(sorted)]
	for i, q := range sorted {
		var c strings.Builder
		rdf.AppendQuad(&c, q)
		if c.String()+"\n" != lines[i] {
			return nil
		}
	}
	return lines
}

// graphSubject is the budget subject of a labelled-graph format: the node
// and edge records of g in an ordering. For the interleaved ordering the
// records are the lines of the complete text (its header kept whole), in
// the interleaved order; otherwise the encoder writes the sub-graph of the
// chosen records.
func graphSubject(g *graph.Graph, f formats.Format, ordering string, queries []Query, seed uint64) budgetSubject {
	nodes, edges, recs := graphOrder(g, ordering, queries, seed)
	sub := budgetSubject{total: len(recs)}
	encodeGraph := func(sg *graph.Graph) (string, error) {
		return GuardedEncode(f, formats.NewGraphInput(sg))
	}
	if ordering == OrderInterleaved {
		full, err := encodeGraph(&graph.Graph{Directed: g.Directed, Nodes: nodes, Edges: edges})
		var lines encoded
		if err == nil {
			lines, err = recordLines(f, full, len(nodes), recs, func() (string, error) {
				return encodeGraph(&graph.Graph{Directed: g.Directed})
			})
		}
		sub.encode = func(k []int) (string, error) {
			if err != nil {
				return "", err
			}
			return strings.Join(slices.Concat(lines.header, lines.lines[:len(k)]), "\n") + lines.final, nil
		}
	} else {
		sub.encode = func(k []int) (string, error) {
			sg := &graph.Graph{Directed: g.Directed}
			for _, i := range k {
				if r := recs[i]; r.node >= 0 {
					sg.Nodes = append(sg.Nodes, nodes[r.node])
				} else {
					sg.Edges = append(sg.Edges, edges[r.edge])
				}
			}
			return encodeGraph(sg)
		}
	}
	sub.measure = func(text string, r *GraphBudgetResult) {
		r.GoldPaths = len(queries)
		dec, err := GuardedDecode(f.DecodeGraph, text)
		if err != nil {
			return
		}
		edges := labelledEdges(dec)
		r.Parses, r.Retained = true, len(dec.Nodes)+len(dec.Edges)
		r.RetainedNodes, r.RetainedEdges = len(dec.Nodes), len(dec.Edges)
		r.Traversal = accuracy(queries, func() []Triple { return edges })
		r.GoldPathsSurvived = goldSurvival(queries, edges, false)
		r.GoldPathsSurvive = r.GoldPathsSurvived == r.GoldPaths
	}
	return sub
}

// recordLines splits a line format's complete text (nodes then edges, one
// line per record after the header that the empty graph's text has) into
// its header and its record lines in the order recs.
func recordLines(f formats.Format, full string, nodes int, recs []record, empty func() (string, error)) (encoded, error) {
	final, body := "", full
	if strings.HasSuffix(body, "\n") {
		final, body = "\n", body[:len(body)-1]
	}
	var lines []string
	if body != "" {
		lines = strings.Split(body, "\n")
	}
	e, err := empty()
	if err != nil {
		return encoded{}, err
	}
	h := 0
	if e = strings.TrimSuffix(e, "\n"); e != "" {
		h = strings.Count(e, "\n") + 1
	}
	if len(lines) != h+len(recs) {
		return encoded{}, fmt.Errorf("%s: %d lines for %d records and %d header lines (a record spans lines)", f.Name, len(lines), len(recs), h)
	}
	out := encoded{header: lines[:h], final: final}
	for _, r := range recs {
		i := r.node
		if r.node < 0 {
			i = nodes + r.edge
		}
		out.lines = append(out.lines, lines[h+i])
	}
	return out, nil
}

// WriteGraphBudgetTable writes the budget study of RDF graphs: one row per
// graph, format, ordering and policy, saying whether the format's text is
// order-invariant, then one cell per budget: the traversal accuracy of the
// kept text ("ok" when the graph has no queries), the gold paths surviving
// out of the queries and the retained nodes (n) and edges (e); "-" when
// the kept text does not parse, "n/a" when the ordering does not apply to
// the format (the reasons follow the table), "err" when the format failed.
// The last column is the share of records kept at the largest budget.
func WriteGraphBudgetTable(w io.Writer, results []GraphBudgetResult, budgets []int) error {
	if len(budgets) == 0 {
		return nil
	}
	tw, flush := NewTable(w)
	fmt.Fprintln(tw, "# budget study: per budget, traversal accuracy, gold paths surviving/queries, retained nodes n and edges e (- does not parse, n/a ordering not applicable); records kept at the largest budget")
	head := []string{"graph", "format", "ordering", "policy", "text order"}
	for _, b := range budgets {
		head = append(head, strconv.Itoa(b))
	}
	head = append(head, "kept")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	// reasons[i] is a (ordering, reason) pair; formats[i] its formats.
	var reasons [][2]string
	var reasonFormats [][]string
	for i := 0; i+len(budgets) <= len(results); i += len(budgets) {
		cells := results[i : i+len(budgets)]
		first := cells[0]
		order := "sensitive"
		if first.OrderInvariant {
			order = "invariant"
		}
		row := []string{first.Graph, first.Format, first.Ordering, first.Policy, order}
		if first.NotApplicable != "" {
			row[4] = "-"
			key := [2]string{first.Ordering, first.NotApplicable}
			j := slices.Index(reasons, key)
			if j < 0 {
				j = len(reasons)
				reasons, reasonFormats = append(reasons, key), append(reasonFormats, nil)
			}
			if !slices.Contains(reasonFormats[j], first.Format) {
				reasonFormats[j] = append(reasonFormats[j], first.Format)
			}
		}
		for _, c := range cells {
			switch {
			case c.NotApplicable != "":
				row = append(row, "n/a")
			case c.Error != "":
				row = append(row, "err")
			case !c.Parses:
				row = append(row, "-")
			default:
				acc := "ok"
				if c.Traversal != nil {
					acc = strconv.FormatFloat(*c.Traversal, 'f', 2, 64)
				}
				row = append(row, fmt.Sprintf("%s %d/%d %dn %de", acc, c.GoldPathsSurvived, c.GoldPaths, c.RetainedNodes, c.RetainedEdges))
			}
		}
		last := cells[len(cells)-1]
		if last.NotApplicable != "" || last.Error != "" {
			row = append(row, "-")
		} else {
			row = append(row, fmt.Sprintf("%d/%d", last.Retained, last.Total))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := flush(); err != nil {
		return err
	}
	for j, r := range reasons {
		if _, err := fmt.Fprintf(w, "# %s not applicable to %s: %s\n", r[0], strings.Join(reasonFormats[j], ", "), r[1]); err != nil {
			return err
		}
	}
	return nil
}
