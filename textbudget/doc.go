package textbudget

import (
	"slices"
	"strconv"
	"strings"
)

// Syntax says how Split finds the records of a text.
type Syntax int

const (
	// Lines is a format of one record a line (N-Triples, N-Quads, JSON
	// lines, CSV and any other text): every line that is not blank is a
	// record; a blank line (only white space) belongs to the record before
	// it, and the blank lines before the first record are the head. The
	// records form one section (0), without a header.
	Lines Syntax = iota
	// ISOLDA is the ISOLDA notation (docs/SPEC.md sections 2, 3, 6, 7):
	// a section is a table header (any line that does not start with
	// "#", "@", a space or "~" and is not blank) or a "~extra:" or
	// "~in:" line, with the records under it (a line indented by two
	// spaces, with the lines indented deeper under it) and the blank
	// lines among and after them (its trail). Every other line (glossary,
	// directives, @graph lines, blank lines outside a section) is head.
	ISOLDA
)

// SyntaxOf returns the syntax of a format registry name: ISOLDA for
// "isolda" and "isolda-*" (every ISOLDA version), Lines for every other.
func SyntaxOf(format string) Syntax {
	if format == "isolda" || strings.HasPrefix(format, "isolda-") {
		return ISOLDA
	}
	return Lines
}

// Kind is the kind of a Part.
type Kind uint8

// Kinds of parts.
const (
	// Head is always kept.
	Head Kind = iota
	// Header starts a section. It is kept when one of the section's
	// records is, or when the section has no records at all; an ISOLDA
	// table header's row count "[N]" is rewritten to match what is kept
	// (see Doc.Prefix).
	Header
	// Trail is a blank line of a section, kept with its header.
	Trail
	// Record is a record the budget may leave out (and an ordering may
	// move).
	Record
)

// Part is one or more whole lines of a document.
type Part struct {
	Text string
	Kind Kind
	// Section is the index of the section of a header, trail or record
	// (sections are numbered in document order from 0), -1 for the head.
	Section int
}

// Doc is a document split into parts. Its sections form segments: a
// segment is a run of sections with no head part between them (a
// directive or an @graph line between two sections must stay where it
// is), within which Reorder may move sections.
type Doc struct {
	parts []Part
	// sections[i] holds the indexes in parts of section i, in document
	// order.
	sections [][]int
	// segments lists the sections of each segment.
	segments [][]int
	records  int
	// ISOLDA only: inline[i] lists the classes of the inline entities in
	// part i (a record); graph[s] numbers the graph of section s (the
	// @graph lines before it) and class[s] is its table's class as
	// written ("" for a section without a row count).
	inline [][]string
	graph  []int
	class  []string
	// ISOLDA only: types are the type terms the @types lines list, and
	// mentions[i] the indexes in types of those that part i (a header or
	// a record) names.
	types    map[string]int
	mentions [][]int
}

// Split splits text into parts. It never fails: every text has a split
// whose parts, joined, are the text (String returns it).
func Split(text string, syntax Syntax) *Doc {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if syntax == ISOLDA {
		d := index(splitISOLDA(lines))
		d.isolda()
		return d
	}
	parts := make([]Part, 0, len(lines))
	for _, l := range lines {
		last := len(parts) - 1
		switch {
		case strings.TrimSpace(l) != "":
			parts = append(parts, Part{Text: l, Kind: Record})
		case last >= 0 && parts[last].Kind == Record:
			parts[last].Text += l // a blank line goes with its record
		default:
			parts = append(parts, Part{Text: l, Kind: Head, Section: -1})
		}
	}
	return index(parts)
}

// splitISOLDA splits the lines of an ISOLDA document.
func splitISOLDA(lines []string) []Part {
	parts := make([]Part, 0, len(lines))
	section := -1 // the current section, -1 outside one
	record := -1  // the index of the record that deeper lines continue
	sections := 0
	for _, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(body) == "" && section >= 0:
			parts = append(parts, Part{Text: l, Kind: Trail, Section: section})
			record = -1
		case strings.TrimSpace(body) == "":
			parts = append(parts, Part{Text: l, Kind: Head, Section: -1})
		case strings.HasPrefix(body, "   ") && record >= 0:
			parts[record].Text += l // a line under the record
		case strings.HasPrefix(body, "  ") && section >= 0:
			record = len(parts)
			parts = append(parts, Part{Text: l, Kind: Record, Section: section})
		case body[0] == '#' || body[0] == '@' || body[0] == ' ':
			section, record = -1, -1
			parts = append(parts, Part{Text: l, Kind: Head, Section: -1})
		default: // a table header, ~extra: or ~in:
			section, record = sections, -1
			sections++
			parts = append(parts, Part{Text: l, Kind: Header, Section: section})
		}
	}
	return parts
}

// index builds a Doc over parts, numbering their sections afresh in the
// order they first appear (a section's parts need not be adjacent after
// Reorder has moved them, but they are in practice). A record with
// Section -1 (from Lines) belongs to section 0.
func index(parts []Part) *Doc {
	d := &Doc{parts: parts}
	renum := map[int]int{}
	inSeg := false
	for i := range d.parts {
		p := &d.parts[i]
		if p.Kind == Head {
			p.Section = -1
			inSeg = false
			continue
		}
		s, ok := renum[p.Section]
		if !ok {
			s = len(d.sections)
			renum[p.Section] = s
			d.sections = append(d.sections, nil)
			if !inSeg {
				d.segments = append(d.segments, nil)
				inSeg = true
			}
			d.segments[len(d.segments)-1] = append(d.segments[len(d.segments)-1], s)
		}
		p.Section = s
		d.sections[s] = append(d.sections[s], i)
		if p.Kind == Record {
			d.records++
		}
	}
	return d
}

// Parts returns a copy of the parts of d, in document order.
func (d *Doc) Parts() []Part { return append([]Part(nil), d.parts...) }

// Records returns the indexes in Parts of the records, in document order.
func (d *Doc) Records() []int {
	out := make([]int, 0, d.records)
	for i, p := range d.parts {
		if p.Kind == Record {
			out = append(out, i)
		}
	}
	return out
}

// NumRecords returns the number of records of d.
func (d *Doc) NumRecords() int { return d.records }

// String returns the document: its parts joined.
func (d *Doc) String() string {
	var b strings.Builder
	for _, p := range d.parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Prefix returns the document with its first k records in document order
// (k is clamped to [0, NumRecords]): the head, the records kept, and each
// section that keeps a record or never had one, with its header and
// trail. An ISOLDA table header "[N]" is lowered by the rows it loses and
// by the inline entities of its class ("{p: v}", which count in N) that
// the records left out in its graph held, so that the text still decodes
// (the decoder checks N); when the result would be fewer than the rows
// kept (an N that was wrong to begin with), N is set to the rows kept.
// An ISOLDA "@types" line loses the types that the records left out name
// and that nothing kept names (the table headers and records kept), so
// that it lists no type of which the text shows no entity; the counts of
// the types it keeps are left as they are, those of the whole graph
// (docs/SPEC.md: "in the whole dataset"), which tells a reader how much
// the cut left out.
// Prefix(NumRecords()) is String().
func (d *Doc) Prefix(k int) string {
	kept := make([]int, len(d.sections))
	total := make([]int, len(d.sections))
	type key struct {
		graph int
		class string
	}
	var lost map[key]int // inline entities left out, per graph and class
	n := 0
	for i, p := range d.parts {
		if p.Kind != Record {
			continue
		}
		total[p.Section]++
		if n < k {
			kept[p.Section]++
		} else if d.inline != nil && len(d.inline[i]) > 0 {
			if lost == nil {
				lost = map[key]int{}
			}
			for _, c := range d.inline[i] {
				lost[key{d.graph[p.Section], c}]++
			}
		}
		n++
	}
	gone := d.typesGone(k, kept, total)
	var b strings.Builder
	n = 0
	for _, p := range d.parts {
		switch p.Kind {
		case Head:
			if gone != nil && strings.HasPrefix(p.Text, "@types ") {
				b.WriteString(dropTypes(p.Text, gone))
				break
			}
			b.WriteString(p.Text)
		case Header:
			s := p.Section
			if kept[s] == 0 && total[s] > 0 {
				break
			}
			drop := total[s] - kept[s]
			if lost != nil && d.class[s] != "" {
				drop += lost[key{d.graph[s], d.class[s]}]
			}
			b.WriteString(lowerRowCount(p.Text, drop, kept[s]))
		case Trail:
			if s := p.Section; kept[s] > 0 || total[s] == 0 {
				b.WriteString(p.Text)
			}
		case Record:
			if n < k {
				b.WriteString(p.Text)
			}
			n++
		}
	}
	return b.String()
}

// typesGone returns the types of the @types lines that the parts left out
// by Prefix(k) name and that no part kept names, or nil when there are
// none.
func (d *Doc) typesGone(k int, kept, total []int) map[string]bool {
	if len(d.types) == 0 || k >= d.records {
		return nil
	}
	inKept := make([]bool, len(d.types))
	inCut := make([]bool, len(d.types))
	n := 0
	for i, p := range d.parts {
		var keep bool
		switch p.Kind {
		case Header:
			keep = kept[p.Section] > 0 || total[p.Section] == 0
		case Record:
			keep = n < k
			n++
		default:
			continue
		}
		for _, t := range d.mentions[i] {
			if keep {
				inKept[t] = true
			} else {
				inCut[t] = true
			}
		}
	}
	var gone map[string]bool
	for name, t := range d.types {
		if inCut[t] && !inKept[t] {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[name] = true
		}
	}
	return gone
}

// dropTypes removes the entries of the types in gone from an @types line
// ("@types A 3, ex:B 1\n"); a line left with none is dropped whole.
func dropTypes(line string, gone map[string]bool) string {
	body := strings.TrimRight(strings.TrimPrefix(line, "@types "), "\r\n")
	var keep []string
	for _, e := range strings.Split(body, ", ") {
		if !gone[typeTerm(e)] {
			keep = append(keep, e)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return "@types " + strings.Join(keep, ", ") + line[len("@types ")+len(body):]
}

// typeTerm returns the term of an @types entry "term count".
func typeTerm(entry string) string {
	if i := strings.LastIndexByte(entry, ' '); i >= 0 {
		return entry[:i]
	}
	return entry
}

// nameTokens calls f with each term-like token of an ISOLDA line outside
// JSON strings: an <IRI>, or a run of letters, digits, bytes of
// multi-byte characters and _-.:/#% (without a final dot or colon).
func nameTokens(text string, f func(string)) {
	isName := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80 ||
			strings.IndexByte("_-.:/#%", c) >= 0
	}
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			i++
		case c == '<':
			j := strings.IndexByte(text[i:], '>')
			if j < 0 {
				return
			}
			f(text[i : i+j+1])
			i += j + 1
		case isName(c):
			j := i
			for j < len(text) && isName(text[j]) {
				j++
			}
			f(strings.TrimRight(text[i:j], ".:"))
			i = j
		default:
			i++
		}
	}
}

// Reorder rearranges d: within each segment, the sections in the order
// sections gives (a permutation of the segment's section indexes), and
// within each section, the records in the order records gives them (a
// permutation of the indexes in Parts of the section's records). The
// head, headers and trails keep their places in their segment and
// section. Sections are then renumbered in their new order.
func (d *Doc) Reorder(sections func(seg []int) []int, records func(recs []int) []int) {
	out := make([]Part, 0, len(d.parts))
	done := make([]bool, len(d.sections))
	segOf := make([]int, len(d.sections))
	for si, seg := range d.segments {
		for _, s := range seg {
			segOf[s] = si
		}
	}
	for _, p := range d.parts {
		if p.Kind == Head {
			out = append(out, p)
			continue
		}
		if done[p.Section] {
			continue
		}
		// The first part of the first section of a segment: write the
		// whole segment in its new order.
		for _, s := range sections(d.segments[segOf[p.Section]]) {
			done[s] = true
			var recs []int
			for _, i := range d.sections[s] {
				if d.parts[i].Kind == Record {
					recs = append(recs, i)
				}
			}
			recs = records(recs)
			k := 0
			for _, i := range d.sections[s] {
				if d.parts[i].Kind == Record {
					out = append(out, d.parts[recs[k]])
					k++
				} else {
					out = append(out, d.parts[i])
				}
			}
		}
	}
	iso := d.inline != nil
	*d = *index(out)
	if iso {
		d.isolda()
	}
}

// isolda fills in what Prefix needs to keep the row counts of ISOLDA
// tables right when inline entities ("{p: v}", InlineBlanks) are left
// out: each counts in the [N] of its class's table in its graph.
func (d *Doc) isolda() {
	d.inline = make([][]string, len(d.parts))
	d.graph = make([]int, len(d.sections))
	d.class = make([]string, len(d.sections))
	d.types, d.mentions = nil, nil
	for _, p := range d.parts {
		if p.Kind == Head && strings.HasPrefix(p.Text, "@types ") {
			for _, e := range strings.Split(strings.TrimRight(p.Text[len("@types "):], "\r\n"), ", ") {
				if d.types == nil {
					d.types = map[string]int{}
				}
				if _, ok := d.types[typeTerm(e)]; !ok {
					d.types[typeTerm(e)] = len(d.types)
				}
			}
		}
	}
	if d.types != nil {
		d.mentions = make([][]int, len(d.parts))
	}
	g := 0
	for i, p := range d.parts {
		if d.types != nil && (p.Kind == Header || p.Kind == Record) {
			nameTokens(p.Text, func(tok string) {
				if t, ok := d.types[tok]; ok && !slices.Contains(d.mentions[i], t) {
					d.mentions[i] = append(d.mentions[i], t)
				}
			})
		}
		switch p.Kind {
		case Head:
			if strings.HasPrefix(p.Text, "@graph") {
				g++
			}
		case Header:
			d.graph[p.Section] = g
			if i, _, ok := rowCount(p.Text); ok {
				d.class[p.Section] = p.Text[:i-1]
			}
		case Record:
			d.inline[i] = inlineClasses(p.Text)
		}
	}
}

// rowCount returns the offsets of the row count N in an ISOLDA table
// header "Class[N]{...}...:" or "Class[N]:" (the class may be an <IRI>
// holding brackets), or ok false when line is not one.
func rowCount(line string) (i, j int, ok bool) {
	if line == "" || strings.ContainsRune("@# ~\r\n", rune(line[0])) {
		return 0, 0, false
	}
	from := 0
	if line[0] == '<' {
		if from = strings.IndexByte(line, '>'); from < 0 {
			return 0, 0, false
		}
	}
	b := strings.IndexByte(line[from:], '[')
	if b < 0 {
		return 0, 0, false
	}
	i = from + b + 1
	j = i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i || j+1 >= len(line) || line[j] != ']' || (line[j+1] != '{' && line[j+1] != ':') {
		return 0, 0, false
	}
	return i, j, true
}

// lowerRowCount lowers the row count N of a table header by drop, to no
// fewer than least; other lines, and a header that loses nothing, are
// returned as they are.
func lowerRowCount(header string, drop, least int) string {
	i, j, ok := rowCount(header)
	if !ok || drop == 0 {
		return header
	}
	n, err := strconv.Atoi(header[i:j])
	if err != nil || n-drop < least {
		n = least
	} else {
		n -= drop
	}
	return header[:i] + strconv.Itoa(n) + header[j:]
}

// inlineClasses returns the class of every inline entity "{...}" in the
// text of a record, as the decoder counts them: the first value of its
// "a" property as written, or "Thing_" without one. Outside JSON strings
// a brace always opens or closes an inline entity (docs/SPEC.md 3.1).
func inlineClasses(text string) []string {
	var out []string
	var open []int // indexes in out of the inline entities open
	start := false // at the start of a property of the innermost one
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			start = false
		case c == '{':
			open = append(open, len(out))
			out = append(out, "Thing_")
			start = true
		case c == '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			start = false
		case c == ',' && len(open) > 0:
			start = true
		case c == ' ' && start:
		case start:
			start = false
			o := open[len(open)-1]
			if out[o] != "Thing_" || !strings.HasPrefix(text[i:], "a: ") {
				break
			}
			v := text[i+3:]
			if strings.HasPrefix(v, "[") { // "[N] x | y": the first value
				if j := strings.Index(v, "] "); j >= 0 {
					v = v[j+2:]
				}
			}
			if j := strings.IndexAny(v, ",}|\n"); j >= 0 {
				v = v[:j]
			}
			out[o] = strings.TrimSpace(v)
		}
	}
	return out
}
