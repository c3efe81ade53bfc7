// Package kgllm is KG-LLM-Bench (Markowitz, Galiya, Ver Steeg and
// Galstyan 2025, arXiv:2504.07087; repository Elanmarkowitz/kg-llm-bench):
// its five tasks, their questions and gold answers taken from the
// benchmark's instances or sampled anew from its Countries graph, the
// benchmark's prompt, and its scorers with every quirk kept, each with a
// documented lenient scorer beside it. The textualizations themselves are
// in formats/kgllmbench.
package kgllm

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// IsFamily reports whether f is the Question.Family of KG-LLM-Bench
// questions: each task is its own family (the task's name), so results
// come per task.
func IsFamily(f string) bool {
	for _, t := range Tasks() {
		if f == t {
			return true
		}
	}
	return false
}

// The five KG-LLM-Bench tasks, named as the benchmark names them.
const (
	TripleRetrieval       = "TripleRetrieval"
	ShortestPath          = "ShortestPath"
	HighestDegreeNode     = "HighestDegreeNode"
	AggByRelation         = "AggByRelation"
	AggNeighborProperties = "AggNeighborProperties"
)

// Rules reported in Result.Rule by the KG-LLM-Bench scorers.
const (
	// RuleFirstWord is TripleRetrieval's strict rule:
	// response.strip().lower().split()[0] == answer.lower().
	RuleFirstWord = "kgllm_first_word"
	// RulePathLiteral is ShortestPath's strict rule: remove every
	// "SHORTEST PATH:", keep the first line, ast.literal_eval it and compare
	// tuple(value) with each gold path.
	RulePathLiteral = "kgllm_path_literal_eval"
	// RulePathFlexible is the paper's "flexible" ShortestPath rule
	// (analysis/shortest_path_task_analyzer.py): the regex
	// `SHORTEST PATH: \[(.*)\]` on the raw response, then literal_eval of
	// the text inside the brackets.
	RulePathFlexible = "kgllm_path_flexible"
	// RuleAnswerLabel is HighestDegreeNode's strict rule: the regex
	// `Answer:\s*([\w\s]+)` (Python's Unicode \w and \s), group 1 equal to
	// a gold label.
	RuleAnswerLabel = "kgllm_answer_label_regex"
	// RuleAnswerNumber is the aggregation tasks' strict rule: the regex
	// `Answer:\s*(\d+)`, int(group 1) equal to the gold number.
	RuleAnswerNumber = "kgllm_answer_number_regex"
	// RuleLenient prefixes the rules of the lenient scorers.
	RuleLenient = "kgllm_lenient"
)

// Tasks returns the five task names in the benchmark's order.
func Tasks() []string {
	return []string{TripleRetrieval, ShortestPath, HighestDegreeNode, AggByRelation, AggNeighborProperties}
}

// Variants are the two instance variants: real labels and pseudonymized
// country labels.
func Variants() []string { return []string{"real", "pseudo"} }

// LoadInstances loads the regenerated instances of one task and variant
// from dir (shared/data/kgllmbench/instances/instances), the file
// <task>.<variant>.jsonl.gz.
func LoadInstances(dir, taskName, variant string) ([]kgllmbench.Instance, error) {
	f, err := os.Open(filepath.Join(dir, taskName+"."+variant+".jsonl.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return kgllmbench.LoadInstances(f)
}

// entity is an entity as the benchmark stores it in answers and fields.
type entity struct {
	EntityID   json.Number `json:"entity_id"`
	WikidataID string      `json:"wikidata_id"`
	Label      string      `json:"label"`
}

// InstanceQuestion converts a benchmark instance to a Question. Text is the
// instance's question exactly; ID is "kgllm-<variant>-<task>-<id>"; Meta
// records the task, variant and instance id. The gold answer keeps the
// benchmark's answer:
//
//   - TripleRetrieval: Kind yesno, Text "Yes" or "No", Value "yes" or "no";
//   - ShortestPath: Kind list, Text and Value the first answer string
//     ("SHORTEST PATH: ['A', 'B']"), Alternatives the other answer strings,
//     Items the labels of the first path;
//   - HighestDegreeNode: Kind node, Text and Value the first tied label,
//     Items every tied label in the benchmark's order, Alternatives the
//     others;
//   - AggByRelation and AggNeighborProperties: Kind int, Text and Value the
//     number.
func InstanceQuestion(inst kgllmbench.Instance) (task.Question, error) {
	q := task.Question{
		ID:     fmt.Sprintf("kgllm-%s-%s-%03d", inst.Variant, inst.Task, inst.ID),
		Family: inst.Task,
		Task:   inst.Task,
		Text:   inst.Question,
		Meta:   map[string]string{"task": inst.Task, "variant": inst.Variant, "instance": strconv.Itoa(inst.ID)},
	}
	bad := func(err error) (task.Question, error) {
		return task.Question{}, fmt.Errorf("task: %s %s instance %d: bad answer: %w", inst.Task, inst.Variant, inst.ID, err)
	}
	switch inst.Task {
	case TripleRetrieval:
		var a string
		if err := json.Unmarshal(inst.Answer, &a); err != nil {
			return bad(err)
		}
		if a != "Yes" && a != "No" {
			return bad(fmt.Errorf("answer %q is not Yes or No", a))
		}
		q.Gold = task.Answer{Text: a, Kind: task.KindYesNo, Value: strings.ToLower(a)}
	case ShortestPath:
		var as []string
		if err := json.Unmarshal(inst.Answer, &as); err != nil {
			return bad(err)
		}
		if len(as) == 0 {
			return bad(errors.New("no answer path"))
		}
		labels, ok := pathLabels(as[0])
		if !ok {
			return bad(fmt.Errorf("answer %q is not a path", as[0]))
		}
		q.Gold = task.Answer{Text: as[0], Kind: task.KindList, Value: as[0], Items: labels}
		if len(as) > 1 {
			q.Gold.Alternatives = append([]string(nil), as[1:]...)
		}
	case HighestDegreeNode:
		var es []entity
		if err := json.Unmarshal(inst.Answer, &es); err != nil {
			return bad(err)
		}
		if len(es) == 0 {
			return bad(errors.New("no answer entity"))
		}
		labels := make([]string, len(es))
		for i, e := range es {
			labels[i] = e.Label
		}
		q.Gold = task.Answer{Text: labels[0], Kind: task.KindNode, Value: labels[0], Items: labels}
		if len(labels) > 1 {
			q.Gold.Alternatives = append([]string(nil), labels[1:]...)
		}
	case AggByRelation, AggNeighborProperties:
		var as []string
		if err := json.Unmarshal(inst.Answer, &as); err != nil {
			return bad(err)
		}
		if len(as) != 1 || !isDecimal(as[0]) {
			return bad(fmt.Errorf("answer %q is not one number", as))
		}
		q.Gold = task.Answer{Text: as[0], Kind: task.KindInt, Value: as[0]}
	default:
		return task.Question{}, fmt.Errorf("task: unknown KG-LLM-Bench task %q", inst.Task)
	}
	return q, nil
}

// Prompt returns the benchmark's full prompt for inst in the named
// textualization (kgllmbench.Formats): the introduction with the format's
// description, the instance's subgraph as text, and the question.
func Prompt(inst kgllmbench.Instance, format string) (string, error) {
	var b strings.Builder
	if err := kgllmbench.Textualize(&b, &inst.KG, format); err != nil {
		return "", err
	}
	return kgllmbench.Prompt(format, b.String(), inst.Question), nil
}

// NewSet builds a question set from instances in one textualization: one
// context per instance (its subgraph as text, Source naming the format) and
// one question per instance.
func NewSet(name string, insts []kgllmbench.Instance, format string) (*task.Set, error) {
	set := &task.Set{Name: name}
	for _, inst := range insts {
		q, err := InstanceQuestion(inst)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if err := kgllmbench.Textualize(&b, &inst.KG, format); err != nil {
			return nil, err
		}
		cid := fmt.Sprintf("kgllm-%s-%s-%03d-%s", inst.Variant, inst.Task, inst.ID, format)
		set.Contexts = append(set.Contexts, task.Context{ID: cid, Text: b.String(), Source: "kgllmbench " + format})
		q.ContextID = cid
		q.Meta["format"] = format
		set.Questions = append(set.Questions, q)
	}
	set.Counts = taskCounts(set.Questions)
	set.Seal()
	return set, nil
}

// taskCounts counts questions per task (their family), in Tasks() order.
func taskCounts(qs []task.Question) []task.FamilyCount {
	counts := map[string]int{}
	for _, q := range qs {
		counts[q.Task]++
	}
	var out []task.FamilyCount
	for _, t := range Tasks() {
		if counts[t] > 0 {
			out = append(out, task.FamilyCount{Family: t, Questions: counts[t], Candidates: counts[t]})
		}
	}
	return out
}

// Strict scores a response to a KG-LLM-Bench question exactly as the
// benchmark's evaluate_response does for the question's task (see the
// Eval* functions). Where the benchmark would raise an exception (an
// empty TripleRetrieval response, a ShortestPath response that evaluates to
// a number), the score is 0.
var Strict task.Scorer = task.ScorerFunc(rules{EvalTripleRetrieval, EvalShortestPath, EvalHighestDegreeNode, EvalAggregation}.score)

// Lenient scores a response with the lenient rule of the question's
// task (see the Lenient* functions): the same gold answers, read more
// forgivingly.
var Lenient task.Scorer = task.ScorerFunc(rules{LenientTripleRetrieval, LenientShortestPath, LenientHighestDegreeNode, LenientAggregation}.score)

// Scoring declares KG-LLM-Bench's scorers: "kgllm_strict" (Strict, the
// default of its task families), "kgllm_lenient" (Lenient) and
// "kgllm_adapted" (Adapted, the Catalan study's).
func Scoring() task.Scoring {
	return task.Scoring{
		Scorers: []task.NamedScorer{{Name: "kgllm_strict", Scorer: Strict}, {Name: "kgllm_lenient", Scorer: Lenient},
			{Name: "kgllm_adapted", Scorer: Adapted}},
		Owns: IsFamily,
	}
}

func goldList(a task.Answer) []string {
	return append([]string{a.Value}, a.Alternatives...)
}

func goldLabels(a task.Answer) []string {
	if len(a.Items) > 0 {
		return a.Items
	}
	return goldList(a)
}

// rules are a scorer's rule for each task: Strict's (Eval*) or
// Lenient's (Lenient*).
type rules struct {
	triple func(response, answer string) task.Result
	path   func(response string, answers []string) task.Result
	degree func(response string, labels []string) task.Result
	agg    func(response, answer string) task.Result
}

// score scores a response with the rule of the question's task.
func (r rules) score(q task.Question, response string) task.Result {
	switch q.Task {
	case TripleRetrieval:
		return r.triple(response, q.Gold.Text)
	case ShortestPath:
		return r.path(response, goldList(q.Gold))
	case HighestDegreeNode:
		return r.degree(response, goldLabels(q.Gold))
	case AggByRelation, AggNeighborProperties:
		return r.agg(response, q.Gold.Value)
	}
	return task.Result{Rule: task.RuleNoAnswer}
}

func result(ok bool, parsed, rule string) task.Result {
	if ok {
		return task.Result{Correct: true, Score: 1, Parsed: parsed, Rule: rule}
	}
	return task.Result{Parsed: parsed, Rule: rule}
}

// ---- strict scorers ----

// EvalTripleRetrieval is TripleRetrieval's evaluate_response:
// response.strip().lower().split()[0] == answer.strip().lower(). So "Yes."
// and "Yes," score 0. An empty response (where Python raises IndexError)
// scores 0.
func EvalTripleRetrieval(response, answer string) task.Result {
	f := py.Split(py.Lower(response))
	if len(f) == 0 {
		return task.Result{Rule: RuleFirstWord}
	}
	return result(f[0] == py.Lower(py.Strip(answer)), f[0], RuleFirstWord)
}

// EvalShortestPath is ShortestPath's evaluate_response with
// use_flexible_eval=False: every "SHORTEST PATH:" is removed, the first line
// is kept and stripped and evaluated as a Python literal; the score is 1
// when tuple(value) equals tuple(answer path) for one of the answers, each
// an answer string "SHORTEST PATH: [...]". A reply beginning
// "SHORTEST_PATH:" (as the question itself asks) therefore scores 0.
func EvalShortestPath(response string, answers []string) task.Result {
	r := strings.ReplaceAll(response, "SHORTEST PATH:", "")
	if i := strings.IndexByte(r, '\n'); i >= 0 {
		r = r[:i]
	}
	r = py.Strip(r)
	return comparePath(r, answers, RulePathLiteral)
}

var flexibleRE = regexp.MustCompile(`SHORTEST PATH: \[(.*)\]`)

// EvalShortestPathFlexible is the "flexible" ShortestPath scorer of the
// paper's figures (analysis/shortest_path_task_analyzer.py): the regex
// `SHORTEST PATH: \[(.*)\]` on the raw response (greedy, within one line),
// then literal_eval of group 1, which is the inside of the list: a path of
// two or more labels evaluates to a tuple, a single quoted label to a
// string, whose tuple is its characters.
func EvalShortestPathFlexible(response string, answers []string) task.Result {
	m := flexibleRE.FindStringSubmatch(response)
	r := ""
	if m != nil {
		r = py.Strip(m[1])
	}
	return comparePath(r, answers, RulePathFlexible)
}

func comparePath(r string, answers []string, rule string) task.Result {
	v, err := py.LiteralEval(r)
	if err != nil {
		return task.Result{Parsed: r, Rule: rule}
	}
	got, ok := v.Tuple()
	if !ok {
		// tuple() of a number raises TypeError, which the benchmark does
		// not catch.
		return task.Result{Parsed: r, Rule: rule}
	}
	for _, a := range answers {
		want, err := py.LiteralEval(py.Strip(strings.ReplaceAll(a, "SHORTEST PATH:", "")))
		if err != nil {
			continue
		}
		wt, ok := want.Tuple()
		if ok && tupleEqual(got, wt) {
			return task.Result{Correct: true, Score: 1, Parsed: r, Rule: rule}
		}
	}
	return task.Result{Parsed: r, Rule: rule}
}

// EvalHighestDegreeNode is HighestDegreeNode's evaluate_response:
// re.search(r'Answer:\s*([\w\s]+)', response) with Python's Unicode \w
// (letters, digits, numerics and "_", but not combining marks) and \s, and
// group 1 must equal one of labels exactly (case-sensitively, with no
// trimming). Labels containing any other character (an apostrophe, a hyphen
// or dash, a period, a parenthesis, a comma) can never match; text on a line
// after the label breaks the match, while "Answer: Belgium." still matches.
func EvalHighestDegreeNode(response string, labels []string) task.Result {
	g, ok := AnswerLabel(response)
	if !ok {
		return task.Result{Rule: RuleAnswerLabel}
	}
	for _, l := range labels {
		if g == l {
			return task.Result{Correct: true, Score: 1, Parsed: g, Rule: RuleAnswerLabel}
		}
	}
	return task.Result{Parsed: g, Rule: RuleAnswerLabel}
}

// AnswerLabel returns group 1 of Python's
// re.search(r'Answer:\s*([\w\s]+)', s), and whether it matched.
func AnswerLabel(s string) (string, bool) {
	return answerLabel(s, []string{"Answer:"}, func(r rune) bool { return py.IsWord(r) || py.IsSpace(r) })
}

// answerLabel is re.search(r'(?:K1|K2|...)\s*([C]+)', s) for keywords K
// and the character class C given by isLabel (which must include \s):
// the first keyword occurrence, from the left, after which at least one
// label character follows.
func answerLabel(s string, keywords []string, isLabel func(rune) bool) (string, bool) {
	for off := 0; ; {
		i, kw := indexAny(s[off:], keywords)
		if i < 0 {
			return "", false
		}
		p := off + i + len(kw)
		// \s* greedy.
		ws := p
		var lastWS = -1
		for ws < len(s) {
			r, n := utf8.DecodeRuneInString(s[ws:])
			if !py.IsSpace(r) {
				break
			}
			lastWS = ws
			ws += n
		}
		// [C]+ greedy from ws.
		end := ws
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !isLabel(r) {
				break
			}
			end += n
		}
		if end > ws {
			return s[ws:end], true
		}
		if lastWS >= 0 {
			// Backtracking: \s* gives its last space to [C]+.
			return s[lastWS:ws], true
		}
		off = off + i + 1
	}
}

// indexAny returns the byte index of the leftmost occurrence in s of any
// of the words, and that word, or -1.
func indexAny(s string, words []string) (int, string) {
	best, word := -1, ""
	for _, w := range words {
		if i := strings.Index(s, w); i >= 0 && (best < 0 || i < best) {
			best, word = i, w
		}
	}
	return best, word
}

// EvalAggregation is the aggregation tasks' evaluate_response:
// re.search(r'Answer:\s*(\d+)', response) (Python's \d: any Unicode decimal
// digit), int(group 1) == int(answer).
func EvalAggregation(response, answer string) task.Result {
	g, ok := AnswerNumber(response)
	if !ok {
		return task.Result{Rule: RuleAnswerNumber}
	}
	return result(sameInt(g, answer), g, RuleAnswerNumber)
}

// AnswerNumber returns group 1 of Python's
// re.search(r'Answer:\s*(\d+)', s) with its digits converted to ASCII, and
// whether it matched.
func AnswerNumber(s string) (string, bool) {
	return answerNumber(s, []string{"Answer:"})
}

// answerNumber is re.search(r'(?:K1|K2|...):\s*(\d+)', s) for keywords K,
// with the digits converted to ASCII.
func answerNumber(s string, keywords []string) (string, bool) {
	for off := 0; ; {
		i, kw := indexAny(s[off:], keywords)
		if i < 0 {
			return "", false
		}
		p := off + i + len(kw)
		for p < len(s) {
			r, n := utf8.DecodeRuneInString(s[p:])
			if !py.IsSpace(r) {
				break
			}
			p += n
		}
		var digits []byte
		for p < len(s) {
			r, n := utf8.DecodeRuneInString(s[p:])
			d, ok := py.DigitValue(r)
			if !ok {
				break
			}
			digits = append(digits, byte('0'+d))
			p += n
		}
		if len(digits) > 0 {
			return string(digits), true
		}
		off = off + i + 1
	}
}

func sameInt(a, b string) bool {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(py.Strip(b), "0")
	return isDecimal(a+"0") && a == b
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ---- lenient scorers ----

// LenientTripleRetrieval reads a yes/no answer forgivingly: after NFKC
// and case folding, the first word made of letters decides when it is "yes"
// or "no" ("Yes.", "**Yes**", "yes, it is"); otherwise the answer is the one
// of "yes" and "no" that occurs as a whole word, when exactly one does.
func LenientTripleRetrieval(response, answer string) task.Result {
	rule := RuleLenient + "_yes_no"
	want := task.Normalize(answer)
	words := strings.FieldsFunc(task.Normalize(response), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 {
		return task.Result{Rule: rule}
	}
	if words[0] == "yes" || words[0] == "no" {
		return result(words[0] == want, words[0], rule)
	}
	yes, no := false, false
	for _, w := range words {
		yes = yes || w == "yes"
		no = no || w == "no"
	}
	switch {
	case yes && !no:
		return result(want == "yes", "yes", rule)
	case no && !yes:
		return result(want == "no", "no", rule)
	}
	return task.Result{Parsed: words[0], Rule: rule}
}

var lenientPathRE = regexp.MustCompile(`(?i)shortest[ _]path\s*:?\s*(\[[^\]\n]*\])`)

// LenientShortestPath reads a path forgivingly: the first bracketed
// list after "SHORTEST PATH", "SHORTEST_PATH" (any case, colon optional), or
// else the first bracketed list in the response, split on commas with
// quotes and spaces trimmed (when it is not a Python literal) or evaluated
// as a literal; it is right when its labels equal a gold path's labels after
// NFKC and case folding, in order.
func LenientShortestPath(response string, answers []string) task.Result {
	rule := RuleLenient + "_path"
	list := ""
	if m := lenientPathRE.FindStringSubmatch(response); m != nil {
		list = m[1]
	} else if i := strings.IndexByte(response, '['); i >= 0 {
		if j := strings.IndexByte(response[i:], ']'); j >= 0 {
			list = response[i : i+j+1]
		}
	}
	if list == "" {
		return task.Result{Rule: rule}
	}
	var got []string
	if v, err := py.LiteralEval(list); err == nil && v.Kind == py.List {
		for _, it := range v.Items {
			if it.Kind != py.Str {
				got = nil
				break
			}
			got = append(got, task.Normalize(it.S))
		}
	}
	if got == nil {
		for _, f := range strings.Split(strings.Trim(list, "[]"), ",") {
			got = append(got, task.Normalize(strings.Trim(strings.TrimSpace(f), `'"`)))
		}
	}
	parsed := strings.Join(got, " | ")
	for _, a := range answers {
		labels, ok := pathLabels(a)
		if !ok || len(labels) != len(got) {
			continue
		}
		same := true
		for i := range labels {
			if task.Normalize(labels[i]) != got[i] {
				same = false
				break
			}
		}
		if same {
			return task.Result{Correct: true, Score: 1, Parsed: parsed, Rule: rule}
		}
	}
	return task.Result{Parsed: parsed, Rule: rule}
}

// LenientHighestDegreeNode reads a label forgivingly: the rest of the
// line after the first "Answer:" (any case), or the first non-empty line
// when there is none, with Markdown emphasis, quotes and a final period
// removed; it is right when it equals one of labels after NFKC and case
// folding.
func LenientHighestDegreeNode(response string, labels []string) task.Result {
	rule := RuleLenient + "_label"
	got := task.Normalize(lenientLine(response))
	if got == "" {
		return task.Result{Rule: rule}
	}
	for _, l := range labels {
		if task.Normalize(l) == got {
			return task.Result{Correct: true, Score: 1, Parsed: got, Rule: rule}
		}
	}
	return task.Result{Parsed: got, Rule: rule}
}

func lenientLine(response string) string {
	s := response
	if i := indexASCIIFold(s, "answer:"); i >= 0 {
		s = s[i+len("answer:"):]
	}
	s = strings.TrimLeft(s, " \t\r\n*_")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "*_`")
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".")
	s = strings.Trim(s, `"'“”‘’<>`)
	return s
}

// LenientAggregation reads a count forgivingly: the number after the
// first "Answer:" (any case, Markdown emphasis and spaces allowed between),
// or else the first integer of the response (FirstInteger).
func LenientAggregation(response, answer string) task.Result {
	rule := RuleLenient + "_number"
	s := response
	if i := indexASCIIFold(s, "answer:"); i >= 0 {
		s = s[i+len("answer:"):]
	}
	v, ok := task.FirstInteger(s)
	if !ok {
		v, ok = task.FirstInteger(response)
	}
	if !ok {
		return task.Result{Rule: rule}
	}
	got := strconv.FormatInt(v, 10)
	return result(sameInt(got, answer), got, rule)
}

// indexASCIIFold returns the byte index of the first occurrence of the
// lower-case ASCII word in s, ignoring ASCII case, or -1.
func indexASCIIFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

// pathLabels parses an answer string "SHORTEST PATH: [...]" into its
// labels.
func pathLabels(a string) ([]string, bool) {
	v, err := py.LiteralEval(py.Strip(strings.ReplaceAll(a, "SHORTEST PATH:", "")))
	if err != nil || v.Kind != py.List {
		return nil, false
	}
	out := make([]string, len(v.Items))
	for i, it := range v.Items {
		if it.Kind != py.Str {
			return nil, false
		}
		out[i] = it.S
	}
	return out, true
}

// PathAnswer renders a path as the benchmark's answer string:
// "SHORTEST PATH: " + str(labels), Python's list repr.
func PathAnswer(labels []string) string {
	return "SHORTEST PATH: " + py.ReprList(labels)
}

// ---- questions ----

// TripleRetrievalQuestion is TripleRetrieval's question about the
// triple (head, relation, tail), given by labels.
func TripleRetrievalQuestion(head, relation, tail string) string {
	return `Your answer must consist of either "Yes" or "No", nothing else. Is the following triplet fact present in the knowledge graph (Yes/No)? (` + head + ", " + relation + ", " + tail + ")"
}

// ShortestPathQuestion is ShortestPath's question from the label of
// the path's first entity to that of its last, with the benchmark's
// spacing and its two spellings "SHORTEST_PATH:" and "SHORTEST PATH:".
func ShortestPathQuestion(from, to string) string {
	return "Your task is to find the shortest path from " + from + " to " + to + `. For example, if the shortest path in the knowledge graph between Argentina and Mexico is through Bolivia and Colombia, then your response should be "SHORTEST PATH: ['Argentina', 'Bolivia', 'Colombia', 'Mexico']". Your response must begin with 'SHORTEST_PATH:' followed by the list of entities in the path following the format shown before. Note that you can use both incoming and outgoing edges to form a path. ` + "\n\n What is the shortest path from " + from + " to " + to + "? \n Answer: SHORTEST PATH:"
}

// HighestDegreeNodeQuestion is HighestDegreeNode's question for a
// direction "outgoing", "incoming" or "total".
func HighestDegreeNodeQuestion(direction string) string {
	return "Using the provided knowledge graph only answer the following question. Which entity has the highest number of " + direction + ` edges in the provided knowledge graph? If there is a tie, choose one. Answer with the entity label using the format 'Answer: <entity label>'. For example, if the answer is Belgium, respond with "Answer: Belgium". Your response must begin with 'Answer:' and then give the entity by its label. Do not output anything else.`
}

// AggByRelationQuestion is AggByRelation's question (with the
// benchmark's typo "anythin").
func AggByRelationQuestion(anchor, relation, direction string) string {
	return "Using the provided knowledge graph only answer the following question. How many " + direction + " relations of type '" + relation + "' does " + anchor + " have? Answer in the format 'Answer: <number>'. Do not output anythin other than 'Answer: <number>'"
}

// AggNeighborPropertiesQuestion is AggNeighborProperties's question.
func AggNeighborPropertiesQuestion(anchor, relation string) string {
	return "Using the provided knowledge graph only answer the following question. How many of the directly connected entities to '" + anchor + "' have an outgoing property of type '" + relation + "' in the knowledge graph? You must respond in the format 'Answer: <number>'. Do not output anything other than 'Answer: <number>'"
}

// ---- sampling new instances from the Countries graph ----

// TaskConfig is one task's line of the benchmark's construction config.
type TaskConfig struct {
	Task         string
	SeedEntities int   // seed entities drawn per attempt
	Seed         int64 // random.seed of the task
	Instances    int
	MaxEdges     int
}

// SmallConfig returns the published "small" configuration
// (configs/construct_base_datasets_small.yaml): 100 instances per task,
// at most 200 edges, seed entities 10/10/10/1/1 and seeds 41–45.
func SmallConfig() []TaskConfig {
	return []TaskConfig{
		{TripleRetrieval, 10, 41, 100, 200},
		{ShortestPath, 10, 42, 100, 200},
		{HighestDegreeNode, 10, 43, 100, 200},
		{AggByRelation, 1, 44, 100, 200},
		{AggNeighborProperties, 1, 45, 100, 200},
	}
}

// Pair is one sampled instance in its two variants. The pseudo
// variant's subgraph, question and answers name core entities by their
// pseudonyms; ids, edges and fields are shared (TripleRetrieval's stored
// triple keeps real labels in both, as the benchmark's does).
type Pair struct {
	Real, Pseudo kgllmbench.Instance
}

// LoadPseudonyms reads the benchmark's pseudonym list
// (pseudonym_data/country_pseudonyms.tsv: a header "names", then one name
// per line).
func LoadPseudonyms(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "names" {
		return nil, fmt.Errorf("task: %s: the header is not \"names\"", path)
	}
	return lines[1:], nil
}

// Sampler draws new instances from a full knowledge graph (the
// Countries graph of kgllmbench.LoadCountries) with the benchmark's
// algorithm (samplers/graph_samplers.py and tasks/*.py):
//
//   - random.seed(seed), then the pseudonym list is shuffled (the
//     Pseudonymizer's construction), then each attempt draws
//     random.sample(core nodes, k) seed entities and a failed construction
//     is retried with new seeds;
//   - subgraphs are ego graphs (undirected radius 1 or 2 around each seed,
//     composed), refined to the entities and relations their edges use,
//     and pruned: for each node whose total degree exceeds the cap, a
//     random sample of its in- and out-edges is removed, then a random
//     sample of all edges down to the edge limit;
//   - each task then draws its question as the benchmark does, and the
//     core entities of the subgraph get random.sample(pseudonyms, n).
//
// The random draws go through internal/py (CPython's Mersenne Twister
// and sampling algorithms), but the instances are not bit-identical to the
// benchmark's: networkx iterates nodes in an order that depends on its
// ego-graph construction and on CPython's set layout, while the sampler
// orders nodes and edges by their position in the full graph, and sets of
// counts in ascending order. The benchmark's bug in TripleRetrieval's tail
// corruption (every entity is a candidate, the true tail included) is kept.
type Sampler struct {
	kg    *kgllmbench.KG
	rng   *py.Rand
	names []string
	ent   map[string]int // entity id -> index
	rel   map[string]int // relation id -> index
	out   [][]int        // entity index -> edge indices with that head
	in    [][]int        // entity index -> edge indices with that tail
	head  []int          // edge index -> head entity index
	tail  []int          // edge index -> tail entity index
	label []string       // edge index -> relation label
	pair  map[[2]int]int // (head, tail) -> edge index
	core  []int          // core entity indices in entity order
}

// MaxAttemptsPerInstance bounds the construction attempts of Sample:
// at most this many per requested instance (plus 100).
const MaxAttemptsPerInstance = 50

// NewSampler prepares a sampler over kg with the given pseudonym list
// and seed. It returns an error when an edge names an unknown entity or
// relation.
func NewSampler(kg *kgllmbench.KG, pseudonyms []string, seed int64) (*Sampler, error) {
	s := &Sampler{kg: kg, rng: py.NewRand(seed), names: append([]string(nil), pseudonyms...),
		ent: make(map[string]int, len(kg.Entities)), rel: make(map[string]int, len(kg.Relations)), pair: make(map[[2]int]int, len(kg.Edges))}
	py.Shuffle(s.rng, s.names)
	for i, e := range kg.Entities {
		s.ent[e.ID] = i
		if e.Core {
			s.core = append(s.core, i)
		}
	}
	for i, r := range kg.Relations {
		s.rel[r.ID] = i
	}
	s.out = make([][]int, len(kg.Entities))
	s.in = make([][]int, len(kg.Entities))
	s.head = make([]int, len(kg.Edges))
	s.tail = make([]int, len(kg.Edges))
	s.label = make([]string, len(kg.Edges))
	for i, e := range kg.Edges {
		h, ok1 := s.ent[e.Head]
		t, ok2 := s.ent[e.Tail]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("task: edge %d names an unknown entity", i)
		}
		l := e.RelationLabel
		if l == "" {
			r, ok := s.rel[e.Relation]
			if !ok {
				return nil, fmt.Errorf("task: edge %d names an unknown relation %q", i, e.Relation)
			}
			l = kg.Relations[r].Label
		}
		s.head[i], s.tail[i], s.label[i] = h, t, l
		s.out[h] = append(s.out[h], i)
		s.in[t] = append(s.in[t], i)
		s.pair[[2]int{h, t}] = i
	}
	return s, nil
}

var errConstruct = errors.New("instance construction failed")

// Sample constructs n instances of the named task with subgraphs of at most
// maxEdges edges, drawing seedEntities seed entities per attempt (the
// benchmark's 10 for TripleRetrieval, ShortestPath and HighestDegreeNode,
// 1 for the aggregation tasks). Failed constructions are retried, at most
// MaxAttemptsPerInstance times per instance (plus 100) in all.
func (s *Sampler) Sample(taskName string, n, seedEntities, maxEdges int) ([]Pair, error) {
	if seedEntities < 1 || seedEntities > len(s.core) {
		return nil, fmt.Errorf("task: %d seed entities for %d core nodes", seedEntities, len(s.core))
	}
	if taskName == ShortestPath && seedEntities < 2 {
		return nil, errors.New("task: ShortestPath needs two seed entities")
	}
	var out []Pair
	for attempts := 0; len(out) < n; attempts++ {
		if attempts >= n*MaxAttemptsPerInstance+100 {
			return out, fmt.Errorf("task: %s: %d instances after %d attempts", taskName, len(out), attempts)
		}
		seeds, err := py.Sample(s.rng, s.core, seedEntities)
		if err != nil {
			return out, err
		}
		p, err := s.construct(taskName, seeds, len(out), maxEdges)
		if errors.Is(err, errConstruct) {
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ego returns the edges of the composed ego graphs of radius r around
// seeds (undirected), sorted.
func (s *Sampler) ego(seeds []int, r int) []int {
	edges := map[int]bool{}
	for _, seed := range seeds {
		in := map[int]bool{seed: true}
		frontier := []int{seed}
		for d := 0; d < r; d++ {
			var next []int
			for _, u := range frontier {
				for _, e := range s.out[u] {
					if v := s.tail[e]; !in[v] {
						in[v] = true
						next = append(next, v)
					}
				}
				for _, e := range s.in[u] {
					if v := s.head[e]; !in[v] {
						in[v] = true
						next = append(next, v)
					}
				}
			}
			frontier = next
		}
		for u := range in {
			for _, e := range s.out[u] {
				if in[s.tail[e]] {
					edges[e] = true
				}
			}
		}
	}
	return sortedKeys(edges)
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// edgeSet returns the set of the given edges (or entities).
func edgeSet(edges []int) map[int]bool {
	m := make(map[int]bool, len(edges))
	for _, e := range edges {
		m[e] = true
	}
	return m
}

// nodes returns the entities of the edges, in entity order.
func (s *Sampler) nodes(edges []int) []int {
	m := map[int]bool{}
	for _, e := range edges {
		m[s.head[e]] = true
		m[s.tail[e]] = true
	}
	return sortedKeys(m)
}

// prune applies prune_kg(max_edges, max_degree); maxDegree < 0 means no cap.
func (s *Sampler) prune(edges []int, maxEdges, maxDegree int) ([]int, error) {
	alive := edgeSet(edges)
	if maxDegree >= 0 {
		for _, u := range s.nodes(edges) {
			var inc []int
			for _, e := range s.in[u] {
				if alive[e] {
					inc = append(inc, e)
				}
			}
			for _, e := range s.out[u] {
				if alive[e] {
					inc = append(inc, e)
				}
			}
			if len(inc) > maxDegree {
				drop, err := py.Sample(s.rng, inc, len(inc)-maxDegree)
				if err != nil {
					return nil, err
				}
				for _, e := range drop {
					delete(alive, e)
				}
			}
		}
	}
	kept := sortedKeys(alive)
	if maxEdges >= 0 && len(kept) > maxEdges {
		drop, err := py.Sample(s.rng, kept, len(kept)-maxEdges)
		if err != nil {
			return nil, err
		}
		for _, e := range drop {
			delete(alive, e)
		}
		kept = sortedKeys(alive)
	}
	return kept, nil
}

// neighbours returns the neighbours of u (either direction) within edges.
func (s *Sampler) neighbours(u int, alive map[int]bool) map[int]bool {
	nb := map[int]bool{}
	for _, e := range s.out[u] {
		if alive[e] {
			nb[s.tail[e]] = true
		}
	}
	for _, e := range s.in[u] {
		if alive[e] {
			nb[s.head[e]] = true
		}
	}
	return nb
}

// multiNeighbourFilter keeps the entities with more than one neighbour and
// the edges between them (the aggregation tasks' filter).
func (s *Sampler) multiNeighbourFilter(edges []int) []int {
	alive := edgeSet(edges)
	keep := map[int]bool{}
	for _, u := range s.nodes(edges) {
		if len(s.neighbours(u, alive)) > 1 {
			keep[u] = true
		}
	}
	var out []int
	for _, e := range edges {
		if keep[s.head[e]] && keep[s.tail[e]] {
			out = append(out, e)
		}
	}
	return out
}

// relations returns the relation indices whose label the edges use, in
// relation order.
func (s *Sampler) relations(edges []int) []int {
	used := map[string]bool{}
	for _, e := range edges {
		used[s.label[e]] = true
	}
	var out []int
	for i, r := range s.kg.Relations {
		if used[r.Label] {
			out = append(out, i)
		}
	}
	return out
}

// shortestPath is KnowledgeGraph.get_shortest_paths on the full graph
// (undirected, depth at most 7): the first path breadth-first search finds,
// neighbours visited in entity order.
func (s *Sampler) shortestPath(a, b int) []int {
	const depth = 7
	parent := map[int]int{a: -1}
	level := map[int]int{a: 0}
	queue := []int{a}
	for qi := 0; qi < len(queue); qi++ {
		u := queue[qi]
		if u == b {
			var path []int
			for v := b; v >= 0; v = parent[v] {
				path = append(path, v)
			}
			slices.Reverse(path)
			return path
		}
		if level[u] >= depth {
			continue
		}
		nb := map[int]bool{}
		for _, e := range s.out[u] {
			nb[s.tail[e]] = true
		}
		for _, e := range s.in[u] {
			nb[s.head[e]] = true
		}
		for _, v := range sortedKeys(nb) {
			if _, seen := parent[v]; !seen {
				parent[v] = u
				level[v] = level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// sampled is a constructed instance before export.
type sampled struct {
	edges    []int
	question func(label func(int) string) string
	answer   func(label func(int) string) any
	fields   func(label func(int) string) map[string]any
}

func (s *Sampler) construct(taskName string, seeds []int, id, maxEdges int) (Pair, error) {
	var c sampled
	var err error
	var mapping map[int]string
	var order []int
	pseudonymize := func(edges []int) error {
		var core []int
		for _, u := range s.nodes(edges) {
			if s.kg.Entities[u].Core {
				core = append(core, u)
			}
		}
		if len(core) > len(s.names) {
			return fmt.Errorf("%w: %d core nodes, %d pseudonyms", errConstruct, len(core), len(s.names))
		}
		names, err := py.Sample(s.rng, s.names, len(core))
		if err != nil {
			return err
		}
		mapping = make(map[int]string, len(core))
		for i, u := range core {
			mapping[u] = names[i]
		}
		order = core
		return nil
	}
	ent := func(label func(int) string, u int) map[string]any {
		e := s.kg.Entities[u]
		return map[string]any{"entity_id": json.Number(e.ID), "wikidata_id": e.WikidataID, "label": label(u)}
	}
	seedIDs := func(xs []int) []json.Number {
		out := make([]json.Number, len(xs))
		for i, u := range xs {
			out[i] = json.Number(s.kg.Entities[u].ID)
		}
		return out
	}
	switch taskName {
	case TripleRetrieval:
		c, err = s.tripleRetrieval(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case ShortestPath:
		c, err = s.shortestPathTask(seeds, maxEdges, pseudonymize, seedIDs)
	case HighestDegreeNode:
		c, err = s.highestDegree(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case AggByRelation:
		c, err = s.aggByRelation(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case AggNeighborProperties:
		c, err = s.aggNeighbor(seeds, maxEdges, pseudonymize, ent, seedIDs)
	default:
		return Pair{}, fmt.Errorf("task: unknown KG-LLM-Bench task %q", taskName)
	}
	if err != nil {
		return Pair{}, err
	}
	realLabel := func(u int) string { return s.kg.Entities[u].Label }
	pseudoLabel := func(u int) string {
		if p, ok := mapping[u]; ok {
			return p
		}
		return s.kg.Entities[u].Label
	}
	var pair Pair
	for _, v := range []struct {
		name  string
		label func(int) string
		dst   *kgllmbench.Instance
	}{{"real", realLabel, &pair.Real}, {"pseudo", pseudoLabel, &pair.Pseudo}} {
		inst := kgllmbench.Instance{Task: taskName, Variant: v.name, ID: id, Question: c.question(v.label)}
		if inst.Answer, err = json.Marshal(c.answer(v.label)); err != nil {
			return Pair{}, err
		}
		if inst.Fields, err = json.Marshal(c.fields(v.label)); err != nil {
			return Pair{}, err
		}
		for _, u := range s.nodes(c.edges) {
			e := s.kg.Entities[u]
			e.Label = v.label(u)
			inst.KG.Entities = append(inst.KG.Entities, e)
			if e.Core {
				inst.CoreNodeIDs = append(inst.CoreNodeIDs, e.ID)
			}
		}
		for _, r := range s.relations(c.edges) {
			inst.KG.Relations = append(inst.KG.Relations, s.kg.Relations[r])
		}
		for _, e := range c.edges {
			fe := s.kg.Edges[e]
			inst.KG.Edges = append(inst.KG.Edges, kgllmbench.Edge{Head: fe.Head, Relation: fe.Relation, Tail: fe.Tail, RelationLabel: s.label[e]})
		}
		if v.name == "pseudo" {
			for _, u := range order {
				inst.Pseudonyms = append(inst.Pseudonyms, kgllmbench.Pseudonym{EntityID: s.kg.Entities[u].ID, Name: mapping[u]})
			}
		}
		*v.dst = inst
	}
	return pair, nil
}

type (
	entFunc  func(label func(int) string, u int) map[string]any
	seedFunc func([]int) []json.Number
)

func (s *Sampler) tripleRetrieval(seeds []int, maxEdges int, pseudonymize func([]int) error, ent entFunc, seedIDs seedFunc) (sampled, error) {
	edges, err := s.prune(s.ego(seeds, 1), maxEdges, 20)
	if err != nil {
		return sampled{}, err
	}
	if len(edges) == 0 {
		return sampled{}, fmt.Errorf("%w: empty subgraph", errConstruct)
	}
	if err := pseudonymize(edges); err != nil {
		return sampled{}, err
	}
	e, err := py.Choice(s.rng, edges)
	if err != nil {
		return sampled{}, err
	}
	h, t := s.head[e], s.tail[e]
	rel := s.rel[s.kg.Edges[e].Relation]
	corruption := "None"
	keep, err := s.rng.RandInt(0, 1)
	if err != nil {
		return sampled{}, err
	}
	if keep != 0 {
		kind, err := py.Choice(s.rng, []string{"head", "relation", "tail"})
		if err != nil {
			return sampled{}, err
		}
		corruption = kind
		alive := edgeSet(edges)
		nodes := s.nodes(edges)
		switch kind {
		case "head":
			var cand []int
			for _, u := range nodes {
				x, ok := s.pair[[2]int{u, t}]
				if !ok || !alive[x] || s.label[x] != s.label[e] {
					cand = append(cand, u)
				}
			}
			if h, err = py.Choice(s.rng, cand); err != nil {
				return sampled{}, fmt.Errorf("%w: %v", errConstruct, err)
			}
		case "tail":
			// The benchmark's filter passes an Entity to has_edge, so it
			// is always true: every entity is a candidate.
			if t, err = py.Choice(s.rng, nodes); err != nil {
				return sampled{}, err
			}
		default:
			var cand []int
			for _, r := range s.relations(edges) {
				if s.kg.Relations[r].Label != s.label[e] {
					cand = append(cand, r)
				}
			}
			if rel, err = py.Choice(s.rng, cand); err != nil {
				return sampled{}, fmt.Errorf("%w: %v", errConstruct, err)
			}
		}
	}
	answer := "Yes"
	if corruption != "None" {
		answer = "No"
	}
	relation := s.kg.Relations[rel]
	return sampled{
		edges: edges,
		question: func(label func(int) string) string {
			return TripleRetrievalQuestion(label(h), relation.Label, label(t))
		},
		answer: func(func(int) string) any { return answer },
		fields: func(func(int) string) map[string]any {
			// The stored triple keeps real labels in both variants.
			label := func(u int) string { return s.kg.Entities[u].Label }
			return map[string]any{
				"triple":          map[string]any{"head": ent(label, h), "relation": map[string]any{"relation_id": json.Number(relation.ID), "wikidata_id": relation.WikidataID, "label": relation.Label}, "tail": ent(label, t)},
				"corruption_type": corruption, "seed_entities": seedIDs(seeds),
			}
		},
	}, nil
}

func (s *Sampler) shortestPathTask(seeds []int, maxEdges int, pseudonymize func([]int) error, seedIDs seedFunc) (sampled, error) {
	path := s.shortestPath(seeds[0], seeds[1])
	if path == nil {
		return sampled{}, fmt.Errorf("%w: no path between the seed entities", errConstruct)
	}
	all := map[int]bool{}
	for _, u := range append(append([]int(nil), seeds...), path...) {
		all[u] = true
	}
	centre := sortedKeys(all)
	edges, err := s.prune(s.ego(centre, 1), maxEdges, 20)
	if err != nil {
		return sampled{}, err
	}
	have := edgeSet(edges)
	for i := 0; i+1 < len(path); i++ {
		e, ok := s.pair[[2]int{path[i], path[i+1]}]
		if !ok {
			e = s.pair[[2]int{path[i+1], path[i]}]
		}
		have[e] = true
	}
	edges = sortedKeys(have)
	if err := pseudonymize(edges); err != nil {
		return sampled{}, err
	}
	labels := func(label func(int) string) []string {
		out := make([]string, len(path))
		for i, u := range path {
			out[i] = label(u)
		}
		return out
	}
	return sampled{
		edges: edges,
		question: func(label func(int) string) string {
			return ShortestPathQuestion(label(path[0]), label(path[len(path)-1]))
		},
		answer: func(label func(int) string) any { return []string{PathAnswer(labels(label))} },
		fields: func(label func(int) string) map[string]any {
			var p []map[string]any
			for _, u := range path {
				e := s.kg.Entities[u]
				p = append(p, map[string]any{"entity_id": json.Number(e.ID), "wikidata_id": e.WikidataID, "label": label(u)})
			}
			return map[string]any{"shortest_paths": [][]map[string]any{p}, "seed_entities": seedIDs(centre)}
		},
	}, nil
}

func (s *Sampler) degrees(edges []int) (out, in map[int]int) {
	out, in = map[int]int{}, map[int]int{}
	for _, e := range edges {
		out[s.head[e]]++
		in[s.tail[e]]++
	}
	return out, in
}

func (s *Sampler) highestDegree(seeds []int, maxEdges int, pseudonymize func([]int) error, ent entFunc, seedIDs seedFunc) (sampled, error) {
	edges, err := s.prune(s.ego(seeds, 2), maxEdges, 20)
	if err != nil {
		return sampled{}, err
	}
	if len(edges) == 0 {
		return sampled{}, fmt.Errorf("%w: empty subgraph", errConstruct)
	}
	dir, err := py.Choice(s.rng, []string{"outgoing", "incoming", "total"})
	if err != nil {
		return sampled{}, err
	}
	outDeg, inDeg := s.degrees(edges)
	deg := func(u int) int {
		switch dir {
		case "outgoing":
			return outDeg[u]
		case "incoming":
			return inDeg[u]
		}
		return outDeg[u] + inDeg[u]
	}
	nodes := s.nodes(edges)
	maxDeg := 0
	for _, u := range nodes {
		maxDeg = max(maxDeg, deg(u))
	}
	var best []int
	for _, u := range nodes {
		if deg(u) == maxDeg {
			best = append(best, u)
		}
	}
	if err := pseudonymize(edges); err != nil {
		return sampled{}, err
	}
	return sampled{
		edges:    edges,
		question: func(func(int) string) string { return HighestDegreeNodeQuestion(dir) },
		answer: func(label func(int) string) any {
			var out []map[string]any
			for _, u := range best {
				out = append(out, ent(label, u))
			}
			return out
		},
		fields: func(func(int) string) map[string]any {
			return map[string]any{"max_degree": maxDeg, "edge_direction": dir, "seed_entities": seedIDs(seeds)}
		},
	}, nil
}

// countChoice draws a count uniformly from the distinct counts
// (ascending), then an option uniformly among those with that count.
func countChoice[T any](rng *py.Rand, opts []T, count func(T) int) (T, error) {
	var zero T
	seen := map[int]bool{}
	for _, o := range opts {
		seen[count(o)] = true
	}
	counts := sortedKeys(seen)
	c, err := py.Choice(rng, counts)
	if err != nil {
		return zero, err
	}
	var sel []T
	for _, o := range opts {
		if count(o) == c {
			sel = append(sel, o)
		}
	}
	return py.Choice(rng, sel)
}

func (s *Sampler) aggByRelation(seeds []int, maxEdges int, pseudonymize func([]int) error, ent entFunc, seedIDs seedFunc) (sampled, error) {
	edges, err := s.prune(s.multiNeighbourFilter(s.ego(seeds, 2)), maxEdges, -1)
	if err != nil {
		return sampled{}, err
	}
	alive := edgeSet(edges)
	var opts []aggOption
	for _, u := range s.nodes(edges) {
		for _, d := range []struct {
			name string
			list []int
		}{{"outgoing", s.out[u]}, {"incoming", s.in[u]}} {
			var rels []string
			n := map[string]int{}
			for _, e := range d.list {
				if !alive[e] {
					continue
				}
				if n[s.label[e]] == 0 {
					rels = append(rels, s.label[e])
				}
				n[s.label[e]]++
			}
			for _, r := range rels {
				opts = append(opts, aggOption{u, r, d.name, n[r]})
			}
		}
	}
	valid := false
	for _, o := range opts {
		valid = valid || o.count > 1
	}
	if !valid {
		return sampled{}, fmt.Errorf("%w: no suitable aggregation relations", errConstruct)
	}
	return s.aggregation(edges, opts, seeds, pseudonymize, ent, seedIDs, func(anchor string, o aggOption) string {
		return AggByRelationQuestion(anchor, o.rel, o.dir)
	})
}

func (s *Sampler) aggNeighbor(seeds []int, maxEdges int, pseudonymize func([]int) error, ent entFunc, seedIDs seedFunc) (sampled, error) {
	edges, err := s.prune(s.multiNeighbourFilter(s.ego(seeds, 2)), maxEdges, 20)
	if err != nil {
		return sampled{}, err
	}
	alive := edgeSet(edges)
	hasOut := func(u int, rel string) bool {
		for _, e := range s.out[u] {
			if alive[e] && s.label[e] == rel {
				return true
			}
		}
		return false
	}
	rels := s.relations(edges)
	var opts []aggOption
	for _, u := range s.nodes(edges) {
		nb := s.neighbours(u, alive)
		for _, r := range rels {
			label := s.kg.Relations[r].Label
			n := 0
			for v := range nb {
				if hasOut(v, label) {
					n++
				}
			}
			if n > 0 {
				opts = append(opts, aggOption{u: u, rel: label, count: n})
			}
		}
	}
	if len(opts) == 0 {
		return sampled{}, fmt.Errorf("%w: no suitable anchor entity and relation", errConstruct)
	}
	return s.aggregation(edges, opts, seeds, pseudonymize, ent, seedIDs, func(anchor string, o aggOption) string {
		return AggNeighborPropertiesQuestion(anchor, o.rel)
	})
}

// aggOption is a candidate of an aggregation question: its anchor entity,
// relation, direction ("" for AggNeighborProperties, which has none) and
// answer.
type aggOption struct {
	u        int
	rel, dir string
	count    int
}

// aggregation finishes both aggregation tasks: it draws an option by
// countChoice, pseudonymizes the edges and asks question about the
// option's anchor label; the answer is the option's count.
func (s *Sampler) aggregation(edges []int, opts []aggOption, seeds []int, pseudonymize func([]int) error, ent entFunc, seedIDs seedFunc, question func(anchor string, o aggOption) string) (sampled, error) {
	o, err := countChoice(s.rng, opts, func(o aggOption) int { return o.count })
	if err != nil {
		return sampled{}, err
	}
	if err := pseudonymize(edges); err != nil {
		return sampled{}, err
	}
	return sampled{
		edges:    edges,
		question: func(label func(int) string) string { return question(label(o.u), o) },
		answer:   func(func(int) string) any { return []string{strconv.Itoa(o.count)} },
		fields: func(label func(int) string) map[string]any {
			f := map[string]any{"anchor_ent": ent(label, o.u), "relation": o.rel, "seed_entities": seedIDs(seeds)}
			if o.dir != "" {
				f["direction"] = o.dir
			}
			return f
		},
	}, nil
}

// tupleEqual compares two tuples whose gold side holds strings: only
// equal strings are equal.
func tupleEqual(a, b []py.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != py.Str || b[i].Kind != py.Str || a[i].S != b[i].S {
			return false
		}
	}
	return true
}
