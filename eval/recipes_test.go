package eval

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/token"
)

// TestRecipes validates the README's server recipes (testdata/recipes) and
// prepares each with the shared tokenizers: every budgeted context fits.
func TestRecipes(t *testing.T) {
	reg := token.NewRegistry(token.Options{ModelsDir: shared.MustPath(t, "tokenizers", "models")})
	demo, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/recipes/*.yaml")
	if len(files) != 3 {
		t.Fatalf("recipes: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e, err := ParseExperiment(b, f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		m := e.Models[0]
		// The start command in the comment serves the port of base_url.
		u, err := url.Parse(m.BaseURL)
		if err != nil || !strings.HasSuffix(u.Path, "/v1") {
			t.Errorf("%s: base_url %s", f, m.BaseURL)
			continue
		}
		port := u.Port()
		switch filepath.Base(f) {
		case "vllm.yaml", "llama-server.yaml":
			if kw, _ := m.ExtraBody["chat_template_kwargs"].(map[string]any); kw == nil || kw["enable_thinking"] != false {
				t.Errorf("%s: thinking not switched off: %v", f, m.ExtraBody)
			}
			if !strings.Contains(string(b), "--port "+port) {
				t.Errorf("%s: the command does not serve port %s", f, port)
			}
		case "ollama.yaml":
			if m.ExtraBody["reasoning_effort"] != "none" || port != "11434" {
				t.Errorf("%s: %v %s", f, m.ExtraBody, port)
			}
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "demo.ttl"), demo, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := PrepareWith(e, dir, PrepareOptions{Tokenizers: reg, Scorers: evaltest.Scorers()})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		budgeted := 0
		for _, c := range p.Contexts {
			if c.Budget == 0 {
				continue
			}
			budgeted++
			tok, err := reg.Get(c.Tokenizer)
			if err != nil {
				t.Fatal(err)
			}
			if n := tok.Count(c.Text); n > c.Budget || n != c.Tokens {
				t.Errorf("%s %s: %d tokens for a budget of %d", f, c.Arm, n, c.Budget)
			}
		}
		if budgeted == 0 {
			t.Errorf("%s: no budgeted context", f)
		}
		t.Logf("%s: ok, %d contexts (%d budgeted), %d calls", filepath.Base(f), len(p.Contexts), budgeted, p.Manifest.Calls)
	}
}
