package adaptive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/task/graphqa"
)

// Policy names, in the order of Policies.
const (
	PolicyFixedBest = "fixed-best" // the global fixed-best format for every question
	PolicyRouter    = "router"     // the task's best calibration format
	PolicySelector  = "selector"   // the selector's choice among the slate
	PolicyMV5       = "mv-5"       // majority vote over the slate's answers
	PolicyOracle    = "oracle"     // right when any slate answer is right (post hoc)
)

// Policies returns the policy names in table order.
func Policies() []string {
	return []string{PolicyFixedBest, PolicyRouter, PolicySelector, PolicyMV5, PolicyOracle}
}

// ResultVersion is the version of the result file format.
const ResultVersion = 1

// RunOptions configure Run.
type RunOptions struct {
	// Band is the selector's band width b (the study's b = 5; 0 lets only
	// exact ties share).
	Band int
	// Slate shapes the slates (zero: the study's 2 + 1 + 2).
	Slate SlateOptions
	// FixedBest is the global fixed-best format; empty means the first of
	// the calibration's cross-task ranking, or with FixedBestOnTest the
	// best on the test split.
	FixedBest string
	// FixedBestOnTest answers every test question in every calibrated
	// format and takes as fixed-best the format with the most right
	// answers on the test split (ties: the calibration ranking), as the
	// study does ("the best fixed format on the held-out test set"). The
	// choice is post hoc, like the oracle; fixed-best is still charged one
	// call per question. It cannot be combined with FixedBest.
	FixedBestOnTest bool
}

// Usage is the accounting of one policy on one question (or, summed, on a
// split): calls, server-reported tokens, cost from the price table, and
// latency, where calls issued in parallel count as the slowest of them.
type Usage struct {
	Calls            int     `json:"calls"`
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
	LatencyMS        float64 `json:"latency_ms"`
}

func (u *Usage) add(r *CallRecord) {
	u.Calls++
	u.PromptTokens += r.PromptTokens
	u.CompletionTokens += r.CompletionTokens
}

// Outcome is a policy's result on one question.
type Outcome struct {
	Policy  string `json:"policy"`
	Correct bool   `json:"correct"`
	// Format is the format whose answer the policy gives (for MV-5 the
	// first slate candidate giving the winning answer; empty when no
	// candidate gave a final answer; for the oracle a right one if any).
	Format string `json:"format"`
	// Answer is the parsed final answer given.
	Answer string `json:"answer"`
	Usage  Usage  `json:"usage"`
}

// SelectorScore is the selector's outcome for one candidate.
type SelectorScore struct {
	Format string `json:"format"`
	OK     bool   `json:"ok"`
	Score  int    `json:"score"`
	Delta  int    `json:"prior_delta"`
	// ParseError says why the reply was rejected (OK is then false).
	ParseError string `json:"parse_error,omitempty"`
}

// QuestionResult is everything Run decided about one question.
type QuestionResult struct {
	QuestionID string          `json:"question_id"`
	Task       string          `json:"task"`
	Gold       string          `json:"gold"`
	Slate      []Candidate     `json:"slate"`
	Scores     []SelectorScore `json:"scores"`
	// Band lists the formats within b of the top score, in band order.
	Band []string `json:"band"`
	// Chosen is the selector's format; Fallback is true when no candidate
	// had a valid score and the highest prior decided.
	Chosen   string `json:"chosen"`
	Fallback bool   `json:"fallback,omitempty"`
	// SlateCorrect says which slate answers are right (slate order).
	SlateCorrect []bool `json:"slate_correct"`
	// Outcomes are in the order of Policies.
	Outcomes []Outcome `json:"outcomes"`
}

// Outcome returns the question's outcome of a policy.
func (q *QuestionResult) Outcome(policy string) (Outcome, bool) {
	for _, o := range q.Outcomes {
		if o.Policy == policy {
			return o, true
		}
	}
	return Outcome{}, false
}

// PolicySummary totals one policy over a split.
type PolicySummary struct {
	Policy   string  `json:"policy"`
	N        int     `json:"n"`
	Correct  int     `json:"correct"`
	Accuracy float64 `json:"accuracy"`
	// Usage sums calls, tokens, cost and latency over the questions.
	Usage Usage `json:"usage"`
	// MeanLatencyMS is the mean end-to-end latency per question.
	MeanLatencyMS float64 `json:"mean_latency_ms"`
	// RelativeCost is Usage.Cost over fixed-best's (0 when that is 0).
	RelativeCost float64 `json:"relative_cost"`
}

// Result is a run of the policies over a split.
type Result struct {
	Version    int     `json:"version"`
	Model      string  `json:"model"`
	Split      string  `json:"split"`
	Seed       int64   `json:"seed"`
	Band       int     `json:"band"`
	FixedBest  string  `json:"fixed_best"`
	PriceIn    float64 `json:"price_in"`
	PriceOut   float64 `json:"price_out"`
	Calibrated string  `json:"calibration_source"`
	// FixedOnTest lists, when fixed-best was chosen on the test split, the
	// right answers of every calibrated format there, in the order of the
	// choice (best first).
	FixedOnTest []FormatCount `json:"fixed_on_test,omitempty"`
	// Calls is the number of distinct calls the run needed (an answer call
	// shared by several policies is made once).
	Calls     int              `json:"calls"`
	Questions []QuestionResult `json:"questions"`
	Summary   []PolicySummary  `json:"summary"`
	// Picks counts the selector's choices per format, sorted by format.
	Picks []FormatCount `json:"picks"`
}

// FormatCount is a count per format.
type FormatCount struct {
	Format string `json:"format"`
	Count  int    `json:"count"`
}

// Correct returns the policy's per-question correctness in question order.
func (r *Result) Correct(policy string) []bool {
	out := make([]bool, len(r.Questions))
	for i := range r.Questions {
		o, _ := r.Questions[i].Outcome(policy)
		out[i] = o.Correct
	}
	return out
}

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// MaxResultBytes bounds a result file read by ReadResult.
const MaxResultBytes = 256 << 20

// ReadResult reads a result file written by WriteJSON.
func ReadResult(r io.Reader) (*Result, error) {
	data, err := readBounded(r, MaxResultBytes, "result file")
	if err != nil {
		return nil, err
	}
	var res Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("adaptive: result file: %w", err)
	}
	if res.Version != ResultVersion {
		return nil, fmt.Errorf("adaptive: result file version %d, want %d", res.Version, ResultVersion)
	}
	for i := range res.Questions {
		if len(res.Questions[i].Outcomes) != len(Policies()) {
			return nil, fmt.Errorf("adaptive: result file: question %d has %d outcomes", i, len(res.Questions[i].Outcomes))
		}
	}
	return &res, nil
}

// qstate is a question's work in progress.
type qstate struct {
	slate  []Candidate
	sel    []*CallRecord
	scores []Scored
	chosen int
	band   []int
	fell   bool
}

// Run runs the policies over split: per question it builds the slate,
// issues the selector calls in parallel, then (in question order, so that
// the band's round-robin is reproducible) chooses a format, then makes the
// answer calls every policy needs — each (question, format) answer once,
// shared by the policies that use it, the selector's answer call seeing only
// the standard answer prompt. Every call is logged in cfg.Dir; calls already
// answered there are reused. When calls fail, it returns a
// *FailedCallsError after making all the others.
func Run(ctx context.Context, cfg *Config, cal *Calibration, split *Split, opt RunOptions) (*Result, error) {
	if len(cal.Ranking) == 0 {
		return nil, errors.New("adaptive: calibration without formats")
	}
	if len(split.Items) == 0 {
		return nil, errors.New("adaptive: split without questions")
	}
	if opt.Band < 0 || opt.Band > MaxScore {
		return nil, fmt.Errorf("adaptive: band %d outside 0..%d", opt.Band, MaxScore)
	}
	if opt.FixedBestOnTest && opt.FixedBest != "" {
		return nil, errors.New("adaptive: a fixed-best format and fixed-best on the test split are exclusive")
	}
	fixed := opt.FixedBest
	if fixed == "" {
		fixed = cal.Ranking[0].Format
	}
	var allFormats []string
	if opt.FixedBestOnTest {
		allFormats = cal.Formats()
	}
	c, err := newCaller(cfg)
	if err != nil {
		return nil, err
	}
	defer c.log.close()
	var rs renders
	qs := make([]qstate, len(split.Items))
	for i, it := range split.Items {
		if qs[i].slate, err = BuildSlate(cal, it.Q.Task, opt.Slate); err != nil {
			return nil, err
		}
		if len(qs[i].slate) == 0 {
			return nil, fmt.Errorf("adaptive: empty slate for %s", it.Q.ID)
		}
	}
	fail := &FailedCallsError{}
	check := func(r *CallRecord) {
		fail.Total++
		if r.Status != StatusOK {
			if fail.Failed == 0 {
				fail.First = r.Error
			}
			fail.Failed++
		}
	}
	// Phase 1: the selector calls, one per candidate, in parallel.
	err = forEach(len(split.Items), cfg.concurrency(), func(i int) error {
		it, st := split.Items[i], &qs[i]
		st.sel = make([]*CallRecord, len(st.slate))
		return forEach(len(st.slate), len(st.slate), func(j int) error {
			text, err := rs.get(it, st.slate[j].Format)
			if err != nil {
				return err
			}
			st.sel[j], err = c.selector(ctx, split.Name, it, st.slate[j], text)
			return err
		})
	})
	if err != nil {
		return nil, canceled(ctx, err)
	}
	for i := range qs {
		for _, r := range qs[i].sel {
			check(r)
		}
	}
	if fail.Failed > 0 {
		return nil, fail
	}

	// Phase 2: the choices, in question order.
	band := NewBand(opt.Band)
	for i := range qs {
		st := &qs[i]
		st.scores = make([]Scored, len(st.slate))
		for j, r := range st.sel {
			if r.Chain != nil {
				st.scores[j] = Scored{OK: true, Score: r.Chain.Score}
			}
		}
		st.chosen, st.band, st.fell = band.Choose(st.scores, st.slate)
	}

	// Phase 3: the answer calls, each (question, format) once.
	type need struct {
		item    int
		formats []string
		recs    map[string]*CallRecord
	}
	needs := make([]need, len(split.Items))
	var jobs [][2]int
	for i, it := range split.Items {
		fs := append([]string{fixed, cal.Router(it.Q.Task)}, allFormats...)
		for _, cnd := range qs[i].slate {
			fs = append(fs, cnd.Format)
		}
		var uniq []string
		for _, f := range fs {
			if !slices.Contains(uniq, f) {
				uniq = append(uniq, f)
			}
		}
		needs[i] = need{item: i, formats: uniq, recs: map[string]*CallRecord{}}
		for j := range uniq {
			jobs = append(jobs, [2]int{i, j})
		}
	}
	recs := make([]*CallRecord, len(jobs))
	err = forEach(len(jobs), cfg.concurrency()*5, func(k int) error {
		i, j := jobs[k][0], jobs[k][1]
		it, f := split.Items[i], needs[i].formats[j]
		var err error
		recs[k], err = c.answer(ctx, &rs, KindAnswer, split.Name, it, f)
		return err
	})
	if err != nil {
		return nil, canceled(ctx, err)
	}
	for k, r := range recs {
		check(r)
		needs[jobs[k][0]].recs[needs[jobs[k][0]].formats[jobs[k][1]]] = r
	}
	if fail.Failed > 0 {
		return nil, fail
	}

	// Phase 4: the outcomes.
	var onTest []FormatCount
	if opt.FixedBestOnTest {
		for _, f := range allFormats {
			n := 0
			for i := range needs {
				if needs[i].recs[f].Correct {
					n++
				}
			}
			onTest = append(onTest, FormatCount{Format: f, Count: n})
		}
		onTest = BestOnTest(onTest)
		fixed = onTest[0].Format
	}
	m := cfg.Model
	res := &Result{FixedOnTest: onTest, Version: ResultVersion, Model: m.name(), Split: split.Name, Seed: split.Seed, Band: opt.Band,
		FixedBest: fixed, PriceIn: m.PriceIn, PriceOut: m.PriceOut, Calibrated: cal.Source, Calls: fail.Total}
	for i, it := range split.Items {
		st, ans := &qs[i], needs[i].recs
		qr := QuestionResult{QuestionID: it.Q.ID, Task: it.Q.Task, Gold: it.Q.Gold.Value, Slate: st.slate,
			Chosen: st.slate[st.chosen].Format, Fallback: st.fell}
		for j, r := range st.sel {
			s := SelectorScore{Format: st.slate[j].Format, OK: r.Chain != nil, ParseError: r.ParseError}
			if r.Chain != nil {
				s.Score, s.Delta = r.Chain.Score, r.Chain.PriorDelta
			}
			qr.Scores = append(qr.Scores, s)
		}
		for _, j := range st.band {
			qr.Band = append(qr.Band, st.slate[j].Format)
		}
		slateRecs := make([]*CallRecord, len(st.slate))
		for j, cnd := range st.slate {
			slateRecs[j] = ans[cnd.Format]
			qr.SlateCorrect = append(qr.SlateCorrect, ans[cnd.Format].Correct)
		}
		single := func(policy, f string) Outcome {
			r := ans[f]
			o := Outcome{Policy: policy, Correct: r.Correct, Format: f, Answer: r.Parsed}
			o.Usage.add(r)
			o.Usage.LatencyMS = r.LatencyMS
			return o
		}
		fixedO := single(PolicyFixedBest, fixed)
		routerO := single(PolicyRouter, cal.Router(it.Q.Task))
		selO := single(PolicySelector, qr.Chosen)
		var selLat float64
		for _, r := range st.sel {
			selO.Usage.add(r)
			selLat = max(selLat, r.LatencyMS)
		}
		selO.Usage.LatencyMS += selLat
		mv := Outcome{Policy: PolicyMV5}
		if w := Vote(slateRecs); w >= 0 {
			mv.Correct, mv.Format, mv.Answer = slateRecs[w].Correct, st.slate[w].Format, slateRecs[w].Parsed
		}
		or := Outcome{Policy: PolicyOracle}
		for j, r := range slateRecs {
			mv.Usage.add(r)
			or.Usage.add(r)
			mv.Usage.LatencyMS = max(mv.Usage.LatencyMS, r.LatencyMS)
			if r.Correct && !or.Correct {
				or.Correct, or.Format, or.Answer = true, st.slate[j].Format, r.Parsed
			}
		}
		or.Usage.LatencyMS = mv.Usage.LatencyMS
		if !or.Correct && len(slateRecs) > 0 {
			or.Format, or.Answer = st.slate[0].Format, slateRecs[0].Parsed
		}
		qr.Outcomes = []Outcome{fixedO, routerO, selO, mv, or}
		for k := range qr.Outcomes {
			u := &qr.Outcomes[k].Usage
			u.Cost = m.cost(u.PromptTokens, u.CompletionTokens)
		}
		res.Questions = append(res.Questions, qr)
	}
	res.Summary = Summarize(res.Questions)
	res.Picks = picks(res.Questions)
	return res, nil
}

// BestOnTest orders the right answers per format on the test split, most
// first, keeping the given order (the calibration ranking) among equal
// counts.
func BestOnTest(counts []FormatCount) []FormatCount {
	out := slices.Clone(counts)
	slices.SortStableFunc(out, func(a, b FormatCount) int { return b.Count - a.Count })
	return out
}

// Vote returns the index of MV-5's answer among the slate's answer records:
// each record whose reply has a FINAL: line votes for its parsed answer
// (graphqa.ScoreFinal's Parsed, e.g. the first integer); the answer with most
// votes wins, a tie going to the answer given first in slate order; the
// index returned is the first record giving the winning answer. It is -1
// when no record has a final answer (MV-5 then counts as wrong).
func Vote(recs []*CallRecord) int {
	counts := map[string]int{}
	first := map[string]int{}
	var order []string
	for i, r := range recs {
		if r == nil || r.Status != StatusOK || r.Rule == graphqa.RuleFinalMissing || strings.TrimSpace(r.Parsed) == "" {
			continue
		}
		k := r.Parsed
		if _, ok := first[k]; !ok {
			first[k] = i
			order = append(order, k)
		}
		counts[k]++
	}
	best := -1
	bestCount := 0
	for _, k := range order {
		if counts[k] > bestCount {
			best, bestCount = first[k], counts[k]
		}
	}
	return best
}

// Summarize totals the outcomes of each policy, in the order of Policies.
func Summarize(qs []QuestionResult) []PolicySummary {
	var out []PolicySummary
	for _, p := range Policies() {
		s := PolicySummary{Policy: p}
		for i := range qs {
			o, ok := qs[i].Outcome(p)
			if !ok {
				continue
			}
			s.N++
			if o.Correct {
				s.Correct++
			}
			s.Usage.Calls += o.Usage.Calls
			s.Usage.PromptTokens += o.Usage.PromptTokens
			s.Usage.CompletionTokens += o.Usage.CompletionTokens
			s.Usage.Cost += o.Usage.Cost
			s.Usage.LatencyMS += o.Usage.LatencyMS
		}
		if s.N > 0 {
			s.Accuracy = float64(s.Correct) / float64(s.N)
			s.MeanLatencyMS = s.Usage.LatencyMS / float64(s.N)
		}
		out = append(out, s)
	}
	if len(out) > 0 && out[0].Usage.Cost > 0 {
		for i := range out {
			out[i].RelativeCost = out[i].Usage.Cost / out[0].Usage.Cost
		}
	}
	return out
}

func picks(qs []QuestionResult) []FormatCount {
	m := map[string]int{}
	for _, q := range qs {
		m[q.Chosen]++
	}
	var out []FormatCount
	for f, n := range m {
		out = append(out, FormatCount{f, n})
	}
	slices.SortFunc(out, func(a, b FormatCount) int { return strings.Compare(a.Format, b.Format) })
	return out
}
