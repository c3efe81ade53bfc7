package server

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/token"
)

// truncation is a text cut to a token budget.
type truncation struct {
	text           string
	tokens         int
	droppedRecords int
}

// truncateRaw cuts text at the longest prefix (at a character boundary)
// whose token count is within budget: a cut at a token boundary.
func truncateRaw(text string, tok token.Tokenizer, budget int) truncation {
	// Binary search on the byte length; the count of a prefix is not
	// strictly monotone in its length, so the result is checked.
	lo, hi := 0, len(text)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		for mid < len(text) && mid > lo && !utf8.RuneStart(text[mid]) {
			mid--
		}
		if mid == lo {
			break
		}
		if tok.Count(text[:mid]) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := text[:lo]
	n := tok.Count(cut)
	for n > budget && len(cut) > 0 {
		_, size := utf8.DecodeLastRuneInString(cut)
		cut = cut[:len(cut)-size]
		n = tok.Count(cut)
	}
	return truncation{text: cut, tokens: n, droppedRecords: countRecords(text[len(cut):])}
}

// countRecords counts the lines that a raw cut removed wholly or in part.
func countRecords(rest string) int {
	if rest == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(rest, "\n"), "\n") + 1
}

// Kinds of document pieces.
const (
	pieceFixed  = iota // always kept: glossary, directives
	pieceHeader        // a section's header: kept when one of its records is
	pieceTrail         // the blank line ending a section: kept with its header
	pieceRecord        // a record the budget may drop
)

// piece is a part of a document: one or more whole lines.
type piece struct {
	text    string
	kind    int
	section int // the section of a header, trail or record
}

// pieces splits a document. In other formats than ISOLDA every line is a
// record. In ISOLDA (docs/SPEC.md section 3) a row or a block (a line
// indented by two spaces, with the continuation lines indented by four
// under it) is a record of the section whose header (a table header,
// "~extra:" or "~in:") precedes it; the glossary, directives and @graph
// lines are always kept.
func pieces(text, format string) (ps []piece, sections int) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if !isISOLDA(format) {
		for _, l := range lines {
			ps = append(ps, piece{l, pieceRecord, 0})
		}
		return ps, 1
	}
	section := -1
	for _, l := range lines {
		last := len(ps) - 1
		switch {
		case strings.HasPrefix(l, "   ") && last >= 0 && ps[last].kind == pieceRecord:
			ps[last].text += l // a continuation line of the row above
		case strings.HasPrefix(l, "  ") && section >= 0:
			ps = append(ps, piece{l, pieceRecord, section})
		case strings.TrimRight(l, "\n") == "" && section >= 0:
			ps = append(ps, piece{l, pieceTrail, section})
		case strings.HasPrefix(l, "~") || countIndex(l) >= 0:
			section = sections
			sections++
			ps = append(ps, piece{l, pieceHeader, section})
		default:
			section = -1
			ps = append(ps, piece{l, pieceFixed, -1})
		}
	}
	return ps, sections
}

// countIndex returns the offset of the row count in an ISOLDA table
// header "Class[N]{...}:" or "Class[N]:", or -1 when l is not one.
func countIndex(l string) int {
	if l == "" || strings.ContainsRune("@# ~\n", rune(l[0])) {
		return -1
	}
	from := 0
	if l[0] == '<' {
		from = strings.IndexByte(l, '>')
		if from < 0 {
			return -1
		}
	}
	i := strings.IndexByte(l[from:], '[')
	if i < 0 {
		return -1
	}
	i += from + 1
	j := i
	for j < len(l) && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	if j == i || j+1 >= len(l) || l[j] != ']' || (l[j+1] != '{' && l[j+1] != ':') {
		return -1
	}
	return i
}

// withCount rewrites the row count of a table header.
func withCount(header string, n int) string {
	i := countIndex(header)
	if i < 0 {
		return header
	}
	j := i + strings.IndexByte(header[i:], ']')
	return header[:i] + strconv.Itoa(n) + header[j:]
}

// truncateRecords keeps the fixed pieces and whole records, in order,
// while the next record fits the budget; the first record that does not
// fit ends the records (later ones are dropped too, so the order of the
// document, such as an anchor first, is kept). A section is written when
// one of its records is, its header counting the rows kept, so a
// truncated ISOLDA document still decodes.
func truncateRecords(text, format string, tok token.Tokenizer, budget int) truncation {
	ps, nsec := pieces(text, format)
	keep := make([]bool, len(ps))
	kept := make([]int, nsec) // records kept per section
	sectionCost := make([]int, nsec)
	used := 0
	for i, p := range ps {
		switch p.kind {
		case pieceFixed:
			keep[i] = true
			used += tok.Count(p.text)
		case pieceHeader, pieceTrail:
			sectionCost[p.section] += tok.Count(p.text)
		}
	}
	for i, p := range ps {
		if p.kind != pieceRecord {
			continue
		}
		n := tok.Count(p.text)
		if kept[p.section] == 0 {
			n += sectionCost[p.section]
		}
		if used+n > budget {
			break
		}
		keep[i] = true
		kept[p.section]++
		used += n
	}
	// The kept records are the first k: join writes the document with
	// them.
	records := []int{}
	for i, p := range ps {
		if p.kind == pieceRecord {
			records = append(records, i)
		}
	}
	join := func(k int) string {
		clear(kept)
		for i, r := range records {
			keep[r] = i < k
			if i < k {
				kept[ps[r].section]++
			}
		}
		var b strings.Builder
		for i, p := range ps {
			switch {
			case p.kind == pieceHeader && kept[p.section] > 0:
				b.WriteString(withCount(p.text, kept[p.section]))
			case p.kind == pieceTrail && kept[p.section] > 0:
				b.WriteString(p.text)
			case keep[i]:
				b.WriteString(p.text)
			}
		}
		return b.String()
	}
	k := 0
	for k < len(records) && keep[records[k]] {
		k++
	}
	out := join(k)
	n := tok.Count(out)
	if n > budget {
		// The sum of the pieces' counts is close to the count of the
		// whole but not always equal: find the most records that fit.
		lo, hi := 0, k-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if tok.Count(join(mid)) <= budget {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		out = join(lo)
		n = tok.Count(out)
	}
	dropped := 0
	for i, p := range ps {
		if p.kind == pieceRecord && !keep[i] {
			dropped++
		}
	}
	if n > budget {
		// The fixed pieces alone exceed the budget: cut them raw.
		t := truncateRaw(out, tok, budget)
		t.droppedRecords = dropped
		return t
	}
	return truncation{text: out, tokens: n, droppedRecords: dropped}
}
