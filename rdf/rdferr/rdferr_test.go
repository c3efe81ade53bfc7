package rdferr

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8 checks InvalidUTF8 against the length of the longest
// valid prefix of an ill-formed text (no longer prefix is valid once a
// byte is not), on hand-picked and random texts.
func TestInvalidUTF8(t *testing.T) {
	oracle := func(s string) int {
		if utf8.ValidString(s) {
			return -1
		}
		k := len(s)
		for !utf8.ValidString(s[:k]) {
			k--
		}
		return k
	}
	cases := []string{"", "abc", "é€😀", "\xff", "a\xffb", "é\xe2\x82", "€\xed\xa0\x80", "ab\xc0\xaf", "\xf4\x90\x80\x80"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "\n", "é", "€", "😀", "\xff", "\xe2", "\x82", "\xed\xa0\x80"}
	for range 2000 {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))]...)
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := InvalidUTF8(s), oracle(s); got != want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestPosition(t *testing.T) {
	text := "ab\néx\n\nz"
	cases := []struct{ off, line, col int }{
		{-3, 1, 1}, {0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 2}, {6, 2, 3}, {7, 3, 1}, {8, 4, 1}, {9, 4, 2}, {99, 4, 2},
	}
	for _, c := range cases {
		if line, col := Position(text, c.off); line != c.line || col != c.col {
			t.Errorf("Position(%q, %d) = %d:%d, want %d:%d", text, c.off, line, col, c.line, c.col)
		}
	}
}
