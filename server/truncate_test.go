package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/isolda"
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

// TestBudgetInlineBlanks: with inline_blanks, an inline entity counts in
// the [N] of its class's table wherever it stands; a record truncation
// through /v1/serialize must keep every count right, which the ISOLDA
// decoder checks.
func TestBudgetInlineBlanks(t *testing.T) {
	h := New(Config{})
	data := exampleTTL(t, "lod-datagovuk-reference-intervals.ttl")
	opts := &IsoldaOptions{InlineBlanks: true}
	code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Options: opts})
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	full := decode[SerializeResponse](t, body)
	if !strings.Contains(full.Text, "{a: ") {
		t.Fatal("no inline entity in the document")
	}
	pass := 0
	budgets := []int{full.Tokens / 10, full.Tokens / 4, full.Tokens / 2, full.Tokens * 9 / 10}
	for _, budget := range budgets {
		code, _, body := call(t, h, "POST", "/v1/serialize", SerializeRequest{Graph: &Graph{Data: data}, Options: opts, Budget: budget})
		if code != 200 {
			t.Fatalf("budget %d: status %d: %s", budget, code, body)
		}
		resp := decode[SerializeResponse](t, body)
		if resp.Tokens > budget || !resp.Truncated || resp.Dropped.Records == 0 {
			t.Errorf("budget %d: %d tokens, dropped %+v", budget, resp.Tokens, resp.Dropped)
		}
		if _, err := isolda.Decode(strings.NewReader(resp.Text)); err != nil {
			t.Errorf("budget %d: truncated document does not decode: %v", budget, err)
			continue
		}
		pass++
	}
	t.Logf("inline_blanks record truncations: %d/%d decode", pass, len(budgets))
}

// TestTruncateRecordsBlankLines: in a line format a blank line is not a
// record: it goes with the line before it, and only lines with text count
// as dropped.
func TestTruncateRecordsBlankLines(t *testing.T) {
	text := "\nab\n\ncd\n\n\nef\n"
	// quadTok counts bytes plus the square of the LFs: the head "\n" is
	// 2, with ab 5+9 = 14, with cd 10+36 = 46, the whole text 13+49 = 62.
	tok := quadTok{}
	for _, c := range []struct {
		budget  int
		text    string
		dropped int
	}{
		{0, "", 3}, {5, "\n", 3}, {13, "\n", 3}, {14, "\nab\n\n", 2}, {45, "\nab\n\n", 2},
		{46, "\nab\n\ncd\n\n\n", 1}, {61, "\nab\n\ncd\n\n\n", 1}, {62, text, 0},
	} {
		tr := truncateRecords(text, "turtle", tok, c.budget)
		if tr.text != c.text || tr.droppedRecords != c.dropped || tr.tokens != tok.Count(tr.text) {
			t.Errorf("budget %d: %q, %d dropped, want %q, %d", c.budget, tr.text, tr.droppedRecords, c.text, c.dropped)
		}
	}
}
