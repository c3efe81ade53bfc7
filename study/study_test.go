package study

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/token"
)

// initStudy writes a study into a temporary folder and prepares its
// experiment, after edit (when given) changes it.
func initStudy(t *testing.T, name string, opts Options, edit ...func(*eval.Experiment)) (string, *eval.Plan) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if _, err := Init(name, dir, opts); err != nil {
		t.Fatal(err)
	}
	e, err := eval.LoadExperiment(filepath.Join(dir, ExperimentFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range edit {
		f(e)
	}
	p, err := eval.PrepareWith(e, dir, eval.PrepareOptions{Tokenizers: testTokenizers(t), Scorers: Scorings()})
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}

// testTokenizers resolves the embedded encodings only.
func testTokenizers(t *testing.T) *token.Registry {
	return token.NewRegistry(token.Options{ModelsDir: t.TempDir()})
}

// checkDryRun checks the calls per model of the prepared plan against the
// study's declaration, and returns the dry run. Models whose tokenizer is
// not embedded count with o200k_base (the models' own tokenizers are large
// files; the calls do not depend on them).
func checkDryRun(t *testing.T, s *Study, p *eval.Plan, want map[string]int) []eval.ModelCalls {
	t.Helper()
	for i := range p.Experiment.Models {
		if m := &p.Experiment.Models[i]; m.Tokenizer != "o200k_base" && m.Tokenizer != "cl100k_base" {
			m.Tokenizer = "o200k_base"
		}
	}
	mc, err := eval.DryRun(p, testTokenizers(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mc {
		if w, ok := want[m.Model]; ok && m.Calls != w {
			t.Errorf("%s: model %s makes %d calls, want %d", s.Name, m.Model, m.Calls, w)
		}
		t.Logf("%s: model %s: %d calls, %d input tokens (%s)", s.Name, m.Model, m.Calls, m.InputTokens, m.Tokenizer)
	}
	return mc
}

// run runs the plan against a scripted endpoint and returns the run folder.
func run(t *testing.T, p *eval.Plan, h llmtest.Handler) string {
	t.Helper()
	srv := llmtest.New(h)
	t.Cleanup(srv.Close)
	for i := range p.Experiment.Models {
		p.Experiment.Models[i].BaseURL = srv.URL
	}
	out := filepath.Join(t.TempDir(), "run")
	res, err := runner.Run(context.Background(), p, runner.RunOptions{Out: out, Tokenizers: testTokenizers(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 0 || res.Done != p.Manifest.Calls {
		t.Fatalf("run: %+v, want %d calls done", res, p.Manifest.Calls)
	}
	return out
}

// reportOf builds the report of a run and evaluates the study's criteria.
func reportOf(t *testing.T, dir, runDir string) (*report.Report, []report.Result) {
	t.Helper()
	obs, err := report.FromRun(runDir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(obs, report.Options{Seed: 1, Resamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	man, err := report.ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	rep.Arms = report.ArmRows(man)
	return rep, evalCriteria(t, dir, man, obs)
}

// evalCriteria evaluates the criteria of the study folder dir (nil when it
// has none) on observations of the run of manifest man.
func evalCriteria(t *testing.T, dir string, man *eval.Manifest, obs []report.Observation) []report.Result {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, CriteriaFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := report.ParseCriteria(f, CriteriaFile)
	if err != nil {
		t.Fatal(err)
	}
	res, err := set.Evaluate(report.Input{Observations: obs, RoundTrips: report.RoundTripsFromManifest(man)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// overall returns the overall accuracy row of an arm and model.
func overall(t *testing.T, rep *report.Report, model, arm string) report.AccuracyRow {
	t.Helper()
	for _, a := range rep.Accuracy {
		if a.Model == model && a.Arm == arm && a.Family == report.All && a.Graph == report.All {
			return a
		}
	}
	t.Fatalf("no overall row for %s %s", model, arm)
	return report.AccuracyRow{}
}

func outcomes(res []report.Result) map[string]report.Outcome {
	out := map[string]report.Outcome{}
	var walk func([]report.Result)
	walk = func(rs []report.Result) {
		for _, r := range rs {
			out[r.ID] = r.Outcome
			walk(r.Sub)
		}
	}
	walk(res)
	return out
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Name] {
			t.Errorf("study %s twice", s.Name)
		}
		seen[s.Name] = true
		if s.Version < 1 || s.Paper == "" || s.Title == "" || len(s.Parts) == 0 || len(s.Models) == 0 || s.build == nil {
			t.Errorf("study %s is incomplete: %+v", s.Name, s)
		}
	}
	for _, n := range []string{"isolda-pilot", "isolda-confirmatory", "kgllmbench", "isolda-validation", "kgllmbench-ca",
		"graphqa", "graphqa-hardened", "graphqa-topology", "text2kgbench", "wikidata-subgraphs", "graphrag-impact"} {
		if !seen[n] {
			t.Errorf("study %s missing", n)
		}
	}
	if _, err := Init("nope", t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "unknown study") {
		t.Errorf("unknown study: %v", err)
	}
}

func TestInitRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Init("graphrag-impact", dir, Options{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty folder: %v", err)
	}
	if _, err := Init("graphrag-impact", t.TempDir(), Options{BaseURL: "http://h/v1"}); err == nil {
		t.Error("--base-url without --model accepted")
	}
}

// The folder is the same bytes whatever the run: no time, no map order.
func TestInitDeterministic(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, d := range []string{a, b} {
		if _, err := Init("graphrag-impact", d, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	sa, _ := os.ReadFile(filepath.Join(a, SumsFile))
	sb, _ := os.ReadFile(filepath.Join(b, SumsFile))
	if len(sa) == 0 || !bytes.Equal(sa, sb) {
		t.Errorf("two inits differ:\n%s\n%s", sa, sb)
	}
}

func readRecords(t *testing.T, runDir string) []runner.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(runDir, runner.AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []runner.Record
	if err := runner.ReadRecords(f, func(r *runner.Record) error { out = append(out, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The criteria files shipped in report/examples are the ones the studies
// write (the ISOLDA paper's, §4.4–4.7).
func TestCriteriaExamples(t *testing.T) {
	for file, want := range map[string]string{
		"paper-4.4-confirmatory.yaml": confirmatoryCriteria(),
		"paper-4.5-kgllmbench.yaml":   kgllmCriteria("kgllmbench-pseudo", "pseudo"),
		"paper-4.6-validation.yaml":   validationCriteria("kgllmbench-real"),
		"paper-4.7-catalan.yaml":      catalanCriteria("kgllmbench-real", "kgllmbench-ca-real", "kgllmbench-pseudo", "kgllmbench-ca-pseudo"),
	} {
		got, err := os.ReadFile(filepath.Join("..", "report", "examples", file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("report/examples/%s differs from what the study writes", file)
		}
	}
}

// TestPrintedSizes: the question and call counts the papers print, as
// isolda study list shows them ("Graph Serializations for Reasoning LLMs":
// Tables 7 and 8, the repeated runs; the ISOLDA paper: §4.5, §4.7).
func TestPrintedSizes(t *testing.T) {
	get := func(name, variant string) *Study {
		s, ok := Get(name)
		if !ok {
			t.Fatalf("no study %s", name)
		}
		return s.Variant(variant)
	}
	for _, c := range []struct {
		name, variant    string
		arms             int
		questions        []int
		calls, perFormat int
	}{
		{"graphqa-hardened", "", 15, []int{95}, 8 * 95 * 15, 95},
		{"graphqa-topology", "", 15, []int{72}, 8 * 72 * 15, 72},
		{"graphqa-stability", "", 15, []int{105, 120}, 20250, 0},
		{"kgllmbench", "", 8, []int{500}, 19500, 0},
		{"kgllmbench", "real", 8, []int{500}, 19500, 0},
		{"kgllmbench", "pseudo+isolda-0.2", 9, []int{500}, 22500, 0},
		{"kgllmbench-ca", "", 8, []int{500, 500}, 32000, 0},
		{"kgllmbench-ca", "full", 8, []int{500, 500, 500, 500}, 64000, 0},
	} {
		s := get(c.name, c.variant)
		var qs []int
		for _, p := range s.Parts {
			qs = append(qs, p.Questions)
		}
		if len(s.Arms()) != c.arms || fmt.Sprint(qs) != fmt.Sprint(c.questions) || s.TotalCalls() != c.calls {
			t.Errorf("%s %s: %d arms, questions %v, %d calls; want %d, %v, %d", c.name, c.variant, len(s.Arms()), qs, s.TotalCalls(), c.arms, c.questions, c.calls)
		}
		if c.perFormat > 0 && len(s.Models) != 8 {
			t.Errorf("%s: %d models; Tables 7 and 8 have 8 (gpt-5.4-high excluded)", c.name, len(s.Models))
		}
	}
}
