// Package evaltest holds the experiments, graphs and question sets that
// the tests of eval and eval/runner share, as files they write. Tests only.
package evaltest

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/task/kg"
)

// Scorers is the scorer table of the tests of eval and eval/runner (eval
// takes its table from its caller; the command line's is study.Scorings,
// which these tests cannot import): kg's scorer, the default, and
// graphqa's, the benchmarks these tests ask.
func Scorers() task.Scorings {
	return task.Scorings{kg.Scoring(), graphqa.Scoring()}
}

// DemoTTL is a small graph whose questions the tests know by hand.
const DemoTTL = `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:alice a ex:Person ; rdfs:label "Alice" ; ex:age "31" ; ex:knows ex:bob .
ex:bob a ex:Person ; rdfs:label "Bob" ; ex:age "27" .
ex:carol a ex:Person ; rdfs:label "Carol" ; ex:age "45" .
`

// WriteExp writes the demo experiment (two arms, one model at base, KG
// questions of two families, two trials) and its graph DemoTTL into dir,
// with extra YAML appended, and returns the experiment file's path.
func WriteExp(t *testing.T, dir, base, extra string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(DemoTTL), 0o644); err != nil {
		t.Fatal(err)
	}
	y := `name: t
graphs:
  - {name: g, file: g.ttl}
arms:
  - {name: a1, format: b-ttl}
  - {name: a2, format: isolda, hide_name: true}
models:
  - name: m
    base_url: ` + base + `
    model: test-model
    tokenizer: o200k_base
    extra_body: {chat_template_kwargs: {enable_thinking: false}}
    max_concurrency: 4
tasks:
  - name: kg
    generate: {families: [lookup, count], per_family: 3, seed: 1}
temperature: 0
max_tokens: 50
seed: 7
trials: 2
retries: 1
` + extra
	path := filepath.Join(dir, "exp.yaml")
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two small items in Turtle, with labels (so ISOLDA uses them as ids).
var ItemTTL = map[string]string{
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

// WriteSet writes a frozen set (gzip-compressed when name ends in .gz).
func WriteSet(t testing.TB, dir, name string, set *task.Set) {
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

// CollectionDir writes a collection of two Turtle items with one question
// each (items.jsonl.gz), and a stored arm whose contexts are a fixed text
// per item (edges.jsonl).
func CollectionDir(t *testing.T) string {
	dir := t.TempDir()
	items := &task.Set{Name: "items"}
	for _, id := range []string{"i1", "i2"} {
		items.Contexts = append(items.Contexts, task.Context{ID: id, Text: ItemTTL[id]})
	}
	items.Questions = []task.Question{
		{ID: "q1", Family: "lookup", Task: "TripleRetrieval", Text: "Does Andorra border Spain?", ContextID: "i1",
			Gold: task.Answer{Text: "Yes", Kind: task.KindYesNo, Value: "yes"}, Meta: map[string]string{"hint": "H1"}},
		{ID: "q2", Family: "lookup", Task: "AggByRelation", Text: "What is the currency of Malta?", ContextID: "i2",
			Gold: task.Answer{Text: "euro", Kind: task.KindText, Value: "euro"}, Meta: map[string]string{"hint": "H2"}},
	}
	WriteSet(t, dir, "items.jsonl.gz", items)
	edges := &task.Set{Name: "edges", Contexts: []task.Context{
		{ID: "i1", Text: "Edges: [\n(Andorra, border, Spain)\n]\n"},
		{ID: "i2", Text: "Edges: [\n(Malta, currency, euro)\n]\n"},
	}}
	WriteSet(t, dir, "edges.jsonl", edges)
	return dir
}

// KGLLMIntro is a prompt template in KG-LLM-Bench's words.
const KGLLMIntro = "Your job is to answer questions using the following knowledge graph. {{arm.description}}. You must rely exclusively on the information presented in the Knowledge Graph to answer questions.\n\nKnowledge Graph:\n{{context}}\n\n{{question}}"

// CollectionYAML is an experiment on the collection of CollectionDir: a
// stored arm, two ISOLDA arms (one with its own prompt), and two models at
// base.
func CollectionYAML(base string) string {
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
  user: "` + strings.ReplaceAll(KGLLMIntro, "\n", `\n`) + `"
temperature: 0
max_tokens: 512
`
}

// WriteShapedExp writes an experiment on the demo graph of package examples
// whose arms have budgets and orderings (bfs, shuffle, raw and record
// policies) into dir, and returns its path.
func WriteShapedExp(t *testing.T, dir string) string {
	t.Helper()
	b, err := examples.Read("demo.ttl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "demo.ttl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	y := `name: shaped
graphs: [{name: demo, file: demo.ttl}]
budget: {tokens: 300, tokenizer: o200k_base}
arms:
  - {name: iso, format: isolda, budget: {tokens: 0}}
  - {name: iso-bfs, format: isolda-0.3, ordering: {kind: bfs}, budget: {tokens: 0}}
  - {name: nt-shuf, format: ntriples, ordering: {kind: shuffle, seed: 3}}
  - {name: nt-bfs, format: ntriples, ordering: {kind: bfs}, budget: {tokens: 250, policy: raw, tokenizer: o200k_base}}
  - {name: ttl, format: turtle}
models:
  - {name: m, base_url: http://127.0.0.1:1/v1, model: x}
tasks:
  - generate: {families: [lookup, multi_hop], per_family: 2, seed: 1}
`
	path := filepath.Join(dir, "exp.yaml")
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
