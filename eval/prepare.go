package eval

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
)

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// Context is one rendered context: a graph in the format of an arm, or a
// frozen set's own stored context.
type Context struct {
	Graph    string `json:"graph"`
	Arm      string `json:"arm"`
	Format   string `json:"format"`
	HideName bool   `json:"hide_name,omitempty"`
	// GraphSHA1 is task.DatasetSHA1 of the graph (canonical N-Quads), or
	// the stored context's hash for a set's own context.
	GraphSHA1 string `json:"graph_sha1"`
	// SHA1 is the SHA-1 of Text; File its path in the run folder.
	SHA1 string `json:"sha1"`
	File string `json:"file"`
	Text string `json:"-"`
}

// Entry is one question of the run, asked about one graph.
type Entry struct {
	// Key is unique in the run: task/graph/question id.
	Key    string        `json:"key"`
	Task   string        `json:"task"`
	Graph  string        `json:"graph"`
	Scorer string        `json:"scorer"`
	Q      task.Question `json:"question"`
}

// Params are the request parameters of a run that its answers depend on.
type Params struct {
	Layout      string        `json:"layout"`
	Temperature float64       `json:"temperature"`
	MaxTokens   int           `json:"max_tokens"`
	Seed        *int64        `json:"seed"`
	Trials      int           `json:"trials"`
	Models      []ModelParams `json:"models"`
}

// ModelParams are the parameters of one model recorded in the manifest (the
// base URL, key and prices are not: they may change without changing
// answers).
type ModelParams struct {
	Name      string         `json:"name"`
	Model     string         `json:"model"`
	Tokenizer string         `json:"tokenizer,omitempty"`
	ExtraBody map[string]any `json:"extra_body,omitempty"`
	Stream    bool           `json:"stream,omitempty"`
}

// Manifest describes the frozen inputs of a run folder.
type Manifest struct {
	Version int    `json:"version"`
	RunID   string `json:"run_id"`
	Name    string `json:"name"`
	Params  Params `json:"params"`
	// Contexts are sorted by graph, then arm.
	Contexts []Context `json:"contexts"`
	// Questions is the number of lines of questions.jsonl, QuestionsSHA1
	// the SHA-1 of its bytes.
	Questions     int    `json:"questions"`
	QuestionsSHA1 string `json:"questions_sha1"`
	// Calls is the number of calls of a complete run.
	Calls int `json:"calls"`
}

// Plan is a prepared experiment: every context and question rendered and
// hashed, ready to be frozen and run.
type Plan struct {
	Experiment *Experiment
	Manifest   Manifest
	// Contexts by graph, then arm (as in Manifest).
	Contexts []Context
	// Entries in the order of questions.jsonl.
	Entries []Entry
	// QuestionsJSONL is the content of questions.jsonl.
	QuestionsJSONL []byte
}

func sha1Hex(b []byte) string {
	h := sha1.Sum(b)
	return hex.EncodeToString(h[:])
}

// Prepare loads the graphs and question sets of e (paths relative to
// baseDir), renders every (graph × arm) context and hashes everything. It
// calls no model.
func Prepare(e *Experiment, baseDir string) (*Plan, error) {
	p := &Plan{Experiment: e}
	ctxIdx := map[[2]string]int{}
	addCtx := func(c Context) {
		c.SHA1 = sha1Hex([]byte(c.Text))
		c.File = "contexts/" + c.SHA1 + ".txt"
		ctxIdx[[2]string{c.Graph, c.Arm}] = len(p.Contexts)
		p.Contexts = append(p.Contexts, c)
	}
	datasets := map[string]*rdf.Dataset{}
	for _, g := range e.Graphs {
		path := filepath.Join(baseDir, g.File)
		d, err := rdfio.ReadFile(path, nil, rdfio.Options{ReadOptions: rdf.ReadOptions{File: path}})
		if err != nil {
			return nil, fmt.Errorf("graph %s: %w", g.GraphName(), err)
		}
		datasets[g.GraphName()] = d
		gsha := task.DatasetSHA1(d)
		in := formats.NewInput(d)
		for _, a := range e.Arms {
			text, err := render(a, in, d)
			if err != nil {
				return nil, fmt.Errorf("graph %s, arm %s: %w", g.GraphName(), a.ArmName(), err)
			}
			addCtx(Context{Graph: g.GraphName(), Arm: a.ArmName(), Format: a.Format, HideName: a.HideName, GraphSHA1: gsha, Text: text})
		}
	}
	seen := map[string]bool{}
	addEntry := func(en Entry) error {
		en.Key = en.Task + "/" + en.Graph + "/" + en.Q.ID
		if seen[en.Key] {
			return fmt.Errorf("task %s: question key %q twice", en.Task, en.Key)
		}
		seen[en.Key] = true
		if en.Scorer == "" {
			en.Scorer = defaultScorer(en.Q.Family)
		}
		p.Entries = append(p.Entries, en)
		return nil
	}
	for _, t := range e.Tasks {
		tn := t.TaskName()
		switch {
		case t.Generate != nil:
			var fams []string
			if len(t.Generate.Families) > 0 {
				var err error
				if fams, err = task.ParseFamilies(strings.Join(t.Generate.Families, ",")); err != nil {
					return nil, fmt.Errorf("task %s: %w", tn, err)
				}
			}
			for _, g := range e.Graphs {
				set, err := task.Generate(datasets[g.GraphName()], task.GenerateOptions{
					Families: fams, PerFamily: t.Generate.PerFamily, Seed: t.Generate.Seed, Name: g.GraphName()})
				if err != nil {
					return nil, fmt.Errorf("task %s, graph %s: %w", tn, g.GraphName(), err)
				}
				for _, q := range set.Questions {
					if err := addEntry(Entry{Task: tn, Graph: g.GraphName(), Scorer: t.Scorer, Q: q}); err != nil {
						return nil, err
					}
				}
			}
		default:
			path := filepath.Join(baseDir, t.Set)
			f, err := os.Open(path)
			if err != nil {
				return nil, fmt.Errorf("task %s: %w", tn, err)
			}
			set, err := task.ReadFrozen(f)
			f.Close()
			if err != nil {
				if pe, ok := err.(*rdf.ParseError); ok && pe.File == "" {
					pe.File = path
				}
				return nil, fmt.Errorf("task %s: %w", tn, err)
			}
			own := map[string]string{}
			if t.Graph != "" {
				// A context without text stands for a dataset: it must be
				// the named graph.
				want := task.DatasetSHA1(datasets[t.Graph])
				for _, c := range set.Contexts {
					if c.Text == "" && c.SHA1 != want {
						return nil, fmt.Errorf("task %s: set context %q has SHA-1 %s, graph %s has %s: the set was made from another graph", tn, c.ID, c.SHA1, t.Graph, want)
					}
				}
			} else {
				for _, c := range set.Contexts {
					if c.Text == "" {
						continue
					}
					g := tn + "." + c.ID
					if _, dup := ctxIdx[[2]string{g, SetContextArm}]; !dup {
						addCtx(Context{Graph: g, Arm: SetContextArm, Format: SetContextArm, HideName: true, GraphSHA1: c.SHA1, Text: c.Text})
					}
					own[c.ID] = g
				}
			}
			for _, q := range set.Questions {
				g := t.Graph
				if g == "" {
					var ok bool
					if g, ok = own[q.ContextID]; !ok {
						return nil, fmt.Errorf("task %s: question %s: its context %q has no stored text; name a graph for the set", tn, q.ID, q.ContextID)
					}
				}
				if err := addEntry(Entry{Task: tn, Graph: g, Scorer: t.Scorer, Q: q}); err != nil {
					return nil, err
				}
			}
		}
	}
	sort.SliceStable(p.Contexts, func(i, j int) bool {
		a, b := p.Contexts[i], p.Contexts[j]
		if a.Graph != b.Graph {
			return a.Graph < b.Graph
		}
		return a.Arm < b.Arm
	})
	var buf bytes.Buffer
	for _, en := range p.Entries {
		b, err := json.Marshal(en)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	p.QuestionsJSONL = buf.Bytes()
	m := Manifest{Version: ManifestVersion, Name: e.Name, Contexts: p.Contexts,
		Questions: len(p.Entries), QuestionsSHA1: sha1Hex(p.QuestionsJSONL)}
	m.Params = Params{Layout: e.layout(), Temperature: e.Temperature, MaxTokens: e.MaxTokens, Seed: e.Seed, Trials: e.trials()}
	for _, md := range e.Models {
		m.Params.Models = append(m.Params.Models, ModelParams{Name: md.ModelName(), Model: md.Model, Tokenizer: md.Tokenizer, ExtraBody: md.ExtraBody, Stream: md.Stream})
	}
	perModel := 0
	for _, en := range p.Entries {
		perModel += len(p.armsOf(en))
	}
	m.Calls = perModel * len(e.Models) * e.trials()
	id, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	m.RunID = sha1Hex(id)[:16]
	p.Manifest = m
	return p, nil
}

// armsOf returns the contexts an entry is asked about, one per arm.
func (p *Plan) armsOf(en Entry) []*Context {
	var out []*Context
	for i := range p.Contexts {
		if p.Contexts[i].Graph == en.Graph {
			out = append(out, &p.Contexts[i])
		}
	}
	return out
}

func render(a Arm, in *formats.Input, d *rdf.Dataset) (string, error) {
	if a.Options == nil {
		return formats.EncodeString(a.Format, in)
	}
	o := a.Options
	opts := isolda.Options{Version: o.Version, IDs: o.IDs, Glossary: o.Glossary, Layout: o.Layout, Theta: o.Theta,
		NoConstants: o.NoConstants, NoTypes: o.NoTypes, Continuation: o.Continuation, InlineBlanks: o.InlineBlanks,
		InverseIndex: o.InverseIndex, IRIIDs: o.IRIIDs, DatatypePrefixes: o.DatatypePrefixes}
	if opts.Version == "" {
		switch a.Format {
		case "isolda-0.1":
			opts.Version = "0.1"
		case "isolda-0.3":
			opts.Version = "0.3"
		}
	}
	var b strings.Builder
	if err := isolda.Encode(&b, d, opts); err != nil {
		return "", err
	}
	return b.String(), nil
}

func defaultScorer(family string) string {
	switch {
	case strings.HasPrefix(family, "graphqa"):
		return "graphqa"
	case family == task.FamilyKGLLMBench:
		return "kgllm_strict"
	case family == task.FamilyImpact:
		return "impact"
	}
	return "kg"
}

func scorerOf(name string) task.Scorer {
	switch name {
	case "graphqa":
		return task.ScoreGraphQA
	case "final":
		return task.ScoreFinal
	case "kgllm_strict":
		return task.KGLLMStrict
	case "kgllm_lenient":
		return task.KGLLMLenient
	case "impact":
		return task.ImpactScorer
	}
	return task.ScoreKG
}

// Messages returns the chat messages of an entry asked about a context, in
// the given layout.
func Messages(layout string, c *Context, q task.Question) []llm.Message {
	header := "Knowledge graph"
	switch {
	case c.Arm == SetContextArm:
		header = "Context"
	case !c.HideName:
		header = "Knowledge graph (" + c.Format + " format)"
	}
	data := header + ":\n\n" + c.Text
	if layout == LayoutUser {
		return []llm.Message{{Role: "user", Content: data + "\n\nQuestion: " + q.Text}}
	}
	return []llm.Message{
		{Role: "system", Content: "Answer the question about the data below.\n\n" + data},
		{Role: "user", Content: q.Text},
	}
}
