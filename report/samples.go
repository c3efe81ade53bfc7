package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/eval"
)

// NoRunToRun is the note of the run-to-run table when no question was
// answered in two trials.
const NoRunToRun = "one trial per question: no run-to-run variation to show"

// DisplayTables returns the tables as people read them (HTML and Markdown):
// a run on a single graph does not repeat its accuracy rows per graph (the
// graph column and the per-graph rows, equal to the "*" rows, are left
// out), and an empty run-to-run table says why. CSV files keep the full
// tables of Tables.
func (r *Report) DisplayTables() []Table {
	tables := r.Tables()
	graphs := map[string]bool{}
	for _, a := range r.Accuracy {
		if a.Graph != All {
			graphs[a.Graph] = true
		}
	}
	for i, t := range tables {
		switch t.Name {
		case "accuracy":
			col := slices.Index(t.Header, "graph")
			if len(graphs) != 1 || col < 0 {
				continue
			}
			var g string
			for k := range graphs {
				g = k
			}
			nt := Table{Name: t.Name, Title: t.Title + " (graph " + g + ")", Note: t.Note,
				Header: slices.Delete(slices.Clone(t.Header), col, col+1)}
			for _, row := range t.Rows {
				if row[col] == All {
					nt.Rows = append(nt.Rows, slices.Delete(slices.Clone(row), col, col+1))
				}
			}
			tables[i] = nt
		case "run_to_run":
			if len(t.Rows) == 0 {
				tables[i].Note = NoRunToRun
			}
		}
	}
	return tables
}

// filters are the values of the per-sample view's filters, each sorted;
// a sample's classes index them.
type filters struct {
	arms, models, families []string
}

// outcomes are the correctness filter's values, as class names.
var outcomes = []string{"correct", "wrong", "failed"}

func newFilters(samples []Sample) filters {
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
func outcome(s Sample) string {
	switch {
	case s.Status != eval.StatusOK:
		return "failed"
	case s.Correct:
		return "correct"
	}
	return "wrong"
}

// writeFieldset writes one filter group: a check box per value, ticked.
func writeFieldset(b *strings.Builder, legend, kind string, values []string, counts map[string]int) {
	fmt.Fprintf(b, "<fieldset><legend>%s</legend>", esc(legend))
	for i, v := range values {
		fmt.Fprintf(b, "<label><input type=\"checkbox\" id=\"f-%s-%d\" checked=\"checked\"/> %s <span class=\"tag\">(%d)</span></label>", kind, i, esc(v), counts[v])
	}
	b.WriteString("</fieldset>\n")
}

// writeRunMeta writes the run section: identity, dates, parameters,
// models with their endpoints, arms with their formats and options, and
// the hashes of every input.
func writeRunMeta(b *strings.Builder, run *Run) {
	m := run.Manifest
	b.WriteString("<section id=\"run\">\n<h2>Run</h2>\n<dl class=\"meta\">\n")
	item := func(k, v string) { fmt.Fprintf(b, "<dt>%s</dt><dd>%s</dd>\n", esc(k), esc(v)) }
	item("run id", m.RunID)
	if m.Name != "" {
		item("experiment", m.Name)
	}
	item("folder", run.Dir)
	if run.First != "" {
		item("first call", run.First)
		item("last call", run.Last)
	}
	item("calls", fmt.Sprintf("%d answered, %d failed, of %d planned", run.OK, run.Failed, m.Calls))
	seed := "none"
	if m.Params.Seed != nil {
		seed = strconv.FormatInt(*m.Params.Seed, 10)
	}
	item("parameters", fmt.Sprintf("layout %s, temperature %g, max_tokens %d, seed %s, trials %d",
		m.Params.Layout, m.Params.Temperature, m.Params.MaxTokens, seed, max(m.Params.Trials, 1)))
	item("questions", fmt.Sprintf("%d in %s, SHA-1 %s", m.Questions, eval.QuestionsFile, m.QuestionsSHA1))
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

	b.WriteString("<h3>Inputs</h3>\n<table class=\"data\">\n<tr class=\"head\"><th>graph</th><th>arm</th><th>graph SHA-1</th><th>context SHA-1</th><th>file</th></tr>\n")
	for _, c := range m.Contexts {
		fmt.Fprintf(b, "<tr><td data-label=\"graph\">%s</td><td data-label=\"arm\">%s</td><td data-label=\"graph SHA-1\"><code>%s</code></td><td data-label=\"context SHA-1\"><code>%s</code></td><td data-label=\"file\">%s</td></tr>\n",
			esc(c.Graph), esc(c.Arm), esc(c.GraphSHA1), esc(c.SHA1), esc(c.File))
	}
	b.WriteString("</table>\n</section>\n")
}

// brief is the one-line answer and gold of a sample's summary.
func brief(s Sample) string {
	if s.Status != eval.StatusOK {
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

// writeSamples writes the per-sample view (filters, count, one collapsible
// entry per call) and the contexts the entries refer to, once each.
func writeSamples(b *strings.Builder, run *Run, samples []Sample) {
	f := newFilters(samples)
	counts := map[string]map[string]int{"arm": {}, "model": {}, "family": {}, "outcome": {}}
	for _, s := range samples {
		counts["arm"][s.Arm]++
		counts["model"][s.Model]++
		counts["family"][s.Family]++
		counts["outcome"][outcome(s)]++
	}
	b.WriteString("<section id=\"samples\">\n<h2>Answers</h2>\n<div class=\"filters\" role=\"group\" aria-label=\"Filter the answers\">\n")
	writeFieldset(b, "Arm", "arm", f.arms, counts["arm"])
	writeFieldset(b, "Model", "model", f.models, counts["model"])
	writeFieldset(b, "Family", "family", f.families, counts["family"])
	b.WriteString("<fieldset><legend>Outcome</legend>")
	for _, o := range outcomes {
		fmt.Fprintf(b, "<label><input type=\"checkbox\" id=\"f-%s\" checked=\"checked\"/> %s <span class=\"tag\">(%d)</span></label>", o, o, counts["outcome"][o])
	}
	b.WriteString("</fieldset>\n</div>\n<div class=\"sample-list\">\n")
	idx := func(list []string, v string) int { return slices.Index(list, v) }
	ctxName := map[string]string{}
	for _, c := range run.Manifest.Contexts {
		if _, ok := ctxName[c.SHA1]; !ok {
			ctxName[c.SHA1] = c.Arm + " on " + c.Graph
		}
	}
	used := map[string]bool{}
	for _, s := range samples {
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
		if s.Status == eval.StatusOK {
			item("answer", "<pre>"+esc(s.Answer)+"</pre>")
			if s.Reasoning != "" {
				item("reasoning", "<pre>"+esc(s.Reasoning)+"</pre>")
			}
			why := fmt.Sprintf("%s, score %s: scorer %s", o, strconv.FormatFloat(s.Score, 'f', -1, 64), cmpStr(s.Scorer, "default"))
			if s.Rule != "" {
				why += ", rule " + s.Rule
			}
			if s.Parsed != "" {
				why += fmt.Sprintf(", parsed %q", s.Parsed)
			}
			item("score", esc(why))
		} else {
			item("error", esc(s.Error))
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
		b.WriteString("</dl>\n<div class=\"messages\">\n")
		for _, m := range s.Messages {
			fmt.Fprintf(b, "<div class=\"msg\"><div class=\"role\">%s</div><pre>%s", esc(m.Role), esc(m.Before))
			if m.ContextSHA1 != "" {
				used[m.ContextSHA1] = true
				fmt.Fprintf(b, "<a class=\"ctx-ref\" href=\"#ctx-%s\">[context %s: %d bytes, SHA-1 %s; shown once under Contexts]</a>%s",
					esc(m.ContextSHA1), esc(ctxName[m.ContextSHA1]), len(run.Contexts[m.ContextSHA1]), esc(m.ContextSHA1), esc(m.After))
			}
			b.WriteString("</pre></div>\n")
		}
		b.WriteString("</div>\n</details>\n")
	}
	b.WriteString("</div>\n")
	fmt.Fprintf(b, "<p class=\"count\" role=\"status\"><span class=\"count-n\"></span> of %d answers shown</p>\n", len(samples))
	if left := len(run.Samples) - len(samples); left > 0 {
		fmt.Fprintf(b, "<p class=\"note\">%d more calls are not shown; every call is in %s.</p>\n", left, eval.AnswersFile)
	}
	b.WriteString("</section>\n")

	b.WriteString("<section id=\"contexts\">\n<h2>Contexts</h2>\n<p>The data each arm sent, once per context; the answers above refer to them.</p>\n")
	for _, c := range run.Manifest.Contexts {
		if !used[c.SHA1] {
			continue
		}
		used[c.SHA1] = false // a context shared by two arms is shown once
		text := run.Contexts[c.SHA1]
		note := ""
		if len(text) > maxShownContext {
			n := maxShownContext
			for n > 0 && !utf8.RuneStart(text[n]) {
				n--
			}
			text = text[:n]
			note = fmt.Sprintf("<p class=\"note\">The first %d bytes are shown; the whole text is %s in the run folder.</p>", maxShownContext, esc(c.File))
		}
		fmt.Fprintf(b, "<div class=\"context\" id=\"ctx-%s\"><h3>%s on %s (%s): %d bytes, SHA-1 <code>%s</code></h3>%s<pre>%s</pre></div>\n",
			esc(c.SHA1), esc(c.Arm), esc(c.Graph), esc(c.Format), len(run.Contexts[c.SHA1]), esc(c.SHA1), note, esc(text))
	}
	b.WriteString("</section>\n")
}
