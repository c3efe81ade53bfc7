package page

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/xmltest"
	"github.com/isolda/isolda/report"
)

// xmlElements parses s as XML (failing the test when it is not well formed)
// and counts start elements by local name and by "name.class".
func xmlElements(t *testing.T, s string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, tok := range xmltest.Tokens(t, s) {
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

// noExternal fails when s has a script or a reference to anything outside
// itself: an href or src attribute other than a link within the page (the
// SVG namespace name is a name, not a reference), or a url() or @import in
// a style sheet. Text, such as the IRIs of a graph, is not a reference.
func noExternal(t *testing.T, s string) {
	t.Helper()
	inStyle := false
	for _, tok := range xmltest.Tokens(t, s) {
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "script" {
				t.Error("the page has a script element")
			}
			inStyle = tok.Name.Local == "style"
			for _, a := range tok.Attr {
				if n := strings.ToLower(a.Name.Local); (n == "href" || n == "src") && !strings.HasPrefix(a.Value, "#") {
					t.Errorf("external reference %s=%q", a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			inStyle = false
		case xml.CharData:
			if inStyle && (strings.Contains(string(tok), "url(") || strings.Contains(string(tok), "@import")) {
				t.Errorf("the style sheet loads something: %.200s", tok)
			}
		}
	}
}

func TestReportHTML(t *testing.T) {
	p := paperPage(t, "ISOLDA <report>")
	r := p.Report
	var b bytes.Buffer
	must(t, p.WriteHTML(&b))
	s := b.String()
	counts := xmlElements(t, s)
	noExternal(t, s)
	// 1 accuracy chart + 4 family charts + 1 token chart + 4 Pareto charts.
	if counts["svg"] != 10 || counts["svg.bar-chart"] != 6 || counts["svg.scatter-chart"] != 4 || counts["figure"] != 10 {
		t.Errorf("charts %v: want 10 (6 bar, 4 scatter)", counts)
	}
	// Accuracy chart: 4 models × 4 arms bars with error bars.
	// One trial per question: the run-to-run table is a note.
	if counts["table"] != 5 || !strings.Contains(s, report.NoRunToRun) {
		t.Errorf("%d tables, want 5 (criteria + 4, run-to-run a note)", counts["table"])
	}
	if !strings.Contains(s, `<td data-label="outcome" class="FAIL">FAIL</td>`) || !strings.Contains(s, "<title>ISOLDA &lt;report&gt;</title>") {
		t.Error("criteria outcome or escaped title missing")
	}
	charts, err := Charts(r)
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
