package runner

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/llm/llmtest"
)

func TestProgressLines(t *testing.T) {
	ms := []ModelProgress{
		{Model: "qwen", Total: 400, Done: 100, Failed: 20, Skipped: 5, Elapsed: 4 * time.Second},
		{Model: "llama", Total: 10, Elapsed: time.Second},
		{Model: "done", Total: 3, Done: 3, Elapsed: 2 * time.Second},
	}
	var b strings.Builder
	PlainProgress(&b)(ms, false)
	want := "eval: qwen: 100/400 done, 20 failed, 5 skipped, 30.0 calls/s, ETA 9s\n" +
		"eval: llama: 0/10 done, 0 failed, 0 skipped, 0.0 calls/s, ETA ?\n" +
		"eval: done: 3/3 done, 0 failed, 0 skipped, 1.5 calls/s, ETA 0s\n"
	if b.String() != want {
		t.Errorf("plain lines:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	draw := TerminalProgress(&b)
	draw(ms[:2], false)
	first := b.String()
	b.Reset()
	draw(ms[:2], true)
	if strings.HasPrefix(first, "\x1b[") || !strings.HasPrefix(b.String(), "\x1b[2A\r\x1b[2Keval: qwen: ") ||
		strings.Count(b.String(), "\r\x1b[2K") != 2 || strings.Count(b.String(), "\n") != 2 {
		t.Errorf("terminal redraw %q then %q", first, b.String())
	}
}

// TestRunProgressCounts: the snapshots count done, failed and skipped
// calls per model, also on resume.
func TestRunProgressCounts(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(nil)
	defer srv.Close()
	e := writeExp(t, dir, srv.URL, "")
	e.Models = append(e.Models, eval.Model{Name: "m2", BaseURL: srv.URL, Model: "other", MaxConcurrency: 2})
	e.Retries = -1
	p := prepare(t, e, dir)
	srv.Close()
	// m fails every count question; m2 answers everything.
	srv = llmtest.New(func(r llmtest.Request) llmtest.Reply {
		if r.Model == "test-model" && strings.Contains(lastContent(r), "How many") {
			return llmtest.Reply{Status: 500}
		}
		return llmtest.Reply{Text: "x"}
	})
	defer srv.Close()
	e.Models[0].BaseURL, e.Models[1].BaseURL = srv.URL, srv.URL
	var mu sync.Mutex
	var finals [][]ModelProgress
	ticks := 0
	opts := RunOptions{Out: filepath.Join(dir, "run"), ProgressInterval: time.Millisecond,
		OnProgress: func(ms []ModelProgress, final bool) {
			mu.Lock()
			defer mu.Unlock()
			if final {
				finals = append(finals, ms)
			} else {
				ticks++
			}
		}}
	perModel := p.Manifest.Calls / 2
	countCalls := 0
	for _, en := range p.Entries {
		if strings.Contains(en.Q.Text, "How many") {
			countCalls += 2 * e.NumTrials() // two arms
		}
	}
	if countCalls == 0 {
		t.Fatal("no count questions")
	}
	if _, err := Run(context.Background(), p, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), p, opts); err != nil {
		t.Fatal(err)
	}
	if len(finals) != 2 {
		t.Fatalf("%d final snapshots", len(finals))
	}
	want := [][]ModelProgress{
		{{Model: "m", Total: perModel, Done: perModel - countCalls, Failed: countCalls},
			{Model: "m2", Total: perModel, Done: perModel}},
		{{Model: "m", Total: countCalls, Failed: countCalls, Skipped: perModel - countCalls},
			{Model: "m2", Skipped: perModel}},
	}
	for i, ms := range finals {
		for j, m := range ms {
			m.Elapsed = 0
			if m != want[i][j] {
				t.Errorf("run %d model %d: %+v, want %+v", i+1, j, m, want[i][j])
			}
		}
	}
	t.Logf("%d periodic snapshots", ticks)
}
