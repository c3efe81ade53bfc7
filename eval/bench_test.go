package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
)

// BenchmarkRun measures the runner's overhead: calls per second against the
// in-process server with zero latency and 64 calls in flight, with every
// record written and fsynced to answers.jsonl.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	set := &task.Set{Name: "s", Contexts: []task.Context{{ID: "c", Text: "Edges: A-B, B-C."}}}
	for i := range 100 {
		set.Questions = append(set.Questions, task.Question{ID: fmt.Sprintf("q%03d", i), Family: task.FamilyLookup,
			Task: task.FamilyLookup, Text: fmt.Sprintf("Question %d?", i), ContextID: "c",
			Gold: task.Answer{Text: "A", Kind: task.KindText, Value: "A"}})
	}
	set.Seal()
	var fb bytes.Buffer
	if err := task.WriteFrozen(&fb, set); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "set.jsonl"), fb.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := llmtest.New(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "A"} })
	defer srv.Close()
	e := &Experiment{Tasks: []Task{{Set: "set.jsonl"}}, Trials: (b.N + 99) / 100,
		Models: []Model{{Name: "m", BaseURL: srv.URL, Model: "x", MaxConcurrency: 64}}}
	p, err := Prepare(e, dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	res, err := Run(context.Background(), p, RunOptions{Out: filepath.Join(dir, "run")})
	el := time.Since(start)
	if err != nil || res.Failed != 0 {
		b.Fatalf("%+v %v", res, err)
	}
	b.ReportMetric(float64(res.Done)/el.Seconds(), "calls/s")
	b.ReportMetric(float64(srv.MaxInFlight()), "max-in-flight")
}
