package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/llm/llmtest"
)

// runEval runs `isolda eval ARGS`.
func runEval(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLI(t, "", append([]string{"eval"}, args...)...)
}

func TestEvalInitValidate(t *testing.T) {
	code, out, _ := runEval(t, "init")
	if code != 0 || out != eval.ExampleYAML {
		t.Fatalf("init to stdout: code %d", code)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "exp.yaml")
	if code, out, errs := runEval(t, "init", path); code != 0 || !strings.Contains(out, "wrote") {
		t.Fatalf("init FILE: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "demo.ttl")); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runEval(t, "init", path); code != exitBadInput {
		t.Errorf("init over an existing file: code %d", code)
	}
	code, out, errs := runEval(t, "validate", "--prepare", path)
	if code != 0 || !strings.HasPrefix(out, path+": ok: 4 contexts") {
		t.Fatalf("validate example: %d %q %q", code, out, errs)
	}
	// The example's shuffled, budgeted arm shows in the dry run.
	code, out, errs = runEval(t, "run", "--dry-run", path)
	if code != 0 || !regexpLine(out, `demo +nt-shuffled-400 +shuffle +- +400 record +o200k_base +\d+ +\d+/\d+`) {
		t.Fatalf("dry run of the example: %d %q %q", code, out, errs)
	}
	bad := writeIn(t, dir, "bad.yaml", "name: x\ngraphs: [{file: demo.ttl}]\narms:\n  - {format: nope}\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\ntemperature: 3\n")
	shapedBad := writeIn(t, dir, "shaped.yaml", "graphs: [{file: demo.ttl}]\narms:\n  - format: turtle\n    ordering: {kind: shuffle, seed: 2}\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\nbudget: {tokens: 100, policy: half}\n")
	code, _, errs = runEval(t, "validate", shapedBad)
	if code != exitBadInput || !strings.Contains(errs, shapedBad+":4:22: arm turtle: ordering shuffle needs a format whose records can be reordered") ||
		!strings.Contains(errs, shapedBad+":7:31: budget policy must be record or raw") ||
		!strings.Contains(errs, shapedBad+":7:9: budget without a tokenizer") {
		t.Errorf("validate shaped: code %d\n%s", code, errs)
	}
	code, _, errs = runEval(t, "validate", bad)
	if code != exitBadInput || !strings.Contains(errs, bad+`:4:14: unknown format "nope"`) ||
		!strings.Contains(errs, bad+":7:14: temperature must be between 0 and 2") {
		t.Errorf("validate bad: code %d\n%s", code, errs)
	}
	// The scorer table is study's, not the file parser's: an unknown
	// scorer is still reported where it stands, by validate and by run.
	badScorer := writeIn(t, dir, "scorer.yaml", "graphs: [{file: demo.ttl}]\narms: [{format: turtle}]\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks:\n  - generate: {}\n    scorer: finl\n")
	for _, args := range [][]string{{"validate", badScorer}, {"run", "--dry-run", badScorer}} {
		code, _, errs = runEval(t, args...)
		if code != exitBadInput || !strings.Contains(errs, badScorer+`:6:13: unknown scorer "finl" (one of kg, graphqa, final,`) {
			t.Errorf("%s with an unknown scorer: code %d\n%s", args[0], code, errs)
		}
	}
}

func TestEvalRunAndDryRun(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "g.ttl", demoTurtle)
	// demoTurtle has one count question (2 entities of type T).
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "There are 2."}
	})
	defer srv.Close()
	y := "graphs: [{file: g.ttl}]\narms: [{format: b-ttl}, {format: isolda}]\n" +
		"models: [{name: m, base_url: '" + srv.URL + "', model: x, tokenizer: o200k_base}]\n" +
		"tasks: [{generate: {families: [count]}}]\ntemperature: 0\n"
	exp := writeIn(t, dir, "exp.yaml", y)
	code, out, errs := runEval(t, "run", exp, "--dry-run")
	if code != 0 || !strings.Contains(out, "1 questions") {
		t.Fatalf("dry run: %d %q %q", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Fields(lines[2]); len(f) != 4 || f[0] != "m" || f[1] != "2" || f[2] != "o200k_base" {
		t.Errorf("dry run table: %q", out)
	}
	// Per arm: the two arms' calls and tokens add up to the model's.
	total := strings.Fields(lines[2])[3]
	a, b := strings.Fields(lines[5]), strings.Fields(lines[6])
	if len(a) != 5 || len(b) != 5 || a[1] != "b-ttl" || b[1] != "isolda" || a[2] != "1" || atoi(a[3])+atoi(b[3]) != atoi(total) {
		t.Errorf("dry run arms: %q", out)
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("dry run called the server")
	}
	runDir := filepath.Join(dir, "run")
	code, out, errs = runEval(t, "run", exp, "--out", runDir)
	if code != 0 || !strings.Contains(out, "2 calls answered now, 0 failed, 0 already answered") {
		t.Fatalf("run: %d %q %q", code, out, errs)
	}
	if !strings.Contains(errs, "eval: m: 2/2 done, 0 failed") {
		t.Errorf("no progress line on stderr: %q", errs)
	}
	for _, arm := range []string{"b-ttl", "isolda"} {
		if !regexpLine(out, arm+` +m +1 +1 +1.000 +0 `) {
			t.Errorf("summary lacks %s row:\n%s", arm, out)
		}
	}
	// A finished run with the same inputs is not prepared again: the
	// resume says so and prints what the full resume prints.
	code, fast, errs := runEval(t, "run", exp, "--out", runDir)
	if code != 0 || !strings.Contains(fast, "0 calls answered now, 0 failed, 2 already answered") || len(srv.Requests()) != 2 {
		t.Fatalf("rerun: %d %q", code, fast)
	}
	if !strings.Contains(errs, "is answered and its inputs are unchanged: nothing to call") {
		t.Errorf("the rerun of a finished run prepared the plan: %q", errs)
	}
	// Without the cache, the resume prepares the plan and prints the same.
	if err := os.Remove(filepath.Join(runDir, "prepared.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runEval(t, "run", exp, "--out", runDir)
	if code != 0 || out != fast || strings.Contains(errs, "nothing to call") || len(srv.Requests()) != 2 {
		t.Fatalf("full rerun: %d %q (fast path: %q) %q", code, out, fast, errs)
	}
	// An input changed (here only by a comment, so the run still
	// matches) takes the full path, which records the new fingerprint.
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte("# edited\n"+demoTurtle), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, wantFast := range []bool{false, true} {
		code, out, errs = runEval(t, "run", exp, "--out", runDir)
		if code != 0 || out != fast || strings.Contains(errs, "nothing to call") != wantFast || len(srv.Requests()) != 2 {
			t.Fatalf("rerun %d after editing the graph: %d %q %q", i, code, out, errs)
		}
	}
	// Another model id is another run: the cache does not answer for it.
	code, out, errs = runEval(t, "run", exp, "--out", runDir, "--model", "y")
	if code != exitBadInput || strings.Contains(errs, "nothing to call") || !strings.Contains(errs, "refusing to mix") {
		t.Fatalf("rerun with another model: %d %q %q", code, out, errs)
	}
}

func regexpLine(s, pattern string) bool {
	return regexp.MustCompile("(?m)^" + pattern).MatchString(s)
}

// TestEvalDryRunEmbedded checks that `isolda eval --dry-run` and `isolda eval
// run --dry-run` without a file plan exactly what the file written by
// `isolda eval init` plans.
func TestEvalDryRunEmbedded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exp.yaml")
	if code, _, errs := runEval(t, "init", path); code != exitOK {
		t.Fatalf("init: %d %s", code, errs)
	}
	code, want, errs := runEval(t, "run", path, "--dry-run")
	if code != exitOK || !strings.Contains(want, "MODEL") {
		t.Fatalf("run FILE --dry-run: %d %q %s", code, want, errs)
	}
	for _, args := range [][]string{{"--dry-run"}, {"run", "--dry-run"}} {
		code, got, errs := runEval(t, args...)
		if code != exitOK || got != want {
			t.Errorf("eval %v: code %d, stderr %q\ngot:\n%s\nwant:\n%s", args, code, errs, got, want)
		}
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// TestEvalRunPaidRun: the dry run prints the cost per model and in total;
// a run above --max-cost is refused when not on a terminal; --limit makes
// the first N calls only; --base-url and --model point the experiment at
// another endpoint and model without editing it; validate names a
// tokenizer isolda does not have, with the fix.
func TestEvalRunPaidRun(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "g.ttl", demoTurtle)
	var models []string
	var mu sync.Mutex
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		models = append(models, r.Model)
		mu.Unlock()
		return llmtest.Reply{Text: "2"}
	})
	defer srv.Close()
	y := "graphs: [{file: g.ttl}]\narms: [{name: ttl, format: b-ttl}, {name: I, format: isolda}]\n" +
		"models: [{name: m, base_url: 'http://127.0.0.1:1/v1', model: x, tokenizer: o200k_base, price_in: 2000000, price_out: 1000000}]\n" +
		"tasks: [{generate: {families: [count, lookup], per_family: 3}}]\nmax_tokens: 10\ntrials: 3\n"
	exp := writeIn(t, dir, "exp.yaml", y)
	code, out, errs := runCLI(t, "", "eval", "run", exp, "--dry-run")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errs)
	}
	// The oracle: input cost = the dry run's tokens × 2 per million,
	// output = calls × max_tokens 10 × 1 per million.
	var calls, tokens int
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "m" && f[2] == "o200k_base" {
			calls, _ = strconv.Atoi(f[1])
			tokens, _ = strconv.Atoi(f[3])
		}
	}
	want := strings.Join(strings.Fields(fmt.Sprintf("total %.4f %.4f %.4f", float64(tokens)*2, float64(calls)*10, float64(tokens)*2+float64(calls)*10)), " ")
	found := false
	for _, l := range strings.Split(out, "\n") {
		found = found || strings.Join(strings.Fields(l), " ") == want
	}
	if calls < 6 || !found {
		t.Errorf("dry run does not print the cost %q:\n%s", want, out)
	}
	run := filepath.Join(dir, "run")
	code, _, errs = runCLI(t, "", "eval", "run", exp, "--out", run, "--base-url", srv.URL)
	if code != exitBadInput || !strings.Contains(errs, "above --max-cost 5 ") || !strings.Contains(errs, "not on a terminal") {
		t.Errorf("a costly run: exit %d, %s", code, errs)
	}
	if len(models) != 0 {
		t.Fatalf("%d calls made by a refused run", len(models))
	}
	code, out, errs = runCLI(t, "", "eval", "run", exp, "--out", run, "--base-url", srv.URL, "--model", "other-id", "--max-cost", "1e12", "--limit", "3")
	if code != exitCheckFail || !strings.Contains(out, "3 calls answered now, 0 failed, 0 already answered") {
		t.Errorf("--limit 3: exit %d, %s %s", code, out, errs)
	}
	if len(models) != 3 || models[0] != "other-id" {
		t.Errorf("calls made with models %v, want 3 of other-id", models)
	}
	// The first 3 calls in the run's order: the first question's.
	logb, err := os.ReadFile(filepath.Join(run, "answers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qkeys := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(logb)), "\n") {
		var r struct {
			Q string `json:"question_key"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		qkeys[r.Q] = true
	}
	if len(qkeys) != 1 {
		t.Errorf("--limit 3 asked %d questions, want the first one only (%v)", len(qkeys), qkeys)
	}
	code, out, errs = runCLI(t, "", "eval", "run", exp, "--out", run, "--base-url", srv.URL, "--model", "other-id", "--max-cost", "1e12")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d calls answered now, 0 failed, 3 already answered", calls-3)) {
		t.Errorf("the rest: exit %d, %s %s", code, out, errs)
	}
	if err := os.WriteFile(exp, []byte(strings.Replace(y, "o200k_base", "llama3", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "eval", "validate", exp, "--models-dir", t.TempDir())
	if code != exitBadInput || !strings.Contains(errs, `model m: tokenizer "llama3" is not available`) || !strings.Contains(errs, "--models-dir") ||
		!strings.Contains(errs, "$ISOLDA_TOKENIZERS") || !strings.Contains(errs, "tokenizer: o200k_base") {
		t.Errorf("validate with an unknown tokenizer: exit %d, %s", code, errs)
	}
}
