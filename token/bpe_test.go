package token

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	tiktokengo "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func getTok(t testing.TB, name string) Tokenizer {
	t.Helper()
	if name != O200KBase && name != CL100KBase {
		testRegistryDir(t) // the tokenizer.json files are in the shared folder: skip without it
	}
	tok, err := testRegistry().Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// decoder returns a function that maps ids back to bytes through the
// loaded vocabulary (test helper; an encoding is exact only if decoding it
// gives the input back).
func decoder(t testing.TB, tok Tokenizer) func(ids []int) string {
	t.Helper()
	switch e := tok.(*base).enc.(type) {
	case *tiktoken:
		inv := make(map[int32]string, e.ranks.len())
		for s, r := range e.ranks.all() {
			inv[r] = s
		}
		return func(ids []int) string {
			var b strings.Builder
			for _, id := range ids {
				s, ok := inv[int32(id)]
				if !ok {
					t.Fatalf("id %d not in ranks", id)
				}
				b.WriteString(s)
			}
			return b.String()
		}
	case *hfBPE:
		inv := make(map[int32]string, len(e.vocab))
		for s, id := range e.vocab {
			inv[id] = s
		}
		bytesOf := map[int32]byte{}
		if !e.byteLevel {
			for i, id := range e.byteIDs {
				if id >= 0 {
					bytesOf[id] = byte(i)
				}
			}
		}
		return func(ids []int) string {
			var b strings.Builder
			for _, id := range ids {
				if c, ok := bytesOf[int32(id)]; ok {
					b.WriteByte(c)
					continue
				}
				s, ok := inv[int32(id)]
				if !ok {
					t.Fatalf("id %d not in vocab", id)
				}
				if !e.byteLevel {
					s = strings.ReplaceAll(s, "▁", " ")
				}
				b.WriteString(s)
			}
			return b.String()
		}
	}
	t.Fatalf("unknown encoder %T", tok)
	return nil
}

// TestBPEEnginesAgree: the heap engine (used for long pieces) and
// tiktoken's own quadratic loop (short pieces) give the same ids on pieces
// built to need many merges.
func TestBPEEnginesAgree(t *testing.T) {
	tk := getTok(t, O200KBase).(*base).enc.(*tiktoken)
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := []string{"a", "b", "e", "n", "t", "in", "er", " ", "  ", "\n", "é", "中", "0"}
	sc := &scratch{}
	for i := range 2000 {
		var b strings.Builder
		n := 2 + rng.IntN(300)
		if i%10 == 0 {
			n = 1000 + rng.IntN(2000)
		}
		for b.Len() < n {
			b.WriteString(alpha[rng.IntN(len(alpha))])
		}
		piece := b.String()
		small := fmt.Sprint(rankBPESmall(sc, piece, tk.ranks, nil))
		heap := fmt.Sprint(rankBPEHeap(sc, piece, tk.ranks, nil))
		if small != heap {
			t.Fatalf("piece %q: small %s heap %s", piece, small, heap)
		}
	}
}

// pkoukkOnce loads pkoukk/tiktoken-go, an independent implementation (its
// own regexp2 split and its own BPE loop), as an oracle for inputs longer
// than the reference corpus has.
var pkoukkOnce sync.Once

func pkoukk(t testing.TB, name string) *tiktokengo.Tiktoken {
	t.Helper()
	pkoukkOnce.Do(func() { tiktokengo.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	enc, err := tiktokengo.GetEncoding(name)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// longInputs are pathological texts, scaled down so that the quadratic
// oracles finish quickly; TestPathological runs the full sizes.
func longInputs(scale int) map[string]string {
	rng := rand.New(rand.NewPCG(5, 6))
	var words strings.Builder
	for words.Len() < scale {
		words.WriteString([]string{"ab", "ra", "ca", "da", "bra"}[rng.IntN(5)])
	}
	return map[string]string{
		"spaces":         strings.Repeat(" ", scale),
		"spaces-then-x":  strings.Repeat(" ", scale) + "x",
		"letters":        strings.Repeat("a", 2*scale),
		"mixed-word":     words.String(),
		"newlines":       strings.Repeat("\n", scale),
		"tabs-spaces":    strings.Repeat("\t ", scale/2),
		"digits":         strings.Repeat("1234567890", scale/10),
		"punct":          strings.Repeat("=-", scale/2),
		"cjk":            strings.Repeat("中文", scale/4),
		"combining":      "a" + strings.Repeat("\u0301", scale/2),
		"upper-lower":    strings.Repeat("Aa", scale/2),
		"nbsp":           strings.Repeat("\u00a0", scale/2),
		"emoji":          strings.Repeat("😀", scale/4),
		"underscore-run": strings.Repeat("_", scale),
	}
}

// TestLongPiecesMatchPkoukk compares the OpenAI encodings with pkoukk on
// 5,000-character pathological inputs, where our heap BPE is used.
func TestLongPiecesMatchPkoukk(t *testing.T) {
	for _, name := range []string{O200KBase, CL100KBase} {
		ours := getTok(t, name)
		ref := pkoukk(t, name)
		pass := 0
		inputs := longInputs(5000)
		for _, k := range sortedKeys(inputs) {
			s := inputs[k]
			want := fmt.Sprint(ref.EncodeOrdinary(s))
			if got := fmt.Sprint(ours.Encode(s)); got != want {
				t.Errorf("%s %s: ids differ from pkoukk (len %d)", name, k, len(s))
				continue
			}
			pass++
		}
		line := fmt.Sprintf("long inputs %-11s vs pkoukk/tiktoken-go: %d/%d agree", name, pass, len(inputs))
		t.Log(line)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// naiveMergeBPE is the Hugging Face BPE model written from its definition
// (apply the lowest-ranked merge, leftmost first, until none applies) in
// the simplest quadratic way: the oracle for the heap engine on long words.
func naiveMergeBPE(ids []int32, merges map[uint64]uint64) []int {
	ids = append([]int32(nil), ids...)
	for {
		best, at := uint64(1<<63), -1
		for i := 0; i+1 < len(ids); i++ {
			if v, ok := merges[mergeKey(ids[i], ids[i+1])]; ok && v>>32 < best>>32 {
				best, at = v, i
			}
		}
		if at < 0 {
			break
		}
		ids[at] = int32(uint32(best))
		ids = append(ids[:at+1], ids[at+2:]...)
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// TestHFLongWordsMatchNaive compares the heap engine with naiveMergeBPE on
// long words for a byte-level model (Qwen3) and a SentencePiece-style one
// (Gemma 3).
func TestHFLongWordsMatchNaive(t *testing.T) {
	for _, name := range []string{"qwen3", "gemma3"} {
		h := getTok(t, name).(*base).enc.(*hfBPE)
		inputs := longInputs(3000)
		pass := 0
		sc := &scratch{}
		for _, k := range sortedKeys(inputs) {
			word := inputs[k]
			if !h.byteLevel {
				word = strings.ReplaceAll(word, " ", "▁")
			}
			got := fmt.Sprint(h.appendWord(sc, word, nil))
			var init []int32
			for i := 0; i < len(word); {
				if h.byteLevel {
					init = append(init, h.byteIDs[word[i]])
					i++
					continue
				}
				r := []rune(word[i:])[0]
				w := len(string(r))
				if id, ok := h.vocab[word[i:i+w]]; ok {
					init = append(init, id)
				} else {
					for k := i; k < i+w; k++ {
						init = append(init, h.byteIDs[word[k]])
					}
				}
				i += w
			}
			if want := fmt.Sprint(naiveMergeBPE(init, h.merges)); got != want {
				t.Errorf("%s %s: heap BPE differs from the naive loop", name, k)
				continue
			}
			pass++
		}
		line := fmt.Sprintf("long words %-6s heap vs naive BPE: %d/%d agree", name, pass, len(inputs))
		t.Log(line)
	}
}

// TestPathological runs the full-size pathological inputs (100,000
// spaces, a 200,000-letter word, ...) through every tokenizer and checks
// that the ids decode back to the input and that Count agrees with Encode.
// Their speed is measured by BenchmarkPathological; the exactness of the
// engine on such inputs by the two tests above.
func TestPathological(t *testing.T) {
	inputs := map[string]string{
		"100k-spaces":      strings.Repeat(" ", 100000),
		"200k-letter-word": strings.Repeat("a", 200000),
		"200k-mixed-word":  longInputs(100000)["mixed-word"],
		"100k-newlines":    strings.Repeat("\n", 100000),
		"50k-combining":    longInputs(100000)["combining"],
		"100k-punct":       strings.Repeat("=-", 50000),
	}
	for _, name := range refTokenizers {
		tok := getTok(t, name)
		decode := decoder(t, tok)
		for _, k := range sortedKeys(inputs) {
			s := inputs[k]
			ids := tok.Encode(s)
			if n := tok.Count(s); n != len(ids) {
				t.Errorf("%s %s: Count %d, len(Encode) %d", name, k, n, len(ids))
			}
			if len(ids) == 0 || len(ids) > len(s) {
				t.Errorf("%s %s: %d ids for %d bytes", name, k, len(ids), len(s))
			}
			want := s
			if h, ok := tok.(*base).enc.(*hfBPE); ok {
				for _, f := range h.normalizers { // Qwen3's NFC changes the text
					want = f(want)
				}
				if !h.byteLevel {
					want = strings.ReplaceAll(want, "▁", " ")
				}
			}
			if got := decode(ids); got != want {
				t.Errorf("%s %s: ids do not decode to the input", name, k)
			}
		}
	}
}

// TestGPT2SplitWithR50K checks the GPT-2 pre-tokenizer (used by ByteLevel
// with use_regex) end to end: r50k_base's embedded ranks with our splitter
// and BPE against pkoukk/tiktoken-go's r50k_base on every corpus text.
func TestGPT2SplitWithR50K(t *testing.T) {
	data, err := assets.Assets.ReadFile("r50k_base.tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	ranks, err := parseTiktokenRanks(data)
	if err != nil {
		t.Fatal(err)
	}
	ours := &base{name: "r50k_base", enc: &tiktoken{ranks: ranks, split: gpt2Splitter{}}}
	ref := pkoukk(t, "r50k_base")
	sums := corpusSums(t)
	pass := 0
	for _, file := range sortedKeys(sums) {
		text := corpusText(t, sums, file)
		if got, want := ours.Encode(text), ref.EncodeOrdinary(text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: r50k_base ids differ from pkoukk (%d vs %d tokens)", file, len(got), len(want))
			continue
		}
		pass++
	}
	line := fmt.Sprintf("r50k_base (GPT-2 split) vs pkoukk/tiktoken-go: %d/%d corpus texts agree", pass, len(sums))
	t.Log(line)
}
