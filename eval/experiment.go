// Package eval defines evaluation experiments and prepares them: every
// question of a question set, asked about every graph rendered in every
// format ("arm"), of every model of an OpenAI-compatible endpoint, a number
// of times, with frozen and hashed inputs.
//
// An Experiment is read from a YAML file (ParseExperiment, see ExampleYAML).
// A graph is an RDF file or a collection of items (the contexts of a frozen
// set: one RDF document, labelled graph or ontology each); an arm renders
// graphs in a format of the registry (ISOLDA arms with every encoder option)
// or reads stored texts; a Prompt template, when given, is the whole prompt.
// Prepare renders every (graph × arm) context and every question, decodes
// every context of a lossless format and compares it with its graph, and
// hashes everything (SHA-1) into a Plan; DryRun counts its calls and input
// tokens. Package eval/runner runs a Plan: it freezes the inputs into a run
// folder, calls the models and keeps the append-only answer log.
package eval

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/yamlguard"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

// Message layouts.
const (
	// LayoutSystemUser puts the data in the system message and the question
	// in the user message.
	LayoutSystemUser = "system_user"
	// LayoutUser puts data and question in one user message, as KG-LLM-Bench
	// does.
	LayoutUser = "user"
)

// MaxExperimentBytes bounds the size of an experiment file.
const MaxExperimentBytes = 4 << 20

// Documented ranges of an experiment's numbers.
const (
	// MaxTimeoutSeconds bounds timeout_seconds (a day).
	MaxTimeoutSeconds = 86400
	// MaxMaxTokens bounds max_tokens.
	MaxMaxTokens = 10_000_000
	// MaxAnswerBytes bounds max_answer_bytes (llm.DefaultMaxResponseBytes:
	// a larger answer fails the call anyway).
	MaxAnswerBytes = 64 << 20
)

// Experiment is an evaluation experiment as written in its YAML file.
type Experiment struct {
	// Name names the experiment.
	Name string `yaml:"name"`
	// Graphs are the RDF graphs questions are asked about.
	Graphs []Graph `yaml:"graphs"`
	// Arms are the formats the graphs are rendered in.
	Arms []Arm `yaml:"arms"`
	// Models are the endpoints and models asked.
	Models []Model `yaml:"models"`
	// Tasks are the question sets.
	Tasks []Task `yaml:"tasks"`
	// Layout is LayoutSystemUser (the default when empty) or LayoutUser.
	Layout string `yaml:"layout"`
	// Temperature is sent with every request (0 is sent too).
	Temperature float64 `yaml:"temperature"`
	// MaxTokens is sent as max_tokens when positive.
	MaxTokens int `yaml:"max_tokens"`
	// Seed, when set, is sent with every request.
	Seed *int64 `yaml:"seed"`
	// Trials is the number of times each question is asked (0 means 1).
	Trials int `yaml:"trials"`
	// Retries is the number of retries of a failed call within one run
	// (0 means 3; -1 means none).
	Retries int `yaml:"retries"`
	// TimeoutSeconds bounds each attempt (0: no limit; at most
	// MaxTimeoutSeconds).
	TimeoutSeconds float64 `yaml:"timeout_seconds"`
	// MaxAnswerBytes caps what is kept of each answer (and of its
	// reasoning and raw response body): a longer one is cut, and its record
	// says so with the full size (0: llm.DefaultMaxAnswerBytes, 1 MiB; at
	// most MaxAnswerBytes).
	MaxAnswerBytes int `yaml:"max_answer_bytes"`
	// Budget is the token budget of every arm that sets none (nil or 0
	// tokens: the whole graph).
	Budget *Budget `yaml:"budget"`
	// Ordering is the record order of every arm that sets none (nil:
	// canonical).
	Ordering *Ordering `yaml:"ordering"`
	// Prompt is the message template of every arm that sets none (nil:
	// the built-in prompt of Layout).
	Prompt *Prompt `yaml:"prompt"`

	// scorerAt is where each task's scorer name (by task index) stands in
	// the file it was read from, the name as Msg; nil for an experiment
	// built in code.
	scorerAt map[int]*rdf.ParseError
}

// Budget policies.
const (
	// PolicyRecord keeps whole records (statements, ISOLDA rows) in the
	// order of the text while the next one fits, so the kept text still
	// decodes; the default.
	PolicyRecord = "record"
	// PolicyRaw keeps the longest prefix of the text, cut at a character
	// boundary, whose token count is within the budget.
	PolicyRaw = "raw"
)

// MaxBudget bounds Budget.Tokens.
const MaxBudget = 100_000_000

// Budget cuts a rendered context to a number of tokens.
type Budget struct {
	// Tokens is the budget; 0 means no budget.
	Tokens int `yaml:"tokens"`
	// Tokenizer counts the tokens (a token registry name); empty: each
	// model's own tokenizer, so the context may differ per model.
	Tokenizer string `yaml:"tokenizer"`
	// Policy is PolicyRecord (the default when empty) or PolicyRaw.
	Policy string `yaml:"policy"`
}

// Orderings.
const (
	// OrderCanonical is the format's own deterministic order.
	OrderCanonical = "canonical"
	// OrderShuffle permutes the records with a seeded generator (PCG):
	// the lines of N-Triples and N-Quads; the rows of each ISOLDA section
	// and the sections of each graph.
	OrderShuffle = "shuffle"
	// OrderBFS starts from each question's anchor entity (the subject,
	// else the object, the intermediate or the type the question is
	// about, when the task records one): ISOLDA's anchor mode, or for
	// N-Triples and N-Quads the statements by breadth-first distance of
	// their nearer end from the anchor. Questions without an anchor get
	// the canonical order.
	OrderBFS = "bfs"
)

// Ordering is the order of the records of a rendered context.
type Ordering struct {
	// Kind is OrderCanonical (the default when empty), OrderShuffle or
	// OrderBFS.
	Kind string `yaml:"kind"`
	// Seed seeds OrderShuffle.
	Seed uint64 `yaml:"seed"`
}

// Graph is one RDF graph file, or a collection of graphs stored as the
// contexts of a frozen set (one item per context, named by its id).
type Graph struct {
	// Name identifies the graph in the run (default: the file's base name).
	Name string `yaml:"name"`
	// File is the path of the RDF file, relative to the experiment file.
	File string `yaml:"file"`
	// Set is the path of a frozen set (task.WriteFrozen, gzip-compressed
	// when it ends in .gz) whose contexts are the collection's items.
	Set string `yaml:"set"`
	// Syntax says how the items' texts are read: an RDF syntax (turtle,
	// ntriples, ...), a format of the registry with a decoder (its labelled
	// graph or dataset), or SyntaxOntology. Only with Set.
	Syntax string `yaml:"syntax"`
}

// SyntaxOntology reads an item as a Text2KGBench ontology (JSON).
const SyntaxOntology = "text2kgbench-ontology"

// Arm is one way of rendering a graph.
type Arm struct {
	// Name identifies the arm (default: the format name).
	Name string `yaml:"name"`
	// Format is a name of the format registry (`isolda formats`); with
	// Stored, only a label (default: the arm's name).
	Format string `yaml:"format"`
	// Stored is the path of a frozen set whose contexts are this arm's
	// renderings of the items of collections, by item id (such as a
	// benchmark's own textualizations). Such an arm is asked only about
	// collections and needs Graphs.
	Stored string `yaml:"stored"`
	// Graphs, when set, are the only graphs this arm renders.
	Graphs []string `yaml:"graphs"`
	// Options configure the ISOLDA encoder; only for isolda formats.
	Options *IsoldaOptions `yaml:"options"`
	// HideName leaves the format's name out of the built-in prompt.
	HideName bool `yaml:"hide_name"`
	// Budget overrides the experiment's budget (tokens: 0 for none).
	Budget *Budget `yaml:"budget"`
	// Ordering overrides the experiment's ordering.
	Ordering *Ordering `yaml:"ordering"`
	// Prompt overrides the experiment's prompt template.
	Prompt *Prompt `yaml:"prompt"`
	// Vars are the values of the template's {{arm.NAME}} placeholders.
	Vars map[string]string `yaml:"vars"`
}

// IsoldaOptions are the encoder options an arm of an isolda format may set,
// under the names of the flags of `isolda encode` (with "_" for "-"); see
// isolda.Options for their meaning.
type IsoldaOptions struct {
	Spec                string  `yaml:"spec"`
	IDs                 string  `yaml:"ids"`
	NoConstants         bool    `yaml:"no_constants"`
	NoTypes             bool    `yaml:"no_types"`
	Glossary            string  `yaml:"glossary"`
	InverseIndex        bool    `yaml:"inverse_index"`
	Layout              string  `yaml:"layout"`
	Theta               float64 `yaml:"theta"`
	Continuation        bool    `yaml:"continuation"`
	InlineBnodes        bool    `yaml:"inline_bnodes"`
	Anchor              string  `yaml:"anchor"`
	Hops                int     `yaml:"hops"`
	NoPreferredLanguage bool    `yaml:"no_preferred_language"`
	NoRowLabelIDs       bool    `yaml:"no_row_label_ids"`
	NoTermAliases       bool    `yaml:"no_term_aliases"`
	NoVocabPrefix       bool    `yaml:"no_vocab_prefix"`
	IRIIDs              bool    `yaml:"iri_ids"`
	DatatypePrefixes    bool    `yaml:"datatype_prefixes"`
}

// GlossarySystem is the value of IsoldaOptions.Glossary that moves the
// ISOLDA glossary out of the context into the system message (the
// template's {{glossary}} placeholder, else the start of the system
// message): the context is the document's body (isolda.SplitParts), which
// starts with its @isolda line and decodes alone. In ISOLDA 0.4 the
// glossary is the same for every context that uses the same constructs,
// so a prompt cache can keep it.
const GlossarySystem = "system"

// MaxHops bounds IsoldaOptions.Hops.
const MaxHops = 1000

// String lists the options set (non-zero fields) as "name=value" words,
// named as in experiment files, in field order; true flags are bare names.
func (o *IsoldaOptions) String() string {
	if o == nil {
		return ""
	}
	var words []string
	v := reflect.ValueOf(*o)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		if f.Kind() == reflect.Bool {
			words = append(words, name)
			continue
		}
		words = append(words, fmt.Sprintf("%s=%v", name, f.Interface()))
	}
	return strings.Join(words, " ")
}

// Model is one model of one endpoint.
type Model struct {
	// Name identifies the model in the run (default: Model).
	Name string `yaml:"name"`
	// BaseURL is the API root, e.g. http://localhost:8000/v1.
	BaseURL string `yaml:"base_url"`
	// Model is the model name sent to the server.
	Model string `yaml:"model"`
	// APIKeyEnv names the environment variable holding the API key.
	APIKeyEnv string `yaml:"api_key_env"`
	// Tokenizer counts tokens locally (a token registry name); empty: none.
	Tokenizer string `yaml:"tokenizer"`
	// ExtraBody holds additional request body fields.
	ExtraBody map[string]any `yaml:"extra_body"`
	// MaxConcurrency bounds the calls in flight to this model (0 means 1).
	MaxConcurrency int `yaml:"max_concurrency"`
	// Stream asks for server-sent events.
	Stream bool `yaml:"stream"`
	// PriceIn and PriceOut are prices per million input and output tokens,
	// used only by summaries, never written to the log.
	PriceIn  float64 `yaml:"price_in"`
	PriceOut float64 `yaml:"price_out"`
	// Arms, when set, are the only arms this model is asked with; Graphs,
	// when set, the only graphs it is asked about.
	Arms   []string `yaml:"arms"`
	Graphs []string `yaml:"graphs"`
}

// Task is one question set: a frozen set file, or questions generated from
// each graph.
type Task struct {
	// Name identifies the task (default: the set's file name, or "kg").
	Name string `yaml:"name"`
	// Set is a frozen question set (task.WriteFrozen), relative to the
	// experiment file.
	Set string `yaml:"set"`
	// Graph, with Set, names the graph (of Graphs) the set's questions are
	// asked about, rendered by every arm (for a collection, each question
	// about the item its context id names); without it the set's own
	// stored contexts are used as they are, under the arm "context".
	Graph string `yaml:"graph"`
	// Generate generates KG questions from every graph file (not from
	// collections).
	Generate *Generate `yaml:"generate"`
	// Scorer is one of the names of the scorer table the experiment is
	// prepared with (PrepareOptions.Scorers: kg, graphqa, final,
	// kgllm_strict, ...; another name is an error); empty: chosen by each
	// question's family (the scorer of the benchmark that owns it, kg's
	// when none does).
	Scorer string `yaml:"scorer"`
	// Prompt is the template of this task's questions, for every arm
	// without its own (it overrides the experiment's).
	Prompt *Prompt `yaml:"prompt"`
}

// Generate configures kg.Generate.
type Generate struct {
	Families  []string `yaml:"families"`
	PerFamily int      `yaml:"per_family"`
	Seed      int64    `yaml:"seed"`
}

// SetContextArm is the arm name of questions asked about a frozen set's own
// contexts.
const SetContextArm = "context"

// ValidationError is a list of problems found in an experiment file, each
// with its position when known.
type ValidationError struct {
	Problems []*rdf.ParseError
}

// Error lists the problems, one per line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// LoadExperiment reads and validates an experiment file.
func LoadExperiment(path string) (*Experiment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxExperimentBytes {
		return nil, &rdf.ParseError{File: path, Line: 1, Column: 1, Msg: fmt.Sprintf("experiment file larger than %d bytes", MaxExperimentBytes)}
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && st.Size() > 0 {
		return nil, err
	}
	return parseExperiment(data, path, filepath.Dir(path))
}

// ParseExperiment decodes and validates an experiment; file names it in
// errors. Unknown fields, wrong types and invalid values are reported as a
// *ValidationError (or *rdf.ParseError) with line and column.
func ParseExperiment(data []byte, file string) (*Experiment, error) {
	return parseExperiment(data, file, "")
}

// parseExperiment is ParseExperiment that, with a baseDir, also checks
// that the graph and question-set files it names exist.
func parseExperiment(data []byte, file, baseDir string) (*Experiment, error) {
	if len(data) > MaxExperimentBytes {
		return nil, &rdf.ParseError{File: file, Line: 1, Column: 1, Msg: "experiment file too large"}
	}
	if err := yamlguard.Check(data, file); err != nil { // before go-yaml allocates for a depth bomb
		return nil, err
	}
	astFile, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, yamlError(file, err)
	}
	// Aliases could expand exponentially ("billion laughs"): refuse them.
	for _, doc := range astFile.Docs {
		if doc.Body == nil {
			continue
		}
		var fa aliasFinder
		ast.Walk(&fa, doc.Body)
		if fa.found != nil {
			msg := "YAML aliases (*name) are not supported in experiment files"
			if _, ok := fa.found.(*ast.TagNode); ok {
				msg = "YAML tags (!name) are not supported in experiment files"
			}
			pe := &rdf.ParseError{File: file, Line: 1, Column: 1, Msg: msg}
			if tk := fa.found.GetToken(); tk != nil && tk.Position != nil {
				pe.Line, pe.Column = tk.Position.Line, tk.Position.Column
			}
			return nil, pe
		}
	}
	var e Experiment
	if err := unmarshal(data, &e, file); err != nil {
		return nil, err
	}
	v := validator{file: file, ast: astFile, baseDir: baseDir}
	v.check(&e)
	if len(v.problems) > 0 {
		return nil, &ValidationError{Problems: v.problems}
	}
	// Where each task's scorer name stands, for CheckScorers: the scorer
	// table comes with Prepare, not with the file.
	at := validator{file: file, ast: astFile}
	for i, t := range e.Tasks {
		if t.Scorer != "" {
			at.addf(fmt.Sprintf("$.tasks[%d].scorer", i), "%s", t.Scorer)
			if e.scorerAt == nil {
				e.scorerAt = map[int]*rdf.ParseError{}
			}
			e.scorerAt[i] = at.problems[len(at.problems)-1]
		}
	}
	return &e, nil
}

// CheckScorers reports the task scorer names the table does not know: as
// a *ValidationError with file, line and column for an experiment read
// from a file, else an error naming the task. Prepare calls it; so does
// `isolda eval validate`.
func (e *Experiment) CheckScorers(table task.Scorings) error {
	var problems []*rdf.ParseError
	for i, t := range e.Tasks {
		if t.Scorer == "" {
			continue
		}
		if _, err := table.Lookup(t.Scorer); err != nil {
			at := e.scorerAt[i]
			if at == nil || at.Msg != t.Scorer { // built in code, or changed since it was read
				return fmt.Errorf("task %s: %w", t.TaskName(), err)
			}
			problems = append(problems, &rdf.ParseError{File: at.File, Line: at.Line, Column: at.Column, Msg: err.Error()})
		}
	}
	if len(problems) > 0 {
		return &ValidationError{Problems: problems}
	}
	return nil
}

// unmarshal decodes data strictly. go-yaml v1.19.2 can panic on odd input
// the AST checks do not catch: the panic becomes an error.
func unmarshal(data []byte, e *Experiment, file string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &rdf.ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("YAML the decoder cannot read: %v", r)}
		}
	}()
	if err := yaml.UnmarshalWithOptions(data, e, yaml.Strict()); err != nil {
		return yamlError(file, err)
	}
	return nil
}

// aliasFinder finds the first alias or tag node: an alias could expand
// exponentially, and go-yaml v1.19.2 panics on some tags.
type aliasFinder struct{ found ast.Node }

func (f *aliasFinder) Visit(n ast.Node) ast.Visitor {
	if f.found != nil {
		return nil
	}
	switch n.(type) {
	case *ast.AliasNode, *ast.TagNode:
		f.found = n
		return nil
	}
	return f
}

func yamlError(file string, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		pe := &rdf.ParseError{File: file, Msg: ye.GetMessage()}
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			pe.Line, pe.Column = tk.Position.Line, tk.Position.Column
		}
		return pe
	}
	return &rdf.ParseError{File: file, Msg: err.Error()}
}

type validator struct {
	file string
	ast  *ast.File
	// baseDir, when set, is the folder files are relative to: the files
	// named must exist.
	baseDir  string
	problems []*rdf.ParseError
}

// checkFile records a problem at p when the validator has a base folder
// and the file name does not name a file there.
func (v *validator) checkFile(p, what, name string) {
	if v.baseDir == "" || name == "" {
		return
	}
	if st, err := os.Stat(resolvePath(v.baseDir, name)); err != nil {
		v.addf(p, "%s: %v", what, err)
	} else if st.IsDir() {
		v.addf(p, "%s: %s is a folder", what, name)
	} else if !st.Mode().IsRegular() {
		v.addf(p, "%s: %s is not a regular file (%v)", what, name, st.Mode().Type())
	}
}

// addf records a problem at the YAML path p (such as "$.arms[0].format").
func (v *validator) addf(p, format string, args ...any) {
	pe := &rdf.ParseError{File: v.file, Msg: fmt.Sprintf(format, args...)}
	for p != "" && p != "$" {
		if yp, err := yaml.PathString(p); err == nil {
			if n, err := yp.FilterFile(v.ast); err == nil && n != nil {
				if tk := n.GetToken(); tk != nil && tk.Position != nil {
					pe.Line, pe.Column = tk.Position.Line, tk.Position.Column
					break
				}
			}
		}
		// Fall back to the enclosing node.
		if i := strings.LastIndexAny(p, ".["); i > 0 {
			p = p[:i]
		} else {
			break
		}
	}
	if pe.Line == 0 {
		pe.Line, pe.Column = 1, 1
	}
	v.problems = append(v.problems, pe)
}

// checkName checks the name n of a graph, arm or task (kind) at p: unique
// among seen (to which it is added) and made of valid characters.
func (v *validator) checkName(p, kind, n string, seen map[string]bool) {
	if seen[n] {
		if kind == "arm" {
			v.addf(p, "arm name %q used twice (or reserved)", n)
		} else {
			v.addf(p, "%s name %q used twice", kind, n)
		}
	}
	seen[n] = true
	if !validName(n) {
		v.addf(p, "%s name %q: use letters, digits, '.', '_' and '-'", kind, n)
	}
}

func (v *validator) check(e *Experiment) {
	if e.Name != "" && !validTitle(e.Name) {
		v.addf("$.name", "experiment name %q: at most 200 bytes of UTF-8 text without path separators, '..' or control characters", e.Name)
	}
	if len(e.Graphs) == 0 {
		hasOwn := false
		for _, t := range e.Tasks {
			if t.Set != "" && t.Graph == "" {
				hasOwn = true
			}
		}
		if !hasOwn {
			v.addf("$.graphs", "no graphs (and no task using a set's own contexts)")
		}
	}
	graphNames := map[string]bool{}
	collections := map[string]bool{}
	for i, g := range e.Graphs {
		p := fmt.Sprintf("$.graphs[%d]", i)
		switch {
		case g.File == "" && g.Set == "":
			v.addf(p, "graph %d: file (an RDF file) or set (a collection) is required", i)
		case g.File != "" && g.Set != "":
			v.addf(p, "graph %d: file and set are exclusive", i)
		case g.Set != "" && g.Syntax == "":
			v.addf(p, "graph %d: a collection needs the syntax of its items", i)
		case g.Set != "":
			if err := checkSyntax(g.Syntax); err != nil {
				v.addf(p+".syntax", "%v", err)
			}
			collections[g.GraphName()] = true
		case g.Syntax != "":
			v.addf(p+".syntax", "syntax is only for a collection (set); the syntax of a file comes from its name or content")
		}
		v.checkFile(p+".file", "graph "+g.GraphName(), g.File)
		v.checkFile(p+".set", "graph "+g.GraphName()+" set", g.Set)
		v.checkName(p, "graph", g.GraphName(), graphNames)
	}
	if len(e.Arms) == 0 && len(e.Graphs) > 0 {
		v.addf("$.arms", "no arms")
	}
	armNames := map[string]bool{SetContextArm: true}
	for i, a := range e.Arms {
		p := fmt.Sprintf("$.arms[%d]", i)
		switch {
		case a.Stored != "":
			v.checkFile(p+".stored", "arm "+a.ArmName()+" stored contexts", a.Stored)
			if len(a.Graphs) == 0 {
				v.addf(p, "arm %s: a stored arm needs graphs (the collections its contexts are of)", a.ArmName())
			}
			for j, gn := range a.Graphs {
				if graphNames[gn] && !collections[gn] {
					v.addf(fmt.Sprintf("%s.graphs[%d]", p, j), "arm %s: stored contexts are only for collections, and %s is a file", a.ArmName(), gn)
				}
			}
			if a.Options != nil || a.Ordering != nil || a.Budget != nil {
				v.addf(p, "arm %s: a stored arm's contexts are used as they are: no options, ordering or budget", a.ArmName())
			}
		case a.Format == "":
			v.addf(p, "arm %d: format is required", i)
		default:
			if _, ok := formats.Get(a.Format); !ok {
				v.addf(p+".format", "unknown format %q (see `isolda formats`)", a.Format)
			} else if a.Options != nil && !isISOLDA(a.Format) {
				v.addf(p+".options", "options are only for isolda formats, not %q", a.Format)
			} else if a.Options != nil {
				v.checkOptions(p+".options", e, a)
			}
			v.checkArmShaping(e, i, a)
		}
		for j, gn := range a.Graphs {
			if !graphNames[gn] {
				v.addf(fmt.Sprintf("%s.graphs[%d]", p, j), "unknown graph %q", gn)
			}
		}
		for k := range a.Vars {
			if !validVar(k) {
				v.addf(p+".vars", "variable name %q: use letters, digits and '_'", k)
			}
		}
		v.checkPrompt(e, i, a)
		v.checkName(p, "arm", a.ArmName(), armNames)
	}
	if e.Prompt != nil {
		if e.Layout != "" {
			v.addf("$.layout", "layout is for the built-in prompt; this experiment has a prompt template")
		}
		if _, err := e.Prompt.compile(); err != nil {
			v.addf("$.prompt."+err.(*promptError).field, "%v", err)
		}
	}
	if len(e.Models) == 0 {
		v.addf("$.models", "no models")
	}
	modelNames := map[string]bool{}
	for i, m := range e.Models {
		p := fmt.Sprintf("$.models[%d]", i)
		if m.BaseURL == "" {
			v.addf(p, "model %d: base_url is required", i)
		} else if !strings.HasPrefix(m.BaseURL, "http://") && !strings.HasPrefix(m.BaseURL, "https://") {
			v.addf(p+".base_url", "base_url must start with http:// or https://")
		}
		if m.Model == "" {
			v.addf(p, "model %d: model is required", i)
		}
		n := m.ModelName()
		if modelNames[n] {
			v.addf(p, "model name %q used twice", n)
		}
		modelNames[n] = true
		if m.MaxConcurrency < 0 || m.MaxConcurrency > 4096 {
			v.addf(p+".max_concurrency", "max_concurrency must be between 0 and 4096")
		}
		if _, err := json.Marshal(m.ExtraBody); err != nil {
			v.addf(p+".extra_body", "extra_body is not JSON: %v", err)
		}
		if m.PriceIn < 0 || m.PriceOut < 0 {
			v.addf(p, "prices must not be negative")
		}
		for j, an := range m.Arms {
			if !armNames[an] || an == SetContextArm {
				v.addf(fmt.Sprintf("%s.arms[%d]", p, j), "model %s: unknown arm %q", n, an)
			}
		}
		for j, gn := range m.Graphs {
			if !graphNames[gn] {
				v.addf(fmt.Sprintf("%s.graphs[%d]", p, j), "model %s: unknown graph %q", n, gn)
			}
		}
	}
	if len(e.Tasks) == 0 {
		v.addf("$.tasks", "no tasks")
	}
	taskNames := map[string]bool{}
	for i, t := range e.Tasks {
		p := fmt.Sprintf("$.tasks[%d]", i)
		switch {
		case t.Set != "" && t.Generate != nil:
			v.addf(p, "task %d: set and generate are exclusive", i)
		case t.Set == "" && t.Generate == nil:
			v.addf(p, "task %d: one of set or generate is required", i)
		case t.Set != "":
			v.checkFile(p+".set", "task "+t.TaskName()+" set", t.Set)
		case t.Generate != nil:
			if len(e.Graphs) == 0 {
				v.addf(p+".generate", "generate needs graphs")
			}
			if _, err := kg.ParseFamilies(strings.Join(t.Generate.Families, ",")); err != nil && len(t.Generate.Families) > 0 {
				v.addf(p+".generate.families", "%v", err)
			}
			if t.Generate.PerFamily < 0 || t.Generate.PerFamily > kg.MaxPerFamily {
				v.addf(p+".generate.per_family", "per_family must be between 0 and %d", kg.MaxPerFamily)
			}
		}
		if t.Graph != "" && !graphNames[t.Graph] {
			v.addf(p+".graph", "unknown graph %q", t.Graph)
		}
		if t.Generate != nil && len(collections) == len(e.Graphs) && len(e.Graphs) > 0 {
			v.addf(p+".generate", "generate asks about graph files, and this experiment has only collections")
		}
		if t.Graph != "" && t.Set == "" {
			v.addf(p+".graph", "graph is only for a task with a set")
		}
		if t.Prompt != nil {
			v.checkTaskPrompt(e, i, t)
		}
		v.checkName(p, "task", t.TaskName(), taskNames)
	}
	switch e.Layout {
	case "", LayoutSystemUser, LayoutUser:
	default:
		v.addf("$.layout", "layout must be %s or %s", LayoutSystemUser, LayoutUser)
	}
	if !(e.Temperature >= 0 && e.Temperature <= 2) {
		v.addf("$.temperature", "temperature must be between 0 and 2")
	}
	if e.MaxTokens < 0 || e.MaxTokens > MaxMaxTokens {
		v.addf("$.max_tokens", "max_tokens must be between 0 and %d", MaxMaxTokens)
	}
	if e.MaxAnswerBytes < 0 || e.MaxAnswerBytes > MaxAnswerBytes {
		v.addf("$.max_answer_bytes", "max_answer_bytes must be between 0 (the default, 1 MiB) and %d", MaxAnswerBytes)
	}
	if e.Trials < 0 || e.Trials > 10000 {
		v.addf("$.trials", "trials must be between 0 and 10000")
	}
	if e.Retries < -1 || e.Retries > 100 {
		v.addf("$.retries", "retries must be between -1 and 100")
	}
	if !(e.TimeoutSeconds >= 0 && e.TimeoutSeconds <= MaxTimeoutSeconds) {
		v.addf("$.timeout_seconds", "timeout_seconds must be between 0 (no limit) and %d", MaxTimeoutSeconds)
	}
	v.checkBudget("$.budget", e.Budget, e.Models)
	v.checkOrdering("$.ordering", e.Ordering)
	if (e.Budget != nil || e.Ordering != nil) && len(e.Arms) == 0 {
		v.addf("$", "budget and ordering apply to arms; this experiment has none")
	}
}

// orderable are the formats whose records eval can reorder: one statement
// per line, or ISOLDA rows in sections.
var orderable = []string{"isolda", "isolda-0.1", "isolda-0.2", "isolda-0.3", "nquads", "ntriples"}

// checkArmShaping checks an arm's budget and ordering, its own or the
// experiment's.
func (v *validator) checkArmShaping(e *Experiment, i int, a Arm) {
	p := fmt.Sprintf("$.arms[%d]", i)
	v.checkBudget(p+".budget", a.Budget, e.Models)
	v.checkOrdering(p+".ordering", a.Ordering)
	o, op := a.Ordering, p+".ordering"
	if o == nil {
		o, op = e.Ordering, "$.ordering"
	}
	if o != nil && o.Kind != "" && o.Kind != OrderCanonical && !slices.Contains(orderable, a.Format) {
		v.addf(op+".kind", "arm %s: ordering %s needs a format whose records can be reordered (%s), not %q",
			a.ArmName(), o.Kind, strings.Join(orderable, ", "), a.Format)
	}
}

// checkOptions checks an isolda arm's encoder options.
func (v *validator) checkOptions(p string, e *Experiment, a Arm) {
	o := a.Options
	fixed := map[string]string{"isolda-0.1": "0.1", "isolda-0.2": "0.2", "isolda-0.3": "0.3"}[a.Format]
	switch o.Spec {
	case "", "0.1", "0.2", "0.3", "0.4":
		if fixed != "" && o.Spec != "" && o.Spec != fixed {
			v.addf(p+".spec", "format %s is spec %s; use format isolda for spec %s", a.Format, fixed, o.Spec)
		}
	default:
		v.addf(p+".spec", "spec must be 0.1, 0.2, 0.3 or 0.4")
	}
	spec := cmp.Or(fixed, o.Spec, "0.4")
	switch o.IDs {
	case "", isolda.IDsLabel, isolda.IDsSlug:
	default:
		v.addf(p+".ids", "ids must be %s or %s", isolda.IDsLabel, isolda.IDsSlug)
	}
	switch o.Glossary {
	case "", isolda.GlossaryFull, isolda.GlossaryLegend, isolda.GlossaryNone:
	case GlossarySystem:
	default:
		v.addf(p+".glossary", "glossary must be %s, %s, %s or %s", isolda.GlossaryFull, isolda.GlossaryLegend, isolda.GlossaryNone, GlossarySystem)
	}
	switch o.Layout {
	case "", isolda.LayoutTable, isolda.LayoutBlocks, isolda.LayoutHybrid:
	default:
		v.addf(p+".layout", "layout must be %s, %s or %s", isolda.LayoutTable, isolda.LayoutBlocks, isolda.LayoutHybrid)
	}
	if o.Theta < 0 || o.Theta > 1 || o.Theta != o.Theta {
		v.addf(p+".theta", "theta must be between 0 and 1")
	} else if o.Theta != 0 && o.Layout != isolda.LayoutHybrid {
		v.addf(p+".theta", "theta is only for layout %s", isolda.LayoutHybrid)
	}
	bfs := e.orderingOf(a).Kind == OrderBFS
	switch {
	case o.Hops < 0 || o.Hops > MaxHops:
		v.addf(p+".hops", "hops must be between 0 and %d", MaxHops)
	case o.Hops > 0 && o.Anchor == "" && !bfs:
		v.addf(p+".hops", "hops crops around an anchor: set anchor, or ordering bfs (each question's anchor)")
	}
	if o.Anchor != "" && bfs {
		v.addf(p+".anchor", "anchor fixes one entity for every question; ordering bfs starts from each question's own: choose one")
	}
	if spec == "0.1" {
		for _, f := range []struct {
			on   bool
			name string
		}{{o.NoPreferredLanguage, "no_preferred_language"}, {o.NoRowLabelIDs, "no_row_label_ids"}, {o.NoTermAliases, "no_term_aliases"},
			{o.NoVocabPrefix, "no_vocab_prefix"}, {o.IRIIDs, "iri_ids"}, {o.DatatypePrefixes, "datatype_prefixes"}} {
			if f.on {
				v.addf(p+"."+f.name, "%s has no effect on spec 0.1", f.name)
			}
		}
	}
}

// checkPrompt checks the template an arm uses (its own or the
// experiment's): it compiles, and the arm defines every {{arm.NAME}}.
func (v *validator) checkPrompt(e *Experiment, i int, a Arm) {
	p := fmt.Sprintf("$.arms[%d]", i)
	pr := a.Prompt
	if pr == nil {
		pr, p = e.Prompt, "$.prompt"
	} else {
		p += ".prompt"
	}
	if pr == nil {
		return
	}
	t, err := pr.compile()
	if err != nil {
		if a.Prompt != nil {
			v.addf(p+"."+err.(*promptError).field, "%v", err)
		}
		return // the experiment's prompt is reported once
	}
	for _, n := range t.vars(phArm) {
		if _, ok := a.Vars[n]; !ok {
			v.addf(fmt.Sprintf("$.arms[%d]", i), "arm %s: its prompt uses {{arm.%s}}, and the arm has no such variable in vars", a.ArmName(), n)
		}
	}
}

// checkTaskPrompt checks a task's template: it compiles, and every arm
// asked about the task without a template of its own defines the
// {{arm.NAME}} variables it uses.
func (v *validator) checkTaskPrompt(e *Experiment, i int, t Task) {
	p := fmt.Sprintf("$.tasks[%d].prompt", i)
	tp, err := t.Prompt.compile()
	if err != nil {
		v.addf(p+"."+err.(*promptError).field, "%v", err)
		return
	}
	names := tp.vars(phArm)
	if len(names) == 0 {
		return
	}
	if t.Set != "" && t.Graph == "" {
		v.addf(p, "task %s: its questions are asked about the set's own contexts, which have no arm variables; {{arm.%s}} cannot be filled", t.TaskName(), names[0])
		return
	}
	for _, a := range e.Arms {
		if a.Prompt != nil || (t.Graph != "" && !a.rendersGraph(t.Graph)) {
			continue
		}
		for _, n := range names {
			if _, ok := a.Vars[n]; !ok {
				v.addf(p, "task %s: its prompt uses {{arm.%s}}, and arm %s, asked about it, has no such variable in vars", t.TaskName(), n, a.ArmName())
			}
		}
	}
}

// checkSyntax checks the syntax of a collection's items.
func checkSyntax(s string) error {
	if s == SyntaxOntology {
		return nil
	}
	if _, err := rdfio.ParseFormat(s); err == nil {
		return nil
	}
	if f, ok := formats.Get(s); ok {
		if f.Decode == nil && f.DecodeGraph == nil {
			return fmt.Errorf("format %s has no decoder: items must be in a syntax that can be read back", s)
		}
		return nil
	}
	return fmt.Errorf("unknown syntax %q: an RDF syntax (%s), a registry format with a decoder, or %s", s, strings.Join(rdfio.ReadableNames(), ", "), SyntaxOntology)
}

func (v *validator) checkBudget(p string, b *Budget, models []Model) {
	if b == nil {
		return
	}
	if b.Tokens < 0 || b.Tokens > MaxBudget {
		v.addf(p+".tokens", "budget tokens must be between 0 (no budget) and %d", MaxBudget)
	}
	switch b.Policy {
	case "", PolicyRecord, PolicyRaw:
	default:
		v.addf(p+".policy", "budget policy must be %s or %s", PolicyRecord, PolicyRaw)
	}
	if b.Tokens > 0 && b.Tokenizer == "" {
		for _, m := range models {
			if m.Tokenizer == "" {
				v.addf(p, "budget without a tokenizer counts with each model's tokenizer, and model %s has none: set budget.tokenizer", m.ModelName())
				break
			}
		}
	}
}

func (v *validator) checkOrdering(p string, o *Ordering) {
	if o == nil {
		return
	}
	switch o.Kind {
	case "", OrderCanonical, OrderBFS:
		if o.Seed != 0 {
			v.addf(p+".seed", "seed is only for ordering %s", OrderShuffle)
		}
	case OrderShuffle:
	case "relevant_first", "interleaved", "bfs_from_query":
		v.addf(p+".kind", "ordering %s is defined for the benchmark's labelled graphs (isolda bench), not for RDF graphs in experiments: use %s, %s or %s",
			o.Kind, OrderCanonical, OrderShuffle, OrderBFS)
	default:
		v.addf(p+".kind", "unknown ordering %q (one of %s, %s, %s)", o.Kind, OrderCanonical, OrderShuffle, OrderBFS)
	}
}

// validTitle reports whether s is a usable experiment name: free text (the
// paper's names have spaces and §), but nothing that could steer a path
// made from it.
func validTitle(s string) bool {
	if len(s) > 200 || !utf8.ValidString(s) || strings.ContainsAny(s, "/\\") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return s != "." && s != ".."
}

// GraphName returns the graph's name, or its file's base name.
func (g Graph) GraphName() string {
	if g.Name != "" {
		return g.Name
	}
	b := cmp.Or(g.File, g.Set)
	if i := strings.LastIndexAny(b, `/\`); i >= 0 {
		b = b[i+1:]
	}
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}

// ArmName returns the arm's name, or its format.
func (a Arm) ArmName() string {
	if a.Name != "" {
		return a.Name
	}
	return a.Format
}

// ModelName returns the model's name in the run, or its model.
func (m Model) ModelName() string {
	if m.Name != "" {
		return m.Name
	}
	return m.Model
}

// TaskName returns the task's name, or a default.
func (t Task) TaskName() string {
	if t.Name != "" {
		return t.Name
	}
	if t.Set != "" {
		return Graph{File: t.Set}.GraphName()
	}
	return "kg"
}

// NumTrials is the number of times each call is made: Trials, at least 1.
func (e *Experiment) NumTrials() int {
	if e.Trials <= 0 {
		return 1
	}
	return e.Trials
}

// budgetOf returns the budget of an arm (nil: none).
func (e *Experiment) budgetOf(a Arm) *Budget {
	b := a.Budget
	if b == nil {
		b = e.Budget
	}
	if b == nil || b.Tokens <= 0 {
		return nil
	}
	return b
}

// orderingOf returns the ordering of an arm.
func (e *Experiment) orderingOf(a Arm) Ordering {
	o := a.Ordering
	if o == nil {
		o = e.Ordering
	}
	if o == nil || o.Kind == "" {
		return Ordering{Kind: OrderCanonical}
	}
	return *o
}

func (b *Budget) policy() string {
	if b.Policy == "" {
		return PolicyRecord
	}
	return b.Policy
}

func (e *Experiment) layout() string {
	if e.Layout == "" {
		return LayoutSystemUser
	}
	return e.Layout
}
