package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/llm/llmtest"
)

// TestBudgetOrderingRun runs an experiment whose arms have budgets and
// orderings, and checks the frozen contexts and every record (eval's
// TestBudgetOrderingExperiment checks its preparation).
func TestBudgetOrderingRun(t *testing.T) {
	dir := t.TempDir()
	path := evaltest.WriteShapedExp(t, dir)
	e, err := eval.LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	p := prepare(t, e, dir)
	tok := testgraph.O200k(t)
	// Every record carries the ordering and budget of its context, and the
	// model saw that context.
	byText := map[string]*eval.Context{}
	for i := range p.Contexts {
		byText[p.Contexts[i].SHA1] = &p.Contexts[i]
	}
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply {
		sys := r.Messages[0].Content
		for _, c := range p.Contexts {
			if strings.HasSuffix(sys, "\n\n"+c.Text) {
				return llmtest.Reply{Text: c.SHA1}
			}
		}
		return llmtest.Reply{Text: "?"}
	})
	defer srv.Close()
	e.Models[0].BaseURL = srv.URL
	out := filepath.Join(dir, "run")
	if _, err := Run(context.Background(), p, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	// The frozen files fit their budgets.
	for _, c := range p.Manifest.Contexts {
		b, err := os.ReadFile(filepath.Join(out, c.File))
		if err != nil {
			t.Fatal(err)
		}
		if c.Budget > 0 && tok.Count(string(b)) > c.Budget {
			t.Errorf("%s: frozen context has %d tokens, budget %d", c.File, tok.Count(string(b)), c.Budget)
		}
	}
	recs := readLog(t, out)
	if len(recs) != p.Manifest.Calls {
		t.Fatalf("%d records, want %d", len(recs), p.Manifest.Calls)
	}
	for _, r := range recs {
		c := byText[r.ContextSHA]
		if c == nil || r.Response != c.SHA1 {
			t.Errorf("%s: model saw another context than %s (answered %s)", r.Key, r.ContextSHA, r.Response)
			continue
		}
		if r.Ordering != c.OrderingName() || r.OrderSeed != c.OrderSeed || r.Anchor != c.Anchor || r.Budget != c.Budget ||
			r.BudgetPolicy != c.Policy || r.BudgetTokenizer != c.Tokenizer || r.ContextTokens != c.Tokens || r.GraphSHA1 == "" ||
			r.Format != c.Format || r.Model != "m" || r.QuestionID == "" || r.Trial != 1 || r.RunID != p.Manifest.RunID {
			t.Errorf("record %+v does not match its context %+v", r, c)
		}
	}
}
