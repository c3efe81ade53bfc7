package server

import (
	"github.com/isolda/isolda/textbudget"
	"github.com/isolda/isolda/token"
)

// truncation is a text cut to a token budget.
type truncation struct {
	text           string
	tokens         int
	droppedRecords int
}

// truncateRaw cuts text at the longest prefix (at a character boundary)
// whose token count is within budget (textbudget.Raw); the dropped
// records are the lines the cut removes wholly or in part.
func truncateRaw(text string, tok token.Tokenizer, budget int) truncation {
	c := textbudget.Raw(text, tok.Count, budget)
	return truncation{text: c.Text, tokens: c.Tokens, droppedRecords: c.Records - c.Kept}
}

// truncateRecords keeps the head of the document and its first records,
// in document order, while the text fits the budget (textbudget.Doc.Fit,
// records as textbudget.SyntaxOf(format) finds them: ISOLDA rows and
// blocks, with each table's row count rewritten to the rows kept, or
// lines), so that the document order (such as an anchor first) is kept
// and a truncated ISOLDA document still decodes. When the head alone
// exceeds the budget, it is cut raw and every record is dropped.
func truncateRecords(text, format string, tok token.Tokenizer, budget int) truncation {
	d := textbudget.Split(text, textbudget.SyntaxOf(format))
	c, err := d.Fit(tok.Count, budget)
	if err != nil {
		r := textbudget.Raw(d.Prefix(0), tok.Count, budget)
		return truncation{text: r.Text, tokens: r.Tokens, droppedRecords: d.NumRecords()}
	}
	return truncation{text: c.Text, tokens: c.Tokens, droppedRecords: c.Records - c.Kept}
}
