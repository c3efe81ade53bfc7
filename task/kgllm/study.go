package kgllm

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
)

// The two instance variants.
const (
	VariantReal   = "real"   // the Countries labels
	VariantPseudo = "pseudo" // country labels replaced by the benchmark's pseudonyms
)

// Languages of a study.
const (
	LangEnglish = "en" // the benchmark's own prompts and labels
	LangCatalan = "ca" // ISOLDA paper §4.7: Catalan instructions, questions and labels
)

// FormatISOLDA is the format name of the ISOLDA arms in Description,
// UserMessage and Template: the RDF graph of rdf_turtle2 (entity ids with
// rdfs:label, readable relation IRIs; see RDF) encoded in ISOLDA, as the
// ISOLDA paper's KG-LLM-Bench study does (§4.5). The encoding is not this
// package's: package eval renders the study's ISOLDA arms from RDF's graph.
const FormatISOLDA = "isolda"

// DescriptionISOLDA is the DESCRIPTION of the benchmark's prompt for the
// ISOLDA arms. The benchmark has none; this one is ours, worded like the
// benchmark's. Every ISOLDA version gets the same text (ISOLDA paper §4.6:
// all ISOLDA arms are presented with the same name).
const DescriptionISOLDA = "The knowledge graph is presented in the ISOLDA format: a glossary of the notation, then one table per type of entity, with one row per entity and its relations as columns."

// Arm is one arm of a KG-LLM-Bench study: a textualization of every
// instance's subgraph.
type Arm struct {
	// Name identifies the arm: the format's name.
	Name string
	// Format is a kgllmbench format name (kgllmbench.Formats).
	Format string
	// Paper is true for the five formats of the benchmark's paper.
	Paper bool
}

// PaperFormats are the five formats of the benchmark's paper, in its
// order: rdf_turtle3 is its "RDF Turtle" and json_ld3 its "JSON-LD".
func PaperFormats() []string {
	return []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle3", "json_ld3"}
}

// FormatArm returns the arm of a kgllmbench format.
func FormatArm(format string) Arm {
	a := Arm{Name: format, Format: format}
	for _, f := range PaperFormats() {
		a.Paper = a.Paper || f == format
	}
	return a
}

// StudyArms are the benchmark-format arms of the ISOLDA paper's
// KG-LLM-Bench studies (§4.5–4.7): the paper's five formats, then
// rdf_turtle2 and json_ld2 (the variants the benchmark's code also
// writes). The studies' ISOLDA arms are package study's.
func StudyArms() []Arm {
	var arms []Arm
	for _, f := range PaperFormats() {
		arms = append(arms, FormatArm(f))
	}
	return append(arms, FormatArm("rdf_turtle2"), FormatArm("json_ld2"))
}

// Description returns the DESCRIPTION of the benchmark's prompt for a
// format in a language, or "" when there is none.
func Description(lang, format string) string {
	if lang == LangCatalan {
		return descriptionsCA[format]
	}
	if format == FormatISOLDA {
		return DescriptionISOLDA
	}
	return kgllmbench.Description(format)
}

// UserMessage is the whole prompt of a question, sent as the only (user)
// message: in English byte for byte the benchmark's
// structure_prompt(question, text) (kgllmbench.Prompt), in Catalan its
// translation (§4.7).
func UserMessage(lang, format, kgText, question string) string {
	if lang == LangCatalan {
		return promptCA(format, kgText, question)
	}
	if format == FormatISOLDA {
		return kgllmbench.PromptDescribed(DescriptionISOLDA, kgText, question)
	}
	return kgllmbench.Prompt(format, kgText, question)
}

// Template returns the study's prompt for questions of one arm: no system
// message, and UserMessage as the user message.
func Template(lang, format string) task.PromptFunc {
	return func(contextText string, q task.Question) (string, string) {
		return "", UserMessage(lang, format, contextText, q.Text)
	}
}

// Study is the 500 instances of KG-LLM-Bench (five tasks × 100) in one
// variant and language, with their questions: what the ISOLDA paper's
// KG-LLM-Bench studies ask (§4.5–4.7).
type Study struct {
	Variant  string
	Language string
	// Instances are in Tasks() order, then by instance id; in Catalan their
	// labels, questions and answers are the Catalan ones.
	Instances []kgllmbench.Instance
	// Questions are the instances' questions, in the same order; their
	// Family and Task are the KG-LLM-Bench task.
	Questions []task.Question
}

// LoadStudy loads the instances of every task of a variant from dir (the
// folder of <Task>.<variant>.jsonl.gz files: shared/data/kgllmbench/
// instances/instances) as an English study.
func LoadStudy(dir, variant string) (*Study, error) {
	if variant != VariantReal && variant != VariantPseudo {
		return nil, fmt.Errorf("kgllm: unknown variant %q (want %q or %q)", variant, VariantPseudo, VariantReal)
	}
	s := &Study{Variant: variant, Language: LangEnglish}
	for _, t := range Tasks() {
		insts, err := LoadInstances(dir, t, variant)
		if err != nil {
			return nil, err
		}
		for _, inst := range insts {
			if inst.Task != t || inst.Variant != variant {
				return nil, fmt.Errorf("kgllm: %s.%s file holds a %s %s instance", t, variant, inst.Task, inst.Variant)
			}
			q, err := InstanceQuestion(inst)
			if err != nil {
				return nil, err
			}
			q.Meta["language"] = LangEnglish
			q.Meta["instance_key"] = instanceKey(inst)
			s.Instances = append(s.Instances, inst)
			s.Questions = append(s.Questions, q)
		}
	}
	return s, nil
}

// instanceKey pairs the same instance across arms and languages.
func instanceKey(inst kgllmbench.Instance) string {
	return fmt.Sprintf("%s/%s/%03d", inst.Variant, inst.Task, inst.ID)
}

// RDF returns the RDF graph of an instance's rdf_turtle2 text (entities as
// ex:<id> with rdf:type ex:Country and rdfs:label, relations as
// percent-encoded label IRIs): the graph the ISOLDA arms encode.
func RDF(inst kgllmbench.Instance) (*rdf.Dataset, error) {
	var b strings.Builder
	if err := kgllmbench.Textualize(&b, &inst.KG, "rdf_turtle2"); err != nil {
		return nil, err
	}
	d, err := rdfio.Read(strings.NewReader(b.String()), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		return nil, fmt.Errorf("kgllm: %s: rdf_turtle2 does not parse: %w", instanceKey(inst), err)
	}
	return d, nil
}

// Context returns the context of instance i in an arm: the KG text the
// prompt's "Knowledge Graph:" section holds.
func (s *Study) Context(i int, arm Arm) (string, error) {
	inst := s.Instances[i]
	var b strings.Builder
	if err := kgllmbench.Textualize(&b, &inst.KG, arm.Format); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Set returns the frozen question set of one arm: one context per
// instance (its KG text in the arm) and one question per instance, whose
// Meta records the arm, format, language, variant and the instance key
// that pairs it across arms and languages. Question ids are the same in
// every arm.
func (s *Study) Set(arm Arm) (*task.Set, error) {
	set := &task.Set{Name: s.SetName(arm)}
	for i, q := range s.Questions {
		text, err := s.Context(i, arm)
		if err != nil {
			return nil, err
		}
		q = q.WithMeta("arm", arm.Name, "format", arm.Format)
		q.ContextID = q.ID + "-" + arm.Name
		set.Contexts = append(set.Contexts, task.Context{ID: q.ContextID, Text: text, Source: "kgllmbench " + arm.Format})
		set.Questions = append(set.Questions, q)
	}
	set.Counts = taskCounts(set.Questions)
	set.Seal()
	return set, nil
}

// SetName is the name of an arm's set: kgllmbench-<language>-<variant>-<arm>
// ("kgllmbench-en-pseudo-rdf_turtle2").
func (s *Study) SetName(arm Arm) string {
	return "kgllmbench-" + s.Language + "-" + s.Variant + "-" + arm.Name
}

// WriteSets writes the frozen set of each arm to dir as <SetName>.jsonl
// (task.WriteSetFiles) and returns the file names written, in arm order.
func (s *Study) WriteSets(dir string, arms []Arm) ([]string, error) {
	var sets []*task.Set
	for _, arm := range arms {
		set, err := s.Set(arm)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	return task.WriteSetFiles(dir, sets)
}

// Scorer is the scorer of the study's language: the benchmark's strict
// scorer in English (§4.5), the adapted one in Catalan (§4.7).
func (s *Study) Scorer() task.Scorer {
	if s.Language == LangCatalan {
		return Adapted
	}
	return Strict
}

// GoldResponse is the gold answer of a question written as a model
// following the question's instructions would: TripleRetrieval's
// "Yes"/"No" ("Sí"/"No"), ShortestPath's "SHORTEST PATH: [...]" list,
// "Answer: <label>" with the first tied label for HighestDegreeNode, and
// "Answer: <number>" for the aggregations ("Resposta:" in Catalan).
func GoldResponse(q task.Question) string {
	keyword := "Answer: "
	if q.Meta["language"] == LangCatalan {
		keyword = "Resposta: "
	}
	switch q.Task {
	case TripleRetrieval:
		return q.Gold.Text
	case ShortestPath:
		return q.Gold.Value
	case HighestDegreeNode:
		if len(q.Gold.Items) > 0 {
			return keyword + q.Gold.Items[0]
		}
	}
	return keyword + q.Gold.Value
}
