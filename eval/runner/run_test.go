package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

func writeExp(t *testing.T, dir, base string, extra string) *eval.Experiment {
	t.Helper()
	e, err := eval.LoadExperiment(evaltest.WriteExp(t, dir, base, extra))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func prepare(t *testing.T, e *eval.Experiment, dir string) *eval.Plan {
	t.Helper()
	p, err := eval.Prepare(e, dir, evaltest.Scorers())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// question returns the last user message's question text of a request.
func lastContent(r llmtest.Request) string {
	return r.Messages[len(r.Messages)-1].Content
}

// goldHandler answers every question with its gold answer, looked up by the
// question text in the plan (an oracle independent of the runner's scoring),
// except questions whose text contains wrong, answered "no idea".
func goldHandler(p *eval.Plan, wrong string) llmtest.Handler {
	gold := map[string]string{}
	for _, en := range p.Entries {
		gold[en.Q.Text] = en.Q.Gold.Value
	}
	return func(r llmtest.Request) llmtest.Reply {
		q := lastContent(r)
		if wrong != "" && strings.Contains(q, wrong) {
			return llmtest.Reply{Text: "no idea"}
		}
		return llmtest.Reply{Text: gold[q]}
	}
}

func readLog(t *testing.T, dir string) []Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Record
	if err := ReadRecords(f, func(r *Record) error { out = append(out, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFullRun(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(nil)
	defer srv.Close()
	e := writeExp(t, dir, srv.URL, "")
	p := prepare(t, e, dir)
	// The demo graph has 3 lookup candidates (the ages) and 1 count (Person).
	if len(p.Entries) != 4 {
		for _, en := range p.Entries {
			t.Log(en.Key, en.Q.Text, en.Q.Gold.Value)
		}
		t.Fatalf("entries = %d, want 4", len(p.Entries))
	}
	if p.Manifest.Calls != 4*2*2 {
		t.Fatalf("calls = %d, want 16", p.Manifest.Calls)
	}
	srv.Close()
	srv = llmtest.New(goldHandler(p, "How many"))
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	out := filepath.Join(dir, "run")
	var prog bytes.Buffer
	res, err := Run(context.Background(), p, RunOptions{Out: out, Progress: &prog})
	if err != nil {
		t.Fatal(err)
	}
	if res.Done != 16 || res.Failed != 0 || res.Skipped != 0 {
		t.Fatalf("result %+v", res)
	}
	recs := readLog(t, out)
	if len(recs) != 16 {
		t.Fatalf("log has %d lines, want 16", len(recs))
	}
	keys := map[string]bool{}
	correct := 0
	for _, r := range recs {
		if keys[r.Key] {
			t.Errorf("duplicate key %s", r.Key)
		}
		keys[r.Key] = true
		if r.Status != StatusOK || r.RunID != p.Manifest.RunID || r.HTTPStatus != 200 || r.Attempts != 1 {
			t.Errorf("record %+v", r)
		}
		if r.RawRequest == "" || r.RawResponse == "" || r.PromptTokens <= 0 || r.LocalPromptTokens <= 0 {
			t.Errorf("record %s misses raw bodies or tokens", r.Key)
		}
		// The count question was answered "no idea": wrong; every other gold.
		wantCorrect := !strings.Contains(r.Key, "/count")
		if r.Correct != wantCorrect {
			t.Errorf("%s: correct=%v response=%q", r.Key, r.Correct, r.Response)
		}
		if r.Correct {
			correct++
		}
	}
	if correct != 12 {
		t.Errorf("correct = %d, want 12", correct)
	}
	// Requests: temperature 0 and extra body fields actually sent.
	reqs := srv.Requests()
	if len(reqs) != 16 {
		t.Fatalf("server saw %d requests", len(reqs))
	}
	for _, r := range reqs {
		if v, ok := r.Float("temperature"); !ok || v != 0 {
			t.Errorf("temperature not sent as 0: %s", r.Fields["temperature"])
		}
		if string(r.Fields["chat_template_kwargs"]) != `{"enable_thinking":false}` {
			t.Errorf("chat_template_kwargs = %s", r.Fields["chat_template_kwargs"])
		}
		if v, _ := r.Float("seed"); v != 7 {
			t.Errorf("seed = %s", r.Fields["seed"])
		}
		if r.Model != "test-model" || len(r.Messages) != 2 || r.Messages[0].Role != "system" {
			t.Errorf("request %s", r.Body)
		}
	}
	// hide_name: arm a2's prompt does not name its format; a1's does.
	for _, r := range reqs {
		sys := r.Messages[0].Content
		if strings.Contains(sys, "(isolda format)") {
			t.Errorf("hidden format named: %.80q", sys)
		}
	}
	// Frozen inputs on disk match their hashes.
	for _, c := range p.Manifest.Contexts {
		b, err := os.ReadFile(filepath.Join(out, c.File))
		if err != nil || task.SHA1Hex(string(b)) != c.SHA1 {
			t.Errorf("context %s: %v", c.File, err)
		}
	}
	f, err := os.Open(filepath.Join(out, AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Summarize(f, e)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 || cells[0].Arm != "a1" || cells[0].Answered != 8 || cells[0].Correct != 6 || cells[1].Accuracy != 0.75 {
		t.Errorf("summary %+v", cells)
	}
	var sb strings.Builder
	if err := WriteSummary(&sb, cells); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", sb.String())
	if !strings.Contains(prog.String(), "eval: m: 16/16 done, 0 failed") {
		t.Errorf("progress: %q", prog.String())
	}
	// A second run does nothing and leaves the log unchanged.
	before, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	res, err = Run(context.Background(), p, RunOptions{Out: out})
	if err != nil || res.Done != 0 || res.Skipped != 16 {
		t.Fatalf("rerun: %+v %v", res, err)
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.Equal(before, after) {
		t.Error("log changed by a run with nothing to do")
	}
}

func TestResumeAfterCancel(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	e.Models[0].MaxConcurrency = 2
	p := prepare(t, e, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	gold := goldHandler(p, "")
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		if n.Add(1) == 5 {
			cancel()
		}
		rep := gold(r)
		if n.Load() >= 5 {
			rep.Delay = 2 * time.Second
		}
		return rep
	})
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	out := filepath.Join(dir, "run")
	res, err := Run(ctx, p, RunOptions{Out: out})
	if !errors.Is(err, context.Canceled) || !res.Canceled {
		t.Fatalf("first run: %+v %v", res, err)
	}
	first := readLog(t, out)
	if len(first) == 0 || len(first) >= 16 || len(first) != res.Done {
		t.Fatalf("first run logged %d (done %d)", len(first), res.Done)
	}
	before, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	srv2 := llmtest.New(goldHandler(p, ""))
	defer srv2.Close()
	e.Models[0].BaseURL = srv2.URL
	res, err = Run(context.Background(), p, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != len(first) || res.Done != 16-len(first) || len(srv2.Requests()) != 16-len(first) {
		t.Fatalf("resume %+v, requests %d", res, len(srv2.Requests()))
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.HasPrefix(after, before) {
		t.Fatal("resume rewrote existing log bytes")
	}
	all := readLog(t, out)
	keys := map[string]int{}
	for _, r := range all {
		keys[r.Key]++
		if !r.Correct {
			t.Errorf("%s wrong", r.Key)
		}
	}
	if len(all) != 16 || len(keys) != 16 {
		t.Fatalf("after resume: %d lines, %d keys", len(all), len(keys))
	}
	t.Logf("resume: first run %d calls, resumed run %d calls, 16 keys, no duplicates", len(first), res.Done)
}

func TestFailedCallsRetriedOnResume(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	p := prepare(t, e, dir)
	gold := goldHandler(p, "")
	// Every request about Alice fails with 500, on every attempt.
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(lastContent(r), "Alice") {
			return llmtest.Reply{Status: 500}
		}
		return gold(r)
	})
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	out := filepath.Join(dir, "run")
	res, err := Run(context.Background(), p, RunOptions{Out: out, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	alice := 0
	for _, en := range p.Entries {
		if strings.Contains(en.Q.Text, "Alice") {
			alice++
		}
	}
	if alice == 0 {
		t.Fatal("no question about Alice")
	}
	wantFail := alice * 2 * 2
	if res.Failed != wantFail || res.Done != 16-wantFail {
		t.Fatalf("result %+v, want %d failed", res, wantFail)
	}
	failed := 0
	for _, r := range readLog(t, out) {
		if r.Status == StatusFailed {
			failed++
			if r.HTTPStatus != 500 || r.Attempts != 2 || r.Error == "" {
				t.Errorf("failed record %+v", r)
			}
		}
	}
	if failed != wantFail {
		t.Fatalf("logged %d failures, want %d", failed, wantFail)
	}
	before, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	srv2 := llmtest.New(gold)
	defer srv2.Close()
	e.Models[0].BaseURL = srv2.URL
	res, err = Run(context.Background(), p, RunOptions{Out: out})
	if err != nil || res.Done != wantFail || res.Skipped != 16-wantFail {
		t.Fatalf("resume %+v %v", res, err)
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.HasPrefix(after, before) {
		t.Fatal("resume rewrote existing log bytes")
	}
	recs := readLog(t, out)
	if len(recs) != 16+wantFail {
		t.Fatalf("log has %d lines, want %d", len(recs), 16+wantFail)
	}
	f, _ := os.Open(filepath.Join(out, AnswersFile))
	cells, err := Summarize(f, e)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if c.Answered != 8 || c.Correct != 8 || c.Failures != wantFail/2 {
			t.Errorf("cell %+v", c)
		}
	}
}

// runDemo prepares the demo experiment in dir against srv and runs it
// into dir/run, which it returns with the plan.
func runDemo(t *testing.T, dir string, srv *llmtest.Server) (*eval.Plan, string) {
	t.Helper()
	p := prepare(t, writeExp(t, dir, srv.URL, ""), dir)
	out := filepath.Join(dir, "run")
	if _, err := Run(context.Background(), p, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	return p, out
}

func TestHashMismatchRefused(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(llmtest.Echo)
	defer srv.Close()
	p, out := runDemo(t, dir, srv)
	e := p.Experiment
	n := len(srv.Requests())
	before, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	// Change the graph: one age differs.
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(strings.Replace(evaltest.DemoTTL, `"45"`, `"46"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p2 := prepare(t, e, dir)
	_, err := Run(context.Background(), p2, RunOptions{Out: out})
	var me *MismatchError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "graph g: SHA-1 was") {
		t.Fatalf("changed graph: %v", err)
	}
	// Change a parameter.
	e.Temperature = 0.5
	_, err = Run(context.Background(), prepare(t, e, dir), RunOptions{Out: out})
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "parameters were") {
		t.Fatalf("changed temperature: %v", err)
	}
	// Tamper with a frozen context file.
	e2 := writeExp(t, dir, srv.URL, "")
	c := p.Manifest.Contexts[0]
	if err := os.WriteFile(filepath.Join(out, c.File), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), prepare(t, e2, dir), RunOptions{Out: out})
	if !errors.As(err, &me) || !strings.Contains(err.Error(), c.File) {
		t.Fatalf("tampered context: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.Equal(before, after) || len(srv.Requests()) != n {
		t.Fatal("a refused run called the server or touched the log")
	}
}

func TestTornLastLineTolerated(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(nil)
	defer srv.Close()
	e := writeExp(t, dir, srv.URL, "")
	p := prepare(t, e, dir)
	out := filepath.Join(dir, "run")
	if err := Freeze(p, out); err != nil {
		t.Fatal(err)
	}
	torn := []byte(`{"run_id":"` + p.Manifest.RunID + `","key":"x|y`)
	if err := os.WriteFile(filepath.Join(out, AnswersFile), torn, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), p, RunOptions{Out: out})
	if err != nil || res.Done != 16 {
		t.Fatalf("%+v %v", res, err)
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.HasPrefix(after, append(torn, '\n')) || len(readLog(t, out)) != 16 {
		t.Fatal("torn line not preserved and skipped")
	}
}

func TestFrozenSetOwnContextsUserLayoutStream(t *testing.T) {
	dir := t.TempDir()
	set := &task.Set{Name: "s", Contexts: []task.Context{{ID: "c1", Text: "Edges: A-B, B-C."}},
		Questions: []task.Question{
			{ID: "q1", Family: "graphqa", Task: "edge_count", Text: "How many edges are there?", ContextID: "c1",
				Gold: task.Answer{Text: " 2.", Kind: task.KindInt, Value: "2"}},
			{ID: "q2", Family: kg.FamilyLookup, Task: kg.FamilyLookup, Text: "What colour is A?", ContextID: "c1",
				Gold: task.Answer{Text: "blue", Kind: task.KindText, Value: "blue"}},
		}}
	set.Seal()
	evaltest.WriteSet(t, dir, "set.jsonl", set)
	srv := llmtest.New(llmtest.FailFirst(2, 429, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(lastContent(r), "edges") {
			return llmtest.Reply{Text: "The graph has 2 edges."}
		}
		return llmtest.Reply{Text: "Red."}
	}))
	defer srv.Close()
	y := "tasks: [{set: set.jsonl}]\nlayout: user\nretries: 3\n" +
		"models: [{name: s, base_url: '" + srv.URL + "', model: x, stream: true}]\n"
	e, err := eval.ParseExperiment([]byte(y), "exp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := prepare(t, e, dir)
	if len(p.Contexts) != 1 || p.Contexts[0].Arm != eval.SetContextArm || p.Contexts[0].SHA1 != set.Contexts[0].SHA1 {
		t.Fatalf("contexts %+v", p.Contexts)
	}
	out := filepath.Join(dir, "run")
	res, err := Run(context.Background(), p, RunOptions{Out: out, Backoff: time.Millisecond})
	if err != nil || res.Done != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (two 429s retried)", len(reqs))
	}
	for _, r := range reqs {
		if !r.Stream || len(r.Messages) != 1 || r.Messages[0].Role != "user" ||
			!strings.HasPrefix(r.Messages[0].Content, "Context:\n\nEdges: A-B, B-C.\n\nQuestion: ") {
			t.Errorf("request %s", r.Body)
		}
	}
	got := map[string]Record{}
	for _, r := range readLog(t, out) {
		got[r.QuestionID] = r
	}
	if r := got["q1"]; !r.Correct || r.Scorer != "graphqa" || !strings.Contains(r.RawResponse, "data: ") || r.LocalPromptTokens != -1 {
		t.Errorf("q1 %+v", r)
	}
	if r := got["q2"]; r.Correct || r.Scorer != "kg" || r.Response != "Red." {
		t.Errorf("q2 %+v", r)
	}
	if got["q1"].Attempts+got["q2"].Attempts != 4 {
		t.Errorf("attempts %d + %d, want 4", got["q1"].Attempts, got["q2"].Attempts)
	}
}

func TestFrozenSetOnGraph(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	gen := prepare(t, e, dir)
	// Freeze the generated questions, then ask them through a set task.
	set := &task.Set{Name: "s"}
	for _, en := range gen.Entries {
		set.Questions = append(set.Questions, en.Q)
	}
	q0 := gen.Entries[0].Q
	set.Contexts = []task.Context{{ID: q0.ContextID, Source: "g.ttl", SHA1: q0.ContextSHA1}}
	evaltest.WriteSet(t, dir, "s.jsonl", set)
	e.Tasks = []eval.Task{{Name: "kg", Set: "s.jsonl", Graph: "g"}}
	p := prepare(t, e, dir)
	if len(p.Entries) != len(gen.Entries) || p.Manifest.Calls != gen.Manifest.Calls {
		t.Fatalf("set task: %d entries %d calls, generated %d %d", len(p.Entries), p.Manifest.Calls, len(gen.Entries), gen.Manifest.Calls)
	}
	for i := range p.Entries {
		if p.Entries[i].Key != gen.Entries[i].Key || p.Entries[i].Q.Text != gen.Entries[i].Q.Text {
			t.Errorf("entry %d: %s vs %s", i, p.Entries[i].Key, gen.Entries[i].Key)
		}
	}
	srv := llmtest.New(goldHandler(p, ""))
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	res, err := Run(context.Background(), p, RunOptions{Out: filepath.Join(dir, "run")})
	if err != nil || res.Done != 16 {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestResumeOldLog resumes a run folder written before the call record was
// shared with the select log (testdata/oldlog: 16 calls, the first 3
// failed, the Carol questions answered wrong): every line reads back and
// marshals to its own bytes, the answered calls are skipped, only the
// failed ones are made again, and the old lines stay as they were.
func TestResumeOldLog(t *testing.T) {
	dir := t.TempDir()
	// The old run's ISOLDA arm was written when 0.2 was the default: pin it.
	path := evaltest.WriteExp(t, dir, "http://127.0.0.1:1/v1", "")
	y, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	y = bytes.Replace(y, []byte("format: isolda,"), []byte("format: isolda, options: {spec: \"0.2\"},"), 1)
	if err := os.WriteFile(path, y, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := eval.LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	p := prepare(t, e, dir)
	out := filepath.Join(dir, "run")
	if err := os.CopyFS(out, os.DirFS(filepath.Join("testdata", "oldlog"))); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(filepath.Join(out, AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	llmtest.RoundTripLog[Record](t, old, 16, 3)
	srv := llmtest.New(goldHandler(p, "Carol"))
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	res, err := Run(context.Background(), p, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != 13 || res.Done != 3 || res.Failed != 0 || len(srv.Requests()) != 3 {
		t.Fatalf("resume: %+v, %d requests; want 13 skipped and the 3 failed calls made again", res, len(srv.Requests()))
	}
	after, _ := os.ReadFile(filepath.Join(out, AnswersFile))
	if !bytes.HasPrefix(after, old) {
		t.Fatal("resume rewrote the old log's bytes")
	}
	ok := map[string]bool{}
	for _, r := range readLog(t, out) {
		if r.Status == StatusOK {
			ok[r.Key] = true
			if r.Correct == strings.Contains(r.Response, "no idea") {
				t.Errorf("%s: correct %t for %q", r.Key, r.Correct, r.Response)
			}
		}
	}
	if len(ok) != 16 {
		t.Errorf("%d calls answered after the resume, want 16", len(ok))
	}
}
