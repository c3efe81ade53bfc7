package text2kg

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/token"
)

// The extraction experiment of "Graph Serializations for Reasoning LLMs"
// (seed 001): the 2,014 test sentences of Text2KGBench's DBpedia-WebNLG
// split, each asked with its ontology rendered in one of 12 formats, the
// appendix H.4 prompt, triples parsed from "(subject, relation, object)"
// lines and rescored with an optimal 1:1 matching (Hopcroft–Karp) at
// similarity 0.60, F1 reported per domain (ontology).
//
// The sentences are licensed for non-commercial use only (WebNLG 3.0,
// CC BY-NC-SA 4.0), so none is shipped: LoadSplit reads them from a copy
// of the benchmark's data/dbpedia_webnlg folder.

// Family and kind of extraction questions.
const (
	// TaskExtraction is the Question.Task of every extraction question;
	// its Family is the sentence's domain (the ontology, "1_university"),
	// so that results come per domain.
	TaskExtraction = "text2kg_extraction"
	// KindTriples is the Answer.Kind of an extraction question: Text is
	// the JSON array of the gold [subject, relation, object] triples.
	KindTriples = "triples"
)

// ExtractionInstruction is the user instruction of the H.4 extraction
// prompt.
const ExtractionInstruction = "You are given an ontology and a sentence. Extract every (subject, relation, object) triple supported by the sentence, constrained to the relations in the ontology. Output one triple per line in the format '(<subject>, <relation>, <object>)'."

// SystemPrompt is the study's system prompt (appendix H.4), the same for
// every task.
const SystemPrompt = graphqa.FinalSystemPrompt

// ExtractionPrompt is the H.4 extraction prompt: SystemPrompt, and the
// instruction, the rendered ontology and the sentence, separated by blank
// lines as the study's GraphQA prompt is.
func ExtractionPrompt(renderedOntology, sentence string) (system, user string) {
	return SystemPrompt, ExtractionInstruction + "\n\n" + strings.TrimRight(renderedOntology, "\n") + "\n\nSentence: " + sentence
}

// StudyTemplate is the extraction prompt of a question (its Text is the
// sentence) asked about a rendered ontology.
func StudyTemplate(contextText string, q task.Question) (system, user string) {
	return ExtractionPrompt(contextText, q.Text)
}

var _ task.PromptFunc = StudyTemplate

// Sentence is one test sentence with its gold triples.
type Sentence struct {
	// ID is the benchmark's id, "ont_1_university_test_1".
	ID string
	// Domain is the ontology's name, "1_university".
	Domain string
	Text   string
	Gold   []Triple
}

// Split is a test split: its sentences (in domain order, then by number)
// and their ontologies by domain.
type Split struct {
	Sentences  []Sentence
	Ontologies map[string]*ontology.Ontology
	// Domains lists the domains in ontology number order.
	Domains []string
}

// Domain returns the domain of a sentence id: "ont_1_university_test_1"
// gives "1_university".
func Domain(id string) (string, bool) {
	rest, ok := strings.CutPrefix(id, "ont_")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(rest, "_test_")
	if i <= 0 {
		return "", false
	}
	return rest[:i], true
}

// domainNumber is the leading number of a domain ("1_university": 1).
func domainNumber(d string) int {
	n, _ := strconv.Atoi(strings.SplitN(d, "_", 2)[0])
	return n
}

// MaxSplitLine bounds one JSON Lines record of a split file.
const MaxSplitLine = 1 << 20

// LoadSplit reads a test split from dir, laid out as the benchmark's
// data/dbpedia_webnlg folder: ontologies/<n>_<name>_ontology.json,
// test/*.jsonl ({"id", "sent"} per line) and ground_truth/*.jsonl
// ({"id", "sent", "triples": [{"sub", "rel", "obj"}]}). Every test
// sentence must have its ground truth and its ontology; errors name the
// file and line.
func LoadSplit(dir string) (*Split, error) {
	onts, err := ontology.LoadDir(filepath.Join(dir, "ontologies"))
	if err != nil {
		return nil, err
	}
	sp := &Split{Ontologies: map[string]*ontology.Ontology{}}
	for _, o := range onts {
		d := strings.TrimPrefix(o.ID, "ont_")
		sp.Ontologies[d] = o
		sp.Domains = append(sp.Domains, d)
	}
	if len(onts) == 0 {
		return nil, fmt.Errorf("text2kg: no ontology in %s", filepath.Join(dir, "ontologies"))
	}
	read := func(sub string, each func(file string, line int, r sentenceRecord) error) error {
		paths, err := filepath.Glob(filepath.Join(dir, sub, "*.jsonl"))
		if err != nil {
			return err
		}
		if len(paths) == 0 {
			return fmt.Errorf("text2kg: no *.jsonl file in %s", filepath.Join(dir, sub))
		}
		sort.Strings(paths)
		for _, p := range paths {
			if err := readJSONLines(p, func(line int, b []byte) error {
				var r sentenceRecord
				if err := json.Unmarshal(b, &r); err != nil {
					return err
				}
				return each(p, line, r)
			}); err != nil {
				return err
			}
		}
		return nil
	}
	gold := map[string]sentenceRecord{}
	if err := read("ground_truth", func(file string, line int, r sentenceRecord) error {
		if _, dup := gold[r.ID]; dup {
			return fmt.Errorf("%s:%d: id %q twice", file, line, r.ID)
		}
		gold[r.ID] = r
		return nil
	}); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	if err := read("test", func(file string, line int, r sentenceRecord) error {
		d, ok := Domain(r.ID)
		if !ok {
			return fmt.Errorf("%s:%d: id %q is not ont_<domain>_test_<n>", file, line, r.ID)
		}
		if sp.Ontologies[d] == nil {
			return fmt.Errorf("%s:%d: no ontology %s", file, line, d)
		}
		g, ok := gold[r.ID]
		if !ok {
			return fmt.Errorf("%s:%d: no ground truth for %s", file, line, r.ID)
		}
		if seen[r.ID] {
			return fmt.Errorf("%s:%d: id %q twice", file, line, r.ID)
		}
		seen[r.ID] = true
		s := Sentence{ID: r.ID, Domain: d, Text: r.Sent}
		for _, t := range g.Triples {
			s.Gold = append(s.Gold, Triple{Sub: t.Sub, Rel: t.Rel, Obj: t.Obj})
		}
		sp.Sentences = append(sp.Sentences, s)
		return nil
	}); err != nil {
		return nil, err
	}
	num := func(id string) int {
		n, _ := strconv.Atoi(id[strings.LastIndex(id, "_")+1:])
		return n
	}
	slices.SortStableFunc(sp.Sentences, func(a, b Sentence) int {
		if c := domainNumber(a.Domain) - domainNumber(b.Domain); c != 0 {
			return c
		}
		if c := strings.Compare(a.Domain, b.Domain); c != 0 {
			return c
		}
		return num(a.ID) - num(b.ID)
	})
	return sp, nil
}

// sentenceRecord is a line of a Text2KGBench ground-truth or test file:
// a sentence with its id and, in the ground truth, its triples.
type sentenceRecord struct {
	ID      string `json:"id"`
	Sent    string `json:"sent"`
	Triples []struct {
		Sub string `json:"sub"`
		Rel string `json:"rel"`
		Obj string `json:"obj"`
	} `json:"triples"`
}

// readJSONLines calls each for every non-empty line of a file; a decoding
// error names the file and line.
func readJSONLines(path string, each func(line int, b []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, MaxSplitLine)
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("%s:%d: line longer than %d bytes", path, line, MaxSplitLine)
		}
		if len(strings.TrimSpace(string(b))) > 0 {
			if e := each(line, b); e != nil {
				var se *json.SyntaxError
				if errors.As(e, &se) {
					return fmt.Errorf("%s:%d: column %d: %v", path, line, se.Offset, e)
				}
				if strings.HasPrefix(e.Error(), path) {
					return e
				}
				return fmt.Errorf("%s:%d: %v", path, line, e)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Set returns the frozen question set of one ontology format (a name of
// formats/ontology): one context per domain (its ontology in the
// format) and one question per sentence (Text the sentence, Family its
// domain, Gold the triples).
func (sp *Split) Set(format string) (*task.Set, error) {
	if _, ok := ontology.Lookup(format); !ok {
		return nil, fmt.Errorf("text2kg: unknown ontology format %q (known: %s)", format, strings.Join(ontology.Names(), ", "))
	}
	set := &task.Set{Name: "text2kgbench-" + format}
	ctxID := map[string]string{}
	for _, d := range sp.Domains {
		var b strings.Builder
		if err := ontology.Encode(&b, sp.Ontologies[d], format); err != nil {
			return nil, err
		}
		id := "text2kg-" + d + "-" + format
		ctxID[d] = id
		set.Contexts = append(set.Contexts, task.Context{ID: id, Text: b.String(), Source: "text2kgbench ontology " + d + " format=" + format})
	}
	counts := map[string]int{}
	for _, s := range sp.Sentences {
		gold := make([][3]string, len(s.Gold))
		items := make([]string, len(s.Gold))
		for i, t := range s.Gold {
			gold[i] = [3]string{t.Sub, t.Rel, t.Obj}
			items[i] = "(" + t.Sub + ", " + t.Rel + ", " + t.Obj + ")"
		}
		b, err := json.Marshal(gold)
		if err != nil {
			return nil, err
		}
		set.Questions = append(set.Questions, task.Question{
			ID: s.ID, Family: s.Domain, Task: TaskExtraction, Text: s.Text,
			Gold:      task.Answer{Text: string(b), Kind: KindTriples, Value: string(b), Items: items},
			ContextID: ctxID[s.Domain],
			Meta:      map[string]string{"ontology": s.Domain, "format": format},
		})
		counts[s.Domain]++
	}
	for _, d := range sp.Domains {
		if counts[d] > 0 {
			set.Counts = append(set.Counts, task.FamilyCount{Family: d, Questions: counts[d], Candidates: counts[d]})
		}
	}
	set.Seal()
	return set, nil
}

// ParseTripleLines reads the triples of an answer to the H.4 prompt: every
// line (after the last "FINAL:" when there is one) that holds
// "(<subject>, <relation>, <object>)", with Markdown list marks, quotes
// and surrounding spaces removed. When a line has more than three
// comma-separated parts, the relation is the first inner part that is
// one of relations (the ontology's relation labels; spaces as "_"), else
// the second part, and subject and object take the rest. At most
// MaxResponseTriples are returned.
func ParseTripleLines(response string, relations []string) []Triple {
	if i := strings.LastIndex(response, "FINAL:"); i >= 0 {
		response = response[i+len("FINAL:"):]
	}
	rels := map[string]bool{}
	for _, r := range relations {
		rels[strings.ReplaceAll(r, " ", "_")] = true
	}
	var out []Triple
	for _, line := range strings.Split(response, "\n") {
		if len(out) >= MaxResponseTriples {
			break
		}
		l := strings.TrimSpace(line)
		l = strings.TrimLeft(l, "-*•0123456789. \t")
		open, close := strings.IndexByte(l, '('), strings.LastIndexByte(l, ')')
		if open < 0 || close <= open {
			continue
		}
		parts := strings.Split(l[open+1:close], ",")
		if len(parts) < 3 {
			continue
		}
		for i := range parts {
			parts[i] = trimEntity(strings.Trim(strings.TrimSpace(parts[i]), "`*"))
		}
		ri := 1
		for i := 1; i < len(parts)-1; i++ {
			if rels[strings.ReplaceAll(parts[i], " ", "_")] {
				ri = i
				break
			}
		}
		t := Triple{
			Sub: strings.Join(parts[:ri], ", "),
			Rel: parts[ri],
			Obj: strings.Join(parts[ri+1:], ", "),
		}
		if t.Sub == "" || t.Rel == "" || t.Obj == "" {
			continue
		}
		out = append(out, t)
	}
	return out
}

// RuleMatch is the Result.Rule of StudyScorer.
const RuleMatch = "text2kg_hopcroft_karp_0.60"

// StudyScorer scores an answer to an extraction question as the study
// rescores: the triples of the answer (ParseTripleLines, with the gold
// relations as the relation list), the benchmark's relation filter
// (triples whose relation is no gold relation are dropped, as run_eval.py
// does), then Match with TripleSimilarity at MatchThreshold (0.60).
// Score is F1; Correct is true when every gold and every kept triple is
// matched; Partial carries precision, recall and F1 (field "triples"),
// and ParseOK says whether any triple was read.
var StudyScorer task.Scorer = task.ScorerFunc(scoreStudy)

// Scoring declares Text2KGBench's scorer, named "text2kg" (StudyScorer);
// it owns no family, so a task chooses it by name.
func Scoring() task.Scoring {
	return task.Scoring{Scorers: []task.NamedScorer{{Name: "text2kg", Scorer: StudyScorer}}}
}

func scoreStudy(q task.Question, response string) task.Result {
	var rows [][3]string
	if err := json.Unmarshal([]byte(q.Gold.Text), &rows); err != nil {
		return task.Result{Rule: task.RuleNoAnswer}
	}
	gold := make([]Triple, len(rows))
	var rels []string
	goldRels := map[string]bool{}
	for i, r := range rows {
		gold[i] = Triple{Sub: r[0], Rel: r[1], Obj: r[2]}
		rel := strings.ReplaceAll(r[1], " ", "_")
		if !goldRels[rel] {
			goldRels[rel] = true
			rels = append(rels, rel)
		}
	}
	parsed := ParseTripleLines(response, rels)
	var kept []Triple
	for _, t := range parsed {
		if goldRels[strings.ReplaceAll(t.Rel, " ", "_")] {
			kept = append(kept, t)
		}
	}
	m, err := Match(gold, kept, nil, MatchThreshold)
	if err != nil {
		return task.Result{Rule: RuleMatch, Partial: &task.Score{}}
	}
	exact := m.Matched == len(gold) && m.Matched == len(kept)
	var shown []string
	for _, t := range kept {
		shown = append(shown, "("+t.Sub+", "+t.Rel+", "+t.Obj+")")
	}
	field := task.SetScore{Precision: m.Precision, Recall: m.Recall, F1: m.F1, ExactMatch: exact,
		Gold: len(gold), Predicted: len(kept), Matched: m.Matched}
	r := task.Result{Correct: exact, Score: m.F1, Parsed: strings.Join(shown, "\n"), Rule: RuleMatch,
		Partial: &task.Score{ParseOK: len(parsed) > 0, ExactMatch: exact, Precision: m.Precision, Recall: m.Recall, F1: m.F1,
			Fields: map[string]task.SetScore{"triples": field}}}
	if exact {
		r.Score = 1
	}
	return r
}

// DomainF1 averages F1 per domain and then over the domains (each domain
// weighing the same, as the study's mean over the 19 ontologies): f1 maps
// a domain to the F1 of each of its answers.
func DomainF1(f1 map[string][]float64) (perDomain map[string]float64, macro float64) {
	perDomain = map[string]float64{}
	for d, xs := range f1 {
		if len(xs) == 0 {
			continue
		}
		sum := 0.0
		for _, x := range xs {
			sum += x
		}
		perDomain[d] = sum / float64(len(xs))
	}
	if len(perDomain) == 0 {
		return perDomain, 0
	}
	for _, v := range perDomain {
		macro += v
	}
	return perDomain, macro / float64(len(perDomain))
}

// OntologySize is one row of the study's ontology size table (Table 12):
// an ontology's concepts, relations, and the tokens of its rendering in
// each format.
type OntologySize struct {
	Domain              string
	Concepts, Relations int
	// Tokens holds the tokens of each format's rendering; MeanTokens is
	// their mean over the formats.
	Tokens     map[string]int
	MeanTokens float64
}

// OntologySizes returns the size table of the split's ontologies, their
// renderings counted with tok, over the given formats (nil: the 12 of
// formats/ontology).
func (sp *Split) OntologySizes(tok token.Tokenizer, formats []string) ([]OntologySize, error) {
	if formats == nil {
		formats = ontology.Names()
	}
	var out []OntologySize
	for _, d := range sp.Domains {
		o := sp.Ontologies[d]
		row := OntologySize{Domain: d, Concepts: len(o.Concepts), Relations: len(o.Relations), Tokens: map[string]int{}}
		total := 0
		for _, f := range formats {
			var b strings.Builder
			if err := ontology.Encode(&b, o, f); err != nil {
				return nil, err
			}
			n := tok.Count(b.String())
			row.Tokens[f] = n
			total += n
		}
		if len(formats) > 0 {
			row.MeanTokens = float64(total) / float64(len(formats))
		}
		out = append(out, row)
	}
	return out, nil
}
