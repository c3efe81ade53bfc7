package chart

import (
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/xmltest"
)

// element is a parsed SVG element: its name, attributes and text.
type element struct {
	name  string
	class string
	attr  map[string]string
	text  string
}

// parse parses s as strict XML (failing on anything not well formed) and
// returns its elements in document order.
func parse(t *testing.T, s string) []element {
	t.Helper()
	var out []element
	var stack []int
	for _, tok := range xmltest.Tokens(t, s) {
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("event handler attribute %s", a.Name.Local)
				}
			}
			e.class = e.attr["class"]
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(tok)
			}
		}
	}
	return out
}

func count(els []element, name, class string) int {
	n := 0
	for _, e := range els {
		if e.name == name && (class == "" || strings.Contains(" "+e.class+" ", " "+class+" ")) {
			n++
		}
	}
	return n
}

func f(t *testing.T, e element, a string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attr[a], 64)
	if err != nil {
		t.Fatalf("%s %s=%q: %v", e.name, a, e.attr[a], err)
	}
	return v
}

var external = regexp.MustCompile(`(?i)<script|href=|src=|url\(|@import|https?://`)

// standalone checks the accessible name, the summary and that nothing
// outside the SVG is referenced.
func standalone(t *testing.T, s string, els []element, title string) (width, height float64) {
	t.Helper()
	if m := external.FindString(strings.ReplaceAll(s, `xmlns="http://www.w3.org/2000/svg"`, "")); m != "" {
		t.Errorf("external reference or script: %q", m)
	}
	root := els[0]
	if root.name != "svg" || root.attr["role"] != "img" || root.attr["aria-label"] != title {
		t.Errorf("root %v: want an svg with role img and aria-label %q", root.attr, title)
	}
	if els[1].name != "title" || els[1].text != title || els[2].name != "desc" || els[2].text == "" {
		t.Errorf("first children %s %q, %s %q: want title and desc", els[1].name, els[1].text, els[2].name, els[2].text)
	}
	w, h := f(t, root, "width"), f(t, root, "height")
	if vb := root.attr["viewBox"]; vb != fmt.Sprintf("0 0 %s %s", num(w), num(h)) {
		t.Errorf("viewBox %q for %vx%v", vb, w, h)
	}
	return w, h
}

// extent estimates the box of a text element that is not rotated.
func extent(t *testing.T, e element) rect {
	t.Helper()
	x, y, size := f(t, e, "x"), f(t, e, "y"), f(t, e, "font-size")
	w := TextWidth(e.text, size, e.attr["font-weight"] == "bold")
	switch e.attr["text-anchor"] {
	case "end":
		x -= w
	case "middle":
		x -= w / 2
	}
	return rect{x, y - 0.8*size, x + w, y + 0.25*size}
}

// textsInside checks that every text that is not rotated lies within the
// view box, by the width estimate.
func textsInside(t *testing.T, els []element, w, h float64) {
	t.Helper()
	for _, e := range els {
		if e.name != "text" || e.attr["transform"] != "" {
			continue
		}
		if b := extent(t, e); !b.inside(rect{0, 0, w, h}) {
			t.Errorf("text %q at %v leaves the %vx%v view box", e.text, b, w, h)
		}
	}
}

func TestTextWidth(t *testing.T) {
	// Hand-derived from the DejaVu Sans advance widths: "Wi" is 989 + 278
	// thousandths of an em; at 10 px that is 12.67 px.
	if got := TextWidth("Wi", 10, false); math.Abs(got-12.67) > 1e-9 {
		t.Errorf("TextWidth(Wi) = %v, want 12.67", got)
	}
	if a, b := TextWidth("iiii", 12, false), TextWidth("mmmm", 12, false); a >= b/3 {
		t.Errorf("iiii %v not much narrower than mmmm %v", a, b)
	}
	if a, b := TextWidth("Title", 14, false), TextWidth("Title", 14, true); a >= b {
		t.Errorf("bold %v not wider than regular %v", b, a)
	}
	if got := TextWidth("漢字", 10, false); got != 20 {
		t.Errorf("two wide characters: %v, want 20", got)
	}
}

func TestWrap(t *testing.T) {
	s := "Accuracy by arm and model (Wilson 95% intervals)"
	one := TextWidth(s, 14, true)
	if got := Wrap(s, one, 14, true); len(got) != 1 || got[0] != s {
		t.Errorf("fits on one line, got %q", got)
	}
	got := Wrap(s, one/2, 14, true)
	if len(got) < 2 || strings.Join(got, " ") != s {
		t.Errorf("wrapped %q, want lines that join back to the title", got)
	}
	for _, l := range got {
		if TextWidth(l, 14, true) > one/2 {
			t.Errorf("line %q wider than %v", l, one/2)
		}
	}
	long := strings.Repeat("x", 50)
	parts := Wrap(long, 60, 10, false)
	if strings.Join(parts, "") != long || len(parts) < 2 {
		t.Errorf("long word cut into %q", parts)
	}
	if got := Wrap("", 100, 10, false); len(got) != 1 || got[0] != "" {
		t.Errorf("empty: %q", got)
	}
}

func TestNiceCeil(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{0, 1}, {-3, 1}, {0.9, 1}, {1.05, 1.2}, {210, 250}, {1000, 1000}, {1001, 1200}, {math.Inf(1), 1}} {
		if got := NiceCeil(c.in); got != c.want {
			t.Errorf("NiceCeil(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestBars(t *testing.T) {
	c := Bars{Title: "T <&> \"q\"", YLabel: "accuracy", Groups: []Group{
		{Label: "m1", Bars: []Bar{{Label: "B", Value: 0.5, Lo: 0.2, Hi: 0.8}, {Label: "A", Value: 1.2, Lo: math.NaN(), Hi: math.NaN()}}},
		{Label: "m2", Bars: []Bar{{Label: "A", Value: 0.25, Lo: 0.1, Hi: 0.4}}},
	}}
	s := c.SVG()
	els := parse(t, s)
	w, h := standalone(t, s, els, c.Title)
	textsInside(t, els, w, h)
	if n, e := count(els, "rect", "bar"), count(els, "path", "errorbar"); n != 3 || e != 2 {
		t.Errorf("%d bars, %d error bars: want 3 and 2", n, e)
	}
	// Bar heights are to scale over a 220 px plot: 0.5 → 110, the 1.2 bar
	// clamped to 220, 0.25 → 55; the tops are 220 − height below the
	// plot's top.
	var heights, tops []float64
	for _, e := range els {
		if e.class == "bar" {
			heights = append(heights, f(t, e, "height"))
			tops = append(tops, f(t, e, "y"))
		}
	}
	if fmt.Sprint(heights) != "[110 220 55]" {
		t.Errorf("bar heights %v, want [110 220 55]", heights)
	}
	if tops[0]-tops[1] != 110 || tops[2]-tops[1] != 165 {
		t.Errorf("bar tops %v not on a common baseline", tops)
	}
	// Same label, same colour: A is first in sorted order.
	if strings.Count(s, `fill="#0072B2"><title>`) != 2 {
		t.Errorf("the bars of A do not share the first colour")
	}
	if s != c.SVG() {
		t.Error("two renderings differ")
	}
}

// A long title on a small chart wraps instead of being cut, and a long
// group label rotated under the first group stays in the view box.
func TestBarsLongTitleAndLabels(t *testing.T) {
	title := "Accuracy by arm and model (Wilson 95% intervals) on every graph of the confirmatory study, all families"
	c := Bars{Title: title, YLabel: "accuracy", Groups: []Group{
		{Label: "Qwen/Qwen3-30B-A3B-Instruct-2507", Bars: []Bar{{Label: "isolda", Value: 0.7, Lo: math.NaN(), Hi: math.NaN()}}},
	}}
	s := c.SVG()
	els := parse(t, s)
	w, h := standalone(t, s, els, title)
	textsInside(t, els, w, h)
	var lines []string
	for _, e := range els {
		if e.class == "chart-title" {
			lines = append(lines, e.text)
		}
	}
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("title lines %q: want it wrapped, whole", lines)
	}
	// The rotated label: its far end is 0.866·width left of its anchor.
	for _, e := range els {
		if e.class == "group-label" {
			x := f(t, e, "x") - cos30*TextWidth(e.text, labelSize, false)
			y := f(t, e, "y") + TextWidth(e.text, labelSize, false)/2
			if x < 0 || y > h {
				t.Errorf("group label %q reaches (%v, %v), outside %vx%v", e.text, x, y, w, h)
			}
		}
	}
}

func TestHBars(t *testing.T) {
	c := HBars{Title: "dcat: o200k_base tokens per format", Unit: "tokens", Muted: "lossy", Plain: "lossless", Bars: []HBar{
		{Label: "isolda", Value: 500}, {Label: "entity_centric", Value: 250, Muted: true}, {Label: "turtle", Value: 1000},
	}}
	s := c.SVG()
	els := parse(t, s)
	w, h := standalone(t, s, els, c.Title)
	textsInside(t, els, w, h)
	var widths []float64
	for _, e := range els {
		if e.class == "bar" {
			widths = append(widths, f(t, e, "width"))
		}
	}
	if fmt.Sprint(widths) != "[230 115 460]" {
		t.Errorf("bar widths %v, want [230 115 460] (to scale, longest 460)", widths)
	}
	if !strings.Contains(s, `<title>entity_centric: 250 tokens (lossy)</title>`) || !strings.Contains(s, `fill="#999999"><title>entity`) {
		t.Errorf("the lossy bar is not grey with its kind in the tooltip:\n%s", s)
	}
}

func TestScatterFront(t *testing.T) {
	c := Scatter{Title: "S", XLabel: "tokens", YLabel: "accuracy", Points: []Point{
		{Label: "A", X: 100, Y: 0.8, Front: true}, {Label: "B", X: 200, Y: 0.5}, {Label: "C", X: 150, Y: 0.9, Front: true},
		{Label: "nan", X: math.NaN(), Y: 0.3},
	}}
	s := c.SVG()
	els := parse(t, s)
	w, h := standalone(t, s, els, c.Title)
	textsInside(t, els, w, h)
	if count(els, "circle", "") != 3 || count(els, "circle", "front-point") != 2 || count(els, "path", "front") != 1 {
		t.Errorf("want 3 points, 2 on the front, 1 front line:\n%s", s)
	}
	// x axis 0..250 (200 · 1.05 rounded up) over 460 px, y 0..1 over 260
	// px: A is 184 px right of the y axis, C 276; 0.8 is 52 px below the
	// top, 0.9 26. The front steps from A to C.
	var circles []element
	for _, e := range els {
		if e.name == "circle" {
			circles = append(circles, e)
		}
	}
	x0, y0 := f(t, circles[0], "cx")-184, f(t, circles[0], "cy")-52
	want := fmt.Sprintf("M%s %sH%sV%s", num(x0+184), num(y0+52), num(x0+276), num(y0+26))
	for _, e := range els {
		if e.class == "front" && e.attr["d"] != want {
			t.Errorf("front %q, want %q", e.attr["d"], want)
		}
	}
}

// labelBoxes returns the estimated boxes of the point labels.
func labelBoxes(t *testing.T, els []element) map[string]rect {
	out := map[string]rect{}
	for _, e := range els {
		if strings.Contains(e.class, "point-label") {
			out[e.text] = extent(t, e)
		}
	}
	return out
}

// Forty formats with the same score and close token counts (a bench
// graph where every lossless format answers every query): no two labels
// overlap, no label covers a point, and every name is shown once, on the
// plot or in the key.
func TestScatterCrowdedLabels(t *testing.T) {
	var pts []Point
	for i := range 40 {
		pts = append(pts, Point{Label: fmt.Sprintf("format-%02d", i), X: float64(1000 + 37*i), Y: 1, Front: i == 0})
	}
	pts = append(pts, Point{Label: "far", X: 9000, Y: 0.2})
	c := Scatter{Title: "crowded", XLabel: "tokens", YLabel: "score", Points: pts}
	s := c.SVG()
	els := parse(t, s)
	w, h := standalone(t, s, els, c.Title)
	textsInside(t, els, w, h)
	boxes := labelBoxes(t, els)
	var names []string
	for n := range boxes {
		names = append(names, n)
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			if boxes[a].overlaps(boxes[b]) {
				t.Errorf("labels %q %v and %q %v overlap", a, boxes[a], b, boxes[b])
			}
		}
		for _, e := range els {
			if e.name == "circle" {
				cx, cy := f(t, e, "cx"), f(t, e, "cy")
				if boxes[a].overlaps(rect{cx - 5, cy - 5, cx + 5, cy + 5}) {
					t.Errorf("label %q covers the point at (%v, %v)", a, cx, cy)
				}
			}
		}
	}
	key := ""
	for _, e := range els {
		if e.class == "key" {
			key += e.text + " "
		}
	}
	for _, p := range pts {
		inPlot := boxes[p.Label] != (rect{})
		inKey := regexp.MustCompile(`(^|· |: )(\d+ )?` + regexp.QuoteMeta(p.Label) + `( |$)`).MatchString(key)
		if inPlot == inKey {
			t.Errorf("%s: on the plot %v, in the key %v: want exactly one", p.Label, inPlot, inKey)
		}
	}
	if _, ok := boxes["far"]; !ok {
		t.Error("the isolated point lost its label")
	}
	if count(els, "line", "leader") == 0 {
		t.Error("no leader line in a crowded plot")
	}
	t.Logf("%d of %d labels on the plot, the rest numbered in the key", len(boxes), len(pts))
}
