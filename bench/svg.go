package bench

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"

	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/internal/chart"
)

// tokenChart is the horizontal bar chart of token counts: lossless
// formats in blue, lossy ones in grey and marked "(lossy)", in the given
// order.
func tokenChart(title string, results []Result, tokenizer string) chart.HBars {
	c := chart.HBars{Title: title, Unit: tokenizer + " tokens", Plain: "lossless", Muted: "lossy"}
	for _, r := range results {
		label := r.Format
		if !r.Lossless {
			label += " (lossy)"
		}
		c.Bars = append(c.Bars, chart.HBar{Label: label, Value: float64(r.Tokens[tokenizer]), Muted: !r.Lossless})
	}
	return c
}

// paretoChart plots tokens (x) against mean score (y): frontier formats
// filled and joined by a step line, dominated ones hollow, their
// dominating format named in the tooltip.
func paretoChart(title, yLabel string, pts []ParetoPoint) chart.Scatter {
	c := chart.Scatter{Title: title, XLabel: "tokens of the complete text", YLabel: yLabel}
	for _, p := range pts {
		note := ""
		if p.Dominated {
			note = "dominated by " + p.DominatedBy
		}
		c.Points = append(c.Points, chart.Point{Label: p.Name, X: float64(p.Tokens), Y: p.Mean(), Front: !p.Dominated, Note: note})
	}
	return c
}

// createFile writes one file of an output directory, atomically.
func createFile(dir, name string, write func(io.Writer) error) error {
	return atomicfile.Write(filepath.Join(dir, name), 0o644, write)
}

// section is one chart of index.html, or a note where a chart is left
// out.
type section struct {
	title, file, note string
}

// indexStyle lets the charts scale down to narrow windows.
const indexStyle = "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:1200px}img{max-width:100%;height:auto}p.note{color:#555;font-style:italic}"

// writeIndex writes index.html showing the charts and linking the data.
func writeIndex(dir, title string, sections []section) error {
	return createFile(dir, "index.html", func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"+
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>%s</title><style>%s</style></head><body>\n<h1>%s</h1>\n",
			html.EscapeString(title), indexStyle, html.EscapeString(title))
		fmt.Fprintln(bw, `<p>Data: <a href="report.json">report.json</a>, <a href="results.csv">results.csv</a>.</p>`)
		for _, s := range sections {
			fmt.Fprintf(bw, "<h2>%s</h2>\n", html.EscapeString(s.title))
			if s.file == "" {
				fmt.Fprintf(bw, "<p class=\"note\">%s</p>\n", html.EscapeString(s.note))
				continue
			}
			fmt.Fprintf(bw, "<p><img src=\"%s\" alt=\"%s\"></p>\n", html.EscapeString(s.file), html.EscapeString(s.title))
		}
		fmt.Fprintln(bw, "</body></html>")
		return bw.Flush()
	})
}

// WriteDir writes report.json, results.csv, one token chart and one
// Pareto chart per graph (tokens-N.svg, pareto-N.svg) and index.html into
// dir, creating it.
func WriteDir(dir string, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := createFile(dir, "report.json", func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
		return err
	}
	if err := createFile(dir, "results.csv", func(w io.Writer) error { return WriteCSV(w, rep) }); err != nil {
		return err
	}
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	var sections []section
	for i, g := range rep.Graphs {
		var shown []Result
		for _, r := range rep.Ranked(g.Name) {
			// A format that wrote nothing (a template for another kind
			// of graph) has no bar.
			if r.Error == "" && r.UTF8Bytes > 0 {
				shown = append(shown, r)
			}
		}
		tokName := fmt.Sprintf("tokens-%d.svg", i+1)
		title := fmt.Sprintf("%s: %s tokens per format", g.Name, primary)
		if err := createFile(dir, tokName, tokenChart(title, shown, primary).WriteSVG); err != nil {
			return err
		}
		sections = append(sections, section{title: title, file: tokName})
		ptitle := fmt.Sprintf("%s: Pareto frontier of the lossless formats", g.Name)
		// Without traversal queries every format would score the same
		// made-up traversal accuracy: no chart.
		if len(g.Queries) == 0 {
			sections = append(sections, section{title: ptitle, note: "no traversal queries on this graph: no Pareto chart of traversal accuracy"})
			continue
		}
		parName := fmt.Sprintf("pareto-%d.svg", i+1)
		pc := paretoChart(ptitle, "mean of traversal accuracy and round-trip fidelity", rep.ParetoOf(g.Name))
		if err := createFile(dir, parName, pc.WriteSVG); err != nil {
			return err
		}
		sections = append(sections, section{title: ptitle, file: parName})
	}
	return writeIndex(dir, "isolda bench", sections)
}

// WriteSyntheticDir writes report.json, results.csv, tokens.svg,
// pareto.svg and index.html for a synthetic report into dir, creating it.
func WriteSyntheticDir(dir string, rep *SyntheticReport) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := createFile(dir, "report.json", func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
		return err
	}
	if err := createFile(dir, "results.csv", func(w io.Writer) error { return WriteSyntheticCSV(w, rep) }); err != nil {
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
	if err := createFile(dir, "tokens.svg", tc.WriteSVG); err != nil {
		return err
	}
	ptitle := "Pareto frontier: tokens against budget survival"
	ylabel := "mean traversal accuracy over the budgets (record-aware)"
	if len(rep.Budgets) == 0 {
		ylabel = "traversal accuracy"
	}
	if err := createFile(dir, "pareto.svg", paretoChart(ptitle, ylabel, rep.ParetoFrontier()).WriteSVG); err != nil {
		return err
	}
	return writeIndex(dir, "isolda bench --synthetic services", []section{{title: title, file: "tokens.svg"}, {title: ptitle, file: "pareto.svg"}})
}
