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
// formats in blue, those lossless for the labelled-graph view only in
// orange and marked "(graph view)", lossy ones in grey and marked
// "(lossy)", in the given order.
func tokenChart(title string, results []Result, tokenizer string) chart.HBars {
	c := chart.HBars{Title: title, Unit: tokenizer + " tokens", Plain: "lossless", Partial: "lossless for the graph view only", Muted: "lossy"}
	for _, r := range results {
		label := r.Format
		partial := r.Lossless && r.Scope == ScopeGraph
		switch {
		case !r.Lossless:
			label += " (lossy)"
		case partial:
			label += " (graph view)"
		}
		c.Bars = append(c.Bars, chart.HBar{Label: label, Value: float64(r.Tokens[tokenizer]), Muted: !r.Lossless, Partial: partial})
	}
	return c
}

// ParetoChart plots tokens (x) against mean score (y): frontier formats
// filled and joined by a step line, dominated ones hollow, their
// dominating format named in the tooltip.
func ParetoChart(title, yLabel string, pts []ParetoPoint) chart.Scatter {
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

// graphViewMarked returns the points with the formats of the graph that
// are lossless for the labelled-graph view only marked "(graph view)", as
// in the token chart.
func graphViewMarked(rep *Report, graph string, pts []ParetoPoint) []ParetoPoint {
	partial := map[string]bool{}
	for _, r := range rep.Results {
		if r.Graph == graph && r.Lossless && r.Scope == ScopeGraph {
			partial[r.Format] = true
		}
	}
	mark := func(name string) string {
		if partial[name] {
			return name + " (graph view)"
		}
		return name
	}
	out := make([]ParetoPoint, len(pts))
	for i, p := range pts {
		p.Name, p.DominatedBy = mark(p.Name), mark(p.DominatedBy)
		out[i] = p
	}
	return out
}

// CreateFile writes one file of an output directory, atomically.
func CreateFile(dir, name string, write func(io.Writer) error) error {
	return atomicfile.Write(filepath.Join(dir, name), 0o644, write)
}

// Section is one chart of index.html (File, an SVG file of the same
// directory), or a Note where a chart is left out.
type Section struct {
	Title, File, Note string
}

// indexStyle lets the charts scale down to narrow windows.
const indexStyle = "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:1200px}img{max-width:100%;height:auto}p.note{color:#555;font-style:italic}"

// WriteIndex writes index.html showing the charts and linking the data.
func WriteIndex(dir, title string, sections []Section) error {
	return CreateFile(dir, "index.html", func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"+
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>%s</title><style>%s</style></head><body>\n<h1>%s</h1>\n",
			html.EscapeString(title), indexStyle, html.EscapeString(title))
		fmt.Fprintln(bw, `<p>Data: <a href="report.json">report.json</a>, <a href="results.csv">results.csv</a>.</p>`)
		for _, s := range sections {
			fmt.Fprintf(bw, "<h2>%s</h2>\n", html.EscapeString(s.Title))
			if s.File == "" {
				fmt.Fprintf(bw, "<p class=\"note\">%s</p>\n", html.EscapeString(s.Note))
				continue
			}
			fmt.Fprintf(bw, "<p><img src=\"%s\" alt=\"%s\"></p>\n", html.EscapeString(s.File), html.EscapeString(s.Title))
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
	if err := CreateFile(dir, "report.json", func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
		return err
	}
	if err := CreateFile(dir, "results.csv", func(w io.Writer) error { return WriteCSV(w, rep) }); err != nil {
		return err
	}
	primary := ""
	if len(rep.Tokenizers) > 0 {
		primary = rep.Tokenizers[0]
	}
	var sections []Section
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
		if err := CreateFile(dir, tokName, tokenChart(title, shown, primary).WriteSVG); err != nil {
			return err
		}
		sections = append(sections, Section{Title: title, File: tokName})
		ptitle := fmt.Sprintf("%s: Pareto frontier of the lossless formats", g.Name)
		// Without traversal queries every format would score the same
		// made-up traversal accuracy: no chart.
		if len(g.Queries) == 0 {
			sections = append(sections, Section{Title: ptitle, Note: "no traversal queries on this graph: no Pareto chart of traversal accuracy"})
			continue
		}
		parName := fmt.Sprintf("pareto-%d.svg", i+1)
		pc := ParetoChart(ptitle, "mean of traversal accuracy and round-trip fidelity", graphViewMarked(rep, g.Name, rep.ParetoOf(g.Name)))
		if err := CreateFile(dir, parName, pc.WriteSVG); err != nil {
			return err
		}
		sections = append(sections, Section{Title: ptitle, File: parName})
	}
	return WriteIndex(dir, "isolda bench", sections)
}
