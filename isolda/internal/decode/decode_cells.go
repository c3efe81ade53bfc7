// Decoding cells: terms, IRIs and quoted text, a cell's values, lists,
// entities written in place and nested-column cells.

package decode

import (
	"strconv"
	"strings"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// wholeText reads a whole value (quoted or not) that must fill the rest.
func (d *decoder) wholeText(s string, off int) (string, error) {
	v, _, err := d.oneValue(s, off)
	return v, err
}

// oneValue parses a single value (quoted or not) that fills s.
func (d *decoder) oneValue(s string, off int) (string, bool, error) {
	if s == "" {
		return "", false, d.errAt(off, "expected a value")
	}
	if s[0] == '"' {
		v, n, msg := syntax.Unquote(s)
		if msg != "" {
			return "", false, d.errAt(off+n, "%s", msg)
		}
		if n != len(s) {
			return "", false, d.errAt(off+n, "expected end of value after the closing quote")
		}
		return v, true, nil
	}
	return s, false, nil
}

// expandIRI turns an IRI cell into an IRI.
func (d *decoder) expandIRI(v string, quoted bool) string {
	if quoted {
		return v
	}
	if d.v04 && strings.HasPrefix(v, ":") {
		return d.vocab + v[1:]
	}
	if i := strings.IndexByte(v, ':'); i > 0 {
		if ns, ok := d.prefixes[v[:i]]; ok {
			return ns + v[i+1:]
		}
	}
	return v
}

// angle reads <...> at the start of s (s[0] == '<') as syntax.ScanAngle does; in
// 0.1 and 0.2 a declared prefix name followed by ':' at its start is
// expanded, <ex:member%20of> (SPEC.md section 4, rule 4). The encoder writes
// that ':' as \u003a in an IRI that only looks like one.
func (d *decoder) angle(s string) (string, int, string) {
	iri, n, msg := syntax.ScanAngle(s)
	if msg != "" || d.v03 {
		return iri, n, msg
	}
	if m := syntax.ScanName(s[1:]); m > 0 && 1+m < len(s) && s[1+m] == ':' {
		if ns, ok := d.prefixes[s[1:1+m]]; ok {
			return ns + iri[m+1:], n, ""
		}
	}
	return iri, n, ""
}

// parseTerm reads a term at the start of s: <iri>, pfx:local, alias or
// vocab name. It returns the IRI and the bytes consumed.
func (d *decoder) parseTerm(s string, off int) (string, int, error) {
	if s == "" {
		return "", 0, d.errAt(off, "expected a term")
	}
	if s[0] == '<' {
		iri, n, msg := d.angle(s)
		if msg != "" {
			return "", 0, d.errAt(off+n, "%s", msg)
		}
		return iri, n, nil
	}
	n := syntax.ScanName(s)
	if n == 0 && d.v04 {
		n = syntax.ScanTerm04(s)
	}
	if n == 0 {
		return "", 0, d.errAt(off, "expected a term: a name, pfx:local or <IRI>")
	}
	name := s[:n]
	if ns, ok := d.prefixes[name]; ok && n < len(s) && s[n] == ':' {
		l := syntax.ScanLocal(s[n+1:])
		if l > 0 {
			return ns + s[n+1:n+1+l], n + 1 + l, nil
		}
	}
	if d.v04 {
		// 0.4 bare terms: words separated by single spaces (%20).
		n = syntax.ScanTerm04(s)
		name = s[:n]
	}
	if iri, ok := d.aliases[name]; ok {
		return iri, n, nil
	}
	if d.vocab == "" {
		return "", 0, d.errAt(off, "name %q used without @vocab", name)
	}
	if d.v04 {
		return d.vocab + strings.ReplaceAll(name, " ", "%20"), n, nil
	}
	return d.vocab + name, n, nil
}

// splitTop splits s at unquoted occurrences of sep; it returns the parts and
// their offsets, with ASCII spaces trimmed.
func (d *decoder) splitTop(s string, off int, sep byte) ([]string, []int, error) {
	var parts []string
	var offs []int
	start, depth := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '"':
				_, n, msg := syntax.Unquote(s[i:])
				if msg != "" {
					return nil, nil, d.errAt(off+i+n, "%s", msg)
				}
				i += n - 1
				continue
			case '{':
				depth++
				if d.lim.MaxDepth >= 0 && depth > d.lim.MaxDepth {
					return nil, nil, d.limitAt(off+i, "inline entities nested deeper than %d", d.lim.MaxDepth)
				}
				continue
			case '}':
				depth--
				if depth < 0 {
					return nil, nil, d.errAt(off+i, "'}' without '{'")
				}
				continue
			}
			if depth > 0 {
				continue
			}
		} else if depth > 0 {
			return nil, nil, d.errAt(off+i, "expected '}' to close an inline entity")
		}
		if i == len(s) || s[i] == sep {
			p := s[start:i]
			lead := len(p) - len(strings.TrimLeft(p, " "))
			parts = append(parts, strings.Trim(p, " "))
			offs = append(offs, off+start+lead)
			start = i + 1
		}
	}
	return parts, offs, nil
}

type val struct {
	lang   string // language tag and direction of a p@ value (0.4)
	dir    string
	text   string
	quoted bool
	inline bool // {p: v, ...}
	off    int
	list   *listVal // (N) a | b (0.3)
	angle  bool     // <IRI> item of a list of entities: an IRI, not an id
}

// listVal is a (N) cell: its items and their value class.
type listVal struct {
	col   colSpec
	items []val
}

// splitMulti splits a cell "[N] a | b" into its N values (and their
// offsets), checking the count.
func (d *decoder) splitMulti(s string, off int) ([]string, []int, error) {
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return nil, nil, d.errAt(off, "expected [N] followed by N values")
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil || n < 1 || s[1] == '+' || s[1] == '-' {
		return nil, nil, d.errAt(off+1, "expected a count in [N]")
	}
	if end+1 >= len(s) || s[end+1] != ' ' {
		return nil, nil, d.errAt(off+end+1, "expected a space after [N]")
	}
	parts, offs, err := d.splitTop(s[end+2:], off+end+2, '|')
	if err != nil {
		return nil, nil, err
	}
	if len(parts) != n {
		return nil, nil, d.errAt(off, "[%d] announces %d values but %d follow", n, n, len(parts))
	}
	return parts, offs, nil
}

// parseCell parses a cell: empty, one value, [N] a | b, or (in a link
// column of a 0.3 document) an RDF list (N) a | b.
func (d *decoder) parseCell(s string, off int, link bool) ([]val, error) {
	if s == "" {
		return nil, nil
	}
	if s[0] == '[' {
		parts, offs, err := d.splitMulti(s, off)
		if err != nil {
			return nil, err
		}
		out := make([]val, len(parts))
		for i, p := range parts {
			if p == "" {
				return nil, d.errAt(offs[i], "expected a value in the list")
			}
			if p[0] == '{' || d.inline04(p, link) {
				out[i] = val{text: p, inline: true, off: offs[i]}
				continue
			}
			if p[0] == '(' && d.v03 && link {
				return nil, d.errAt(offs[i], "a list (N) cannot be one of several values")
			}
			v, q, err := d.oneValue(p, offs[i])
			if err != nil {
				return nil, err
			}
			out[i] = val{text: v, quoted: q, off: offs[i]}
		}
		return out, nil
	}
	if s[0] == '{' || d.inline04(s, link) {
		return []val{{text: s, inline: true, off: off}}, nil
	}
	if s[0] == '(' && d.v03 && link {
		lv, err := d.parseList(s, off)
		if err != nil {
			return nil, err
		}
		return []val{{list: lv, off: off}}, nil
	}
	v, q, err := d.oneValue(s, off)
	if err != nil {
		return nil, err
	}
	return []val{{text: v, quoted: q, off: off}}, nil
}

// parseList parses a (N) cell: "(" count [class] ")" then N items
// separated by " | ", where class is :iri, :datatype or @lang (no class:
// the items are entity ids).
func (d *decoder) parseList(s string, off int) (*listVal, error) {
	j := 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(s[1:j])
	if err != nil || n < 1 {
		return nil, d.errAt(off+1, "expected a count in (N)")
	}
	lv := &listVal{col: colSpec{kind: syntax.ClsLink, pred: rdf.RDFFirst}}
	if strings.HasPrefix(s[j:], ":string)") {
		lv.col = colSpec{kind: syntax.ClsPlain, pred: rdf.RDFFirst}
		j += len(":string")
	} else if j < len(s) && s[j] != ')' {
		c, m, err := d.parseSuffix(colSpec{kind: syntax.ClsPlain, pred: rdf.RDFFirst}, s[j:], off+j)
		if err != nil {
			return nil, err
		}
		if m == 0 || c.kind == syntax.ClsLink {
			return nil, d.errAt(off+j, "expected ':iri', ':datatype' or '@lang' after the count of a list")
		}
		lv.col = c
		j += m
	}
	if j >= len(s) || s[j] != ')' {
		return nil, d.errAt(off+j, "expected ')' after the count of a list")
	}
	if j+1 >= len(s) || s[j+1] != ' ' {
		return nil, d.errAt(off+j+1, "expected a space after (N)")
	}
	parts, offs, err := d.splitTop(s[j+2:], off+j+2, '|')
	if err != nil {
		return nil, err
	}
	if len(parts) != n {
		return nil, d.errAt(off, "(%d) announces %d items but %d follow", n, n, len(parts))
	}
	for i, p := range parts {
		if p == "" {
			return nil, d.errAt(offs[i], "expected an item in the list")
		}
		if p[0] == '{' || d.inline04(p, lv.col.kind == syntax.ClsLink) {
			if !d.v04 || lv.col.kind != syntax.ClsLink {
				return nil, d.errAt(offs[i], "a list item is an id or a value, not an inline entity")
			}
			lv.items = append(lv.items, val{text: p, inline: true, off: offs[i]})
			continue
		}
		if p[0] == '<' && lv.col.kind == syntax.ClsLink {
			iri, m, msg := syntax.ScanAngle(p)
			if msg != "" {
				return nil, d.errAt(offs[i]+m, "%s", msg)
			}
			if m != len(p) {
				return nil, d.errAt(offs[i]+m, "expected ' | ' or the end of the list after <IRI>")
			}
			lv.items = append(lv.items, val{text: iri, off: offs[i], angle: true})
			continue
		}
		v, q, err := d.oneValue(p, offs[i])
		if err != nil {
			return nil, err
		}
		lv.items = append(lv.items, val{text: v, quoted: q, off: offs[i]})
	}
	return lv, nil
}

// inlineEntity decodes {p: v, q> w} as a new blank node and counts it for
// its class (its first a value, else Thing_).
func (d *decoder) inlineEntity(text string, off int) (*node, error) {
	n := &node{defined: true}
	if d.v04 && text[0] != '{' {
		// 0.4: the main class before the brace.
		iri, m, err := d.parseTerm(text, off)
		if err != nil {
			return nil, err
		}
		if m >= len(text) || text[m] != '{' {
			return nil, d.errAt(off+m, "expected '{' after the class of a nested entity")
		}
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(iri)}); err != nil {
			return nil, err
		}
		text, off = text[m:], off+m
	}
	if len(text) < 2 || text[len(text)-1] != '}' {
		return nil, d.errAt(off, "expected '}' at the end of the inline entity")
	}
	inner := text[1 : len(text)-1]
	class := ""
	if strings.Trim(inner, " ") != "" {
		props, offs, err := d.splitTop(inner, off+1, ',')
		if err != nil {
			return nil, err
		}
		for i, p := range props {
			if v, ok := strings.CutPrefix(p, "@iri: "); ok && d.v04 && i == 0 {
				// 0.4: a nested IRI entity.
				iri, q, err := d.oneValue(v, offs[i]+6)
				if err != nil {
					return nil, err
				}
				n.hasIRI, n.iri = true, d.expandIRI(iri, q)
				continue
			}
			c, m, err := d.parseSpec(p, offs[i])
			if err != nil {
				return nil, err
			}
			if c.kind == colID || c.kind == colAtIRI {
				return nil, d.errAt(offs[i], "id and @iri cannot be properties of an inline entity")
			}
			rest := p[m:]
			if c.kind == syntax.ClsLink {
				if !strings.HasPrefix(rest, " ") {
					return nil, d.errAt(offs[i]+m, "expected a space after '>'")
				}
				rest, m = rest[1:], m+1
			} else {
				if !strings.HasPrefix(rest, ": ") {
					return nil, d.errAt(offs[i]+m, "expected ': ' after the property")
				}
				rest, m = rest[2:], m+2
			}
			if rest == "" {
				return nil, d.errAt(offs[i]+m, "expected a value")
			}
			vals, err := d.cell(rest, offs[i]+m, c)
			if err != nil {
				return nil, err
			}
			if err := d.addValues(n, c, vals); err != nil {
				return nil, err
			}
			if c.kind == syntax.ClsType && class == "" && len(vals) > 0 {
				// addValues appended the type quads last: the first is the main class.
				class = d.quads[len(d.quads)-len(vals)].o.Value
			}
		}
	}
	if !d.v04 { // 0.4 counts nested entities in no table header
		d.inlineN[class]++
	}
	return n, nil
}

// inline04 reports whether a cell value of a 0.4 link column is a nested
// entity written Class{...}: a bare id never holds a brace.
func (d *decoder) inline04(s string, link bool) bool {
	if !d.v04 || !link || s == "" || s[0] == '"' || s[0] == '(' {
		return false
	}
	if s[0] == '<' {
		// <IRI>{...}: a class written in angle brackets.
		_, n, msg := syntax.ScanAngle(s)
		return msg == "" && n < len(s) && s[n] == '{'
	}
	return strings.IndexByte(s, '{') > 0
}

// cell parses a cell of column c: a p@ cell (0.4) holds values that each
// end with their language, any other cell is read by parseCell.
func (d *decoder) cell(s string, off int, c colSpec) ([]val, error) {
	if c.nest != nil {
		if s == "" {
			return nil, nil
		}
		if s[0] != '{' || s[len(s)-1] != '}' {
			return nil, d.errAt(off, "expected {values} in a nested column")
		}
		return []val{{text: s, off: off, inline: true}}, nil
	}
	if c.kind != syntax.ClsLangAny {
		return d.parseCell(s, off, c.kind == syntax.ClsLink)
	}
	if s == "" {
		return nil, nil
	}
	parts, offs := []string{s}, []int{off}
	if s[0] == '[' {
		var err error
		if parts, offs, err = d.splitMulti(s, off); err != nil {
			return nil, err
		}
	}
	out := make([]val, len(parts))
	for i, p := range parts {
		v, err := d.langValue(p, offs[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// langValue reads text@tag (the tag after the last '@') or "text"@tag,
// with an optional --ltr or --rtl after the tag.
func (d *decoder) langValue(p string, off int) (val, error) {
	var text, rest string
	if strings.HasPrefix(p, `"`) {
		t, n, msg := syntax.Unquote(p)
		if msg != "" {
			return val{}, d.errAt(off+n, "%s", msg)
		}
		text, rest = t, p[n:]
		if !strings.HasPrefix(rest, "@") {
			return val{}, d.errAt(off+n, "expected @ and a language tag after the quoted value")
		}
		rest = rest[1:]
	} else {
		i := strings.LastIndexByte(p, '@')
		if i <= 0 {
			return val{}, d.errAt(off, "expected a value followed by @ and its language tag")
		}
		text, rest = p[:i], p[i+1:]
	}
	v := val{text: text, off: off}
	tag := rest
	if l, dir, ok := strings.Cut(tag, "--"); ok {
		if dir != "ltr" && dir != "rtl" {
			return val{}, d.errAt(off+len(p)-len(rest), "expected --ltr or --rtl after the language tag")
		}
		tag, v.dir = l, dir
	}
	if !syntax.ValidLang(tag) {
		return val{}, d.errAt(off+len(p)-len(rest), "expected a language tag after '@'")
	}
	v.lang = tag
	return v, nil
}

// nestCell decodes a cell {v1, v2} of a nested column: a new blank node
// (or IRI node, with @iri) with the column's class, its values by
// position and its constants.
func (d *decoder) nestCell(ns *nestSpec, text string, off int) (*node, error) {
	n := &node{defined: true}
	parts, offs := []string{}, []int{}
	if inner := text[1 : len(text)-1]; strings.Trim(inner, " ") != "" || len(ns.subs)+b2i(ns.iri) > 0 {
		var err error
		if parts, offs, err = d.splitTop(inner, off+1, ','); err != nil {
			return nil, err
		}
	}
	want := len(ns.subs) + b2i(ns.iri)
	if len(parts) != want {
		return nil, d.errAt(off, "expected %d values in the nested cell, found %d", want, len(parts))
	}
	if ns.iri {
		if parts[0] != "" {
			v, q, err := d.oneValue(parts[0], offs[0])
			if err != nil {
				return nil, err
			}
			n.hasIRI, n.iri = true, d.expandIRI(v, q)
		}
		parts, offs = parts[1:], offs[1:]
	}
	if ns.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(ns.class)}); err != nil {
			return nil, err
		}
	}
	for i, c := range ns.subs {
		if err := d.addCell(n, c, parts[i], offs[i]); err != nil {
			return nil, err
		}
	}
	if err := d.addConstants(n, ns.consts); err != nil {
		return nil, err
	}
	return n, nil
}

// matchBrace returns the index of the '}' that closes the '{' at s[i],
// skipping JSON strings and <IRI>s, or -1.
func matchBrace(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				i += j
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
