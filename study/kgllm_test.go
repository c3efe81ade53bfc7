package study

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kgllm"
)

// promptExamples reads the benchmark's own full prompts of instance 0 of
// every task and format of a variant, by prompt text.
func promptExamples(t *testing.T, variant string) map[string]string {
	dir := shared.MustPath(t, "data", "kgllmbench", "instances", "prompt_examples", variant)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[string(b)] = strings.TrimSuffix(e.Name(), ".txt")
	}
	if len(out) != 35 {
		t.Fatalf("%d prompt examples in %s, want 35", len(out), dir)
	}
	return out
}

// testKGLLMBench: the calls of the paper's models; every prompt the
// benchmark's, the 35 example prompts of the variant byte for byte; ISOLDA
// decoding 500/500 per arm; a scripted endpoint answering every gold answer
// in the benchmark's format with list_of_edges and isolda-0.1, only
// TripleRetrieval with rdf_turtle3; the criteria verdicts that follow.
func testKGLLMBench(t *testing.T, variant string, wantGold int) {
	data := shared.MustPath(t, "data", "kgllmbench", "instances")
	s, _ := Get("kgllmbench")
	opts := Options{Variant: variant, Data: map[string]string{"kgllmbench": data}}
	dataVariant, with02 := strings.CutSuffix(variant, kgllmWith02)
	if variant == "pseudo" {
		// §4.5: eight arms, 19,500 calls by default.
		if n := s.Variant(variant).TotalCalls(); n != 19500 || len(s.Arms()) != 8 {
			t.Errorf("%s: %d arms, %d calls; §4.5 prints 8 and 19,500", variant, len(s.Arms()), n)
		}
		// The paper's models with ISOLDA 0.2 added: calls per model, and
		// the mean o200k tokens of the whole prompt per arm (§3.6:
		// rdf_turtle2 7,263, ISOLDA 0.1 8,076, ISOLDA 0.2 5,925 on the
		// pseudonymized instances).
		v02 := s.Variant(variant + kgllmWith02)
		o02 := opts
		o02.Variant = variant + kgllmWith02
		_, paper := initStudy(t, s.Name, o02)
		want := map[string]int{}
		for _, m := range v02.Models {
			want[m.Name] = v02.Calls(m)
		}
		mc := checkDryRun(t, v02, paper, want)
		if paper.Manifest.Calls != 22500 {
			t.Errorf("%d calls in all, want 22,500 (the paper's 19,500 and 3,000 with ISOLDA 0.2)", paper.Manifest.Calls)
		}
		for _, a := range mc[0].Arms {
			t.Logf("pseudo: %-16s %9.1f mean o200k prompt tokens", a.Arm, float64(a.InputTokens)/float64(a.Calls))
			// rdf_turtle2's prompt is the benchmark's: the regeneration
			// counted 7,262.5 (token_counts_o200k.summary.json).
			if m := float64(a.InputTokens) / float64(a.Calls); a.Arm == "rdf_turtle2" && (m < 7262 || m > 7263) {
				t.Errorf("rdf_turtle2: %.1f mean prompt tokens, want 7,262.5", m)
			}
		}
	}

	// One model, asked with three arms (1,500 calls); every arm's contexts
	// are prepared all the same.
	o := opts
	o.BaseURL, o.Model, o.Tokenizer = "http://h/v1", "m", "o200k_base"
	dir, p := initStudy(t, s.Name, o, func(e *eval.Experiment) {
		e.Models[0].Arms = []string{"list_of_edges", "isolda-0.1", "rdf_turtle3"}
	})
	rts := report.RoundTripsFromManifest(&p.Manifest)
	for _, rt := range rts {
		if rt.Contexts != 500 || rt.IsomorphicContexts != 500 {
			t.Errorf("%s: %d/%d contexts isomorphic", rt.Arm, rt.IsomorphicContexts, rt.Contexts)
		}
	}
	isoldaArms := 1
	if with02 {
		isoldaArms = 2
	}
	if len(rts) != isoldaArms {
		t.Errorf("%s: round trips %+v, want %d ISOLDA arms", variant, rts, isoldaArms)
	}
	// Every prompt of every arm is one user message, the benchmark's
	// structure_prompt of the context and the question; the 35 example
	// prompts of the variant come out byte for byte.
	examples := promptExamples(t, dataVariant)
	expect := kgllmExpect(p)
	matched := map[string]bool{}
	prompts := 0
	for i := range p.Entries {
		en := &p.Entries[i]
		for j := range p.Contexts {
			c := &p.Contexts[j]
			if c.Graph != en.Graph || c.Item != en.Item {
				continue
			}
			msgs, err := p.Messages(en, c)
			if err != nil {
				t.Fatal(err)
			}
			prompts++
			if len(msgs) != 1 || msgs[0].Role != "user" {
				t.Fatalf("%s %s: %d messages", en.Key, c.Arm, len(msgs))
			}
			// Two instances with the same graph and question have the same
			// ISOLDA prompt (ISOLDA's order does not follow the edges'):
			// the expected prompt must be that of this arm and question
			// text, with the same gold answer.
			if x, ok := expect[task.SHA1Hex(msgs[0].Content)]; !ok || x.arm != c.Arm || x.q.Text != en.Q.Text || x.q.Gold.Text != en.Q.Gold.Text {
				t.Fatalf("%s %s: the prompt is not the benchmark's structure_prompt", en.Key, c.Arm)
			}
			if name, ok := examples[msgs[0].Content]; ok {
				matched[name] = true
			}
		}
	}
	if want := 500 * (7 + isoldaArms); prompts != want {
		t.Errorf("%d prompts checked, want %d", prompts, want)
	}
	if len(matched) != 35 {
		var missing []string
		for _, name := range examples {
			if !matched[name] {
				missing = append(missing, name)
			}
		}
		sort.Strings(missing)
		t.Errorf("%s: %d/35 example prompts byte for byte; missing %v", variant, len(matched), missing)
	}
	h := func(r llmtest.Request) llmtest.Reply {
		if len(r.Messages) != 1 {
			return llmtest.Reply{Text: "not one user message"}
		}
		u := r.Messages[0].Content
		c, ok := expect[task.SHA1Hex(u)]
		if !ok {
			return llmtest.Reply{Text: "unexpected prompt"}
		}
		q := c.q
		// No prompt usage: the report counts the prompt with the model's
		// tokenizer (o200k_base), the paper's measure.
		usage := &llmtest.Usage{Completion: 3}
		switch {
		case c.arm == "list_of_edges", c.arm == "isolda-0.1":
			return llmtest.Reply{Text: kgllm.GoldResponse(q), Usage: usage}
		case c.arm == "rdf_turtle3" && q.Task == kgllm.TripleRetrieval:
			return llmtest.Reply{Text: kgllm.GoldResponse(q), Usage: usage}
		}
		return llmtest.Reply{Text: "I do not know.", Usage: usage}
	}
	runDir := run(t, p, h)
	for _, r := range readRecords(t, runDir) {
		if r.Response == "unexpected prompt" || r.Response == "not one user message" {
			t.Fatalf("%s: %s: the prompt is not the benchmark's structure_prompt", variant, r.Key)
		}
	}
	rep, res := reportOf(t, dir, runDir)
	m := modelName("m")
	if a := overall(t, rep, m, "list_of_edges"); a.Correct != wantGold || a.N != 500 {
		t.Errorf("%s: list_of_edges answering gold: %d/%d, want %d/500", variant, a.Correct, a.N, wantGold)
	}
	if a := overall(t, rep, m, "isolda-0.1"); a.Correct != wantGold {
		t.Errorf("%s: isolda-0.1 answering gold: %d/%d, want %d/500", variant, a.Correct, a.N, wantGold)
	}
	if a := overall(t, rep, m, "rdf_turtle3"); a.Correct != 100 {
		t.Errorf("%s: rdf_turtle3 answering TripleRetrieval only: %d/%d, want 100/500", variant, a.Correct, a.N)
	}
	// Per-task rows (each task is a family): every task has its 100
	// instances; HighestDegreeNode
	// loses the answers the benchmark's parser rejects.
	perTask := map[string]string{}
	for _, a := range rep.Accuracy {
		if a.Model == m && a.Arm == "list_of_edges" && a.Family != report.All && a.Graph == report.All {
			perTask[a.Family] = fmt.Sprintf("%d/%d", a.Correct, a.N)
		}
	}
	t.Logf("%s: list_of_edges answering gold, per task: %v", variant, perTask)
	if len(perTask) != 5 || perTask["TripleRetrieval"] != "100/100" || perTask["HighestDegreeNode"] != fmt.Sprintf("%d/100", wantGold-400) {
		t.Errorf("%s: per-task rows %v", variant, perTask)
	}
	// Criteria with one model "m": R cannot be evaluated (its models did
	// not run); K1 fails, as the paper expected from its o200k counts
	// (ISOLDA 0.1 is larger than rdf_turtle3 and rdf_turtle2); K2 passes:
	// ISOLDA is right wherever the best paper format (list_of_edges) is; K3
	// passes: ISOLDA is right on the gold count, rdf_turtle3 on 100 only.
	oc := outcomes(res)
	if oc["R"] != report.NotEvaluated || oc["K1"] != report.Fail || oc["K2"] != report.Pass || oc["K3"] != report.Pass {
		t.Errorf("%s: criteria %v", variant, oc)
	}
	t.Logf("%s: criteria %v", variant, oc)
}

// The KG-LLM-Bench studies check 4,500 prompts and make 1,500 calls each:
// they are left out of -short runs.
func TestKGLLMBenchPseudo(t *testing.T) {
	if testing.Short() {
		t.Skip("4,500 prompts and 1,500 calls; run without -short")
	}
	testKGLLMBench(t, "pseudo", 494)
}

func TestKGLLMBenchReal(t *testing.T) {
	if testing.Short() {
		t.Skip("4,500 prompts and 1,500 calls; run without -short")
	}
	testKGLLMBench(t, "real"+kgllmWith02, 497)
}

// kgllmExpect indexes the expected prompt of every call of the KG-LLM-Bench
// collections of a plan by its SHA-1: kgllm.UserMessage (the benchmark's
// structure_prompt, or its Catalan translation) of the context and the
// question, in the collection's language.
func kgllmExpect(p *eval.Plan) map[string]call {
	expect := map[string]call{}
	for _, en := range p.Entries {
		lang := en.Q.Meta["language"]
		if lang == "" {
			continue
		}
		for _, c := range p.Contexts {
			if c.Graph != en.Graph || c.Item != en.Item {
				continue
			}
			f := c.Format
			if strings.HasPrefix(f, "isolda") {
				f = kgllm.FormatISOLDA
			}
			expect[task.SHA1Hex(kgllm.UserMessage(lang, f, c.Text, en.Q.Text))] = call{c.Arm, en.Q}
		}
	}
	return expect
}

// TestCatalanStudy: the four collections and the calls of the paper's
// models; then one model reading isolda and rdf_turtle3 only (4,000
// calls), ISOLDA answering gold except 20 AggByRelation instances in
// Catalan with pseudonyms, rdf_turtle3 answering the TripleRetrieval
// instances only; C1–C5 follow.
func TestCatalanStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 instances and 4,000 calls; run without -short")
	}
	data := shared.MustPath(t, "data", "kgllmbench", "instances")
	labels, err := filepath.Abs(filepath.Join("..", "task", "kgllm", "testdata", "labels_ca.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Get("kgllmbench-ca")
	for v, w := range map[string]int{catalanOnly: 8000, catalanFull: 16000} {
		for _, m := range s.Variant(v).Models {
			if c := s.Variant(v).Calls(m); c != w {
				t.Errorf("%s %s: %d calls declared, want %d (500 × 8 per collection)", v, m.Name, c, w)
			}
		}
	}
	opts := Options{BaseURL: "http://h/v1", Model: "m", Tokenizer: "o200k_base", Variant: catalanFull, Data: map[string]string{"kgllmbench": data, "labels": labels}}
	dir, p := initStudy(t, s.Name, opts, func(e *eval.Experiment) { e.Models[0].Arms = []string{"isolda-0.2", "rdf_turtle3"} })
	if len(p.Entries) != 2000 || p.Manifest.Calls != 4000 {
		t.Fatalf("%d questions, %d calls; want 2,000 and 4,000", len(p.Entries), p.Manifest.Calls)
	}
	expect := kgllmExpect(p)
	var mu sync.Mutex
	runDir := run(t, p, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		c, ok := expect[task.SHA1Hex(r.Messages[0].Content)]
		u := &llmtest.Usage{Completion: 1}
		switch {
		case !ok:
			return llmtest.Reply{Text: "unexpected prompt", Usage: u}
		case c.arm == "isolda-0.2" && !(c.q.Meta["language"] == kgllm.LangCatalan && c.q.Meta["variant"] == kgllm.VariantPseudo &&
			c.q.Task == kgllm.AggByRelation && atoi(c.q.Meta["instance"]) < 20):
			return llmtest.Reply{Text: kgllm.GoldResponse(c.q), Usage: u}
		case c.arm == "rdf_turtle3" && c.q.Task == kgllm.TripleRetrieval:
			return llmtest.Reply{Text: kgllm.GoldResponse(c.q), Usage: u}
		}
		return llmtest.Reply{Text: "Desconegut.", Usage: u}
	})
	for _, r := range readRecords(t, runDir) {
		if r.Response == "unexpected prompt" {
			t.Fatalf("%s: the prompt is not the benchmark's (in its language)", r.Key)
		}
	}
	rep, res := reportOf(t, dir, runDir)
	for _, a := range rep.Accuracy {
		if a.Model == "m" && a.Family == report.All && a.Graph != report.All {
			t.Logf("%s on %s: %d/%d", a.Arm, a.Graph, a.Correct, a.N)
		}
	}
	// By hand: ISOLDA answers all 500 in English and Catalan real, 480 in
	// Catalan pseudo (the adapted scorer reads every gold answer);
	// rdf_turtle3 the 100 TripleRetrieval instances everywhere. C1: every
	// ISOLDA context isomorphic. C3, C4: ISOLDA right on 380+ instances
	// where rdf_turtle3 is wrong, never the reverse. C5: rdf_turtle3 is the
	// best paper format that ran; real: no drop; pseudo: ISOLDA's drop is
	// larger on 20 instances, smaller on none: sign test p = 2^-19, FAIL.
	for g, w := range map[string]int{"kgllmbench-real": 500, "kgllmbench-ca-real": 500, "kgllmbench-pseudo": 500, "kgllmbench-ca-pseudo": 480} {
		for _, a := range rep.Accuracy {
			if a.Model == "m" && a.Arm == "isolda-0.2" && a.Family == report.All && a.Graph == g && a.Correct != w {
				t.Errorf("isolda on %s: %d/%d, want %d", g, a.Correct, a.N, w)
			}
		}
	}
	oc := outcomes(res)
	for id, w := range map[string]report.Outcome{"C1": report.Pass, "C3": report.Pass, "C4": report.Pass, "C5": report.Fail} {
		if oc[id] != w {
			t.Errorf("%s: %s, want %s", id, oc[id], w)
		}
	}
	for _, r := range res {
		for _, c := range r.Checks {
			t.Logf("%s: %s %s vs %s: %s", r.ID, c.Group, c.Arm, c.Than, c.Figures)
			if r.ID == "C5" && strings.Contains(c.Group, "pseudo") && !strings.Contains(c.Figures, "larger in 20, smaller in 0") {
				t.Errorf("C5 pseudo: %s", c.Figures)
			}
			if r.ID == "C1" && !strings.Contains(c.Group, "-ca-") {
				t.Errorf("C1 checks %s", c.Group)
			}
		}
	}
	testCatalanRescore(t, dir, runDir, oc)
}

// testCatalanRescore: the default variant's path, where the English
// answers come from another run. Rescoring the run with the scorer it was
// scored with changes nothing; with the strict scorer, which does not read
// «Resposta:», the Catalan answers fail. The Catalan half alone leaves C5
// not evaluated; joined with the English half (rescored) it gives the
// verdicts of the run that asked both.
func testCatalanRescore(t *testing.T, dir, runDir string, want map[string]report.Outcome) {
	logged, err := report.FromRun(runDir)
	if err != nil {
		t.Fatal(err)
	}
	rescored := func(name string) []report.Observation {
		t.Helper()
		sc, err := Scorings().Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		obs, err := report.FromRunRescored(runDir, sc)
		if err != nil {
			t.Fatal(err)
		}
		return obs
	}
	adapted, strict := rescored("kgllm_adapted"), rescored("kgllm_strict")
	if len(adapted) != len(logged) || len(strict) != len(logged) {
		t.Fatalf("%d observations rescored, %d logged", len(adapted), len(logged))
	}
	caRight, caStrict := 0, 0
	for i, o := range logged {
		if adapted[i] != o && (adapted[i].Correct != o.Correct || adapted[i].Score != o.Score || adapted[i].Graph != o.Graph) {
			t.Fatalf("rescored with the run's own scorer: %+v, logged %+v", adapted[i], o)
		}
		if strings.Contains(o.Graph, "-ca-") && o.Correct {
			caRight++
			if strict[i].Correct {
				caStrict++
			}
		}
	}
	if caRight == 0 || caStrict*2 > caRight {
		t.Errorf("strict scorer right on %d of the %d Catalan answers the adapted one accepts", caStrict, caRight)
	}
	if _, err := Scorings().Lookup("nope"); err == nil {
		t.Error("unknown scorer accepted")
	}
	var ca []report.Observation
	for _, o := range logged {
		if strings.Contains(o.Graph, "-ca-") {
			ca = append(ca, o)
		}
	}
	man, err := report.ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(obs []report.Observation) map[string]report.Outcome {
		if _, err := os.Stat(filepath.Join(dir, CriteriaFile)); err != nil {
			t.Fatal(err)
		}
		return outcomes(evalCriteria(t, dir, man, obs))
	}
	if oc := eval(ca); oc["C5"] != report.NotEvaluated {
		t.Errorf("C5 without the English answers: %s", oc["C5"])
	}
	joined := report.AddGraphs(ca, adapted)
	if len(joined) != len(logged) {
		t.Errorf("%d observations joined, %d in the run", len(joined), len(logged))
	}
	if oc := eval(joined); fmt.Sprint(oc) != fmt.Sprint(want) {
		t.Errorf("joined: %v, the run that asked both: %v", oc, want)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = 10*n + int(r-'0')
	}
	return n
}
