package eval

import (
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
)

// Two small items in Turtle, with labels (so ISOLDA uses them as ids).
var itemTTL = map[string]string{
	"i1": `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:a rdfs:label "Andorra" ; ex:border ex:b .
ex:b rdfs:label "Spain" .
`,
	"i2": `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:c rdfs:label "Malta" ; ex:currency ex:d .
ex:d rdfs:label "euro" .
`,
}

// writeSet writes a frozen set (gzip-compressed when name ends in .gz).
func writeSet(t *testing.T, dir, name string, set *task.Set) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if strings.HasSuffix(name, ".gz") {
		zw := gzip.NewWriter(f)
		if err := task.WriteFrozen(zw, set); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := task.WriteFrozen(f, set); err != nil {
		t.Fatal(err)
	}
}

// collectionDir writes a collection of two Turtle items with one question
// each (items.jsonl.gz), and a stored arm whose contexts are a fixed text
// per item (edges.jsonl).
func collectionDir(t *testing.T) string {
	dir := t.TempDir()
	items := &task.Set{Name: "items"}
	for _, id := range []string{"i1", "i2"} {
		items.Contexts = append(items.Contexts, task.Context{ID: id, Text: itemTTL[id]})
	}
	items.Questions = []task.Question{
		{ID: "q1", Family: "lookup", Task: "TripleRetrieval", Text: "Does Andorra border Spain?", ContextID: "i1",
			Gold: task.Answer{Text: "Yes", Kind: task.KindYesNo, Value: "yes"}, Meta: map[string]string{"hint": "H1"}},
		{ID: "q2", Family: "lookup", Task: "AggByRelation", Text: "What is the currency of Malta?", ContextID: "i2",
			Gold: task.Answer{Text: "euro", Kind: task.KindText, Value: "euro"}, Meta: map[string]string{"hint": "H2"}},
	}
	writeSet(t, dir, "items.jsonl.gz", items)
	edges := &task.Set{Name: "edges", Contexts: []task.Context{
		{ID: "i1", Text: "Edges: [\n(Andorra, border, Spain)\n]\n"},
		{ID: "i2", Text: "Edges: [\n(Malta, currency, euro)\n]\n"},
	}}
	writeSet(t, dir, "edges.jsonl", edges)
	return dir
}

const kgllmIntro = "Your job is to answer questions using the following knowledge graph. {{arm.description}}. You must rely exclusively on the information presented in the Knowledge Graph to answer questions.\n\nKnowledge Graph:\n{{context}}\n\n{{question}}"

func collectionYAML(base string) string {
	return `name: c
graphs:
  - {name: bench, set: items.jsonl.gz, syntax: turtle}
arms:
  - name: list_of_edges
    stored: edges.jsonl
    graphs: [bench]
    vars: {description: "The knowledge graph is presented as a list of edges."}
  - name: isolda-0.1
    format: isolda-0.1
    vars: {description: "The knowledge graph is presented in ISOLDA."}
  - name: isolda-no-aliases
    format: isolda
    options: {spec: "0.2", no_term_aliases: true, glossary: legend}
    vars: {description: "The knowledge graph is presented in ISOLDA."}
    prompt:
      system: "Hint {{meta.hint}}."
      user: "{{format}} data:\n{{context}}\nQ: {{question}}"
models:
  - {name: big, base_url: ` + base + `, model: big}
  - {name: small, base_url: ` + base + `, model: small, arms: [list_of_edges, isolda-0.1]}
tasks:
  - {name: bench, set: items.jsonl.gz, graph: bench}
prompt:
  user: "` + strings.ReplaceAll(kgllmIntro, "\n", `\n`) + `"
temperature: 0
max_tokens: 512
`
}

func TestCollectionStoredArmsAndTemplates(t *testing.T) {
	dir := collectionDir(t)
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "Yes"} })
	defer srv.Close()
	e, err := ParseExperiment([]byte(collectionYAML(srv.URL)), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	// 2 items × 3 arms; big reads 3 arms, small 2: (3 + 2) × 2 questions.
	if len(p.Contexts) != 6 || p.Manifest.Calls != 10 {
		t.Fatalf("%d contexts, %d calls; want 6 and 10", len(p.Contexts), p.Manifest.Calls)
	}
	for _, c := range p.Contexts {
		switch c.Arm {
		case "list_of_edges":
			if c.RoundTrip != "" || c.Format != "list_of_edges" || c.GraphSHA1 != task.SHA1Hex(itemTTL[c.Item]) {
				t.Errorf("stored context %+v", c)
			}
		default:
			if c.RoundTrip != RoundTripIsomorphic {
				t.Errorf("%s/%s: round trip %q %s", c.Item, c.Arm, c.RoundTrip, c.RoundTripDetail)
			}
		}
	}
	out := filepath.Join(dir, "run")
	if _, err := Run(context.Background(), p, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 10 {
		t.Fatalf("%d requests", len(reqs))
	}
	// The experiment's template is the whole user message, byte for byte,
	// with nothing around it: no system message, no "Knowledge graph" header.
	want := "Your job is to answer questions using the following knowledge graph. The knowledge graph is presented as a list of edges.. You must rely exclusively on the information presented in the Knowledge Graph to answer questions.\n\nKnowledge Graph:\nEdges: [\n(Andorra, border, Spain)\n]\n\n\nDoes Andorra border Spain?"
	found, own := false, 0
	for _, r := range reqs {
		if r.Messages[len(r.Messages)-1].Content == want && len(r.Messages) == 1 {
			found = true
		}
		if len(r.Messages) == 2 {
			own++
			sys, user := r.Messages[0].Content, r.Messages[1].Content
			if sys != "Hint H1." && sys != "Hint H2." {
				t.Errorf("system message %q", sys)
			}
			if !strings.HasPrefix(user, "isolda data:\n# ISOLDA 0.2") || strings.Count(user, "Thing_[2]") != 1 {
				t.Errorf("arm template user message %q", user)
			}
		}
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "Knowledge graph (") || strings.Contains(m.Content, "Answer the question about the data below") {
				t.Errorf("built-in wrapper in a templated prompt: %q", m.Content)
			}
		}
	}
	if !found || own != 2 {
		t.Errorf("stored-arm prompt found %v, own-template prompts %d", found, own)
	}
	recs := readLog(t, out)
	items := map[string]int{}
	for _, r := range recs {
		items[r.Item]++
		if r.Graph != "bench" || r.Status != StatusOK {
			t.Errorf("record %+v", r)
		}
	}
	if items["i1"] != 5 || items["i2"] != 5 {
		t.Errorf("records per item %v", items)
	}
}

func TestCollectionErrors(t *testing.T) {
	dir := collectionDir(t)
	base := collectionYAML("http://h/v1")
	cases := []struct {
		from, to string
		msg      string
	}{
		// The question set names an item the collection does not have.
		{"tasks:\n  - {name: bench, set: items.jsonl.gz, graph: bench}", "tasks:\n  - {name: bench, set: q.jsonl, graph: bench}", `its context "i9" is not an item`},
		// The stored arm lacks an item.
		{"stored: edges.jsonl", "stored: edges1.jsonl", "has no context for item i2"},
		// A template uses meta the questions lack.
		{"Hint {{meta.hint}}", "Hint {{meta.nope}}", "question bench/bench/q1 has no such meta"},
	}
	writeSet(t, dir, "q.jsonl", &task.Set{Contexts: []task.Context{{ID: "i9", SHA1: task.SHA1Hex("other")}},
		Questions: []task.Question{{ID: "q9", Family: "lookup", Text: "?", ContextID: "i9", Gold: task.Answer{Text: "x", Value: "x"}}}})
	writeSet(t, dir, "edges1.jsonl", &task.Set{Contexts: []task.Context{{ID: "i1", Text: "x"}}})
	for i, c := range cases {
		y := strings.Replace(base, c.from, c.to, 1)
		if y == base {
			t.Fatalf("case %d: no replacement", i)
		}
		e, err := ParseExperiment([]byte(y), "c.yaml")
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if _, err := Prepare(e, dir); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("case %d: error %v, want %q", i, err, c.msg)
		}
	}
}

func TestValidateStudyFields(t *testing.T) {
	base := collectionYAML("http://h/v1")
	cases := []struct {
		from, to  string
		line, col int
		msg       string
	}{
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {spec: \"0.1\", no_term_aliases: true}", 14, 45, "no_term_aliases has no effect on spec 0.1"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {hops: 2}", 14, 21, "hops crops around an anchor"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {glossary: systems}", 14, 25, "glossary must be full, legend, none or system"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {version: \"0.1\"}", 14, 15, "unknown field \"version\""},
		{"format: isolda-0.1\n", "format: isolda-0.1\n    options: {spec: \"0.2\"}\n", 11, 21, "format isolda-0.1 is spec 0.1"},
		{"arms: [list_of_edges, isolda-0.1]", "arms: [list_of_edges, nope]", 21, 78, `unknown arm "nope"`},
		{"graphs: [bench]\n    vars", "graphs: [other]\n    vars", 7, 14, `unknown graph "other"`},
		{"user: \"{{format}} data", "user: \"{{fmt}} data", 18, 13, "unknown placeholder {{fmt}}"},
		{"{{question}}\"\nmodels", "{{question}} {{context}}\"\nmodels", 18, 13, "{{context}} must appear exactly once"},
		{"isolda-0.1\n    vars: {description: \"The knowledge graph is presented in ISOLDA.\"}", "isolda-0.1", 9, 9, "no such variable"},
		{"syntax: turtle", "syntax: list_of_edges", 3, 48, "has no decoder"},
		{"stored: edges.jsonl", "stored: edges.jsonl\n    budget: {tokens: 10, tokenizer: o200k_base}", 5, 9, "no options, ordering or budget"},
	}
	for i, c := range cases {
		y := strings.Replace(base, c.from, c.to, 1)
		if y == base {
			t.Fatalf("case %d: no replacement", i)
		}
		_, err := ParseExperiment([]byte(y), "c.yaml")
		var pe *rdf.ParseError
		var ve *ValidationError
		switch {
		case errors.As(err, &ve):
			pe = ve.Problems[0]
		case !errors.As(err, &pe):
			t.Errorf("case %d: error %v", i, err)
			continue
		}
		if pe.Line != c.line || pe.Column != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("case %d: %v; want %d:%d %q", i, err, c.line, c.col, c.msg)
		}
	}
}

// Every context of a lossless arm is decoded when the run is prepared, and
// the result is in the manifest: isomorphic for whole graphs, isomorphic to
// the crop for a document cropped to hops around each question's anchor,
// cut for a context cut to a budget; lossy formats are not checked.
func TestRoundTripInManifest(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://h/v1", "")
	e.Arms = []Arm{
		{Name: "i", Format: "isolda"},
		{Name: "i-crop", Format: "isolda", Options: &IsoldaOptions{Hops: 1}, Ordering: &Ordering{Kind: OrderBFS}},
		{Name: "i-anchor", Format: "isolda-0.1", Options: &IsoldaOptions{Anchor: "http://example.org/bob"}},
		{Name: "nt-cut", Format: "ntriples", Budget: &Budget{Tokens: 40, Tokenizer: "o200k_base"}},
		{Name: "edges", Format: "list_of_edges"},
	}
	p := prepare(t, e, dir)
	got := map[string]map[string]int{}
	for _, c := range p.Contexts {
		if got[c.Arm] == nil {
			got[c.Arm] = map[string]int{}
		}
		got[c.Arm][c.RoundTrip]++
		// Carol is linked to nobody: her crop holds only her.
		if c.Arm == "i-crop" && c.Anchor == "http://example.org/carol" && (strings.Contains(c.Text, "Alice") || !strings.Contains(c.Text, "Carol")) {
			t.Errorf("context cropped around Carol: %q", c.Text)
		}
	}
	// 3 lookups (alice, bob, carol) and 1 count: anchors alice, bob, carol
	// and none.
	want := map[string]map[string]int{
		"i": {RoundTripIsomorphic: 1}, "i-crop": {RoundTripIsomorphic: 4}, "i-anchor": {RoundTripIsomorphic: 1},
		"nt-cut": {RoundTripCut: 1}, "edges": {"": 1},
	}
	for a, w := range want {
		for k, n := range w {
			if got[a][k] != n || len(got[a]) != len(w) {
				t.Errorf("arm %s: round trips %v, want %v", a, got[a], w)
			}
		}
	}
}

// A task's template overrides the experiment's for its questions; a
// model's graphs restrict the questions it is asked.
func TestTaskPromptAndModelGraphs(t *testing.T) {
	dir := collectionDir(t)
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(demoTTL), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "x"} })
	defer srv.Close()
	y := `name: tp
graphs:
  - {name: bench, set: items.jsonl.gz, syntax: turtle}
  - {name: g, file: g.ttl}
arms:
  - {name: nt, format: ntriples, vars: {label: N-Triples}}
models:
  - {name: all, base_url: ` + srv.URL + `, model: a}
  - {name: files-only, base_url: ` + srv.URL + `, model: b, graphs: [g]}
tasks:
  - {name: bench, set: items.jsonl.gz, graph: bench, prompt: {user: "B {{arm.label}}\n{{context}}{{question}}"}}
  - {name: kg, generate: {families: [count], per_family: 1}}
prompt:
  system: "S {{context}}"
  user: "{{question}}"
`
	e, err := ParseExperiment([]byte(y), "tp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	// bench: 2 questions, kg: 1 (one count on g); files-only is asked
	// only about g.
	if len(p.Entries) != 3 || p.Manifest.Calls != 3+1 {
		t.Fatalf("%d questions, %d calls", len(p.Entries), p.Manifest.Calls)
	}
	if _, err := Run(context.Background(), p, RunOptions{Out: filepath.Join(dir, "run")}); err != nil {
		t.Fatal(err)
	}
	var bench, kg int
	for _, r := range srv.Requests() {
		switch {
		case len(r.Messages) == 1 && strings.HasPrefix(r.Messages[0].Content, "B N-Triples\n<http://example.org/"):
			bench++
			if r.Model != "a" {
				t.Errorf("model %s asked about the collection", r.Model)
			}
		case len(r.Messages) == 2 && strings.HasPrefix(r.Messages[0].Content, "S <http://example.org/"):
			kg++
		default:
			t.Errorf("messages %+v", r.Messages)
		}
	}
	if bench != 2 || kg != 2 {
		t.Errorf("%d bench and %d kg calls, want 2 and 2", bench, kg)
	}
	// A task prompt's {{arm.NAME}} must be defined by every arm asked.
	bad := strings.Replace(y, "vars: {label: N-Triples}", "vars: {}", 1)
	if _, err := ParseExperiment([]byte(bad), "tp.yaml"); err == nil || !strings.Contains(err.Error(), "{{arm.label}}") {
		t.Errorf("undefined task prompt variable: %v", err)
	}
}
