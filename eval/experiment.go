// Package eval runs evaluation experiments: every question of a question set,
// asked about every graph rendered in every format ("arm"), of every model of
// an OpenAI-compatible endpoint, a number of times, with frozen and hashed
// inputs and an append-only answer log.
//
// An Experiment is read from a YAML file (ParseExperiment, see ExampleYAML).
// Prepare renders every (graph × arm) context and every question and hashes
// them (SHA-1); Run writes the frozen inputs to the run folder (contexts/,
// questions.jsonl, manifest.json), refuses to continue a run whose inputs
// differ, and sends the calls through package llm, appending one Record per
// call to answers.jsonl. A run that was cancelled or had failed calls is
// resumed by running it again: calls already answered are skipped, failed ones
// are retried, and the log is only ever appended to. Summarize reads a log
// back and reports accuracy and tokens per arm and model.
package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
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
	// TimeoutSeconds bounds each attempt (0: no limit).
	TimeoutSeconds float64 `yaml:"timeout_seconds"`
	// Budget is the token budget of every arm that sets none (nil or 0
	// tokens: the whole graph).
	Budget *Budget `yaml:"budget"`
	// Ordering is the record order of every arm that sets none (nil:
	// canonical).
	Ordering *Ordering `yaml:"ordering"`
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

// Graph is one RDF graph file.
type Graph struct {
	// Name identifies the graph in the run (default: the file's base name).
	Name string `yaml:"name"`
	// File is the path of the RDF file, relative to the experiment file.
	File string `yaml:"file"`
}

// Arm is one way of rendering a graph.
type Arm struct {
	// Name identifies the arm (default: the format name).
	Name string `yaml:"name"`
	// Format is a name of the format registry (`isolda formats`).
	Format string `yaml:"format"`
	// Options configure the ISOLDA encoder; only for isolda formats.
	Options *IsoldaOptions `yaml:"options"`
	// HideName leaves the format's name out of the prompt.
	HideName bool `yaml:"hide_name"`
	// Budget overrides the experiment's budget (tokens: 0 for none).
	Budget *Budget `yaml:"budget"`
	// Ordering overrides the experiment's ordering.
	Ordering *Ordering `yaml:"ordering"`
}

// IsoldaOptions are the encoder options an arm of an isolda format may set
// (see isolda.Options for their meaning).
type IsoldaOptions struct {
	Version          string  `yaml:"version"`
	IDs              string  `yaml:"ids"`
	Glossary         string  `yaml:"glossary"`
	Layout           string  `yaml:"layout"`
	Theta            float64 `yaml:"theta"`
	NoConstants      bool    `yaml:"no_constants"`
	NoTypes          bool    `yaml:"no_types"`
	Continuation     bool    `yaml:"continuation"`
	InlineBlanks     bool    `yaml:"inline_blanks"`
	InverseIndex     bool    `yaml:"inverse_index"`
	IRIIDs           bool    `yaml:"iri_ids"`
	DatatypePrefixes bool    `yaml:"datatype_prefixes"`
}

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
	// asked about, rendered by every arm; without it the set's own stored
	// contexts are used as they are, under the arm "context".
	Graph string `yaml:"graph"`
	// Generate generates KG questions from every graph.
	Generate *Generate `yaml:"generate"`
	// Scorer is kg, graphqa, final, kgllm_strict, kgllm_lenient or impact;
	// empty: chosen by each question's family.
	Scorer string `yaml:"scorer"`
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
	return &e, nil
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

var scorerNames = []string{"kg", "graphqa", "final", "kgllm_strict", "kgllm_lenient", "impact"}

func (v *validator) check(e *Experiment) {
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
	for i, g := range e.Graphs {
		p := fmt.Sprintf("$.graphs[%d]", i)
		if g.File == "" {
			v.addf(p, "graph %d: file is required", i)
		}
		v.checkFile(p+".file", "graph "+g.GraphName(), g.File)
		n := g.GraphName()
		if graphNames[n] {
			v.addf(p, "graph name %q used twice", n)
		}
		graphNames[n] = true
		if !validName(n) {
			v.addf(p, "graph name %q: use letters, digits, '.', '_' and '-'", n)
		}
	}
	if len(e.Arms) == 0 && len(e.Graphs) > 0 {
		v.addf("$.arms", "no arms")
	}
	armNames := map[string]bool{SetContextArm: true}
	for i, a := range e.Arms {
		p := fmt.Sprintf("$.arms[%d]", i)
		if a.Format == "" {
			v.addf(p, "arm %d: format is required", i)
		} else if _, ok := formats.Get(a.Format); !ok {
			v.addf(p+".format", "unknown format %q (see `isolda formats`)", a.Format)
		} else if a.Options != nil && !strings.HasPrefix(a.Format, "isolda") {
			v.addf(p+".options", "options are only for isolda formats, not %q", a.Format)
		}
		v.checkArmShaping(e, i, a)
		n := a.ArmName()
		if armNames[n] {
			v.addf(p, "arm name %q used twice (or reserved)", n)
		}
		armNames[n] = true
		if !validName(n) {
			v.addf(p, "arm name %q: use letters, digits, '.', '_' and '-'", n)
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
		if t.Graph != "" && t.Set == "" {
			v.addf(p+".graph", "graph is only for a task with a set")
		}
		if t.Scorer != "" && !contains(scorerNames, t.Scorer) {
			v.addf(p+".scorer", "unknown scorer %q (one of %s)", t.Scorer, strings.Join(scorerNames, ", "))
		}
		n := t.TaskName()
		if taskNames[n] {
			v.addf(p, "task name %q used twice", n)
		}
		taskNames[n] = true
		if !validName(n) {
			v.addf(p, "task name %q: use letters, digits, '.', '_' and '-'", n)
		}
	}
	switch e.Layout {
	case "", LayoutSystemUser, LayoutUser:
	default:
		v.addf("$.layout", "layout must be %s or %s", LayoutSystemUser, LayoutUser)
	}
	if e.Temperature < 0 || e.Temperature > 2 {
		v.addf("$.temperature", "temperature must be between 0 and 2")
	}
	if e.MaxTokens < 0 {
		v.addf("$.max_tokens", "max_tokens must not be negative")
	}
	if e.Trials < 0 || e.Trials > 10000 {
		v.addf("$.trials", "trials must be between 0 and 10000")
	}
	if e.Retries < -1 || e.Retries > 100 {
		v.addf("$.retries", "retries must be between -1 and 100")
	}
	if e.TimeoutSeconds < 0 {
		v.addf("$.timeout_seconds", "timeout_seconds must not be negative")
	}
	v.checkBudget("$.budget", e.Budget, e.Models)
	v.checkOrdering("$.ordering", e.Ordering)
	if (e.Budget != nil || e.Ordering != nil) && len(e.Arms) == 0 {
		v.addf("$", "budget and ordering apply to arms; this experiment has none")
	}
}

// orderable are the formats whose records eval can reorder: one statement
// per line, or ISOLDA rows in sections.
var orderable = []string{"isolda", "isolda-0.1", "isolda-0.3", "nquads", "ntriples"}

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
	if o != nil && o.Kind != "" && o.Kind != OrderCanonical && !contains(orderable, a.Format) {
		v.addf(op+".kind", "arm %s: ordering %s needs a format whose records can be reordered (%s), not %q",
			a.ArmName(), o.Kind, strings.Join(orderable, ", "), a.Format)
	}
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

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
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
	b := g.File
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

func (e *Experiment) trials() int {
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
