package token

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// linearCase is an engine pair for one tokenizer: the linear engine (as
// the tokenizer calls it for a long word) and the exact engine.
type linearCase struct {
	linear func(sc *scratch, w string) []int
	exact  func(sc *scratch, w string) []int
	prep   func(string) string // what the tokenizer does to text before BPE
}

func linearCases(t *testing.T, name string) linearCase {
	t.Helper()
	switch e := getTok(t, name).(*base).enc.(type) {
	case *tiktoken:
		lb := e.linear()
		if lb == nil {
			t.Fatalf("%s: no linear engine", name)
		}
		return linearCase{
			linear: func(sc *scratch, w string) []int { return lb.encode(sc, w, nil) },
			exact:  func(sc *scratch, w string) []int { return e.mergePiece(sc, w, nil) },
			prep:   func(s string) string { return s },
		}
	case *hfBPE:
		lb := e.linear()
		if lb == nil {
			t.Fatalf("%s: no linear engine", name)
		}
		lin := func(sc *scratch, w string) []int { return lb.encode(sc, w, nil) }
		if !e.byteLevel {
			lin = func(sc *scratch, w string) []int { return e.appendLongWord(sc, lb, w, nil) }
		}
		return linearCase{
			linear: lin,
			exact:  func(sc *scratch, w string) []int { return e.mergeWord(sc, w, nil) },
			prep: func(s string) string {
				for _, f := range e.normalizers {
					s = f(s)
				}
				return s
			},
		}
	}
	t.Fatalf("%s: unknown encoder", name)
	return linearCase{}
}

// adversarialWords are words built to need long merge chains and
// backtracking: runs of one character, alternations, digit and whitespace
// runs, and words whose tokenization depends on their last character.
func adversarialWords(rng *rand.Rand, n int) []string {
	runs := []string{"a", "A", " ", "\n", "\t", "0", "9", "=", "-", "_", "é", "中", "▁", "😀", ".", "x"}
	var out []string
	for _, r := range runs {
		out = append(out, strings.Repeat(r, n/len(r)))
		out = append(out, strings.Repeat(r, n/len(r)-1)+"b")
	}
	pairs := []string{"ab", "Aa", "=-", " a", "01", "12", "\t ", " \n", "ba", "abc", "中文", "ab a", "aab"}
	for _, p := range pairs {
		out = append(out, strings.Repeat(p, n/len(p)))
		out = append(out, strings.Repeat(p, n/len(p))+"c")
	}
	digits := make([]byte, n)
	for i := range digits {
		digits[i] = byte('0' + rng.IntN(10))
	}
	out = append(out, string(digits))
	return out
}

// randomWord draws a word from an alphabet of fragments that merge in many
// ways.
func randomWord(rng *rand.Rand, n int) string {
	alpha := []string{"a", "b", "e", "n", "t", "in", "er", "the", " ", "  ", "\n", "é", "中", "0", "1", "▁", "ing", "=", "-", "A", "x"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(alpha[rng.IntN(len(alpha))])
	}
	return b.String()
}

// TestLinearAgrees is the differential test of the linear engine against
// the exact heap/quadratic engines, on adversarial and random words, for
// every tokenizer (byte-level and SentencePiece-style).
func TestLinearAgrees(t *testing.T) {
	size, random := 3000, 300
	if testing.Short() {
		size, random = 1000, 60
	}
	for _, name := range refTokenizers {
		t.Run(name, func(t *testing.T) {
			lc := linearCases(t, name)
			rng := rand.New(rand.NewPCG(7, 8))
			sc := &scratch{}
			words := adversarialWords(rng, size)
			for i := range random {
				words = append(words, randomWord(rng, 1+rng.IntN(size/(1+i%5))))
			}
			for _, w := range words {
				w = lc.prep(w)
				got, want := lc.linear(sc, w), lc.exact(sc, w)
				if !slices.Equal(got, want) {
					t.Fatalf("word %.60q (%d bytes): linear %d ids, exact %d ids\nlinear %v\nexact  %v", w, len(w), len(got), len(want), head(got), head(want))
				}
			}
		})
	}
}

func head(ids []int) string {
	if len(ids) > 20 {
		return fmt.Sprint(ids[:20], "...")
	}
	return fmt.Sprint(ids)
}

// TestLinearWork checks that the linear engine's work (tokens tried) grows
// linearly with the word on adversarial words: at most a few tries per
// byte, whatever the length. The heap engine this replaces for long words
// needed about 100 bytes of memory per byte; the linear engine's memory is
// its stack of ids and a bit per byte, checked by BENCHMARKS.md's
// `isolda tokens` runs.
func TestLinearWork(t *testing.T) {
	for _, name := range refTokenizers {
		lc := linearCases(t, name)
		for _, unit := range []string{"a", "ab", " ", "aab"} {
			perByte := make([]float64, 0, 2)
			for _, n := range []int{2 * longWord, 8 * longWord} {
				sc := &scratch{}
				w := lc.prep(strings.Repeat(unit, n/len(unit)))
				lc.linear(sc, w)
				perByte = append(perByte, float64(sc.lin.steps)/float64(len(w)))
			}
			if perByte[1] > 4 || perByte[1] > 1.1*perByte[0]+0.01 {
				t.Errorf("%s %q: %.3f tries per byte at 32 KiB, %.3f at 128 KiB", name, unit, perByte[0], perByte[1])
			}
		}
	}
}

// TestReferenceCorpusLinear runs the reference corpus with every word of
// two bytes or more sent to the linear engine (fresh tokenizers whose
// threshold is lowered), against the reference ids of tiktoken and the
// Hugging Face tokenizers.
func TestReferenceCorpusLinear(t *testing.T) {
	sums := corpusSums(t)
	for _, name := range refTokenizers {
		t.Run(name, func(t *testing.T) {
			var tok Tokenizer
			var err error
			if name == O200KBase || name == CL100KBase {
				tok, err = loadTiktoken(name, false)
			} else {
				tok, err = OpenFile(filepath.Join(testRegistryDir(t), name, "tokenizer.json"), name, false)
			}
			if err != nil {
				t.Fatal(err)
			}
			switch e := tok.(*base).enc.(type) {
			case *tiktoken:
				e.longWord = 2
			case *hfBPE:
				e.longWord = 2
			}
			refs := readRefs(t, name)
			fail := 0
			for i, r := range refs {
				if testing.Short() && i%10 != 0 {
					continue
				}
				text := corpusText(t, sums, r.File)
				ids := tok.Encode(text)
				if len(ids) != r.Count || idsHash(ids) != r.IDsSHA256 || tok.Count(text) != r.Count {
					fail++
					t.Errorf("%s: %d ids (hash match %v), Count %d, want %d", r.File, len(ids), idsHash(ids) == r.IDsSHA256, tok.Count(text), r.Count)
				}
			}
			t.Logf("%s: %d of %d texts differ", name, fail, len(refs))
		})
	}
}
