package chart

import (
	"fmt"
	"io"
	"math"
)

// HBar is one bar of a horizontal bar chart. Muted bars are drawn in grey
// (for example the lossy formats among lossless ones), Partial ones in
// orange (for example the formats lossless for part of what the others
// keep).
type HBar struct {
	Label   string
	Value   float64
	Muted   bool
	Partial bool
}

// HBars is a horizontal bar chart, one labelled bar a row, in the order
// given, with the value printed after each bar.
type HBars struct {
	Title string
	// Unit names what the values count ("tokens"), for the tooltips and
	// the summary.
	Unit string
	// Muted and Plain name the two kinds of bars in the legend ("lossy",
	// "lossless"); no legend when Muted is empty. Partial names the third
	// kind, shown in the legend when a bar is Partial.
	Muted, Plain, Partial string
	Bars                  []HBar
}

const (
	hbarRow   = 18.0
	hbarPlotW = 460.0
	hbarFill  = "#0072B2"
	hbarMuted = "#999999"
	// hbarPartial is the Okabe–Ito orange, told apart from hbarFill's
	// blue with any colour vision.
	hbarPartial = "#E69F00"
)

// WriteSVG writes the chart as a standalone SVG element.
func (c HBars) WriteSVG(w io.Writer) error {
	_, err := io.WriteString(w, c.SVG())
	return err
}

// SVG returns the chart as a standalone SVG element.
func (c HBars) SVG() string {
	maxV := 0.0
	labelW, valueW := 0.0, 0.0
	for _, b := range c.Bars {
		if !math.IsNaN(b.Value) {
			maxV = max(maxV, b.Value)
		}
		labelW = max(labelW, TextWidth(b.Label, labelSize, false))
		valueW = max(valueW, TextWidth(num(b.Value), labelSize, false))
	}
	if !(maxV > 0) || math.IsInf(maxV, 0) {
		maxV = 1
	}
	left := pad + labelW + 6
	W := max(left+hbarPlotW+4+valueW+pad, min(titleWidth(c.Title), maxTitleWidth))
	tl := titleLines(c.Title, W)
	top := pad + float64(len(tl))*titleLine + 8
	legend := 0.0
	if c.Muted != "" {
		legend = hbarRow
	}
	H := top + legend + hbarRow*float64(len(c.Bars)) + pad

	var cv canvas
	desc := fmt.Sprintf("Horizontal bar chart: %d bars, %s, largest %s.", len(c.Bars), c.Unit, num(maxV))
	cv.open("hbar-chart", c.Title, desc, tl, W, H)
	if c.Muted != "" {
		keys := [][2]string{{hbarFill, c.Plain}}
		if c.Partial != "" && c.anyPartial() {
			keys = append(keys, [2]string{hbarPartial, c.Partial})
		}
		keys = append(keys, [2]string{hbarMuted, c.Muted})
		mx := left
		for _, k := range keys {
			fmt.Fprintf(&cv.b, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`+"\n", num(mx), num(top+2), k[0])
			cv.text("legend", mx+14, top+11, labelSize, "start", 0, k[1])
			mx += 14 + TextWidth(k[1], labelSize, false) + 16
		}
	}
	for i, b := range c.Bars {
		y := top + legend + float64(i)*hbarRow
		v := b.Value
		if math.IsNaN(v) || v < 0 {
			v = 0
		}
		length := hbarPlotW * v / maxV
		fill, kind := hbarFill, c.Plain
		switch {
		case b.Muted:
			fill, kind = hbarMuted, c.Muted
		case b.Partial && c.Partial != "":
			fill, kind = hbarPartial, c.Partial
		}
		tip := fmt.Sprintf("%s: %s %s", b.Label, num(b.Value), c.Unit)
		if kind != "" {
			tip += " (" + kind + ")"
		}
		cv.text("bar-label", left-6, y+12.5, labelSize, "end", 0, b.Label)
		fmt.Fprintf(&cv.b, `<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
			num(left), num(y+2), num(length), num(hbarRow-4), fill, esc(tip))
		cv.text("value", left+length+4, y+12.5, labelSize, "start", 0, num(b.Value))
	}
	return cv.close()
}

// anyPartial reports whether a bar is Partial.
func (c HBars) anyPartial() bool {
	for _, b := range c.Bars {
		if b.Partial && !b.Muted {
			return true
		}
	}
	return false
}
