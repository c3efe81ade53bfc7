package token

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// The hand-written splitters are checked against an independent regex
// engine, regexp2 (a port of .NET's backtracking engine, the engine that
// pkoukk/tiktoken-go uses), running the models' actual patterns.
// regexp2's \s is unicode.IsSpace, as Rust's and Oniguruma's \s is Unicode
// White_Space. The one known difference is case folding: (?i) in regexp2
// does not fold U+017F (ſ) to s, while Rust does and the splitters follow
// Rust (see TestQuirks), so ſ is left out of the random alphabet.

// regexPieces splits s as a Hugging Face "Isolated" Split with the regex
// would: every match is a piece and so is every gap between matches.
func regexPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	t.Helper()
	var out []string
	runes := []rune(s)
	prev := 0
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		if m.Index > prev {
			out = append(out, string(runes[prev:m.Index]))
		}
		out = append(out, m.String())
		prev = m.Index + m.Length
	}
	if err != nil {
		t.Fatal(err)
	}
	if prev < len(runes) {
		out = append(out, string(runes[prev:]))
	}
	return out
}

func splitPieces(sp splitter, s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := sp.next(s, i)
		if j <= i || j > len(s) {
			panic(fmt.Sprintf("splitter returned %d at %d of %d", j, i, len(s)))
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// alphabet has characters of every class the patterns distinguish.
var splitAlphabet = []string{
	"a", "b", "z", "s", "t", "e", "l", "d", "m", "r", "v", "A", "S", "T", "L", "D", "R", "E", "M", "V", "Z",
	"0", "1", "9", "'", "'", "'", " ", " ", " ", " ", "\t", "\n", "\n", "\r", "\v", "\f",
	".", ",", "/", "/", "-", "_", "(", ")", "<", ">", "@", "#", "\"", "\\", "|", "*",
	"\u00a0", "\u3000", "\u2028", "\u0085", "\u200b", "\u00ad", "\ufeff",
	"\u0301", "\u0308", "\u093f", // Mn, Mn, Mc
	"\u02b0", "\u3005", // Lm
	"\u05d0", "中", "ا", "\u3042", // Lo
	"\u01c5", "\u1f88", // Lt
	"É", "Ω", "Ж", "é", "ω", "ж", "ß", // Lu, Ll
	"\u216b", "\u00b2", "\u0663", "\uff11", // Nl, No, Nd
	"😀", "\U0001F3FD", "\u200d", "€", "©", "\ue000", "\ufffd",
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(splitAlphabet[rng.IntN(len(splitAlphabet))])
	}
	return b.String()
}

func TestSplitMatchesRegexp2(t *testing.T) {
	cases := []struct {
		name    string
		pattern string
		sp      splitter
	}{
		{"o200k", PatternO200K, o200kSplitter{}},
		{"cl100k", PatternCL100K, cl100kSplitter{3}},
		{"qwen", PatternQwen, cl100kSplitter{1}},
		{"gpt2", PatternGPT2, gpt2Splitter{}},
	}
	sums := corpusSums(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs []string
	for range 3000 {
		inputs = append(inputs, randomText(rng, 1+rng.IntN(40)))
	}
	for _, f := range []string{"contractions.txt", "combining-marks.txt", "unicode-spaces.txt", "ws-crlf.txt", "mixed-scripts.txt", "iris.txt", "digits-unicode.txt", "prose-greek.txt", "emoji-zwj.txt", "code-go.go"} {
		inputs = append(inputs, corpusText(t, sums, f))
	}
	for _, c := range cases {
		re := regexp2.MustCompile(c.pattern, regexp2.None)
		fails := 0
		for _, s := range inputs {
			want := regexPieces(t, re, s)
			got := splitPieces(c.sp, s)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
				fails++
				if fails <= 5 {
					t.Errorf("%s: %q\n got  %q\n want %q", c.name, s, got, want)
				}
			}
		}
		line := fmt.Sprintf("split %-6s vs regexp2: %d/%d inputs agree", c.name, len(inputs)-fails, len(inputs))
		t.Log(line)
	}
}

func TestSplitInvalidUTF8(t *testing.T) {
	// Invalid bytes must neither panic nor be lost: pieces cover the input.
	for _, s := range []string{"\xff", "a\xffb", "\xc3", " \xe2\x82", "'\xc5", "x'\xc5", "\xed\xa0\x80z"} {
		for _, sp := range []splitter{o200kSplitter{}, cl100kSplitter{3}, cl100kSplitter{1}, gpt2Splitter{}} {
			if got := strings.Join(splitPieces(sp, s), ""); got != s {
				t.Errorf("%T %q: pieces join to %q", sp, s, got)
			}
		}
	}
}

func TestContractionLongS(t *testing.T) {
	// Rust's (?i) folds U+017F to s.
	if got := contraction("'ſx", 0); got != 3 {
		t.Errorf("contraction('ſ) = %d, want 3", got)
	}
	if got := contraction("'\xc5", 0); got != 0 {
		t.Errorf("contraction of a cut ſ = %d, want 0", got)
	}
	if !utf8.ValidString("ſ") || len("ſ") != 2 {
		t.Fatal("test assumes ſ is 2 bytes")
	}
}
