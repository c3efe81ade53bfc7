package token

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// FuzzSplit checks the hand-written splitters against regexp2 on the
// real patterns (valid UTF-8 without ſ, see split_test.go), and that pieces
// always tile the input.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "a", "Hello world", "it's", "I'LL", "  \n\n  x", "x\u00a0\u3000y", "a\u0301B\u02b0c", "1234567", "//\r\n", "😀👍🏽", "é\u0085\ufeff z"} {
		f.Add(s)
	}
	res := []struct {
		re *regexp2.Regexp
		sp splitter
	}{
		{regexp2.MustCompile(PatternO200K, regexp2.None), o200kSplitter{}},
		{regexp2.MustCompile(PatternCL100K, regexp2.None), cl100kSplitter{3}},
		{regexp2.MustCompile(PatternQwen, regexp2.None), cl100kSplitter{1}},
		{regexp2.MustCompile(PatternGPT2, regexp2.None), gpt2Splitter{}},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range res {
			got := splitPieces(c.sp, s)
			if strings.Join(got, "") != s {
				t.Fatalf("%T: pieces do not tile %q", c.sp, s)
			}
			if !utf8.ValidString(s) || strings.ContainsRune(s, 'ſ') {
				continue
			}
			if want := regexPieces(t, c.re, s); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
				t.Fatalf("%T %q:\n got  %q\n want %q", c.sp, s, got, want)
			}
		}
	})
}

// FuzzEncode checks, for o200k_base and Gemma 3, that Count equals
// len(Encode), that the ids decode back to the input, and that the two BPE
// engines agree on every piece.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{"", "hello world", "   ", "\n\n\n", "<b>x</b>", "a\xffb", "中文 text 123"} {
		f.Add(s)
	}
	o200k := getTok(f, O200KBase)
	gemma := getTok(f, "gemma3")
	decO, decG := decoder(f, o200k), decoder(f, gemma)
	tk := o200k.(*base).enc.(*tiktoken)
	f.Fuzz(func(t *testing.T, s string) {
		ids := o200k.Encode(s)
		if o200k.Count(s) != len(ids) || decO(ids) != s {
			t.Fatalf("o200k: %q does not round-trip", s)
		}
		if utf8.ValidString(s) {
			g := gemma.Encode(s)
			if gemma.Count(s) != len(g) || decG(g) != strings.ReplaceAll(s, "▁", " ") {
				t.Fatalf("gemma3: %q does not round-trip", s)
			}
		}
		sc := &scratch{}
		for i := 0; i < len(s); {
			j := tk.split.next(s, i)
			if piece := s[i:j]; len(piece) >= 2 {
				a := fmt.Sprint(rankBPESmall(sc, piece, tk.ranks, nil))
				b := fmt.Sprint(rankBPEHeap(sc, piece, tk.ranks, nil))
				if a != b {
					t.Fatalf("piece %q: small %s heap %s", piece, a, b)
				}
			}
			i = j
		}
	})
}

// FuzzReadHF feeds arbitrary bytes to the tokenizer.json reader: it must
// return an error or a tokenizer that encodes without panicking.
func FuzzReadHF(f *testing.F) {
	f.Add([]byte(tinyTokenizer))
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`))
	f.Add([]byte(`{"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}, "model": {"type": "BPE", "vocab": {}, "merges": []}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := ReadHF(strings.NewReader(string(data)), "fuzz", true)
		if err != nil {
			return
		}
		for _, s := range []string{"", "ab ab", "x<sep>y", "\xff", "é"} {
			if n := tok.Count(s); n != len(tok.Encode(s)) {
				t.Fatalf("Count %d != len(Encode)", n)
			}
		}
	})
}
