package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/report/internal/reporttest"
)

func TestReadRun(t *testing.T) {
	tr := reporttest.NewRun(t)
	run, err := ReadRun(tr.Dir)
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
	want := tr.Server.URL
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
	for _, r := range tr.Server.Requests() {
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

// TestTokenTableBothCounts: the token table gives the server's count and
// the local one (model m1 has a tokenizer, m2 none).
func TestTokenTableBothCounts(t *testing.T) {
	tr := reporttest.NewRun(t)
	run, err := ReadRun(tr.Dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(run.Observations, Options{Seed: 1, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	local := map[string][]int{}
	for _, s := range run.Samples {
		if s.Status == runner.StatusOK && s.LocalPromptTokens > 0 {
			local[s.Arm+"/"+s.Model] = append(local[s.Arm+"/"+s.Model], s.LocalPromptTokens)
		}
	}
	for _, row := range r.Tokens {
		l := local[row.Arm+"/"+row.Model]
		if row.Model == "m2" {
			if row.LocalN != 0 || !math.IsNaN(float64(row.LocalInMean)) {
				t.Errorf("%s/%s: local mean %v of %d, want none", row.Arm, row.Model, row.LocalInMean, row.LocalN)
			}
			continue
		}
		sum := 0
		for _, n := range l {
			sum += n
		}
		if len(l) == 0 || row.LocalN != len(l) || float64(row.LocalInMean) != float64(sum)/float64(len(l)) {
			t.Errorf("%s/%s: local mean %v of %d, want %d/%d", row.Arm, row.Model, row.LocalInMean, row.LocalN, sum, len(l))
		}
	}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "local in mean") || !strings.Contains(b.String(), "usage.prompt_tokens") {
		t.Error("the token table does not name both counts")
	}
}

// TestReadRunContextsByReference: the reporttest run's log refers to its
// contexts (TestReadRun checks the messages rebuilt from them against the
// server's record).
func TestReadRunContextsByReference(t *testing.T) {
	tr := reporttest.NewRun(t)
	b, err := os.ReadFile(filepath.Join(tr.Dir, runner.AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"request_context":"`); n != 16 {
		t.Errorf("%d of 16 records refer to their context", n)
	}
}
