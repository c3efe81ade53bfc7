// Package task holds what every benchmark's questions share: the types
// (Question, Answer, Context, Set, Scorer, Result), the frozen-set format
// (JSONL with SHA-1 hashes of every context and question, see WriteFrozen
// and ReadFrozen), and the answer normalization and scorer of the ISOLDA
// studies (NFKC, case folding, first integer, whole phrase inside a short
// answer; ScoreKG).
//
// Each benchmark is a sub-package with its generators, prompts and scorers:
// task/kg (structural questions on any RDF graph, the ISOLDA studies),
// task/graphqa (Talk like a Graph and the GraphQA, Hardened and Topology
// regimes of "Graph Serializations for Reasoning LLMs"), task/kgllm
// (KG-LLM-Bench), task/text2kg (Text2KGBench) and task/graphrag (the
// GraphRAG dependency-impact question).
package task

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// Answer kinds say how a gold answer is compared with a response.
const (
	KindYesNo  = "yesno"  // "Yes." or "No." style answers
	KindInt    = "int"    // an integer count or length
	KindFloat  = "float"  // a decimal number written with a fixed precision
	KindList   = "list"   // an unordered list of names
	KindText   = "text"   // a literal value or the name of an entity
	KindNode   = "node"   // the name of one graph node
	KindNoPath = "nopath" // GraphQA's "There is no path from node X to node Y."
)

// Answer is the gold answer of a question.
type Answer struct {
	// Text is the exact answer string of the source benchmark (for GraphQA,
	// e.g. " 7." with its leading space), or the plain value.
	Text string `json:"text"`
	// Kind is one of the Kind* constants.
	Kind string `json:"kind"`
	// Value is the bare value: the integer, the number, "yes"/"no", the name.
	Value string `json:"value"`
	// Items are the elements of a list answer, in the source's order.
	Items []string `json:"items,omitempty"`
	// Alternatives are other values that are also correct (e.g. a label in
	// another script); scorers accept any of Value and Alternatives.
	Alternatives []string `json:"alternatives,omitempty"`
}

// Question is one benchmark question with its gold answer.
type Question struct {
	// ID is unique within a Set, e.g. "lookup-007" or "graphqa-er-12-node_degree".
	ID string `json:"id"`
	// Family is the question family: "graphqa", "graphqa_hardened",
	// "graphqa_topology", or one of the KG families (FamilyLookup...).
	Family string `json:"family"`
	// Task is the task within the family (e.g. "node_degree"); for KG
	// families it equals Family.
	Task string `json:"task"`
	// Text is the question as shown to the model.
	Text string `json:"question"`
	// Gold is the expected answer.
	Gold Answer `json:"gold"`
	// ContextID names the context (in Set.Contexts) the question is asked about.
	ContextID string `json:"context_id,omitempty"`
	// ContextSHA1 is the SHA-1 (hex) of that context's text, or of its source
	// data when the text is not stored.
	ContextSHA1 string `json:"context_sha1,omitempty"`
	// QuestionSHA1 is the SHA-1 (hex) of Text; AnswerSHA1 that of Gold.Text.
	QuestionSHA1 string `json:"question_sha1,omitempty"`
	AnswerSHA1   string `json:"answer_sha1,omitempty"`
	// Meta holds generation details (node ids, graph generator, seed, the
	// property IRI, ...). encoding/json writes its keys sorted.
	Meta map[string]string `json:"meta,omitempty"`
}

// WithMeta returns q with a copy of its Meta in which each key of the
// pairs (key, value, key, value, ...) is set; q's own Meta is unchanged.
func (q Question) WithMeta(pairs ...string) Question {
	m := make(map[string]string, len(q.Meta)+len(pairs)/2)
	for k, v := range q.Meta {
		m[k] = v
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	q.Meta = m
	return q
}

// Context is the text (or a reference to the data) questions are asked about.
type Context struct {
	ID string `json:"id"`
	// Text is the context as given to the model; it may be empty when the
	// context is an external file, which Source then names.
	Text string `json:"text,omitempty"`
	// Source describes where the context comes from (a file name, "graph
	// er n=12 seed=1234", ...).
	Source string `json:"source,omitempty"`
	// SHA1 is the SHA-1 (hex) of Text, or of the canonical N-Quads of the
	// source dataset when Text is empty.
	SHA1 string `json:"sha1"`
}

// FamilyCount reports how many questions a family produced, how many
// candidates it had, and why it produced fewer than asked.
type FamilyCount struct {
	Family     string `json:"family"`
	Questions  int    `json:"questions"`
	Candidates int    `json:"candidates"`
	// Ambiguous counts the candidates left out because their text fits
	// more than one reading of the graph (two terms of one name, two
	// candidates of one text); Candidates does not include them.
	Ambiguous int `json:"ambiguous,omitempty"`
	// Skipped says why the family gave no (or fewer) questions; empty if none.
	Skipped string `json:"skipped,omitempty"`
}

// Set is a frozen question set.
type Set struct {
	Name      string        `json:"name"`
	Seed      int64         `json:"seed"`
	Contexts  []Context     `json:"-"`
	Questions []Question    `json:"-"`
	Counts    []FamilyCount `json:"counts,omitempty"`
}

// Result is the outcome of scoring one response.
type Result struct {
	Correct bool    `json:"correct"`
	Score   float64 `json:"score"`
	// Parsed is the part of the response the rule compared.
	Parsed string `json:"parsed"`
	// Rule names the rule that decided (e.g. "first_integer").
	Rule string `json:"rule"`
	// Partial is the partial credit of scorers whose gold answer is a set
	// (nil for the others).
	Partial *Score `json:"partial,omitempty"`
}

// Score is the partial credit of one answer whose gold answer is one or
// more sets (the GraphRAG impact question's affected services and owners,
// Text2KGBench's triples): what a log line carries beside Correct, and
// what reports average.
type Score struct {
	// ParseOK is false when the response could not be read in the form
	// the prompt asked for; the other fields are then zero.
	ParseOK bool `json:"parse_ok"`
	// ExactMatch is true when every field matches exactly.
	ExactMatch bool `json:"exact_match"`
	// Precision, Recall and F1 are those of the main field (the affected
	// services, the triples).
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// Fields scores each field by name when the answer has several (e.g.
	// "affected_services" and "owners"), the main one included.
	Fields map[string]SetScore `json:"fields,omitempty"`
}

// SetScore compares a predicted set with a gold set. How empty sets score
// is the scorer's (and its study's) convention.
type SetScore struct {
	Precision  float64 `json:"precision"`
	Recall     float64 `json:"recall"`
	F1         float64 `json:"f1"`
	ExactMatch bool    `json:"exact_match"`
	// Gold, Predicted and Matched count the distinct items of each set and
	// of their intersection.
	Gold      int `json:"gold"`
	Predicted int `json:"predicted"`
	Matched   int `json:"matched"`
}

// Scorer scores a model's response to a question.
type Scorer interface {
	Score(q Question, response string) Result
}

// PromptFunc builds a study's whole prompt for a question asked about a
// context's text: the system message (empty for none) and the user
// message. A runner sends them as they are, adding no wrapper of its own.
type PromptFunc func(contextText string, q Question) (system, user string)

// NamedScorer is a scorer with the name experiments give it (the scorer
// field of a task, a log line's scorer).
type NamedScorer struct {
	Name   string
	Scorer Scorer
}

// Scoring is what a benchmark package declares of its scoring: its named
// scorers and the question families it owns. The study registry composes
// every benchmark's Scoring into one table (Scorings), which package eval
// and the reports take from their caller, so that a benchmark's scorer is
// named in its own package and in one row of that table, nowhere else.
type Scoring struct {
	// Scorers are the benchmark's scorers; the first is the default of
	// the families it owns.
	Scorers []NamedScorer
	// Owns reports whether a question family is the benchmark's (its
	// questions get Scorers[0] when their task names no scorer); nil for
	// a benchmark whose scorers are only chosen by name.
	Owns func(family string) bool
}

// Scorings is a scorer table: one Scoring per benchmark. The first
// benchmark's first scorer is the default of the families no benchmark
// owns.
type Scorings []Scoring

// Names returns the name of every scorer, in the order of the table.
func (t Scorings) Names() []string {
	var out []string
	for _, b := range t {
		for _, s := range b.Scorers {
			out = append(out, s.Name)
		}
	}
	return out
}

// Lookup returns the scorer named name (one of Names); another name is an
// error.
func (t Scorings) Lookup(name string) (Scorer, error) {
	for _, b := range t {
		for _, s := range b.Scorers {
			if s.Name == name {
				return s.Scorer, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown scorer %q (one of %s)", name, strings.Join(t.Names(), ", "))
}

// Default returns the name of the scorer of a family's questions when
// their task names none: the first scorer of the benchmark that owns the
// family, the table's first scorer when none does ("" for an empty
// table).
func (t Scorings) Default(family string) string {
	for _, b := range t {
		if b.Owns != nil && b.Owns(family) && len(b.Scorers) > 0 {
			return b.Scorers[0].Name
		}
	}
	if len(t) == 0 || len(t[0].Scorers) == 0 {
		return ""
	}
	return t[0].Scorers[0].Name
}

// ScorerFunc adapts a function to Scorer.
type ScorerFunc func(q Question, response string) Result

// Score implements Scorer.
func (f ScorerFunc) Score(q Question, response string) Result { return f(q, response) }

// SHA1Hex returns the hex SHA-1 of s.
func SHA1Hex(s string) string {
	h := sha1.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// Seal fills the hashes of every context and question of the set: each
// context's SHA1 (from its Text, unless Text is empty and SHA1 is already
// set), and each question's QuestionSHA1, AnswerSHA1 and ContextSHA1.
func (s *Set) Seal() {
	byID := make(map[string]string, len(s.Contexts))
	for i := range s.Contexts {
		c := &s.Contexts[i]
		if c.Text != "" || c.SHA1 == "" {
			c.SHA1 = SHA1Hex(c.Text)
		}
		byID[c.ID] = c.SHA1
	}
	for i := range s.Questions {
		q := &s.Questions[i]
		q.QuestionSHA1 = SHA1Hex(q.Text)
		q.AnswerSHA1 = SHA1Hex(q.Gold.Text)
		if h, ok := byID[q.ContextID]; ok {
			q.ContextSHA1 = h
		}
	}
}

// WriteCounts writes one line per family: "family: N questions (M
// candidates)", or "(M candidates, A ambiguous left out)" when candidates
// were left out as ambiguous, followed by the reason when the family was
// skipped or short, then a total line.
func (s *Set) WriteCounts(w io.Writer) error {
	total := 0
	for _, c := range s.Counts {
		line := fmt.Sprintf("%s: %d questions (%d candidates)", c.Family, c.Questions, c.Candidates)
		if c.Ambiguous > 0 {
			line = fmt.Sprintf("%s: %d questions (%d candidates, %d ambiguous left out)", c.Family, c.Questions, c.Candidates, c.Ambiguous)
		}
		if c.Skipped != "" {
			line += ": " + c.Skipped
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		total += c.Questions
	}
	_, err := fmt.Fprintf(w, "total: %d questions\n", total)
	return err
}
