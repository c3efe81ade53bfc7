package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// GraphBudgetResult is one cell of the budget study of an RDF graph: a
// lossless format cut to a token budget.
type GraphBudgetResult struct {
	Graph  string `json:"graph"`
	Format string `json:"format"`
	Scope  string `json:"lossless_scope"`
	// Policy is PolicyRaw (the longest prefix of the text within the
	// budget) or PolicyRecord (the most statements, for RDF formats, or
	// node then edge records, for labelled-graph formats, in canonical
	// order whose encoding fits).
	Policy string `json:"policy"`
	Budget int    `json:"budget_tokens"`
	Tokens int    `json:"tokens"`
	Parses bool   `json:"parse_success"`
	// Retained and Total count statements (RDF formats) or node and edge
	// records (labelled-graph formats).
	Retained int `json:"retained"`
	Total    int `json:"total"`
	// Traversal is the accuracy of the graph's queries on the decoded
	// text; nil when it does not parse or the graph has no queries.
	Traversal *float64 `json:"traversal_accuracy"`
	Error     string   `json:"error,omitempty"`
}

// GraphBudgets runs the budget study on one graph for the lossless formats
// among fs that apply to it (the lossy ones have no decoder to measure
// with), with the primary tokenizer's count.
func GraphBudgets(in Input, fs []formats.Format, budgets []int, count func(string) int, queries int) []GraphBudgetResult {
	if queries <= 0 {
		queries = DefaultQueries
	}
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
		// encodeK encodes the first k records; decode measures a text.
		var encodeK func(k int) (string, error)
		var decode func(text string) (int, *float64, error)
		total := 0
		if scope == ScopeRDF {
			total = len(sorted)
			encodeK = func(k int) (string, error) {
				d := rdf.NewDataset()
				for _, p := range in.Dataset.Prefixes {
					d.AddPrefix(p.Name, p.IRI)
				}
				d.Base = in.Dataset.Base
				for _, q := range sorted[:k] {
					d.Add(q)
				}
				var b strings.Builder
				err := guard(func() error { return f.Encode(&b, formats.NewInput(d)) })
				return b.String(), err
			}
			decode = func(text string) (int, *float64, error) {
				var dec *rdf.Dataset
				err := guard(func() (err error) { dec, err = f.Decode(strings.NewReader(text)); return err })
				if err != nil {
					return 0, nil, err
				}
				return dec.Len(), accuracy(rdfQ, func() []Triple { return datasetEdges(dec) }), nil
			}
		} else {
			total = len(g.Nodes) + len(g.Edges)
			encodeK = func(k int) (string, error) {
				sub := &graph.Graph{Directed: g.Directed, Nodes: g.Nodes[:min(k, len(g.Nodes))]}
				if k > len(g.Nodes) {
					sub.Edges = g.Edges[:k-len(g.Nodes)]
				}
				var b strings.Builder
				err := guard(func() error { return f.Encode(&b, formats.NewGraphInput(sub)) })
				return b.String(), err
			}
			decode = func(text string) (int, *float64, error) {
				var dec *graph.Graph
				err := guard(func() (err error) { dec, err = f.DecodeGraph(strings.NewReader(text)); return err })
				if err != nil {
					return 0, nil, err
				}
				return len(dec.Nodes) + len(dec.Edges), accuracy(graphQ, func() []Triple { return labelledEdges(dec) }), nil
			}
		}
		full, err := encodeK(total)
		for _, policy := range Policies() {
			for _, b := range budgets {
				r := GraphBudgetResult{Graph: in.Name, Format: f.Name, Scope: scope, Policy: policy, Budget: b, Total: total}
				if err != nil {
					r.Error = err.Error()
					out = append(out, r)
					continue
				}
				var text string
				if policy == PolicyRaw {
					text = rawPrefix(full, b, count)
				} else {
					var ferr error
					k := largestFit(total, func(k int) bool {
						t, e := encodeK(k)
						if e != nil {
							ferr = e
							return false
						}
						return count(t) <= b
					})
					if ferr == nil {
						text, ferr = encodeK(k)
					}
					if ferr != nil {
						r.Error = ferr.Error()
						out = append(out, r)
						continue
					}
				}
				r.Tokens = count(text)
				if n, acc, derr := decode(text); derr == nil {
					r.Parses, r.Retained, r.Traversal = true, n, acc
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// WriteGraphBudgetTable writes the budget study of RDF graphs: per graph,
// format and policy, the traversal accuracy at each budget ("-" when the
// kept text does not parse, "ok" when it parses and the graph has no
// queries) and the share of records kept at the largest budget.
func WriteGraphBudgetTable(w io.Writer, results []GraphBudgetResult, budgets []int) error {
	if len(budgets) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "# budget study: traversal accuracy of the kept text (- does not parse), records kept at the largest budget")
	head := []string{"graph", "format", "policy"}
	for _, b := range budgets {
		head = append(head, strconv.Itoa(b))
	}
	head = append(head, "kept")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for i := 0; i+len(budgets) <= len(results); i += len(budgets) {
		cells := results[i : i+len(budgets)]
		row := []string{cells[0].Graph, cells[0].Format, cells[0].Policy}
		for _, c := range cells {
			switch {
			case c.Error != "":
				row = append(row, "n/a")
			case !c.Parses:
				row = append(row, "-")
			case c.Traversal == nil:
				row = append(row, "ok")
			default:
				row = append(row, strconv.FormatFloat(*c.Traversal, 'f', 2, 64))
			}
		}
		last := cells[len(cells)-1]
		row = append(row, fmt.Sprintf("%d/%d", last.Retained, last.Total))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}
