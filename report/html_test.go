package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// xmlElements parses s as XML (failing the test when it is not well formed)
// and counts start elements by local name and by "name.class".
func xmlElements(t *testing.T, s string) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	dec.Entity = map[string]string{} // only the predefined entities and character references
	counts := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					for _, c := range strings.Fields(a.Value) {
						counts[se.Name.Local+"."+c]++
					}
				}
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("event handler attribute %s", a.Name.Local)
				}
			}
		}
	}
	return counts
}

var externalRef = regexp.MustCompile(`(?i)<script|href=|src=|url\(|@import|https?://`)

// noExternal fails when s has a script or a reference to anything outside
// itself (the SVG namespace name is not a reference).
func noExternal(t *testing.T, s string) {
	t.Helper()
	s = strings.ReplaceAll(s, `xmlns="http://www.w3.org/2000/svg"`, "")
	if m := externalRef.FindString(s); m != "" {
		t.Errorf("external reference or script: %q", m)
	}
}

func TestBarChartSVG(t *testing.T) {
	c := BarChart{Title: "T <&> \"q\"", YLabel: "accuracy", Groups: []BarGroup{
		{Label: "m1", Bars: []Bar{{Label: "B", Value: 0.5, Lo: 0.2, Hi: 0.8}, {Label: "A", Value: 1.2, Lo: math.NaN(), Hi: math.NaN()}}},
		{Label: "m2", Bars: []Bar{{Label: "A", Value: 0.25, Lo: 0.1, Hi: 0.4}}},
	}}
	var b bytes.Buffer
	must(t, c.WriteSVG(&b))
	s := b.String()
	counts := xmlElements(t, s)
	noExternal(t, s)
	if counts["svg"] != 1 || counts["rect.bar"] != 3 || counts["path.errorbar"] != 2 {
		t.Errorf("elements %v: want 1 svg, 3 bars, 2 error bars", counts)
	}
	// Plot height 220 from y = 36: a 0.5 bar is 110 high at y 146; the
	// 1.2 bar is clamped to the full 220.
	if !strings.Contains(s, `y="146.00" width="16.00" height="110.00"`) || !strings.Contains(s, `y="36.00" width="16.00" height="220.00"`) {
		t.Errorf("bar geometry wrong:\n%s", s)
	}
	// Same label, same colour: A is first in sorted order.
	if strings.Count(s, `fill="#0072B2"><title>`) != 2 {
		t.Errorf("arm A bars not sharing the first colour")
	}
}

func TestScatterSVG(t *testing.T) {
	c := ScatterChart{Title: "S", XLabel: "tokens", YLabel: "accuracy", Points: []ScatterPoint{
		{Label: "A", X: 100, Y: 0.8, Highlight: true}, {Label: "B", X: 200, Y: 0.5}, {Label: "C", X: 150, Y: 0.9, Highlight: true},
		{Label: "nan", X: math.NaN(), Y: 0.3},
	}}
	var b bytes.Buffer
	must(t, c.WriteSVG(&b))
	s := b.String()
	counts := xmlElements(t, s)
	noExternal(t, s)
	if counts["circle"] != 3 || counts["circle.front-point"] != 2 || counts["path.front"] != 1 {
		t.Errorf("elements %v: want 3 points, 2 on the front, 1 front line", counts)
	}
	// x axis 0..250 (200 · 1.05 rounded up) over 420 px from 60: A at 228,
	// C at 312; y 0..1 over 240 px from 36: 0.8 at 84, 0.9 at 60. The front
	// steps A → C.
	if !strings.Contains(s, `d="M228.00 84.00H312.00V60.00"`) {
		t.Errorf("front path wrong:\n%s", s)
	}
}

func TestReportHTML(t *testing.T) {
	obs := paperRun()
	r, err := Build(obs, Options{Seed: 1, Resamples: 500, Reference: []string{"b-ttl-ids"}})
	if err != nil {
		t.Fatal(err)
	}
	set, err := ParseCriteria(strings.NewReader("criteria:\n  - {id: \"3\", kind: not_worse, arm: isolda-0.1, than: [b-json, b-ttl, b-ttl-ids], best: true}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := set.Evaluate(Input{Observations: obs})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	must(t, r.WriteHTML(&b, "ISOLDA <report>", res))
	s := b.String()
	counts := xmlElements(t, s)
	noExternal(t, s)
	// 1 accuracy chart + 4 family charts + 1 token chart + 4 Pareto charts.
	if counts["svg"] != 10 || counts["svg.bar-chart"] != 6 || counts["svg.scatter-chart"] != 4 || counts["figure"] != 10 {
		t.Errorf("charts %v: want 10 (6 bar, 4 scatter)", counts)
	}
	// Accuracy chart: 4 models × 4 arms bars with error bars.
	if counts["table"] != 6 {
		t.Errorf("%d tables, want 6 (criteria + 5)", counts["table"])
	}
	if !strings.Contains(s, `<td class="FAIL">FAIL</td>`) || !strings.Contains(s, "<title>ISOLDA &lt;report&gt;</title>") {
		t.Error("criteria outcome or escaped title missing")
	}
	charts, err := r.Charts()
	if err != nil {
		t.Fatal(err)
	}
	if got := xmlElements(t, charts[0].SVG); got["rect.bar"] != 16 || got["path.errorbar"] != 16 {
		t.Errorf("accuracy chart %v: want 16 bars with error bars", got)
	}
	// Every Pareto chart: isolda-0.1 (700 tokens) is on the front and
	// dominates b-json and b-ttl (more tokens, accuracy 0); b-ttl-ids
	// (1000 tokens, more accurate) is on it too.
	for _, c := range charts {
		if c.Name == "tokens" && !strings.Contains(c.SVG, ">1000</text>") {
			t.Errorf("token chart axis does not reach 1000:\n%s", c.SVG)
		}
		if c.Kind == "scatter" {
			if got := xmlElements(t, c.SVG); got["circle.front-point"] != 2 {
				t.Errorf("%s: %d front points, want 2", c.Name, got["circle.front-point"])
			}
		}
	}
	if dir := os.Getenv("REPORT_OUT"); dir != "" {
		must(t, os.WriteFile(filepath.Join(dir, "report.html"), b.Bytes(), 0o644))
	}
}
