package textbudget

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// rowCounts masks the row counts of table headers, which Prefix rewrites.
var rowCounts = regexp.MustCompile(`\[[0-9]+\]([{:])`)

func masked(text string) []string {
	var out []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			out = append(out, rowCounts.ReplaceAllString(l, "[N]$1"))
		}
	}
	return out
}

// isSubsequence reports whether every element of sub is in seq, in order.
func isSubsequence(sub, seq []string) bool {
	j := 0
	for _, s := range seq {
		if j < len(sub) && sub[j] == s {
			j++
		}
	}
	return j == len(sub)
}

// FuzzSplit: splitting any text never panics and loses nothing; every
// Prefix keeps lines of the text in order (with only row counts changed)
// and grows with k; Fit with a byte count returns the most records within
// the budget; Raw returns the longest prefix at a character boundary; a
// reorder keeps every line.
func FuzzSplit(f *testing.F) {
	f.Add(handDoc, true, 60, uint8(3))
	f.Add("T[2]{id, p>}:\n  a, {q: 1}\n  b, c\n\nThing_[2]{id}:\n  c\n\n@graph g\n\nThing_[1]{id}:\n  d\n", true, 40, uint8(1))
	f.Add("<http://a> <http://b> <http://c> .\n\n<http://a> <http://b> \"é\" .\r\n<x>", false, 50, uint8(0))
	f.Add("<x>[3]{a}:\n  1\n\n@graph <g>\nT[1]:\n   \n  z\n~in:\n", true, 0, uint8(2))
	f.Add("", true, 0, uint8(0))
	f.Fuzz(func(t *testing.T, text string, iso bool, budget int, rev uint8) {
		syntax := Lines
		if iso {
			syntax = ISOLDA
		}
		d := Split(text, syntax)
		if d.String() != text {
			t.Fatalf("split and join changed the text")
		}
		n := d.NumRecords()
		if len(d.Records()) != n {
			t.Fatalf("Records and NumRecords disagree")
		}
		if d.Prefix(n) != text {
			t.Fatalf("the prefix of every record is not the text:\n%q", d.Prefix(n))
		}
		all := masked(text)
		prev := -1
		ks := []int{0, min(1, n), n / 2, max(n-1, 0), n}
		slices.Sort(ks)
		for _, k := range slices.Compact(ks) {
			p := d.Prefix(k)
			if !isSubsequence(masked(p), all) {
				t.Fatalf("Prefix(%d) is not lines of the text in order:\n%q", k, p)
			}
			if len(p) < prev {
				t.Fatalf("Prefix(%d) is shorter than a smaller prefix", k)
			}
			prev = len(p)
		}
		budget = max(budget%(len(text)+2), 0)
		c, err := d.Fit(bytesCount, budget)
		if err != nil {
			if len(d.Prefix(0)) <= budget {
				t.Fatalf("budget %d: %v, but the head fits", budget, err)
			}
		} else {
			if len(c.Text) > budget || c.Tokens != len(c.Text) || c.Kept > c.Records || c.Text != d.Prefix(c.Kept) {
				t.Fatalf("budget %d: %+v", budget, c)
			}
			if c.Kept < n && len(d.Prefix(c.Kept+1)) <= budget {
				t.Fatalf("budget %d: kept %d records but %d fit", budget, c.Kept, c.Kept+1)
			}
		}
		r := Raw(text, bytesCount, budget)
		if !strings.HasPrefix(text, r.Text) || len(r.Text) > budget {
			t.Fatalf("raw budget %d: %q", budget, r.Text)
		}
		if rest := text[len(r.Text):]; rest != "" {
			_, size := utf8.DecodeRuneInString(rest)
			if len(r.Text)+size <= budget {
				t.Fatalf("raw budget %d: one more character fits", budget)
			}
		}
		if rev%2 == 1 && strings.HasSuffix(text, "\n") {
			d.Reorder(func(seg []int) []int { s := slices.Clone(seg); slices.Reverse(s); return s },
				func(recs []int) []int { r := slices.Clone(recs); slices.Reverse(r); return r })
			got, want := strings.SplitAfter(d.String(), "\n"), strings.SplitAfter(text, "\n")
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) || d.NumRecords() != n {
				t.Fatalf("reorder changed the lines or the records")
			}
		}
	})
}
