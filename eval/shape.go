package eval

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/textbudget"
	"github.com/isolda/isolda/token"
)

// This file orders the records of a rendered context and cuts it to a token
// budget. The records are found by package textbudget (which server and
// bench use too); eval adds the orderings.

// doc is a document split into records (textbudget.Split).
type doc struct{ *textbudget.Doc }

// isISOLDA reports whether a format is written by the ISOLDA encoder.
func isISOLDA(format string) bool { return textbudget.SyntaxOf(format) == textbudget.ISOLDA }

// splitDoc splits text of an orderable format into parts: in N-Triples
// and N-Quads every line that is not blank is a record; in ISOLDA the rows
// and blocks of its sections (textbudget.ISOLDA).
func splitDoc(text, format string) *doc {
	return &doc{textbudget.Split(text, textbudget.SyntaxOf(format))}
}

// records returns the indexes of the record parts in document order.
func (d *doc) records() []int { return d.Records() }

// shuffle permutes the sections of every segment and the records of every
// section with a PCG generator seeded by seed.
func (d *doc) shuffle(seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
	perm := func(l []int) []int {
		l = slices.Clone(l)
		r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		return l
	}
	d.Reorder(perm, perm)
}

// cut is a context cut to a budget.
type cut struct {
	text string
	// tokens counts text under the budget's tokenizer.
	tokens int
	// records and kept count the records of the whole text and of the cut
	// (statements, or ISOLDA rows; 0 for a raw cut).
	records, kept int
}

// cutRaw keeps the longest prefix of text, cut at a character boundary,
// whose count is within budget (textbudget.Raw).
func cutRaw(text string, tok token.Tokenizer, budget int) cut {
	c := textbudget.Raw(text, tok.Count, budget)
	return cut{text: c.Text, tokens: c.Tokens}
}

// cutRecords keeps the head of d and its first records while the text
// fits budget (textbudget.Doc.Fit). The head alone must fit.
func cutRecords(d *doc, tok token.Tokenizer, budget int) (cut, error) {
	c, err := d.Fit(tok.Count, budget)
	if err != nil {
		return cut{}, err
	}
	return cut{text: c.Text, tokens: c.Tokens, records: c.Records, kept: c.Kept}, nil
}

// cutStatements keeps the most statements of d, in canonical order, whose
// encoding in format fits budget: for formats whose text cannot be split
// into records, the encoding of a smaller graph.
func cutStatements(format string, d *rdf.Dataset, tok token.Tokenizer, budget int) (cut, error) {
	quads := d.Sorted()
	var encErr error
	encode := func(k int) string {
		sub := rdf.NewDataset()
		for _, p := range d.Prefixes {
			sub.AddPrefix(p.Name, p.IRI)
		}
		sub.Base = d.Base
		for _, q := range quads[:k] {
			sub.Add(q)
		}
		s, err := formats.EncodeString(format, formats.NewInput(sub))
		if err != nil && encErr == nil {
			encErr = err
		}
		return s
	}
	if empty := tok.Count(encode(0)); empty > budget {
		return cut{}, fmt.Errorf("budget of %d tokens is smaller than the format's text of an empty graph (%d tokens)", budget, empty)
	}
	k := textbudget.LargestFit(len(quads), func(k int) bool { return encErr == nil && tok.Count(encode(k)) <= budget })
	t := encode(k)
	if encErr != nil {
		return cut{}, encErr
	}
	return cut{text: t, tokens: tok.Count(t), records: len(quads), kept: k}, nil
}

// bfsLines orders the statements of a line format (N-Triples, N-Quads) by
// the breadth-first distance of their nearer end from anchor, over
// statements in both directions; ties, and statements not reached, keep
// their order. Each line is decoded on its own with the format's decoder.
func (d *doc) bfsLines(f formats.Format, anchor rdf.Term) error {
	recs := d.records()
	parts := d.Parts()
	quads := make([]rdf.Quad, len(recs))
	adj := map[rdf.Term][]rdf.Term{}
	node := func(t rdf.Term) bool { return t.Kind == rdf.IRIKind || t.Kind == rdf.BlankKind }
	for i, r := range recs {
		ds, err := f.Decode(strings.NewReader(parts[r].Text))
		if err != nil {
			return fmt.Errorf("bfs ordering: line %q: %w", strings.TrimSpace(parts[r].Text), err)
		}
		qs := ds.Quads()
		if len(qs) != 1 {
			return fmt.Errorf("bfs ordering: line %q holds %d statements", strings.TrimSpace(parts[r].Text), len(qs))
		}
		q := qs[0]
		quads[i] = q
		if node(q.S) && node(q.O) {
			adj[q.S] = append(adj[q.S], q.O)
			adj[q.O] = append(adj[q.O], q.S)
		}
	}
	dist := map[rdf.Term]int{anchor: 0}
	queue := []rdf.Term{anchor}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj[n] {
			if _, ok := dist[m]; !ok {
				dist[m] = dist[n] + 1
				queue = append(queue, m)
			}
		}
	}
	const far = int(^uint(0) >> 1)
	rank := make(map[int]int, len(recs))
	for i, r := range recs {
		k := far
		if v, ok := dist[quads[i].S]; ok {
			k = v
		}
		if v, ok := dist[quads[i].O]; ok && node(quads[i].O) && v < k {
			k = v
		}
		rank[r] = k
	}
	d.Reorder(func(seg []int) []int { return seg }, func(l []int) []int {
		l = slices.Clone(l)
		slices.SortStableFunc(l, func(a, b int) int { return cmp.Compare(rank[a], rank[b]) })
		return l
	})
	return nil
}
