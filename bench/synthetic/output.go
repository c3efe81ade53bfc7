package synthetic

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/chart"
)

// WriteTable writes the synthetic report as terminal tables: the
// formats (the article's first, then the registry's, lossy ones marked
// LOSSY) with bytes, tokens per tokenizer, ratio to pretty_json, round
// trip and traversal; then, with a budget study, traversal accuracy per
// budget for each format, ordering and policy ("-" where the kept text
// does not parse).
func WriteTable(w io.Writer, rep *Report) error {
	tw, flush := bench.NewTable(w)
	p := rep.Parameters
	fmt.Fprintf(tw, "# synthetic services: services %d, noise edges %d, seed %d -> %d nodes, %d edges; graph sha256 %s\n",
		p.Services, p.NoiseEdges, p.Seed, rep.Graph.Nodes, rep.Graph.Edges, rep.GraphHash)
	head := []string{"format", "source", "lossless", "bytes", "chars"}
	head = append(head, rep.Tokenizers...)
	head = append(head, "ratio/pretty_json", "round_trip", "traversal", "sha256")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	ref := 0
	for _, f := range rep.Formats {
		if f.Name == graphrag.PrettyJSON {
			ref = f.Result.Tokens
		}
	}
	for _, f := range rep.Formats {
		r := f.Result
		source := "registry"
		if r.Reference {
			source = "article"
		} else if _, ok := graphrag.Lookup(f.Name); ok {
			source = "article+"
		}
		lossless := "yes"
		if !r.Lossless {
			lossless = "LOSSY"
		}
		if r.Error != "" && r.UTF8Bytes == 0 {
			row := []string{f.Name, source, lossless}
			for range len(head) - 4 {
				row = append(row, "-")
			}
			fmt.Fprintln(tw, strings.Join(append(row, "n/a: "+r.Error), "\t"))
			continue
		}
		row := []string{f.Name, source, lossless, strconv.Itoa(r.UTF8Bytes), strconv.Itoa(r.Characters)}
		for _, t := range rep.Tokenizers {
			row = append(row, strconv.Itoa(r.TokensBy[t]))
		}
		ratio := "-"
		if ref > 0 {
			ratio = strconv.FormatFloat(float64(r.Tokens)/float64(ref), 'f', 3, 64)
		}
		rt, tr := strconv.FormatBool(r.RoundTripEqual), strconv.FormatFloat(r.TraversalAccuracy, 'f', 2, 64)
		if !r.Lossless {
			rt, tr = "-", "-"
		}
		row = append(row, ratio, rt, tr, short(r.SHA256))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if bp := rep.BudgetParameters; bp != nil && len(bp.Budgets) > 0 && len(rep.Budgets) > 0 {
		fmt.Fprintf(tw, "\n# budget study (%s tokens): traversal accuracy of the kept text, - when it does not parse, n/a when the ordering does not apply\n", bp.Tokenizer)
		head := []string{"format", "ordering", "policy"}
		for _, b := range bp.Budgets {
			head = append(head, strconv.Itoa(b))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for i := 0; i < len(rep.Budgets); i += len(bp.Budgets) {
			first := rep.Budgets[i]
			row := []string{first.Format, first.Ordering, first.Policy}
			for _, b := range rep.Budgets[i:min(i+len(bp.Budgets), len(rep.Budgets))] {
				switch {
				case b.Error != "":
					row = append(row, "n/a")
				case !b.Parses:
					row = append(row, "-")
				default:
					row = append(row, strconv.FormatFloat(b.TraversalAccuracy, 'f', 2, 64))
				}
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
	}
	if pts := rep.ParetoFrontier(); len(pts) > 0 {
		fmt.Fprintln(tw, "\n# Pareto frontier (tokens against traversal accuracy at every budget, record-aware, canonical order)")
		fmt.Fprintln(tw, "format\ttokens\tmean accuracy\tdominated by\t")
		for _, pt := range pts {
			by := "- (frontier)"
			if pt.Dominated {
				by = pt.DominatedBy
			}
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%s\t\n", pt.Name, pt.Tokens, pt.Mean(), by)
		}
	}
	fmt.Fprintf(tw, "# %d formats, %.0f ms\n", len(rep.Formats), rep.Millis)
	return flush()
}

// short abbreviates a hash for the table.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// WriteCSV writes one row per format, then one row per budget
// cell (kind "budget"); every row ends with the graph's seed and the
// shuffle seed of the budget study.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	head := []string{"kind", "format", "lossless", "reference", "utf8_bytes", "characters", "tokens"}
	for _, t := range rep.Tokenizers {
		head = append(head, "tokens_"+t)
	}
	head = append(head, "round_trip_equal", "traversal_accuracy", "sha256", "ordering", "policy", "budget_tokens",
		"parse_success", "retained_nodes", "retained_edges", "evidence_survival", "gold_paths_survive", "error",
		"seed", "shuffle_seed")
	if err := cw.Write(head); err != nil {
		return err
	}
	seed := strconv.FormatInt(rep.Parameters.Seed, 10)
	shuffleSeed := ""
	if rep.BudgetParameters != nil {
		shuffleSeed = strconv.FormatUint(rep.BudgetParameters.ShuffleSeed, 10)
	}
	pad := func(row []string) []string {
		for len(row) < len(head)-2 {
			row = append(row, "")
		}
		return append(row, seed, shuffleSeed)
	}
	for _, f := range rep.Formats {
		r := f.Result
		row := []string{"format", f.Name, strconv.FormatBool(r.Lossless), strconv.FormatBool(r.Reference),
			strconv.Itoa(r.UTF8Bytes), strconv.Itoa(r.Characters), strconv.Itoa(r.Tokens)}
		for _, t := range rep.Tokenizers {
			row = append(row, strconv.Itoa(r.TokensBy[t]))
		}
		row = append(row, strconv.FormatBool(r.RoundTripEqual), strconv.FormatFloat(r.TraversalAccuracy, 'f', 6, 64),
			r.SHA256, "", "", "", "", "", "", "", "", r.Error)
		if err := cw.Write(pad(row)); err != nil {
			return err
		}
	}
	for _, b := range rep.Budgets {
		row := []string{"budget", b.Format, "", "", "", "", strconv.Itoa(b.Tokens)}
		for range rep.Tokenizers {
			row = append(row, "")
		}
		row = append(row, "", strconv.FormatFloat(b.TraversalAccuracy, 'f', 6, 64), "", b.Ordering, b.Policy,
			strconv.Itoa(b.Budget), strconv.FormatBool(b.Parses), strconv.Itoa(b.Nodes), strconv.Itoa(b.Edges),
			strconv.FormatFloat(b.EvidenceSurvival, 'f', 6, 64), strconv.FormatBool(b.GoldPathsSurvive), b.Error)
		if err := cw.Write(pad(row)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteDir writes report.json, results.csv, tokens.svg,
// pareto.svg and index.html for a synthetic report into dir, creating it.
func WriteDir(dir string, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := bench.CreateFile(dir, "report.json", func(w io.Writer) error { return bench.WriteJSON(w, rep) }); err != nil {
		return err
	}
	if err := bench.CreateFile(dir, "results.csv", func(w io.Writer) error { return WriteCSV(w, rep) }); err != nil {
		return err
	}
	title := fmt.Sprintf("synthetic services %d/%d/%d: %s tokens per format", rep.Parameters.Services,
		rep.Parameters.NoiseEdges, rep.Parameters.Seed, rep.Parameters.Encoding)
	tc := chart.HBars{Title: title, Unit: rep.Parameters.Encoding + " tokens", Plain: "lossless", Muted: "lossy"}
	for _, f := range rep.Formats {
		if f.Result.UTF8Bytes > 0 {
			label := f.Name
			if !f.Result.Lossless {
				label += " (lossy)"
			}
			tc.Bars = append(tc.Bars, chart.HBar{Label: label, Value: float64(f.Result.Tokens), Muted: !f.Result.Lossless})
		}
	}
	if err := bench.CreateFile(dir, "tokens.svg", tc.WriteSVG); err != nil {
		return err
	}
	ptitle := "Pareto frontier: tokens against budget survival"
	ylabel := "mean traversal accuracy over the budgets (record-aware)"
	if len(rep.Budgets) == 0 {
		ylabel = "traversal accuracy"
	}
	if err := bench.CreateFile(dir, "pareto.svg", bench.ParetoChart(ptitle, ylabel, rep.ParetoFrontier()).WriteSVG); err != nil {
		return err
	}
	return bench.WriteIndex(dir, "isolda bench --synthetic services", []bench.Section{{Title: title, File: "tokens.svg"}, {Title: ptitle, File: "pareto.svg"}})
}
