package page

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/report"
)

// TestHostileRunEscaped renders a run whose every logged string is
// markup (answers, questions, names, files, the run folder's link) and
// checks that the page is still well-formed XML with no element, attribute
// or reference the strings tried to add: html/template escapes each value
// for where it lands, and a javascript: link becomes "#ZgotmplZ".
func TestHostileRunEscaped(t *testing.T) {
	const (
		tag  = `<script>alert(1)</script>`
		attr = `"><img src=x onerror=alert(1)>`
	)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, runner.AnswersFile), nil, 0o644))
	sha := strings.Repeat("a", 40)
	run := &report.Run{
		Dir: dir,
		Manifest: eval.Manifest{RunID: "run" + attr + tag, Name: tag, Calls: 2,
			Contexts: []eval.Context{{Arm: "arm" + attr, Graph: "g" + tag, SHA1: sha, File: "ctx" + attr + ".txt", Format: tag}}},
		Contexts:    map[string]string{sha: "context " + tag + attr},
		OutOfDesign: []report.LineNote{{Line: 3, Key: tag, Reason: attr}},
	}
	for i, status := range []string{runner.StatusOK, "error"} {
		run.Samples = append(run.Samples, report.Sample{
			Key: "k" + tag, Arm: "arm" + attr, Model: "model" + attr, Family: "family" + tag, Graph: "g" + tag,
			QuestionID: "q" + attr, Trial: i, Question: "question " + tag, Gold: "gold" + attr,
			Alternatives: []string{tag}, Status: status, Error: "error " + tag, Answer: "answer " + tag + attr,
			AnswerBytes: len("answer " + tag + attr), Scorer: attr, Parsed: tag, Time: tag, Line: i + 1,
			Messages: []report.Message{{Role: "user" + attr, Before: "before " + tag, After: "after " + attr, ContextSHA1: sha}},
		})
	}
	obs := []report.Observation{{Arm: "arm" + attr, Model: "model" + attr, Family: "family" + tag, Graph: "g" + tag,
		QuestionID: "q" + attr, Correct: true, InputTokens: 10}}
	r, err := report.Build(obs, report.Options{Seed: 1, Resamples: 10})
	must(t, err)
	for _, link := range []string{"", "javascript:alert(1)//"} {
		var buf bytes.Buffer
		must(t, Page{Title: "report " + tag, Report: r, Run: run, RunLink: link}.WriteHTML(&buf))
		s := buf.String()
		counts := xmlElements(t, s)
		for _, el := range []string{"script", "img"} {
			if counts[el] != 0 {
				t.Errorf("link %q: the page has %d %s element(s)", link, counts[el], el)
			}
		}
		if strings.Contains(s, "javascript:") && strings.Contains(s, `href="javascript:`) {
			t.Errorf("link %q: a javascript: URL is a link", link)
		}
		if !strings.Contains(s, "answer &lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("link %q: the answer is not shown escaped", link)
		}
	}
	// The link to a context outside the page keeps the run folder's path
	// and the file's name.
	run.Contexts[sha] = strings.Repeat("x", maxInlineContexts+1)
	var buf bytes.Buffer
	must(t, Page{Title: "t", Report: r, Run: run, RunLink: "javascript:alert(1)//"}.WriteHTML(&buf))
	if s := buf.String(); !strings.Contains(s, `href="#ZgotmplZ"`) {
		t.Errorf("a javascript: run link is not neutralised: %s", s[strings.Index(s, "not embedded"):][:300])
	}
	buf.Reset()
	must(t, Page{Title: "t", Report: r, Run: run, RunLink: "../run folder"}.WriteHTML(&buf))
	if s := buf.String(); !strings.Contains(s, `<a href="../run%20folder/ctx%22%3e%3cimg%20src=x%20onerror=alert%281%29%3e.txt">`) {
		i := strings.Index(s, "not embedded")
		t.Errorf("the context's link is not the escaped path: %s", s[i:min(len(s), i+400)])
	}
}
