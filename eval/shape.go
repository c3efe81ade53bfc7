package eval

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/token"
)

// This file orders the records of a rendered context and cuts it to a token
// budget. server/truncate.go and bench/budget.go do similar cuts, but with
// unexported functions over a fixed record order; eval needs the records
// themselves to reorder them, so it splits the text here.

// Kinds of the parts of a document.
const (
	partFixed  = iota // always kept: glossary, directives, @graph lines
	partHeader        // a section's header: kept when one of its records is
	partTrail         // blank lines ending a section: kept with its header
	partRecord        // a record the budget may drop, the orderings move
)

// part is one or more whole lines of a document.
type part struct {
	text    string
	kind    int
	section int // index of the section of a header, trail or record
}

// doc is a document split into parts. Sections are numbered in document
// order; a run of sections between two fixed parts is a segment, within
// which sections may be reordered (a directive or an @graph line between
// them must stay where it is).
type doc struct {
	parts []part
	// sections[i] holds the indexes in parts of section i: header first,
	// then records, then trails.
	sections [][]int
	// segments lists the sections of each segment.
	segments [][]int
}

// isISOLDA reports whether a format is written by the ISOLDA encoder.
func isISOLDA(format string) bool { return format == "isolda" || strings.HasPrefix(format, "isolda-") }

// splitDoc splits text of an orderable format into parts. N-Triples and
// N-Quads have one statement per line: every non-empty line is a record of
// one section. In ISOLDA (docs/SPEC.md sections 3, 6, 7) a section is a
// table header, ~extra: or ~in: line, the records under it (a line indented
// by two spaces with the lines indented deeper under it), and the blank
// lines after them; every other line is fixed.
func splitDoc(text, format string) *doc {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	d := &doc{}
	add := func(p part) {
		d.parts = append(d.parts, p)
		if p.kind != partFixed {
			d.sections[p.section] = append(d.sections[p.section], len(d.parts)-1)
		}
	}
	if !isISOLDA(format) {
		d.sections = [][]int{nil}
		d.segments = [][]int{{0}}
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				d.parts = append(d.parts, part{text: l, kind: partFixed})
				continue
			}
			add(part{text: l, kind: partRecord})
		}
		return d
	}
	section := -1  // current section, -1 outside one
	inSeg := false // the last section belongs to an open segment
	for _, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		last := len(d.parts) - 1
		switch {
		case strings.HasPrefix(l, "   ") && section >= 0 && last >= 0 && d.parts[last].kind == partRecord:
			d.parts[last].text += l // a line under the record above
		case strings.HasPrefix(l, "  ") && section >= 0 && strings.TrimSpace(body) != "":
			add(part{text: l, kind: partRecord, section: section})
		case strings.TrimSpace(body) == "" && section >= 0:
			add(part{text: l, kind: partTrail, section: section})
		case body != "" && body[0] != '#' && body[0] != '@' && body[0] != ' ' && strings.HasSuffix(body, ":"):
			section = len(d.sections)
			d.sections = append(d.sections, nil)
			if !inSeg {
				d.segments = append(d.segments, nil)
				inSeg = true
			}
			d.segments[len(d.segments)-1] = append(d.segments[len(d.segments)-1], section)
			add(part{text: l, kind: partHeader, section: section})
		default:
			section, inSeg = -1, false
			d.parts = append(d.parts, part{text: l, kind: partFixed})
		}
	}
	return d
}

// records returns the indexes of the record parts in document order.
func (d *doc) records() []int {
	var out []int
	for i, p := range d.parts {
		if p.kind == partRecord {
			out = append(out, i)
		}
	}
	return out
}

// reorder rearranges the parts: within each segment, the sections in the
// order secOrder gives (a permutation of the segment's sections), and within
// each section, the records in the order recOrder gives them.
func (d *doc) reorder(secOrder func(seg []int) []int, recOrder func(recs []int) []int) {
	out := make([]part, 0, len(d.parts))
	done := make([]bool, len(d.sections))
	segOf := make([]int, len(d.sections))
	for si, seg := range d.segments {
		for _, s := range seg {
			segOf[s] = si
		}
	}
	for _, p := range d.parts {
		if p.kind == partFixed {
			out = append(out, p)
			continue
		}
		if done[p.section] {
			continue
		}
		// The first part of the first section of a segment: write the
		// whole segment in its new order.
		seg := d.segments[segOf[p.section]]
		for _, s := range secOrder(seg) {
			done[s] = true
			var recs []int
			for _, i := range d.sections[s] {
				if d.parts[i].kind == partRecord {
					recs = append(recs, i)
				}
			}
			recs = recOrder(recs)
			k := 0
			for _, i := range d.sections[s] {
				if d.parts[i].kind == partRecord {
					out = append(out, d.parts[recs[k]])
					k++
				} else {
					out = append(out, d.parts[i])
				}
			}
		}
	}
	*d = *splitParts(out)
}

// splitParts rebuilds the section and segment index of parts (after a
// reorder, sections are renumbered in their new order).
func splitParts(parts []part) *doc {
	d := &doc{parts: parts}
	renum := map[int]int{}
	inSeg := false
	for i, p := range parts {
		if p.kind == partFixed {
			inSeg = false
			continue
		}
		s, ok := renum[p.section]
		if !ok {
			s = len(d.sections)
			renum[p.section] = s
			d.sections = append(d.sections, nil)
			if !inSeg {
				d.segments = append(d.segments, nil)
				inSeg = true
			}
			d.segments[len(d.segments)-1] = append(d.segments[len(d.segments)-1], s)
		}
		d.parts[i].section = s
		d.sections[s] = append(d.sections[s], i)
	}
	return d
}

// String returns the document.
func (d *doc) String() string {
	var b strings.Builder
	for _, p := range d.parts {
		b.WriteString(p.text)
	}
	return b.String()
}

// shuffle permutes the sections of every segment and the records of every
// section with a PCG generator seeded by seed.
func (d *doc) shuffle(seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
	perm := func(l []int) []int {
		l = slices.Clone(l)
		r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		return l
	}
	d.reorder(perm, perm)
}

// prefix returns the document with its first k records (in document
// order): the fixed parts, and each section that keeps a record (or never
// had one) with its header, its kept records and its trail. An ISOLDA table header's row
// count [N] drops by the rows left out, so the text still decodes.
func (d *doc) prefix(k int) string {
	keep := make([]bool, len(d.parts))
	kept := make([]int, len(d.sections))
	total := make([]int, len(d.sections))
	n := 0
	for i, p := range d.parts {
		if p.kind != partRecord {
			continue
		}
		total[p.section]++
		if n < k {
			keep[i] = true
			kept[p.section]++
			n++
		}
	}
	var b strings.Builder
	for i, p := range d.parts {
		switch p.kind {
		case partFixed:
			b.WriteString(p.text)
		case partHeader:
			// A section without records at all is kept as it is.
			if kept[p.section] > 0 || total[p.section] == 0 {
				b.WriteString(withRowCount(p.text, total[p.section]-kept[p.section]))
			}
		case partTrail:
			if kept[p.section] > 0 || total[p.section] == 0 {
				b.WriteString(p.text)
			}
		default:
			if keep[i] {
				b.WriteString(p.text)
			}
		}
	}
	return b.String()
}

// withRowCount lowers the row count N of an ISOLDA table header
// "Class[N]{...}:" or "Class[N]:" by dropped; other lines are returned as
// they are.
func withRowCount(header string, dropped int) string {
	if dropped == 0 {
		return header
	}
	from := 0
	if strings.HasPrefix(header, "<") {
		if from = strings.IndexByte(header, '>'); from < 0 {
			return header
		}
	}
	i := strings.IndexByte(header[from:], '[')
	if i < 0 {
		return header
	}
	i += from + 1
	j := i
	for j < len(header) && header[j] >= '0' && header[j] <= '9' {
		j++
	}
	if j == i || j+1 >= len(header) || header[j] != ']' || (header[j+1] != '{' && header[j+1] != ':') {
		return header
	}
	n, err := strconv.Atoi(header[i:j])
	if err != nil || n < dropped {
		return header
	}
	return header[:i] + strconv.Itoa(n-dropped) + header[j:]
}

// largestFit returns the largest k in [0, n] with fits(k), given fits(0)
// and fits monotone (true up to some k, false after). It gallops up before
// bisecting, so a small budget on a large text costs little.
func largestFit(n int, fits func(k int) bool) int {
	lo, hi := 0, 1
	for hi <= n && fits(hi) {
		lo, hi = hi, 2*hi
	}
	hi = min(hi, n+1)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// cut is a context cut to a budget.
type cut struct {
	text string
	// tokens counts text under the budget's tokenizer.
	tokens int
	// records and kept count the records of the whole text and of the cut
	// (statements, or lines for a raw cut of a line format; ISOLDA rows).
	records, kept int
}

// cutRaw keeps the longest prefix of text, cut at a character boundary,
// whose count is within budget.
func cutRaw(text string, tok token.Tokenizer, budget int) cut {
	snap := func(p int) int {
		for p > 0 && p < len(text) && !utf8.RuneStart(text[p]) {
			p--
		}
		return p
	}
	k := largestFit(len(text), func(k int) bool { return tok.Count(text[:snap(k)]) <= budget })
	t := text[:snap(k)]
	return cut{text: t, tokens: tok.Count(t)}
}

// cutRecords keeps the fixed parts of d and its first records while the
// text fits budget. The fixed parts alone must fit.
func cutRecords(d *doc, tok token.Tokenizer, budget int) (cut, error) {
	n := len(d.records())
	if empty := tok.Count(d.prefix(0)); empty > budget {
		return cut{}, fmt.Errorf("budget of %d tokens is smaller than the document without records (%d tokens)", budget, empty)
	}
	k := largestFit(n, func(k int) bool { return tok.Count(d.prefix(k)) <= budget })
	t := d.prefix(k)
	return cut{text: t, tokens: tok.Count(t), records: n, kept: k}, nil
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
	k := largestFit(len(quads), func(k int) bool { return encErr == nil && tok.Count(encode(k)) <= budget })
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
	quads := make([]rdf.Quad, len(recs))
	adj := map[rdf.Term][]rdf.Term{}
	node := func(t rdf.Term) bool { return t.Kind == rdf.IRIKind || t.Kind == rdf.BlankKind }
	for i, r := range recs {
		ds, err := f.Decode(strings.NewReader(d.parts[r].text))
		if err != nil {
			return fmt.Errorf("bfs ordering: line %q: %w", strings.TrimSpace(d.parts[r].text), err)
		}
		qs := ds.Quads()
		if len(qs) != 1 {
			return fmt.Errorf("bfs ordering: line %q holds %d statements", strings.TrimSpace(d.parts[r].text), len(qs))
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
	d.reorder(func(seg []int) []int { return seg }, func(l []int) []int {
		l = slices.Clone(l)
		slices.SortStableFunc(l, func(a, b int) int { return cmp.Compare(rank[a], rank[b]) })
		return l
	})
	return nil
}
