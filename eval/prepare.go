package eval

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
	"github.com/isolda/isolda/token"
)

// ManifestVersion is the version of the manifest format. Version 2 added
// collections (items), stored arms, prompt templates, per-model arms and
// the round trip of every context.
const ManifestVersion = 2

// Context is one rendered context: a graph (or an item of a collection) in
// the format of an arm, or a frozen set's own stored context.
type Context struct {
	Graph string `json:"graph"`
	// Item is the id of the collection's item; empty for a graph file.
	Item     string `json:"item,omitempty"`
	Arm      string `json:"arm"`
	Format   string `json:"format"`
	HideName bool   `json:"hide_name,omitempty"`
	// GraphSHA1 is kg.DatasetSHA1 of the graph (canonical N-Quads), the
	// SHA-1 of an item's stored text, or the stored context's hash for a
	// set's own context.
	GraphSHA1 string `json:"graph_sha1"`
	// SHA1 is the SHA-1 of Text; File its path in the run folder.
	SHA1 string `json:"sha1"`
	File string `json:"file"`
	Text string `json:"-"`
	// Glossary is the text an arm with glossary: system puts in the
	// system message (empty otherwise).
	Glossary string `json:"glossary,omitempty"`
	// Ordering is the order the records are in: empty for the format's
	// canonical order, else OrderShuffle (with OrderSeed) or OrderBFS
	// (from Anchor, the IRI of the entity the questions asked about this
	// context start from).
	Ordering  string `json:"ordering,omitempty"`
	OrderSeed uint64 `json:"order_seed,omitempty"`
	Anchor    string `json:"anchor,omitempty"`
	// Budget is the token budget (0: none), Policy its policy, Tokenizer
	// the tokenizer that counted Tokens, the size of Text.
	Budget    int    `json:"budget,omitempty"`
	Policy    string `json:"budget_policy,omitempty"`
	Tokenizer string `json:"budget_tokenizer,omitempty"`
	Tokens    int    `json:"tokens,omitempty"`
	// Records and Kept count the records (statements, ISOLDA rows) of the
	// whole rendering and of Text, under the record policy.
	Records int `json:"records,omitempty"`
	Kept    int `json:"kept_records,omitempty"`
	// RoundTrip is the result of decoding Text when the arm's format is
	// lossless (one of the RoundTrip* values; empty for lossy formats,
	// stored arms and sets' own contexts), RoundTripDetail says why it is
	// not RoundTripIsomorphic.
	RoundTrip       string `json:"round_trip,omitempty"`
	RoundTripDetail string `json:"round_trip_detail,omitempty"`
}

// Round trip results of a context of a lossless format.
const (
	// RoundTripIsomorphic: the text decodes to a dataset isomorphic to the
	// graph (or, for a cropped ISOLDA document, to its crop), or to a
	// labelled graph with the same nodes and edges.
	RoundTripIsomorphic = "isomorphic"
	// RoundTripDiffers: the text decodes to something else.
	RoundTripDiffers = "differs"
	// RoundTripDecodeError: the text does not decode.
	RoundTripDecodeError = "decode_error"
	// RoundTripCut: the text was cut to a token budget, so it holds less
	// than the graph by design; it is not compared.
	RoundTripCut = "cut"
)

// OrderingName returns the context's ordering: "canonical" when empty.
func (c *Context) OrderingName() string {
	if c.Ordering == "" {
		return OrderCanonical
	}
	return c.Ordering
}

// ctxKey identifies a context of a plan.
type ctxKey struct{ graph, item, arm, anchor, tokenizer string }

func (c *Context) key() ctxKey { return ctxKey{c.Graph, c.Item, c.Arm, c.Anchor, c.Tokenizer} }

func compareCtxKeys(a, b ctxKey) int {
	return strings.Compare(a.graph+"\x00"+a.item+"\x00"+a.arm+"\x00"+a.anchor+"\x00"+a.tokenizer,
		b.graph+"\x00"+b.item+"\x00"+b.arm+"\x00"+b.anchor+"\x00"+b.tokenizer)
}

// Entry is one question of the run, asked about one graph.
type Entry struct {
	// Key is unique in the run: task/graph/question id.
	Key   string `json:"key"`
	Task  string `json:"task"`
	Graph string `json:"graph"`
	// Item is the collection's item the question is about (empty for a
	// graph file).
	Item   string        `json:"item,omitempty"`
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
	// Prompts are the templates of the experiment, its tasks and its arms
	// (ScopedPrompt.Scope "experiment", "task NAME", "arm NAME"), in that
	// order; ArmVars the variables of the arms that have some.
	Prompts []ScopedPrompt               `json:"prompts,omitempty"`
	ArmVars map[string]map[string]string `json:"arm_vars,omitempty"`
}

// ScopedPrompt is a template and where it applies.
type ScopedPrompt struct {
	Scope  string `json:"scope"`
	System string `json:"system,omitempty"`
	User   string `json:"user"`
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
	Arms      []string       `json:"arms,omitempty"`
	Graphs    []string       `json:"graphs,omitempty"`
}

// Manifest describes the frozen inputs of a run folder.
type Manifest struct {
	Version int    `json:"version"`
	RunID   string `json:"run_id"`
	Name    string `json:"name"`
	Params  Params `json:"params"`
	// Contexts are sorted by graph, item, arm, anchor and tokenizer.
	Contexts []Context `json:"contexts"`
	// Questions is the number of lines of questions.jsonl, QuestionsSHA1
	// the SHA-1 of its bytes.
	Questions     int    `json:"questions"`
	QuestionsSHA1 string `json:"questions_sha1"`
	// Calls is the number of calls of a complete run.
	Calls int `json:"calls"`
	// Arms describe the arms for reports. Like RunID they are not part of
	// the hashed manifest (the contexts pin what each arm rendered), so
	// manifests written before they existed stay valid.
	Arms []ArmInfo `json:"arms,omitempty"`
}

// ArmInfo is an arm as the experiment file defined it.
type ArmInfo struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	// Options are the ISOLDA options set, as "name=value" words in the
	// experiment file's names ("glossary=legend inline_blanks").
	Options  string `json:"options,omitempty"`
	HideName bool   `json:"hide_name,omitempty"`
}

// Plan is a prepared experiment: every context and question rendered and
// hashed, ready to be frozen and run.
type Plan struct {
	Experiment *Experiment
	Manifest   Manifest
	// Contexts by graph, item, then arm (as in Manifest).
	Contexts []Context
	// Entries in the order of questions.jsonl.
	Entries []Entry
	// QuestionsJSONL is the content of questions.jsonl.
	QuestionsJSONL []byte
	// Scorers is the scorer table the plan was prepared with: every
	// entry's Scorer is one of its names.
	Scorers task.Scorings

	index     map[ctxKey]int       // Contexts by key
	anchors   []string             // the anchor of each entry ("" when none)
	arms      []Arm                // the arms, by name
	armByName map[string]*Arm      // the arms of the experiment
	templates map[string]*template // compiled templates by scope ("", "task NAME", "arm NAME")
}

// PrepareOptions configure PrepareWith.
type PrepareOptions struct {
	// Tokenizers resolves the tokenizers of budgets (nil: a registry with
	// default options).
	Tokenizers *token.Registry
	// Progress, when set, is called after each graph or item rendered by
	// an arm with the number rendered and the number to render.
	Progress func(done, total int)
	// Phase, when set, is called with what PrepareWith starts doing
	// ("reading graph NAME", "rendering contexts", …) at each step, so
	// that a caller can say what a long preparation is busy with.
	Phase func(what string)
	// Scorers is the scorer table (study.Scorings in the command line):
	// the names a task's scorer may take (another name is an error) and
	// the default scorer of each question family. It is required.
	Scorers task.Scorings
}

// Prepare is PrepareWith with default options and the scorer table
// scorers.
func Prepare(e *Experiment, baseDir string, scorers task.Scorings) (*Plan, error) {
	return PrepareWith(e, baseDir, PrepareOptions{Scorers: scorers})
}

// PrepareWith loads the graphs and question sets of e (paths relative to
// baseDir), renders every (graph or item × arm) context in the arm's
// ordering (for OrderBFS, one per anchor entity of the graph's questions)
// and cut to the arm's budget (one per tokenizer counting it), decodes
// every context of a lossless format and compares it with its graph
// (Context.RoundTrip), and hashes everything. It calls no model.
func PrepareWith(e *Experiment, baseDir string, opts PrepareOptions) (*Plan, error) {
	reg := opts.Tokenizers
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	phase := opts.Phase
	if phase == nil {
		phase = func(string) {}
	}
	if len(opts.Scorers.Names()) == 0 {
		return nil, errors.New("eval: no scorer table (PrepareOptions.Scorers)")
	}
	if err := e.CheckScorers(opts.Scorers); err != nil {
		return nil, err
	}
	p := &Plan{Experiment: e, Scorers: opts.Scorers, index: map[ctxKey]int{}, armByName: map[string]*Arm{}, templates: map[string]*template{}}
	for i := range e.Arms {
		p.armByName[e.Arms[i].ArmName()] = &e.Arms[i]
	}
	if err := p.compileTemplates(); err != nil {
		return nil, err
	}
	addCtx := func(c Context) {
		c.SHA1 = task.SHA1Hex(c.Text)
		c.File = "contexts/" + c.SHA1 + ".txt"
		p.index[c.key()] = len(p.Contexts)
		p.Contexts = append(p.Contexts, c)
	}
	sources := map[string]*source{}
	for _, g := range e.Graphs {
		phase("reading graph " + g.GraphName())
		src, err := loadSource(g, baseDir)
		if err != nil {
			return nil, err
		}
		sources[g.GraphName()] = src
	}
	phase("reading the questions")
	if err := p.addEntries(sources, baseDir, addCtx); err != nil {
		return nil, err
	}

	// The anchor of every entry asked about an RDF graph, and the anchors
	// of each graph or item.
	p.anchors = make([]string, len(p.Entries))
	itemAnchors := map[*item]map[string]bool{}
	subjects := map[*item]map[string]bool{}
	for i, en := range p.Entries {
		src := sources[en.Graph]
		if src == nil {
			continue
		}
		it := src.byID[en.Item]
		if it == nil || it.d == nil {
			continue
		}
		if subjects[it] == nil {
			subjects[it] = subjectIRIs(it.d)
			itemAnchors[it] = map[string]bool{}
		}
		p.anchors[i] = anchorOf(en.Q, subjects[it])
		itemAnchors[it][p.anchors[i]] = true
	}

	p.arms = slices.Clone(e.Arms)
	slices.SortStableFunc(p.arms, func(a, b Arm) int { return strings.Compare(a.ArmName(), b.ArmName()) })
	stored := map[string]map[string]task.Context{}
	for _, a := range p.arms {
		if a.Stored == "" {
			continue
		}
		phase("reading the stored contexts of arm " + a.ArmName())
		set, err := readSet(baseDir, a.Stored)
		if err != nil {
			return nil, fmt.Errorf("arm %s: %w", a.ArmName(), err)
		}
		m := make(map[string]task.Context, len(set.Contexts))
		for _, c := range set.Contexts {
			m[c.ID] = c
		}
		stored[a.ArmName()] = m
	}
	renders, rendered := 0, 0
	for _, g := range e.Graphs {
		for _, a := range p.arms {
			if a.rendersGraph(sources[g.GraphName()].name) {
				renders += len(sources[g.GraphName()].items)
			}
		}
	}
	phase("rendering contexts")
	for _, g := range e.Graphs {
		src := sources[g.GraphName()]
		for _, a := range p.arms {
			if !a.rendersGraph(src.name) {
				continue
			}
			for _, it := range src.items {
				if opts.Progress != nil {
					opts.Progress(rendered, renders)
				}
				rendered++
				if a.Stored != "" {
					sc, ok := stored[a.ArmName()][it.id]
					if !ok {
						return nil, fmt.Errorf("arm %s: %s has no context for item %s of graph %s", a.ArmName(), a.Stored, it.id, src.name)
					}
					addCtx(Context{Graph: src.name, Item: it.id, Arm: a.ArmName(), Format: a.formatLabel(), HideName: a.HideName,
						GraphSHA1: it.sha1, Text: sc.Text})
					continue
				}
				cs, err := p.renderArm(a, src, it, itemAnchors[it], reg)
				if err != nil {
					return nil, err
				}
				for _, c := range cs {
					addCtx(c)
				}
			}
		}
	}
	phase("hashing the contexts and questions")
	slices.SortStableFunc(p.Contexts, func(a, b Context) int { return compareCtxKeys(a.key(), b.key()) })
	for i := range p.Contexts {
		p.index[p.Contexts[i].key()] = i
	}
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
		Questions: len(p.Entries), QuestionsSHA1: task.SHA1Hex(string(p.QuestionsJSONL))}
	m.Params = Params{Layout: e.layout(), Temperature: e.Temperature, MaxTokens: e.MaxTokens, Seed: e.Seed, Trials: e.NumTrials(),
		Prompts: p.scopedPrompts()}
	for _, a := range p.arms {
		if len(a.Vars) > 0 {
			if m.Params.ArmVars == nil {
				m.Params.ArmVars = map[string]map[string]string{}
			}
			m.Params.ArmVars[a.ArmName()] = a.Vars
		}
	}
	for _, md := range e.Models {
		m.Params.Models = append(m.Params.Models, ModelParams{Name: md.ModelName(), Model: md.Model, Tokenizer: md.Tokenizer,
			ExtraBody: md.ExtraBody, Stream: md.Stream, Arms: md.Arms, Graphs: md.Graphs})
	}
	for _, md := range e.Models {
		for i := range p.Entries {
			m.Calls += len(p.ContextsFor(i, md)) * e.NumTrials()
		}
	}
	// Every question must be asked at least once, and have the Meta its
	// arms' templates use.
	for i := range p.Entries {
		asked := false
		for _, md := range e.Models {
			cs := p.ContextsFor(i, md)
			asked = asked || len(cs) > 0
			for _, c := range cs {
				if t := p.templateOf(&p.Entries[i], c); t != nil {
					for _, n := range t.vars(phMeta) {
						if _, ok := p.Entries[i].Q.Meta[n]; !ok {
							return nil, fmt.Errorf("arm %s: its prompt uses {{meta.%s}}, and question %s has no such meta", c.Arm, n, p.Entries[i].Key)
						}
					}
				}
			}
		}
		if !asked {
			return nil, fmt.Errorf("question %s is asked by no arm of any model (check the arms' graphs and the models' arms)", p.Entries[i].Key)
		}
	}
	id, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	m.RunID = task.SHA1Hex(string(id))[:16]
	for _, a := range e.Arms {
		m.Arms = append(m.Arms, ArmInfo{Name: a.ArmName(), Format: a.Format, Options: a.Options.String(), HideName: a.HideName})
	}
	p.Manifest = m
	return p, nil
}

// addEntries reads or generates the questions of every task.
func (p *Plan) addEntries(sources map[string]*source, baseDir string, addCtx func(Context)) error {
	e := p.Experiment
	seen := map[string]bool{}
	addEntry := func(en Entry) error {
		en.Key = en.Task + "/" + en.Graph + "/" + en.Q.ID
		if seen[en.Key] {
			return fmt.Errorf("task %s: question key %q twice", en.Task, en.Key)
		}
		seen[en.Key] = true
		if en.Scorer == "" {
			en.Scorer = p.Scorers.Default(en.Q.Family)
		}
		p.Entries = append(p.Entries, en)
		return nil
	}
	for _, t := range e.Tasks {
		tn := t.TaskName()
		if t.Generate != nil {
			var fams []string
			if len(t.Generate.Families) > 0 {
				var err error
				if fams, err = kg.ParseFamilies(strings.Join(t.Generate.Families, ",")); err != nil {
					return fmt.Errorf("task %s: %w", tn, err)
				}
			}
			for _, g := range e.Graphs {
				src := sources[g.GraphName()]
				if src.collection {
					continue // generate asks about graph files
				}
				set, err := kg.Generate(src.items[0].d, kg.Options{
					Families: fams, PerFamily: t.Generate.PerFamily, Seed: t.Generate.Seed, Name: g.GraphName()})
				if err != nil {
					return fmt.Errorf("task %s, graph %s: %w", tn, g.GraphName(), err)
				}
				for _, q := range set.Questions {
					if err := addEntry(Entry{Task: tn, Graph: g.GraphName(), Scorer: t.Scorer, Q: q}); err != nil {
						return err
					}
				}
			}
			continue
		}
		set, err := readSet(baseDir, t.Set)
		if err != nil {
			return fmt.Errorf("task %s: %w", tn, err)
		}
		own := map[string]string{}
		src := sources[t.Graph]
		switch {
		case src != nil && src.collection:
			// Every question is about the item its context id names; a
			// context the set describes must be that item.
			for _, c := range set.Contexts {
				if it := src.byID[c.ID]; it != nil && c.SHA1 != it.sha1 {
					return fmt.Errorf("task %s: set context %q has SHA-1 %s, item %s of %s has %s: the set was made from another collection", tn, c.ID, c.SHA1, c.ID, t.Graph, it.sha1)
				}
			}
		case src != nil:
			// A context without text stands for a dataset: it must be the
			// named graph.
			for _, c := range set.Contexts {
				if c.Text == "" && c.SHA1 != src.items[0].sha1 {
					return fmt.Errorf("task %s: set context %q has SHA-1 %s, graph %s has %s: the set was made from another graph", tn, c.ID, c.SHA1, t.Graph, src.items[0].sha1)
				}
			}
		default:
			for _, c := range set.Contexts {
				if c.Text == "" {
					continue
				}
				g := tn + "." + c.ID
				if _, dup := p.index[ctxKey{graph: g, arm: SetContextArm}]; !dup {
					addCtx(Context{Graph: g, Arm: SetContextArm, Format: SetContextArm, HideName: true, GraphSHA1: c.SHA1, Text: c.Text})
				}
				own[c.ID] = g
			}
		}
		for _, q := range set.Questions {
			en := Entry{Task: tn, Graph: t.Graph, Scorer: t.Scorer, Q: q}
			switch {
			case src != nil && src.collection:
				if src.byID[q.ContextID] == nil {
					return fmt.Errorf("task %s: question %s: its context %q is not an item of %s", tn, q.ID, q.ContextID, t.Graph)
				}
				en.Item = q.ContextID
			case src == nil:
				g, ok := own[q.ContextID]
				if !ok {
					return fmt.Errorf("task %s: question %s: its context %q has no stored text; name a graph for the set", tn, q.ID, q.ContextID)
				}
				en.Graph = g
			}
			if err := addEntry(en); err != nil {
				return err
			}
		}
	}
	return nil
}

// renderArm renders one graph or item in an arm: one context per anchor
// (ordering bfs) and per tokenizer counting its budget.
func (p *Plan) renderArm(a Arm, src *source, it *item, anchorSet map[string]bool, reg *token.Registry) ([]Context, error) {
	e := p.Experiment
	where := "graph " + src.name
	if src.collection {
		where += " item " + it.id
	}
	ord := e.orderingOf(a)
	anchors := []string{""}
	if ord.Kind == OrderBFS {
		anchors = slices.Sorted(maps.Keys(anchorSet))
		if len(anchors) == 0 {
			anchors = []string{""}
		}
	}
	b := e.budgetOf(a)
	toks := []string{""}
	if b != nil {
		toks = budgetTokenizers(b, e.Models)
	}
	f, _ := formats.Get(a.Format)
	var out []Context
	for _, anchor := range anchors {
		base := Context{Graph: src.name, Item: it.id, Arm: a.ArmName(), Format: a.Format, HideName: a.HideName, GraphSHA1: it.sha1, Anchor: anchor}
		text, err := renderOrdered(a, ord, it.in, it.d, anchor)
		if err != nil {
			return nil, fmt.Errorf("%s, arm %s: %w", where, a.ArmName(), err)
		}
		if a.Options != nil && a.Options.Glossary == GlossarySystem {
			// The glossary goes to the system message, the body (which
			// decodes alone) is the context.
			p := isolda.SplitParts(text)
			base.Glossary, text = p.Glossary, p.Body
		}
		switch {
		case ord.Kind == OrderShuffle:
			base.Ordering, base.OrderSeed = OrderShuffle, ord.Seed
		case ord.Kind == OrderBFS && anchor != "":
			base.Ordering = OrderBFS
		}
		for _, tn := range toks {
			c := base
			c.Text = text
			if b != nil {
				tok, err := reg.Get(tn)
				if err != nil {
					return nil, fmt.Errorf("arm %s: budget tokenizer: %w", a.ArmName(), err)
				}
				if it.d == nil {
					return nil, fmt.Errorf("%s, arm %s: budgets need an RDF graph", where, a.ArmName())
				}
				ct, err := applyBudget(text, a.Format, it.d, b, tok)
				if err != nil {
					return nil, fmt.Errorf("%s, arm %s, tokenizer %s: %w", where, a.ArmName(), tn, err)
				}
				c.Text, c.Budget, c.Policy, c.Tokenizer = ct.text, b.Tokens, b.policy(), tn
				c.Tokens, c.Records, c.Kept = ct.tokens, ct.records, ct.kept
			}
			if f.Lossless && (f.Decode != nil || f.DecodeGraph != nil) {
				if c.Budget > 0 && c.Text != text {
					c.RoundTrip = RoundTripCut
				} else {
					c.RoundTrip, c.RoundTripDetail = roundTrip(f, c.Text, it, a.isoldaOptions(anchor))
				}
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// rendersGraph reports whether the arm renders the named graph.
func (a Arm) rendersGraph(g string) bool { return len(a.Graphs) == 0 || slices.Contains(a.Graphs, g) }

// formatLabel is the format of a stored arm: its Format, else its name.
func (a Arm) formatLabel() string {
	if a.Format != "" {
		return a.Format
	}
	return a.ArmName()
}

// compileTemplates compiles the templates of the experiment, its tasks and
// its arms.
func (p *Plan) compileTemplates() error {
	e := p.Experiment
	add := func(scope string, pr *Prompt) error {
		if pr == nil {
			return nil
		}
		t, err := pr.compile()
		if err != nil {
			return fmt.Errorf("%s: %w", cmp.Or(scope, "experiment"), err)
		}
		p.templates[scope] = t
		return nil
	}
	if err := add("", e.Prompt); err != nil {
		return err
	}
	for _, t := range e.Tasks {
		if err := add("task "+t.TaskName(), t.Prompt); err != nil {
			return err
		}
	}
	for _, a := range e.Arms {
		if err := add("arm "+a.ArmName(), a.Prompt); err != nil {
			return err
		}
	}
	return nil
}

// templateOf returns the template of entry en asked about context c: the
// arm's, else the task's, else the experiment's; nil for the built-in
// prompt.
func (p *Plan) templateOf(en *Entry, c *Context) *template {
	for _, scope := range []string{"arm " + c.Arm, "task " + en.Task, ""} {
		if t := p.templates[scope]; t != nil {
			return t
		}
	}
	return nil
}

// scopedPrompts lists the templates of the plan for the manifest.
func (p *Plan) scopedPrompts() []ScopedPrompt {
	var out []ScopedPrompt
	e := p.Experiment
	if e.Prompt != nil {
		out = append(out, ScopedPrompt{Scope: "experiment", System: e.Prompt.System, User: e.Prompt.User})
	}
	for _, t := range e.Tasks {
		if t.Prompt != nil {
			out = append(out, ScopedPrompt{Scope: "task " + t.TaskName(), System: t.Prompt.System, User: t.Prompt.User})
		}
	}
	for _, a := range p.arms {
		if a.Prompt != nil {
			out = append(out, ScopedPrompt{Scope: "arm " + a.ArmName(), System: a.Prompt.System, User: a.Prompt.User})
		}
	}
	return out
}

// Messages returns the messages of entry en asked about context c, as the
// run sends them: its template filled in, or the built-in prompt of the
// layout.
func (p *Plan) Messages(en *Entry, c *Context) ([]llm.Message, error) {
	a := p.armByName[c.Arm]
	if a == nil {
		a = &Arm{Name: c.Arm}
	}
	if t := p.templateOf(en, c); t != nil {
		return t.render(c, a, en.Q)
	}
	msgs := Messages(p.Experiment.layout(), c, en.Q)
	if c.Glossary != "" {
		if msgs[0].Role == "system" {
			msgs[0].Content = c.Glossary + msgs[0].Content
		} else {
			msgs = append([]llm.Message{{Role: "system", Content: c.Glossary}}, msgs...)
		}
	}
	return msgs, nil
}

// ContextsFor returns the contexts entry i is asked about when it is sent
// to model m: one per arm the model reads, by arm name, or the entry's own
// stored context.
func (p *Plan) ContextsFor(i int, m Model) []*Context {
	en := &p.Entries[i]
	if k, ok := p.index[ctxKey{graph: en.Graph, arm: SetContextArm}]; ok {
		return []*Context{&p.Contexts[k]}
	}
	e := p.Experiment
	if len(m.Graphs) > 0 && !slices.Contains(m.Graphs, en.Graph) {
		return nil
	}
	out := make([]*Context, 0, len(p.arms))
	for _, a := range p.arms {
		if len(m.Arms) > 0 && !slices.Contains(m.Arms, a.ArmName()) {
			continue
		}
		k := ctxKey{graph: en.Graph, item: en.Item, arm: a.ArmName()}
		if e.orderingOf(a).Kind == OrderBFS {
			k.anchor = p.anchors[i]
		}
		if b := e.budgetOf(a); b != nil {
			k.tokenizer = b.Tokenizer
			if k.tokenizer == "" {
				k.tokenizer = m.Tokenizer
			}
		}
		if ci, ok := p.index[k]; ok {
			out = append(out, &p.Contexts[ci])
		}
	}
	return out
}

// budgetTokenizers returns the tokenizers that count a budget: its own, or
// every model's, sorted.
func budgetTokenizers(b *Budget, models []Model) []string {
	if b.Tokenizer != "" {
		return []string{b.Tokenizer}
	}
	set := map[string]bool{}
	for _, m := range models {
		set[m.Tokenizer] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// anchorKeys are the Meta keys of the KG question generator that name the
// entities a question is about, in order of preference.
var anchorKeys = []string{"subject", "object", "via", "type"}

// anchorOf returns the anchor entity of a question: the first IRI its Meta
// names under anchorKeys that is the subject of a statement of the graph,
// or "" when there is none (the task gives no anchor).
func anchorOf(q task.Question, subjects map[string]bool) string {
	for _, k := range anchorKeys {
		if v := q.Meta[k]; v != "" && subjects[v] {
			return v
		}
	}
	return ""
}

// subjectIRIs returns the IRIs that are the subject of a statement of d.
func subjectIRIs(d *rdf.Dataset) map[string]bool {
	out := map[string]bool{}
	for _, q := range d.IDQuads() {
		if t := d.Term(q[0]); t.Kind == rdf.IRIKind {
			out[t.Value] = true
		}
	}
	return out
}

// renderOrdered renders a graph in an arm's format and ordering. For
// OrderBFS without an anchor it is the canonical rendering.
func renderOrdered(a Arm, ord Ordering, in *formats.Input, d *rdf.Dataset, anchor string) (string, error) {
	if ord.Kind == OrderBFS && anchor != "" && isISOLDA(a.Format) {
		return render(a, in, d, anchor)
	}
	text, err := render(a, in, d, "")
	if err != nil {
		return "", err
	}
	if ord.Kind == OrderCanonical || (ord.Kind == OrderBFS && anchor == "") {
		return text, nil
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		// Records move: each must end its line.
		text += "\n"
	}
	switch {
	case ord.Kind == OrderShuffle:
		dc := splitDoc(text, a.Format)
		dc.shuffle(ord.Seed)
		return dc.String(), nil
	case ord.Kind == OrderBFS:
		f, _ := formats.Get(a.Format)
		if f.Decode == nil {
			return "", fmt.Errorf("ordering %s: format %s has no decoder", OrderBFS, a.Format)
		}
		dc := splitDoc(text, a.Format)
		if err := dc.bfsLines(f, rdf.NewIRI(anchor)); err != nil {
			return "", err
		}
		return dc.String(), nil
	}
	return text, nil
}

// applyBudget cuts a rendered (and ordered) text to a budget.
func applyBudget(text, format string, d *rdf.Dataset, b *Budget, tok token.Tokenizer) (cut, error) {
	if n := tok.Count(text); n <= b.Tokens {
		c := cut{text: text, tokens: n}
		if b.policy() == PolicyRecord && slices.Contains(orderable, format) {
			c.records = len(splitDoc(text, format).records())
			c.kept = c.records
		} else if b.policy() == PolicyRecord {
			c.records, c.kept = d.Len(), d.Len()
		}
		return c, nil
	}
	switch {
	case b.policy() == PolicyRaw:
		return cutRaw(text, tok, b.Tokens), nil
	case slices.Contains(orderable, format):
		return cutRecords(splitDoc(text, format), tok, b.Tokens)
	default:
		return cutStatements(format, d, tok, b.Tokens)
	}
}

// isoldaOptions returns the encoder options of an arm of an isolda format
// (CLI names, see IsoldaOptions), with anchor (a question's, under ordering
// bfs) when the arm fixes none.
func (a Arm) isoldaOptions(anchor string) isolda.Options {
	var opts isolda.Options
	if o := a.Options; o != nil {
		opts = isolda.Options{Version: o.Spec, IDs: o.IDs, NoConstants: o.NoConstants, NoTypes: o.NoTypes,
			Glossary: o.Glossary, InverseIndex: o.InverseIndex, Layout: o.Layout, Theta: o.Theta,
			Continuation: o.Continuation, InlineBlanks: o.InlineBnodes, Anchor: o.Anchor, Hops: o.Hops,
			NoPreferredLanguage: o.NoPreferredLanguage, NoRowLabelIDs: o.NoRowLabelIDs,
			NoTermAliases: o.NoTermAliases, NoVocabPrefix: o.NoVocabPrefix,
			IRIIDs: o.IRIIDs, DatatypePrefixes: o.DatatypePrefixes}
	}
	if opts.Glossary == GlossarySystem {
		opts.Glossary = isolda.GlossaryFull // split off after rendering
	}
	if opts.Anchor == "" {
		opts.Anchor = anchor
	}
	if opts.Anchor == "" {
		opts.Hops = 0 // bfs without an anchor: the whole graph
	}
	if v, ok := pinnedVersion(a.Format); ok {
		opts.Version = v // a pinned version wins over the arm's spec option
	}
	return opts
}

// pinnedVersion returns the ISOLDA version a format pins (isolda-0.2 pins
// 0.2: formats.Format.Pinned). The format of the notation's default
// version (isolda) pins none: its version is the arm's spec option, the
// default when that is empty.
func pinnedVersion(format string) (string, bool) {
	f, ok := formats.Get(format)
	if !ok || !f.Pinned {
		return "", false
	}
	return f.Version, true
}

// render renders a graph in an arm's format; anchor, for an ISOLDA
// format, starts the document from that entity (isolda.Options.Anchor).
func render(a Arm, in *formats.Input, d *rdf.Dataset, anchor string) (string, error) {
	if a.Options == nil && anchor == "" {
		return formats.EncodeString(a.Format, in)
	}
	if d == nil {
		return "", formats.ErrNoDataset
	}
	var b strings.Builder
	if err := isolda.Encode(&b, d, a.isoldaOptions(anchor)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// resolvePath resolves a file named in an experiment: an absolute path as
// it is, a relative one against the experiment file's folder.
func resolvePath(baseDir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(baseDir, name)
}
