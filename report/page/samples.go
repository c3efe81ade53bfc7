package page

import (
	"encoding/json"
	"fmt"
	"github.com/isolda/isolda/eval"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/report"
)

// filters are the values of the per-sample view's filters, each sorted;
// a sample's classes index them.
type filters struct {
	arms, models, families []string
}

// outcomes are the correctness filter's values, as class names.
var outcomes = []string{"correct", "wrong", "failed"}

func newFilters(samples []report.Sample) filters {
	var f filters
	for _, s := range samples {
		for _, p := range []struct {
			list *[]string
			v    string
		}{{&f.arms, s.Arm}, {&f.models, s.Model}, {&f.families, s.Family}} {
			if !slices.Contains(*p.list, p.v) {
				*p.list = append(*p.list, p.v)
			}
		}
	}
	slices.Sort(f.arms)
	slices.Sort(f.models)
	slices.Sort(f.families)
	return f
}

// css hides the samples whose arm, model, family or outcome is unticked.
// Values are referred to by index, so no value needs CSS escaping.
func (f filters) css() string {
	var b strings.Builder
	rule := func(kind string, i int) {
		fmt.Fprintf(&b, "#samples:has(#f-%s-%d:not(:checked)) .%s-%d{display:none}\n", kind, i, kind, i)
	}
	for i := range f.arms {
		rule("arm", i)
	}
	for i := range f.models {
		rule("model", i)
	}
	for i := range f.families {
		rule("family", i)
	}
	for _, o := range outcomes {
		fmt.Fprintf(&b, "#samples:has(#f-%s:not(:checked)) .sample.%s{display:none}\n", o, o)
	}
	return b.String()
}

// outcome is the correctness class of a sample.
func outcome(s report.Sample) string {
	switch {
	case s.Status != runner.StatusOK:
		return "failed"
	case s.Correct:
		return "correct"
	}
	return "wrong"
}

// writeFieldset writes one filter group: a check box per value, ticked.
func writeFieldset(b *strings.Builder, legend, kind string, values []string, count func(string) string) {
	fmt.Fprintf(b, "<fieldset><legend>%s</legend>", esc(legend))
	for i, v := range values {
		fmt.Fprintf(b, "<label><input type=\"checkbox\" id=\"f-%s-%d\" checked=\"checked\"/> %s <span class=\"tag\">(%s)</span></label>", kind, i, esc(v), esc(count(v)))
	}
	b.WriteString("</fieldset>\n")
}

// writeRunMeta writes the run section: identity, dates, parameters,
// models with their endpoints, arms with their formats and options, and
// the hashes of every input.
func writeRunMeta(b *strings.Builder, run *report.Run) {
	m := run.Manifest
	b.WriteString("<section id=\"run\">\n<h2>Run</h2>\n<dl class=\"meta\">\n")
	item := func(k, v string) { fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>\n", esc(k), esc(v)) }
	if run.First != "" {
		item("first call", run.First)
		item("last call", run.Last)
	}
	seed := "none"
	if m.Params.Seed != nil {
		seed = strconv.FormatInt(*m.Params.Seed, 10)
	}
	item("parameters", fmt.Sprintf("layout %s, temperature %g, max_tokens %d, seed %s, trials %d",
		m.Params.Layout, m.Params.Temperature, m.Params.MaxTokens, seed, max(m.Params.Trials, 1)))
	item("questions", fmt.Sprintf("%d in %s, SHA-1 %s", m.Questions, runner.QuestionsFile, m.QuestionsSHA1))
	b.WriteString("</dl>\n")

	b.WriteString("<h3>Models</h3>\n<table class=\"data\">\n<tr class=\"head\"><th>model</th><th>model sent</th><th>tokenizer</th><th>endpoint</th><th>extra body</th></tr>\n")
	for _, md := range m.Params.Models {
		extra := ""
		if len(md.ExtraBody) > 0 {
			if j, err := json.Marshal(md.ExtraBody); err == nil { // keys sorted
				extra = string(j)
			}
		}
		ep := strings.Join(run.Endpoints[md.Name], " ")
		if ep == "" {
			ep = "not logged"
		}
		fmt.Fprintf(b, "<tr><td data-label=\"model\">%s</td><td data-label=\"model sent\">%s</td><td data-label=\"tokenizer\">%s</td><td data-label=\"endpoint\">%s</td><td data-label=\"extra body\"><code>%s</code></td></tr>\n",
			esc(md.Name), esc(md.Model), esc(md.Tokenizer), esc(ep), esc(extra))
	}
	b.WriteString("</table>\n")

	// Arms: from the manifest's arm list when it has one, else from the
	// contexts; orderings and budgets come from the contexts.
	type armRow struct{ format, options, hide, ordering, budget string }
	arms := map[string]*armRow{}
	var names []string
	get := func(name string) *armRow {
		if a, ok := arms[name]; ok {
			return a
		}
		a := &armRow{}
		arms[name] = a
		names = append(names, name)
		return a
	}
	for _, a := range m.Arms {
		row := get(a.Name)
		row.format, row.options = a.Format, a.Options
		if a.HideName {
			row.hide = "yes"
		}
	}
	addWord := func(list *string, w string) {
		if w != "" && !slices.Contains(strings.Split(*list, ", "), w) {
			if *list != "" {
				*list += ", "
			}
			*list += w
		}
	}
	for _, c := range m.Contexts {
		row := get(c.Arm)
		if row.format == "" {
			row.format = c.Format
		}
		if c.HideName {
			row.hide = "yes"
		}
		addWord(&row.ordering, c.OrderingName())
		if c.Budget > 0 {
			addWord(&row.budget, fmt.Sprintf("%d %s tokens (%s)", c.Budget, c.Tokenizer, c.Policy))
		}
	}
	if len(m.Arms) == 0 {
		slices.Sort(names)
	}
	b.WriteString("<h3>Arms</h3>\n<table class=\"data\">\n<tr class=\"head\"><th>arm</th><th>format</th><th>options</th><th>format name hidden</th><th>ordering</th><th>budget</th></tr>\n")
	for _, n := range names {
		a := arms[n]
		opts := a.options
		if opts == "" && len(m.Arms) == 0 {
			opts = "not recorded"
		}
		fmt.Fprintf(b, "<tr><td data-label=\"arm\">%s</td><td data-label=\"format\">%s</td><td data-label=\"options\">%s</td><td data-label=\"format name hidden\">%s</td><td data-label=\"ordering\">%s</td><td data-label=\"budget\">%s</td></tr>\n",
			esc(n), esc(a.format), esc(opts), esc(cmpStr(a.hide, "no")), esc(a.ordering), esc(cmpStr(a.budget, "none")))
	}
	b.WriteString("</table>\n")

	fmt.Fprintf(b, "<details class=\"inputs\"><summary><h3>Inputs: %d contexts with their SHA-1s</h3></summary>\n<table class=\"data\">\n<tr class=\"head\"><th>graph</th><th>arm</th><th>graph SHA-1</th><th>context SHA-1</th><th>file</th></tr>\n", len(m.Contexts))
	for _, c := range m.Contexts {
		fmt.Fprintf(b, "<tr><td data-label=\"graph\">%s</td><td data-label=\"arm\">%s</td><td data-label=\"graph SHA-1\"><code>%s</code></td><td data-label=\"context SHA-1\"><code>%s</code></td><td data-label=\"file\">%s</td></tr>\n",
			esc(c.Graph), esc(c.Arm), esc(c.GraphSHA1), esc(c.SHA1), esc(c.File))
	}
	b.WriteString("</table>\n</details>\n</section>\n")
}

// brief is the one-line answer and gold of a sample's summary.
func brief(s report.Sample) string {
	if s.Status != runner.StatusOK {
		return "call failed: " + clip(s.Error, 120)
	}
	return "answer " + strconv.Quote(clip(s.Answer, 120)) + ", gold " + strconv.Quote(clip(s.Gold, 60))
}

// clip shortens s to at most n characters on one line, marking a cut
// with an ellipsis.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// writeRunSummary writes the run's identity and calls, and what is wrong
// with its log: records outside the design (not counted) and lines that
// are not records.
func writeRunSummary(b *strings.Builder, run *report.Run) {
	m := run.Manifest
	b.WriteString("<section id=\"summary\">\n<h2>Summary</h2>\n<dl class=\"meta\">\n")
	item := func(k, v string) { fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>\n", esc(k), esc(v)) }
	item("run id", m.RunID)
	if m.Name != "" {
		item("experiment", m.Name)
	}
	item("folder", run.Dir)
	item("calls", fmt.Sprintf("%d answered, %d failed, of %d planned", run.OK, run.Failed, m.Calls))
	if run.Skipped > 0 {
		item("skipped lines", fmt.Sprintf("%d line(s) of %s are not records (such as a torn last line) and were skipped", run.Skipped, runner.AnswersFile))
	}
	b.WriteString("</dl>\n")
	if n := len(run.OutOfDesign); n > 0 {
		fmt.Fprintf(b, "<div class=\"problems\" role=\"alert\"><p><strong>Error: %d record(s) of %s are not calls of the run's design; none is counted.</strong></p>\n<ul>\n", n, runner.AnswersFile)
		for i, p := range run.OutOfDesign {
			if i == 50 {
				fmt.Fprintf(b, "<li>… and %d more</li>\n", n-i)
				break
			}
			fmt.Fprintf(b, "<li><code>%s</code></li>\n", esc(p.String()))
		}
		b.WriteString("</ul></div>\n")
	}
	for _, p := range run.SkippedLines {
		fmt.Fprintf(b, "<p class=\"note\">skipped: %s</p>\n", esc(p.String()))
	}
	b.WriteString("</section>\n")
}

// sampleView is the samples the per-sample view shows.
type sampleView struct {
	// indexes of the samples shown, in the run's order.
	indexes []int
	// perCell is the most samples shown of one (model, arm, family) cell
	// (0: every sample is shown).
	perCell, cells int
}

// pickSamples chooses the samples to show: every one when there are at
// most limit, else the first k of every (model, arm, family) cell in the
// run's order, failed and wrong answers before correct ones, with
// k = max(minPerCell, limit / cells).
func pickSamples(samples []report.Sample, limit int) sampleView {
	type cell struct{ model, arm, family string }
	cells := map[cell]int{}
	for _, s := range samples {
		cells[cell{s.Model, s.Arm, s.Family}]++
	}
	v := sampleView{cells: len(cells)}
	if len(samples) <= limit {
		v.indexes = make([]int, len(samples))
		for i := range samples {
			v.indexes[i] = i
		}
		return v
	}
	k := max(minPerCell, limit/max(len(cells), 1))
	v.perCell = k
	taken := map[cell]int{}
	picked := make([]bool, len(samples))
	for _, wrongPass := range []bool{true, false} {
		for i, s := range samples {
			c := cell{s.Model, s.Arm, s.Family}
			if picked[i] || taken[c] >= k || (outcome(s) != "correct") != wrongPass {
				continue
			}
			picked[i] = true
			taken[c]++
		}
	}
	for i, ok := range picked {
		if ok {
			v.indexes = append(v.indexes, i)
		}
	}
	return v
}

// cutAnswer is an answer (or reasoning) text for the page: at most
// maxShownAnswer bytes, with a note giving its whole size when cut.
func cutAnswer(text string, size, line int) string {
	if size <= maxShownAnswer && len(text) == size {
		return "<pre>" + esc(text) + "</pre>"
	}
	n := min(maxShownAnswer, len(text))
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	return fmt.Sprintf("<p class=\"note\">cut: the first %d of %d bytes are shown; the whole text is on line %d of %s</p><pre>%s</pre>",
		n, size, line, runner.AnswersFile, esc(text[:n]))
}

// writeSamples writes the per-sample view (filters, count, one collapsible
// entry per sample shown) and returns the SHA-1s of the contexts the
// entries refer to, in order, with whether the page shows them (those past
// maxInlineContexts are pointed at in the run folder).
func writeSamples(b *strings.Builder, run *report.Run, view sampleView, runLink string) []usedContext {
	f := newFilters(run.Samples)
	total := map[string]map[string]int{"arm": {}, "model": {}, "family": {}, "outcome": {}}
	for _, s := range run.Samples {
		total["arm"][s.Arm]++
		total["model"][s.Model]++
		total["family"][s.Family]++
		total["outcome"][outcome(s)]++
	}
	var shownOf map[string]map[string]int // nil when every sample is shown
	if len(view.indexes) < len(run.Samples) {
		shownOf = map[string]map[string]int{"arm": {}, "model": {}, "family": {}, "outcome": {}}
		for _, i := range view.indexes {
			s := run.Samples[i]
			shownOf["arm"][s.Arm]++
			shownOf["model"][s.Model]++
			shownOf["family"][s.Family]++
			shownOf["outcome"][outcome(s)]++
		}
	}
	tally := func(kind, v string) string {
		if shownOf == nil {
			return strconv.Itoa(total[kind][v])
		}
		return fmt.Sprintf("%d of %d", shownOf[kind][v], total[kind][v])
	}
	b.WriteString("<section id=\"samples\">\n<h2>Answers</h2>\n")
	shown := len(view.indexes)
	how := "every call of the run"
	if view.perCell > 0 {
		how = fmt.Sprintf("up to %d of each of the %d model × arm × family cells, failed and wrong answers first", view.perCell, view.cells)
	}
	b.WriteString("<div class=\"filters\" role=\"group\" aria-label=\"Filter the answers\">\n")
	writeFieldset(b, "Arm", "arm", f.arms, func(v string) string { return tally("arm", v) })
	writeFieldset(b, "Model", "model", f.models, func(v string) string { return tally("model", v) })
	writeFieldset(b, "Family", "family", f.families, func(v string) string { return tally("family", v) })
	b.WriteString("<fieldset><legend>Outcome</legend>")
	for _, o := range outcomes {
		fmt.Fprintf(b, "<label><input type=\"checkbox\" id=\"f-%s\" checked=\"checked\"/> %s <span class=\"tag\">(%s)</span></label>", o, o, tally("outcome", o))
	}
	b.WriteString("</fieldset>\n</div>\n<div class=\"sample-list\">\n")
	idx := func(list []string, v string) int { return slices.Index(list, v) }
	ctxName := map[string]string{}
	ctxFile := map[string]string{}
	for _, c := range run.Manifest.Contexts {
		if _, ok := ctxName[c.SHA1]; !ok {
			ctxName[c.SHA1] = c.Arm + " on " + c.Graph
			if c.Item != "" {
				ctxName[c.SHA1] += " item " + c.Item
			}
			ctxFile[c.SHA1] = c.File
		}
	}
	var used []usedContext
	inline := map[string]bool{}
	seen := map[string]bool{}
	budget := maxInlineContexts
	for _, i := range view.indexes {
		s := run.Samples[i]
		o := outcome(s)
		fmt.Fprintf(b, "<details class=\"sample %s arm-%d model-%d family-%d\">\n<summary><span class=\"verdict\">%s</span>"+
			"<span class=\"tag\">%s</span><span class=\"tag\">%s</span><span class=\"tag\">%s</span><span class=\"tag\">%s · trial %d</span>"+
			"<span class=\"q\">%s</span><span class=\"ans\">%s</span></summary>\n",
			o, idx(f.arms, s.Arm), idx(f.models, s.Model), idx(f.families, s.Family), o,
			esc("arm "+s.Arm), esc("model "+s.Model), esc(s.Family), esc(s.QuestionID), s.Trial, esc(s.Question), esc(brief(s)))
		b.WriteString("<dl class=\"meta\">\n")
		item := func(k, v string) { fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>\n", esc(k), v) }
		gold := esc(s.Gold)
		if len(s.Alternatives) > 0 {
			gold += esc(" (also accepted: " + strings.Join(s.Alternatives, ", ") + ")")
		}
		item("gold", gold)
		if s.Status == runner.StatusOK {
			item("answer", cutAnswer(s.Answer, s.AnswerBytes, s.Line))
			if s.Reasoning != "" {
				item("reasoning", cutAnswer(s.Reasoning, s.ReasoningBytes, s.Line))
			}
			why := fmt.Sprintf("%s, score %s: scorer %s", o, strconv.FormatFloat(s.Score, 'f', -1, 64), cmpStr(s.Scorer, "default"))
			if s.Rule != "" {
				why += ", rule " + s.Rule
			}
			if s.Parsed != "" {
				why += fmt.Sprintf(", parsed %q", clip(s.Parsed, 200))
			}
			item("score", esc(why))
		} else {
			item("error", esc(clip(s.Error, 2000)))
		}
		tokens := fmt.Sprintf("%d prompt, %d completion (server)", s.PromptTokens, s.CompletionTokens)
		if s.LocalPromptTokens >= 0 {
			tokens += fmt.Sprintf("; %d prompt (local count)", s.LocalPromptTokens)
		}
		item("tokens", esc(tokens))
		item("latency", esc(fmt.Sprintf("%.0f ms, %d attempt(s), %s", s.LatencyMS, s.Attempts, s.Time)))
		if s.Finish != "" {
			item("finish", esc(s.Finish))
		}
		item("graph", esc(s.Graph))
		item("log", esc(fmt.Sprintf("%s line %d", runner.AnswersFile, s.Line)))
		b.WriteString("</dl>\n<div class=\"messages\">\n")
		for _, m := range s.Messages {
			fmt.Fprintf(b, "<div class=\"msg\"><div class=\"role\">%s</div><pre>%s", esc(m.Role), esc(m.Before))
			if sha := m.ContextSHA1; sha != "" {
				size := len(run.Contexts[sha])
				if !seen[sha] {
					seen[sha] = true
					if size <= budget {
						budget -= min(size, maxShownContext)
						inline[sha] = true
					}
					used = append(used, usedContext{sha1: sha, inline: inline[sha]})
				}
				if inline[sha] {
					fmt.Fprintf(b, "<a class=\"ctx-ref\" href=\"#ctx-%s\">[context %s: %d bytes, SHA-1 %s; shown once under Contexts]</a>",
						esc(sha), esc(ctxName[sha]), size, esc(sha))
				} else {
					where := esc(ctxFile[sha]) + " in the run folder"
					if runLink != "" && ctxFile[sha] != "" {
						where = fmt.Sprintf("<a href=\"%s\">%s</a>", esc(path.Join(runLink, ctxFile[sha])), esc(ctxFile[sha]))
					}
					fmt.Fprintf(b, "<span class=\"ctx-ref\">[context %s: %d bytes, SHA-1 %s; not embedded (the page holds at most %d MB of contexts): %s]</span>",
						esc(ctxName[sha]), size, esc(sha), maxInlineContexts>>20, where)
				}
				b.WriteString(esc(m.After))
			}
			b.WriteString("</pre></div>\n")
		}
		b.WriteString("</div>\n</details>\n")
	}
	b.WriteString("</div>\n")
	// After the list, for the CSS counter to have counted the samples
	// shown; the style sheet puts it above the list.
	fmt.Fprintf(b, "<p class=\"count\" role=\"status\"><span class=\"count-n\"></span> of %d answers shown; the page holds %d of the run's %d calls (%s). "+
		"Every call is in %s and answers.csv.</p>\n", shown, shown, len(run.Samples), esc(how), runner.AnswersFile)
	b.WriteString("</section>\n")
	return used
}

// usedContext is a context the samples shown refer to.
type usedContext struct {
	sha1   string
	inline bool
}

// writeContexts writes the contexts the samples refer to and the page
// embeds, once each.
func writeContexts(b *strings.Builder, run *report.Run, used []usedContext) {
	b.WriteString("<section id=\"contexts\">\n<h2>Contexts</h2>\n<p>The data each arm sent, once per context (folded; a context link of an answer unfolds it); the answers above refer to them.</p>\n")
	first := map[string]eval.Context{}
	for _, c := range run.Manifest.Contexts {
		if _, ok := first[c.SHA1]; !ok {
			first[c.SHA1] = c // a context shared by two arms is shown once
		}
	}
	for _, u := range used {
		if !u.inline {
			continue
		}
		c := first[u.sha1]
		text := run.Contexts[u.sha1]
		note := ""
		if len(text) > maxShownContext {
			n := maxShownContext
			for n > 0 && !utf8.RuneStart(text[n]) {
				n--
			}
			text = text[:n]
			note = fmt.Sprintf("<p class=\"note\">The first %d bytes are shown; the whole text is %s in the run folder.</p>", maxShownContext, esc(c.File))
		}
		name := c.Arm + " on " + c.Graph
		if c.Item != "" {
			name += " item " + c.Item
		}
		// Folded: a closed details element is not laid out, so the page
		// opens fast; following a link to the context unfolds it.
		fmt.Fprintf(b, "<details class=\"context\"><summary><h3>%s (%s): %d bytes, SHA-1 <code>%s</code></h3></summary><div id=\"ctx-%s\">%s<pre>%s</pre></div></details>\n",
			esc(name), esc(c.Format), len(run.Contexts[u.sha1]), esc(u.sha1), esc(u.sha1), note, esc(text))
	}
	b.WriteString("</section>\n")
}
