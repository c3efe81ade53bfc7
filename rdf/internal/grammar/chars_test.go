package grammar

import (
	"strings"
	"testing"
)

// TestCharClass checks charClass against the character sets of the
// N-Triples grammar, written out independently here.
func TestCharClass(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digit := c >= '0' && c <= '9'
		want := map[byte]bool{
			// IRIREF: [^#x00-#x20<>"{}|^`\] (non-ASCII bytes are checked as UTF-8 first).
			IRI: c >= 0x80 || c > 0x20 && !strings.ContainsRune("<>\"{}|^`\\", rune(c)),
			// STRING_LITERAL_QUOTE: [^#x22#x5C#xA#xD].
			Lit:     c != '"' && c != '\\' && c != '\n' && c != '\r',
			PN:      alpha || digit || c == '_' || c == '-',
			PNStart: alpha || digit || c == '_',
			Alpha:   alpha,
			Alnum:   alpha || digit,
			Hex:     digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F',
			WS:      c == ' ' || c == '\t',
		}
		for class, w := range want {
			if Is(c, class) != w {
				t.Errorf("byte 0x%02X class %d: got %v, want %v", c, class, !w, w)
			}
		}
	}
}

// TestPNChars checks the non-ASCII ranges of PN_CHARS_BASE and PN_CHARS
// at their boundaries.
func TestPNChars(t *testing.T) {
	base := []struct {
		r    rune
		want bool
	}{
		{'A', true}, {'z', true}, {'0', false}, {'_', false}, {':', false}, {'-', false},
		{0xBF, false}, {0xC0, true}, {0xD6, true}, {0xD7, false}, {0xD8, true}, {0xF6, true}, {0xF7, false},
		{0xF8, true}, {0x2FF, true}, {0x300, false}, {0x36F, false}, {0x370, true}, {0x37D, true}, {0x37E, false},
		{0x37F, true}, {0x1FFF, true}, {0x2000, false}, {0x200B, false}, {0x200C, true}, {0x200D, true},
		{0x200E, false}, {0x206F, false}, {0x2070, true}, {0x218F, true}, {0x2190, false}, {0x2BFF, false},
		{0x2C00, true}, {0x2FEF, true}, {0x2FF0, false}, {0x3000, false}, {0x3001, true}, {0xD7FF, true},
		{0xD800, false}, {0xF8FF, false}, {0xF900, true}, {0xFDCF, true}, {0xFDD0, false}, {0xFDEF, false},
		{0xFDF0, true}, {0xFFFD, true}, {0xFFFE, false}, {0xFFFF, false}, {0x10000, true}, {0xEFFFF, true},
		{0xF0000, false},
	}
	for _, tc := range base {
		if got := IsPNCharsBase(tc.r); got != tc.want {
			t.Errorf("IsPNCharsBase(U+%04X) = %v, want %v", tc.r, got, tc.want)
		}
	}
	chars := []struct {
		r    rune
		want bool
	}{
		{'_', true}, {'-', true}, {'5', true}, {'.', false}, {':', false}, {0xB7, true}, {0xB6, false},
		{0x300, true}, {0x36F, true}, {0x203E, false}, {0x203F, true}, {0x2040, true}, {0x2041, false},
	}
	for _, tc := range chars {
		if got := IsPNChars(tc.r); got != tc.want {
			t.Errorf("IsPNChars(U+%04X) = %v, want %v", tc.r, got, tc.want)
		}
	}
	if !IsPNCharsU('_') || IsPNCharsU('-') {
		t.Error("IsPNCharsU: want '_' in and '-' out")
	}
	for c, v := range map[byte]rune{'0': 0, '9': 9, 'a': 10, 'f': 15, 'A': 10, 'F': 15} {
		if HexVal(c) != v {
			t.Errorf("HexVal(%q) = %d, want %d", c, HexVal(c), v)
		}
	}
}

// TestSpan checks Span against a byte-at-a-time loop, for every class and
// for runs that stop at each offset of the unrolled steps.
func TestSpan(t *testing.T) {
	classes := []byte{IRI, Lit, PN, PNStart, Alpha, Alnum, Hex, WS, IRI | WS}
	for _, class := range classes {
		for n := 0; n < 40; n++ {
			for _, stop := range []byte{' ', '"', '>', '\n', 'a', 0x80, '-'} {
				b := append([]byte(strings.Repeat("a", n)), stop, 'b', 'c')
				want := 0
				for want < len(b) && Is(b[want], class) {
					want++
				}
				if got := Span(b, class); got != want {
					t.Errorf("Span(%q, %d) = %d, want %d", b, class, got, want)
				}
				if got := Span(string(b), class); got != want {
					t.Errorf("Span(string %q, %d) = %d, want %d", b, class, got, want)
				}
			}
		}
	}
}
