package graphqa

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/isolda/isolda/task"
)

// Scoring declares GraphQA's scorers: "graphqa" (Score, the default of
// every family named graphqa…) and "final" (ScoreFinal).
func Scoring() task.Scoring {
	return task.Scoring{
		Scorers: []task.NamedScorer{{Name: "graphqa", Scorer: Score}, {Name: "final", Scorer: ScoreFinal}},
		Owns:    func(family string) bool { return strings.HasPrefix(family, FamilyGraphQA) },
	}
}

// Rules of the GraphQA scorers.
const (
	// RuleYesNoAccuracy is graph_metrics.yes_no_accuracy of the
	// talk-like-a-graph repository: first line, lower-cased; "yes" inside
	// means yes; both "yes" and "no" (even inside "node") is ambiguous and
	// wrong; neither is indeterminate and wrong.
	RuleYesNoAccuracy = "yes_no_accuracy"
	// RuleKDDYes is the KDD tutorial's 'yes' in response[:10].lower().
	RuleKDDYes = "kdd_yes_in_first_10"
	// RuleTwoDecimals compares the first number of the response, rounded to
	// two decimals, with the gold value.
	RuleTwoDecimals = "two_decimals"
	// RuleListSetEqual compares the names of a list answer (split at commas
	// and "and") as sets, after normalization; "none"/"no nodes" is the empty
	// list.
	RuleListSetEqual = "list_set_equal"
	// RuleNoPathPhrase accepts a response that says there is no path.
	RuleNoPathPhrase = "no_path_phrase"
	// RuleFinalMissing is reported when a FINAL: line was required and absent.
	RuleFinalMissing = "final_missing"
)

// Parsed values of RuleYesNoAccuracy.
const (
	ParsedAmbiguous     = "ambiguous"
	ParsedIndeterminate = "indeterminate"
	ParsedBadTarget     = "invalid_target"
)

// YesNoAccuracy is Talk like a Graph's only scorer
// (graph_metrics.yes_no_accuracy) for one item; Parsed is "yes", "no",
// "ambiguous", "indeterminate", or "invalid_target" when the gold answer does
// not contain exactly one of "yes" and "no".
var YesNoAccuracy = task.ScorerFunc(yesNoAccuracy)

func yesNoAccuracy(q task.Question, response string) task.Result {
	target := strings.ToLower(q.Gold.Text)
	ty, tn := strings.Contains(target, "yes"), strings.Contains(target, "no")
	if ty == tn {
		return task.Result{Parsed: ParsedBadTarget, Rule: RuleYesNoAccuracy}
	}
	first, _, _ := strings.Cut(response, "\n")
	pred := strings.ToLower(first)
	py, pn := strings.Contains(pred, "yes"), strings.Contains(pred, "no")
	switch {
	case py && pn:
		return task.Result{Parsed: ParsedAmbiguous, Rule: RuleYesNoAccuracy}
	case !py && !pn:
		return task.Result{Parsed: ParsedIndeterminate, Rule: RuleYesNoAccuracy}
	}
	r := task.Result{Parsed: map[bool]string{true: "yes", false: "no"}[py], Rule: RuleYesNoAccuracy}
	if py == ty {
		r.Correct, r.Score = true, 1
	}
	return r
}

// KDDYesNo is the KDD tutorial's scorer: the response means yes when its
// first 10 characters, lower-cased, contain "yes"; it is right when that
// agrees with the gold answer.
var KDDYesNo = task.ScorerFunc(func(q task.Question, response string) task.Result {
	rs := []rune(response)
	if len(rs) > 10 {
		rs = rs[:10]
	}
	yes := strings.Contains(strings.ToLower(string(rs)), "yes")
	r := task.Result{Parsed: map[bool]string{true: "yes", false: "no"}[yes], Rule: RuleKDDYes}
	if yes == (q.Gold.Value == "yes") {
		r.Correct, r.Score = true, 1
	}
	return r
})

// Score scores a free-form answer to a GraphQA question by its answer
// kind: yes/no with YesNoAccuracy, integers with the first integer, numbers
// with RuleTwoDecimals, lists with RuleListSetEqual, node names and texts with
// ScoreKG's rules, and "no path" answers with RuleNoPathPhrase. Talk like a
// Graph has no scorer for the non-yes/no tasks (its paper reports accuracy);
// these rules are ours and each result names its rule.
var Score = task.ScorerFunc(func(q task.Question, response string) task.Result {
	return scoreByKind(q, response, false)
})

// ScoreFinal is the study's scorer: the answer is the text after "FINAL:" on
// the last line that begins with it (case-insensitive, after spaces and
// markdown emphasis), compared by kind: yes/no by its first word, integers
// by the first integer, numbers to two decimals, node names after
// normalization, lists as sets, and "no path" for shortest paths without one.
// Without a FINAL: line the answer is wrong (RuleFinalMissing).
var ScoreFinal = task.ScorerFunc(func(q task.Question, response string) task.Result {
	ans, ok := FinalAnswer(response)
	if !ok {
		return task.Result{Rule: RuleFinalMissing}
	}
	r := scoreByKind(q, ans, true)
	r.Rule = "final/" + r.Rule
	return r
})

// FinalAnswer returns the text after "FINAL:" on the last line that starts
// with it (ignoring leading spaces, '*', '#', '>' and '`', and case).
func FinalAnswer(response string) (string, bool) {
	lines := strings.Split(response, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimLeft(lines[i], " \t*#>`")
		if len(l) >= 6 && strings.EqualFold(l[:6], "final:") {
			return strings.Trim(l[6:], " \t*`\r"), true
		}
	}
	return "", false
}

var numberRE = regexp.MustCompile(`[-+]?(\d+\.?\d*|\.\d+)`)

func scoreByKind(q task.Question, response string, final bool) task.Result {
	switch q.Gold.Kind {
	case task.KindYesNo:
		if !final {
			return yesNoAccuracy(q, response)
		}
		w := task.Normalize(response)
		w = strings.TrimLeft(w, "*\"'")
		first := strings.FieldsFunc(w, func(r rune) bool { return !task.IsWordRune(r) })
		r := task.Result{Rule: task.RuleNFKCCasefold}
		if len(first) > 0 {
			r.Parsed = first[0]
			if first[0] == q.Gold.Value {
				r.Correct, r.Score = true, 1
			}
		}
		return r
	case task.KindInt:
		return task.ScoreKG(q, response)
	case task.KindFloat:
		m := numberRE.FindString(task.Normalize(response))
		r := task.Result{Parsed: m, Rule: RuleTwoDecimals}
		v, err := strconv.ParseFloat(m, 64)
		g, gerr := strconv.ParseFloat(q.Gold.Value, 64)
		if err == nil && gerr == nil && math.Abs(math.Round(v*100)-math.Round(g*100)) < 0.5 {
			r.Correct, r.Score = true, 1
		}
		return r
	case task.KindList:
		return scoreList(q.Gold.Items, response)
	case task.KindNoPath:
		n := task.Normalize(response)
		r := task.Result{Parsed: n, Rule: RuleNoPathPhrase}
		for _, p := range []string{"no path", "no such path", "not reachable", "unreachable", "not connected", "none", "-1", "infinity"} {
			if strings.Contains(n, p) {
				r.Correct, r.Score = true, 1
				break
			}
		}
		return r
	case task.KindNode:
		s := strings.TrimRight(strings.TrimSpace(response), ".")
		return task.ScoreKG(q, s)
	}
	return task.ScoreKG(q, response)
}

func scoreList(gold []string, response string) task.Result {
	n := task.Normalize(response)
	n = strings.TrimRight(n, ". ")
	r := task.Result{Parsed: n, Rule: RuleListSetEqual}
	var got []string
	if n != "none" && n != "no nodes" && n != "" {
		for _, part := range strings.Split(n, ",") {
			for _, item := range strings.Split(part, " and ") {
				item = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(item), "and "))
				item = strings.Trim(item, "[]()'\"`*")
				if item != "" {
					got = append(got, item)
				}
			}
		}
	}
	want := map[string]bool{}
	for _, g := range gold {
		want[task.Normalize(g)] = true
	}
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	if len(have) != len(want) {
		return r
	}
	for k := range want {
		if !have[k] {
			return r
		}
	}
	r.Correct, r.Score = true, 1
	return r
}
