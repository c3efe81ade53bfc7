package chart

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Point is one labelled point of a scatter plot; Front marks the points of
// the Pareto front. Note, when set, is added to the point's tooltip.
type Point struct {
	Label string
	X, Y  float64
	Front bool
	Note  string
}

// Scatter plots labelled points with cost on the x axis (0 to the largest
// X, rounded up) and a score on the y axis (0 to YMax); the front points
// are filled and joined by a step line in order of X (the Pareto front of
// "fewer tokens, higher score").
//
// Labels never overlap: each is put at the first free place around its
// point (right, left, above, below, then the diagonals, farther and farther
// with a leader line), front points first, then the others by X. A label
// that finds no free place is replaced by a number, listed with its name
// under the plot. Points with a NaN coordinate are left out.
type Scatter struct {
	Title          string
	XLabel, YLabel string
	// YMax is the top of the y axis; 0 means 1.
	YMax   float64
	Points []Point
}

const (
	scPlotW    = 460.0
	scPlotH    = 260.0
	scRadius   = 5.0
	scLabel    = 10.0
	scLabelH   = 12.0
	frontColor = "#D55E00"
)

// WriteSVG writes the chart as a standalone SVG element.
func (c Scatter) WriteSVG(w io.Writer) error {
	_, err := io.WriteString(w, c.SVG())
	return err
}

// rect is an axis-aligned box.
type rect struct{ x0, y0, x1, y1 float64 }

func (a rect) overlaps(b rect) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func (a rect) inside(b rect) bool {
	return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1
}

// placed is a label put on the plot.
type placed struct {
	box      rect
	x, y     float64 // text anchor
	anchor   string
	leader   bool
	lx0, ly0 float64 // leader line from
	lx1, ly1 float64 // leader line to
}

// directions are the unit offsets tried around a point, in order of
// preference.
var directions = [][2]float64{{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1},
	{2, 1}, {-2, 1}, {1, 2}, {-1, 2}, {2, -1}, {-2, -1}, {1, -2}, {-1, -2}}

// distances are the gaps between a point and its label tried in turn; past
// the first, a leader line joins them.
var distances = []float64{3, 12, 24, 40, 60, 84, 112, 144, 180}

// crosses reports whether the segment from (x0, y0) to (x1, y1) passes
// through r (Liang–Barsky clipping).
func (r rect) crosses(x0, y0, x1, y1 float64) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := x1-x0, y1-y0
	for _, e := range [4][2]float64{{-dx, x0 - r.x0}, {dx, r.x1 - x0}, {-dy, y0 - r.y0}, {dy, r.y1 - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// place finds a free box of width w for a label of the point at (px, py)
// within area, avoiding taken boxes and, for a leader line, the labels
// already placed (labels: the tail of taken).
//
// A leader line that crosses no label is preferred; when there is none,
// one may cross labels (which are drawn with a white halo over the lines).
func place(px, py, w float64, area rect, taken []rect, labels int) (placed, bool) {
	if p, ok := placeOnce(px, py, w, area, taken, labels); ok {
		return p, true
	}
	return placeOnce(px, py, w, area, taken, 0)
}

func placeOnce(px, py, w float64, area rect, taken []rect, labels int) (placed, bool) {
	h := scLabelH
	for di, d := range distances {
		for _, dir := range directions {
			gap := d + scRadius
			var p placed
			switch {
			case dir[1] == 0: // left or right, vertically centred
				x0 := px + gap
				p.anchor = "start"
				if dir[0] < 0 {
					x0 = px - gap - w
					p.anchor = "end"
				}
				p.box = rect{x0, py - h/2, x0 + w, py + h/2}
			case dir[0] == 0: // above or below, centred
				y0 := py + gap
				if dir[1] < 0 {
					y0 = py - gap - h
				}
				p.box = rect{px - w/2, y0, px + w/2, y0 + h}
				p.anchor = "middle"
			default: // diagonal: the box's nearest corner in that direction
				n := math.Hypot(dir[0], dir[1])
				gx, gy := gap*math.Abs(dir[0])/n, gap*math.Abs(dir[1])/n
				x0, y0 := px+gx, py+gy
				p.anchor = "start"
				if dir[0] < 0 {
					x0 = px - gx - w
					p.anchor = "end"
				}
				if dir[1] < 0 {
					y0 = py - gy - h
				}
				p.box = rect{x0, y0, x0 + w, y0 + h}
			}
			if !p.box.inside(area) || slices.ContainsFunc(taken, p.box.overlaps) {
				continue
			}
			switch p.anchor {
			case "start":
				p.x = p.box.x0
			case "end":
				p.x = p.box.x1
			default:
				p.x = (p.box.x0 + p.box.x1) / 2
			}
			p.y = p.box.y1 - 3 // baseline: the box holds the descenders
			if di > 1 {
				// A leader line from the point's edge to the box's nearest
				// point.
				nx := min(max(px, p.box.x0), p.box.x1)
				ny := min(max(py, p.box.y0), p.box.y1)
				dx, dy := nx-px, ny-py
				n := math.Hypot(dx, dy)
				p.leader = true
				p.lx0, p.ly0 = px+dx/n*(scRadius+1), py+dy/n*(scRadius+1)
				p.lx1, p.ly1 = nx, ny
				if labels > 0 && slices.ContainsFunc(taken[len(taken)-labels:], func(r rect) bool { return r.crosses(p.lx0, p.ly0, p.lx1, p.ly1) }) {
					continue
				}
			}
			return p, true
		}
	}
	return placed{}, false
}

// SVG returns the chart as a standalone SVG element.
func (c Scatter) SVG() string {
	var pts []Point
	for _, p := range c.Points {
		if !math.IsNaN(p.X) && !math.IsNaN(p.Y) && !math.IsInf(p.X, 0) && !math.IsInf(p.Y, 0) {
			pts = append(pts, p)
		}
	}
	ymax := c.YMax
	if !(ymax > 0) || math.IsInf(ymax, 0) {
		ymax = 1
	}
	xmax := 0.0
	for _, p := range pts {
		xmax = max(xmax, p.X)
	}
	xmax = NiceCeil(xmax * 1.05) // room for the rightmost point
	tickW := 0.0
	yticks := make([]string, 6)
	for i := range yticks {
		yticks[i] = fmt.Sprintf("%.1f", ymax*float64(i)/5)
		if ymax != 1 {
			yticks[i] = Tick(ymax * float64(i) / 5)
		}
		tickW = max(tickW, TextWidth(yticks[i], tickSize, false))
	}
	left := pad + labelSize + 6 + tickW + 6
	right := pad + TextWidth(Tick(xmax), tickSize, false)/2
	W := max(left+scPlotW+right, min(titleWidth(c.Title), maxTitleWidth))
	tl := titleLines(c.Title, W)
	top := pad + float64(len(tl))*titleLine + 14
	px := func(v float64) float64 { return left + scPlotW*min(max(v, 0), xmax)/xmax }
	py := func(v float64) float64 { return top + scPlotH*(1-min(max(v, 0), ymax)/ymax) }

	// Labels: front points first, then by X, Y and label.
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := pts[a], pts[b]
		fa, fb := 0, 0
		if !pa.Front {
			fa = 1
		}
		if !pb.Front {
			fb = 1
		}
		return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(pa.X, pb.X), cmp.Compare(pb.Y, pa.Y), strings.Compare(pa.Label, pb.Label))
	})
	// Labels may use the plot and the free band above it, not the axes.
	area := rect{left + 1, top - 12, W - 2, top + scPlotH - 1}
	var taken []rect // the points, then the labels
	nlabels := 0
	for _, p := range pts {
		x, y := px(p.X), py(p.Y)
		taken = append(taken, rect{x - scRadius - 1, y - scRadius - 1, x + scRadius + 1, y + scRadius + 1})
	}
	labels := make([]placed, len(pts))
	text := make([]string, len(pts))
	var keyed []int // points whose name is in the key under the plot
	for _, i := range order {
		p := pts[i]
		x, y := px(p.X), py(p.Y)
		if pl, ok := place(x, y, TextWidth(p.Label, scLabel, false), area, taken, nlabels); ok {
			labels[i], text[i] = pl, p.Label
			taken = append(taken, pl.box)
			nlabels++
			continue
		}
		keyed = append(keyed, i)
	}
	var key []string
	for n, i := range keyed {
		p := pts[i]
		mark := strconv.Itoa(n + 1)
		x, y := px(p.X), py(p.Y)
		if pl, ok := place(x, y, TextWidth(mark, scLabel, false), area, taken, nlabels); ok {
			labels[i], text[i] = pl, mark
			taken = append(taken, pl.box)
			nlabels++
			key = append(key, mark+" "+p.Label)
			continue
		}
		key = append(key, fmt.Sprintf("%s (%s, %.2f)", p.Label, num(p.X), p.Y))
	}
	var keyLines []string
	if len(key) > 0 {
		keyLines = Wrap("Key: "+strings.Join(key, " · "), W-2*pad, scLabel, false)
	}
	axisBottom := top + scPlotH
	H := axisBottom + 40 + float64(len(keyLines))*14 + pad

	var cv canvas
	nFront := 0
	for _, p := range pts {
		if p.Front {
			nFront++
		}
	}
	desc := fmt.Sprintf("Scatter plot of %d points, %s against %s; %d on the Pareto front.", len(pts), c.YLabel, c.XLabel, nFront)
	cv.open("scatter-chart", c.Title, desc, tl, W, H)
	for i, t := range yticks {
		v := ymax * float64(i) / 5
		cv.line(left, py(v), left+scPlotW, py(v), "#dddddd")
		cv.text("tick", left-6, py(v)+3.5, tickSize, "end", 0, t)
		xv := xmax * float64(i) / 5
		cv.text("tick", px(xv), axisBottom+14, tickSize, "middle", 0, Tick(xv))
	}
	fmt.Fprintf(&cv.b, `<path d="M%s %sV%sH%s" stroke="#000000" fill="none"/>`+"\n", num(left), num(top), num(axisBottom), num(left+scPlotW))
	cv.text("axis-label", left+scPlotW/2, axisBottom+32, labelSize, "middle", 0, c.XLabel)
	cv.text("axis-label", left-tickW-12, top+scPlotH/2, labelSize, "middle", -90, c.YLabel)

	var front []Point
	for _, p := range pts {
		if p.Front {
			front = append(front, p)
		}
	}
	slices.SortStableFunc(front, func(a, b Point) int {
		return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(b.Y, a.Y), strings.Compare(a.Label, b.Label))
	})
	if len(front) > 1 {
		var d strings.Builder
		fmt.Fprintf(&d, "M%s %s", num(px(front[0].X)), num(py(front[0].Y)))
		for _, p := range front[1:] {
			fmt.Fprintf(&d, "H%sV%s", num(px(p.X)), num(py(p.Y)))
		}
		fmt.Fprintf(&cv.b, `<path class="front" d="%s" stroke="%s" stroke-width="1.5" fill="none"/>`+"\n", d.String(), frontColor)
	}
	// Leader lines under the points, labels over everything.
	for i := range pts {
		if l := labels[i]; text[i] != "" && l.leader {
			fmt.Fprintf(&cv.b, `<line class="leader" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#888888" stroke-width="0.75"/>`+"\n",
				num(l.lx0), num(l.ly0), num(l.lx1), num(l.ly1))
		}
	}
	for _, p := range pts {
		fill, cls := "#ffffff", "point"
		if p.Front {
			fill, cls = frontColor, "point front-point"
		}
		tip := fmt.Sprintf("%s: %s %s, %s %.4f", p.Label, num(p.X), c.XLabel, c.YLabel, p.Y)
		if p.Note != "" {
			tip += "; " + p.Note
		}
		fmt.Fprintf(&cv.b, `<circle class="%s" cx="%s" cy="%s" r="%s" fill="%s" stroke="#333333"><title>%s</title></circle>`+"\n",
			cls, num(px(p.X)), num(py(p.Y)), num(scRadius), fill, esc(tip))
	}
	for i, p := range pts {
		if text[i] == "" {
			continue
		}
		cls := "point-label"
		if text[i] != p.Label {
			cls = "point-label point-number"
		}
		l := labels[i]
		cv.textAttr(cls, l.x, l.y, scLabel, l.anchor, 0, halo, text[i])
	}
	for i, l := range keyLines {
		cv.text("key", pad, axisBottom+50+float64(i)*14, scLabel, "start", 0, l)
	}
	return cv.close()
}
