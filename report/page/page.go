package page

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/internal/chart"
	"github.com/isolda/isolda/report"
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
func Charts(r *report.Report) ([]Chart, error) {
	var charts []Chart
	add := func(name, title, kind, svg string) {
		charts = append(charts, Chart{Name: name, Title: title, Kind: kind, SVG: svg})
	}
	// One colour per arm across the charts.
	var arms []string
	for _, a := range r.Accuracy {
		if !slices.Contains(arms, a.Arm) {
			arms = append(arms, a.Arm)
		}
	}
	for _, x := range r.Tokens {
		if !slices.Contains(arms, x.Arm) {
			arms = append(arms, x.Arm)
		}
	}
	slices.Sort(arms)
	overall := chart.Bars{Title: "Accuracy by arm and model (Wilson 95% intervals)", YLabel: "accuracy", Keys: arms}
	families := map[string]*chart.Bars{}
	var models []string
	for _, a := range r.Accuracy {
		if a.Graph != report.All {
			continue
		}
		bar := chart.Bar{Label: a.Arm, Value: float64(a.Accuracy), Lo: float64(a.Lo), Hi: float64(a.Hi)}
		if a.Family == report.All {
			overall.Groups = appendBar(overall.Groups, a.Model, bar)
			continue
		}
		fc := families[a.Model]
		if fc == nil {
			fc = &chart.Bars{Title: "Accuracy by task family: " + a.Model, YLabel: "accuracy", Keys: arms}
			families[a.Model] = fc
			models = append(models, a.Model)
		}
		fc.Groups = appendBar(fc.Groups, a.Family, bar)
	}
	if len(overall.Groups) > 0 {
		add("accuracy", overall.Title, "bar", overall.SVG())
	}
	slices.Sort(models)
	for _, m := range models {
		fc := families[m]
		slices.SortStableFunc(fc.Groups, func(a, b chart.Group) int { return strings.Compare(a.Label, b.Label) })
		add("family-"+slug(m), fc.Title, "bar", fc.SVG())
	}
	tok := chart.Bars{Title: "Mean input tokens by arm and model (bars: min to max)", YLabel: "input tokens", Keys: arms}
	for _, x := range r.Tokens {
		tok.Groups = appendBar(tok.Groups, x.Model, chart.Bar{Label: x.Arm, Value: float64(x.InMean), Lo: float64(x.InMin), Hi: float64(x.InMax)})
		if v := float64(x.InMax); !math.IsNaN(v) {
			tok.YMax = max(tok.YMax, v)
		}
	}
	if len(tok.Groups) > 0 {
		tok.YMax = chart.NiceCeil(tok.YMax)
		add("tokens", tok.Title, "bar", tok.SVG())
	}
	var sc *chart.Scatter
	model := ""
	flush := func() {
		if sc != nil {
			add("pareto-"+slug(model), sc.Title, "scatter", sc.SVG())
		}
	}
	for _, p := range r.Pareto {
		if sc == nil || p.Model != model {
			flush()
			model = p.Model
			sc = &chart.Scatter{Title: "Accuracy against mean input tokens: " + p.Model, XLabel: "mean input tokens", YLabel: "accuracy"}
		}
		sc.Points = append(sc.Points, chart.Point{Label: p.Arm, X: float64(p.Tokens), Y: float64(p.Accuracy), Front: p.OnFront})
	}
	flush()
	return charts, nil
}

func appendBar(groups []chart.Group, label string, bar chart.Bar) []chart.Group {
	for i := range slices.Backward(groups) {
		if groups[i].Label == label {
			groups[i].Bars = append(groups[i].Bars, bar)
			return groups
		}
	}
	return append(groups, chart.Group{Label: label, Bars: []chart.Bar{bar}})
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

// htmlStyle is the style sheet of the report pages. Tables become stacked
// cards on narrow screens (each cell labelled by its column), preformatted
// text wraps, and charts scale down: nothing is wider than the window.
const htmlStyle = `*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1rem;color:#222;max-width:1200px}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1rem}
nav{font-size:.9rem}nav a{margin-right:.75rem}
table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.PASS{color:#006d2c;font-weight:bold}.FAIL{color:#b30000;font-weight:bold}.NOT-EVALUATED{color:#666;font-weight:bold}
figure{margin:0;min-width:0;max-width:100%}figcaption{font-size:13px;color:#444}
.charts{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
svg.chart{max-width:100%;height:auto;display:block}
p.note{color:#555;font-style:italic}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
dl.meta dt{font-weight:bold}dl.meta dd{margin:0;overflow-wrap:anywhere}
code,pre{font:12px/1.4 ui-monospace,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f5f7;padding:.5rem;margin:.25rem 0;max-height:30rem;overflow-y:auto}
@media (max-width:700px){
.charts figure{overflow-x:auto;width:100%}
svg.chart{max-width:none}
table.data,table.data tbody{display:block;width:100%}
table.data tr.head{display:none}
table.data tr{display:flex;flex-wrap:wrap;border:1px solid #ccc;margin:.4rem 0;padding:.15rem 0}
table.data td{display:block;border:0;padding:1px 6px;text-align:left;max-width:100%}
table.data td::before{content:attr(data-label) ": ";color:#555}
}`

// samplesStyle is the style of the per-sample view.
const samplesStyle = `#samples{display:flex;flex-direction:column}
#samples>h2{order:0}#samples>.count{order:1}#samples>.filters{order:2}#samples>.sample-list{order:3}#samples>.note{order:4}
.filters{display:flex;flex-wrap:wrap;gap:.5rem}
.filters fieldset{border:1px solid #ccc;border-radius:4px;margin:0;padding:.25rem .5rem;display:flex;flex-wrap:wrap;gap:.1rem .75rem;min-width:0}
.filters label{white-space:nowrap;font-size:.9rem}
.sample-list{counter-reset:shown}
.sample{counter-increment:shown;border:1px solid #ccc;border-radius:4px;margin:.35rem 0;padding:.25rem .5rem}
.sample summary{cursor:pointer;display:flex;flex-wrap:wrap;gap:.1rem .6rem;align-items:baseline}
.sample summary .q{flex-basis:100%;color:#222;overflow-wrap:anywhere}
.sample summary .ans{flex-basis:100%;color:#555;font-size:.9rem;overflow-wrap:anywhere}
.verdict{font-weight:bold;padding:0 .3rem;border-radius:3px;color:#fff}
.correct .verdict{background:#1a7f37}.wrong .verdict{background:#b30000}.failed .verdict{background:#666}
.tag{font-size:.85rem;color:#444;overflow-wrap:anywhere}
.msg .role{font-weight:bold;font-size:.85rem;margin-top:.5rem}
a.ctx-ref{display:inline-block;background:#fff3c4;color:#5a4500;border:1px dashed #c9a400;padding:0 .3rem;text-decoration:none}
.count{font-weight:bold}.count-n::before{content:counter(shown)}
.problems{border:2px solid #b30000;padding:.25rem .75rem;margin:.5rem 0}
details.inputs>summary h3{display:inline}
.context{margin:.5rem 0}.context h3{display:inline;margin:.25rem 0;font-size:.95rem;overflow-wrap:anywhere}
`

// DefaultMaxSamples is the number of samples the per-sample view aims at
// when Page.MaxSamples is 0: a run with more calls shows a sample of every
// (model, arm, family) cell.
const DefaultMaxSamples = 1000

// minPerCell is the fewest samples of a cell the view shows when the run
// has more calls than the view shows.
const minPerCell = 3

// maxShownContext bounds the characters of a context shown on the page.
const maxShownContext = 256 << 10

// maxInlineContexts bounds the bytes of all the contexts the page shows;
// the answers whose contexts are beyond it point at the context's file in
// the run folder.
const maxInlineContexts = 4 << 20

// maxShownAnswer bounds the bytes of an answer (or reasoning) shown.
const maxShownAnswer = 16 << 10

// Page is the report's HTML page.
type Page struct {
	Title   string
	Report  *report.Report
	Results []report.Result
	// Run, when set, adds the run's metadata and the per-sample view.
	Run *report.Run
	// MaxSamples is the number of samples the view aims at (0 means
	// DefaultMaxSamples): every sample of a run with no more calls, else
	// the first k of every (model, arm, family) cell. failed and wrong
	// answers first, with k = max(3, MaxSamples / cells). The page says
	// how many it shows of how many.
	MaxSamples int
	// RunLink is the run folder as a link from the page ("" when the page
	// does not link to the run's files).
	RunLink string
}

// head is what the "head" template writes: the document up to the
// opening body tag, with a Content-Security-Policy that allows nothing but
// the page's own style sheet (by hash), so no script runs and nothing is
// loaded.
type head struct {
	Title string
	CSP   string
	Style template.CSS
}

func newHead(title, style string) head {
	sum := sha256.Sum256([]byte(style))
	csp := "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'"
	return head{Title: title, CSP: csp, Style: template.CSS(style)}
}

// link is an entry of the page's navigation.
type link struct{ ID, Text string }

// chartView is a chart as the page shows it.
type chartView struct {
	Name string
	SVG  template.HTML // written by package chart, which escapes its text
}

// pageView is the data of the "page" template.
type pageView struct {
	Head     head
	Links    []link
	Summary  *summaryView
	Criteria []criterionView
	Charts   []chartView
	Tables   []tableView
	Samples  *samplesView
	RunMeta  *runMetaView
	Contexts []contextView
}

// WriteHTML writes the page, results first: the run's summary (with the
// log's problems), criteria, charts and tables, then the per-sample view,
// the run's metadata (its inputs folded) and the contexts the samples
// refer to. The page has no script: the sample filters are check boxes
// read by CSS (:has), and a CSS counter counts the samples shown. A run
// read lazily has the messages of the samples shown read here.
func (p Page) WriteHTML(w io.Writer) error {
	r := p.Report
	charts, err := Charts(r)
	if err != nil {
		return err
	}
	var filterCSS string
	var view sampleView
	if p.Run != nil {
		view = pickSamples(p.Run.Samples, cmp0(p.MaxSamples, DefaultMaxSamples))
		if err := p.Run.LoadMessages(view.indexes); err != nil {
			return err
		}
		filterCSS = newFilters(p.Run.Samples).css()
	}
	v := pageView{Head: newHead(p.Title, htmlStyle+"\n"+samplesStyle+"\n"+filterCSS)}
	if p.Run != nil {
		v.Links = append(v.Links, link{"summary", "Summary"})
	}
	if len(p.Results) > 0 {
		v.Links = append(v.Links, link{"criteria", "Criteria"})
	}
	if len(charts) > 0 {
		v.Links = append(v.Links, link{"charts", "Charts"})
	}
	v.Links = append(v.Links, link{"tables", "Tables"})
	if p.Run != nil {
		v.Links = append(v.Links, link{"samples", "Answers"}, link{"run", "Run"}, link{"contexts", "Contexts"})
		v.Summary = newSummary(p.Run)
	}
	v.Criteria = newCriteria(p.Results)
	for _, c := range charts {
		// The chart's own title is its caption.
		v.Charts = append(v.Charts, chartView{Name: c.Name, SVG: template.HTML(c.SVG)})
	}
	for _, t := range r.DisplayTables() {
		v.Tables = append(v.Tables, newTable(t))
	}
	if p.Run != nil {
		var used []usedContext
		v.Samples, used = newSamples(p.Run, view, p.RunLink)
		v.RunMeta = newRunMeta(p.Run)
		v.Contexts = newContexts(p.Run, used)
	}
	return render(w, "page", v)
}

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// criterionView is a row of the criteria table.
type criterionView struct {
	Indent                                []struct{}
	ID, Kind, Class, Outcome, Description string
	Figures                               []string
}

// newCriteria flattens the criteria, a sub-criterion indented under its
// parent.
func newCriteria(results []report.Result) []criterionView {
	var rows []criterionView
	var walk func(rs []report.Result, depth int)
	walk = func(rs []report.Result, depth int) {
		for _, res := range rs {
			var figs []string
			for _, ch := range res.Checks {
				figs = append(figs, ch.Line())
			}
			for _, n := range res.Notes {
				figs = append(figs, "note: "+n)
			}
			rows = append(rows, criterionView{Indent: make([]struct{}, depth), ID: res.ID, Kind: res.Kind,
				Class: slug(string(res.Outcome)), Outcome: string(res.Outcome), Description: res.Description, Figures: figs})
			walk(res.Sub, depth+1)
		}
	}
	walk(results, 0)
	return rows
}

// tableView is a table as the "table" template writes it: numbers
// right-aligned, each cell labelled with its column for the narrow layout;
// an empty table with a note shows the note.
type tableView struct {
	Name, Title, Note string
	Header            []string
	Rows              [][]cellView
}

// cellView is a table cell.
type cellView struct {
	Label, Text string
	Num         bool
}

func newTable(t report.Table) tableView {
	v := tableView{Name: t.Name, Title: t.Title, Note: t.Note, Header: t.Header}
	for _, row := range t.Rows {
		cells := make([]cellView, len(row))
		for i, c := range row {
			label := ""
			if i < len(t.Header) {
				label = t.Header[i]
			}
			cells[i] = cellView{Label: label, Text: c, Num: isNumeric(c)}
		}
		v.Rows = append(v.Rows, cells)
	}
	return v
}

func isNumeric(s string) bool {
	if s == "–" {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
