package page

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/internal/reporttest"
)

func TestRunPage(t *testing.T) {
	tr := reporttest.NewRun(t)
	run, r := readRun(t, tr)
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
		run.Manifest.RunID, tr.Server.URL, "glossary=legend", run.Manifest.QuestionsSHA1, "model-two",
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
	if !strings.Contains(s, "<p class=\"note\">"+report.NoRunToRun+"</p>") {
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
	if !regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-(?:[A-Za-z0-9/=]|&#43;)+&#39;`).MatchString(s) {
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
	if !strings.Contains(s, "of 16 answers shown; the page holds 16 of the run's 16 calls (every call of the run)") {
		t.Error("the view does not say it shows every call")
	}
	if dir := os.Getenv("REPORT_OUT"); dir != "" {
		must(t, os.WriteFile(filepath.Join(dir, "run-report.html"), b.Bytes(), 0o644))
	}
}

func TestWriteDir(t *testing.T) {
	tr := reporttest.NewRun(t)
	run, r := readRun(t, tr)
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
	want := "[accuracy.csv answers.csv pairs.csv pareto.csv report.html report.json report.md run_to_run.csv tokens.csv]"
	if got := fmt.Sprint(names); got != want {
		t.Errorf("files %v, want %s (no temporary file left)", names, want)
	}
}

// TestPageDeterministic: reversed input order gives a byte-identical page.
func TestPageDeterministic(t *testing.T) {
	obs := small()
	r1, err := report.Build(obs, report.Options{Seed: 3, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	rev := make([]report.Observation, len(obs))
	for i, o := range obs {
		rev[len(obs)-1-i] = o
	}
	r2, err := report.Build(rev, report.Options{Seed: 3, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	var b1, b2 bytes.Buffer
	must(t, Page{Title: "t", Report: r1}.WriteHTML(&b1))
	must(t, Page{Title: "t", Report: r2}.WriteHTML(&b2))
	if b1.String() != b2.String() {
		t.Error("page depends on input order")
	}
}

// TestPolicyPage checks the page of a select run's policy comparison: no
// script, no external resource, the title escaped, both tables.
func TestPolicyPage(t *testing.T) {
	pr, err := report.BuildPolicyReport(reporttest.PaperResult(), report.Options{Seed: 1101, Resamples: 10000})
	if err != nil {
		t.Fatal(err)
	}
	var h bytes.Buffer
	if err := WritePolicy(&h, pr, "select <run>"); err != nil {
		t.Fatal(err)
	}
	hs := h.String()
	if strings.Contains(hs, "<script") || strings.Contains(hs, "http://") && !strings.Contains(hs, "http://www.w3.org/2000/svg") ||
		!strings.Contains(hs, "select &lt;run&gt;") || !strings.Contains(hs, ` class="num">76.19</td>`) || strings.Count(hs, `<table class="data">`) != 2 {
		t.Errorf("HTML:\n%.2000s", hs)
	}
}

// FuzzPage checks that no observation file makes the page panic.
func FuzzPage(f *testing.F) {
	f.Add([]byte(`{"arm":"I","model":"m","family":"f","graph":"g","question_id":"q1","correct":true,"input_tokens":10}
{"arm":"B","model":"m","family":"f","graph":"g","question_id":"q1","correct":false,"input_tokens":20}
{"arm":"B","model":"m","family":"f","graph":"g","question_id":"q1","trial":1,"correct":true,"input_tokens":20}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		obs, err := report.ReadObservations(bytes.NewReader(data), "fuzz", 200)
		if err != nil {
			return
		}
		r, err := report.Build(obs, report.Options{Resamples: 20})
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := (Page{Title: "fuzz", Report: r}).WriteHTML(&b); err != nil {
			t.Fatal(err)
		}
	})
}
