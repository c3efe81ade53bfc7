package adaptive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

// The scripted world of the integration tests: two Hardened tasks, a
// calibration split of 4 graphs and a test split of 3, seven formats.
const (
	taskA = graphqa.TaskKCoreSize
	taskB = graphqa.TaskDiameter
)

func scriptFormats() []string {
	return []string{"adjacency", "edge_list", "structured", "study_turtle", "shacl_lite", "nl_summary", "entity_centric"}
}

// calRight says how many of the 4 calibration questions of each task a
// format answers right (the first ones): (A, B).
func calRight() map[string][2]int {
	return map[string][2]int{
		"structured":     {3, 3}, // 6/8: first overall, compact
		"entity_centric": {1, 4}, // 5/8: B's best
		"nl_summary":     {4, 0}, // 4/8: A's best
		"adjacency":      {2, 1}, // 3/8: second compact
		"edge_list":      {1, 1}, // 2/8
		"shacl_lite":     {1, 0}, // 1/8: best semantic
		"study_turtle":   {0, 0}, // 0/8
	}
}

// scriptedCalibration is the calibration of calRight's answers to 4
// questions of each task.
func scriptedCalibration(t *testing.T) *Calibration {
	t.Helper()
	var obs []Observation
	for f, r := range calRight() {
		obs = append(obs, obsFrom(taskA, f, r[0], 4, 0)...)
		obs = append(obs, obsFrom(taskB, f, r[1], 4, 0)...)
	}
	cal, err := FromObservations(obs, "scripted")
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// Test answers per test question (0..5 = graph 0 A, graph 0 B, graph 1 A,
// ...) and format: C right, W1 gold+1, W2 gold+2, N no FINAL: line. Formats
// not listed answer W1 (or what "*" says).
func testAnswers() []map[string]string {
	return []map[string]string{
		{"nl_summary": "C", "entity_centric": "C"},
		{"structured": "C", "shacl_lite": "W2", "entity_centric": "C"},
		{"structured": "C", "nl_summary": "W2", "entity_centric": "W2"},
		{"edge_list": "C"},
		{"nl_summary": "C", "*": "N"},
		{"structured": "C"},
	}
}

// Selector replies per test question and format: a score, or a malformed
// reply.
func selectorScript() []map[string]string {
	return []map[string]string{
		{"structured": "60", "adjacency": "70", "shacl_lite": "50", "nl_summary": "90", "entity_centric": "40"},
		{"structured": "80", "adjacency": "78", "shacl_lite": "10", "entity_centric": "80", "edge_list": "20"},
		{"structured": "80", "adjacency": "80", "shacl_lite": "0", "nl_summary": "0", "entity_centric": "0"},
		{"structured": "bad", "adjacency": "bad", "shacl_lite": "bad", "entity_centric": "bad", "edge_list": "bad"},
		{"structured": "noscore", "adjacency": "delta50", "shacl_lite": "0", "nl_summary": "60", "entity_centric": "57"},
		{"structured": "100", "adjacency": "94", "shacl_lite": "0", "entity_centric": "0", "edge_list": "0"},
	}
}

type world struct {
	cal, test *Split
	// answer prompts (user message) → split name, question index, format
	answerAt map[string]struct {
		split  string
		qi     int
		format string
	}
	// rendered test graph (trimmed) → graph index
	graphOf map[string]int
	// gate, if set, holds the first five selector calls until all five
	// have arrived, so that "five calls in flight" does not depend on how
	// fast a loaded machine schedules goroutines.
	gate *gate
}

// gate releases its waiters once n calls have arrived (or after a
// timeout, in which case the in-flight assertion fails as it should).
type gate struct {
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func (g *gate) wait(n int) {
	g.mu.Lock()
	if g.open == nil {
		g.open = make(chan struct{})
	}
	g.arrived++
	if g.arrived == n {
		close(g.open)
	}
	open := g.open
	g.mu.Unlock()
	select {
	case <-open:
	case <-time.After(10 * time.Second):
	}
}

func newWorld(t *testing.T) *world {
	t.Helper()
	tasks := []string{taskA, taskB}
	cal, err := HardenedSplit("calibration", 11, 4, tasks)
	if err != nil {
		t.Fatal(err)
	}
	test, err := HardenedSplit("test", 22, 3, tasks)
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Items) != 8 || len(test.Items) != 6 {
		t.Fatalf("splits of %d and %d questions", len(cal.Items), len(test.Items))
	}
	if err := CheckDisjoint(cal, test); err != nil {
		t.Fatal(err)
	}
	w := &world{cal: cal, test: test, graphOf: map[string]int{}}
	w.answerAt = map[string]struct {
		split  string
		qi     int
		format string
	}{}
	for _, s := range []*Split{cal, test} {
		for qi, it := range s.Items {
			want := taskA
			if qi%2 == 1 {
				want = taskB
			}
			if it.Q.Task != want || it.Q.Gold.Kind != task.KindInt {
				t.Fatalf("%s question %d: task %s kind %s", s.Name, qi, it.Q.Task, it.Q.Gold.Kind)
			}
			for _, f := range scriptFormats() {
				text, err := Render(f, it.Graph)
				if err != nil {
					t.Fatal(err)
				}
				_, user := graphqa.FinalPrompt(it.Q, text)
				w.answerAt[user] = struct {
					split  string
					qi     int
					format string
				}{s.Name, qi, f}
				if s == test {
					w.graphOf[strings.TrimRight(text, "\n")] = qi / 2
				}
			}
		}
	}
	return w
}

func finalReply(q task.Question, kind string) string {
	g, _ := strconv.Atoi(q.Gold.Value)
	switch kind {
	case "C":
		return "Reasoning.\nFINAL: " + q.Gold.Value
	case "W1":
		return "Reasoning.\nFINAL: " + strconv.Itoa(g+1)
	case "W2":
		return "Reasoning.\nFINAL: " + strconv.Itoa(g+2)
	}
	return "I cannot tell."
}

func chainReply(spec string) string {
	switch spec {
	case "bad":
		return "The adjacency list is great. Score: 90"
	case "noscore":
		return "TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: 5"
	case "delta50":
		return "TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: +50\nSCORE: 95"
	}
	return "TASK_NEEDS: find the substructure.\nRENDERING: it is shown.\nPRIOR_DELTA: -3\nSCORE: " + spec
}

// handler scripts the server. Answer calls: usage 200/20 and 10 ms;
// selector calls: usage 300/10 and 40 ms.
func (w *world) handler(t *testing.T) llmtest.Handler {
	return func(r llmtest.Request) llmtest.Reply {
		if len(r.Messages) != 2 {
			t.Errorf("request with %d messages", len(r.Messages))
			return llmtest.Reply{Status: 400}
		}
		sys, user := r.Messages[0].Content, r.Messages[1].Content
		switch sys {
		case graphqa.FinalSystemPrompt:
			at, ok := w.answerAt[user]
			if !ok {
				t.Errorf("answer prompt not of any (question, format): %.200q", user)
				return llmtest.Reply{Status: 400}
			}
			if at.split == "calibration" {
				right := calRight()[at.format]
				k := right[at.qi%2]
				kind := "W1"
				if at.qi/2 < k {
					kind = "C"
				}
				return llmtest.Reply{Text: finalReply(w.cal.Items[at.qi].Q, kind)}
			}
			spec := testAnswers()[at.qi]
			kind, ok := spec[at.format]
			if !ok {
				if kind, ok = spec["*"]; !ok {
					kind = "W1"
				}
			}
			return llmtest.Reply{Text: finalReply(w.test.Items[at.qi].Q, kind), Delay: 10 * time.Millisecond,
				Usage: &llmtest.Usage{Prompt: 200, Completion: 20}}
		case SelectorSystemPrompt:
			if w.gate != nil {
				w.gate.wait(5)
			}
			format := lineValue(user, "Candidate format: ")
			tk := lineValue(user, "Task: ")
			_, rendered, _ := strings.Cut(user, " format:\n\n")
			g, ok := w.graphOf[strings.TrimRight(rendered, "\n")]
			if !ok {
				t.Errorf("selector prompt without a test graph: %.200q", user)
				return llmtest.Reply{Status: 400}
			}
			qi := 2 * g
			if tk == taskB {
				qi++
			}
			spec, ok := selectorScript()[qi][format]
			if !ok {
				t.Errorf("selector call for %s on question %d, which is not on its slate", format, qi)
			}
			return llmtest.Reply{Text: chainReply(spec), Delay: 40 * time.Millisecond,
				Usage: &llmtest.Usage{Prompt: 300, Completion: 10}}
		}
		t.Errorf("unknown system prompt %.100q", sys)
		return llmtest.Reply{Status: 400}
	}
}

func lineValue(s, prefix string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			return v
		}
	}
	return ""
}

func newModel(url string) *Model {
	return &Model{Client: &llm.Client{BaseURL: url, Model: "m", MaxConcurrency: 8},
		PriceIn: 2, PriceOut: 8}
}

func TestCalibrateAndRun(t *testing.T) {
	w := newWorld(t)
	w.gate = &gate{}
	srv := llmtest.New(w.handler(t))
	defer srv.Close()
	ctx := context.Background()

	// Calibration: 8 questions × 7 formats.
	calDir := t.TempDir()
	cal, err := Calibrate(ctx, &Config{Model: newModel(srv.URL), Dir: calDir, Concurrency: 2}, w.cal, scriptFormats())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 56 {
		t.Fatalf("calibration made %d calls, want 56", n)
	}
	if got, want := cal.Formats(), []string{"structured", "entity_centric", "nl_summary", "adjacency", "edge_list", "shacl_lite", "study_turtle"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking %v, want %v", got, want)
	}
	for f, r := range calRight() {
		for i, tk := range []string{taskA, taskB} {
			p, ok := cal.Prior(tk, f)
			if !ok || p.N != 4 || p.Correct != r[i] {
				t.Errorf("prior %s/%s: %+v, want %d/4", tk, f, p, r[i])
			}
		}
	}
	if cal.Router(taskA) != "nl_summary" || cal.Router(taskB) != "entity_centric" {
		t.Fatalf("router: %s %s", cal.Router(taskA), cal.Router(taskB))
	}
	slateA := []string{"structured", "adjacency", "shacl_lite", "nl_summary", "entity_centric"}
	slateB := []string{"structured", "adjacency", "shacl_lite", "entity_centric", "edge_list"}
	for tk, want := range map[string][]string{taskA: slateA, taskB: slateB} {
		s, err := BuildSlate(cal, tk, SlateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range s {
			got = append(got, c.Format)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("slate of %s: %v, want %v", tk, got, want)
		}
	}

	// Calibrating again over the same folder makes no call.
	before := len(srv.Requests())
	cal2, err := Calibrate(ctx, &Config{Model: newModel(srv.URL), Dir: calDir}, w.cal, scriptFormats())
	if err != nil || !reflect.DeepEqual(cal2, cal) || len(srv.Requests()) != before {
		t.Fatalf("calibration resume: err %v, %d new calls, same priors %v", err, len(srv.Requests())-before, reflect.DeepEqual(cal2, cal))
	}

	// The test run at b = 5.
	runDir := t.TempDir()
	res, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: runDir, Concurrency: 2}, cal, w.test, RunOptions{Band: 5})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) != 60 || res.Calls != 60 {
		t.Fatalf("run made %d calls (result says %d), want 30 selector + 30 answer calls", len(reqs), res.Calls)
	}
	if srv.MaxInFlight() < 5 {
		t.Errorf("at most %d calls in flight: the selector calls were not parallel", srv.MaxInFlight())
	}
	if res.FixedBest != "structured" {
		t.Fatalf("fixed-best %s", res.FixedBest)
	}

	wantChosen := []string{"nl_summary", "structured", "adjacency", "entity_centric", "nl_summary", "structured"}
	wantBand := [][]string{{"nl_summary"}, {"structured", "entity_centric", "adjacency"}, {"structured", "adjacency"},
		nil, {"nl_summary", "entity_centric"}, {"structured"}}
	wantCorrect := map[string][]bool{
		PolicyFixedBest: {false, true, true, false, false, true},
		PolicyRouter:    {true, true, false, false, true, false},
		PolicySelector:  {true, true, false, false, true, true},
		PolicyMV5:       {false, true, false, false, true, false},
		PolicyOracle:    {true, true, true, true, true, true},
	}
	for i, q := range res.Questions {
		if q.Chosen != wantChosen[i] || !reflect.DeepEqual(q.Band, wantBand[i]) || q.Fallback != (i == 3) {
			t.Errorf("question %d: chosen %s band %v fallback %v; want %s %v %v", i, q.Chosen, q.Band, q.Fallback, wantChosen[i], wantBand[i], i == 3)
		}
	}
	q4 := res.Questions[4]
	if q4.Scores[0].OK || !strings.Contains(q4.Scores[0].ParseError, "SCORE missing") ||
		q4.Scores[1].OK || !strings.Contains(q4.Scores[1].ParseError, "PRIOR_DELTA") || !q4.Scores[3].OK || q4.Scores[3].Score != 60 {
		t.Errorf("question 4 scores: %+v", q4.Scores)
	}
	if mv := res.Questions[1].Outcomes[3]; mv.Format != "structured" || !mv.Correct {
		t.Errorf("MV-5 tie on question 1: %+v", mv)
	}
	if mv := res.Questions[2].Outcomes[3]; mv.Format != "adjacency" || mv.Correct {
		t.Errorf("MV-5 tie on question 2: %+v", mv)
	}
	for p, want := range wantCorrect {
		if got := res.Correct(p); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}

	// Accounting: answer calls 200/20 tokens, selector calls 300/10; prices
	// 2 and 8 per million.
	type acct struct {
		calls          int
		prompt, compl  int64
		cost, rel, acc float64
	}
	want := map[string]acct{
		PolicyFixedBest: {6, 1200, 120, 6 * 560e-6, 1, 3.0 / 6},
		PolicyRouter:    {6, 1200, 120, 6 * 560e-6, 1, 3.0 / 6},
		PolicySelector:  {36, 10200, 420, 6 * 3960e-6, 3960.0 / 560, 4.0 / 6},
		PolicyMV5:       {30, 6000, 600, 6 * 2800e-6, 5, 2.0 / 6},
		PolicyOracle:    {30, 6000, 600, 6 * 2800e-6, 5, 1},
	}
	for _, s := range res.Summary {
		wa := want[s.Policy]
		if s.N != 6 || s.Usage.Calls != wa.calls || s.Usage.PromptTokens != wa.prompt || s.Usage.CompletionTokens != wa.compl ||
			!approx(s.Usage.Cost, wa.cost) || !approx(s.RelativeCost, wa.rel) || !approx(s.Accuracy, wa.acc) {
			t.Errorf("%s: %+v, want %+v", s.Policy, s, wa)
		}
	}

	// Latency: the selector calls count as the slowest of them, plus the
	// answer call; MV-5 as the slowest of its five answers.
	logRecs := readLogT(t, filepath.Join(runDir, LogFile))
	for i, q := range res.Questions {
		var selMax, mvMax float64
		var chosenLat float64
		for _, r := range logRecs {
			if r.QuestionID != q.QuestionID {
				continue
			}
			switch {
			case r.Kind == KindSelector:
				selMax = max(selMax, r.LatencyMS)
			case r.Kind == KindAnswer && r.Format == q.Chosen:
				chosenLat = r.LatencyMS
			}
			if r.Kind == KindAnswer && contains(q.Slate, r.Format) {
				mvMax = max(mvMax, r.LatencyMS)
			}
		}
		sel, _ := q.Outcome(PolicySelector)
		mv, _ := q.Outcome(PolicyMV5)
		if !approx(sel.Usage.LatencyMS, selMax+chosenLat) || sel.Usage.LatencyMS < 50 {
			t.Errorf("question %d: selector latency %.1f ms, want max %.1f + answer %.1f (≥ 50)", i, sel.Usage.LatencyMS, selMax, chosenLat)
		}
		if !approx(mv.Usage.LatencyMS, mvMax) || mv.Usage.LatencyMS < 10 {
			t.Errorf("question %d: MV-5 latency %.1f ms, want the slowest answer %.1f", i, mv.Usage.LatencyMS, mvMax)
		}
	}

	// Isolation: every answer call is exactly the standard answer prompt of
	// its question in one format, and each needed (question, format) answer
	// is asked once.
	asked := map[string]int{}
	for _, r := range reqs {
		if r.Messages[0].Content != graphqa.FinalSystemPrompt {
			continue
		}
		at, ok := w.answerAt[r.Messages[1].Content]
		if !ok || at.split != "test" {
			t.Fatalf("answer call that is not a standard test prompt: %.200q", r.Messages[1].Content)
		}
		for _, leak := range []string{"TASK_NEEDS", "PRIOR_DELTA", "SCORE", "Calibration baseline", "Candidate format", "selector"} {
			if strings.Contains(r.Messages[1].Content, leak) {
				t.Errorf("answer call of question %d contains %q", at.qi, leak)
			}
		}
		asked[fmt.Sprintf("%d/%s", at.qi, at.format)]++
	}
	wantAsked := map[string]int{}
	for qi := range 6 {
		sl := slateA
		if qi%2 == 1 {
			sl = slateB
		}
		for _, f := range sl {
			wantAsked[fmt.Sprintf("%d/%s", qi, f)] = 1
		}
	}
	if !reflect.DeepEqual(asked, wantAsked) {
		t.Errorf("answer calls %v, want %v", asked, wantAsked)
	}
	// The selector prompt shows the candidate's per-task baseline.
	for _, r := range reqs {
		u := r.Messages[1].Content
		if r.Messages[0].Content == SelectorSystemPrompt && lineValue(u, "Task: ") == taskB && lineValue(u, "Candidate format: ") == "entity_centric" {
			if got := lineValue(u, "Calibration baseline: "); got != "100% on "+taskB {
				t.Errorf("baseline line %q", got)
			}
		}
	}

	// The dry run counts exactly the calls the run made.
	dr, err := DryRun(cal, w.test, RunOptions{Band: 5}, nil)
	if err != nil || dr.SelectorCalls != 30 || dr.AnswerCalls != 30 || dr.SelectorInputTokens != -1 || len(dr.Slates) != 2 {
		t.Errorf("dry run: %+v %v", dr, err)
	}
	dc, err := DryRunCalibration(w.cal, scriptFormats(), nil)
	if err != nil || dc.AnswerCalls != 56 {
		t.Errorf("calibration dry run: %+v %v", dc, err)
	}

	// Running again over the same folder reuses every call.
	before = len(srv.Requests())
	res2, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: runDir}, cal, w.test, RunOptions{Band: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()) - before; n != 0 || !reflect.DeepEqual(res2, res) {
		t.Fatalf("resume made %d calls; same result: %v", n, reflect.DeepEqual(res2, res))
	}

	// Fixed-best chosen on the test split: the 7 formats are asked on every
	// question (2 more per question than the slate); right answers:
	// structured 3, entity_centric 2, nl_summary 2, edge_list 1, the
	// others 0; entity_centric precedes nl_summary by the calibration
	// ranking.
	before = len(srv.Requests())
	resT, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: runDir}, cal, w.test, RunOptions{Band: 5, FixedBestOnTest: true})
	if err != nil {
		t.Fatal(err)
	}
	wantOnTest := []FormatCount{{"structured", 3}, {"entity_centric", 2}, {"nl_summary", 2}, {"edge_list", 1}, {"adjacency", 0}, {"shacl_lite", 0}, {"study_turtle", 0}}
	if n := len(srv.Requests()) - before; n != 12 || resT.FixedBest != "structured" || !reflect.DeepEqual(resT.FixedOnTest, wantOnTest) {
		t.Errorf("fixed-best on test: %d new calls, %s, %v", n, resT.FixedBest, resT.FixedOnTest)
	}
	if s := resT.Summary[0]; s.Usage.Calls != 6 || s.Correct != 3 {
		t.Errorf("fixed-best on test accounting: %+v", s)
	}
	if _, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: runDir}, cal, w.test, RunOptions{FixedBest: "dot", FixedBestOnTest: true}); err == nil {
		t.Error("FixedBest with FixedBestOnTest accepted")
	}
	before = len(srv.Requests())

	// b = 0 over the same log: only exact ties share the band. Question 1
	// (80, 78, 10, 80, 20): band structured, entity_centric, counter 0 →
	// structured; question 2 (80, 80): counter 1 → adjacency; question 4
	// (60 vs 57): nl_summary alone.
	res0, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: runDir}, cal, w.test, RunOptions{Band: 0})
	if err != nil {
		t.Fatal(err)
	}
	var got0 []string
	for _, q := range res0.Questions {
		got0 = append(got0, q.Chosen)
	}
	if !reflect.DeepEqual(got0, wantChosen) || !reflect.DeepEqual(res0.Questions[1].Band, []string{"structured", "entity_centric"}) ||
		!reflect.DeepEqual(res0.Questions[4].Band, []string{"nl_summary"}) {
		t.Errorf("b=0: chosen %v, bands %v %v", got0, res0.Questions[1].Band, res0.Questions[4].Band)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("b=0 over the same log made %d calls", n)
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func contains(s []Candidate, f string) bool {
	for _, c := range s {
		if c.Format == f {
			return true
		}
	}
	return false
}

func readLogT(t *testing.T, path string) []*CallRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*CallRecord
	if err := ReadLog(f, func(r *CallRecord) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// A failed call is logged, Run reports it, and the next run retries only
// it.
func TestFailedCallsRetried(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	failed := 0
	good := w.handler(t)
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		if r.Messages[0].Content == SelectorSystemPrompt && failed < 2 {
			failed++
			return llmtest.Reply{Status: 400}
		}
		return good(r)
	})
	defer srv.Close()
	cal := scriptedCalibration(t)
	dir := t.TempDir()
	_, err := Run(context.Background(), &Config{Model: newModel(srv.URL), Dir: dir}, cal, w.test, RunOptions{Band: 5})
	var fe *FailedCallsError
	if !errors.As(err, &fe) || fe.Failed != 2 || fe.Total != 30 {
		t.Fatalf("first run: %v", err)
	}
	before := len(srv.Requests())
	res, err := Run(context.Background(), &Config{Model: newModel(srv.URL), Dir: dir}, cal, w.test, RunOptions{Band: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()) - before; n != 2+30 {
		t.Fatalf("second run made %d calls, want the 2 failed selector calls and 30 answers", n)
	}
	if got := res.Correct(PolicySelector); !reflect.DeepEqual(got, []bool{true, true, false, false, true, true}) {
		t.Fatalf("selector after retry: %v", got)
	}
	recs := readLogT(t, filepath.Join(dir, LogFile))
	nFailed := 0
	for _, r := range recs {
		if r.Status == StatusFailed {
			nFailed++
		}
	}
	if nFailed != 2 || len(recs) != 62 {
		t.Fatalf("log: %d records, %d failed", len(recs), nFailed)
	}
}

// TestResumeOldLog resumes a select run from a call log written before the
// call record was shared with eval's answer log (testdata/oldlog: the run
// of TestFailedCallsRetried, 30 selector calls, 2 failed): every line reads
// back and marshals to its own bytes, and the resumed run makes only the 2
// failed calls and the 30 answers, as from a log of today's.
func TestResumeOldLog(t *testing.T) {
	w := newWorld(t)
	srv := llmtest.New(w.handler(t))
	defer srv.Close()
	old, err := os.ReadFile(filepath.Join("testdata", "oldlog", LogFile))
	if err != nil {
		t.Fatal(err)
	}
	llmtest.RoundTripLog[CallRecord](t, old, 30, 2)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, LogFile), old, 0o644); err != nil {
		t.Fatal(err)
	}
	cal := scriptedCalibration(t)
	res, err := Run(context.Background(), &Config{Model: newModel(srv.URL), Dir: dir}, cal, w.test, RunOptions{Band: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 2+30 {
		t.Fatalf("resumed run made %d calls, want the 2 failed selector calls and 30 answers", n)
	}
	if got := res.Correct(PolicySelector); !reflect.DeepEqual(got, []bool{true, true, false, false, true, true}) {
		t.Fatalf("selector after the resume: %v", got)
	}
	after, _ := os.ReadFile(filepath.Join(dir, LogFile))
	if !bytes.HasPrefix(after, old) || len(readLogT(t, filepath.Join(dir, LogFile))) != 62 {
		t.Fatal("the resume rewrote the old log, or did not append 32 records")
	}
}

// Cancelling a run returns the context's error and logs nothing half-done.
func TestRunCanceled(t *testing.T) {
	w := newWorld(t)
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Delay: time.Minute} })
	defer srv.Close()
	cal := studyLikeCalibration(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, &Config{Model: newModel(srv.URL), Dir: t.TempDir()}, cal, w.test, RunOptions{Band: 5})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("canceled run: %v", err)
	}
}
