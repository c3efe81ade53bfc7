package eval

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/task/graphrag"
	"github.com/isolda/isolda/task/kg"
	"github.com/isolda/isolda/task/kgllm"
	"github.com/isolda/isolda/token"
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
	// GraphSHA1 is kg.DatasetSHA1 of the graph (canonical N-Quads), or
	// the stored context's hash for a set's own context.
	GraphSHA1 string `json:"graph_sha1"`
	// SHA1 is the SHA-1 of Text; File its path in the run folder.
	SHA1 string `json:"sha1"`
	File string `json:"file"`
	Text string `json:"-"`
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
}

// OrderingName returns the context's ordering: "canonical" when empty.
func (c *Context) OrderingName() string {
	if c.Ordering == "" {
		return OrderCanonical
	}
	return c.Ordering
}

// ctxKey identifies a context of a plan.
type ctxKey struct{ graph, arm, anchor, tokenizer string }

func (c *Context) key() ctxKey { return ctxKey{c.Graph, c.Arm, c.Anchor, c.Tokenizer} }

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
	// Contexts by graph, then arm (as in Manifest).
	Contexts []Context
	// Entries in the order of questions.jsonl.
	Entries []Entry
	// QuestionsJSONL is the content of questions.jsonl.
	QuestionsJSONL []byte

	index   map[ctxKey]int // Contexts by key
	anchors []string       // the anchor of each entry ("" when none)
	arms    []Arm          // the arms, by name
}

// PrepareOptions configure PrepareWith.
type PrepareOptions struct {
	// Tokenizers resolves the tokenizers of budgets (nil: a registry with
	// default options).
	Tokenizers *token.Registry
}

func sha1Hex(b []byte) string {
	h := sha1.Sum(b)
	return hex.EncodeToString(h[:])
}

// Prepare is PrepareWith with default options.
func Prepare(e *Experiment, baseDir string) (*Plan, error) {
	return PrepareWith(e, baseDir, PrepareOptions{})
}

// PrepareWith loads the graphs and question sets of e (paths relative to
// baseDir), renders every (graph × arm) context in the arm's ordering (for
// OrderBFS, one per anchor entity of the graph's questions) and cut to the
// arm's budget (one per tokenizer counting it), and hashes everything. It
// calls no model.
func PrepareWith(e *Experiment, baseDir string, opts PrepareOptions) (*Plan, error) {
	reg := opts.Tokenizers
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	p := &Plan{Experiment: e, index: map[ctxKey]int{}}
	addCtx := func(c Context) {
		c.SHA1 = sha1Hex([]byte(c.Text))
		c.File = "contexts/" + c.SHA1 + ".txt"
		p.index[c.key()] = len(p.Contexts)
		p.Contexts = append(p.Contexts, c)
	}
	datasets := map[string]*rdf.Dataset{}
	for _, g := range e.Graphs {
		path := resolvePath(baseDir, g.File)
		d, err := rdfio.ReadFile(path, nil, rdfio.Options{ReadOptions: rdf.ReadOptions{File: path}})
		if err != nil {
			return nil, fmt.Errorf("graph %s: %w", g.GraphName(), err)
		}
		datasets[g.GraphName()] = d
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
				if fams, err = kg.ParseFamilies(strings.Join(t.Generate.Families, ",")); err != nil {
					return nil, fmt.Errorf("task %s: %w", tn, err)
				}
			}
			for _, g := range e.Graphs {
				set, err := kg.Generate(datasets[g.GraphName()], kg.Options{
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
			path := resolvePath(baseDir, t.Set)
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
				want := kg.DatasetSHA1(datasets[t.Graph])
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
					if _, dup := p.index[ctxKey{graph: g, arm: SetContextArm}]; !dup {
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

	// The anchor of every entry asked about a graph, and the anchors of
	// each graph.
	p.anchors = make([]string, len(p.Entries))
	graphAnchors := map[string]map[string]bool{}
	for _, g := range e.Graphs {
		graphAnchors[g.GraphName()] = map[string]bool{}
	}
	subjects := map[string]map[string]bool{}
	for i, en := range p.Entries {
		d := datasets[en.Graph]
		if d == nil {
			continue
		}
		if subjects[en.Graph] == nil {
			subjects[en.Graph] = subjectIRIs(d)
		}
		p.anchors[i] = anchorOf(en.Q, subjects[en.Graph])
		graphAnchors[en.Graph][p.anchors[i]] = true
	}

	p.arms = slices.Clone(e.Arms)
	slices.SortStableFunc(p.arms, func(a, b Arm) int { return strings.Compare(a.ArmName(), b.ArmName()) })
	for _, g := range e.Graphs {
		d := datasets[g.GraphName()]
		gsha := kg.DatasetSHA1(d)
		in := formats.NewInput(d)
		for _, a := range p.arms {
			ord := e.orderingOf(a)
			anchors := []string{""}
			if ord.Kind == OrderBFS {
				anchors = sortedKeys(graphAnchors[g.GraphName()])
				if len(anchors) == 0 {
					anchors = []string{""}
				}
			}
			b := e.budgetOf(a)
			toks := []string{""}
			if b != nil {
				toks = budgetTokenizers(b, e.Models)
			}
			for _, anchor := range anchors {
				base := Context{Graph: g.GraphName(), Arm: a.ArmName(), Format: a.Format, HideName: a.HideName, GraphSHA1: gsha, Anchor: anchor}
				text, err := renderOrdered(a, ord, in, d, anchor)
				if err != nil {
					return nil, fmt.Errorf("graph %s, arm %s: %w", g.GraphName(), a.ArmName(), err)
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
						ct, err := applyBudget(text, a.Format, d, b, tok)
						if err != nil {
							return nil, fmt.Errorf("graph %s, arm %s, tokenizer %s: %w", g.GraphName(), a.ArmName(), tn, err)
						}
						c.Text, c.Budget, c.Policy, c.Tokenizer = ct.text, b.Tokens, b.policy(), tn
						c.Tokens, c.Records, c.Kept = ct.tokens, ct.records, ct.kept
					}
					addCtx(c)
				}
			}
		}
	}
	sort.SliceStable(p.Contexts, func(i, j int) bool {
		a, b := p.Contexts[i].key(), p.Contexts[j].key()
		if a.graph != b.graph {
			return a.graph < b.graph
		}
		if a.arm != b.arm {
			return a.arm < b.arm
		}
		if a.anchor != b.anchor {
			return a.anchor < b.anchor
		}
		return a.tokenizer < b.tokenizer
	})
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
		Questions: len(p.Entries), QuestionsSHA1: sha1Hex(p.QuestionsJSONL)}
	m.Params = Params{Layout: e.layout(), Temperature: e.Temperature, MaxTokens: e.MaxTokens, Seed: e.Seed, Trials: e.trials()}
	for _, md := range e.Models {
		m.Params.Models = append(m.Params.Models, ModelParams{Name: md.ModelName(), Model: md.Model, Tokenizer: md.Tokenizer, ExtraBody: md.ExtraBody, Stream: md.Stream})
	}
	for _, md := range e.Models {
		for i := range p.Entries {
			m.Calls += len(p.contextsFor(i, md)) * e.trials()
		}
	}
	id, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	m.RunID = sha1Hex(id)[:16]
	for _, a := range e.Arms {
		m.Arms = append(m.Arms, ArmInfo{Name: a.ArmName(), Format: a.Format, Options: a.Options.String(), HideName: a.HideName})
	}
	p.Manifest = m
	return p, nil
}

// contextsFor returns the contexts entry i is asked about when it is sent
// to model m: one per arm, by arm name, or the entry's own stored context.
func (p *Plan) contextsFor(i int, m Model) []*Context {
	en := &p.Entries[i]
	if k, ok := p.index[ctxKey{graph: en.Graph, arm: SetContextArm}]; ok {
		return []*Context{&p.Contexts[k]}
	}
	e := p.Experiment
	out := make([]*Context, 0, len(p.arms))
	for _, a := range p.arms {
		k := ctxKey{graph: en.Graph, arm: a.ArmName()}
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
	return sortedKeys(set)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
	if text != "" && !strings.HasSuffix(text, "\n") {
		// Records move: each must end its line.
		text += "\n"
	}
	switch {
	case ord.Kind == OrderShuffle:
		dc := splitDoc(text, a.Format)
		dc.shuffle(ord.Seed)
		return dc.String(), nil
	case ord.Kind == OrderBFS && anchor != "":
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
		if b.policy() == PolicyRecord && contains(orderable, format) {
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
	case contains(orderable, format):
		return cutRecords(splitDoc(text, format), tok, b.Tokens)
	default:
		return cutStatements(format, d, tok, b.Tokens)
	}
}

// render renders a graph in an arm's format; anchor, for an ISOLDA
// format, starts the document from that entity (isolda.Options.Anchor).
func render(a Arm, in *formats.Input, d *rdf.Dataset, anchor string) (string, error) {
	if a.Options == nil && anchor == "" {
		return formats.EncodeString(a.Format, in)
	}
	var opts isolda.Options
	if o := a.Options; o != nil {
		opts = isolda.Options{Version: o.Version, IDs: o.IDs, Glossary: o.Glossary, Layout: o.Layout, Theta: o.Theta,
			NoConstants: o.NoConstants, NoTypes: o.NoTypes, Continuation: o.Continuation, InlineBlanks: o.InlineBlanks,
			InverseIndex: o.InverseIndex, IRIIDs: o.IRIIDs, DatatypePrefixes: o.DatatypePrefixes}
	}
	opts.Anchor = anchor
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
	case kgllm.IsFamily(family):
		return "kgllm_strict"
	case family == graphrag.Family:
		return "impact"
	}
	return "kg"
}

func scorerOf(name string) task.Scorer {
	switch name {
	case "graphqa":
		return graphqa.Score
	case "final":
		return graphqa.ScoreFinal
	case "kgllm_strict":
		return kgllm.Strict
	case "kgllm_lenient":
		return kgllm.Lenient
	case "impact":
		return graphrag.Scorer
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

// resolvePath resolves a file named in an experiment: an absolute path as
// it is, a relative one against the experiment file's folder.
func resolvePath(baseDir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(baseDir, name)
}
