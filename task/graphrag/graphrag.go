// Package graphrag is the dependency-impact question of the GraphRAG
// serialization article ("Multi-hop model evaluation"): its prompt template
// with the JSON answer schema, gold answers from the deterministic
// traversal of formats/graphrag, strict JSON parsing of the model's answer,
// and precision, recall, F1 and exact match per field.
package graphrag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
)

// Family is the Question.Family (and Task) of dependency-impact
// questions.
const Family = "graphrag_impact"

// KindJSON is the Answer.Kind of a dependency-impact answer: Text
// holds the canonical JSON of an Answer.
const KindJSON = "impact_json"

// DefaultFailed is the failed node of the article's question.
const DefaultFailed = "db-identity"

// MaxResponseBytes bounds the size of a response ParseAnswer
// accepts; MaxIdentifiers bounds the number of identifiers in it.
const (
	MaxResponseBytes = 8 << 20
	MaxIdentifiers   = 1 << 20
)

// Prompt returns the article's prompt template filled in: the graph
// semantics, the JSON answer schema, the question about the failure of
// failed (the article asks about db-identity), the format's name and the
// serialized graph. Everything but those three values is byte-for-byte the
// same for every format, as the article requires.
func Prompt(failed, formatName, serializedGraph string) string {
	return "You answer only from the graph data below.\n\n" +
		"Graph semantics:\n" +
		"- \"A depends_on B\" means A is a consumer of B.\n" +
		"- If B fails, A may be affected.\n" +
		"- Dependency impact propagates transitively in the reverse direction.\n" +
		"- \"A owned_by T\" identifies the team responsible for A.\n\n" +
		"Return JSON only:\n" +
		"{\n" +
		"  \"affected_services\": [\"service-id\"],\n" +
		"  \"owners\": {\n" +
		"    \"service-id\": [\"team-id\"]\n" +
		"  }\n" +
		"}\n\n" +
		"Question:\n" +
		QuestionText(failed) + "\n\n" +
		"GRAPH_FORMAT:\n" + formatName + "\n\n" +
		"GRAPH_DATA:\n" + serializedGraph + "\n"
}

// QuestionText is the question of the prompt, on two lines as in the
// article.
func QuestionText(failed string) string {
	return "If " + failed + " fails, which services are transitively affected,\nand which teams own those services?"
}

// Answer is an answer to the dependency-impact question: the affected
// services and the teams owning each of them.
type Answer struct {
	AffectedServices []string            `json:"affected_services"`
	Owners           map[string][]string `json:"owners"`
}

// Gold computes the gold answer on g for a failure of failed with the
// reference program's traversals (graphrag.AffectedServices and
// graphrag.OwnersOf): every service that transitively depends on failed,
// sorted, and the sorted owners of each (an empty list when it has none).
func Gold(g graphrag.Graph, failed string) Answer {
	affected := graphrag.AffectedServices(g.Nodes, g.Edges, failed)
	return Answer{AffectedServices: affected, Owners: graphrag.OwnersOf(affected, g.Edges)}
}

// Normalize returns the answer with every identifier list deduplicated and
// sorted, and a nil owner map replaced by an empty one.
func (a Answer) Normalize() Answer {
	out := Answer{AffectedServices: sortedSet(a.AffectedServices), Owners: map[string][]string{}}
	for k, v := range a.Owners {
		out.Owners[k] = sortedSet(v)
	}
	return out
}

// CanonicalJSON writes the normalized answer as compact JSON with sorted
// keys.
func (a Answer) CanonicalJSON() string {
	n := a.Normalize()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(n); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// overlap counts the elements of pred that are in gold (both without
// repeats).
func overlap(gold, pred []string) int {
	gs := make(map[string]bool, len(gold))
	for _, x := range gold {
		gs[x] = true
	}
	n := 0
	for _, x := range pred {
		if gs[x] {
			n++
		}
	}
	return n
}

func sortedSet(xs []string) []string {
	out := append([]string{}, xs...)
	sort.Strings(out)
	k := 0
	for i, x := range out {
		if i == 0 || x != out[k-1] {
			out[k] = x
			k++
		}
	}
	return out[:k]
}

// NewQuestion builds the question for the graph g serialized in the
// named graphrag format (graphrag.Lookup), with its context (the serialized
// graph) and its gold answer (Kind KindJSON, Text the canonical JSON,
// Items the affected services). Meta records the failed node and the
// format; Question.Text is the whole prompt.
func NewQuestion(g graphrag.Graph, failed, format string) (task.Question, task.Context, error) {
	text, err := graphrag.EncodeString(format, g)
	if err != nil {
		return task.Question{}, task.Context{}, err
	}
	gold := Gold(g, failed)
	ctx := task.Context{ID: "graphrag-" + format, Text: text, Source: "graphrag " + format, SHA1: task.SHA1Hex(text)}
	q := task.Question{
		ID:        "graphrag-impact-" + failed + "-" + format,
		Family:    Family,
		Task:      Family,
		Text:      Prompt(failed, format, text),
		Gold:      task.Answer{Text: gold.CanonicalJSON(), Kind: KindJSON, Value: gold.CanonicalJSON(), Items: gold.AffectedServices},
		ContextID: ctx.ID,
		Meta:      map[string]string{"failed": failed, "format": format},
	}
	q.ContextSHA1 = ctx.SHA1
	q.QuestionSHA1 = task.SHA1Hex(q.Text)
	q.AnswerSHA1 = task.SHA1Hex(q.Gold.Text)
	return q, ctx, nil
}

// ParseAnswer parses a response strictly: it must be exactly one
// JSON object (white space around it is allowed, nothing else: no code
// fence, no prose) with exactly the two fields "affected_services", an
// array of strings, and "owners", an object whose values are arrays of
// strings. Missing or unknown fields, duplicate keys, other value types and
// trailing data are errors, reported as *rdf.ParseError with the line and
// column. The answer is returned as written (see Answer.Normalize).
func ParseAnswer(response string) (Answer, error) {
	if len(response) > MaxResponseBytes {
		return Answer{}, &rdf.ParseError{Line: 1, Column: 1, Msg: fmt.Sprintf("response larger than %d bytes", MaxResponseBytes), Err: rdf.ErrLimit}
	}
	p := &parser{src: response, dec: json.NewDecoder(strings.NewReader(response))}
	a, err := p.answer()
	if err != nil {
		return Answer{}, err
	}
	return a, nil
}

// ParseAnswerLenient accepts what models commonly wrap around the
// JSON: it takes the text from the first "{" to the last "}" (dropping a
// Markdown code fence or prose around it) and parses that strictly.
func ParseAnswerLenient(response string) (Answer, error) {
	i := strings.IndexByte(response, '{')
	j := strings.LastIndexByte(response, '}')
	if i < 0 || j < i {
		return Answer{}, &rdf.ParseError{Line: 1, Column: 1, Msg: "no JSON object in the response"}
	}
	return ParseAnswer(response[i : j+1])
}

type parser struct {
	src   string
	dec   *json.Decoder
	count int
}

func (p *parser) errAt(off int64, format string, args ...any) error {
	if off > int64(len(p.src)) {
		off = int64(len(p.src))
	}
	line, col := 1, 1
	for _, c := range []byte(p.src[:off]) {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &rdf.ParseError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) token() (json.Token, error) {
	off := p.dec.InputOffset()
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the offending byte itself.
			return nil, p.errAt(max(se.Offset-1, 0), "invalid JSON: %v", err)
		}
		if err == io.EOF {
			return nil, p.errAt(int64(len(p.src)), "unexpected end of the response")
		}
		return nil, p.errAt(off, "invalid JSON: %v", err)
	}
	return t, nil
}

func (p *parser) expectDelim(d json.Delim, what string) error {
	off := p.dec.InputOffset()
	t, err := p.token()
	if err != nil {
		return err
	}
	if t != d {
		return p.errAt(skipSpace(p.src, off), "expected %s", what)
	}
	return nil
}

func skipSpace(s string, off int64) int64 {
	for off < int64(len(s)) && strings.IndexByte(" \t\r\n,:", s[off]) >= 0 {
		off++
	}
	return off
}

func (p *parser) answer() (Answer, error) {
	var a Answer
	if err := p.expectDelim('{', "a JSON object"); err != nil {
		return a, err
	}
	seen := map[string]bool{}
	for p.dec.More() {
		off := skipSpace(p.src, p.dec.InputOffset())
		t, err := p.token()
		if err != nil {
			return a, err
		}
		key, _ := t.(string)
		if seen[key] {
			return a, p.errAt(off, "duplicate field %q", key)
		}
		seen[key] = true
		switch key {
		case "affected_services":
			if a.AffectedServices, err = p.stringArray(); err != nil {
				return a, err
			}
		case "owners":
			if a.Owners, err = p.owners(); err != nil {
				return a, err
			}
		default:
			return a, p.errAt(off, "unknown field %q", key)
		}
	}
	if _, err := p.token(); err != nil { // the closing brace
		return a, err
	}
	for _, f := range []string{"affected_services", "owners"} {
		if !seen[f] {
			return a, p.errAt(int64(len(strings.TrimRight(p.src, " \t\r\n"))), "missing field %q", f)
		}
	}
	rest := p.src[p.dec.InputOffset():]
	if r := strings.TrimLeft(rest, " \t\r\n"); r != "" {
		return a, p.errAt(int64(len(p.src)-len(r)), "data after the JSON object")
	}
	return a, nil
}

func (p *parser) stringArray() ([]string, error) {
	if err := p.expectDelim('[', "an array of identifiers"); err != nil {
		return nil, err
	}
	out := []string{}
	for p.dec.More() {
		off := skipSpace(p.src, p.dec.InputOffset())
		t, err := p.token()
		if err != nil {
			return nil, err
		}
		s, ok := t.(string)
		if !ok {
			return nil, p.errAt(off, "expected a string identifier")
		}
		p.count++
		if p.count > MaxIdentifiers {
			return nil, p.errAt(off, "more than %d identifiers", MaxIdentifiers)
		}
		out = append(out, s)
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *parser) owners() (map[string][]string, error) {
	if err := p.expectDelim('{', "an object of owner lists"); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for p.dec.More() {
		off := skipSpace(p.src, p.dec.InputOffset())
		t, err := p.token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if _, dup := out[key]; dup {
			return nil, p.errAt(off, "duplicate service %q in owners", key)
		}
		v, err := p.stringArray()
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	return out, nil
}

// SetScore compares a predicted identifier set with the gold set.
// With P the predicted and G the gold set (deduplicated):
// precision = |P∩G|/|P|, recall = |P∩G|/|G|, F1 their harmonic mean. Empty
// sets are defined before use, as the article asks: precision is 1 when P
// is empty (nothing wrong was claimed), recall is 1 when G is empty
// (nothing was missed), and F1 is 0 when precision + recall is 0; so two
// empty sets score 1, 1, 1 and an empty prediction against a non-empty gold
// set scores 1, 0, 0.
type SetScore struct {
	Precision  float64 `json:"precision"`
	Recall     float64 `json:"recall"`
	F1         float64 `json:"f1"`
	ExactMatch bool    `json:"exact_match"`
}

// ScoreSets scores predicted against gold identifiers (compared
// exactly, after deduplication).
func ScoreSets(gold, predicted []string) SetScore {
	g, p := sortedSet(gold), sortedSet(predicted)
	inter := overlap(g, p)
	s := SetScore{Precision: 1, Recall: 1}
	if len(p) > 0 {
		s.Precision = float64(inter) / float64(len(p))
	}
	if len(g) > 0 {
		s.Recall = float64(inter) / float64(len(g))
	}
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	s.ExactMatch = inter == len(g) && inter == len(p)
	return s
}

// Score is the score of one response.
type Score struct {
	// ParseSuccess is false when the response is not a valid answer
	// (ParseError says why); every other field is then zero.
	ParseSuccess bool   `json:"parse_success"`
	ParseError   string `json:"parse_error,omitempty"`
	// AffectedServices scores the affected_services field.
	AffectedServices SetScore `json:"affected_services"`
	// OwnerPairs scores the (service, team) pairs of the owners field.
	OwnerPairs SetScore `json:"owner_pairs"`
	// OwnersExactMatch is true when the normalized owners map equals the
	// gold map: the same services (including those with no team) and the
	// same teams for each.
	OwnersExactMatch bool `json:"owners_exact_match"`
	// ExactMatch is true when both fields match exactly.
	ExactMatch bool `json:"exact_match"`
}

// ScoreAnswer scores a parsed answer against the gold answer; both
// are normalized first (identifier lists deduplicated and sorted).
func ScoreAnswer(gold, got Answer) Score {
	g, a := gold.Normalize(), got.Normalize()
	s := Score{ParseSuccess: true}
	s.AffectedServices = ScoreSets(g.AffectedServices, a.AffectedServices)
	s.OwnerPairs = ScoreSets(pairs(g.Owners), pairs(a.Owners))
	s.OwnersExactMatch = sameOwners(g.Owners, a.Owners)
	s.ExactMatch = s.AffectedServices.ExactMatch && s.OwnersExactMatch
	return s
}

// ScoreResponse parses a response strictly (ParseAnswer) and scores it
// against gold.
func ScoreResponse(gold Answer, response string) Score {
	a, err := ParseAnswer(response)
	if err != nil {
		return Score{ParseError: err.Error()}
	}
	return ScoreAnswer(gold, a)
}

func pairs(m map[string][]string) []string {
	var out []string
	for k, vs := range m {
		for _, v := range vs {
			// Both parts are quoted, so no two pairs share a key.
			out = append(out, fmt.Sprintf("%q\x00%q", k, v))
		}
	}
	return out
}

func sameOwners(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || len(va) != len(vb) {
			return false
		}
		for i := range va {
			if va[i] != vb[i] {
				return false
			}
		}
	}
	return true
}

// Rules reported by the impact scorers.
const (
	// RuleStrict: strict JSON parsing, exact match of both fields.
	RuleStrict = "impact_strict_json_exact"
	// RuleLenient: JSON taken from the first "{" to the last "}",
	// then scored as RuleStrict.
	RuleLenient = "impact_lenient_json_exact"
)

// Scorer scores a dependency-impact question (Gold.Kind
// KindJSON): the response is parsed strictly; Correct is the exact
// match of both fields, Score the F1 of the affected services (the
// article's affected_services_f1), Parsed the canonical JSON of the parsed
// answer.
var Scorer task.Scorer = task.ScorerFunc(func(q task.Question, response string) task.Result {
	return scoreQuestion(q, response, ParseAnswer, RuleStrict)
})

// LenientScorer is Scorer with ParseAnswerLenient.
var LenientScorer task.Scorer = task.ScorerFunc(func(q task.Question, response string) task.Result {
	return scoreQuestion(q, response, ParseAnswerLenient, RuleLenient)
})

// Scoring declares the dependency-impact scorer, named "impact" (Scorer),
// the default of Family.
func Scoring() task.Scoring {
	return task.Scoring{
		Scorers: []task.NamedScorer{{Name: "impact", Scorer: Scorer}},
		Owns:    func(family string) bool { return family == Family },
	}
}

func scoreQuestion(q task.Question, response string, parse func(string) (Answer, error), rule string) task.Result {
	var gold Answer
	if err := json.Unmarshal([]byte(q.Gold.Text), &gold); err != nil {
		return task.Result{Rule: task.RuleNoAnswer}
	}
	a, err := parse(response)
	if err != nil {
		return task.Result{Rule: rule, Partial: &task.Score{}}
	}
	s := ScoreAnswer(gold, a)
	return task.Result{Correct: s.ExactMatch, Score: s.AffectedServices.F1, Parsed: a.CanonicalJSON(), Rule: rule, Partial: s.Partial(gold, a)}
}

// Partial returns s as task partial credit: the affected services as the
// main field, with the owners' (service, team) pairs scored separately
// (their ExactMatch is OwnersExactMatch). gold and got are the answers s
// scored (for the item counts).
func (s Score) Partial(gold, got Answer) *task.Score {
	if !s.ParseSuccess {
		return &task.Score{}
	}
	g, a := gold.Normalize(), got.Normalize()
	field := func(ss SetScore, gold, pred []string, exact bool) task.SetScore {
		return task.SetScore{Precision: ss.Precision, Recall: ss.Recall, F1: ss.F1, ExactMatch: exact,
			Gold: len(gold), Predicted: len(pred), Matched: overlap(gold, pred)}
	}
	return &task.Score{
		ParseOK:    true,
		ExactMatch: s.ExactMatch,
		Precision:  s.AffectedServices.Precision,
		Recall:     s.AffectedServices.Recall,
		F1:         s.AffectedServices.F1,
		Fields: map[string]task.SetScore{
			FieldAffectedServices: field(s.AffectedServices, g.AffectedServices, a.AffectedServices, s.AffectedServices.ExactMatch),
			FieldOwners:           field(s.OwnerPairs, pairs(g.Owners), pairs(a.Owners), s.OwnersExactMatch),
		},
	}
}

// Names of the fields of the partial credit (task.Score.Fields).
const (
	FieldAffectedServices = "affected_services"
	FieldOwners           = "owners"
)

// RunRecord is the article's result schema for one model run.
type RunRecord struct {
	RunID                    string  `json:"run_id"`
	GraphHash                string  `json:"graph_hash"`
	Format                   string  `json:"format"`
	Ordering                 string  `json:"ordering"`
	BudgetTokens             int     `json:"budget_tokens"`
	Model                    string  `json:"model"`
	Tokenizer                string  `json:"tokenizer"`
	PromptTokensReported     int     `json:"prompt_tokens_reported"`
	CompletionTokensReported int     `json:"completion_tokens_reported"`
	ParseSuccess             bool    `json:"parse_success"`
	ExactMatch               bool    `json:"exact_match"`
	AffectedServicesF1       float64 `json:"affected_services_f1"`
	OwnersExactMatch         bool    `json:"owners_exact_match"`
	LatencyMS                int64   `json:"latency_ms"`
	RawResponsePath          string  `json:"raw_response_path"`
}

// Fill copies the scores of s into the record.
func (r *RunRecord) Fill(s Score) {
	r.ParseSuccess = s.ParseSuccess
	r.ExactMatch = s.ExactMatch
	r.AffectedServicesF1 = s.AffectedServices.F1
	r.OwnersExactMatch = s.OwnersExactMatch
}

// NewSet builds a frozen question set with the dependency-impact
// question on g for each of the named graphrag formats (nil means the five
// reference formats), one context per format.
func NewSet(name string, g graphrag.Graph, failed string, formats []string) (*task.Set, error) {
	if formats == nil {
		formats = graphrag.ReferenceFormats()
	}
	set := &task.Set{Name: name}
	for _, f := range formats {
		q, ctx, err := NewQuestion(g, failed, f)
		if err != nil {
			return nil, err
		}
		set.Contexts = append(set.Contexts, ctx)
		set.Questions = append(set.Questions, q)
	}
	set.Counts = []task.FamilyCount{{Family: Family, Questions: len(set.Questions), Candidates: len(formats)}}
	set.Seal()
	return set, nil
}

// StudyQuestion is the question of the study run: the same in every
// format (id "graphrag-impact-<failed>", Text the question of the prompt,
// QuestionText), asked about the graph serialized in format, which is the
// context. StudyTemplate builds the article's whole prompt around it, so
// the graph appears once.
func StudyQuestion(g graphrag.Graph, failed, format string) (task.Question, task.Context, error) {
	text, err := graphrag.EncodeString(format, g)
	if err != nil {
		return task.Question{}, task.Context{}, err
	}
	gold := Gold(g, failed)
	ctx := task.Context{ID: "graphrag-" + failed + "-" + format, Text: text, Source: "graphrag " + format}
	q := task.Question{
		ID:        "graphrag-impact-" + failed,
		Family:    Family,
		Task:      Family,
		Text:      QuestionText(failed),
		Gold:      task.Answer{Text: gold.CanonicalJSON(), Kind: KindJSON, Value: gold.CanonicalJSON(), Items: gold.AffectedServices},
		ContextID: ctx.ID,
		Meta:      map[string]string{"failed": failed, "format": format},
	}
	return q, ctx, nil
}

// StudyTemplate is the article's prompt template (Prompt) for a
// StudyQuestion: no system message; the user message with the format's
// name (Meta["format"]) and the context as GRAPH_DATA.
func StudyTemplate(contextText string, q task.Question) (system, user string) {
	return "", Prompt(q.Meta["failed"], q.Meta["format"], contextText)
}

var _ task.PromptFunc = StudyTemplate

// StudySets returns one set per named graphrag format (nil: the five
// reference formats), each with the StudyQuestion about g, named
// graphrag-impact-<format>. Answers are scored with Scorer, whose
// partial credit carries the article's fields.
func StudySets(g graphrag.Graph, failed string, formats []string) ([]*task.Set, error) {
	if formats == nil {
		formats = graphrag.ReferenceFormats()
	}
	var sets []*task.Set
	for _, f := range formats {
		q, ctx, err := StudyQuestion(g, failed, f)
		if err != nil {
			return nil, err
		}
		set := &task.Set{Name: "graphrag-impact-" + f, Contexts: []task.Context{ctx}, Questions: []task.Question{q},
			Counts: []task.FamilyCount{{Family: Family, Questions: 1, Candidates: 1}}}
		set.Seal()
		sets = append(sets, set)
	}
	return sets, nil
}

// StudyGraph is the article's reference graph: graphrag.Generate with the
// reference program's default parameters (40 services, 80 noise edges,
// seed 7).
func StudyGraph() (graphrag.Graph, error) {
	p := graphrag.DefaultParameters()
	return graphrag.Generate(p.Services, p.NoiseEdges, p.Seed)
}
