package report

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/llm/llmtest"
)

// runTTL is a small graph whose questions are known by hand: three ages
// to look up and one count of persons.
const runTTL = `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:alice a ex:Person ; rdfs:label "Alice" ; ex:age "31" ; ex:knows ex:bob .
ex:bob a ex:Person ; rdfs:label "Bob" ; ex:age "27" .
ex:carol a ex:Person ; rdfs:label "Carol" ; ex:age "45" .
`

// testRun is an eval run made against the scripted server: two arms (b-ttl;
// isolda with a glossary option and its name hidden), two models, the four
// questions of runTTL, one trial. The server answers the gold answer,
// except "no idea" to the count question (wrong) and HTTP 400 to model m2
// asking about Carol (failed).
type testRun struct {
	dir  string
	plan *eval.Plan
	srv  *llmtest.Server
}

func newTestRun(t *testing.T) *testRun {
	t.Helper()
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "g.ttl"), []byte(runTTL), 0o644); err != nil {
		t.Fatal(err)
	}
	exp := func(url string) *eval.Experiment {
		y := `name: report test
graphs:
  - {name: g, file: g.ttl}
arms:
  - {name: ttl, format: b-ttl}
  - {name: iso, format: isolda, hide_name: true, options: {glossary: legend}}
models:
  - {name: m1, base_url: ` + url + `, model: model-one, tokenizer: o200k_base}
  - {name: m2, base_url: ` + url + `, model: model-two, extra_body: {top_k: 5}}
tasks:
  - name: kg
    generate: {families: [lookup, count], per_family: 3, seed: 1}
temperature: 0
max_tokens: 50
seed: 7
retries: -1
`
		path := filepath.Join(base, "exp.yaml")
		if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := eval.LoadExperiment(path)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := exp("http://127.0.0.1:1/v1")
	p, err := eval.Prepare(e, base)
	if err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, en := range p.Entries {
		gold[en.Q.Text] = en.Q.Gold.Value
	}
	if len(p.Entries) != 4 {
		t.Fatalf("%d questions, want 4", len(p.Entries))
	}
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		q := r.Messages[len(r.Messages)-1].Content
		switch {
		case strings.Contains(q, "How many"):
			return llmtest.Reply{Text: "no idea"}
		case r.Model == "model-two" && strings.Contains(q, "Carol"):
			return llmtest.Reply{Status: http.StatusBadRequest}
		}
		return llmtest.Reply{Text: gold[q]}
	})
	t.Cleanup(srv.Close)
	e = exp(srv.URL)
	if p, err = eval.Prepare(e, base); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "run")
	res, err := runner.Run(context.Background(), p, runner.RunOptions{Out: dir})
	if err != nil && res.Failed == 0 {
		t.Fatal(err)
	}
	return &testRun{dir: dir, plan: p, srv: srv}
}

func TestReadRun(t *testing.T) {
	tr := newTestRun(t)
	run, err := ReadRun(tr.dir)
	if err != nil {
		t.Fatal(err)
	}
	// 2 arms × 2 models × 4 questions; m2's two calls about Carol failed.
	if len(run.Samples) != 16 || run.OK != 14 || run.Failed != 2 {
		t.Fatalf("%d samples, %d ok, %d failed: want 16, 14, 2", len(run.Samples), run.OK, run.Failed)
	}
	correct := 0
	for _, s := range run.Samples {
		if s.Correct {
			correct++
		}
		if s.Status == runner.StatusOK && s.Correct == (s.Family == "count") {
			t.Errorf("%s: correct=%v, family %s, answer %q", s.Key, s.Correct, s.Family, s.Answer)
		}
	}
	// 14 answered, minus the four count answers.
	if correct != 10 {
		t.Errorf("%d correct, want 10", correct)
	}
	want := tr.srv.URL
	for _, m := range []string{"m1", "m2"} {
		if got := run.Endpoints[m]; len(got) != 1 || got[0] != want {
			t.Errorf("endpoints of %s: %v, want [%s]", m, got, want)
		}
	}
	if len(run.Manifest.Arms) != 2 || run.Manifest.Arms[1].Options != "glossary=legend" {
		t.Errorf("arms %+v", run.Manifest.Arms)
	}
	if run.First == "" || run.Last < run.First {
		t.Errorf("dates %q to %q", run.First, run.Last)
	}
	// The messages as the server received them (its own record, not the
	// log's) are the samples' messages, context included.
	received := map[string]bool{}
	for _, r := range tr.srv.Requests() {
		var b strings.Builder
		b.WriteString(r.Model)
		for _, m := range r.Messages {
			b.WriteString("\x00" + m.Role + "\x00" + m.Content)
		}
		received[b.String()] = true
	}
	models := map[string]string{"m1": "model-one", "m2": "model-two"}
	withContext := 0
	for _, s := range run.Samples {
		var b strings.Builder
		b.WriteString(models[s.Model])
		for _, m := range s.Messages {
			b.WriteString("\x00" + m.Role + "\x00" + m.Content(run.Contexts))
			if m.ContextSHA1 != "" {
				withContext++
			}
		}
		if !received[b.String()] {
			t.Errorf("%s: the messages shown are not those the server received:\n%q", s.Key, b.String())
		}
	}
	if withContext != 16 {
		t.Errorf("%d messages refer to their context, want 16 (one system message per call)", withContext)
	}
	if len(run.Contexts) != 2 {
		t.Errorf("%d contexts kept, want 2 (one per arm)", len(run.Contexts))
	}
}
