package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
)

func TestCollectionStoredArmsAndTemplates(t *testing.T) {
	dir := evaltest.CollectionDir(t)
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "Yes"} })
	defer srv.Close()
	e, err := eval.ParseExperiment([]byte(evaltest.CollectionYAML(srv.URL)), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.Prepare(e, dir, evaltest.Scorers())
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
			if c.RoundTrip != "" || c.Format != "list_of_edges" || c.GraphSHA1 != task.SHA1Hex(evaltest.ItemTTL[c.Item]) {
				t.Errorf("stored context %+v", c)
			}
		default:
			if c.RoundTrip != eval.RoundTripIsomorphic {
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

// A task's template overrides the experiment's for its questions; a
// model's graphs restrict the questions it is asked.
func TestTaskPromptAndModelGraphs(t *testing.T) {
	dir := evaltest.CollectionDir(t)
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(evaltest.DemoTTL), 0o644); err != nil {
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
	e, err := eval.ParseExperiment([]byte(y), "tp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.Prepare(e, dir, evaltest.Scorers())
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
	if _, err := eval.ParseExperiment([]byte(bad), "tp.yaml"); err == nil || !strings.Contains(err.Error(), "{{arm.label}}") {
		t.Errorf("undefined task prompt variable: %v", err)
	}
}
