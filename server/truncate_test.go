package server

import (
	"fmt"
	"strings"
	"testing"
)

// quadTok is a tokenizer whose count grows faster than the text: the sum
// of the counts of the pieces underestimates the whole, which makes
// truncateRecords correct its greedy choice.
type quadTok struct{}

func (quadTok) Encode(s string) []int { return make([]int, quadTok{}.Count(s)) }
func (quadTok) Count(s string) int {
	n := strings.Count(s, "\n")
	return len(s) + n*n
}
func (quadTok) Name() string { return "quad" }

func TestTruncateRecordsSuperadditive(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "line %02d\n", i)
	}
	text := b.String()
	tok := quadTok{}
	for _, budget := range []int{0, 5, 50, 100, 200, 400, 1000} {
		tr := truncateRecords(text, "ntriples", tok, budget)
		if tr.tokens != tok.Count(tr.text) || tr.tokens > budget {
			t.Errorf("budget %d: %d tokens (counted %d)", budget, tr.tokens, tok.Count(tr.text))
		}
		if !strings.HasPrefix(text, tr.text) {
			t.Errorf("budget %d: not a prefix of whole lines", budget)
		}
		kept := strings.Count(tr.text, "\n")
		if kept+tr.droppedRecords != 40 {
			t.Errorf("budget %d: kept %d + dropped %d", budget, kept, tr.droppedRecords)
		}
		// Maximal: one more line would not fit.
		if kept < 40 {
			next := text[:len(tr.text)+8]
			if tok.Count(next) <= budget {
				t.Errorf("budget %d: %d lines kept but %d fit", budget, kept, kept+1)
			}
		}
	}
}

func TestCountIndex(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"Sense[3]{id, @iri}:\n", 6},
		{"Thing_[12]:\n", 7},
		{"<http://x/a[1]>[2]{id}:\n", 16},
		{"@types Sense 3\n", -1},
		{"# Type[N]{a}: a table\n", -1},
		{"  row[1]{x}:\n", -1},
		{"Sense[]{id}:\n", -1},
		{"Sense[3]x\n", -1},
	} {
		if got := countIndex(c.line); got != c.want {
			t.Errorf("countIndex(%q) = %d, want %d", c.line, got, c.want)
		}
	}
	if got := withCount("Sense[13]{id}:\n", 2); got != "Sense[2]{id}:\n" {
		t.Errorf("withCount: %q", got)
	}
}
