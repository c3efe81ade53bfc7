package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/llm/llmtest"
)

// isoldaRightServer is a scripted model server that answers "2" to a
// prompt holding an ISOLDA "T[2]" table header (the right count of the
// tests' count question) and "7" to any other.
func isoldaRightServer() *llmtest.Server {
	return llmtest.New(func(r llmtest.Request) llmtest.Reply {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "T[2]") {
				return llmtest.Reply{Text: "2"}
			}
		}
		return llmtest.Reply{Text: "7"}
	})
}

// TestReportOfAnEvalRun runs a small experiment against the in-process
// server, whose scripted answers make one arm right and the other wrong on
// every question, then reports it and evaluates two criteria whose outcome
// follows from those answers.
func TestReportOfAnEvalRun(t *testing.T) {
	dir := t.TempDir()
	// The ISOLDA arm's prompt contains "Type[" headers; that arm gets the
	// right count (2), the Turtle arm a wrong one.
	srv := isoldaRightServer()
	defer srv.Close()
	y := "graphs: [{file: g.ttl}]\narms: [{name: ttl, format: b-ttl}, {name: I, format: isolda}]\n" +
		"models: [{name: m, base_url: '" + srv.URL + "', model: x, tokenizer: o200k_base}]\n" +
		"tasks: [{generate: {families: [count]}}]\ntemperature: 0\ntrials: 3\n"
	runDir := demoEvalRun(t, dir, y)
	crit := filepath.Join(dir, "criteria.yaml")
	c := "criteria:\n" +
		"  - {id: A, kind: better, arm: I, than: [ttl], alpha: 0.5}\n" +
		"  - {id: B, kind: better, arm: ttl, than: [I], alpha: 0.5}\n"
	if err := os.WriteFile(crit, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	// B fails: exit 1 (a check failed), with the tally on stderr.
	code, stdout, errs := runCLI(t, "", "report", runDir, "--criteria", crit, "--out", out, "--resamples", "200")
	if code != exitCheckFail || !strings.Contains(errs, "criteria: 1 PASS, 1 FAIL, 0 NOT EVALUATED") {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	// 3 trials × 1 question: I is right 3/3, ttl 0/3; the paired comparison
	// has b = 3 discordant pairs one way and c = 0 the other.
	for _, want := range []string{"| I ", "| ttl ", "1.000", "0.000"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "PASS") || !strings.Contains(stdout, "FAIL") {
		t.Errorf("criteria: want A PASS and B FAIL:\n%s", stdout)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "<script") {
		t.Error("report.html has a script")
	}
	dec := xml.NewDecoder(strings.NewReader(string(html)))
	dec.Strict = false
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("report.html does not parse: %v", err)
			}
			break
		}
	}
	for _, f := range []string{"report.md", "report.json", "accuracy.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	// Exit 0 when every criterion passes; 1 when one cannot be evaluated
	// (an arm the run does not have).
	for _, c := range []struct {
		criteria string
		code     int
		tally    string
	}{
		{"  - {id: A, kind: better, arm: I, than: [ttl], alpha: 0.5}\n", exitOK, "criteria: 1 PASS, 0 FAIL, 0 NOT EVALUATED"},
		{"  - {id: A, kind: better, arm: I, than: [nosuch], alpha: 0.5}\n", exitCheckFail, "criteria: 0 PASS, 0 FAIL, 1 NOT EVALUATED"},
	} {
		if err := os.WriteFile(crit, []byte("criteria:\n"+c.criteria), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, "", "report", runDir, "--criteria", crit, "--resamples", "200")
		if code != c.code || !strings.Contains(errs, c.tally) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.criteria, code, errs, c.code, c.tally)
		}
	}
}

// TestReportNotARunFolder checks the messages for a RUNDIR that is not one.
func TestReportNotARunFolder(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "nosuchdir"), "does not exist"},
		{dir, "is not a run folder: it has no questions.jsonl"},
	} {
		code, _, errs := runCLI(t, "", "report", c.dir)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Contains(errs, "open ") {
			t.Errorf("report %s: exit %d, %q; want %q", c.dir, code, errs, c.want)
		}
	}
}

// TestReportForgedLog: answers.jsonl with a record of trial 99 (the run
// has 1), one of an arm the run does not have, a torn line and a 3 MB
// answer on its first line. The report names the two records as errors and counts neither
// (exit 2), --criteria refuses to judge, the torn line is counted and
// printed, and the page shows the long answer cut with its size.
func TestReportForgedLog(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "2"} })
	defer srv.Close()
	y := "graphs: [{file: g.ttl}]\narms: [{name: ttl, format: b-ttl}]\n" +
		"models: [{name: m, base_url: '" + srv.URL + "', model: x}]\n" +
		"tasks: [{generate: {families: [count]}}]\ntemperature: 0\n"
	runDir := demoEvalRun(t, dir, y)
	code, _, errs := runCLI(t, "", "report", runDir, "--resamples", "50")
	if code != 0 {
		t.Fatalf("report of the honest log: exit %d: %s", code, errs)
	}
	logPath := filepath.Join(runDir, "answers.jsonl")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	var rec map[string]any
	if err := json.Unmarshal([]byte(first), &rec); err != nil {
		t.Fatal(err)
	}
	forge := func(edit func(map[string]any)) string {
		c := map[string]any{}
		for k, v := range rec {
			c[k] = v
		}
		edit(c)
		j, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return string(j) + "\n"
	}
	key := rec["key"].(string)
	base := strings.TrimSuffix(key, "|1")
	huge := strings.Repeat("x", 3<<20)
	forged := forge(func(c map[string]any) { c["response"] = huge }) + strings.TrimPrefix(string(b), first+"\n") +
		forge(func(c map[string]any) { c["trial"], c["key"] = 99, base+"|99" }) +
		forge(func(c map[string]any) { c["arm"], c["key"] = "intruder", "intruder"+strings.TrimPrefix(key, "ttl") }) +
		`{"run_id":"` + rec["run_id"].(string) + `","key":"torn`
	if err := os.WriteFile(logPath, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	code, _, errs = runCLI(t, "", "report", runDir, "-o", out, "--resamples", "50")
	lines := strings.Count(string(b), "\n")
	for _, want := range []string{
		fmt.Sprintf("report: error: answers.jsonl:%d: %s: trial 99, the run has trials 1 to 1", lines+1, base+"|99"),
		fmt.Sprintf("answers.jsonl:%d: intruder", lines+2),
		`arm "intruder" is not an arm of the run`,
		"1 line(s) of answers.jsonl skipped",
		fmt.Sprintf("answers.jsonl:%d: not a record", lines+3),
		"2 record(s) of answers.jsonl are not calls of the run's design",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(html) > 1<<20 {
		t.Errorf("report.html: %d bytes, the 3 MB answer not cut", len(html))
	}
	for _, want := range []string{"Error: 2 record(s) of answers.jsonl are not calls of the run's design",
		fmt.Sprintf("cut: the first 16384 of %d bytes are shown; the whole text is on line 1 of answers.jsonl", len(huge))} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	crit := writeIn(t, dir, "c.yaml", "criteria:\n  - {id: A, kind: better, arm: ttl, than: [ttl]}\n")
	code, _, errs = runCLI(t, "", "report", runDir, "--criteria", crit)
	if code != exitBadInput || !strings.Contains(errs, "refusing to judge the criteria") || strings.Contains(errs, "PASS") {
		t.Errorf("--criteria on a forged log: exit %d, %s", code, errs)
	}
}

// TestDemoFallbackNote: with no FILE and standard input neither piped nor
// a terminal (</dev/null), the commands read the demo graph and say so.
func TestDemoFallbackNote(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"stats", "--count"}} {
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb strings.Builder
		code := run(args, &Env{Stdin: null, Stdout: &out, Stderr: &errb})
		null.Close()
		if code != 0 || !strings.HasPrefix(out.String(), "28") || !strings.Contains(errb.String(), "reading the embedded demo graph (examples/demo.ttl)") {
			t.Errorf("%v </dev/null: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// TestSmallTraps: -t isolda-0.4 is the default isolda; an unknown flag
// close to a known one is suggested; bench takes -o like the others.
func TestSmallTraps(t *testing.T) {
	in := writeFile(t, "g.ttl", demoTurtle)
	_, def, _ := runCLI(t, "", "convert", "-t", "isolda", in)
	code, v04, errs := runCLI(t, "", "convert", "-t", "isolda-0.4", in)
	if code != 0 || v04 != def || !strings.Contains(def, "ISOLDA 0.4") {
		t.Errorf("-t isolda-0.4: exit %d, %s; want the default isolda (0.4)", code, errs)
	}
	code, _, errs = runCLI(t, "", "bench", "--format", "csv", in)
	if code != exitBadInput || !strings.Contains(errs, "unknown flag: --format; did you mean --formats?") {
		t.Errorf("bench --format: exit %d, %q", code, errs)
	}
	out := filepath.Join(t.TempDir(), "b")
	if code, _, errs = runCLI(t, "", "bench", "-o", out, "--formats", "csv", in); code != 0 {
		t.Errorf("bench -o: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Error(err)
	}
}

// TestTokenizerSuggestions: a tokenizer typed as a model or short name
// gets the encoding's name and the list of those available.
func TestTokenizerSuggestions(t *testing.T) {
	in := writeFile(t, "g.ttl", demoTurtle)
	for _, c := range []struct{ cmd, name, want string }{
		{"tokens", "o200k", "did you mean o200k_base?"},
		{"bench", "gpt-4o", "did you mean o200k_base?"},
		{"tokens", "cl100k_bas", "did you mean cl100k_base?"},
	} {
		code, _, errs := runCLI(t, "", c.cmd, "--tokenizer", c.name, in)
		if code != exitBadInput || !strings.Contains(errs, c.want) || !strings.Contains(errs, "available: o200k_base, cl100k_base") {
			t.Errorf("%s --tokenizer %s: exit %d, %q", c.cmd, c.name, code, errs)
		}
	}
}
