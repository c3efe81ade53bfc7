package bench

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Bar is one bar of a token chart.
type Bar struct {
	Label    string
	Value    int
	Lossless bool
}

// WriteTokensSVG writes a horizontal bar chart of token counts: lossless
// formats in blue, lossy ones in grey and marked "(lossy)", in the given
// order.
func WriteTokensSVG(w io.Writer, title string, bars []Bar) error {
	const left, right, row, top = 230, 90, 18, 40
	width := 820
	height := top + row*len(bars) + 20
	maxV := 1
	for _, b := range bars {
		maxV = max(maxV, b.Value)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(bw, `<text x="10" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	for i, b := range bars {
		y := top + i*row
		length := float64(width-left-right) * float64(b.Value) / float64(maxV)
		fill, label := "#3465a4", b.Label
		if !b.Lossless {
			fill, label = "#aaaaaa", b.Label+" (lossy)"
		}
		fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-6, y+12, html.EscapeString(label))
		fmt.Fprintf(bw, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", left, y+2, length, row-4, fill)
		fmt.Fprintf(bw, `<text x="%.1f" y="%d">%d</text>`+"\n", float64(left)+length+4, y+12, b.Value)
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// WriteParetoSVG writes a scatter plot of tokens (x) against mean score
// (y): frontier formats as filled red dots joined by a line, dominated
// formats as hollow grey circles.
func WriteParetoSVG(w io.Writer, title, yLabel string, pts []ParetoPoint) error {
	const width, height, left, bottom, top, right = 820, 520, 70, 60, 40, 160
	maxT := 1
	for _, p := range pts {
		maxT = max(maxT, p.Tokens)
	}
	x := func(t int) float64 { return left + float64(width-left-right)*float64(t)/float64(maxT) }
	y := func(s float64) float64 { return float64(height-bottom) - float64(height-bottom-top)*s }
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(bw, `<text x="10" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-right, height-bottom)
	fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	for _, s := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(bw, `<text x="%d" y="%.1f" text-anchor="end">%.2f</text>`+"\n", left-4, y(s)+4, s)
	}
	for i := 0; i <= 4; i++ {
		t := maxT * i / 4
		fmt.Fprintf(bw, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(t), height-bottom+16, t)
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle">tokens of the complete text</text>`+"\n", (left+width-right)/2, height-bottom+36)
	fmt.Fprintf(bw, `<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">%s</text>`+"\n",
		(top+height-bottom)/2, (top+height-bottom)/2, html.EscapeString(yLabel))
	var line []string
	for _, p := range pts {
		if !p.Dominated {
			line = append(line, strconv.FormatFloat(x(p.Tokens), 'f', 1, 64)+","+strconv.FormatFloat(y(p.Mean()), 'f', 1, 64))
		}
	}
	if len(line) > 1 {
		fmt.Fprintf(bw, `<polyline points="%s" fill="none" stroke="#cc0000" stroke-dasharray="4 3"/>`+"\n", strings.Join(line, " "))
	}
	for i, p := range pts {
		px, py := x(p.Tokens), y(p.Mean())
		label := p.Name
		if p.Dominated {
			label += " (dominated by " + p.DominatedBy + ")"
			fmt.Fprintf(bw, `<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#888888"/>`+"\n", px, py)
		} else {
			fmt.Fprintf(bw, `<circle cx="%.1f" cy="%.1f" r="5" fill="#cc0000"/>`+"\n", px, py)
		}
		// Stagger labels so that formats with equal scores stay readable;
		// labels of points on the right half run leftwards.
		lx, anchor := px+7, "start"
		if px > float64(left+width-right)/2 {
			lx, anchor = px-7, "end"
		}
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`+"\n", lx, py-6-float64(i%4)*11, anchor, html.EscapeString(label))
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// createFile writes one file of an output directory.
func createFile(dir, name string, write func(io.Writer) error) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeIndex writes index.html showing the charts and linking the data.
func writeIndex(dir, title string, sections [][2]string) error {
	return createFile(dir, "index.html", func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n<h1>%s</h1>\n",
			html.EscapeString(title), html.EscapeString(title))
		fmt.Fprintln(bw, `<p>Data: <a href="report.json">report.json</a>, <a href="results.csv">results.csv</a>.</p>`)
		for _, s := range sections {
			fmt.Fprintf(bw, "<h2>%s</h2>\n<p><img src=\"%s\" alt=\"%s\"></p>\n",
				html.EscapeString(s[0]), html.EscapeString(s[1]), html.EscapeString(s[0]))
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
	var sections [][2]string
	for i, g := range rep.Graphs {
		var bars []Bar
		for _, r := range rep.Ranked(g.Name) {
			if r.Error == "" {
				bars = append(bars, Bar{Label: r.Format, Value: r.Tokens[primary], Lossless: r.Lossless})
			}
		}
		tokName := fmt.Sprintf("tokens-%d.svg", i+1)
		title := fmt.Sprintf("%s: %s tokens per format", g.Name, primary)
		if err := createFile(dir, tokName, func(w io.Writer) error { return WriteTokensSVG(w, title, bars) }); err != nil {
			return err
		}
		parName := fmt.Sprintf("pareto-%d.svg", i+1)
		ptitle := fmt.Sprintf("%s: Pareto frontier of the lossless formats", g.Name)
		pts := rep.ParetoOf(g.Name)
		if err := createFile(dir, parName, func(w io.Writer) error {
			return WriteParetoSVG(w, ptitle, "mean of traversal accuracy and round-trip fidelity", pts)
		}); err != nil {
			return err
		}
		sections = append(sections, [2]string{title, tokName}, [2]string{ptitle, parName})
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
	var bars []Bar
	for _, f := range rep.Formats {
		if f.Result.UTF8Bytes > 0 {
			bars = append(bars, Bar{Label: f.Name, Value: f.Result.Tokens, Lossless: f.Result.Lossless})
		}
	}
	title := fmt.Sprintf("synthetic services %d/%d/%d: %s tokens per format", rep.Parameters.Services,
		rep.Parameters.NoiseEdges, rep.Parameters.Seed, rep.Parameters.Encoding)
	if err := createFile(dir, "tokens.svg", func(w io.Writer) error { return WriteTokensSVG(w, title, bars) }); err != nil {
		return err
	}
	ptitle := "Pareto frontier: tokens against budget survival"
	ylabel := "mean traversal accuracy over the budgets (record-aware)"
	if len(rep.Budgets) == 0 {
		ylabel = "traversal accuracy"
	}
	pts := rep.ParetoFrontier()
	if err := createFile(dir, "pareto.svg", func(w io.Writer) error { return WriteParetoSVG(w, ptitle, ylabel, pts) }); err != nil {
		return err
	}
	return writeIndex(dir, "isolda bench --synthetic services", [][2]string{{title, "tokens.svg"}, {ptitle, "pareto.svg"}})
}
