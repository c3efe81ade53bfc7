// Package reporttest holds the runs that the tests of report and
// report/page share: an eval run against a scripted server, a select run
// with the paper's figures, and observations (PaperRun, Small). Tests
// only.
package reporttest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/adaptive"
	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

// Run is an eval run made against the scripted server: two arms (b-ttl;
// isolda with a glossary option and its name hidden), two models, the four
// questions of RunTTL, one trial. The server answers the gold answer,
// except "no idea" to the count question (wrong) and HTTP 400 to model m2
// asking about Carol (failed).
type Run struct {
	Dir    string
	Plan   *eval.Plan
	Server *llmtest.Server
}

// NewRun makes the eval run of Run against a scripted server, in a
// temporary folder.
func NewRun(t *testing.T) *Run {
	t.Helper()
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "g.ttl"), []byte(RunTTL), 0o644); err != nil {
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
	p, err := eval.Prepare(e, base, task.Scorings{kg.Scoring()})
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
	if p, err = eval.Prepare(e, base, task.Scorings{kg.Scoring()}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "run")
	res, err := runner.Run(context.Background(), p, runner.RunOptions{Out: dir})
	if err != nil && res.Failed == 0 {
		t.Fatal(err)
	}
	return &Run{Dir: dir, Plan: p, Server: srv}
}

// RunTTL is a small graph whose questions are known by hand: three ages
// to look up and one count of persons.
const RunTTL = `@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:alice a ex:Person ; rdfs:label "Alice" ; ex:age "31" ; ex:knows ex:bob .
ex:bob a ex:Person ; rdfs:label "Bob" ; ex:age "27" .
ex:carol a ex:Person ; rdfs:label "Carol" ; ex:age "45" .
`

// PaperResult builds a select run with the study's Table 3 accuracies on
// n = 105 (§3 "Adaptive Format Selection"): router 64.76% (68), fixed-best
// 66.67% (70), MV-5 71.43% (75), selector 76.19% (80), oracle 82.86% (87).
// The selector/fixed-best discordant counts are derived in
// TestPaperDiscordantCounts: b = 13, c = 3 (both right 67, both wrong 22).
// Usage per question: fixed-best and router 1 call, 1000 input and 100
// output tokens, 2 s; selector 6 calls, 5600/160, 5 s; MV-5 and oracle 5
// calls, 5000/500, 3 s.
func PaperResult() *adaptive.Result {
	const n = 105
	right := func(k int) func(i int) bool { return func(i int) bool { return i < k } }
	pattern := map[string]func(i int) bool{
		// Questions 0–66 both right, 67–79 selector only, 80–82 fixed only.
		adaptive.PolicySelector:  right(80),
		adaptive.PolicyFixedBest: func(i int) bool { return i < 67 || (i >= 80 && i < 83) },
		adaptive.PolicyRouter:    right(68),
		adaptive.PolicyMV5:       right(75),
		adaptive.PolicyOracle:    right(87),
	}
	usage := map[string]adaptive.Usage{
		adaptive.PolicyFixedBest: {Calls: 1, PromptTokens: 1000, CompletionTokens: 100, LatencyMS: 2000},
		adaptive.PolicyRouter:    {Calls: 1, PromptTokens: 1000, CompletionTokens: 100, LatencyMS: 2000},
		adaptive.PolicySelector:  {Calls: 6, PromptTokens: 5600, CompletionTokens: 160, LatencyMS: 5000},
		adaptive.PolicyMV5:       {Calls: 5, PromptTokens: 5000, CompletionTokens: 500, LatencyMS: 3000},
		adaptive.PolicyOracle:    {Calls: 5, PromptTokens: 5000, CompletionTokens: 500, LatencyMS: 3000},
	}
	res := &adaptive.Result{Version: adaptive.ResultVersion, Model: "gpt-5.4", Split: "test", Band: 5, FixedBest: "nl_summary",
		PriceIn: 2, PriceOut: 8, Picks: []adaptive.FormatCount{{Format: "adjacency", Count: 60}, {Format: "nl_summary", Count: 45}}}
	for i := 0; i < n; i++ {
		q := adaptive.QuestionResult{QuestionID: "q" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Task: "t"}
		for _, p := range adaptive.Policies() {
			u := usage[p]
			u.Cost = (float64(u.PromptTokens)*2 + float64(u.CompletionTokens)*8) / 1e6
			q.Outcomes = append(q.Outcomes, adaptive.Outcome{Policy: p, Correct: pattern[p](i), Usage: u})
		}
		res.Questions = append(res.Questions, q)
	}
	res.Summary = adaptive.Summarize(res.Questions)
	return res
}
