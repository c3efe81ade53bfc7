package report

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
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
	res, err := eval.Run(context.Background(), p, eval.RunOptions{Out: dir})
	if err != nil && res.Failed == 0 {
		t.Fatal(err)
	}
	return &testRun{dir: dir, plan: p, srv: srv}
}

// read reads the run and builds its report.
func (tr *testRun) read(t *testing.T) (*Run, *Report) {
	t.Helper()
	run, err := ReadRun(tr.dir)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := FromRun(tr.dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(obs, Options{Seed: 1, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	return run, r
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
		if s.Status == eval.StatusOK && s.Correct == (s.Family == "count") {
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

func TestRunPage(t *testing.T) {
	tr := newTestRun(t)
	run, r := tr.read(t)
	var b bytes.Buffer
	must(t, Page{Title: "isolda report", Report: r, Run: run}.WriteHTML(&b))
	s := b.String()
	counts := xmlElements(t, s)
	noExternal(t, s)
	if counts["details.sample"] != 16 || counts["details.correct"] != 10 || counts["details.wrong"] != 4 || counts["details.failed"] != 2 {
		t.Errorf("samples %v: want 16 (10 correct, 4 wrong, 2 failed)", counts)
	}
	// Filters: 2 arms, 2 models, 2 families, 3 outcomes, each a ticked
	// check box with a CSS rule hiding its samples when unticked.
	if counts["input"] != 9 {
		t.Errorf("%d filter check boxes, want 9", counts["input"])
	}
	for _, rule := range []string{
		"#samples:has(#f-arm-1:not(:checked)) .arm-1{display:none}",
		"#samples:has(#f-model-0:not(:checked)) .model-0{display:none}",
		"#samples:has(#f-family-1:not(:checked)) .family-1{display:none}",
		"#samples:has(#f-failed:not(:checked)) .sample.failed{display:none}",
	} {
		if !strings.Contains(s, rule) {
			t.Errorf("missing filter rule %s", rule)
		}
	}
	// Run metadata.
	for _, want := range []string{
		run.Manifest.RunID, tr.srv.URL, "glossary=legend", run.Manifest.QuestionsSHA1, "model-two",
		`<code>{&#34;top_k&#34;:5}</code>`, run.Manifest.Contexts[0].SHA1, run.Manifest.Contexts[0].GraphSHA1,
		"14 answered, 2 failed, of 16 planned",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page does not show %q", want)
		}
	}
	// A single graph: no graph column, no per-graph rows; one trial.
	acc := s[strings.Index(s, `id="table-accuracy"`):]
	acc = acc[:strings.Index(acc, "</table>")]
	if !strings.Contains(acc, "Accuracy with Wilson 95% intervals (graph g)") || strings.Contains(acc, `data-label="graph"`) {
		t.Error("the accuracy table repeats the single graph")
	}
	if !strings.Contains(s, "<p class=\"note\">"+NoRunToRun+"</p>") {
		t.Error("the run-to-run table does not say why it is empty")
	}
	// Each context once, every reference pointing at it.
	for _, c := range run.Manifest.Contexts {
		if n := strings.Count(s, `id="ctx-`+c.SHA1+`"`); n != 1 {
			t.Errorf("context %s shown %d times", c.SHA1, n)
		}
		if n := strings.Count(s, `href="#ctx-`+c.SHA1+`"`); n != 8 {
			t.Errorf("context %s referred to %d times, want 8 (2 models × 4 questions)", c.SHA1, n)
		}
	}
	// The page allows no script and loads nothing.
	if !regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;`).MatchString(s) {
		t.Error("no Content-Security-Policy limited to the page's style")
	}
	if counts["script"] != 0 {
		t.Error("the page has a script")
	}
	// Deterministic: the same run gives the same bytes.
	var again bytes.Buffer
	must(t, Page{Title: "isolda report", Report: r, Run: run}.WriteHTML(&again))
	if again.String() != s {
		t.Error("two renderings of the same run differ")
	}
	// MaxSamples cuts the view and says so.
	var cut bytes.Buffer
	must(t, Page{Title: "t", Report: r, Run: run, MaxSamples: 5}.WriteHTML(&cut))
	if c := xmlElements(t, cut.String()); c["details.sample"] != 5 || !strings.Contains(cut.String(), "11 more calls are not shown") {
		t.Errorf("MaxSamples 5: %d samples shown", c["details.sample"])
	}
	if dir := os.Getenv("REPORT_OUT"); dir != "" {
		must(t, os.WriteFile(filepath.Join(dir, "run-report.html"), b.Bytes(), 0o644))
	}
}

func TestWriteDir(t *testing.T) {
	tr := newTestRun(t)
	run, r := tr.read(t)
	out := filepath.Join(t.TempDir(), "out")
	must(t, WriteDir(out, Page{Title: "isolda report", Report: r, Run: run}))
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := "[accuracy.csv pairs.csv pareto.csv report.html report.json report.md run_to_run.csv tokens.csv]"
	if got := fmt.Sprint(names); got != want {
		t.Errorf("files %v, want %s (no temporary file left)", names, want)
	}
}
