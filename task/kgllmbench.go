package task

// KG-LLM-Bench (Markowitz, Galiya, Ver Steeg and Galstyan 2025,
// arXiv:2504.07087; repository Elanmarkowitz/kg-llm-bench): its five tasks,
// their questions and gold answers taken from the regenerated instances in
// shared/data/kgllmbench/instances or sampled anew from the Countries graph,
// the benchmark's prompt, and its scorers with every quirk kept, each with a
// documented lenient scorer beside it. See shared/reference/benchmarks.md §1.

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
	"github.com/isolda/isolda/internal/pyrand"
)

// FamilyKGLLMBench is the Question.Family of KG-LLM-Bench questions; their
// Question.Task is one of the KGLLM* task names.
const FamilyKGLLMBench = "kgllmbench"

// The five KG-LLM-Bench tasks, named as the benchmark names them.
const (
	KGLLMTripleRetrieval       = "TripleRetrieval"
	KGLLMShortestPath          = "ShortestPath"
	KGLLMHighestDegreeNode     = "HighestDegreeNode"
	KGLLMAggByRelation         = "AggByRelation"
	KGLLMAggNeighborProperties = "AggNeighborProperties"
)

// Rules reported in Result.Rule by the KG-LLM-Bench scorers.
const (
	// RuleKGLLMFirstWord is TripleRetrieval's strict rule:
	// response.strip().lower().split()[0] == answer.lower().
	RuleKGLLMFirstWord = "kgllm_first_word"
	// RuleKGLLMPathLiteral is ShortestPath's strict rule: remove every
	// "SHORTEST PATH:", keep the first line, ast.literal_eval it and compare
	// tuple(value) with each gold path.
	RuleKGLLMPathLiteral = "kgllm_path_literal_eval"
	// RuleKGLLMPathFlexible is the paper's "flexible" ShortestPath rule
	// (analysis/shortest_path_task_analyzer.py): the regex
	// `SHORTEST PATH: \[(.*)\]` on the raw response, then literal_eval of
	// the text inside the brackets.
	RuleKGLLMPathFlexible = "kgllm_path_flexible"
	// RuleKGLLMAnswerLabel is HighestDegreeNode's strict rule: the regex
	// `Answer:\s*([\w\s]+)` (Python's Unicode \w and \s), group 1 equal to
	// a gold label.
	RuleKGLLMAnswerLabel = "kgllm_answer_label_regex"
	// RuleKGLLMAnswerNumber is the aggregation tasks' strict rule: the regex
	// `Answer:\s*(\d+)`, int(group 1) equal to the gold number.
	RuleKGLLMAnswerNumber = "kgllm_answer_number_regex"
	// RuleKGLLMLenient prefixes the rules of the lenient scorers.
	RuleKGLLMLenient = "kgllm_lenient"
)

// KGLLMTasks returns the five task names in the benchmark's order.
func KGLLMTasks() []string {
	return []string{KGLLMTripleRetrieval, KGLLMShortestPath, KGLLMHighestDegreeNode, KGLLMAggByRelation, KGLLMAggNeighborProperties}
}

// KGLLMVariants are the two instance variants: real labels and pseudonymized
// country labels.
func KGLLMVariants() []string { return []string{"real", "pseudo"} }

// KGLLMLoadInstances loads the regenerated instances of one task and variant
// from dir (shared/data/kgllmbench/instances/instances), the file
// <task>.<variant>.jsonl.gz.
func KGLLMLoadInstances(dir, taskName, variant string) ([]kgllmbench.Instance, error) {
	f, err := os.Open(filepath.Join(dir, taskName+"."+variant+".jsonl.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return kgllmbench.LoadInstances(f)
}

// kgllmEntity is an entity as the benchmark stores it in answers and fields.
type kgllmEntity struct {
	EntityID   json.Number `json:"entity_id"`
	WikidataID string      `json:"wikidata_id"`
	Label      string      `json:"label"`
}

// KGLLMQuestion converts a benchmark instance to a Question. Text is the
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
func KGLLMQuestion(inst kgllmbench.Instance) (Question, error) {
	q := Question{
		ID:     fmt.Sprintf("kgllm-%s-%s-%03d", inst.Variant, inst.Task, inst.ID),
		Family: FamilyKGLLMBench,
		Task:   inst.Task,
		Text:   inst.Question,
		Meta:   map[string]string{"task": inst.Task, "variant": inst.Variant, "instance": strconv.Itoa(inst.ID)},
	}
	bad := func(err error) (Question, error) {
		return Question{}, fmt.Errorf("task: %s %s instance %d: bad answer: %w", inst.Task, inst.Variant, inst.ID, err)
	}
	switch inst.Task {
	case KGLLMTripleRetrieval:
		var a string
		if err := json.Unmarshal(inst.Answer, &a); err != nil {
			return bad(err)
		}
		if a != "Yes" && a != "No" {
			return bad(fmt.Errorf("answer %q is not Yes or No", a))
		}
		q.Gold = Answer{Text: a, Kind: KindYesNo, Value: strings.ToLower(a)}
	case KGLLMShortestPath:
		var as []string
		if err := json.Unmarshal(inst.Answer, &as); err != nil {
			return bad(err)
		}
		if len(as) == 0 {
			return bad(errors.New("no answer path"))
		}
		labels, ok := kgllmPathLabels(as[0])
		if !ok {
			return bad(fmt.Errorf("answer %q is not a path", as[0]))
		}
		q.Gold = Answer{Text: as[0], Kind: KindList, Value: as[0], Items: labels}
		if len(as) > 1 {
			q.Gold.Alternatives = append([]string(nil), as[1:]...)
		}
	case KGLLMHighestDegreeNode:
		var es []kgllmEntity
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
		q.Gold = Answer{Text: labels[0], Kind: KindNode, Value: labels[0], Items: labels}
		if len(labels) > 1 {
			q.Gold.Alternatives = append([]string(nil), labels[1:]...)
		}
	case KGLLMAggByRelation, KGLLMAggNeighborProperties:
		var as []string
		if err := json.Unmarshal(inst.Answer, &as); err != nil {
			return bad(err)
		}
		if len(as) != 1 || !kgllmIsDecimal(as[0]) {
			return bad(fmt.Errorf("answer %q is not one number", as))
		}
		q.Gold = Answer{Text: as[0], Kind: KindInt, Value: as[0]}
	default:
		return Question{}, fmt.Errorf("task: unknown KG-LLM-Bench task %q", inst.Task)
	}
	return q, nil
}

// KGLLMPrompt returns the benchmark's full prompt for inst in the named
// textualization (kgllmbench.Formats): the introduction with the format's
// description, the instance's subgraph as text, and the question.
func KGLLMPrompt(inst kgllmbench.Instance, format string) (string, error) {
	var b strings.Builder
	if err := kgllmbench.Textualize(&b, &inst.KG, format); err != nil {
		return "", err
	}
	return kgllmbench.Prompt(format, b.String(), inst.Question), nil
}

// KGLLMSet builds a question set from instances in one textualization: one
// context per instance (its subgraph as text, Source naming the format) and
// one question per instance.
func KGLLMSet(name string, insts []kgllmbench.Instance, format string) (*Set, error) {
	set := &Set{Name: name}
	for _, inst := range insts {
		q, err := KGLLMQuestion(inst)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if err := kgllmbench.Textualize(&b, &inst.KG, format); err != nil {
			return nil, err
		}
		cid := fmt.Sprintf("kgllm-%s-%s-%03d-%s", inst.Variant, inst.Task, inst.ID, format)
		set.Contexts = append(set.Contexts, Context{ID: cid, Text: b.String(), Source: "kgllmbench " + format})
		q.ContextID = cid
		q.Meta["format"] = format
		set.Questions = append(set.Questions, q)
	}
	counts := map[string]int{}
	for _, q := range set.Questions {
		counts[q.Task]++
	}
	for _, t := range KGLLMTasks() {
		if counts[t] > 0 {
			set.Counts = append(set.Counts, FamilyCount{Family: FamilyKGLLMBench + "/" + t, Questions: counts[t], Candidates: counts[t]})
		}
	}
	set.Seal()
	return set, nil
}

// KGLLMStrict scores a response to a KG-LLM-Bench question exactly as the
// benchmark's evaluate_response does for the question's task (see the
// KGLLMEval* functions). Where the benchmark would raise an exception (an
// empty TripleRetrieval response, a ShortestPath response that evaluates to
// a number), the score is 0.
var KGLLMStrict Scorer = ScorerFunc(kgllmStrict)

// KGLLMLenient scores a response with the lenient rule of the question's
// task (see the KGLLMLenient* functions): the same gold answers, read more
// forgivingly.
var KGLLMLenient Scorer = ScorerFunc(kgllmLenient)

func kgllmGoldList(a Answer) []string {
	return append([]string{a.Value}, a.Alternatives...)
}

func kgllmGoldLabels(a Answer) []string {
	if len(a.Items) > 0 {
		return a.Items
	}
	return kgllmGoldList(a)
}

func kgllmStrict(q Question, response string) Result {
	switch q.Task {
	case KGLLMTripleRetrieval:
		return KGLLMEvalTripleRetrieval(response, q.Gold.Text)
	case KGLLMShortestPath:
		return KGLLMEvalShortestPath(response, kgllmGoldList(q.Gold))
	case KGLLMHighestDegreeNode:
		return KGLLMEvalHighestDegreeNode(response, kgllmGoldLabels(q.Gold))
	case KGLLMAggByRelation, KGLLMAggNeighborProperties:
		return KGLLMEvalAggregation(response, q.Gold.Value)
	}
	return Result{Rule: RuleNoAnswer}
}

func kgllmLenient(q Question, response string) Result {
	switch q.Task {
	case KGLLMTripleRetrieval:
		return KGLLMLenientTripleRetrieval(response, q.Gold.Text)
	case KGLLMShortestPath:
		return KGLLMLenientShortestPath(response, kgllmGoldList(q.Gold))
	case KGLLMHighestDegreeNode:
		return KGLLMLenientHighestDegreeNode(response, kgllmGoldLabels(q.Gold))
	case KGLLMAggByRelation, KGLLMAggNeighborProperties:
		return KGLLMLenientAggregation(response, q.Gold.Value)
	}
	return Result{Rule: RuleNoAnswer}
}

func kgllmResult(ok bool, parsed, rule string) Result {
	if ok {
		return Result{Correct: true, Score: 1, Parsed: parsed, Rule: rule}
	}
	return Result{Parsed: parsed, Rule: rule}
}

// ---- strict scorers ----

// KGLLMEvalTripleRetrieval is TripleRetrieval's evaluate_response:
// response.strip().lower().split()[0] == answer.strip().lower(). So "Yes."
// and "Yes," score 0. An empty response (where Python raises IndexError)
// scores 0.
func KGLLMEvalTripleRetrieval(response, answer string) Result {
	f := kgllmPyFields(kgllmPyLower(response))
	if len(f) == 0 {
		return Result{Rule: RuleKGLLMFirstWord}
	}
	return kgllmResult(f[0] == kgllmPyLower(kgllmPyStrip(answer)), f[0], RuleKGLLMFirstWord)
}

// KGLLMEvalShortestPath is ShortestPath's evaluate_response with
// use_flexible_eval=False: every "SHORTEST PATH:" is removed, the first line
// is kept and stripped and evaluated as a Python literal; the score is 1
// when tuple(value) equals tuple(answer path) for one of the answers, each
// an answer string "SHORTEST PATH: [...]". A reply beginning
// "SHORTEST_PATH:" (as the question itself asks) therefore scores 0.
func KGLLMEvalShortestPath(response string, answers []string) Result {
	r := strings.ReplaceAll(response, "SHORTEST PATH:", "")
	if i := strings.IndexByte(r, '\n'); i >= 0 {
		r = r[:i]
	}
	r = kgllmPyStrip(r)
	return kgllmComparePath(r, answers, RuleKGLLMPathLiteral)
}

var kgllmFlexibleRE = regexp.MustCompile(`SHORTEST PATH: \[(.*)\]`)

// KGLLMEvalShortestPathFlexible is the "flexible" ShortestPath scorer of the
// paper's figures (analysis/shortest_path_task_analyzer.py): the regex
// `SHORTEST PATH: \[(.*)\]` on the raw response (greedy, within one line),
// then literal_eval of group 1, which is the inside of the list: a path of
// two or more labels evaluates to a tuple, a single quoted label to a
// string, whose tuple is its characters.
func KGLLMEvalShortestPathFlexible(response string, answers []string) Result {
	m := kgllmFlexibleRE.FindStringSubmatch(response)
	r := ""
	if m != nil {
		r = kgllmPyStrip(m[1])
	}
	return kgllmComparePath(r, answers, RuleKGLLMPathFlexible)
}

func kgllmComparePath(r string, answers []string, rule string) Result {
	v, err := kgllmLiteralEval(r)
	if err != nil {
		return Result{Parsed: r, Rule: rule}
	}
	got, ok := v.tuple()
	if !ok {
		// tuple() of a number raises TypeError, which the benchmark does
		// not catch.
		return Result{Parsed: r, Rule: rule}
	}
	for _, a := range answers {
		want, err := kgllmLiteralEval(kgllmPyStrip(strings.ReplaceAll(a, "SHORTEST PATH:", "")))
		if err != nil {
			continue
		}
		wt, ok := want.tuple()
		if ok && kgllmTupleEqual(got, wt) {
			return Result{Correct: true, Score: 1, Parsed: r, Rule: rule}
		}
	}
	return Result{Parsed: r, Rule: rule}
}

// KGLLMEvalHighestDegreeNode is HighestDegreeNode's evaluate_response:
// re.search(r'Answer:\s*([\w\s]+)', response) with Python's Unicode \w
// (letters, digits, numerics and "_", but not combining marks) and \s, and
// group 1 must equal one of labels exactly (case-sensitively, with no
// trimming). Labels containing any other character (an apostrophe, a hyphen
// or dash, a period, a parenthesis, a comma) can never match; text on a line
// after the label breaks the match, while "Answer: Belgium." still matches.
func KGLLMEvalHighestDegreeNode(response string, labels []string) Result {
	g, ok := KGLLMAnswerLabel(response)
	if !ok {
		return Result{Rule: RuleKGLLMAnswerLabel}
	}
	for _, l := range labels {
		if g == l {
			return Result{Correct: true, Score: 1, Parsed: g, Rule: RuleKGLLMAnswerLabel}
		}
	}
	return Result{Parsed: g, Rule: RuleKGLLMAnswerLabel}
}

// KGLLMAnswerLabel returns group 1 of Python's
// re.search(r'Answer:\s*([\w\s]+)', s), and whether it matched.
func KGLLMAnswerLabel(s string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(s[off:], "Answer:")
		if i < 0 {
			return "", false
		}
		p := off + i + len("Answer:")
		// \s* greedy.
		ws := p
		var lastWS int = -1
		for ws < len(s) {
			r, n := utf8.DecodeRuneInString(s[ws:])
			if !kgllmPyIsSpace(r) {
				break
			}
			lastWS = ws
			ws += n
		}
		// [\w\s]+ greedy from ws.
		end := ws
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !kgllmPyIsWord(r) && !kgllmPyIsSpace(r) {
				break
			}
			end += n
		}
		if end > ws {
			return s[ws:end], true
		}
		if lastWS >= 0 {
			// Backtracking: \s* gives its last space to [\w\s]+.
			return s[lastWS:ws], true
		}
		off = off + i + 1
	}
}

// KGLLMEvalAggregation is the aggregation tasks' evaluate_response:
// re.search(r'Answer:\s*(\d+)', response) (Python's \d: any Unicode decimal
// digit), int(group 1) == int(answer).
func KGLLMEvalAggregation(response, answer string) Result {
	g, ok := KGLLMAnswerNumber(response)
	if !ok {
		return Result{Rule: RuleKGLLMAnswerNumber}
	}
	return kgllmResult(kgllmSameInt(g, answer), g, RuleKGLLMAnswerNumber)
}

// KGLLMAnswerNumber returns group 1 of Python's
// re.search(r'Answer:\s*(\d+)', s) with its digits converted to ASCII, and
// whether it matched.
func KGLLMAnswerNumber(s string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(s[off:], "Answer:")
		if i < 0 {
			return "", false
		}
		p := off + i + len("Answer:")
		for p < len(s) {
			r, n := utf8.DecodeRuneInString(s[p:])
			if !kgllmPyIsSpace(r) {
				break
			}
			p += n
		}
		var digits []byte
		for p < len(s) {
			r, n := utf8.DecodeRuneInString(s[p:])
			d, ok := kgllmDigitValue(r)
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

// kgllmDigitValue returns the value of a Unicode decimal digit (category
// Nd). Unicode encodes every decimal digit set as ten consecutive code
// points from 0 to 9, so the value is the offset from the start of its run
// modulo 10.
func kgllmDigitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10, true
}

func kgllmSameInt(a, b string) bool {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(kgllmPyStrip(b), "0")
	return kgllmIsDecimal(a+"0") && a == b
}

func kgllmIsDecimal(s string) bool {
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

// KGLLMLenientTripleRetrieval reads a yes/no answer forgivingly: after NFKC
// and case folding, the first word made of letters decides when it is "yes"
// or "no" ("Yes.", "**Yes**", "yes, it is"); otherwise the answer is the one
// of "yes" and "no" that occurs as a whole word, when exactly one does.
func KGLLMLenientTripleRetrieval(response, answer string) Result {
	rule := RuleKGLLMLenient + "_yes_no"
	want := Normalize(answer)
	words := strings.FieldsFunc(Normalize(response), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 {
		return Result{Rule: rule}
	}
	if words[0] == "yes" || words[0] == "no" {
		return kgllmResult(words[0] == want, words[0], rule)
	}
	yes, no := false, false
	for _, w := range words {
		yes = yes || w == "yes"
		no = no || w == "no"
	}
	switch {
	case yes && !no:
		return kgllmResult(want == "yes", "yes", rule)
	case no && !yes:
		return kgllmResult(want == "no", "no", rule)
	}
	return Result{Parsed: words[0], Rule: rule}
}

var kgllmLenientPathRE = regexp.MustCompile(`(?i)shortest[ _]path\s*:?\s*(\[[^\]\n]*\])`)

// KGLLMLenientShortestPath reads a path forgivingly: the first bracketed
// list after "SHORTEST PATH", "SHORTEST_PATH" (any case, colon optional), or
// else the first bracketed list in the response, split on commas with
// quotes and spaces trimmed (when it is not a Python literal) or evaluated
// as a literal; it is right when its labels equal a gold path's labels after
// NFKC and case folding, in order.
func KGLLMLenientShortestPath(response string, answers []string) Result {
	rule := RuleKGLLMLenient + "_path"
	list := ""
	if m := kgllmLenientPathRE.FindStringSubmatch(response); m != nil {
		list = m[1]
	} else if i := strings.IndexByte(response, '['); i >= 0 {
		if j := strings.IndexByte(response[i:], ']'); j >= 0 {
			list = response[i : i+j+1]
		}
	}
	if list == "" {
		return Result{Rule: rule}
	}
	var got []string
	if v, err := kgllmLiteralEval(list); err == nil && v.kind == kgllmList {
		for _, it := range v.items {
			if it.kind != kgllmStr {
				got = nil
				break
			}
			got = append(got, Normalize(it.s))
		}
	}
	if got == nil {
		for _, f := range strings.Split(strings.Trim(list, "[]"), ",") {
			got = append(got, Normalize(strings.Trim(strings.TrimSpace(f), `'"`)))
		}
	}
	parsed := strings.Join(got, " | ")
	for _, a := range answers {
		labels, ok := kgllmPathLabels(a)
		if !ok || len(labels) != len(got) {
			continue
		}
		same := true
		for i := range labels {
			if Normalize(labels[i]) != got[i] {
				same = false
				break
			}
		}
		if same {
			return Result{Correct: true, Score: 1, Parsed: parsed, Rule: rule}
		}
	}
	return Result{Parsed: parsed, Rule: rule}
}

// KGLLMLenientHighestDegreeNode reads a label forgivingly: the rest of the
// line after the first "Answer:" (any case), or the first non-empty line
// when there is none, with Markdown emphasis, quotes and a final period
// removed; it is right when it equals one of labels after NFKC and case
// folding.
func KGLLMLenientHighestDegreeNode(response string, labels []string) Result {
	rule := RuleKGLLMLenient + "_label"
	got := Normalize(kgllmLenientLine(response))
	if got == "" {
		return Result{Rule: rule}
	}
	for _, l := range labels {
		if Normalize(l) == got {
			return Result{Correct: true, Score: 1, Parsed: got, Rule: rule}
		}
	}
	return Result{Parsed: got, Rule: rule}
}

func kgllmLenientLine(response string) string {
	s := response
	if i := kgllmIndexASCIIFold(s, "answer:"); i >= 0 {
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

// KGLLMLenientAggregation reads a count forgivingly: the number after the
// first "Answer:" (any case, Markdown emphasis and spaces allowed between),
// or else the first integer of the response (FirstInteger).
func KGLLMLenientAggregation(response, answer string) Result {
	rule := RuleKGLLMLenient + "_number"
	s := response
	if i := kgllmIndexASCIIFold(s, "answer:"); i >= 0 {
		s = s[i+len("answer:"):]
	}
	v, ok := FirstInteger(s)
	if !ok {
		v, ok = FirstInteger(response)
	}
	if !ok {
		return Result{Rule: rule}
	}
	got := strconv.FormatInt(v, 10)
	return kgllmResult(kgllmSameInt(got, answer), got, rule)
}

// kgllmIndexASCIIFold returns the byte index of the first occurrence of the
// lower-case ASCII word in s, ignoring ASCII case, or -1.
func kgllmIndexASCIIFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

// kgllmPathLabels parses an answer string "SHORTEST PATH: [...]" into its
// labels.
func kgllmPathLabels(a string) ([]string, bool) {
	v, err := kgllmLiteralEval(kgllmPyStrip(strings.ReplaceAll(a, "SHORTEST PATH:", "")))
	if err != nil || v.kind != kgllmList {
		return nil, false
	}
	out := make([]string, len(v.items))
	for i, it := range v.items {
		if it.kind != kgllmStr {
			return nil, false
		}
		out[i] = it.s
	}
	return out, true
}

// KGLLMPathAnswer renders a path as the benchmark's answer string:
// "SHORTEST PATH: " + str(labels), Python's list repr.
func KGLLMPathAnswer(labels []string) string {
	var b strings.Builder
	b.WriteString("SHORTEST PATH: [")
	for i, l := range labels {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(KGLLMPyRepr(l))
	}
	b.WriteString("]")
	return b.String()
}

// ---- Python string helpers ----

// kgllmPyIsSpace is Python's str.isspace for one character (also the \s of
// a str pattern): Unicode white space plus the separators U+001C..U+001F.
func kgllmPyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// kgllmPyIsWord is the \w of a Python str pattern: str.isalnum() or "_".
// Combining marks are not word characters.
func kgllmPyIsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

func kgllmPyStrip(s string) string { return strings.TrimFunc(s, kgllmPyIsSpace) }

func kgllmPyFields(s string) []string { return strings.FieldsFunc(s, kgllmPyIsSpace) }

// kgllmPyLower is Python's str.lower: full lower-casing with the special
// cases of Unicode's SpecialCasing that Python applies regardless of
// language: "İ" becomes "i̇" (i and a combining dot above), and a capital
// sigma becomes the final form "ς" at the end of a word (preceded by a cased
// letter and not followed by one, case-ignorable characters skipped).
func kgllmPyLower(s string) string {
	if !strings.ContainsAny(s, "İΣ") {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			if kgllmCasedBefore(rs, i) && !kgllmCasedAfter(rs, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func kgllmCased(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }

func kgllmCaseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		strings.ContainsRune("'.:·’\u00ad", r)
}

func kgllmCasedBefore(rs []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if !kgllmCaseIgnorable(rs[j]) {
			return kgllmCased(rs[j])
		}
	}
	return false
}

func kgllmCasedAfter(rs []rune, i int) bool {
	for j := i + 1; j < len(rs); j++ {
		if !kgllmCaseIgnorable(rs[j]) {
			return kgllmCased(rs[j])
		}
	}
	return false
}

// KGLLMPyRepr returns Python's repr of a str: single quotes unless the text
// contains a single quote and no double quote; backslash, the quote, \t,
// \n, \r escaped; other non-printable characters as \xhh, \uhhhh or
// \Uhhhhhhhh.
func KGLLMPyRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// ---- ast.literal_eval ----

// Kinds of Python literal values.
const (
	kgllmStr = iota + 1
	kgllmBytes
	kgllmNum
	kgllmConst // True, False, None, Ellipsis
	kgllmList
	kgllmTuple
	kgllmSet
	kgllmDict
)

// kgllmValue is a Python literal. Numbers keep their source text only:
// they never equal a label.
type kgllmValue struct {
	kind  int
	s     string
	items []kgllmValue // list, tuple, set elements; dict keys
}

// tuple returns the elements of tuple(v): the items of a list, tuple or set
// (a set in source order; Python's order there depends on hashing), the
// keys of a dict, the characters of a str, the bytes of a bytes value (as
// numbers). Numbers and constants are not iterable.
func (v kgllmValue) tuple() ([]kgllmValue, bool) {
	switch v.kind {
	case kgllmList, kgllmTuple, kgllmSet, kgllmDict:
		return v.items, true
	case kgllmStr:
		out := make([]kgllmValue, 0, len(v.s))
		for _, r := range v.s {
			out = append(out, kgllmValue{kind: kgllmStr, s: string(r)})
		}
		return out, true
	case kgllmBytes:
		out := make([]kgllmValue, len(v.s))
		for i := range out {
			out[i] = kgllmValue{kind: kgllmNum, s: strconv.Itoa(int(v.s[i]))}
		}
		return out, true
	}
	return nil, false
}

// kgllmTupleEqual compares two tuples whose gold side holds strings: only
// equal strings are equal.
func kgllmTupleEqual(a, b []kgllmValue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != kgllmStr || b[i].kind != kgllmStr || a[i].s != b[i].s {
			return false
		}
	}
	return true
}

// Limits of the literal evaluator (Python itself fails on deep nesting).
const (
	kgllmMaxLiteralDepth = 100
	kgllmMaxLiteralBytes = 1 << 20
)

var errKGLLMLiteral = errors.New("malformed Python literal")

type kgllmLit struct {
	s     string
	p     int
	depth int
}

// kgllmLiteralEval evaluates s as ast.literal_eval does for the values a
// path answer can hold: str and bytes literals (with prefixes, escapes,
// triple quotes and implicit concatenation), numbers, True/False/None,
// lists, tuples (also without parentheses at the top level), sets and
// dicts. Leading spaces and tabs are ignored, as literal_eval does; comments
// are skipped. Anything else is an error, as SyntaxError or ValueError is.
func kgllmLiteralEval(s string) (kgllmValue, error) {
	if len(s) > kgllmMaxLiteralBytes {
		return kgllmValue{}, errKGLLMLiteral
	}
	l := &kgllmLit{s: strings.TrimLeft(s, " \t")}
	v, err := l.exprList(true)
	if err != nil {
		return kgllmValue{}, err
	}
	l.skip(true)
	if l.p != len(l.s) {
		return kgllmValue{}, errKGLLMLiteral
	}
	return v, nil
}

// skip skips white space and comments; newlines only inside brackets.
func (l *kgllmLit) skip(newlines bool) {
	for l.p < len(l.s) {
		c := l.s[l.p]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			l.p++
		case (c == '\n' || c == '\r') && (newlines || l.depth > 0):
			l.p++
		case c == '\\' && l.p+1 < len(l.s) && l.s[l.p+1] == '\n':
			l.p += 2
		case c == '#':
			for l.p < len(l.s) && l.s[l.p] != '\n' {
				l.p++
			}
		default:
			return
		}
	}
}

func (l *kgllmLit) peek() byte {
	l.skip(false)
	if l.p < len(l.s) {
		return l.s[l.p]
	}
	return 0
}

// exprList parses item (',' item)* [','], a tuple when a comma occurs.
func (l *kgllmLit) exprList(top bool) (kgllmValue, error) {
	first, err := l.item()
	if err != nil {
		return first, err
	}
	if l.peek() != ',' {
		return first, nil
	}
	items := []kgllmValue{first}
	for l.peek() == ',' {
		l.p++
		c := l.peek()
		if c == 0 || c == ')' || (top && c == '\n') {
			break
		}
		v, err := l.item()
		if err != nil {
			return v, err
		}
		items = append(items, v)
	}
	return kgllmValue{kind: kgllmTuple, items: items}, nil
}

func (l *kgllmLit) item() (kgllmValue, error) {
	c := l.peek()
	switch {
	case c == '[':
		return l.container('[', ']', kgllmList)
	case c == '(':
		return l.container('(', ')', kgllmTuple)
	case c == '{':
		return l.braces()
	case c == '+' || c == '-':
		l.p++
		v, err := l.item()
		if err != nil || v.kind != kgllmNum {
			return kgllmValue{}, errKGLLMLiteral
		}
		return v, nil
	case c >= '0' && c <= '9' || c == '.':
		return l.number()
	case c == '\'' || c == '"':
		return l.strings()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		start := l.p
		for l.p < len(l.s) && (kgllmIdentByte(l.s[l.p])) {
			l.p++
		}
		word := l.s[start:l.p]
		if l.p < len(l.s) && (l.s[l.p] == '\'' || l.s[l.p] == '"') && kgllmStrPrefix(word) {
			l.p = start
			return l.strings()
		}
		switch word {
		case "True", "False", "None":
			return kgllmValue{kind: kgllmConst, s: word}, nil
		}
		return kgllmValue{}, errKGLLMLiteral
	}
	return kgllmValue{}, errKGLLMLiteral
}

func kgllmIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func kgllmStrPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "br", "rb":
		return true
	}
	return false
}

func (l *kgllmLit) container(open, close byte, kind int) (kgllmValue, error) {
	if l.depth >= kgllmMaxLiteralDepth {
		return kgllmValue{}, errKGLLMLiteral
	}
	l.p++ // open
	l.depth++
	defer func() { l.depth-- }()
	var items []kgllmValue
	if l.peek() == close {
		l.p++
		return kgllmValue{kind: kind, items: items}, nil
	}
	if kind == kgllmTuple {
		v, err := l.exprList(false)
		if err != nil {
			return v, err
		}
		if l.peek() != close {
			return kgllmValue{}, errKGLLMLiteral
		}
		l.p++
		return v, nil // (x) is x; (x,) is a tuple
	}
	for {
		v, err := l.item()
		if err != nil {
			return v, err
		}
		items = append(items, v)
		c := l.peek()
		if c == ',' {
			l.p++
			if l.peek() == close {
				l.p++
				break
			}
			continue
		}
		if c == close {
			l.p++
			break
		}
		return kgllmValue{}, errKGLLMLiteral
	}
	return kgllmValue{kind: kind, items: items}, nil
}

func (l *kgllmLit) braces() (kgllmValue, error) {
	if l.depth >= kgllmMaxLiteralDepth {
		return kgllmValue{}, errKGLLMLiteral
	}
	l.p++
	l.depth++
	defer func() { l.depth-- }()
	if l.peek() == '}' {
		l.p++
		return kgllmValue{kind: kgllmDict}, nil
	}
	kind := 0
	var items []kgllmValue
	for {
		k, err := l.item()
		if err != nil {
			return k, err
		}
		if k.kind == kgllmList || k.kind == kgllmSet || k.kind == kgllmDict {
			return kgllmValue{}, errKGLLMLiteral // unhashable
		}
		items = append(items, k)
		c := l.peek()
		if c == ':' {
			if kind == kgllmSet {
				return kgllmValue{}, errKGLLMLiteral
			}
			kind = kgllmDict
			l.p++
			if _, err := l.item(); err != nil {
				return kgllmValue{}, err
			}
			c = l.peek()
		} else {
			if kind == kgllmDict {
				return kgllmValue{}, errKGLLMLiteral
			}
			kind = kgllmSet
		}
		if c == ',' {
			l.p++
			if l.peek() == '}' {
				l.p++
				break
			}
			continue
		}
		if c == '}' {
			l.p++
			break
		}
		return kgllmValue{}, errKGLLMLiteral
	}
	// Duplicate keys or elements collapse (keeping the first position).
	seen := map[string]bool{}
	out := items[:0]
	for _, it := range items {
		if it.kind != kgllmTuple {
			key := strconv.Itoa(it.kind) + "\x00" + it.s
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, it)
	}
	return kgllmValue{kind: kind, items: out}, nil
}

func (l *kgllmLit) number() (kgllmValue, error) {
	start := l.p
	for l.p < len(l.s) {
		c := l.s[l.p]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' {
			if (c == 'e' || c == 'E') && l.p+1 < len(l.s) && (l.s[l.p+1] == '+' || l.s[l.p+1] == '-') && !strings.HasPrefix(strings.ToLower(l.s[start:]), "0x") {
				l.p += 2
				continue
			}
			l.p++
			continue
		}
		break
	}
	text := strings.ReplaceAll(l.s[start:l.p], "_", "")
	if text == "." {
		return kgllmValue{}, errKGLLMLiteral
	}
	low := strings.ToLower(text)
	body := strings.TrimSuffix(low, "j")
	if _, err := strconv.ParseInt(body, 0, 64); err == nil {
		if len(body) > 1 && body[0] == '0' && body[1] >= '0' && body[1] <= '9' && strings.Trim(body, "0") != "" {
			return kgllmValue{}, errKGLLMLiteral // 012 is a SyntaxError
		}
		return kgllmValue{kind: kgllmNum, s: text}, nil
	}
	if _, err := strconv.ParseFloat(body, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if !strings.HasPrefix(body, "0x") && !strings.Contains(body, "p") && !strings.Contains(body, "inf") && !strings.Contains(body, "nan") {
			return kgllmValue{kind: kgllmNum, s: text}, nil
		}
	}
	if kgllmIsDecimal(body) { // a big integer
		return kgllmValue{kind: kgllmNum, s: text}, nil
	}
	return kgllmValue{}, errKGLLMLiteral
}

// strings parses one or more adjacent string literals.
func (l *kgllmLit) strings() (kgllmValue, error) {
	var out kgllmValue
	for n := 0; ; n++ {
		c := l.peek()
		isStr := c == '\'' || c == '"'
		if !isStr && c != 0 && kgllmIdentByte(c) {
			j := l.p
			for j < len(l.s) && kgllmIdentByte(l.s[j]) {
				j++
			}
			isStr = j < len(l.s) && (l.s[j] == '\'' || l.s[j] == '"') && kgllmStrPrefix(l.s[l.p:j])
		}
		if !isStr {
			if n == 0 {
				return out, errKGLLMLiteral
			}
			return out, nil
		}
		v, err := l.oneString()
		if err != nil {
			return v, err
		}
		if n == 0 {
			out = v
		} else {
			if v.kind != out.kind {
				return kgllmValue{}, errKGLLMLiteral // cannot mix bytes and str
			}
			out.s += v.s
		}
	}
}

func (l *kgllmLit) oneString() (kgllmValue, error) {
	raw, bytesLit := false, false
	for l.s[l.p] != '\'' && l.s[l.p] != '"' {
		switch l.s[l.p] {
		case 'r', 'R':
			raw = true
		case 'b', 'B':
			bytesLit = true
		}
		l.p++
	}
	q := l.s[l.p]
	triple := strings.HasPrefix(l.s[l.p:], strings.Repeat(string(q), 3))
	delim := string(q)
	if triple {
		delim = strings.Repeat(string(q), 3)
	}
	l.p += len(delim)
	var b strings.Builder
	for {
		if l.p >= len(l.s) {
			return kgllmValue{}, errKGLLMLiteral
		}
		if strings.HasPrefix(l.s[l.p:], delim) {
			l.p += len(delim)
			break
		}
		c := l.s[l.p]
		if c == '\n' && !triple {
			return kgllmValue{}, errKGLLMLiteral
		}
		if bytesLit && c >= 0x80 {
			return kgllmValue{}, errKGLLMLiteral
		}
		if c != '\\' {
			b.WriteByte(c)
			l.p++
			continue
		}
		if l.p+1 >= len(l.s) {
			return kgllmValue{}, errKGLLMLiteral
		}
		if raw {
			b.WriteByte('\\')
			b.WriteByte(l.s[l.p+1])
			l.p += 2
			continue
		}
		if err := l.escape(&b, bytesLit); err != nil {
			return kgllmValue{}, err
		}
	}
	kind := kgllmStr
	if bytesLit {
		kind = kgllmBytes
	} else if !utf8.ValidString(b.String()) {
		return kgllmValue{}, errKGLLMLiteral
	}
	return kgllmValue{kind: kind, s: b.String()}, nil
}

// escape decodes the escape sequence at l.p (a backslash).
func (l *kgllmLit) escape(b *strings.Builder, bytesLit bool) error {
	c := l.s[l.p+1]
	l.p += 2
	if s, ok := kgllmSimpleEscape(c); ok {
		b.WriteString(s)
		return nil
	}
	hex := func(n int) (rune, error) {
		if l.p+n > len(l.s) {
			return 0, errKGLLMLiteral
		}
		v, err := strconv.ParseUint(l.s[l.p:l.p+n], 16, 32)
		if err != nil {
			return 0, errKGLLMLiteral
		}
		l.p += n
		return rune(v), nil
	}
	switch {
	case c >= '0' && c <= '7':
		v := int(c - '0')
		for k := 0; k < 2 && l.p < len(l.s) && l.s[l.p] >= '0' && l.s[l.p] <= '7'; k++ {
			v = v*8 + int(l.s[l.p]-'0')
			l.p++
		}
		if bytesLit {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
	case c == 'x':
		r, err := hex(2)
		if err != nil {
			return err
		}
		if bytesLit {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	case (c == 'u' || c == 'U') && !bytesLit:
		n := 4
		if c == 'U' {
			n = 8
		}
		r, err := hex(n)
		if err != nil || r > unicode.MaxRune || (r >= 0xd800 && r < 0xe000) {
			// Python accepts lone surrogates; Go strings cannot hold them.
			return errKGLLMLiteral
		}
		b.WriteRune(r)
	case c == 'N' && !bytesLit:
		// \N{NAME} needs the Unicode name table; treated as malformed.
		return errKGLLMLiteral
	default:
		// Unknown escapes are kept as written (with a warning in Python).
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return nil
}

func kgllmSimpleEscape(c byte) (string, bool) {
	switch c {
	case '\n':
		return "", true
	case '\\', '\'', '"':
		return string(c), true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 'f':
		return "\f", true
	case 'n':
		return "\n", true
	case 'r':
		return "\r", true
	case 't':
		return "\t", true
	case 'v':
		return "\v", true
	}
	return "", false
}

// ---- questions ----

// KGLLMTripleRetrievalQuestion is TripleRetrieval's question about the
// triple (head, relation, tail), given by labels.
func KGLLMTripleRetrievalQuestion(head, relation, tail string) string {
	return `Your answer must consist of either "Yes" or "No", nothing else. Is the following triplet fact present in the knowledge graph (Yes/No)? (` + head + ", " + relation + ", " + tail + ")"
}

// KGLLMShortestPathQuestion is ShortestPath's question from the label of
// the path's first entity to that of its last, with the benchmark's
// spacing and its two spellings "SHORTEST_PATH:" and "SHORTEST PATH:".
func KGLLMShortestPathQuestion(from, to string) string {
	return "Your task is to find the shortest path from " + from + " to " + to + `. For example, if the shortest path in the knowledge graph between Argentina and Mexico is through Bolivia and Colombia, then your response should be "SHORTEST PATH: ['Argentina', 'Bolivia', 'Colombia', 'Mexico']". Your response must begin with 'SHORTEST_PATH:' followed by the list of entities in the path following the format shown before. Note that you can use both incoming and outgoing edges to form a path. ` + "\n\n What is the shortest path from " + from + " to " + to + "? \n Answer: SHORTEST PATH:"
}

// KGLLMHighestDegreeNodeQuestion is HighestDegreeNode's question for a
// direction "outgoing", "incoming" or "total".
func KGLLMHighestDegreeNodeQuestion(direction string) string {
	return "Using the provided knowledge graph only answer the following question. Which entity has the highest number of " + direction + ` edges in the provided knowledge graph? If there is a tie, choose one. Answer with the entity label using the format 'Answer: <entity label>'. For example, if the answer is Belgium, respond with "Answer: Belgium". Your response must begin with 'Answer:' and then give the entity by its label. Do not output anything else.`
}

// KGLLMAggByRelationQuestion is AggByRelation's question (with the
// benchmark's typo "anythin").
func KGLLMAggByRelationQuestion(anchor, relation, direction string) string {
	return "Using the provided knowledge graph only answer the following question. How many " + direction + " relations of type '" + relation + "' does " + anchor + " have? Answer in the format 'Answer: <number>'. Do not output anythin other than 'Answer: <number>'"
}

// KGLLMAggNeighborPropertiesQuestion is AggNeighborProperties's question.
func KGLLMAggNeighborPropertiesQuestion(anchor, relation string) string {
	return "Using the provided knowledge graph only answer the following question. How many of the directly connected entities to '" + anchor + "' have an outgoing property of type '" + relation + "' in the knowledge graph? You must respond in the format 'Answer: <number>'. Do not output anything other than 'Answer: <number>'"
}

// ---- sampling new instances from the Countries graph ----

// KGLLMTaskConfig is one task's line of the benchmark's construction config.
type KGLLMTaskConfig struct {
	Task         string
	SeedEntities int   // seed entities drawn per attempt
	Seed         int64 // random.seed of the task
	Instances    int
	MaxEdges     int
}

// KGLLMSmallConfig returns the published "small" configuration
// (configs/construct_base_datasets_small.yaml): 100 instances per task,
// at most 200 edges, seed entities 10/10/10/1/1 and seeds 41–45.
func KGLLMSmallConfig() []KGLLMTaskConfig {
	return []KGLLMTaskConfig{
		{KGLLMTripleRetrieval, 10, 41, 100, 200},
		{KGLLMShortestPath, 10, 42, 100, 200},
		{KGLLMHighestDegreeNode, 10, 43, 100, 200},
		{KGLLMAggByRelation, 1, 44, 100, 200},
		{KGLLMAggNeighborProperties, 1, 45, 100, 200},
	}
}

// KGLLMPair is one sampled instance in its two variants. The pseudo
// variant's subgraph, question and answers name core entities by their
// pseudonyms; ids, edges and fields are shared (TripleRetrieval's stored
// triple keeps real labels in both, as the benchmark's does).
type KGLLMPair struct {
	Real, Pseudo kgllmbench.Instance
}

// KGLLMLoadPseudonyms reads the benchmark's pseudonym list
// (pseudonym_data/country_pseudonyms.tsv: a header "names", then one name
// per line).
func KGLLMLoadPseudonyms(path string) ([]string, error) {
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

// KGLLMSampler draws new instances from a full knowledge graph (the
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
// The random draws go through internal/pyrand (CPython's Mersenne Twister
// and sampling algorithms), but the instances are not bit-identical to the
// benchmark's: networkx iterates nodes in an order that depends on its
// ego-graph construction and on CPython's set layout, while the sampler
// orders nodes and edges by their position in the full graph, and sets of
// counts in ascending order. The benchmark's bug in TripleRetrieval's tail
// corruption (every entity is a candidate, the true tail included) is kept.
type KGLLMSampler struct {
	kg    *kgllmbench.KG
	rng   *pyrand.Rand
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

// KGLLMMaxAttemptsPerInstance bounds the construction attempts of Sample:
// at most this many per requested instance (plus 100).
const KGLLMMaxAttemptsPerInstance = 50

// NewKGLLMSampler prepares a sampler over kg with the given pseudonym list
// and seed. It returns an error when an edge names an unknown entity or
// relation.
func NewKGLLMSampler(kg *kgllmbench.KG, pseudonyms []string, seed int64) (*KGLLMSampler, error) {
	s := &KGLLMSampler{kg: kg, rng: pyrand.New(seed), names: append([]string(nil), pseudonyms...),
		ent: make(map[string]int, len(kg.Entities)), rel: make(map[string]int, len(kg.Relations)), pair: make(map[[2]int]int, len(kg.Edges))}
	pyrand.Shuffle(s.rng, s.names)
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

var errKGLLMConstruct = errors.New("instance construction failed")

// Sample constructs n instances of the named task with subgraphs of at most
// maxEdges edges, drawing seedEntities seed entities per attempt (the
// benchmark's 10 for TripleRetrieval, ShortestPath and HighestDegreeNode,
// 1 for the aggregation tasks). Failed constructions are retried, at most
// KGLLMMaxAttemptsPerInstance times per instance (plus 100) in all.
func (s *KGLLMSampler) Sample(taskName string, n, seedEntities, maxEdges int) ([]KGLLMPair, error) {
	if seedEntities < 1 || seedEntities > len(s.core) {
		return nil, fmt.Errorf("task: %d seed entities for %d core nodes", seedEntities, len(s.core))
	}
	if taskName == KGLLMShortestPath && seedEntities < 2 {
		return nil, errors.New("task: ShortestPath needs two seed entities")
	}
	var out []KGLLMPair
	for attempts := 0; len(out) < n; attempts++ {
		if attempts >= n*KGLLMMaxAttemptsPerInstance+100 {
			return out, fmt.Errorf("task: %s: %d instances after %d attempts", taskName, len(out), attempts)
		}
		seeds, err := pyrand.Sample(s.rng, s.core, seedEntities)
		if err != nil {
			return out, err
		}
		p, err := s.construct(taskName, seeds, len(out), maxEdges)
		if errors.Is(err, errKGLLMConstruct) {
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
func (s *KGLLMSampler) ego(seeds []int, r int) []int {
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
	return kgllmSortedKeys(edges)
}

func kgllmSortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// nodes returns the entities of the edges, in entity order.
func (s *KGLLMSampler) nodes(edges []int) []int {
	m := map[int]bool{}
	for _, e := range edges {
		m[s.head[e]] = true
		m[s.tail[e]] = true
	}
	return kgllmSortedKeys(m)
}

// prune applies prune_kg(max_edges, max_degree); maxDegree < 0 means no cap.
func (s *KGLLMSampler) prune(edges []int, maxEdges, maxDegree int) ([]int, error) {
	alive := map[int]bool{}
	for _, e := range edges {
		alive[e] = true
	}
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
				drop, err := pyrand.Sample(s.rng, inc, len(inc)-maxDegree)
				if err != nil {
					return nil, err
				}
				for _, e := range drop {
					delete(alive, e)
				}
			}
		}
	}
	kept := kgllmSortedKeys(alive)
	if maxEdges >= 0 && len(kept) > maxEdges {
		drop, err := pyrand.Sample(s.rng, kept, len(kept)-maxEdges)
		if err != nil {
			return nil, err
		}
		for _, e := range drop {
			delete(alive, e)
		}
		kept = kgllmSortedKeys(alive)
	}
	return kept, nil
}

// neighbours returns the neighbours of u (either direction) within edges.
func (s *KGLLMSampler) neighbours(u int, alive map[int]bool) map[int]bool {
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
func (s *KGLLMSampler) multiNeighbourFilter(edges []int) []int {
	alive := map[int]bool{}
	for _, e := range edges {
		alive[e] = true
	}
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
func (s *KGLLMSampler) relations(edges []int) []int {
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
func (s *KGLLMSampler) shortestPath(a, b int) []int {
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
		for _, v := range kgllmSortedKeys(nb) {
			if _, seen := parent[v]; !seen {
				parent[v] = u
				level[v] = level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// kgllmSampled is a constructed instance before export.
type kgllmSampled struct {
	edges    []int
	question func(label func(int) string) string
	answer   func(label func(int) string) any
	fields   func(label func(int) string) map[string]any
}

func (s *KGLLMSampler) construct(taskName string, seeds []int, id, maxEdges int) (KGLLMPair, error) {
	var c kgllmSampled
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
			return fmt.Errorf("%w: %d core nodes, %d pseudonyms", errKGLLMConstruct, len(core), len(s.names))
		}
		names, err := pyrand.Sample(s.rng, s.names, len(core))
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
	case KGLLMTripleRetrieval:
		c, err = s.tripleRetrieval(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case KGLLMShortestPath:
		c, err = s.shortestPathTask(seeds, maxEdges, pseudonymize, seedIDs)
	case KGLLMHighestDegreeNode:
		c, err = s.highestDegree(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case KGLLMAggByRelation:
		c, err = s.aggByRelation(seeds, maxEdges, pseudonymize, ent, seedIDs)
	case KGLLMAggNeighborProperties:
		c, err = s.aggNeighbor(seeds, maxEdges, pseudonymize, ent, seedIDs)
	default:
		return KGLLMPair{}, fmt.Errorf("task: unknown KG-LLM-Bench task %q", taskName)
	}
	if err != nil {
		return KGLLMPair{}, err
	}
	realLabel := func(u int) string { return s.kg.Entities[u].Label }
	pseudoLabel := func(u int) string {
		if p, ok := mapping[u]; ok {
			return p
		}
		return s.kg.Entities[u].Label
	}
	var pair KGLLMPair
	for _, v := range []struct {
		name  string
		label func(int) string
		dst   *kgllmbench.Instance
	}{{"real", realLabel, &pair.Real}, {"pseudo", pseudoLabel, &pair.Pseudo}} {
		inst := kgllmbench.Instance{Task: taskName, Variant: v.name, ID: id, Question: c.question(v.label)}
		if inst.Answer, err = json.Marshal(c.answer(v.label)); err != nil {
			return KGLLMPair{}, err
		}
		if inst.Fields, err = json.Marshal(c.fields(v.label)); err != nil {
			return KGLLMPair{}, err
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
	kgllmEntFunc  func(label func(int) string, u int) map[string]any
	kgllmSeedFunc func([]int) []json.Number
)

func (s *KGLLMSampler) tripleRetrieval(seeds []int, maxEdges int, pseudonymize func([]int) error, ent kgllmEntFunc, seedIDs kgllmSeedFunc) (kgllmSampled, error) {
	edges, err := s.prune(s.ego(seeds, 1), maxEdges, 20)
	if err != nil {
		return kgllmSampled{}, err
	}
	if len(edges) == 0 {
		return kgllmSampled{}, fmt.Errorf("%w: empty subgraph", errKGLLMConstruct)
	}
	if err := pseudonymize(edges); err != nil {
		return kgllmSampled{}, err
	}
	e, err := pyrand.Choice(s.rng, edges)
	if err != nil {
		return kgllmSampled{}, err
	}
	h, t := s.head[e], s.tail[e]
	rel := s.rel[s.kg.Edges[e].Relation]
	corruption := "None"
	keep, err := s.rng.RandInt(0, 1)
	if err != nil {
		return kgllmSampled{}, err
	}
	if keep != 0 {
		kind, err := pyrand.Choice(s.rng, []string{"head", "relation", "tail"})
		if err != nil {
			return kgllmSampled{}, err
		}
		corruption = kind
		alive := map[int]bool{}
		for _, x := range edges {
			alive[x] = true
		}
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
			if h, err = pyrand.Choice(s.rng, cand); err != nil {
				return kgllmSampled{}, fmt.Errorf("%w: %v", errKGLLMConstruct, err)
			}
		case "tail":
			// The benchmark's filter passes an Entity to has_edge, so it
			// is always true: every entity is a candidate.
			if t, err = pyrand.Choice(s.rng, nodes); err != nil {
				return kgllmSampled{}, err
			}
		default:
			var cand []int
			for _, r := range s.relations(edges) {
				if s.kg.Relations[r].Label != s.label[e] {
					cand = append(cand, r)
				}
			}
			if rel, err = pyrand.Choice(s.rng, cand); err != nil {
				return kgllmSampled{}, fmt.Errorf("%w: %v", errKGLLMConstruct, err)
			}
		}
	}
	answer := "Yes"
	if corruption != "None" {
		answer = "No"
	}
	relation := s.kg.Relations[rel]
	return kgllmSampled{
		edges: edges,
		question: func(label func(int) string) string {
			return KGLLMTripleRetrievalQuestion(label(h), relation.Label, label(t))
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

func (s *KGLLMSampler) shortestPathTask(seeds []int, maxEdges int, pseudonymize func([]int) error, seedIDs kgllmSeedFunc) (kgllmSampled, error) {
	path := s.shortestPath(seeds[0], seeds[1])
	if path == nil {
		return kgllmSampled{}, fmt.Errorf("%w: no path between the seed entities", errKGLLMConstruct)
	}
	all := map[int]bool{}
	for _, u := range append(append([]int(nil), seeds...), path...) {
		all[u] = true
	}
	centre := kgllmSortedKeys(all)
	edges, err := s.prune(s.ego(centre, 1), maxEdges, 20)
	if err != nil {
		return kgllmSampled{}, err
	}
	have := map[int]bool{}
	for _, e := range edges {
		have[e] = true
	}
	for i := 0; i+1 < len(path); i++ {
		e, ok := s.pair[[2]int{path[i], path[i+1]}]
		if !ok {
			e = s.pair[[2]int{path[i+1], path[i]}]
		}
		have[e] = true
	}
	edges = kgllmSortedKeys(have)
	if err := pseudonymize(edges); err != nil {
		return kgllmSampled{}, err
	}
	labels := func(label func(int) string) []string {
		out := make([]string, len(path))
		for i, u := range path {
			out[i] = label(u)
		}
		return out
	}
	return kgllmSampled{
		edges: edges,
		question: func(label func(int) string) string {
			return KGLLMShortestPathQuestion(label(path[0]), label(path[len(path)-1]))
		},
		answer: func(label func(int) string) any { return []string{KGLLMPathAnswer(labels(label))} },
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

func (s *KGLLMSampler) degrees(edges []int) (out, in map[int]int) {
	out, in = map[int]int{}, map[int]int{}
	for _, e := range edges {
		out[s.head[e]]++
		in[s.tail[e]]++
	}
	return out, in
}

func (s *KGLLMSampler) highestDegree(seeds []int, maxEdges int, pseudonymize func([]int) error, ent kgllmEntFunc, seedIDs kgllmSeedFunc) (kgllmSampled, error) {
	edges, err := s.prune(s.ego(seeds, 2), maxEdges, 20)
	if err != nil {
		return kgllmSampled{}, err
	}
	if len(edges) == 0 {
		return kgllmSampled{}, fmt.Errorf("%w: empty subgraph", errKGLLMConstruct)
	}
	dir, err := pyrand.Choice(s.rng, []string{"outgoing", "incoming", "total"})
	if err != nil {
		return kgllmSampled{}, err
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
		return kgllmSampled{}, err
	}
	return kgllmSampled{
		edges:    edges,
		question: func(func(int) string) string { return KGLLMHighestDegreeNodeQuestion(dir) },
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

// kgllmCountChoice draws a count uniformly from the distinct counts
// (ascending), then an option uniformly among those with that count.
func kgllmCountChoice[T any](rng *pyrand.Rand, opts []T, count func(T) int) (T, error) {
	var zero T
	seen := map[int]bool{}
	for _, o := range opts {
		seen[count(o)] = true
	}
	counts := kgllmSortedKeys(seen)
	c, err := pyrand.Choice(rng, counts)
	if err != nil {
		return zero, err
	}
	var sel []T
	for _, o := range opts {
		if count(o) == c {
			sel = append(sel, o)
		}
	}
	return pyrand.Choice(rng, sel)
}

func (s *KGLLMSampler) aggByRelation(seeds []int, maxEdges int, pseudonymize func([]int) error, ent kgllmEntFunc, seedIDs kgllmSeedFunc) (kgllmSampled, error) {
	edges, err := s.prune(s.multiNeighbourFilter(s.ego(seeds, 2)), maxEdges, -1)
	if err != nil {
		return kgllmSampled{}, err
	}
	type option struct {
		u     int
		rel   string
		dir   string
		count int
	}
	alive := map[int]bool{}
	for _, e := range edges {
		alive[e] = true
	}
	var opts []option
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
				opts = append(opts, option{u, r, d.name, n[r]})
			}
		}
	}
	valid := false
	for _, o := range opts {
		valid = valid || o.count > 1
	}
	if !valid {
		return kgllmSampled{}, fmt.Errorf("%w: no suitable aggregation relations", errKGLLMConstruct)
	}
	o, err := kgllmCountChoice(s.rng, opts, func(o option) int { return o.count })
	if err != nil {
		return kgllmSampled{}, err
	}
	if err := pseudonymize(edges); err != nil {
		return kgllmSampled{}, err
	}
	return kgllmSampled{
		edges: edges,
		question: func(label func(int) string) string {
			return KGLLMAggByRelationQuestion(label(o.u), o.rel, o.dir)
		},
		answer: func(func(int) string) any { return []string{strconv.Itoa(o.count)} },
		fields: func(label func(int) string) map[string]any {
			return map[string]any{"anchor_ent": ent(label, o.u), "relation": o.rel, "direction": o.dir, "seed_entities": seedIDs(seeds)}
		},
	}, nil
}

func (s *KGLLMSampler) aggNeighbor(seeds []int, maxEdges int, pseudonymize func([]int) error, ent kgllmEntFunc, seedIDs kgllmSeedFunc) (kgllmSampled, error) {
	edges, err := s.prune(s.multiNeighbourFilter(s.ego(seeds, 2)), maxEdges, 20)
	if err != nil {
		return kgllmSampled{}, err
	}
	type option struct {
		u     int
		rel   string
		count int
	}
	alive := map[int]bool{}
	for _, e := range edges {
		alive[e] = true
	}
	hasOut := func(u int, rel string) bool {
		for _, e := range s.out[u] {
			if alive[e] && s.label[e] == rel {
				return true
			}
		}
		return false
	}
	rels := s.relations(edges)
	var opts []option
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
				opts = append(opts, option{u, label, n})
			}
		}
	}
	if len(opts) == 0 {
		return kgllmSampled{}, fmt.Errorf("%w: no suitable anchor entity and relation", errKGLLMConstruct)
	}
	o, err := kgllmCountChoice(s.rng, opts, func(o option) int { return o.count })
	if err != nil {
		return kgllmSampled{}, err
	}
	if err := pseudonymize(edges); err != nil {
		return kgllmSampled{}, err
	}
	return kgllmSampled{
		edges: edges,
		question: func(label func(int) string) string {
			return KGLLMAggNeighborPropertiesQuestion(label(o.u), o.rel)
		},
		answer: func(func(int) string) any { return []string{strconv.Itoa(o.count)} },
		fields: func(label func(int) string) map[string]any {
			return map[string]any{"anchor_ent": ent(label, o.u), "relation": o.rel, "seed_entities": seedIDs(seeds)}
		},
	}, nil
}
