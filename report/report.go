package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/isolda/isolda/stats"
	"github.com/isolda/isolda/task"
)

// Observation is one answer of one model to one question under one arm.
type Observation struct {
	// Arm is the format or variant the model read (e.g. "I", "b-ttl-ids").
	Arm string `json:"arm"`
	// Model is the model that answered.
	Model string `json:"model"`
	// Family is the question's task family.
	Family string `json:"family"`
	// Task is the question's task within its family (a KG-LLM-Bench task,
	// a GraphQA task, a sub-family); empty when it is the family itself.
	Task string `json:"task,omitempty"`
	// Graph is the data set the question is about.
	Graph string `json:"graph"`
	// QuestionID identifies the question within its graph.
	QuestionID string `json:"question_id"`
	// Trial numbers repeated runs of the same question (0 for a single run).
	Trial int `json:"trial"`
	// Correct says whether the answer was scored right.
	Correct bool `json:"correct"`
	// Score is a real-valued score (partial credit); informational.
	Score float64 `json:"score"`
	// Partial is the partial credit of the answer (precision, recall, F1,
	// exact match, parse success), when its scorer gives one.
	Partial *task.Score `json:"partial,omitempty"`
	// Pair, when set, pairs the question with the same question in other
	// graphs (a KG-LLM-Bench instance in English and in Catalan:
	// Question.Meta["instance_key"]).
	Pair string `json:"pair,omitempty"`
	// InputTokens and OutputTokens are the prompt and completion sizes in the
	// model's tokenizer.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// LocalInputTokens is the local count of the prompt by the model's
	// tokenizer (the messages, without the chat template); 0 when the run
	// has none. InputTokens is the server's count when it gave one.
	LocalInputTokens int `json:"local_input_tokens,omitempty"`
}

// All is the wildcard shown in aggregate rows for Family and Graph.
const All = "*"

// Num is a float64 that encodes NaN and infinities as JSON null and prints
// them as "–" in tables.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON implements json.Unmarshaler; null decodes to NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// fmtNum formats n with the given number of decimals, or "–" when undefined.
func fmtNum(n Num, decimals int) string {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "–"
	}
	return fmt.Sprintf("%.*f", decimals, f)
}

// AccuracyRow is the accuracy of one arm and model on one family and graph
// (or All of them), with its Wilson interval.
type AccuracyRow struct {
	Arm    string `json:"arm"`
	Model  string `json:"model"`
	Family string `json:"family"`
	// Task is a task of the family (rows of every graph only), or All.
	Task    string `json:"task"`
	Graph   string `json:"graph"`
	Correct int    `json:"correct"`
	N       int    `json:"n"`
	// Accuracy is Correct/N; Lo and Hi bound its Wilson interval.
	Accuracy Num `json:"accuracy"`
	Lo       Num `json:"lo"`
	Hi       Num `json:"hi"`
	// Credit summarizes the partial credit of the answers that have one
	// (nil when none has).
	Credit *CreditSummary `json:"credit,omitempty"`
}

// CreditSummary is the partial credit of a group of answers: N answers
// with credit, the means of their precision, recall and F1, and the rates
// of exact match and parse success.
type CreditSummary struct {
	N            int `json:"n"`
	Precision    Num `json:"precision"`
	Recall       Num `json:"recall"`
	F1           Num `json:"f1"`
	ExactMatch   Num `json:"exact_match"`
	ParseSuccess Num `json:"parse_success"`
}

// CreditPairRow is the paired comparison of arm A with arm B for one model
// on one partial-credit metric, over the answers both arms have with
// credit: the mean difference with its paired percentile bootstrap and BCa
// intervals.
type CreditPairRow struct {
	Model  string `json:"model"`
	A      string `json:"a"`
	B      string `json:"b"`
	Metric string `json:"metric"`
	N      int    `json:"n"`
	MeanA  Num    `json:"mean_a"`
	MeanB  Num    `json:"mean_b"`
	Diff   Num    `json:"diff"`
	BootLo Num    `json:"boot_lo"`
	BootHi Num    `json:"boot_hi"`
	BCaLo  Num    `json:"bca_lo"`
	BCaHi  Num    `json:"bca_hi"`
}

// Metrics of answers: accuracy (Correct) and the partial-credit metrics.
const (
	MetricAccuracy     = "accuracy"
	MetricPrecision    = "precision"
	MetricRecall       = "recall"
	MetricF1           = "f1"
	MetricExactMatch   = "exact_match"
	MetricParseSuccess = "parse_success"
	MetricOwnersF1     = "owners_f1"
)

// CreditMetrics are the metrics compared in CreditPairRow, in table order.
func CreditMetrics() []string {
	return []string{MetricF1, MetricPrecision, MetricRecall, MetricExactMatch}
}

// metricNames are every metric criteria and tables accept.
var metricNames = []string{MetricAccuracy, MetricPrecision, MetricRecall, MetricF1, MetricExactMatch, MetricParseSuccess, MetricOwnersF1}

// binaryMetric reports whether a metric takes only the values 0 and 1.
func binaryMetric(m string) bool {
	return m == "" || m == MetricAccuracy || m == MetricExactMatch || m == MetricParseSuccess
}

// Value returns the observation's value of a metric ("" is accuracy), and
// false when the observation has no such value (no credit).
func (o Observation) Value(metric string) (float64, bool) {
	b := func(x bool) float64 {
		if x {
			return 1
		}
		return 0
	}
	if metric == "" || metric == MetricAccuracy {
		return b(o.Correct), true
	}
	c := o.Partial
	if c == nil {
		return 0, false
	}
	switch metric {
	case MetricPrecision:
		return c.Precision, true
	case MetricRecall:
		return c.Recall, true
	case MetricF1:
		return c.F1, true
	case MetricExactMatch:
		return b(c.ExactMatch), true
	case MetricParseSuccess:
		return b(c.ParseOK), true
	case MetricOwnersF1:
		if f, ok := c.Fields["owners"]; ok {
			return f.F1, true
		}
	}
	return 0, false
}

// PairRow is the paired comparison of arm A with arm B for one model, over
// the (graph, question, trial) answers both arms have.
type PairRow struct {
	Model string `json:"model"`
	A     string `json:"a"`
	B     string `json:"b"`
	N     int    `json:"n"`
	// B10 counts answers A got right and B wrong (McNemar's b); C01 the
	// reverse (c).
	B10  int `json:"b10"`
	C01  int `json:"c01"`
	AccA Num `json:"acc_a"`
	AccB Num `json:"acc_b"`
	Diff Num `json:"diff"`
	// McNemar is the exact two-sided p-value and MidP the mid-p value.
	McNemar Num `json:"mcnemar"`
	MidP    Num `json:"midp"`
	// BootLo/BootHi are the paired percentile bootstrap interval of Diff and
	// BCaLo/BCaHi the BCa interval (null when degenerate).
	BootLo Num `json:"boot_lo"`
	BootHi Num `json:"boot_hi"`
	BCaLo  Num `json:"bca_lo"`
	BCaHi  Num `json:"bca_hi"`
}

// TokenRow summarizes the input and output tokens of one arm for one model
// (each model counts with its own tokenizer).
type TokenRow struct {
	Arm     string `json:"arm"`
	Model   string `json:"model"`
	N       int    `json:"n"`
	InMean  Num    `json:"in_mean"`
	InSD    Num    `json:"in_sd"`
	InMin   Num    `json:"in_min"`
	InMax   Num    `json:"in_max"`
	OutMean Num    `json:"out_mean"`
	OutSD   Num    `json:"out_sd"`
	OutMin  Num    `json:"out_min"`
	OutMax  Num    `json:"out_max"`
	// LocalInMean is the mean local count of the prompts (NaN when no
	// observation has one); LocalN the observations that have one.
	LocalInMean Num `json:"local_in_mean"`
	LocalN      int `json:"local_n"`
}

// RunRow is the run-to-run spread of one arm and model over repeated trials:
// the summary of the per-trial accuracies over the questions every trial
// answered.
type RunRow struct {
	Arm       string `json:"arm"`
	Model     string `json:"model"`
	Trials    int    `json:"trials"`
	Questions int    `json:"questions"`
	Mean      Num    `json:"mean"`
	SD        Num    `json:"sd"`
	Min       Num    `json:"min"`
	Max       Num    `json:"max"`
}

// ParetoRow is one arm of one model in the accuracy-against-tokens plane.
type ParetoRow struct {
	Model    string `json:"model"`
	Arm      string `json:"arm"`
	Tokens   Num    `json:"tokens"`
	Accuracy Num    `json:"accuracy"`
	// OnFront says whether no other arm of the model dominates this one.
	OnFront bool `json:"on_front"`
}

// Options configures Build.
type Options struct {
	// Seed seeds the paired bootstraps (see stats.BootstrapOptions).
	Seed uint64
	// Resamples is the number of bootstrap resamples; 0 means
	// stats.DefaultResamples.
	Resamples int
	// Reference, when set, limits the paired comparisons to each other arm
	// against these arms; otherwise every pair of arms of a model is
	// compared.
	Reference []string
}

// Report holds every table of a report.
type Report struct {
	// Arms describe the arms of an eval run (their contexts' round trips);
	// empty when the report was built from observations only.
	Arms     []ArmRow      `json:"arms,omitempty"`
	Accuracy []AccuracyRow `json:"accuracy"`
	Pairs    []PairRow     `json:"pairs"`
	// CreditPairs compare arms on the partial-credit metrics, where both
	// have them.
	CreditPairs []CreditPairRow `json:"credit_pairs,omitempty"`
	Tokens      []TokenRow      `json:"tokens"`
	RunToRun    []RunRow        `json:"run_to_run"`
	Pareto      []ParetoRow     `json:"pareto"`
}

// answerKey identifies one answer within an arm and model.
type answerKey struct {
	Graph, QuestionID string
	Trial             int
}

func compareAnswerKeys(a, b answerKey) int {
	return cmp.Or(cmp.Compare(a.Graph, b.Graph), cmp.Compare(a.QuestionID, b.QuestionID), cmp.Compare(a.Trial, b.Trial))
}

type armModel struct{ Arm, Model string }

func compareArmModel(a, b armModel) int {
	return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Arm, b.Arm))
}

// index groups observations by model and arm.
type index struct {
	byAM map[armModel][]Observation
	keys []armModel // sorted by model, then arm
}

func newIndex(obs []Observation) *index {
	ix := &index{byAM: make(map[armModel][]Observation)}
	for _, o := range obs {
		k := armModel{o.Arm, o.Model}
		if _, ok := ix.byAM[k]; !ok {
			ix.keys = append(ix.keys, k)
		}
		ix.byAM[k] = append(ix.byAM[k], o)
	}
	slices.SortFunc(ix.keys, compareArmModel)
	return ix
}

// models returns the sorted distinct models.
func (ix *index) models() []string {
	var ms []string
	for _, k := range ix.keys {
		if len(ms) == 0 || ms[len(ms)-1] != k.Model {
			ms = append(ms, k.Model)
		}
	}
	return ms
}

// arms returns the sorted arms the model ran.
func (ix *index) arms(model string) []string {
	var as []string
	for _, k := range ix.keys {
		if k.Model == model {
			as = append(as, k.Arm)
		}
	}
	return as
}

// Build computes every table of the report from the observations. It
// returns an error when two observations share arm, model, graph, question
// and trial.
func Build(obs []Observation, opt Options) (*Report, error) {
	ix := newIndex(obs)
	for _, k := range ix.keys {
		seen := make(map[answerKey]bool)
		for _, o := range ix.byAM[k] {
			ak := answerKey{o.Graph, o.QuestionID, o.Trial}
			if seen[ak] {
				return nil, fmt.Errorf("report: duplicate observation arm %q model %q graph %q question %q trial %d", o.Arm, o.Model, o.Graph, o.QuestionID, o.Trial)
			}
			seen[ak] = true
		}
	}
	r := &Report{}
	var err error
	r.Accuracy, err = accuracyRows(ix)
	if err != nil {
		return nil, err
	}
	if r.Pairs, err = pairRows(ix, opt); err != nil {
		return nil, err
	}
	if r.CreditPairs, err = creditPairRows(ix, opt); err != nil {
		return nil, err
	}
	r.Tokens = tokenRows(ix)
	if r.RunToRun, err = runRows(ix); err != nil {
		return nil, err
	}
	r.Pareto = paretoRows(ix)
	return r, nil
}

type accKey struct{ Arm, Model, Family, Task, Graph string }

// accCount accumulates one accuracy row.
type accCount struct {
	right, n       int
	credit         int
	p, r, f1       float64
	exact, parseOK int
}

func (c *accCount) add(o Observation) {
	c.n++
	if o.Correct {
		c.right++
	}
	if cr := o.Partial; cr != nil {
		c.credit++
		c.p += cr.Precision
		c.r += cr.Recall
		c.f1 += cr.F1
		if cr.ExactMatch {
			c.exact++
		}
		if cr.ParseOK {
			c.parseOK++
		}
	}
}

func accuracyRows(ix *index) ([]AccuracyRow, error) {
	counts := make(map[accKey]*accCount)
	for _, k := range ix.keys {
		for _, o := range ix.byAM[k] {
			keys := []accKey{
				{o.Arm, o.Model, All, All, All},
				{o.Arm, o.Model, o.Family, All, All},
				{o.Arm, o.Model, All, All, o.Graph},
				{o.Arm, o.Model, o.Family, All, o.Graph},
			}
			if o.Task != "" && o.Task != o.Family {
				keys = append(keys, accKey{o.Arm, o.Model, o.Family, o.Task, All})
			}
			for _, ak := range keys {
				c := counts[ak]
				if c == nil {
					c = &accCount{}
					counts[ak] = c
				}
				c.add(o)
			}
		}
	}
	keys := make([]accKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	rank := func(s string) int {
		if s == All {
			return 0
		}
		return 1
	}
	slices.SortFunc(keys, func(a, b accKey) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Arm, b.Arm),
			cmp.Compare(rank(a.Family), rank(b.Family)), cmp.Compare(a.Family, b.Family),
			cmp.Compare(rank(a.Task), rank(b.Task)), cmp.Compare(a.Task, b.Task),
			cmp.Compare(rank(a.Graph), rank(b.Graph)), cmp.Compare(a.Graph, b.Graph))
	})
	rows := make([]AccuracyRow, 0, len(keys))
	for _, k := range keys {
		c := counts[k]
		// A family present in a single graph gives identical
		// (family, *) and (family, graph) rows; keep both for regularity.
		iv, err := stats.Wilson(c.right, c.n, 0.95)
		if err != nil {
			return nil, err
		}
		row := AccuracyRow{Arm: k.Arm, Model: k.Model, Family: k.Family, Task: k.Task, Graph: k.Graph,
			Correct: c.right, N: c.n, Accuracy: Num(float64(c.right) / float64(c.n)), Lo: Num(iv.Lo), Hi: Num(iv.Hi)}
		if c.credit > 0 {
			n := float64(c.credit)
			row.Credit = &CreditSummary{N: c.credit, Precision: Num(c.p / n), Recall: Num(c.r / n), F1: Num(c.f1 / n),
				ExactMatch: Num(float64(c.exact) / n), ParseSuccess: Num(float64(c.parseOK) / n)}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// creditPairRows compares every pair of arms of a model (or each arm with
// the reference arms) on every metric of CreditMetrics, over the answers
// both arms have with credit.
func creditPairRows(ix *index, opt Options) ([]CreditPairRow, error) {
	var rows []CreditPairRow
	for _, m := range ix.models() {
		for _, p := range armPairs(ix, m, opt) {
			for _, metric := range CreditMetrics() {
				va, vb := pairValues(ix, m, p[0], p[1], metric, nil)
				if len(va) == 0 {
					continue
				}
				sc, err := stats.CompareScores(va, vb, stats.BootstrapOptions{Resamples: opt.Resamples, Seed: opt.Seed})
				if err != nil {
					return nil, err
				}
				row := CreditPairRow{Model: m, A: p[0], B: p[1], Metric: metric, N: sc.N, MeanA: Num(sc.MeanA), MeanB: Num(sc.MeanB),
					Diff: Num(sc.Diff), BootLo: Num(sc.Bootstrap.Lo), BootHi: Num(sc.Bootstrap.Hi), BCaLo: Num(math.NaN()), BCaHi: Num(math.NaN())}
				if sc.BCaErr == nil {
					row.BCaLo, row.BCaHi = Num(sc.BCa.Lo), Num(sc.BCa.Hi)
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// pairValues returns the aligned values of a metric of arms a and b of a
// model over the answer keys both have a value for, in key order, keeping
// only observations accepted by keep (nil keeps all).
func pairValues(ix *index, model, a, b, metric string, keep func(Observation) bool) (va, vb []float64) {
	return alignPair(ix, model, a, b, keep, func(o Observation) (float64, bool) { return o.Value(metric) })
}

// pairVectors returns the aligned correctness vectors of arms a and b of a
// model over the answer keys both have, in key order, keeping only
// observations accepted by keep (nil keeps all).
func pairVectors(ix *index, model, a, b string, keep func(Observation) bool) (va, vb []bool) {
	return alignPair(ix, model, a, b, keep, func(o Observation) (bool, bool) { return o.Correct, true })
}

// alignPair returns value of the observations of arms a and b of a model,
// aligned on the answer keys both have a value for (value's second result),
// in key order, keeping only observations accepted by keep (nil keeps all).
func alignPair[T any](ix *index, model, a, b string, keep func(Observation) bool, value func(Observation) (T, bool)) (va, vb []T) {
	ma := make(map[answerKey]T)
	for _, o := range ix.byAM[armModel{a, model}] {
		if keep == nil || keep(o) {
			if v, ok := value(o); ok {
				ma[answerKey{o.Graph, o.QuestionID, o.Trial}] = v
			}
		}
	}
	var keys []answerKey
	mb := make(map[answerKey]T)
	for _, o := range ix.byAM[armModel{b, model}] {
		ak := answerKey{o.Graph, o.QuestionID, o.Trial}
		if _, ok := ma[ak]; ok && (keep == nil || keep(o)) {
			if v, ok := value(o); ok {
				mb[ak] = v
				keys = append(keys, ak)
			}
		}
	}
	slices.SortFunc(keys, compareAnswerKeys)
	for _, k := range keys {
		va = append(va, ma[k])
		vb = append(vb, mb[k])
	}
	return va, vb
}

func comparePair(ix *index, model, a, b string, opt Options) (PairRow, bool, error) {
	va, vb := pairVectors(ix, model, a, b, nil)
	if len(va) == 0 {
		return PairRow{}, false, nil
	}
	p, err := stats.ComparePaired(va, vb, stats.BootstrapOptions{Resamples: opt.Resamples, Seed: opt.Seed})
	if err != nil {
		return PairRow{}, false, err
	}
	row := PairRow{Model: model, A: a, B: b, N: p.N, B10: p.B, C01: p.C,
		AccA: Num(p.AccA), AccB: Num(p.AccB), Diff: Num(p.Diff), McNemar: Num(p.McNemar), MidP: Num(p.MidP),
		BootLo: Num(p.Bootstrap.Lo), BootHi: Num(p.Bootstrap.Hi), BCaLo: Num(math.NaN()), BCaHi: Num(math.NaN())}
	if p.BCaErr == nil {
		row.BCaLo, row.BCaHi = Num(p.BCa.Lo), Num(p.BCa.Hi)
	}
	return row, true, nil
}

// armPairs returns the pairs of arms of a model compared: each arm with
// every reference arm when opt.Reference is set, else every pair.
func armPairs(ix *index, m string, opt Options) [][2]string {
	arms := ix.arms(m)
	var pairs [][2]string
	if len(opt.Reference) > 0 {
		for _, ref := range opt.Reference {
			if !slices.Contains(arms, ref) {
				continue
			}
			for _, a := range arms {
				if a != ref {
					pairs = append(pairs, [2]string{a, ref})
				}
			}
		}
		return pairs
	}
	for i := range arms {
		for j := i + 1; j < len(arms); j++ {
			pairs = append(pairs, [2]string{arms[i], arms[j]})
		}
	}
	return pairs
}

func pairRows(ix *index, opt Options) ([]PairRow, error) {
	var rows []PairRow
	for _, m := range ix.models() {
		for _, p := range armPairs(ix, m, opt) {
			row, ok, err := comparePair(ix, m, p[0], p[1], opt)
			if err != nil {
				return nil, err
			}
			if ok {
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

func tokenRows(ix *index) []TokenRow {
	rows := make([]TokenRow, 0, len(ix.keys))
	for _, k := range ix.keys {
		obs := ix.byAM[k]
		in := make([]int, len(obs))
		out := make([]int, len(obs))
		for i, o := range obs {
			in[i], out[i] = o.InputTokens, o.OutputTokens
		}
		si, so := stats.SummarizeInts(in), stats.SummarizeInts(out)
		local, ln := 0.0, 0
		for _, o := range obs {
			if o.LocalInputTokens > 0 {
				local += float64(o.LocalInputTokens)
				ln++
			}
		}
		lm := math.NaN()
		if ln > 0 {
			lm = local / float64(ln)
		}
		rows = append(rows, TokenRow{Arm: k.Arm, Model: k.Model, N: si.N,
			InMean: Num(si.Mean), InSD: Num(si.SD), InMin: Num(si.Min), InMax: Num(si.Max),
			OutMean: Num(so.Mean), OutSD: Num(so.SD), OutMin: Num(so.Min), OutMax: Num(so.Max), LocalInMean: Num(lm), LocalN: ln})
	}
	return rows
}

func runRows(ix *index) ([]RunRow, error) {
	var rows []RunRow
	for _, k := range ix.keys {
		byTrial := make(map[int]map[answerKey]bool)
		for _, o := range ix.byAM[k] {
			if byTrial[o.Trial] == nil {
				byTrial[o.Trial] = make(map[answerKey]bool)
			}
			byTrial[o.Trial][answerKey{o.Graph, o.QuestionID, 0}] = o.Correct
		}
		if len(byTrial) < 2 {
			continue
		}
		trials := slices.Sorted(maps.Keys(byTrial))
		// Questions answered in every trial.
		var qs []answerKey
		for q := range byTrial[trials[0]] {
			inAll := true
			for _, t := range trials[1:] {
				if _, ok := byTrial[t][q]; !ok {
					inAll = false
					break
				}
			}
			if inAll {
				qs = append(qs, q)
			}
		}
		if len(qs) == 0 {
			continue
		}
		slices.SortFunc(qs, compareAnswerKeys)
		correct := make([][]bool, len(trials))
		for i, t := range trials {
			correct[i] = make([]bool, len(qs))
			for j, q := range qs {
				correct[i][j] = byTrial[t][q]
			}
		}
		s, err := stats.RunToRun(correct)
		if err != nil {
			return nil, err
		}
		rows = append(rows, RunRow{Arm: k.Arm, Model: k.Model, Trials: len(trials), Questions: len(qs),
			Mean: Num(s.Mean), SD: Num(s.SD), Min: Num(s.Min), Max: Num(s.Max)})
	}
	return rows, nil
}

func paretoRows(ix *index) []ParetoRow {
	var rows []ParetoRow
	for _, m := range ix.models() {
		arms := ix.arms(m)
		pts := make([]stats.Point, len(arms))
		for i, a := range arms {
			obs := ix.byAM[armModel{a, m}]
			var tok float64
			var right int
			for _, o := range obs {
				tok += float64(o.InputTokens)
				if o.Correct {
					right++
				}
			}
			pts[i] = stats.Point{Tokens: tok / float64(len(obs)), Accuracy: float64(right) / float64(len(obs))}
		}
		front := stats.ParetoFront(pts)
		for i, a := range arms {
			rows = append(rows, ParetoRow{Model: m, Arm: a, Tokens: Num(pts[i].Tokens), Accuracy: Num(pts[i].Accuracy),
				OnFront: slices.Contains(front, i)})
		}
	}
	return rows
}
