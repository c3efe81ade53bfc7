package token

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

func TestRegistryAvailable(t *testing.T) {
	if got := fmt.Sprint(NewRegistry(Options{ModelsDir: t.TempDir()}).Available()); got != "[o200k_base cl100k_base]" {
		t.Errorf("empty models dir: %s", got)
	}
	models := shared.MustPath(t, "tokenizers", "models")
	got := fmt.Sprint(testRegistry().Available())
	if want := "[o200k_base cl100k_base gemma3 llama3 qwen3]"; got != want {
		t.Errorf("Available() = %s, want %s", got, want)
	}
	t.Setenv("ISOLDA_TOKENIZERS", models)
	if got := len(NewRegistry(Options{}).Available()); got != 5 {
		t.Errorf("$ISOLDA_TOKENIZERS: %d names", got)
	}
}

// chatIDsHash is the reference ids_sha256 of chat-transcript.txt for Qwen3
// (shared/tokenizers/reference/qwen3.jsonl).
func qwenChatRef(t *testing.T) (string, refLine) {
	t.Helper()
	for _, r := range readRefs(t, "qwen3") {
		if r.File == "chat-transcript.txt" {
			return corpusText(t, corpusSums(t), r.File), r
		}
	}
	t.Fatal("chat-transcript.txt not in the reference")
	return "", refLine{}
}

func TestRegistryPathsAndHFCache(t *testing.T) {
	text, ref := qwenChatRef(t)
	src := filepath.Join(shared.MustPath(t, "tokenizers", "models"), "qwen3", "tokenizer.json")

	home := t.TempDir()
	repo := filepath.Join(home, "hub", "models--Qwen--Qwen3-8B")
	snap := filepath.Join(repo, "snapshots", "0123abc")
	if err := os.MkdirAll(snap, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, filepath.Join(snap, "tokenizer.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "refs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "refs", "main"), []byte("0123abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(Options{HFHome: home})
	for _, name := range []string{"Qwen/Qwen3-8B", src, filepath.Dir(src)} {
		tok, err := reg.Get(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ids := tok.Encode(text); idsHash(ids) != ref.IDsSHA256 {
			t.Errorf("%s: ids differ from the Qwen3 reference", name)
		}
	}
	if tok, _ := reg.Get(src); tok.Name() != "qwen3" {
		t.Errorf("name of a path: %q", tok.Name())
	}
	t.Setenv("HF_HOME", home)
	if _, err := NewRegistry(Options{}).Get("Qwen/Qwen3-8B"); err != nil {
		t.Errorf("$HF_HOME: %v", err)
	}
	for _, bad := range []string{"", "nope", "Qwen/Missing", "../etc", "o200k", filepath.Join(home, "missing.json")} {
		if _, err := reg.Get(bad); err == nil {
			t.Errorf("Get(%q) succeeded", bad)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	text, ref := qwenChatRef(t)
	reg := NewRegistry(Options{ModelsDir: shared.MustPath(t, "tokenizers", "models")})
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok, err := reg.Get("qwen3")
			if err != nil {
				errs <- err.Error()
				return
			}
			for range 20 {
				if n := tok.Count(text[i:]); i == 0 && n != ref.Count {
					errs <- fmt.Sprintf("count %d", n)
				}
				if i == 0 && idsHash(tok.Encode(text)) != ref.IDsSHA256 {
					errs <- "ids differ"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestSpecialTokens(t *testing.T) {
	models := shared.MustPath(t, "tokenizers", "models")
	special := NewRegistry(Options{ModelsDir: models, Special: true})
	// README: Gemma 3 adds <bos> (id 2) when special tokens are requested;
	// Qwen3 and Llama 3 add nothing.
	for name, want := range map[string][]int{"gemma3": {2}, "qwen3": nil, "llama3": nil} {
		tok, err := special.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		plain := getTok(t, name)
		got, base := tok.Encode("Hello"), plain.Encode("Hello")
		if fmt.Sprint(got) != fmt.Sprint(append(append([]int(nil), want...), base...)) {
			t.Errorf("%s Special: %v, plain %v", name, got, base)
		}
		if tok.Count("") != len(want) {
			t.Errorf("%s Special: Count(\"\") = %d", name, tok.Count(""))
		}
	}
	// README: encode_ordinary turns <|endoftext|> into 7 o200k_base tokens;
	// with Special it is the special token 199999 (tiktoken's encoding table).
	if n := getTok(t, O200KBase).Count("<|endoftext|>"); n != 7 {
		t.Errorf("o200k ordinary <|endoftext|>: %d tokens, want 7", n)
	}
	tok, err := special.Get(O200KBase)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(tok.Encode("<|endoftext|>")); got != "[199999]" {
		t.Errorf("o200k Special <|endoftext|>: %s", got)
	}
	tok, _ = special.Get(CL100KBase)
	if got := tok.Encode("a<|endoftext|>"); len(got) != 2 || got[1] != 100257 {
		t.Errorf("cl100k Special: %v", got)
	}
}

// A hand-made SentencePiece-style tokenizer.json whose expected ids are
// worked out by hand in the comments.
const tinyTokenizer = `{
  "added_tokens": [{"id": 8, "content": "<sep>", "special": true}],
  "normalizer": {"type": "Sequence", "normalizers": [
    {"type": "Prepend", "prepend": "▁"},
    {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
  "pre_tokenizer": null,
  "post_processor": {"type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}],
    "special_tokens": {"<s>": {"id": "<s>", "ids": [6], "tokens": ["<s>"]}, "</s>": {"id": "</s>", "ids": [7], "tokens": ["</s>"]}}},
  "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true, "byte_fallback": false,
    "vocab": {"▁": 0, "a": 1, "b": 2, "ab": 3, "▁ab": 4, "<unk>": 5, "<s>": 6, "</s>": 7, "<sep>": 8, "\u00e9": 9},
    "merges": [["a", "b"], ["▁", "ab"]]}
}`

func TestTinyTokenizerJSON(t *testing.T) {
	tok, err := ReadHF(strings.NewReader(tinyTokenizer), "tiny", false)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"ab ab":      "[4 4]",       // ▁ab▁ab: (a,b) twice, then (▁,ab) twice
		"ba":         "[0 2 1]",     // ▁ b a: no merge applies
		"abxy":       "[4 5]",       // ▁ab then x, y unknown: fused into one <unk>
		"x<sep>ab":   "[0 5 8 4]",   // added token split first; each side prepended ▁
		"é":          "[0 9]",       // escaped vocab key
		"":           "[]",          // nothing
		"a b<sep>":   "[0 1 0 2 8]", // ▁a▁b then <sep>
		"<sep><sep>": "[8 8]",
	}
	for in, want := range cases {
		if got := fmt.Sprint(tok.Encode(in)); got != want {
			t.Errorf("Encode(%q) = %s, want %s", in, got, want)
		}
	}
	sp, err := ReadHF(strings.NewReader(tinyTokenizer), "tiny", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sp.Encode("ab")); got != "[6 4 7]" {
		t.Errorf("Special: %s, want [6 4 7]", got)
	}
}

func TestBadTokenizerJSON(t *testing.T) {
	bad := map[string]string{
		"empty":            ``,
		"not json":         `{"model": `,
		"truncated":        tinyTokenizer[:len(tinyTokenizer)/2],
		"deep":             `{"x": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `, "model": {}}`,
		"unigram":          `{"model": {"type": "Unigram", "vocab": [["a", 0.0]]}}`,
		"no vocab":         `{"model": {"type": "BPE", "vocab": {}, "merges": []}}`,
		"vocab type":       `{"model": {"type": "BPE", "vocab": {"a": "x"}, "merges": []}}`,
		"negative id":      `{"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}}`,
		"bad merge":        `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a"]}}`,
		"regex":            `{"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "\\w+"}, "behavior": "Isolated"}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"bytelvl no bytes": `{"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"split+regex":      `{"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious"}, {"type": "ByteLevel", "use_regex": true}]}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"split+prefix":     `{"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious"}, {"type": "ByteLevel", "use_regex": false, "add_prefix_space": true}]}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"bytes missing":    `{"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"normalizer":       `{"normalizer": {"type": "Lowercase"}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"trailing":         `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}} x`,
		"ctrl in str":      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\x01\": 0}, \"merges\": []}}",
	}
	for name, js := range bad {
		if _, err := ReadHF(strings.NewReader(js), name, false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// byteLevelJSON is a tiny GPT-2-style byte-level tokenizer.json: ids 0-255
// are the bytes (through GPT-2's byte-to-unicode table, written out here
// from its definition), 256 "Ġa", 257 "ab"; merges a+b, then Ġ+a.
func byteLevelJSON(t *testing.T, prefixSpace bool) string {
	t.Helper()
	vocab := map[string]int{"Ġa": 256, "ab": 257}
	n := 0
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !((b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae) {
			r = rune(256 + n)
			n++
		}
		vocab[string(r)] = b
	}
	js, err := json.Marshal(map[string]any{
		"pre_tokenizer": map[string]any{"type": "ByteLevel", "add_prefix_space": prefixSpace, "use_regex": true},
		"model":         map[string]any{"type": "BPE", "vocab": vocab, "merges": []string{"a b", "Ġ a"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

func TestByteLevelGPT2JSON(t *testing.T) {
	cases := []struct {
		prefix bool
		in     string
		want   string
	}{
		{false, "a", "[97]"},
		{false, "ab ab", "[257 32 257]"}, // "ab", " ab": a+b (rank 0) wins over Ġ+a
		{false, " a", "[256]"},
		{false, "a\u00e9", "[97 195 169]"}, // é is two bytes, no merge
		{true, "a", "[256]"},               // " a"
		{true, "ab ab", "[32 257 32 257]"}, // " ab", " ab"
		{true, " b a", "[32 98 256]"},      // already starts with a space
	}
	for _, c := range cases {
		tok, err := ReadHF(strings.NewReader(byteLevelJSON(t, c.prefix)), "gpt2ish", false)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(tok.Encode(c.in)); got != c.want {
			t.Errorf("add_prefix_space=%v %q: %s, want %s", c.prefix, c.in, got, c.want)
		}
		if cut := tok.(*base).enc.(streamer).cutSafe(); cut == c.prefix {
			t.Errorf("add_prefix_space=%v: cutSafe %v", c.prefix, cut)
		}
	}
}
