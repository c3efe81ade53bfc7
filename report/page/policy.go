package page

import (
	"html/template"
	"io"

	"github.com/isolda/isolda/internal/chart"
	"github.com/isolda/isolda/report"
)

// policyView is the data of the "policy" template.
type policyView struct {
	Head   head
	Chart  template.HTML // written by package chart
	Tables []tableView
}

// WritePolicy writes the policy comparison of a select run as a
// self-contained HTML page (no script, no external resource) with its
// tables and a bar chart of the accuracies with their Wilson intervals.
func WritePolicy(w io.Writer, p *report.PolicyReport, title string) error {
	var bars []chart.Bar
	for _, r := range p.Rows {
		bars = append(bars, chart.Bar{Label: r.Policy, Value: float64(r.Accuracy), Lo: float64(r.Lo), Hi: float64(r.Hi)})
	}
	c := chart.Bars{Title: "Accuracy by policy (Wilson 95%)", YLabel: "accuracy", Groups: []chart.Group{{Label: p.Split, Bars: bars}}}
	v := policyView{Head: newHead(title, htmlStyle), Chart: template.HTML(c.SVG())}
	for _, t := range p.Tables() {
		v.Tables = append(v.Tables, newTable(t))
	}
	return render(w, "policy", v)
}
