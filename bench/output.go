package bench

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Ranked returns the results of one graph in table order: the formats
// lossless for RDF by the primary tokenizer's count (then name), then the
// formats lossless for the labelled-graph view only, then the lossy ones,
// each the same way, then the formats that could not encode the graph.
func (rep *Report) Ranked(graph string) []Result {
	var rs []Result
	for _, r := range rep.Results {
		if r.Graph == graph {
			rs = append(rs, r)
		}
	}
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	group := func(r Result) int {
		if r.Error != "" {
			return 3
		}
		return max(slices.Index(scopes(), r.Scope), 0)
	}
	slices.SortStableFunc(rs, func(a, b Result) int {
		return cmp.Or(cmp.Compare(group(a), group(b)), cmp.Compare(a.Tokens[primary], b.Tokens[primary]),
			strings.Compare(a.Format, b.Format))
	})
	return rs
}

// scopes are the table sections in order.
func scopes() []string { return []string{ScopeRDF, ScopeGraph, ScopeLossy} }

// sectionTitle heads a table section.
func sectionTitle(scope string) string {
	switch scope {
	case ScopeRDF:
		return "## lossless: decode to a dataset isomorphic to the input"
	case ScopeGraph:
		return "## lossless for the labelled-graph view only (node ids, types, typed edges; other literals and named graphs dropped): not comparable with the RDF formats"
	}
	return "## LOSSY formats (no decoder; not ranked with the lossless ones)"
}

// traversalText renders a traversal accuracy.
func traversalText(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'f', 2, 64)
}

// WriteTable writes the terminal table: per graph, a section for each
// scope (lossless for RDF, lossless for the labelled-graph view, LOSSY),
// each ranked by tokens of the primary tokenizer, then one line naming the
// formats that do not apply to the graph.
func WriteTable(w io.Writer, rep *Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	for gi, g := range rep.Graphs {
		if gi > 0 {
			fmt.Fprintln(tw)
		}
		hash := g.Hash
		if hash == "" {
			hash = "(" + g.HashError + ")"
		}
		if g.Reference == "" {
			fmt.Fprintf(tw, "# %s: labelled graph, %d nodes, %d edges, %d traversal queries, SHA-256 %s\n",
				g.Name, g.Nodes, g.Edges, len(g.Queries), hash)
		} else {
			fmt.Fprintf(tw, "# %s: %d statements, %d nodes, %d edges, %d traversal queries, RDFC-1.0 SHA-256 %s\n",
				g.Name, g.Quads, g.Nodes, g.Edges, len(g.Queries), hash)
		}
		head := []string{"rank", "format", "lossless", "bytes"}
		head = append(head, rep.Tokenizers...)
		head = append(head, "ratio/"+cmp.Or(g.Reference, "-"), "fidelity", "traversal")
		var skipped []string
		rank := 0
		section := ""
		for _, r := range rep.Ranked(g.Name) {
			if r.Error != "" {
				skipped = append(skipped, r.Format)
				continue
			}
			if r.Scope != section {
				section, rank = r.Scope, 0
				fmt.Fprintln(tw, sectionTitle(section))
				fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
			}
			rank++
			lossless := map[string]string{ScopeRDF: "RDF", ScopeGraph: "graph", ScopeLossy: "LOSSY"}[r.Scope]
			row := []string{strconv.Itoa(rank), r.Format, lossless, strconv.Itoa(r.UTF8Bytes)}
			for _, t := range rep.Tokenizers {
				row = append(row, strconv.Itoa(r.Tokens[t]))
			}
			ratio := "-"
			if v, ok := r.RatioToReference[primary]; ok {
				ratio = strconv.FormatFloat(v, 'f', 3, 64)
			}
			row = append(row, ratio, r.Fidelity, traversalText(r.Traversal))
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		if len(skipped) > 0 {
			fmt.Fprintf(tw, "# not applicable to this graph: %s\n", strings.Join(skipped, ", "))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Budgets) > 0 {
		fmt.Fprintln(w)
		return WriteGraphBudgetTable(w, rep.Budgets, rep.BudgetList)
	}
	return nil
}

// CSVHeader returns the CSV columns for the given tokenizers: kind
// ("format" for a Result, "budget" for a GraphBudgetResult), the format
// measurements, then the budget study's factors and measurements.
func CSVHeader(tokenizers []string) []string {
	h := []string{"kind", "graph", "graph_hash", "format", "family", "input_model", "lossless", "lossless_scope", "utf8_bytes", "characters"}
	for _, t := range tokenizers {
		h = append(h, "tokens_"+t)
	}
	for _, t := range tokenizers {
		h = append(h, "ratio_to_turtle_"+t)
	}
	h = append(h, "fidelity", "round_trip_equal", "traversal_accuracy", "sha256", "error")
	return append(h, budgetCSVColumns()...)
}

// budgetCSVColumns are the budget study's CSV columns.
func budgetCSVColumns() []string {
	return []string{"ordering", "shuffle_seed", "order_invariant", "not_applicable", "policy", "budget_tokens",
		"kept_tokens", "parse_success", "retained", "total", "retained_nodes", "retained_edges", "gold_paths",
		"gold_paths_survived", "gold_paths_survive"}
}

// WriteCSV writes one row per graph × format, in the order of Results,
// then one row per cell of the budget study, in the order of Budgets.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	head := CSVHeader(rep.Tokenizers)
	if err := cw.Write(head); err != nil {
		return err
	}
	floatText := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', 6, 64)
	}
	for _, r := range rep.Results {
		row := []string{"format", r.Graph, r.GraphHash, r.Format, r.Family, r.Input, strconv.FormatBool(r.Lossless), r.Scope,
			strconv.Itoa(r.UTF8Bytes), strconv.Itoa(r.Characters)}
		for _, t := range rep.Tokenizers {
			row = append(row, strconv.Itoa(r.Tokens[t]))
		}
		for _, t := range rep.Tokenizers {
			v, ok := r.RatioToReference[t]
			if ok {
				row = append(row, strconv.FormatFloat(v, 'f', 6, 64))
			} else {
				row = append(row, "")
			}
		}
		row = append(row, r.Fidelity, strconv.FormatBool(r.RoundTripEqual), floatText(r.Traversal), r.SHA256, r.Error)
		row = append(row, make([]string, len(budgetCSVColumns()))...)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	hashes := map[string]string{}
	for _, g := range rep.Graphs {
		hashes[g.Name] = g.Hash
	}
	for _, b := range rep.Budgets {
		row := []string{"budget", b.Graph, hashes[b.Graph], b.Format, "", "", "true", b.Scope, "", ""}
		for range rep.Tokenizers {
			row = append(row, "")
		}
		for range rep.Tokenizers {
			row = append(row, "")
		}
		row = append(row, "", "", floatText(b.Traversal), "", b.Error,
			b.Ordering, strconv.FormatUint(b.ShuffleSeed, 10), strconv.FormatBool(b.OrderInvariant), b.NotApplicable,
			b.Policy, strconv.Itoa(b.Budget), strconv.Itoa(b.Tokens), strconv.FormatBool(b.Parses),
			strconv.Itoa(b.Retained), strconv.Itoa(b.Total), strconv.Itoa(b.RetainedNodes), strconv.Itoa(b.RetainedEdges),
			strconv.Itoa(b.GoldPaths), strconv.Itoa(b.GoldPathsSurvived), strconv.FormatBool(b.GoldPathsSurvive))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes v (a *Report or *SyntheticReport) as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
