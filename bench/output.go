package bench

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/isolda"
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

// WriteTable writes the terminal table: first the summary (WriteSummary),
// then per graph a section for each scope (lossless for RDF, lossless for
// the labelled-graph view, LOSSY), each ranked by tokens of the primary
// tokenizer, then the formats that do not apply to the graph with the
// reason. A graph without traversal queries has no traversal column. No
// line ends in a space.
func WriteTable(w io.Writer, rep *Report) error {
	tw, flush := NewTable(w)
	writeSummary(tw, rep)
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	for _, g := range rep.Graphs {
		fmt.Fprintln(tw)
		hash := g.Hash
		if hash == "" {
			hash = "(" + g.HashError + ")"
		}
		queries := fmt.Sprintf("%d traversal queries", len(g.Queries))
		if !g.HasQueries() {
			queries = "no traversal queries (no links between named nodes to follow: traversal not measured)"
		}
		if g.Reference == "" {
			fmt.Fprintf(tw, "# %s: labelled graph, %d nodes, %d edges, %s, SHA-256 %s\n",
				g.Name, g.Nodes, g.Edges, queries, hash)
		} else {
			fmt.Fprintf(tw, "# %s: %d statements, %d nodes, %d edges, %s, RDFC-1.0 SHA-256 %s\n",
				g.Name, g.Quads, g.Nodes, g.Edges, queries, hash)
		}
		head := []string{"rank", "format", "lossless", "bytes"}
		head = append(head, rep.Tokenizers...)
		head = append(head, "ratio/"+cmp.Or(g.Reference, "-"), "fidelity")
		if g.HasQueries() {
			head = append(head, "traversal")
		}
		var skipped []Result
		rank := 0
		section := ""
		for _, r := range rep.Ranked(g.Name) {
			if r.Error != "" {
				skipped = append(skipped, r)
				continue
			}
			if r.Scope != section {
				section, rank = r.Scope, 0
				fmt.Fprintln(tw, sectionTitle(section))
				fmt.Fprintln(tw, strings.Join(head, "\t"))
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
			row = append(row, ratio, r.Fidelity)
			if g.HasQueries() {
				row = append(row, traversalText(r.Traversal))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		writeNotApplicable(tw, skipped)
	}
	if err := flush(); err != nil {
		return err
	}
	if len(rep.Budgets) > 0 {
		fmt.Fprintln(w)
		return WriteGraphBudgetTable(w, rep.Budgets, rep.BudgetList)
	}
	return nil
}

// writeNotApplicable lists the formats that could not encode a graph,
// grouped by reason (reasons that differ only in numbers and in the
// format's own name count as one, shown as the first's), in the order of
// the reasons' first formats.
func writeNotApplicable(w io.Writer, skipped []Result) {
	var keys []string
	byKey := map[string][]Result{}
	for _, r := range skipped {
		k := reasonKey(r)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], r)
	}
	for _, k := range keys {
		rs := byKey[k]
		names := make([]string, len(rs))
		same := true
		for i, r := range rs {
			names[i] = r.Format
			same = same && r.Error == rs[0].Error
		}
		why := rs[0].Error
		if !same {
			why += " (" + rs[0].Format + "; the others likewise)"
		}
		fmt.Fprintf(w, "# not applicable to this graph: %s: %s\n", strings.Join(names, ", "), why)
	}
}

// digits matches the numbers reasonKey ignores.
var digits = regexp.MustCompile(`[0-9]+`)

// reasonKey is a format's reason for not applying, without its numbers and
// without the format's own name (after the prefix up to '_').
func reasonKey(r Result) string {
	own := r.Format
	if _, after, ok := strings.Cut(own, "_"); ok {
		own = after
	}
	return digits.ReplaceAllString(strings.ReplaceAll(r.Error, own, "*"), "#")
}

// GraphSummary is what a user of the benchmark came for, per graph: the
// smallest lossless format, and ISOLDA's cost against Turtle and compacted
// JSON-LD, in tokens of the primary tokenizer.
type GraphSummary struct {
	Graph string `json:"graph"`
	// Statements is the number of RDF statements (0 for a labelled graph).
	Statements int `json:"statements"`
	// Smallest is the lossless format with the fewest tokens among those
	// whose round trip succeeded: an RDF-lossless one, or for a labelled
	// graph a graph-lossless one ("" when none succeeded); formats that
	// tie are joined by " = " ("trig = turtle").
	Smallest       string `json:"smallest_lossless"`
	SmallestTokens int    `json:"smallest_lossless_tokens"`
	// ISOLDA, Reference (Turtle, or TriG for named graphs) and JSONLD
	// (compacted) are token counts, 0 when the format was not run.
	ISOLDA          int    `json:"isolda_tokens"`
	Reference       string `json:"reference"`
	ReferenceTokens int    `json:"reference_tokens"`
	JSONLD          int    `json:"jsonld_compact_tokens"`
	// Glossary is what ISOLDA's glossary costs (-1 when unknown).
	Glossary int `json:"isolda_glossary_tokens"`
	// Lossless counts the lossless formats measured, RoundTrips those
	// whose round trip succeeded; RoundTripFailed names the others.
	Lossless        int      `json:"lossless"`
	RoundTrips      int      `json:"round_trips"`
	RoundTripFailed []string `json:"round_trip_failed,omitempty"`
	// Queries is the number of traversal queries; TraversalRight counts
	// the lossless formats that answered every one right.
	Queries        int `json:"queries"`
	TraversalRight int `json:"traversal_right"`
}

// SummaryJSONLD is the JSON-LD format of the summary: compacted, the form
// people write.
const SummaryJSONLD = "jsonld-compact"

// Summaries returns the summary of every graph, in the order of Graphs.
func (rep *Report) Summaries() []GraphSummary {
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	var out []GraphSummary
	for _, g := range rep.Graphs {
		s := GraphSummary{Graph: g.Name, Statements: g.Quads, Reference: g.Reference, Glossary: -1, Queries: len(g.Queries)}
		if v, ok := g.GlossaryTokens[primary]; ok {
			s.Glossary = v
		}
		scope := ScopeRDF
		if g.Reference == "" {
			scope = ScopeGraph
		}
		for _, r := range rep.Ranked(g.Name) {
			if r.Error != "" {
				continue
			}
			switch r.Format {
			case GlossaryFormat:
				s.ISOLDA = r.Tokens[primary]
			case SummaryJSONLD:
				s.JSONLD = r.Tokens[primary]
			}
			if r.Format == g.Reference && g.Reference != "" {
				s.ReferenceTokens = r.Tokens[primary]
			}
			if !r.Lossless {
				continue
			}
			s.Lossless++
			if r.RoundTripEqual {
				s.RoundTrips++
			} else {
				s.RoundTripFailed = append(s.RoundTripFailed, r.Format)
			}
			if r.Traversal != nil && *r.Traversal == 1 {
				s.TraversalRight++
			}
			// Ranked sorts by tokens: the first clean ones of the scope are
			// the smallest (several when they tie).
			if r.Scope == scope && r.RoundTripEqual && (s.Smallest == "" || r.Tokens[primary] == s.SmallestTokens) {
				if s.Smallest != "" {
					s.Smallest += " = "
				}
				s.Smallest, s.SmallestTokens = s.Smallest+r.Format, r.Tokens[primary]
			}
		}
		out = append(out, s)
	}
	return out
}

// writeSummary writes the summary table (Summaries) that leads the
// benchmark's output.
func writeSummary(w io.Writer, rep *Report) {
	primary := "tokens"
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0] + " tokens"
	}
	fmt.Fprintf(w, "# Which lossless format, at what cost (%s): the smallest, and ISOLDA %s (%s) against Turtle and JSON-LD\n",
		primary, isolda.V04, GlossaryFormat)
	fmt.Fprintln(w, "graph\tstatements\tsmallest lossless\tisolda\tvs turtle\tvs "+SummaryJSONLD+"\tisolda glossary\tround trip\ttraversal")
	for _, s := range rep.Summaries() {
		stmts := strconv.Itoa(s.Statements)
		if s.Reference == "" {
			stmts = "labelled graph"
		}
		smallest := "none"
		if s.Smallest != "" {
			smallest = fmt.Sprintf("%s %d", s.Smallest, s.SmallestTokens)
		}
		isoldaTokens, glossary := "-", "-"
		if s.ISOLDA > 0 {
			isoldaTokens = strconv.Itoa(s.ISOLDA)
			if s.Glossary >= 0 {
				glossary = fmt.Sprintf("%d (%s)", s.Glossary, percent(s.Glossary, s.ISOLDA))
			}
		}
		vsRef := versus(s.ISOLDA, s.ReferenceTokens)
		if s.Reference != "" && s.Reference != ReferenceFormat && vsRef != "-" {
			vsRef += " (" + s.Reference + ")"
		}
		trip := fmt.Sprintf("%d/%d lossless exact", s.RoundTrips, s.Lossless)
		if len(s.RoundTripFailed) > 0 {
			trip += "; FAIL: " + strings.Join(s.RoundTripFailed, ", ")
		}
		trav := "no queries"
		if s.Queries > 0 {
			trav = fmt.Sprintf("%d/%d all right on %d queries", s.TraversalRight, s.Lossless, s.Queries)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Graph, stmts, smallest, isoldaTokens, vsRef,
			versus(s.ISOLDA, s.JSONLD), glossary, trip, trav)
	}
}

// versus renders a token count against another: "+185 (+54.6%)", or "-"
// when either is missing.
func versus(n, than int) string {
	if n <= 0 || than <= 0 {
		return "-"
	}
	d := n - than
	return fmt.Sprintf("%+d (%+.1f%%)", d, 100*float64(d)/float64(than))
}

// percent renders part/whole as a percentage with one decimal.
func percent(part, whole int) string {
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

// NewTable returns a tabwriter for the terminal tables that writes
// through a trimWriter, and the function that flushes both.
func NewTable(w io.Writer) (*tabwriter.Writer, func() error) {
	t := &trimWriter{w: w}
	tw := tabwriter.NewWriter(t, 0, 4, 2, ' ', 0)
	return tw, func() error {
		if err := tw.Flush(); err != nil {
			return err
		}
		return t.Flush()
	}
}

// trimWriter removes the spaces and tabs at the end of every line it
// writes: tabwriter pads the last cell of a row that ends in a tab or an
// empty cell.
type trimWriter struct {
	w    io.Writer
	line []byte
}

// Write implements io.Writer; it holds back the last, unfinished line.
func (t *trimWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.line = append(t.line, p...)
			break
		}
		t.line = append(t.line, p[:i]...)
		t.line = append(bytes.TrimRight(t.line, " \t"), '\n')
		if _, err := t.w.Write(t.line); err != nil {
			return 0, err
		}
		t.line, p = t.line[:0], p[i+1:]
	}
	return n, nil
}

// Flush writes the unfinished line, trimmed.
func (t *trimWriter) Flush() error {
	if len(t.line) == 0 {
		return nil
	}
	_, err := t.w.Write(bytes.TrimRight(t.line, " \t"))
	t.line = t.line[:0]
	return err
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
