// Package chart draws the bar charts and Pareto scatter plots of isolda's
// reports (bench and report) as hand-written, standalone SVG: no script,
// no external reference, no dependency.
//
// Every chart is accessible (role="img" with a <title> and a <desc>
// summary; each bar and point carries its own <title> with the exact
// figures) and deterministic (the same chart gives the same bytes: numbers
// are printed with fixed rules, groups and labels keep the caller's order
// or a documented sort).
//
// Charts size themselves to their text: widths are estimated with the
// advance widths of DejaVu Sans (see TextWidth), titles wrap instead of
// being cut, rotated axis labels get the margin they need, and the labels
// of scatter points are placed so that they never overlap each other or a
// point (see Scatter). Each SVG has width, height and viewBox, so a page
// can scale it down with max-width: 100%.
package chart

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// palette is a qualitative palette of twelve distinct colours: the
// colour-blind-safe palette of Okabe and Ito ("Color Universal Design",
// 2002), then four dark colours of Paul Tol's schemes (wine, olive,
// indigo, brown), so that up to twelve series never share a colour.
var palette = [...]string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
	"#882255", "#999933", "#332288", "#661100"}

// PaletteSize is the number of distinct colours of Colour.
const PaletteSize = len(palette)

// Colour returns the i-th colour of the palette, cycling.
func Colour(i int) string { return palette[i%len(palette)] }

const (
	font      = `font-family="sans-serif"`
	titleSize = 14.0
	titleLine = 18.0
	labelSize = 11.0
	tickSize  = 10.0
	pad       = 10.0
)

func esc(s string) string { return html.EscapeString(s) }

// num prints a coordinate with at most two decimals and no trailing zeros
// ("146", "84.5", never "-0").
func num(x float64) string {
	r := math.Round(x*100) / 100
	if r == 0 {
		r = 0 // no negative zero
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Tick formats an axis value: an integer without decimals, else two
// significant digits.
func Tick(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

// NiceCeil rounds x up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a
// power of ten (1 for x ≤ 0 or not finite).
func NiceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if x <= m*p*(1+1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// canvas accumulates the elements of one SVG document.
type canvas struct {
	b strings.Builder
}

// open starts the svg element with its accessible name and summary, a white
// background and the title, wrapped into titleLines.
func (c *canvas) open(class, title, desc string, titleLines []string, width, height float64) {
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" class="chart %s">`+"\n",
		num(width), num(height), num(width), num(height), esc(title), class)
	fmt.Fprintf(&c.b, "<title>%s</title>\n<desc>%s</desc>\n", esc(title), esc(desc))
	fmt.Fprintf(&c.b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(width), num(height))
	for i, l := range titleLines {
		fmt.Fprintf(&c.b, `<text class="chart-title" x="%s" y="%s" %s font-size="%s" font-weight="bold">%s</text>`+"\n",
			num(pad), num(pad+titleSize+float64(i)*titleLine), font, num(titleSize), esc(l))
	}
}

// text writes one text element; anchor is start, middle or end; rotate,
// when not 0, turns it by that many degrees about (x, y).
func (c *canvas) text(class string, x, y, size float64, anchor string, rotate float64, s string) {
	c.textAttr(class, x, y, size, anchor, rotate, "", s)
}

// halo is the attribute set of a text drawn over lines: a white outline
// painted under the glyphs keeps it readable.
const halo = `stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`

// textAttr is text with extra attributes.
func (c *canvas) textAttr(class string, x, y, size float64, anchor string, rotate float64, attrs, s string) {
	fmt.Fprintf(&c.b, `<text`)
	if class != "" {
		fmt.Fprintf(&c.b, ` class="%s"`, class)
	}
	fmt.Fprintf(&c.b, ` x="%s" y="%s" %s font-size="%s"`, num(x), num(y), font, num(size))
	if attrs != "" {
		c.b.WriteString(" " + attrs)
	}
	if anchor != "start" {
		fmt.Fprintf(&c.b, ` text-anchor="%s"`, anchor)
	}
	if rotate != 0 {
		fmt.Fprintf(&c.b, ` transform="rotate(%s %s %s)"`, num(rotate), num(x), num(y))
	}
	fmt.Fprintf(&c.b, ">%s</text>\n", esc(s))
}

func (c *canvas) line(x1, y1, x2, y2 float64, stroke string) {
	fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", num(x1), num(y1), num(x2), num(y2), stroke)
}

func (c *canvas) close() string {
	c.b.WriteString("</svg>\n")
	return c.b.String()
}

// titleLines wraps a chart title to the width available.
func titleLines(title string, width float64) []string {
	return Wrap(title, width-2*pad, titleSize, true)
}

// titleWidth is the width a title needs on one line, with its margins.
func titleWidth(title string) float64 { return TextWidth(title, titleSize, true) + 2*pad }

// maxTitleWidth bounds how wide a chart grows to keep its title on one
// line; longer titles wrap.
const maxTitleWidth = 640.0
