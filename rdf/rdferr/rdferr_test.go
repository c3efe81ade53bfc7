package rdferr

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
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

// TestReadAll reads texts shorter than, as long as and longer than the
// limit, and without one.
func TestReadAll(t *testing.T) {
	cases := []struct {
		text string
		max  int64
		data string
		over bool
	}{
		{"abc", 5, "abc", false},
		{"abcde", 5, "abcde", false},
		{"abcdefgh", 5, "abcdef", true},
		{"abcdefgh", -1, "abcdefgh", false},
		{"", 1, "", false},
	}
	for _, c := range cases {
		data, over, err := Limits{MaxBytes: c.max}.ReadAll(strings.NewReader(c.text))
		if err != nil || string(data) != c.data || over != c.over {
			t.Errorf("%q within %d: %q, over %v, %v; want %q, over %v", c.text, c.max, data, over, err, c.data, c.over)
		}
	}
	if _, _, err := (Limits{}).ReadAll(iotest.ErrReader(io.ErrUnexpectedEOF)); err != io.ErrUnexpectedEOF {
		t.Errorf("a read error: %v", err)
	}
}
