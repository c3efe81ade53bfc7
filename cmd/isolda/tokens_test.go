package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// The expected numbers come from shared/tokenizers/reference (tiktoken and
// the Hugging Face JS libraries), for the corpus file chat-transcript.txt,
// and single-letter.txt ("a", o200k_base ids [64]).
func TestTokensCommand(t *testing.T) {
	corpus := shared.MustPath(t, "tokenizers", "corpus")
	models := shared.MustPath(t, "tokenizers", "models")
	t.Setenv("ISOLDA_TOKENIZERS", models)
	chat := filepath.Join(corpus, "chat-transcript.txt")

	code, out, errs := runCLI(t, "a", "tokens")
	if code != 0 || out != "1\n" {
		t.Errorf("stdin default: code %d out %q err %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "a", "tokens", "-", "--ids")
	if code != 0 || out != "1\n64\n" {
		t.Errorf("--ids: code %d out %q", code, out)
	}
	code, out, _ = runCLI(t, "", "tokens", "--ids", filepath.Join(corpus, "empty.txt"))
	if code != 0 || out != "0\n\n" {
		t.Errorf("empty --ids: code %d out %q", code, out)
	}

	want := map[string]int{"o200k_base": 128, "cl100k_base": 134, "qwen3": 142, "llama3": 134, "gemma3": 147}
	for name, n := range want {
		code, out, errs = runCLI(t, "", "tokens", chat, "--tokenizer", name)
		if code != 0 || strings.SplitN(out, "\n", 2)[0] != fmt.Sprint(n) {
			t.Errorf("%s: code %d out %q err %q, want first line %d", name, code, out, errs, n)
		}
	}
	// --special adds Gemma's <bos>.
	code, out, _ = runCLI(t, "", "tokens", chat, "-t", "gemma3", "--special")
	if code != 0 || out != "148\n" {
		t.Errorf("gemma3 --special: code %d out %q", code, out)
	}
	code, out, _ = runCLI(t, "", "tokens", chat, "--tokenizer-file", filepath.Join(models, "qwen3", "tokenizer.json"))
	if code != 0 || out != "142\n" {
		t.Errorf("--tokenizer-file: code %d out %q", code, out)
	}

	code, out, errs = runCLI(t, "", "tokens", chat, "--all")
	if code != 0 {
		t.Fatalf("--all: code %d err %q", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 6 || strings.Fields(lines[0])[0] != "tokenizer" {
		t.Fatalf("--all table:\n%s", out)
	}
	order := []string{"o200k_base", "cl100k_base", "gemma3", "llama3", "qwen3"}
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 2 || f[0] != order[i] || f[1] != fmt.Sprint(want[f[0]]) {
			t.Errorf("--all row %d: %q", i, l)
		}
	}

	for _, args := range [][]string{
		{"tokens", "--tokenizer", "no-such-tokenizer"},
		{"tokens", filepath.Join(corpus, "no-such-file.txt")},
		{"tokens", "--tokenizer-file", filepath.Join(corpus, "empty.txt")},
		{"tokens", "--all", "--ids"},
	} {
		if code, _, errs := runCLI(t, "x", args...); code != exitBadInput || !strings.HasPrefix(errs, "isolda:") {
			t.Errorf("%v: code %d err %q, want exit 2 with a message", args, code, errs)
		}
	}
}

func TestTokensCommandReadsFileBytes(t *testing.T) {
	// CRLF and a missing final newline must reach the tokenizer unchanged:
	// csv-table-crlf.csv's reference count (o200k_base) is 245.
	path := filepath.Join(shared.MustPath(t, "tokenizers", "corpus"), "csv-table-crlf.csv")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "tokens", path)
	if code != 0 || out != "245\n" {
		t.Errorf("code %d out %q err %q", code, out, errs)
	}
}
