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

// fieldsetView is one filter group: a check box per value, ticked.
type fieldsetView struct {
	Legend string
	Boxes  []boxView
}

// boxView is a filter's check box.
type boxView struct{ ID, Value, Count string }

func newFieldset(legend, kind string, values []string, count func(string) string) fieldsetView {
	f := fieldsetView{Legend: legend}
	for i, v := range values {
		f.Boxes = append(f.Boxes, boxView{ID: fmt.Sprintf("f-%s-%d", kind, i), Value: v, Count: count(v)})
	}
	return f
}

// metaItem is a term and its description in a dl.meta list; Answer, when
// set, is shown instead of Value.
type metaItem struct {
	Key, Value string
	Answer     *textView
}

// runMetaView is the data of the "runmeta" template: identity, dates,
// parameters, models with their endpoints, arms with their formats and
// options, and the hashes of every input.
type runMetaView struct {
	Items    []metaItem
	Models   []modelRow
	Arms     []armView
	Contexts []eval.Context
}

// modelRow is a row of the run's model table.
type modelRow struct{ Name, Model, Tokenizer, Endpoint, Extra string }

// armView is a row of the run's arm table.
type armView struct{ Name, Format, Options, Hide, Ordering, Budget string }

// newRunMeta gathers the run section.
func newRunMeta(run *report.Run) *runMetaView {
	m := run.Manifest
	v := &runMetaView{Contexts: m.Contexts}
	item := func(k, val string) { v.Items = append(v.Items, metaItem{Key: k, Value: val}) }
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
		v.Models = append(v.Models, modelRow{Name: md.Name, Model: md.Model, Tokenizer: md.Tokenizer, Endpoint: ep, Extra: extra})
	}

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
	for _, n := range names {
		a := arms[n]
		opts := a.options
		if opts == "" && len(m.Arms) == 0 {
			opts = "not recorded"
		}
		v.Arms = append(v.Arms, armView{Name: n, Format: a.format, Options: opts, Hide: cmpStr(a.hide, "no"),
			Ordering: a.ordering, Budget: cmpStr(a.budget, "none")})
	}
	return v
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

// summaryView is the data of the "summary" template: the run's identity
// and calls, and what is wrong with its log: records outside the design
// (not counted, the first 50 listed) and lines that are not records.
type summaryView struct {
	Items            []metaItem
	AnswersFile      string
	OutOfDesign      []string
	OutOfDesignCount int
	MoreOutOfDesign  int
	SkippedLines     []string
}

// maxListed bounds the out-of-design records the summary lists.
const maxListed = 50

func newSummary(run *report.Run) *summaryView {
	m := run.Manifest
	v := &summaryView{AnswersFile: runner.AnswersFile, OutOfDesignCount: len(run.OutOfDesign)}
	item := func(k, val string) { v.Items = append(v.Items, metaItem{Key: k, Value: val}) }
	item("run id", m.RunID)
	if m.Name != "" {
		item("experiment", m.Name)
	}
	item("folder", run.Dir)
	item("calls", fmt.Sprintf("%d answered, %d failed, of %d planned", run.OK, run.Failed, m.Calls))
	if run.Skipped > 0 {
		item("skipped lines", fmt.Sprintf("%d line(s) of %s are not records (such as a torn last line) and were skipped", run.Skipped, runner.AnswersFile))
	}
	for i, p := range run.OutOfDesign {
		if i == maxListed {
			v.MoreOutOfDesign = len(run.OutOfDesign) - i
			break
		}
		v.OutOfDesign = append(v.OutOfDesign, p.String())
	}
	for _, p := range run.SkippedLines {
		v.SkippedLines = append(v.SkippedLines, p.String())
	}
	return v
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

// textView is an answer (or reasoning) text as the page shows it: at
// most maxShownAnswer bytes, with a note giving its whole size when cut.
type textView struct {
	Cut         bool
	Shown, Size int
	Line        int
	File, Text  string
}

func cutAnswer(text string, size, line int) *textView {
	if size <= maxShownAnswer && len(text) == size {
		return &textView{Text: text}
	}
	n := min(maxShownAnswer, len(text))
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	return &textView{Cut: true, Shown: n, Size: size, Line: line, File: runner.AnswersFile, Text: text[:n]}
}

// samplesView is the data of the "samples" template.
type samplesView struct {
	Fieldsets   []fieldsetView
	Samples     []sampleEntry
	Shown       int
	Total       int
	How         string
	AnswersFile string
}

// sampleEntry is one collapsible entry of the per-sample view; Arm, Model
// and Family index the filters.
type sampleEntry struct {
	S                  report.Sample
	Outcome, Brief     string
	Arm, Model, Family int
	Items              []metaItem
	Messages           []messageView
}

// messageView is a message of a sample's request, its context (if any)
// replaced by a reference.
type messageView struct {
	Role, Before string
	Ref          *contextRef
}

// contextRef is a message's reference to its context: a link to the
// context shown under Contexts, or where the run folder has it; After is
// the message's text after the context.
type contextRef struct {
	Inline           bool
	Name, SHA1, File string
	Size, MaxMB      int
	Link             string
	After            string
}

// newSamples gathers the per-sample view (filters, count, one collapsible
// entry per sample shown) and returns the SHA-1s of the contexts the
// entries refer to, in order, with whether the page shows them (those past
// maxInlineContexts are pointed at in the run folder).
func newSamples(run *report.Run, view sampleView, runLink string) (*samplesView, []usedContext) {
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
	v := &samplesView{Shown: len(view.indexes), Total: len(run.Samples), How: "every call of the run", AnswersFile: runner.AnswersFile}
	if view.perCell > 0 {
		v.How = fmt.Sprintf("up to %d of each of the %d model × arm × family cells, failed and wrong answers first", view.perCell, view.cells)
	}
	v.Fieldsets = []fieldsetView{
		newFieldset("Arm", "arm", f.arms, func(x string) string { return tally("arm", x) }),
		newFieldset("Model", "model", f.models, func(x string) string { return tally("model", x) }),
		newFieldset("Family", "family", f.families, func(x string) string { return tally("family", x) }),
	}
	oc := fieldsetView{Legend: "Outcome"}
	for _, o := range outcomes {
		oc.Boxes = append(oc.Boxes, boxView{ID: "f-" + o, Value: o, Count: tally("outcome", o)})
	}
	v.Fieldsets = append(v.Fieldsets, oc)
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
		e := sampleEntry{S: s, Outcome: o, Brief: brief(s),
			Arm: slices.Index(f.arms, s.Arm), Model: slices.Index(f.models, s.Model), Family: slices.Index(f.families, s.Family)}
		item := func(k, val string) { e.Items = append(e.Items, metaItem{Key: k, Value: val}) }
		gold := s.Gold
		if len(s.Alternatives) > 0 {
			gold += " (also accepted: " + strings.Join(s.Alternatives, ", ") + ")"
		}
		item("gold", gold)
		if s.Status == runner.StatusOK {
			e.Items = append(e.Items, metaItem{Key: "answer", Answer: cutAnswer(s.Answer, s.AnswerBytes, s.Line)})
			if s.Reasoning != "" {
				e.Items = append(e.Items, metaItem{Key: "reasoning", Answer: cutAnswer(s.Reasoning, s.ReasoningBytes, s.Line)})
			}
			why := fmt.Sprintf("%s, score %s: scorer %s", o, strconv.FormatFloat(s.Score, 'f', -1, 64), cmpStr(s.Scorer, "default"))
			if s.Rule != "" {
				why += ", rule " + s.Rule
			}
			if s.Parsed != "" {
				why += fmt.Sprintf(", parsed %q", clip(s.Parsed, 200))
			}
			item("score", why)
		} else {
			item("error", clip(s.Error, 2000))
		}
		tokens := fmt.Sprintf("%d prompt, %d completion (server)", s.PromptTokens, s.CompletionTokens)
		if s.LocalPromptTokens >= 0 {
			tokens += fmt.Sprintf("; %d prompt (local count)", s.LocalPromptTokens)
		}
		item("tokens", tokens)
		item("latency", fmt.Sprintf("%.0f ms, %d attempt(s), %s", s.LatencyMS, s.Attempts, s.Time))
		if s.Finish != "" {
			item("finish", s.Finish)
		}
		item("graph", s.Graph)
		item("log", fmt.Sprintf("%s line %d", runner.AnswersFile, s.Line))
		for _, m := range s.Messages {
			mv := messageView{Role: m.Role, Before: m.Before}
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
				ref := &contextRef{Inline: inline[sha], Name: ctxName[sha], SHA1: sha, File: ctxFile[sha],
					Size: size, MaxMB: maxInlineContexts >> 20, After: m.After}
				if !ref.Inline && runLink != "" && ctxFile[sha] != "" {
					ref.Link = path.Join(runLink, ctxFile[sha])
				}
				mv.Ref = ref
			}
			e.Messages = append(e.Messages, mv)
		}
		v.Samples = append(v.Samples, e)
	}
	return v, used
}

// usedContext is a context the samples shown refer to.
type usedContext struct {
	sha1   string
	inline bool
}

// contextView is a context the page embeds, once, folded.
type contextView struct {
	Name, Format, SHA1, File string
	Size, Shown              int
	Cut                      bool
	Text                     string
}

// newContexts gathers the contexts the samples refer to and the page
// embeds, once each; a context shared by two arms is shown once.
func newContexts(run *report.Run, used []usedContext) []contextView {
	first := map[string]eval.Context{}
	for _, c := range run.Manifest.Contexts {
		if _, ok := first[c.SHA1]; !ok {
			first[c.SHA1] = c
		}
	}
	var out []contextView
	for _, u := range used {
		if !u.inline {
			continue
		}
		c := first[u.sha1]
		text := run.Contexts[u.sha1]
		v := contextView{Format: c.Format, SHA1: u.sha1, File: c.File, Size: len(text)}
		if len(text) > maxShownContext {
			n := maxShownContext
			for n > 0 && !utf8.RuneStart(text[n]) {
				n--
			}
			text = text[:n]
			v.Cut, v.Shown = true, maxShownContext
		}
		v.Text = text
		v.Name = c.Arm + " on " + c.Graph
		if c.Item != "" {
			v.Name += " item " + c.Item
		}
		out = append(out, v)
	}
	return out
}
