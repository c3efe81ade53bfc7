package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Chart is a rendered SVG chart with a name and caption.
type Chart struct {
	// Name is a file-name-safe identifier, e.g. "accuracy" or "pareto-qwen3-4b".
	Name  string
	Title string
	// Kind is "bar" or "scatter".
	Kind string
	SVG  string
}

// Charts renders the report's charts in a fixed order: accuracy by arm and
// model with Wilson intervals; for each model, accuracy by task family; mean
// input tokens by arm and model with their range; for each model, accuracy
// against mean input tokens with the Pareto front.
func (r *Report) Charts() ([]Chart, error) {
	var charts []Chart
	render := func(name, title, kind string, write func(io.Writer) error) error {
		var b strings.Builder
		if err := write(&b); err != nil {
			return err
		}
		charts = append(charts, Chart{Name: name, Title: title, Kind: kind, SVG: b.String()})
		return nil
	}
	overall := BarChart{Title: "Accuracy by arm and model (Wilson 95% intervals)", YLabel: "accuracy"}
	families := map[string]*BarChart{}
	var models []string
	for _, a := range r.Accuracy {
		if a.Graph != All {
			continue
		}
		bar := Bar{Label: a.Arm, Value: float64(a.Accuracy), Lo: float64(a.Lo), Hi: float64(a.Hi)}
		if a.Family == All {
			overall.Groups = appendBar(overall.Groups, a.Model, bar)
			continue
		}
		fc := families[a.Model]
		if fc == nil {
			fc = &BarChart{Title: "Accuracy by task family: " + a.Model, YLabel: "accuracy"}
			families[a.Model] = fc
			models = append(models, a.Model)
		}
		fc.Groups = appendBar(fc.Groups, a.Family, bar)
	}
	if len(overall.Groups) > 0 {
		if err := render("accuracy", overall.Title, "bar", overall.WriteSVG); err != nil {
			return nil, err
		}
	}
	slices.Sort(models)
	for _, m := range models {
		fc := families[m]
		slices.SortStableFunc(fc.Groups, func(a, b BarGroup) int { return strings.Compare(a.Label, b.Label) })
		if err := render("family-"+slug(m), fc.Title, "bar", fc.WriteSVG); err != nil {
			return nil, err
		}
	}
	tok := BarChart{Title: "Mean input tokens by arm and model (bars: min to max)", YLabel: "input tokens"}
	for _, x := range r.Tokens {
		tok.Groups = appendBar(tok.Groups, x.Model, Bar{Label: x.Arm, Value: float64(x.InMean), Lo: float64(x.InMin), Hi: float64(x.InMax)})
		if v := float64(x.InMax); !math.IsNaN(v) {
			tok.YMax = max(tok.YMax, v)
		}
	}
	if len(tok.Groups) > 0 {
		tok.YMax = niceCeil(tok.YMax)
		if err := render("tokens", tok.Title, "bar", tok.WriteSVG); err != nil {
			return nil, err
		}
	}
	var sc *ScatterChart
	flush := func() error {
		if sc == nil {
			return nil
		}
		return render("pareto-"+slug(strings.TrimPrefix(sc.Title, "Accuracy against mean input tokens: ")), sc.Title, "scatter", sc.WriteSVG)
	}
	cur := ""
	for _, p := range r.Pareto {
		if sc == nil || p.Model != cur {
			if err := flush(); err != nil {
				return nil, err
			}
			cur = p.Model
			sc = &ScatterChart{Title: "Accuracy against mean input tokens: " + p.Model, XLabel: "mean input tokens", YLabel: "accuracy"}
		}
		sc.Points = append(sc.Points, ScatterPoint{Label: p.Arm, X: float64(p.Tokens), Y: float64(p.Accuracy), Highlight: p.OnFront})
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return charts, nil
}

func appendBar(groups []BarGroup, label string, bar Bar) []BarGroup {
	if n := len(groups); n > 0 && groups[n-1].Label == label {
		groups[n-1].Bars = append(groups[n-1].Bars, bar)
		return groups
	}
	for i := range groups {
		if groups[i].Label == label {
			groups[i].Bars = append(groups[i].Bars, bar)
			return groups
		}
	}
	return append(groups, BarGroup{Label: label, Bars: []Bar{bar}})
}

// slug keeps letters, digits, '-' and '.' and replaces the rest with '-'.
func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '-'
	}, s)
}

const htmlStyle = `body{font-family:sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.PASS{color:#006d2c;font-weight:bold}.FAIL{color:#b30000;font-weight:bold}.NOT-EVALUATED{color:#666;font-weight:bold}
figure{margin:1em 0}figcaption{font-size:13px;color:#444}`

// WriteHTML writes a self-contained HTML page with the criteria results (if
// any), the charts as inline SVG and every table. It references no external
// resource and contains no script.
func (r *Report) WriteHTML(w io.Writer, title string, results []Result) error {
	charts, err := r.Charts()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(title), htmlStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	if len(results) > 0 {
		b.WriteString("<h2>Pre-registered criteria</h2>\n<table>\n<tr><th>criterion</th><th>kind</th><th>outcome</th><th>description</th><th>figures</th></tr>\n")
		var walk func(rs []Result, depth int)
		walk = func(rs []Result, depth int) {
			for _, res := range rs {
				var figs []string
				for _, ch := range res.Checks {
					mark := "FAIL"
					if ch.Pass {
						mark = "pass"
					}
					vs := ch.Arm
					if ch.Than != "" {
						vs += " vs " + ch.Than
					}
					figs = append(figs, esc(fmt.Sprintf("%s %s, %s: %s", mark, ch.Group, vs, ch.Figures)))
				}
				for _, n := range res.Notes {
					figs = append(figs, esc("note: "+n))
				}
				fmt.Fprintf(&b, "<tr><td>%s%s</td><td>%s</td><td class=\"%s\">%s</td><td>%s</td><td>%s</td></tr>\n",
					strings.Repeat("&#160;&#160;", depth), esc(res.ID), esc(res.Kind), slug(string(res.Outcome)), esc(string(res.Outcome)),
					esc(res.Description), strings.Join(figs, "<br/>"))
				walk(res.Sub, depth+1)
			}
		}
		walk(results, 0)
		b.WriteString("</table>\n")
	}
	if len(charts) > 0 {
		b.WriteString("<h2>Charts</h2>\n")
	}
	for _, c := range charts {
		fmt.Fprintf(&b, "<figure id=\"chart-%s\">\n%s<figcaption>%s</figcaption>\n</figure>\n", esc(c.Name), c.SVG, esc(c.Title))
	}
	for _, t := range r.Tables() {
		fmt.Fprintf(&b, "<h2 id=\"table-%s\">%s</h2>\n<table>\n<tr>", esc(t.Name), esc(t.Title))
		for _, h := range t.Header {
			fmt.Fprintf(&b, "<th>%s</th>", esc(h))
		}
		b.WriteString("</tr>\n")
		for _, row := range t.Rows {
			b.WriteString("<tr>")
			for _, c := range row {
				cls := ""
				if isNumeric(c) {
					cls = ` class="num"`
				}
				fmt.Fprintf(&b, "<td%s>%s</td>", cls, esc(c))
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func isNumeric(s string) bool {
	if s == "–" {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
