// Package study holds the experiments of the papers behind isolda as named,
// versioned presets: each writes a complete, editable experiment folder
// (experiment.yaml for package eval, criteria.yaml where the paper
// pre-registered criteria, the frozen question sets and data, and a
// README.md saying what the study is, where each number comes from and what
// deviates from the paper) that runs through the ordinary eval runner and
// report:
//
//	isolda study init kgllmbench DIR --data kgllmbench=PATH
//	isolda eval run DIR/experiment.yaml --out RUN
//	isolda report RUN --criteria DIR/criteria.yaml
//
// The registry (All, Get) is data, like the format registry: every study
// declares its paper section, arms, models and the questions of each part,
// from which the calls per model follow (Study.Calls); Init builds the
// folder.
package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/task/graphrag"
	"github.com/isolda/isolda/task/kg"
	"github.com/isolda/isolda/task/kgllm"
	"github.com/isolda/isolda/task/text2kg"
)

// Study is one experiment of the papers.
type Study struct {
	// Name is the study's name, the contract of `isolda study init`.
	Name string
	// Version numbers the preset: it changes whenever what Init writes
	// changes in a way that changes answers.
	Version int
	// Paper names the paper and section the study comes from.
	Paper string
	// Title is a one-line description.
	Title string
	// Variants are the values --variant takes; the first is the default
	// (empty when the study has none).
	Variants []string
	// Data are the inputs the user gives (--data NAME=PATH).
	Data []DataSlot
	// Parts are the question sets and the arms that read them, per
	// variant when the study has variants (the same for every variant
	// otherwise).
	Parts []Part
	// Models are the paper's models and the arms each read.
	Models []PaperModel
	// Trials is the number of times each question is asked (0 means 1).
	Trials int
	// Criteria names the pre-registered criteria ("" when the paper has
	// none for this study).
	Criteria string

	build func(b *builder) error
	// variant, when set, changes the parts and models of the study for a
	// variant other than the default (see Variant).
	variant func(s *Study, variant string)
}

// Variant returns the study as the named variant defines it (its parts,
// arms and models; the study itself for the default variant or a study
// without variants). The name must be one of Variants.
func (s *Study) Variant(name string) *Study {
	if s.variant == nil || len(s.Variants) == 0 || name == "" || name == s.Variants[0] {
		return s
	}
	c := *s
	c.Parts = slices.Clone(s.Parts)
	for i := range c.Parts {
		c.Parts[i].Arms = slices.Clone(c.Parts[i].Arms)
	}
	c.Models = slices.Clone(s.Models)
	for i := range c.Models {
		c.Models[i].Arms = slices.Clone(c.Models[i].Arms)
	}
	s.variant(&c, name)
	return &c
}

// TotalCalls returns the calls of a complete run over every paper model.
func (s *Study) TotalCalls() int {
	n := 0
	for _, m := range s.Models {
		n += s.Calls(m)
	}
	return n
}

// DataSlot is one input of a study that is not in the repository.
type DataSlot struct {
	// Name is the slot's name in --data NAME=PATH.
	Name string
	// What says what PATH must be, and where to get it.
	What string
	// Optional slots may be left out.
	Optional bool
	// Unit, when set, is the class of the units of an RDF graph that the
	// paper cut to a token budget (§4.1): a graph whose largest encoding
	// among SampleFormats is over SampleBudget o200k tokens is cut to the
	// longest prefix of units that fits (package sample).
	Unit          string
	SampleFormats []string
}

// SampleBudget is the ISOLDA paper's budget for its held-out samples: the
// largest context among all the formats fits in 20,000 o200k tokens (§4.1).
const SampleBudget = 20000

// Part is one question set of a study and the arms asked about it.
type Part struct {
	// Graph is the graph or collection the questions are about.
	Graph string
	// Questions is the number of questions (the paper's figure where the
	// questions depend on the user's data).
	Questions int
	// Arms are the arms that read this part.
	Arms []string
}

// PaperModel is one model of a paper.
type PaperModel struct {
	// Name is the model's name in the run and in criteria.
	Name string
	// Model is the model id sent to the server (a placeholder of the
	// paper's model: replace it with the id your server serves).
	Model string
	// Tokenizer counts tokens locally (a token registry name).
	Tokenizer string
	// BaseURL is the API of a hosted model (empty: PlaceholderURL, for a
	// model the user serves); APIKeyEnv the variable holding its key.
	BaseURL, APIKeyEnv string
	// ExtraBody are the request fields the paper's setting needs
	// (reasoning effort, thinking off or on).
	ExtraBody map[string]any
	// Arms, when set, are the only arms this model reads; Graphs, when
	// set, the only graphs.
	Arms   []string
	Graphs []string
	// Note says what the paper ran (quantization, server).
	Note string
}

// Arms returns the study's arms in the order of its parts, each once.
func (s *Study) Arms() []string {
	var out []string
	for _, p := range s.Parts {
		for _, a := range p.Arms {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Questions returns the number of questions of every part.
func (s *Study) Questions() int {
	n := 0
	for _, p := range s.Parts {
		n += p.Questions
	}
	return n
}

// Calls returns the number of calls of a complete run for a model: over
// the parts the model reads, questions × the arms it reads × trials.
func (s *Study) Calls(m PaperModel) int {
	n := 0
	for _, p := range s.Parts {
		if len(m.Graphs) > 0 && !slices.Contains(m.Graphs, p.Graph) {
			continue
		}
		arms := 0
		for _, a := range p.Arms {
			if len(m.Arms) == 0 || slices.Contains(m.Arms, a) {
				arms++
			}
		}
		n += p.Questions * arms
	}
	return n * max(1, s.Trials)
}

// noThinking disables reasoning on vLLM and other servers of chat
// templates with an enable_thinking switch, as the ISOLDA studies did.
func noThinking() map[string]any {
	return map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}
}

// registry lists the studies in the order of their papers.
func registry() []*Study {
	return []*Study{
		pilotStudy(), confirmatoryStudy(), kgllmbenchStudy(), validationStudy(), catalanStudy(),
		graphqaStudy(), hardenedStudy(), topologyStudy(), graphqaStabilityStudy(), text2kgStudy(), wikidataStudy(), impactStudy(),
	}
}

// Scorings returns the scorer table of the benchmarks the studies ask:
// one row per benchmark package, each declaring its named scorers and the
// families it owns (task.Scoring). The first row's first scorer (kg) is
// the default of the families no row owns. Package eval and the reports
// take this table from their caller (eval.PrepareOptions.Scorers), so
// adding a benchmark with a scorer is its package, its study and one row
// here and one in registry.
func Scorings() task.Scorings {
	return task.Scorings{kg.Scoring(), graphqa.Scoring(), kgllm.Scoring(), graphrag.Scoring(), text2kg.Scoring()}
}

// All returns every study, in the order of the papers.
func All() []*Study { return registry() }

// Get returns the named study.
func Get(name string) (*Study, bool) {
	for _, s := range registry() {
		if s.Name == name {
			return s, true
		}
	}
	return nil, false
}

// Names returns the names of every study.
func Names() []string {
	var out []string
	for _, s := range registry() {
		out = append(out, s.Name)
	}
	return out
}

// errUnknown is the error for an unknown study name.
func errUnknown(name string) error {
	return fmt.Errorf("unknown study %q (one of %s)", name, strings.Join(Names(), ", "))
}
