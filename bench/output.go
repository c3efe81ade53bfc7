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

// CSVHeader returns the CSV columns for the given tokenizers.
func CSVHeader(tokenizers []string) []string {
	h := []string{"graph", "graph_hash", "format", "family", "input_model", "lossless", "lossless_scope", "utf8_bytes", "characters"}
	for _, t := range tokenizers {
		h = append(h, "tokens_"+t)
	}
	for _, t := range tokenizers {
		h = append(h, "ratio_to_turtle_"+t)
	}
	return append(h, "fidelity", "round_trip_equal", "traversal_accuracy", "sha256", "error")
}

// WriteCSV writes one row per graph × format, in the order of Results.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader(rep.Tokenizers)); err != nil {
		return err
	}
	for _, r := range rep.Results {
		row := []string{r.Graph, r.GraphHash, r.Format, r.Family, r.Input, strconv.FormatBool(r.Lossless), r.Scope,
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
		tr := ""
		if r.Traversal != nil {
			tr = strconv.FormatFloat(*r.Traversal, 'f', 6, 64)
		}
		row = append(row, r.Fidelity, strconv.FormatBool(r.RoundTripEqual), tr, r.SHA256, r.Error)
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
