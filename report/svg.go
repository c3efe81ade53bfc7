package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
)

// Bar is one bar of a bar chart: a value in [0, 1] with an interval drawn
// as an error bar (NaN bounds draw none).
type Bar struct {
	Label         string
	Value, Lo, Hi float64
}

// BarGroup is a labelled cluster of bars.
type BarGroup struct {
	Label string
	Bars  []Bar
}

// BarChart is a grouped bar chart with error bars.
type BarChart struct {
	Title  string
	YLabel string
	// YMax is the top of the y axis; 0 means 1 (proportions). Values are
	// clamped to [0, YMax].
	YMax   float64
	Groups []BarGroup
}

// ScatterPoint is one labelled point; Highlight marks points of the Pareto
// front.
type ScatterPoint struct {
	Label     string
	X, Y      float64
	Highlight bool
}

// ScatterChart plots labelled points with the highlighted ones joined by a
// step line (the Pareto front).
type ScatterChart struct {
	Title          string
	XLabel, YLabel string
	Points         []ScatterPoint
}

// colour returns the i-th colour of a colour-blind-safe qualitative palette
// (Okabe and Ito), cycling.
func colour(i int) string {
	palette := [...]string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}
	return palette[i%len(palette)]
}

func esc(s string) string { return html.EscapeString(s) }

func f2(x float64) string { return fmt.Sprintf("%.2f", x) }

// WriteSVG writes the bar chart as a standalone SVG element (no scripts, no
// external references). Bars with the same label share a colour, assigned
// in sorted label order.
func (c BarChart) WriteSVG(w io.Writer) error {
	var labels []string
	nbars := 0
	for _, g := range c.Groups {
		for _, b := range g.Bars {
			if !slices.Contains(labels, b.Label) {
				labels = append(labels, b.Label)
			}
			nbars++
		}
	}
	slices.Sort(labels)
	ymax := c.YMax
	if !(ymax > 0) || math.IsInf(ymax, 0) {
		ymax = 1
	}
	maxGroup := 0
	for _, g := range c.Groups {
		maxGroup = max(maxGroup, len([]rune(g.Label)))
	}
	// Group labels are rotated by 30°: leave room for them on the left
	// and below.
	const barW, gap, top, plotH = 18.0, 14.0, 36.0, 220.0
	left := max(56, 5.5*float64(maxGroup))
	bottom := max(70, 30+3.5*float64(maxGroup))
	width := left + float64(nbars)*barW + float64(len(c.Groups)+1)*gap + 20
	legendW := 0.0
	for _, l := range labels {
		legendW = max(legendW, float64(len([]rune(l)))*7+24)
	}
	width += legendW
	height := top + plotH + bottom
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" class="chart bar-chart">`+"\n",
		f2(width), f2(height), f2(width), f2(height), esc(c.Title))
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(c.Title))
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f2(width), f2(height))
	fmt.Fprintf(&b, `<text x="%s" y="20" font-family="sans-serif" font-size="14" font-weight="bold">%s</text>`+"\n", f2(left), esc(c.Title))
	clampY := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return min(max(v, 0), ymax)
	}
	y := func(v float64) float64 { return top + plotH*(1-clampY(v)/ymax) }
	// Axis and grid.
	plotRight := width - legendW - 10
	for i := 0; i <= 5; i++ {
		v := ymax * float64(i) / 5
		tick := trimFloat(v)
		if ymax == 1 {
			tick = fmt.Sprintf("%.1f", v)
		}
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", f2(left), f2(y(v)), f2(plotRight), f2(y(v)))
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="10" text-anchor="end">%s</text>`+"\n", f2(left-4), f2(y(v)+3), tick)
	}
	yl := left - 40
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="11" transform="rotate(-90 %s %s)" text-anchor="middle">%s</text>`+"\n",
		f2(yl), f2(top+plotH/2), f2(yl), f2(top+plotH/2), esc(c.YLabel))
	x := left + gap
	for _, g := range c.Groups {
		gx := x
		for _, bar := range g.Bars {
			col := colour(slices.Index(labels, bar.Label))
			v := clampY(bar.Value)
			fmt.Fprintf(&b, `<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s — %s: %s</title></rect>`+"\n",
				f2(x), f2(y(v)), f2(barW-2), f2(plotH*v/ymax), col, esc(g.Label), esc(bar.Label), fmtInterval(bar))
			if !math.IsNaN(bar.Lo) && !math.IsNaN(bar.Hi) {
				cx := x + (barW-2)/2
				lo, hi := y(bar.Lo), y(bar.Hi)
				fmt.Fprintf(&b, `<path class="errorbar" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="#333333" fill="none"/>`+"\n",
					f2(cx), f2(lo), f2(hi), f2(cx-3), f2(lo), f2(cx+3), f2(cx-3), f2(hi), f2(cx+3))
			}
			x += barW
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="11" text-anchor="end" transform="rotate(-30 %s %s)">%s</text>`+"\n",
			f2((gx+x)/2), f2(top+plotH+14), f2((gx+x)/2), f2(top+plotH+14), esc(g.Label))
		x += gap
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>`+"\n", f2(left), f2(y(0)), f2(plotRight), f2(y(0)))
	for i, l := range labels {
		ly := top + float64(i)*16
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/><text x="%s" y="%s" font-family="sans-serif" font-size="11">%s</text>`+"\n",
			f2(plotRight+10), f2(ly), colour(i), f2(plotRight+24), f2(ly+9), esc(l))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtInterval(b Bar) string {
	if math.IsNaN(b.Lo) || math.IsNaN(b.Hi) {
		return fmt.Sprintf("%.4f", b.Value)
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", b.Value, b.Lo, b.Hi)
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return min(max(v, 0), 1)
}

// WriteSVG writes the scatter chart as a standalone SVG element: the x axis
// spans 0 to the largest X (rounded up), the y axis 0 to 1; highlighted
// points are filled and joined by a step line in order of X.
func (c ScatterChart) WriteSVG(w io.Writer) error {
	const width, height, left, top, plotW, plotH = 520.0, 330.0, 60.0, 36.0, 420.0, 240.0
	xmax := 0.0
	for _, p := range c.Points {
		if !math.IsNaN(p.X) && !math.IsInf(p.X, 0) {
			xmax = max(xmax, p.X)
		}
	}
	xmax = niceCeil(xmax * 1.05) // room for the rightmost point's label
	px := func(v float64) float64 { return left + plotW*min(max(v, 0), xmax)/xmax }
	py := func(v float64) float64 { return top + plotH*(1-clamp01(v)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" class="chart scatter-chart">`+"\n",
		f2(width), f2(height), f2(width), f2(height), esc(c.Title))
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(c.Title))
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f2(width), f2(height))
	fmt.Fprintf(&b, `<text x="%s" y="20" font-family="sans-serif" font-size="14" font-weight="bold">%s</text>`+"\n", f2(left), esc(c.Title))
	for i := 0; i <= 5; i++ {
		v := float64(i) / 5
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", f2(left), f2(py(v)), f2(left+plotW), f2(py(v)))
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="10" text-anchor="end">%.1f</text>`+"\n", f2(left-4), f2(py(v)+3), v)
		xv := xmax * v
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="10" text-anchor="middle">%s</text>`+"\n", f2(px(xv)), f2(top+plotH+14), trimFloat(xv))
	}
	fmt.Fprintf(&b, `<path d="M%s %sV%sH%s" stroke="#000000" fill="none"/>`+"\n", f2(left), f2(top), f2(top+plotH), f2(left+plotW))
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="11" text-anchor="middle">%s</text>`+"\n", f2(left+plotW/2), f2(top+plotH+32), esc(c.XLabel))
	fmt.Fprintf(&b, `<text x="14" y="%s" font-family="sans-serif" font-size="11" transform="rotate(-90 14 %s)" text-anchor="middle">%s</text>`+"\n",
		f2(top+plotH/2), f2(top+plotH/2), esc(c.YLabel))
	var front []ScatterPoint
	for _, p := range c.Points {
		if p.Highlight && !math.IsNaN(p.X) && !math.IsNaN(p.Y) {
			front = append(front, p)
		}
	}
	slices.SortStableFunc(front, func(a, b ScatterPoint) int {
		if a.X != b.X {
			if a.X < b.X {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Label, b.Label)
	})
	if len(front) > 1 {
		var d strings.Builder
		fmt.Fprintf(&d, "M%s %s", f2(px(front[0].X)), f2(py(front[0].Y)))
		for _, p := range front[1:] {
			fmt.Fprintf(&d, "H%sV%s", f2(px(p.X)), f2(py(p.Y)))
		}
		fmt.Fprintf(&b, `<path class="front" d="%s" stroke="#D55E00" stroke-width="1.5" fill="none"/>`+"\n", d.String())
	}
	for _, p := range c.Points {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) {
			continue
		}
		fill, cls := "#ffffff", "point"
		if p.Highlight {
			fill, cls = "#D55E00", "point front-point"
		}
		fmt.Fprintf(&b, `<circle class="%s" cx="%s" cy="%s" r="5" fill="%s" stroke="#333333"><title>%s: %.1f tokens, accuracy %.4f</title></circle>`+"\n",
			cls, f2(px(p.X)), f2(py(p.Y)), fill, esc(p.Label), p.X, p.Y)
		lx, anchor := px(p.X)+7, "start"
		if px(p.X) > left+plotW*0.75 {
			lx, anchor = px(p.X)-7, "end"
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="10" text-anchor="%s">%s</text>`+"\n", f2(lx), f2(py(p.Y)-6), anchor, esc(p.Label))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// niceCeil rounds x up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a
// power of ten (1 for x ≤ 0 or not finite).
func niceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if x <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func trimFloat(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2g", x)
}
