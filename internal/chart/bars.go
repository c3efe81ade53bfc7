package chart

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Bar is one bar of a grouped bar chart: a value with an interval drawn as
// an error bar (NaN bounds draw none).
type Bar struct {
	Label         string
	Value, Lo, Hi float64
}

// Group is a labelled cluster of bars.
type Group struct {
	Label string
	Bars  []Bar
}

// Bars is a grouped vertical bar chart with error bars. Bars with the same
// label share a colour, assigned in sorted label order, and a legend entry.
type Bars struct {
	Title  string
	YLabel string
	// YMax is the top of the y axis; 0 means 1 (proportions). Values are
	// clamped to [0, YMax].
	YMax   float64
	Groups []Group
	// Keys, when set, fix the colour of each bar label: Colour(i) for the
	// i-th key, so that a series keeps its colour from chart to chart.
	// Labels not among them follow, in sorted order.
	Keys []string
}

// colourOf is the colour of a bar label of a chart whose legend is labels.
func (c Bars) colourOf(labels []string, label string) string {
	if i := slices.Index(c.Keys, label); i >= 0 {
		return Colour(i)
	}
	i := len(c.Keys)
	for _, l := range labels {
		if l == label {
			break
		}
		if !slices.Contains(c.Keys, l) {
			i++
		}
	}
	return Colour(i)
}

// Geometry of a bar chart.
const (
	barW     = 18.0
	barGap   = 14.0
	barPlotH = 220.0
	maxGap   = 60.0
	cos30    = 0.8660254037844386
	legendH  = 16.0
)

// WriteSVG writes the chart as a standalone SVG element.
func (c Bars) WriteSVG(w io.Writer) error {
	_, err := io.WriteString(w, c.SVG())
	return err
}

// SVG returns the chart as a standalone SVG element.
func (c Bars) SVG() string {
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
	ticks := make([]string, 6)
	tickW := 0.0
	for i := range ticks {
		v := ymax * float64(i) / 5
		ticks[i] = Tick(v)
		if ymax == 1 {
			ticks[i] = fmt.Sprintf("%.1f", v)
		}
		tickW = max(tickW, TextWidth(ticks[i], tickSize, false))
	}
	legendW := 0.0
	for _, l := range labels {
		legendW = max(legendW, 14+TextWidth(l, labelSize, false))
	}
	if legendW > 0 {
		legendW += 2 * pad
	}
	// Group labels are rotated by −30° about their end, which sits under
	// the middle of the group: they reach 0.866·w to the left and w/2
	// down. The left margin holds the y label, the ticks, and whatever
	// the first groups' labels need.
	gap := barGap
	plotW := func() float64 { return float64(nbars)*barW + float64(len(c.Groups)+1)*gap }
	base := pad + labelSize + 6 + tickW + 6
	width := func(left float64) float64 { return left + plotW() + legendW + pad }
	left := base
	maxDown := 0.0
	layout := func() {
		left = base
		off := gap
		for _, g := range c.Groups {
			wl := TextWidth(g.Label, labelSize, false)
			mid := off + float64(len(g.Bars))*barW/2
			left = max(left, pad+cos30*wl-mid)
			maxDown = max(maxDown, wl/2)
			off += float64(len(g.Bars))*barW + gap
		}
	}
	layout()
	// A short chart widens (spacing its groups, up to maxGap) to keep its
	// title on one line.
	if need := min(titleWidth(c.Title), maxTitleWidth); width(left) < need && len(c.Groups) > 0 {
		gap = min(maxGap, gap+(need-width(left))/float64(len(c.Groups)+1))
		layout()
	}
	W := max(width(left), min(titleWidth(c.Title), maxTitleWidth))
	tl := titleLines(c.Title, W)
	top := pad + float64(len(tl))*titleLine + 12
	bottom := 14 + maxDown + labelSize + pad
	H := max(top+barPlotH+bottom, top+float64(len(labels))*legendH+pad)
	plotRight := left + plotW()

	var cv canvas
	desc := fmt.Sprintf("Bar chart: %d bars in %d groups (%s); y axis %s from 0 to %s.", nbars, len(c.Groups),
		joinGroups(c.Groups), c.YLabel, Tick(ymax))
	cv.open("bar-chart", c.Title, desc, tl, W, H)
	clampY := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return min(max(v, 0), ymax)
	}
	y := func(v float64) float64 { return top + barPlotH*(1-clampY(v)/ymax) }
	for i, t := range ticks {
		v := ymax * float64(i) / 5
		cv.line(left, y(v), plotRight, y(v), "#dddddd")
		cv.text("tick", left-6, y(v)+3.5, tickSize, "end", 0, t)
	}
	ylx := left - tickW - 12
	cv.text("axis-label", ylx, top+barPlotH/2, labelSize, "middle", -90, c.YLabel)
	x := left + gap
	for _, g := range c.Groups {
		gx := x
		for _, bar := range g.Bars {
			col := c.colourOf(labels, bar.Label)
			v := clampY(bar.Value)
			fmt.Fprintf(&cv.b, `<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s — %s: %s</title></rect>`+"\n",
				num(x), num(y(v)), num(barW-2), num(barPlotH*v/ymax), col, esc(g.Label), esc(bar.Label), interval(bar))
			if !math.IsNaN(bar.Lo) && !math.IsNaN(bar.Hi) {
				cx := x + (barW-2)/2
				lo, hi := y(bar.Lo), y(bar.Hi)
				fmt.Fprintf(&cv.b, `<path class="errorbar" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="#333333" fill="none"/>`+"\n",
					num(cx), num(lo), num(hi), num(cx-3), num(lo), num(cx+3), num(cx-3), num(hi), num(cx+3))
			}
			x += barW
		}
		mid := (gx + x) / 2
		cv.text("group-label", mid, top+barPlotH+14, labelSize, "end", -30, g.Label)
		x += gap
	}
	cv.line(left, y(0), plotRight, y(0), "#000000")
	lx := plotRight + pad
	for i, l := range labels {
		ly := top + float64(i)*legendH
		fmt.Fprintf(&cv.b, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`+"\n", num(lx), num(ly), c.colourOf(labels, l))
		cv.text("legend", lx+14, ly+9, labelSize, "start", 0, l)
	}
	return cv.close()
}

func joinGroups(gs []Group) string {
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.Label
	}
	return strings.Join(names, ", ")
}

// interval formats a bar's value and interval for its tooltip.
func interval(b Bar) string {
	if math.IsNaN(b.Lo) || math.IsNaN(b.Hi) {
		return fmt.Sprintf("%.4f", b.Value)
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", b.Value, b.Lo, b.Hi)
}
