package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
)

func writeExp(t *testing.T, dir, base string, extra string) *Experiment {
	t.Helper()
	e, err := LoadExperiment(evaltest.WriteExp(t, dir, base, extra))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func prepare(t *testing.T, e *Experiment, dir string) *Plan {
	t.Helper()
	p, err := Prepare(e, dir, evaltest.Scorers())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValidateErrors(t *testing.T) {
	cases := []struct {
		yaml      string
		line, col int
		msg       string
	}{
		{"name: x\ngraphs: [{file: a.ttl}]\narms:\n  - {format: nope}\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\n", 4, 14, `unknown format "nope"`},
		{"name: x\nbogus: 1\n", 2, 1, "unknown field"},
		{"name: x\ngraphs: [{file: a.ttl}]\narms: [{format: b-ttl}]\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\nlayout: sideways\n", 6, 9, "layout must be"},
		{"graphs: [{file: a.ttl}]\narms: [{format: b-ttl}]\nmodels:\n  - base_url: ftp://h\n    model: m\ntasks: [{generate: {}}]\n", 4, 15, "base_url must start"},
		{"name: [\n", 1, 7, ""},
	}
	for i, c := range cases {
		_, err := ParseExperiment([]byte(c.yaml), "exp.yaml")
		if err == nil {
			t.Errorf("case %d: no error", i)
			continue
		}
		var pe *rdf.ParseError
		var ve *ValidationError
		if errors.As(err, &ve) {
			pe = ve.Problems[0]
		} else if !errors.As(err, &pe) {
			t.Errorf("case %d: %T %v", i, err, err)
			continue
		}
		if pe.File != "exp.yaml" || pe.Line != c.line || (c.col != 0 && pe.Column != c.col) || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("case %d: got %v, want line %d col %d %q", i, err, c.line, c.col, c.msg)
		}
	}
}

func TestExampleValidates(t *testing.T) {
	e, err := ParseExperiment([]byte(ExampleYAML), "example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Arms) != 4 || e.Models[0].ExtraBody["chat_template_kwargs"] == nil {
		t.Errorf("example decoded as %+v", e)
	}
	if o := e.orderingOf(e.Arms[3]); o.Kind != OrderShuffle || o.Seed != 7 || e.budgetOf(e.Arms[3]).Tokens != 400 {
		t.Errorf("example arm 4: %+v %+v", o, e.Arms[3].Budget)
	}
	// The commented examples are valid too.
	y := strings.Replace(ExampleYAML, "  # - name: isolda-bfs\n  #   format: isolda\n  #   ordering: {kind: bfs}\n",
		"  - name: isolda-bfs\n    format: isolda\n    ordering: {kind: bfs}\n", 1)
	y = regexp.MustCompile(`(?m)^# (budget|ordering):`).ReplaceAllString(y, "$1:")
	commented := regexp.MustCompile(`(?m)^  #   (ordering|budget): (\{.*?\})`).FindAllStringSubmatch(ExampleYAML, -1)
	if len(commented) != 6 {
		t.Errorf("%d commented examples of ordering and budget, want 6", len(commented))
	}
	for _, l := range commented {
		one := strings.Replace(ExampleYAML, "    format: isolda-0.3\n", "    format: isolda-0.3\n    "+l[1]+": "+l[2]+"\n", 1)
		if _, err := ParseExperiment([]byte(one), "example.yaml"); err != nil {
			t.Errorf("commented example %s: %s: %v", l[1], l[2], err)
		}
	}
	e, err = ParseExperiment([]byte(y), "example.yaml")
	if err != nil || len(e.Arms) != 5 || e.Budget == nil || e.Budget.Tokens != 4096 || e.Ordering == nil {
		t.Errorf("example with its comments on: %v", err)
	}
}

func TestHostileYAML(t *testing.T) {
	// A "billion laughs" document: refused at its first alias, quickly.
	y := "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
	for c := 'c'; c <= 'k'; c++ {
		y += fmt.Sprintf("%c: &%c [%s]\n", c, c, strings.Repeat(fmt.Sprintf("*%c,", c-1), 8)+fmt.Sprintf("*%c", c-1))
	}
	y += "name: *k\n"
	// Counted in bytes allocated, not seconds, so that a busy machine
	// does not change the verdict.
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := ParseExperiment([]byte(y), "bl.yaml")
	runtime.ReadMemStats(&m1)
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 8 || !strings.Contains(pe.Msg, "aliases") {
		t.Errorf("billion laughs: %v", err)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 16<<20 {
		t.Errorf("billion laughs: %d bytes allocated, want under 16 MiB", a)
	}
	if _, err := ParseExperiment(bytes.Repeat([]byte("#"), MaxExperimentBytes+1), "big.yaml"); err == nil {
		t.Error("oversized file accepted")
	}
	for _, s := range []string{"", "[", "{{{", "name: \"\\", "- - - -", "models: 5", "trials: -3", "\x00\x01"} {
		if _, err := ParseExperiment([]byte(s), "x.yaml"); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func FuzzParseExperiment(f *testing.F) {
	f.Add([]byte(ExampleYAML))
	recipes, _ := filepath.Glob("testdata/recipes/*.yaml")
	for _, r := range recipes {
		if b, err := os.ReadFile(r); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("name: x\ngraphs: [{file: a.ttl}]\narms: [{format: b-ttl}]\nmodels: [{base_url: 'http://h/v1', model: m, extra_body: {1: {2: 3}}}]\ntasks: [{generate: {}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseExperiment(data, "f.yaml")
		if err == nil {
			for _, m := range e.Models {
				if _, err := json.Marshal(m.ExtraBody); err != nil {
					t.Fatalf("accepted extra_body that is not JSON: %v", err)
				}
			}
		}
	})
}

func TestFrozenSetOtherGraphRefused(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	gen := prepare(t, e, dir)
	q0 := gen.Entries[0].Q
	set := &task.Set{Name: "s", Questions: []task.Question{q0},
		Contexts: []task.Context{{ID: q0.ContextID, SHA1: q0.ContextSHA1}}}
	evaltest.WriteSet(t, dir, "s.jsonl", set)
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte(evaltest.DemoTTL+"<http://example.org/x> <http://example.org/y> \"z\" .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.Tasks = []Task{{Name: "kg", Set: "s.jsonl", Graph: "g"}}
	if _, err := Prepare(e, dir, evaltest.Scorers()); err == nil || !strings.Contains(err.Error(), "made from another graph") {
		t.Fatalf("set on another graph: %v", err)
	}
}

// TestPrepareScorers checks that Prepare takes its scorer table from its
// caller: an unknown scorer name is an error, no table is an error, and
// the default scorer of a family is the table's (here a table whose only
// scorer is kg's under another name).
func TestPrepareScorers(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	if _, err := Prepare(e, dir, nil); err == nil || !strings.Contains(err.Error(), "no scorer table") {
		t.Errorf("no table: %v", err)
	}
	e.Tasks[0].Scorer = "kg_typo"
	if _, err := Prepare(e, dir, evaltest.Scorers()); err == nil || !strings.Contains(err.Error(), `unknown scorer "kg_typo" (one of kg, graphqa, final)`) {
		t.Errorf("unknown scorer: %v", err)
	}
	e.Tasks[0].Scorer = ""
	own := task.Scorings{{Scorers: []task.NamedScorer{{Name: "mine", Scorer: task.ScorerFunc(func(task.Question, string) task.Result { return task.Result{} })}}}}
	p, err := Prepare(e, dir, own)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) == 0 {
		t.Fatal("no entries")
	}
	for _, en := range p.Entries {
		if en.Scorer != "mine" {
			t.Fatalf("entry %s: scorer %q, want the table's default \"mine\"", en.Key, en.Scorer)
		}
	}
}
