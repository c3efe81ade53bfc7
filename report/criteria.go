package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/isolda/isolda/internal/yamlguard"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/stats"
)

// Outcome is the verdict on a criterion.
type Outcome string

// The outcomes of a criterion.
const (
	Pass         Outcome = "PASS"
	Fail         Outcome = "FAIL"
	NotEvaluated Outcome = "NOT EVALUATED"
)

// Criterion is one pre-registered criterion (see the package's criteria
// language above for the meaning of each field).
type Criterion struct {
	ID          string                        `json:"id"`
	Kind        string                        `json:"kind"`
	Description string                        `json:"description,omitempty"`
	Arm         string                        `json:"arm,omitempty"`
	Than        []string                      `json:"than,omitempty"`
	Best        bool                          `json:"best,omitempty"`
	Alpha       float64                       `json:"alpha,omitempty"`
	Test        string                        `json:"test,omitempty"`
	Models      []string                      `json:"models,omitempty"`
	Families    []string                      `json:"families,omitempty"`
	Graphs      []string                      `json:"graphs,omitempty"`
	Metric      string                        `json:"metric,omitempty"`
	Per         string                        `json:"per,omitempty"`
	For         string                        `json:"for,omitempty"`
	MinCount    int                           `json:"min_count,omitempty"`
	AtLeast     float64                       `json:"at_least,omitempty"`
	Tolerance   float64                       `json:"tolerance,omitempty"`
	Expected    map[string]map[string]float64 `json:"expected,omitempty"`
	Drops       []Drop                        `json:"drops,omitempty"`
	Criteria    []Criterion                   `json:"criteria,omitempty"`
}

// Drop names the two graphs of a drop_not_larger criterion: the same
// questions (paired by Observation.Pair) asked about From and about To,
// such as a benchmark in English and in Catalan.
type Drop struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// CriteriaSet is a criteria file.
type CriteriaSet struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Alpha       float64     `json:"alpha,omitempty"`
	Criteria    []Criterion `json:"criteria"`
}

// RoundTrip records whether an arm's encoding of a graph decoded to an
// isomorphic graph.
type RoundTrip struct {
	Arm        string `json:"arm"`
	Graph      string `json:"graph"`
	Isomorphic bool   `json:"isomorphic"`
	// Contexts and IsomorphicContexts count the contexts behind the round
	// trip when it stands for several (the items of a collection, the
	// anchors of an ordering); both 0 for one.
	Contexts           int `json:"contexts,omitempty"`
	IsomorphicContexts int `json:"isomorphic_contexts,omitempty"`
}

// Check is one test behind a criterion.
type Check struct {
	// Group names the model, graph or family the check is about.
	Group string `json:"group"`
	// Arm and Than are the arms compared (Than empty for one-arm checks).
	Arm  string `json:"arm,omitempty"`
	Than string `json:"than,omitempty"`
	// Figures gives the numbers behind the check.
	Figures string `json:"figures"`
	Pass    bool   `json:"pass"`
}

// Line is the check as one line of text: pass or FAIL, the group, the arms
// (Arm vs Than) and the figures.
func (c Check) Line() string {
	mark := "FAIL"
	if c.Pass {
		mark = "pass"
	}
	vs := c.Arm
	if c.Than != "" {
		vs += " vs " + c.Than
	}
	return fmt.Sprintf("%s %s, %s: %s", mark, c.Group, vs, c.Figures)
}

// Result is the evaluation of one criterion.
type Result struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Description string   `json:"description,omitempty"`
	Outcome     Outcome  `json:"outcome"`
	Checks      []Check  `json:"checks,omitempty"`
	Notes       []string `json:"notes,omitempty"`
	Sub         []Result `json:"sub,omitempty"`
}

// maxCriteriaBytes bounds a criteria file.
const maxCriteriaBytes = 1 << 20

// maxCriteriaDepth bounds the nesting of all_of and any_of.
const maxCriteriaDepth = 8

// maxCriteria bounds the number of criteria, nested ones included (YAML
// aliases could otherwise expand a small file into billions).
const maxCriteria = 10000

// ParseCriteria reads a criteria file in YAML or JSON (JSON when the first
// non-blank byte is '{'). Unknown fields, unknown kinds and missing required
// fields are errors; syntax errors are *rdf.ParseError with line and column.
func ParseCriteria(r io.Reader, file string) (*CriteriaSet, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxCriteriaBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxCriteriaBytes {
		return nil, &rdf.ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("criteria file larger than %d bytes", maxCriteriaBytes), Err: rdf.ErrLimit}
	}
	if err := yamlguard.Check(data, file); err != nil { // a depth bomb, refused before the decoders allocate
		return nil, err
	}
	var set CriteriaSet
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&set); err != nil {
			line, col := 1, 1
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				line, col = lineCol(data, se.Offset)
			case errors.As(err, &te):
				line, col = lineCol(data, te.Offset)
			}
			return nil, &rdf.ParseError{File: file, Line: line, Column: col, Msg: err.Error()}
		}
	} else {
		if err := decodeYAML(data, &set); err != nil {
			line, col := 1, 1
			msg := err.Error()
			var ye yaml.Error
			if errors.As(err, &ye) {
				msg = ye.GetMessage()
				if tok := ye.GetToken(); tok != nil && tok.Position != nil {
					line, col = tok.Position.Line, tok.Position.Column
				}
			}
			return nil, &rdf.ParseError{File: file, Line: line, Column: col, Msg: msg}
		}
	}
	if err := set.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &set, nil
}

// decodeYAML decodes data into set. The YAML decoder panics on some
// malformed documents (a nil dereference in goccy/go-yaml v1.19.2, found by
// FuzzParseCriteria); such a panic is returned as an error.
func decodeYAML(data []byte, set *CriteriaSet) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed YAML (decoder failure: %v)", p)
		}
	}()
	return yaml.UnmarshalWithOptions(data, set, yaml.DisallowUnknownField())
}

func lineCol(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Validate checks that every criterion has a known kind and the fields its
// kind needs, and that levels lie in (0, 1).
func (s *CriteriaSet) Validate() error {
	if s.Alpha < 0 || s.Alpha >= 1 || math.IsNaN(s.Alpha) {
		return fmt.Errorf("alpha %v not in (0, 1)", s.Alpha)
	}
	ids := make(map[string]bool)
	count := 0
	for i := range s.Criteria {
		c := &s.Criteria[i]
		if c.ID == "" {
			return fmt.Errorf("criterion %d: missing id", i+1)
		}
		if ids[c.ID] {
			return fmt.Errorf("criterion %q: duplicate id", c.ID)
		}
		ids[c.ID] = true
		if err := c.validate(0, &count); err != nil {
			return err
		}
	}
	return nil
}

func (c *Criterion) validate(depth int, count *int) error {
	if *count++; *count > maxCriteria {
		return fmt.Errorf("more than %d criteria: %w", maxCriteria, rdf.ErrLimit)
	}
	if depth > maxCriteriaDepth {
		return fmt.Errorf("criterion %q: nested deeper than %d", c.ID, maxCriteriaDepth)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("criterion %q (%s): %s", c.ID, c.Kind, fmt.Sprintf(format, a...))
	}
	if c.Alpha < 0 || c.Alpha >= 1 || math.IsNaN(c.Alpha) {
		return bad("alpha %v not in (0, 1)", c.Alpha)
	}
	switch c.Per {
	case "", "model", "model_graph", "model_family":
	default:
		return bad("per %q is not model, model_graph or model_family", c.Per)
	}
	switch c.For {
	case "", "every", "any":
	default:
		return bad("for %q is not every or any", c.For)
	}
	switch c.Test {
	case "", "exact", "midp":
	default:
		return bad("test %q is not exact or midp", c.Test)
	}
	if c.MinCount < 0 {
		return bad("negative min_count")
	}
	if c.Metric != "" && !slices.Contains(metricNames, c.Metric) {
		return bad("metric %q is not one of %s", c.Metric, strings.Join(metricNames, ", "))
	}
	switch c.Kind {
	case "not_worse", "better", "accuracy_within", "all_of", "any_of":
	default:
		if c.Metric != "" {
			return bad("metric is only for not_worse, better and accuracy_within")
		}
	}
	switch c.Kind {
	case "lossless":
		if c.Arm == "" {
			return bad("missing arm")
		}
	case "token_reduction", "not_worse", "better":
		if c.Arm == "" || len(c.Than) == 0 {
			return bad("needs arm and than")
		}
		if c.Kind == "token_reduction" && (c.AtLeast < 0 || c.AtLeast >= 1 || math.IsNaN(c.AtLeast)) {
			return bad("at_least %v not in [0, 1)", c.AtLeast)
		}
	case "accuracy_within":
		if c.Tolerance <= 0 || math.IsNaN(c.Tolerance) {
			return bad("needs a positive tolerance")
		}
	case "all_of", "any_of":
		if len(c.Criteria) == 0 {
			return bad("needs criteria")
		}
		for i := range c.Criteria {
			sub := &c.Criteria[i]
			if sub.ID == "" {
				sub.ID = fmt.Sprintf("%s.%d", c.ID, i+1)
			}
			if err := sub.validate(depth+1, count); err != nil {
				return err
			}
		}
	case "drop_not_larger":
		if c.Arm == "" || len(c.Than) == 0 || len(c.Drops) == 0 {
			return bad("needs arm, than and drops")
		}
		for _, d := range c.Drops {
			if d.From == "" || d.To == "" || d.From == d.To {
				return bad("a drop needs two different graphs, from and to")
			}
		}
		if c.Per != "" && c.Per != "model" {
			return bad("per is model: each drop is its own check")
		}
	case "manual":
	default:
		return bad("unknown kind")
	}
	return nil
}

// Input is what criteria are evaluated on.
type Input struct {
	Observations []Observation
	RoundTrips   []RoundTrip
}

// Evaluate validates the set and evaluates every criterion, in order.
func (s *CriteriaSet) Evaluate(in Input) ([]Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ix := newIndex(in.Observations)
	alpha := cmp.Or(s.Alpha, 0.05)
	res := make([]Result, len(s.Criteria))
	for i := range s.Criteria {
		res[i] = s.Criteria[i].evaluate(ix, in, alpha)
	}
	return res, nil
}

func (c *Criterion) evaluate(ix *index, in Input, alpha float64) Result {
	r := Result{ID: c.ID, Kind: c.Kind, Description: c.Description}
	alpha = cmp.Or(c.Alpha, alpha)
	switch c.Kind {
	case "lossless":
		for _, rt := range in.RoundTrips {
			if rt.Arm != c.Arm || !inList(c.Graphs, rt.Graph) {
				continue
			}
			fig := fmt.Sprintf("isomorphic=%t", rt.Isomorphic)
			if rt.Contexts > 0 {
				fig += fmt.Sprintf(" (%d/%d contexts)", rt.IsomorphicContexts, rt.Contexts)
			}
			r.Checks = append(r.Checks, Check{Group: "graph=" + rt.Graph, Arm: rt.Arm, Figures: fig, Pass: rt.Isomorphic})
		}
		slices.SortStableFunc(r.Checks, func(a, b Check) int { return cmp.Compare(a.Group, b.Group) })
		if len(r.Checks) == 0 {
			r.Notes = append(r.Notes, "no round trips recorded for arm "+c.Arm)
		}
		r.Outcome = c.quantify(r.Checks)
	case "token_reduction":
		c.tokenChecks(ix, &r)
		r.Outcome = c.quantify(r.Checks)
	case "not_worse", "better":
		c.accuracyChecks(ix, &r, alpha)
		r.Outcome = c.quantify(r.Checks)
	case "accuracy_within":
		missing := c.withinChecks(ix, &r)
		r.Outcome = c.quantify(r.Checks)
		if missing && r.Outcome == Pass {
			r.Outcome = NotEvaluated
		}
	case "drop_not_larger":
		c.dropChecks(ix, &r, alpha)
		r.Outcome = c.quantify(r.Checks)
	case "all_of", "any_of":
		var pass, fail, ne int
		for i := range c.Criteria {
			sub := c.Criteria[i].evaluate(ix, in, alpha)
			r.Sub = append(r.Sub, sub)
			switch sub.Outcome {
			case Pass:
				pass++
			case Fail:
				fail++
			default:
				ne++
			}
		}
		switch {
		case c.Kind == "all_of" && fail > 0, c.Kind == "any_of" && pass == 0 && ne == 0:
			r.Outcome = Fail
		case c.Kind == "all_of" && ne == 0, c.Kind == "any_of" && pass > 0:
			r.Outcome = Pass
		default:
			r.Outcome = NotEvaluated
		}
	default: // manual
		r.Notes = append(r.Notes, "not evaluable from observations; decide by hand")
		r.Outcome = NotEvaluated
	}
	return r
}

// quantify turns checks into an outcome with the criterion's quantifier.
func (c *Criterion) quantify(checks []Check) Outcome {
	if len(checks) == 0 {
		return NotEvaluated
	}
	n := 0
	for _, ch := range checks {
		if ch.Pass {
			n++
		}
	}
	var ok bool
	switch {
	case c.MinCount > 0:
		ok = n >= c.MinCount
	case c.For == "any":
		ok = n > 0
	default:
		ok = n == len(checks)
	}
	if ok {
		return Pass
	}
	return Fail
}

func inList(list []string, s string) bool { return len(list) == 0 || slices.Contains(list, s) }

// group is one unit of checks: a model, optionally with a graph or family.
type group struct{ Model, Graph, Family string }

func (g group) String() string {
	s := "model=" + g.Model
	if g.Graph != "" {
		s += " graph=" + g.Graph
	}
	if g.Family != "" {
		s += " family=" + g.Family
	}
	return s
}

// family returns the family o is grouped under: its task when the
// criterion names that task in families (a sub-family such as
// outgoing_aggregation_deg_gt4, or a KG-LLM-Bench task), else its family.
func (c *Criterion) family(o Observation) string {
	if o.Task != "" && slices.Contains(c.Families, o.Task) {
		return o.Task
	}
	return o.Family
}

// keep reports whether o belongs to the criterion's filters and the group;
// withFamily false ignores the family (to choose the best arm overall).
func (c *Criterion) keep(g group, withFamily bool) func(Observation) bool {
	return func(o Observation) bool {
		if o.Model != g.Model || !inList(c.Graphs, o.Graph) || (g.Graph != "" && o.Graph != g.Graph) {
			return false
		}
		if withFamily {
			f := c.family(o)
			if !inList(c.Families, f) || (g.Family != "" && f != g.Family) {
				return false
			}
		}
		return true
	}
}

// groups lists the criterion's groups in sorted order.
func (c *Criterion) groups(ix *index) []group {
	seen := make(map[group]bool)
	var gs []group
	for _, k := range ix.keys {
		if !inList(c.Models, k.Model) {
			continue
		}
		for _, o := range ix.byAM[k] {
			f := c.family(o)
			if !inList(c.Graphs, o.Graph) || !inList(c.Families, f) {
				continue
			}
			g := group{Model: o.Model}
			switch c.Per {
			case "model_graph":
				g.Graph = o.Graph
			case "model_family":
				g.Family = f
			}
			if !seen[g] {
				seen[g] = true
				gs = append(gs, g)
			}
		}
	}
	slices.SortFunc(gs, func(a, b group) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Graph, b.Graph), cmp.Compare(a.Family, b.Family))
	})
	return gs
}

// tally returns the sum of a metric ("" is accuracy) over the observations
// of arm in the model's observations accepted by keep that have it, their
// number, and their summed input tokens.
func tally(ix *index, model, arm, metric string, keep func(Observation) bool) (sum float64, n int, tokens float64) {
	for _, o := range ix.byAM[armModel{arm, model}] {
		if keep(o) {
			v, ok := o.Value(metric)
			if !ok {
				continue
			}
			n++
			tokens += float64(o.InputTokens)
			sum += v
		}
	}
	return sum, n, tokens
}

func (c *Criterion) tokenChecks(ix *index, r *Result) {
	for _, g := range c.groups(ix) {
		keep := c.keep(g, true)
		_, na, ta := tally(ix, g.Model, c.Arm, "", keep)
		if na == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: arm %s did not run", g, c.Arm))
			continue
		}
		for _, b := range c.Than {
			_, nb, tb := tally(ix, g.Model, b, "", keep)
			if nb == 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: arm %s did not run", g, b))
				continue
			}
			ma, mb := ta/float64(na), tb/float64(nb)
			red := 1 - ma/mb
			r.Checks = append(r.Checks, Check{Group: g.String(), Arm: c.Arm, Than: b,
				Figures: fmt.Sprintf("mean input tokens %.1f vs %.1f, reduction %.4f (need ≥ %.4f and > 0)", ma, mb, red, c.AtLeast),
				Pass:    red > 0 && red >= c.AtLeast})
		}
	}
}

// metricName names the criterion's metric in figures.
func (c *Criterion) metricName() string { return cmp.Or(c.Metric, "acc") }

// bestArm returns the arm of than with the highest mean of the metric in
// the group (all families), or "" when none ran.
func (c *Criterion) bestArm(ix *index, g group) (string, string) {
	keep := c.keep(g, false)
	best, bestAcc := "", -1.0
	var figs []string
	for _, b := range c.Than {
		sum, n, _ := tally(ix, g.Model, b, c.Metric, keep)
		if n == 0 {
			continue
		}
		acc := sum / float64(n)
		figs = append(figs, fmt.Sprintf("%s %.4f", b, acc))
		if acc > bestAcc {
			best, bestAcc = b, acc
		}
	}
	return best, strings.Join(figs, ", ")
}

// accuracyChecks compares arm with B in every group: on a binary metric
// (accuracy, exact match, parse success) with McNemar's test; on a
// real-valued one (F1, precision, recall) with the paired bootstrap of the
// mean difference (seeded; BCa interval, or the percentile interval when
// BCa is degenerate), significant when its 1 − alpha interval excludes 0.
func (c *Criterion) accuracyChecks(ix *index, r *Result, alpha float64) {
	for _, g := range c.groups(ix) {
		if _, n, _ := tally(ix, g.Model, c.Arm, c.Metric, c.keep(g, true)); n == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: arm %s did not run", g, c.Arm))
			continue
		}
		b := c.Than[0]
		if c.Best {
			var figs string
			b, figs = c.bestArm(ix, g)
			if b == "" {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: none of %s ran", g, strings.Join(c.Than, ", ")))
				continue
			}
			r.Notes = append(r.Notes, fmt.Sprintf("%s: best of %s is %s (%s)", g, strings.Join(c.Than, ", "), b, figs))
		}
		va, vb := pairValues(ix, g.Model, c.Arm, b, c.Metric, c.keep(g, true))
		if len(va) == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: no paired answers of %s and %s", g, c.Arm, b))
			continue
		}
		var sig, better, worse bool
		var fig string
		if binaryMetric(c.Metric) {
			var bc, cc int
			var ra, rb float64
			for i := range va {
				ra += va[i]
				rb += vb[i]
				switch {
				case va[i] == 1 && vb[i] == 0:
					bc++
				case va[i] == 0 && vb[i] == 1:
					cc++
				}
			}
			p, test := stats.McNemarExact(bc, cc), "exact McNemar"
			if c.Test == "midp" {
				p, test = stats.McNemarMidP(bc, cc), "mid-p McNemar"
			}
			n := float64(len(va))
			accA, accB := ra/n, rb/n
			sig, better, worse = p < alpha, accA > accB, accA < accB
			fig = fmt.Sprintf("n=%d %s %.4f vs %.4f, b=%d c=%d, %s p=%.4g (alpha %g)", len(va), c.metricName(), accA, accB, bc, cc, test, p, alpha)
		} else {
			sc, err := stats.CompareScores(va, vb, stats.BootstrapOptions{Seed: criteriaSeed, Confidence: 1 - alpha})
			if err != nil {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: %v", g, err))
				continue
			}
			iv, kind := sc.BCa, "BCa"
			if sc.BCaErr != nil {
				iv, kind = sc.Bootstrap, "percentile"
			}
			sig, better, worse = iv.Lo > 0 || iv.Hi < 0, sc.Diff > 0, sc.Diff < 0
			fig = fmt.Sprintf("n=%d mean %s %.4f vs %.4f, diff %+.4f, paired bootstrap %s %.0f%% [%.4f, %.4f]", len(va), c.Metric,
				sc.MeanA, sc.MeanB, sc.Diff, kind, 100*(1-alpha), iv.Lo, iv.Hi)
		}
		pass := sig && better
		if c.Kind == "not_worse" {
			pass = !(sig && worse)
		}
		r.Checks = append(r.Checks, Check{Group: g.String(), Arm: c.Arm, Than: b, Figures: fig, Pass: pass})
	}
}

// dropChecks checks, for every model and drop, that arm's drop in
// accuracy from the drop's From graph to its To graph is not significantly
// larger than that of B, the arm of than most accurate on both graphs
// together (with best: true; else than[0]): stats.CompareLanguageDrop on
// the questions (Observation.Pair, and trial) that all four arm × graph
// cells answered, an exact two-sided sign test of the questions where
// arm's drop is larger against those where it is smaller, significant
// when p < alpha and the mean drop of arm is the larger.
func (c *Criterion) dropChecks(ix *index, r *Result, alpha float64) {
	cells := func(model, arm, graph string) map[string]bool {
		out := map[string]bool{}
		for _, o := range ix.byAM[armModel{arm, model}] {
			if o.Graph == graph && o.Pair != "" {
				out[fmt.Sprintf("%s#%d", o.Pair, o.Trial)] = o.Correct
			}
		}
		return out
	}
	for _, m := range ix.models() {
		if !inList(c.Models, m) {
			continue
		}
		for _, d := range c.Drops {
			g := fmt.Sprintf("model=%s drop=%s→%s", m, d.From, d.To)
			b := c.Than[0]
			if c.Best {
				best, bestAcc := "", -1.0
				for _, t := range c.Than {
					var right, n int
					for _, o := range ix.byAM[armModel{t, m}] {
						if o.Graph == d.From || o.Graph == d.To {
							n++
							if o.Correct {
								right++
							}
						}
					}
					if n > 0 && float64(right)/float64(n) > bestAcc {
						best, bestAcc = t, float64(right)/float64(n)
					}
				}
				if best == "" {
					r.Notes = append(r.Notes, fmt.Sprintf("%s: none of %s ran", g, strings.Join(c.Than, ", ")))
					continue
				}
				b = best
				r.Notes = append(r.Notes, fmt.Sprintf("%s: best of %s on both graphs is %s (%.4f)", g, strings.Join(c.Than, ", "), b, bestAcc))
			}
			ae, at, be, bt := cells(m, c.Arm, d.From), cells(m, c.Arm, d.To), cells(m, b, d.From), cells(m, b, d.To)
			for _, k := range slices.Sorted(maps.Keys(ae)) {
				if _, ok := at[k]; !ok {
					delete(ae, k)
				} else if _, ok := be[k]; !ok {
					delete(ae, k)
				} else if _, ok := bt[k]; !ok {
					delete(ae, k)
				}
			}
			if len(ae) == 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: no question answered in all four cells of %s and %s", g, c.Arm, b))
				continue
			}
			keep := func(x map[string]bool) map[string]bool {
				out := make(map[string]bool, len(ae))
				for k := range ae {
					out[k] = x[k]
				}
				return out
			}
			ld, err := stats.CompareLanguageDrop(ae, keep(at), keep(be), keep(bt), alpha, stats.BootstrapOptions{Seed: criteriaSeed})
			if err != nil {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: %v", g, err))
				continue
			}
			r.Checks = append(r.Checks, Check{Group: g, Arm: c.Arm, Than: b,
				Figures: fmt.Sprintf("n=%d drop %.4f vs %.4f (diff %+.4f), larger in %d, smaller in %d, sign test p=%.4g (alpha %g)",
					ld.N, ld.DropISOLDA, ld.DropOther, ld.Diff, ld.Worse, ld.Better, ld.P, alpha),
				Pass: !ld.Larger})
		}
	}
}

// criteriaSeed seeds the bootstraps of criteria on real-valued metrics, so
// that a verdict never changes from one evaluation to the next.
const criteriaSeed = 1101

// withinChecks adds a check per expected accuracy that ran and reports
// whether some did not run (the criterion then cannot pass).
func (c *Criterion) withinChecks(ix *index, r *Result) (missing bool) {
	if len(c.Expected) == 0 {
		r.Notes = append(r.Notes, "no expected accuracies given")
		return true
	}
	models := slices.Sorted(maps.Keys(c.Expected))
	for _, m := range models {
		arms := slices.Sorted(maps.Keys(c.Expected[m]))
		for _, a := range arms {
			want := c.Expected[m][a]
			sum, n, _ := tally(ix, m, a, c.Metric, c.keep(group{Model: m}, true))
			if n == 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("model=%s: arm %s did not run (expected %.4f)", m, a, want))
				missing = true
				continue
			}
			acc := sum / float64(n)
			d := acc - want
			what := fmt.Sprintf("%s %.4f (%g/%d)", cmp.Or(c.Metric, "accuracy"), acc, sum, n)
			r.Checks = append(r.Checks, Check{Group: "model=" + m, Arm: a,
				Figures: fmt.Sprintf("%s vs expected %.4f, difference %+.4f (tolerance %.4f)", what, want, d, c.Tolerance),
				Pass:    math.Abs(d) <= c.Tolerance+1e-12})
		}
	}
	return missing
}

// WriteCriteriaMarkdown writes the results as a Markdown section: one line
// per criterion with its outcome, then the checks and notes behind it.
func WriteCriteriaMarkdown(w io.Writer, results []Result) error {
	var b strings.Builder
	b.WriteString("## Pre-registered criteria\n\n")
	b.WriteString("| criterion | kind | outcome | description |\n|---|---|---|---|\n")
	var walk func(rs []Result)
	walk = func(rs []Result) {
		for _, r := range rs {
			fmt.Fprintf(&b, "| %s | %s | **%s** | %s |\n", mdEscape(r.ID), r.Kind, r.Outcome, mdEscape(r.Description))
			walk(r.Sub)
		}
	}
	walk(results)
	b.WriteString("\n")
	var detail func(rs []Result)
	detail = func(rs []Result) {
		for _, r := range rs {
			fmt.Fprintf(&b, "### %s: %s\n\n", mdEscape(r.ID), r.Outcome)
			for _, ch := range r.Checks {
				fmt.Fprintf(&b, "- %s\n", ch.Line())
			}
			for _, n := range r.Notes {
				fmt.Fprintf(&b, "- note: %s\n", n)
			}
			b.WriteString("\n")
			detail(r.Sub)
		}
	}
	detail(results)
	_, err := io.WriteString(w, b.String())
	return err
}
