package page

import (
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/internal/chart"
	"github.com/isolda/isolda/report"
)

// WritePolicy writes the policy comparison of a select run as a
// self-contained HTML page (no script, no external resource) with its
// tables and a bar chart of the accuracies with their Wilson intervals.
func WritePolicy(w io.Writer, p *report.PolicyReport, title string) error {
	var b strings.Builder
	writeHead(&b, title, htmlStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	var bars []chart.Bar
	for _, r := range p.Rows {
		bars = append(bars, chart.Bar{Label: r.Policy, Value: float64(r.Accuracy), Lo: float64(r.Lo), Hi: float64(r.Hi)})
	}
	c := chart.Bars{Title: "Accuracy by policy (Wilson 95%)", YLabel: "accuracy", Groups: []chart.Group{{Label: p.Split, Bars: bars}}}
	fmt.Fprintf(&b, "<figure id=\"chart-policies\">\n%s</figure>\n", c.SVG())
	for _, t := range p.Tables() {
		writeHTMLTable(&b, t)
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
