package token

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// TestQuirks runs shared/tokenizers/quirks/quirks.jsonl: inputs on which the
// JS references disagree with Rust. For the OpenAI encodings the Rust
// tiktoken (WASM) result is authoritative and must match. For Qwen3 and
// Llama 3 the README names @huggingface/tokenizers (which emulates
// Oniguruma, as the Rust tokenizers library uses) as the likely Rust answer
// for U+FEFF and U+0085; Gemma 3 has no regex and all libraries agree.
//
// quirkExceptions lists where we knowingly give another answer than the
// expected library, with the reason. ('ſ: we fold it to 's like Rust; for
// Qwen3 and Llama 3 the pieces happen to give the same ids as the JS
// libraries' ASCII-only folding on this input.)
var quirkExceptions = map[string]string{
	"qwen3/unicode17-letter":  "Go 1.26 has Unicode 15.0 tables, so letters assigned in 17.0 are not \\p{L}; both JS libraries run on Node's Unicode 17.0 (README quirk 4)",
	"llama3/unicode17-letter": "Go 1.26 has Unicode 15.0 tables, so letters assigned in 17.0 are not \\p{L}; both JS libraries run on Node's Unicode 17.0 (README quirk 4)",
}

func TestQuirks(t *testing.T) {
	f, err := os.Open(shared.MustPath(t, "tokenizers", "quirks", "quirks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	authority := map[string]string{
		O200KBase:  "tiktoken@1.0.22 (Rust/WASM)",
		CL100KBase: "tiktoken@1.0.22 (Rust/WASM)",
		"qwen3":    "@huggingface/tokenizers@0.2.0",
		"llama3":   "@huggingface/tokenizers@0.2.0",
		"gemma3":   "@huggingface/tokenizers@0.2.0",
	}
	pass, fail, excused := 0, 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct {
			Name    string                                `json:"name"`
			Text    string                                `json:"text"`
			Results map[string]map[string]json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		for _, name := range refTokenizers {
			var want []int
			if err := json.Unmarshal(q.Results[name][authority[name]], &want); err != nil {
				t.Fatalf("%s %s: %v", q.Name, name, err)
			}
			got := getTok(t, name).Encode(q.Text)
			key := name + "/" + q.Name
			switch why, known := quirkExceptions[key]; {
			case fmt.Sprint(got) == fmt.Sprint(want):
				pass++
				if known {
					t.Errorf("%s: listed as an exception but now matches %s", key, authority[name])
				}
			case known:
				excused++
				msg := fmt.Sprintf("quirk exception %-28s %s", key, why)
				t.Log(msg)
			default:
				fail++
				t.Errorf("%s: got %v, %s gives %v", key, got, authority[name], want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("quirks: pass %d fail %d known-exceptions %d", pass, fail, excused)
	t.Log(line)
}
