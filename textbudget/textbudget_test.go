package textbudget

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// bytesCount counts bytes: a count that is exactly additive, so the
// expected cuts can be worked out by hand.
func bytesCount(s string) int { return len(s) }

func TestLargestFitMonotone(t *testing.T) {
	for n := 0; n <= 70; n++ {
		for limit := 0; limit <= n+1; limit++ {
			calls := 0
			got := LargestFit(n, func(k int) bool {
				calls++
				if k < 1 || k > n {
					t.Fatalf("n=%d: probed %d, outside [1, n]", n, k)
				}
				return k <= limit
			})
			if want := min(limit, n); got != want {
				t.Errorf("n=%d limit=%d: got %d, want %d", n, limit, got, want)
			}
			// Galloping to the answer r and bisecting the last doubling:
			// about 2*log2(r+1)+2 probes.
			if calls > 2*bitsLen(min(limit, n)+1)+2 {
				t.Errorf("n=%d limit=%d: %d probes", n, limit, calls)
			}
		}
	}
	// A huge n with a small answer costs little.
	calls := 0
	if got := LargestFit(1<<40, func(k int) bool { calls++; return k <= 5 }); got != 5 || calls > 8 {
		t.Errorf("huge n: got %d after %d probes", got, calls)
	}
}

func bitsLen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// randomFits returns a size n under 60 and a random, not monotone table of
// whether each size up to n+1 fits (two in three do).
func randomFits(r *rand.Rand) (int, []bool) {
	n := r.IntN(60)
	table := make([]bool, n+2)
	for i := range table {
		table[i] = r.IntN(3) > 0
	}
	return n, table
}

// TestLargestFitNotMonotone checks the documented guarantee when fits is
// not monotone: the result was seen to fit (or is 0) and is at an edge.
func TestLargestFitNotMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		n, table := randomFits(r)
		got := LargestFit(n, func(k int) bool { return table[k] })
		if got < 0 || got > n {
			t.Fatalf("%v: %d outside [0, %d]", table, got, n)
		}
		if got > 0 && !table[got] {
			t.Errorf("%v: %d does not fit", table, got)
		}
		if got < n && table[got+1] {
			t.Errorf("%v: %d is not at an edge (%d fits)", table, got, got+1)
		}
	}
}

func TestRawMultibyte(t *testing.T) {
	text := "aé€😀b" // 1 + 2 + 3 + 4 + 1 bytes
	for _, c := range []struct {
		budget int
		want   string
	}{
		{-5, ""}, {0, ""}, {1, "a"}, {2, "a"}, {3, "aé"}, {5, "aé"}, {6, "aé€"}, {9, "aé€"},
		{10, "aé€😀"}, {11, text}, {100, text},
	} {
		got := Raw(text, bytesCount, c.budget)
		if got.Text != c.want || got.Tokens != len(c.want) {
			t.Errorf("budget %d: %q (%d tokens), want %q", c.budget, got.Text, got.Tokens, c.want)
		}
	}
	// Counting characters instead of bytes.
	if got := Raw("héllo wörld", utf8.RuneCountInString, 7); got.Text != "héllo w" || got.Tokens != 7 {
		t.Errorf("rune count: %+v", got)
	}
}

func TestRawEmptyAndLines(t *testing.T) {
	if c := Raw("", bytesCount, 0); c != (Cut{}) {
		t.Errorf("empty text: %+v", c)
	}
	if c := Raw("", bytesCount, 10); c != (Cut{}) {
		t.Errorf("empty text, budget 10: %+v", c)
	}
	text := "ab\ncd\nef" // three lines, the last without LF
	for _, c := range []struct {
		budget        int
		text          string
		records, kept int
	}{
		{0, "", 3, 0}, {2, "ab", 3, 0}, {3, "ab\n", 3, 1}, {5, "ab\ncd", 3, 1}, {6, "ab\ncd\n", 3, 2},
		{7, "ab\ncd\ne", 3, 2}, {8, text, 3, 3},
	} {
		got := Raw(text, bytesCount, c.budget)
		if got.Text != c.text || got.Records != c.records || got.Kept != c.kept {
			t.Errorf("budget %d: %+v, want %q %d/%d", c.budget, got, c.text, c.kept, c.records)
		}
	}
	if got := Raw("ab\n", bytesCount, 3); got.Records != 1 || got.Kept != 1 {
		t.Errorf("one whole line: %+v", got)
	}
}

// TestRuneStart checks the cut points against the runes a range loop
// yields, over valid and invalid UTF-8.
func TestRuneStart(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "é", "€", "😀", "\x80", "\xbf", "\xe2\x82", "\xf0\x9f", "\xc0\xaf", "\xed\xa0\x80", "\xff"}
	for trial := 0; trial < 3000; trial++ {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		starts := map[int]bool{len(s): true}
		for i := range s {
			starts[i] = true
		}
		for p := 0; p <= len(s); p++ {
			got := runeStart(s, p)
			want := p
			for !starts[want] {
				want--
			}
			if got != want {
				t.Fatalf("%q: runeStart(%d) = %d, want %d", s, p, got, want)
			}
		}
	}
}

func TestSearchFrom(t *testing.T) {
	for n := 0; n <= 50; n++ {
		for limit := 0; limit <= n+1; limit++ {
			for guess := -1; guess <= n+1; guess++ {
				calls := 0
				got := searchFrom(n, guess, func(k int) bool {
					calls++
					if k < 1 || k > n {
						t.Fatalf("n=%d guess=%d: probed %d", n, guess, k)
					}
					return k <= limit
				})
				want := min(limit, n)
				if got != want {
					t.Errorf("n=%d limit=%d guess=%d: got %d, want %d", n, limit, guess, got, want)
				}
				off := want - min(max(guess, 0), n)
				if off < 0 {
					off = -off
				}
				if calls > 2*bitsLen(off+1)+3 {
					t.Errorf("n=%d limit=%d guess=%d: %d probes", n, limit, guess, calls)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 2000; trial++ {
		n, table := randomFits(r)
		got := searchFrom(n, r.IntN(n+1), func(k int) bool { return table[k] })
		if got < 0 || got > n || (got > 0 && !table[got]) || (got < n && table[got+1]) {
			t.Errorf("%v: %d is not a fitting edge", table, got)
		}
	}
}

// TestNotMonotoneCounts: with counts that are not monotone, Raw and Fit
// still return a text within budget, with its count reported right.
func TestNotMonotoneCounts(t *testing.T) {
	odd := func(s string) int { // lines of odd number cost a lot
		if strings.Count(s, "\n")%2 == 1 {
			return 10 * len(s)
		}
		return len(s)
	}
	text := strings.Repeat("record\n", 40)
	for _, budget := range []int{0, 7, 50, 100, 279, 280, 1000} {
		r := Raw(text, odd, budget)
		if r.Tokens != odd(r.Text) || r.Tokens > budget || !strings.HasPrefix(text, r.Text) {
			t.Errorf("Raw budget %d: %+v", budget, r)
		}
		d := Split(text, Lines)
		c, err := d.Fit(odd, budget)
		if err != nil || c.Tokens != odd(c.Text) || c.Tokens > budget || c.Text != d.Prefix(c.Kept) {
			t.Errorf("Fit budget %d: %+v, %v", budget, c, err)
		}
	}
	// A count of the empty text above the budget: Raw returns "" and says
	// what it counts.
	bos := func(s string) int { return len(s) + 1 }
	if r := Raw("abc", bos, 0); r.Text != "" || r.Tokens != 1 {
		t.Errorf("count(\"\") = 1, budget 0: %+v", r)
	}
	if r := Raw("abc", bos, 3); r.Text != "ab" || r.Tokens != 3 {
		t.Errorf("count(\"\") = 1, budget 3: %+v", r)
	}
}
