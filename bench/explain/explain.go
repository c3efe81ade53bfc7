// Package explain attributes the tokens of an ISOLDA document to the
// constructs of the notation (glossary, directives, table headers, ids,
// links, literals, separators ...): the breakdown `isolda bench --explain`
// prints, one column per tokenizer, to show where a format's tokens go.
package explain

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/token"
)

// Constructs of an ISOLDA document that Explain counts apart, in the order
// of its table.
const (
	ConstructGlossary  = "glossary"       // the # lines
	ConstructPrefix    = "@vocab/@prefix" // namespace directives
	ConstructTerm      = "@term"          // alias directives
	ConstructTypes     = "@types"         // the class counts
	ConstructGraph     = "@graph"         // named graph lines
	ConstructHeader    = "table header"   // Type[N]{...}: lines, constants included
	ConstructID        = "entity id"      // first cells and id lines (labels used as ids included)
	ConstructIRI       = "@iri cell"      // the entity's IRI
	ConstructLink      = "link value"     // ids written in link cells
	ConstructIRIValue  = "IRI value"      // IRIs that are not entities
	ConstructLiteral   = "literal value"  // text, numbers, dates
	ConstructNested    = "nested entity"  // {p: v} and nested rows of blank nodes
	ConstructList      = "list syntax"    // [N], (N), the | between values
	ConstructKey       = "property key"   // p: and p> before a value on a property line
	ConstructSeparator = "separators"     // commas, indentation, empty cells, line breaks
	ConstructSection   = "section marker" // ~extra:, ~in:
)

// constructOrder is the order of Explain's parts.
var constructOrder = []string{ConstructGlossary, ConstructPrefix, ConstructTerm, ConstructTypes, ConstructGraph,
	ConstructHeader, ConstructID, ConstructIRI, ConstructLink, ConstructIRIValue, ConstructLiteral, ConstructNested,
	ConstructList, ConstructKey, ConstructSeparator, ConstructSection}

// ExplainPart is the share of one construct in a document.
type ExplainPart struct {
	Construct string `json:"construct"`
	// Tokens is the number of tokens attributed to the construct.
	Tokens int `json:"tokens"`
	// Bytes is the number of UTF-8 bytes of the construct.
	Bytes int `json:"bytes"`
}

// Explanation is the per-construct token breakdown of one ISOLDA document.
type Explanation struct {
	Tokenizer string `json:"tokenizer"`
	// Total is the token count of the whole document.
	Total int `json:"total"`
	// Parts sum to Total: each line is counted alone, its pieces (cells,
	// keys, values) alone, and what the pieces do not account for
	// (commas, indentation, line breaks; the difference between counting
	// lines alone and the whole text) goes to separators.
	Parts []ExplainPart `json:"parts"`
}

// Tokens returns the tokens of construct c (0 when the document has none).
func (e Explanation) Tokens(c string) int {
	for _, p := range e.Parts {
		if p.Construct == c {
			return p.Tokens
		}
	}
	return 0
}

// Explain breaks the tokens of an ISOLDA document (any version) down by
// construct: glossary, directives, table headers, ids, @iri cells, link,
// IRI and literal values, nested entities, list syntax, property keys and
// separators. It reads the text as the decoder's grammar does (docs/SPEC.md
// sections 2 and 3) but never fails: a line it does not recognise counts as
// separators.
func Explain(doc string, tok token.Tokenizer) Explanation {
	ex := &explainer{tok: tok, tokens: map[string]int{}, bytes: map[string]int{}}
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	sum := 0
	for _, l := range lines {
		sum += ex.line(l)
	}
	total := tok.Count(doc)
	// Lines counted alone miss or add the odd token at line breaks.
	ex.tokens[ConstructSeparator] += total - sum
	out := Explanation{Tokenizer: tok.Name(), Total: total}
	for _, c := range constructOrder {
		if ex.tokens[c] != 0 || ex.bytes[c] != 0 {
			out.Parts = append(out.Parts, ExplainPart{Construct: c, Tokens: ex.tokens[c], Bytes: ex.bytes[c]})
		}
	}
	return out
}

// explainer accumulates counts; cols are the value kinds of the current
// table's columns.
type explainer struct {
	tok    token.Tokenizer
	tokens map[string]int
	bytes  map[string]int
	cols   []string
	// nest are the indentations of the rows of the open nested tables
	// (0.4), innermost last.
	nest []int
}

// add counts s for construct c alone and returns its tokens.
func (ex *explainer) add(c, s string) int {
	if s == "" {
		return 0
	}
	n := ex.tok.Count(s)
	ex.tokens[c] += n
	ex.bytes[c] += len(s)
	return n
}

// line counts one line (with its line break) and returns its tokens.
func (ex *explainer) line(l string) int {
	total := ex.tok.Count(l + "\n")
	used := 0
	switch {
	case strings.TrimSpace(l) == "":
	case strings.HasPrefix(l, "#"):
		used = ex.add(ConstructGlossary, l)
	case strings.HasPrefix(l, "@term "):
		used = ex.add(ConstructTerm, l)
	case strings.HasPrefix(l, "@types "):
		used = ex.add(ConstructTypes, l)
	case strings.HasPrefix(l, "@graph "):
		used = ex.add(ConstructGraph, l)
	case strings.HasPrefix(l, "@"):
		used = ex.add(ConstructPrefix, l)
	case strings.HasPrefix(l, "~"):
		used = ex.add(ConstructSection, l)
		ex.cols = nil
	case strings.HasPrefix(l, "    "):
		k := len(l) - len(strings.TrimLeft(l, " "))
		for len(ex.nest) > 0 && ex.nest[len(ex.nest)-1] > k {
			ex.nest = ex.nest[:len(ex.nest)-1]
		}
		if len(ex.nest) > 0 && ex.nest[len(ex.nest)-1] == k {
			// A row of a nested table: its values are a nested entity's.
			for _, c := range splitTop(l[k:], ',', 0) {
				used += ex.add(ConstructNested, strings.TrimSpace(c))
			}
			break
		}
		used = ex.property(l[k:], k)
	case strings.HasPrefix(l, "  "):
		ex.nest = ex.nest[:0]
		used = ex.row(l[2:])
	default:
		used = ex.add(ConstructHeader, l)
		ex.cols = headerKinds(l)
		ex.nest = ex.nest[:0]
	}
	ex.tokens[ConstructSeparator] += total - used
	return total
}

// Value kinds of columns.
const (
	kindID      = "id"
	kindIRI     = "iri"
	kindLink    = "link"
	kindIRIVal  = "iriv"
	kindLiteral = "lit"
)

// headerKinds returns the value kind of each column of a table header, or
// nil for a blocks header (Type[N]:).
func headerKinds(h string) []string {
	open := strings.IndexByte(h, '{')
	if open < 0 {
		return nil
	}
	cols := splitTop(h[open+1:], ',', '}')
	kinds := make([]string, len(cols))
	for i, c := range cols {
		kinds[i] = specKind(strings.TrimSpace(c))
	}
	if len(kinds) > 0 {
		kinds[0] = kindID
	}
	for i, c := range cols {
		if strings.TrimSpace(c) == "@iri" {
			kinds[i] = kindIRI
		}
	}
	return kinds
}

// specKind is the value kind of a column spec or property key.
func specKind(spec string) string {
	switch {
	case spec == "@iri":
		return kindIRI
	case strings.HasSuffix(spec, ">"):
		return kindLink
	case strings.HasSuffix(spec, ":iri"):
		return kindIRIVal
	}
	return kindLiteral
}

// row counts a table row or an id line of ~extra or a blocks section.
func (ex *explainer) row(s string) int {
	if ex.cols == nil || strings.HasSuffix(s, ":") && !strings.Contains(s, ", ") {
		return ex.add(ConstructID, s)
	}
	cells := splitTop(s, ',', 0)
	used := 0
	for i, c := range cells {
		kind := kindLiteral
		if i < len(ex.cols) {
			kind = ex.cols[i]
		}
		used += ex.cell(strings.TrimSpace(c), kind)
	}
	return used
}

// property counts a property line indented by k spaces: key, then value;
// a link key followed by Class[N]{...}: is the header of a nested table
// (0.4), whose rows follow indented by k+2.
func (ex *explainer) property(s string, k int) int {
	if v, ok := strings.CutPrefix(s, "@iri: "); ok {
		return ex.add(ConstructKey, "@iri:") + ex.cell(v, kindIRI)
	}
	// The key ends at the first "> " or ": " outside <...>.
	depth := 0
	for i := 0; i < len(s)-1; i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if depth > 0 {
				depth--
				continue
			}
			if s[i+1] == ' ' {
				if v := s[i+2:]; nestedHeader(v) {
					ex.nest = append(ex.nest, k+2)
					return ex.add(ConstructKey, s[:i+1]) + ex.add(ConstructHeader, v)
				}
				return ex.add(ConstructKey, s[:i+1]) + ex.cell(s[i+2:], kindLink)
			}
		case ':':
			if depth == 0 && s[i+1] == ' ' {
				return ex.add(ConstructKey, s[:i+1]) + ex.cell(s[i+2:], specKind(s[:i]))
			}
		}
	}
	return ex.add(ConstructKey, s)
}

// nestedHeader reports whether the value of a link property line is the
// header of a nested table, Class[N]{...}: (an id never holds a bare
// brace).
func nestedHeader(v string) bool {
	if v == "" || strings.IndexByte("\"[({", v[0]) >= 0 || !strings.HasSuffix(v, ":") {
		return false
	}
	i := strings.IndexByte(v, '{')
	return i > 0 && v[i-1] == ']' && strings.IndexByte(v[:i], '[') > 0
}

// cell counts one cell: a value, a [N] or (N) list, or a nested entity.
func (ex *explainer) cell(c, kind string) int {
	if c == "" {
		return 0
	}
	construct := map[string]string{kindID: ConstructID, kindIRI: ConstructIRI, kindLink: ConstructLink,
		kindIRIVal: ConstructIRIValue, kindLiteral: ConstructLiteral}[kind]
	if kind == kindLink && c[0] != '"' && strings.IndexByte(c, '{') >= 0 && !strings.HasPrefix(c, "[") && !strings.HasPrefix(c, "(") {
		return ex.add(ConstructNested, c) // Class{...}: a nested entity
	}
	switch c[0] {
	case '{':
		return ex.add(ConstructNested, c)
	case '[', '(':
		if kind == kindID || kind == kindIRI {
			break
		}
		end := strings.IndexByte(c, ' ')
		if end < 0 || (c[0] == '[' && !strings.HasSuffix(c[:end], "]")) || (c[0] == '(' && (kind != kindLink || !strings.HasSuffix(c[:end], ")"))) {
			break
		}
		used := ex.add(ConstructList, c[:end])
		items := splitTop(c[end+1:], '|', 0)
		for i, it := range items {
			if i > 0 {
				used += ex.add(ConstructList, "|")
			}
			used += ex.cell(strings.TrimSpace(it), kind)
		}
		return used
	}
	return ex.add(construct, c)
}

// splitTop splits s at sep outside JSON strings, <...> and {...}; it stops
// at stop (when not 0) outside them.
func splitTop(s string, sep, stop byte) []string {
	var out []string
	start, depth, angle := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '<' && depth == 0:
			angle = true
		case c == '>' && angle:
			angle = false
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case depth == 0 && !angle && c == stop && stop != 0:
			return append(out, s[start:i])
		case depth == 0 && !angle && c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// WriteExplanations writes the breakdowns of one document (one per
// tokenizer) as a table: construct, then tokens and share per tokenizer.
func WriteExplanations(w io.Writer, title string, exs []Explanation) error {
	if len(exs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%s\n", title); err != nil {
		return err
	}
	head := fmt.Sprintf("  %-16s", "construct")
	for _, e := range exs {
		head += fmt.Sprintf(" %12s %6s", e.Tokenizer, "share")
	}
	fmt.Fprintln(w, strings.TrimRight(head, " "))
	var names []string
	for _, e := range exs {
		for _, p := range e.Parts {
			if !slices.Contains(names, p.Construct) {
				names = append(names, p.Construct)
			}
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return slices.Index(constructOrder, a) - slices.Index(constructOrder, b)
	})
	for _, name := range names {
		line := fmt.Sprintf("  %-16s", name)
		for _, e := range exs {
			n := 0
			for _, p := range e.Parts {
				if p.Construct == name {
					n = p.Tokens
				}
			}
			line += fmt.Sprintf(" %12d %5.1f%%", n, 100*float64(n)/float64(max(e.Total, 1)))
		}
		fmt.Fprintln(w, line)
	}
	line := fmt.Sprintf("  %-16s", "total")
	for _, e := range exs {
		line += fmt.Sprintf(" %12d %5.1f%%", e.Total, 100.0)
	}
	fmt.Fprintln(w, line)
	// The body: what a document costs when its glossary is sent apart.
	line = fmt.Sprintf("  %-16s", "body")
	for _, e := range exs {
		b := e.Total - e.Tokens(ConstructGlossary)
		line += fmt.Sprintf(" %12d %5.1f%%", b, 100*float64(b)/float64(max(e.Total, 1)))
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// AddExplanations adds the breakdowns b to the running sums acc (one per
// tokenizer, in the same order) and returns the sums.
func AddExplanations(acc, b []Explanation) []Explanation {
	if acc == nil {
		acc = make([]Explanation, len(b))
		for i := range b {
			acc[i].Tokenizer = b[i].Tokenizer
		}
	}
	for i := range b {
		acc[i].Total += b[i].Total
		for _, p := range b[i].Parts {
			j := slices.IndexFunc(acc[i].Parts, func(q ExplainPart) bool { return q.Construct == p.Construct })
			if j < 0 {
				acc[i].Parts = append(acc[i].Parts, ExplainPart{Construct: p.Construct})
				j = len(acc[i].Parts) - 1
			}
			acc[i].Parts[j].Tokens += p.Tokens
			acc[i].Parts[j].Bytes += p.Bytes
		}
	}
	return acc
}
