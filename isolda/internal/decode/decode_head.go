// Decoding headers: the version line, directives, section headers and table
// headers with their column specs.

package decode

import (
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// setVersion sets the notation version v (false if v is none). 0.4
// predeclares the well-known prefixes.
func (d *decoder) setVersion(v string) bool {
	switch v {
	case syntax.V01:
		d.v02, d.v03, d.v04 = false, false, false
	case syntax.V02:
		d.v02, d.v03, d.v04 = true, false, false
	case syntax.V03:
		d.v02, d.v03, d.v04 = true, true, false
	case syntax.V04:
		d.v02, d.v03, d.v04 = true, true, true
		for _, p := range syntax.WellKnown04() {
			if _, ok := d.prefixes[p[0]]; !ok {
				d.prefixes[p[0]] = p[1]
			}
		}
	default:
		return false
	}
	return true
}

func (d *decoder) directive(s string) error {
	word, rest, _ := strings.Cut(s, " ")
	off := len(word) + 1
	switch word {
	case "@vocab":
		v, err := d.wholeText(rest, off)
		if err != nil {
			return err
		}
		d.vocab = v
	case "@prefix":
		n := syntax.ScanName(rest)
		if n == 0 || n >= len(rest) || rest[n] != ':' {
			return d.errAt(off, "expected a prefix name followed by ':'")
		}
		name := rest[:n]
		v, err := d.wholeText(strings.TrimLeft(rest[n+1:], " "), off+n+1+(len(rest[n+1:])-len(strings.TrimLeft(rest[n+1:], " "))))
		if err != nil {
			return err
		}
		d.prefixes[name] = v
	case "@term":
		name, val, ok := strings.Cut(rest, " = ")
		if !ok || !syntax.IsName(name) {
			return d.errAt(off, "expected @term name = term")
		}
		iri, n, err := d.parseTerm(val, off+len(name)+3)
		if err != nil {
			return err
		}
		if n != len(val) {
			return d.errAt(off+len(name)+3+n, "expected end of line after the term")
		}
		d.aliases[name] = iri
	case "@types":
		// Redundant with the tables: ignored.
	case "@isolda":
		if !d.setVersion(rest) {
			return d.errAt(off, "expected @isolda 0.1, 0.2, 0.3 or 0.4")
		}
	case "@graph":
		if err := d.endGraph(); err != nil {
			return err
		}
		if strings.HasPrefix(rest, "_:") {
			id, err := d.wholeText(rest[2:], off+2)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.Term{}, d.ref(id)
			d.secGraph, d.secGraphN = d.graph, d.graphN
		} else {
			v, quoted, err := d.oneValue(rest, off)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.NewIRI(d.expandIRI(v, quoted)), nil
			d.secGraph, d.secGraphN = d.graph, d.graphN
		}
	default:
		return d.errAt(0, "expected a directive: @vocab, @prefix, @term, @types, @graph or @isolda")
	}
	return nil
}

func (d *decoder) sectionHeader(s string) error {
	if !strings.HasSuffix(s, ":") {
		return d.errAt(len(s), "expected ':' at the end of the table header")
	}
	s = s[:len(s)-1]
	d.text = d.text[:len(s)]
	h, err := d.parseHeader(s, 0, false)
	if err != nil {
		return err
	}
	d.class, d.hasClass = h.class, h.hasClass
	if h.blocks {
		d.state, d.want, d.got, d.headLine, d.block = stBlocks, h.want, 0, d.line, nil
		return nil
	}
	d.cols = append(d.cols[:0], h.cols...)
	d.consts = append(d.consts[:0], h.consts...)
	d.state, d.want, d.got, d.headLine, d.block = stTable, h.want, 0, d.line, nil
	return nil
}

// tableHeader is a parsed table header: Type[N]{columns} constants.
type tableHeader struct {
	class    string
	hasClass bool
	want     int
	blocks   bool // Type[N] without columns: a blocks section
	cols     []colSpec
	consts   []constant
}

// parseHeader parses a table header without its final ':'; base is the
// offset of s in the line. A nested table (0.4) has no id column: its
// first column is a property.
func (d *decoder) parseHeader(s string, base int, nested bool) (tableHeader, error) {
	var h tableHeader
	pos := 0
	if strings.HasPrefix(s, "Thing_[") {
		pos = len("Thing_")
	} else {
		iri, n, err := d.parseTerm(s, base)
		if err != nil {
			return h, err
		}
		h.class, h.hasClass = iri, true
		pos = n
	}
	if pos >= len(s) || s[pos] != '[' {
		return h, d.errAt(base+pos, "expected [N] after the type")
	}
	end := strings.IndexByte(s[pos:], ']')
	if end < 0 {
		return h, d.errAt(base+pos, "expected ']'")
	}
	n, err := strconv.Atoi(s[pos+1 : pos+end])
	if err != nil || n < 0 || s[pos+1] == '+' || s[pos+1] == '-' {
		return h, d.errAt(base+pos+1, "expected the number of rows in [N]")
	}
	h.want = n
	pos += end + 1
	if pos == len(s) && !nested {
		h.blocks = true
		return h, nil
	}
	if pos >= len(s) || s[pos] != '{' {
		return h, d.errAt(base+pos, "expected '{' and the columns")
	}
	pos++
	for !(nested && pos < len(s) && s[pos] == '}' && len(h.cols) == 0) {
		c, m, err := d.parseSpec(s[pos:], base+pos)
		if err != nil {
			return h, err
		}
		if c.kind == syntax.ClsLink && d.v04 && strings.HasPrefix(s[pos+m:], " ") {
			// A nested column: p> Class{a, b}.
			ns, k, err := d.parseNestSpec(s[pos+m+1:], base+pos+m+1)
			if err != nil {
				return h, err
			}
			c.nest = ns
			m += 1 + k
		}
		switch {
		case nested && (c.kind == colID || c.kind == colGraph):
			return h, d.errAt(base+pos, "a nested table has no id or @graph column")
		case nested && c.kind == colAtIRI && len(h.cols) > 0:
			return h, d.errAt(base+pos, "@iri can only be the first column of a nested table")
		case c.kind == colGraph && (len(h.cols) == 0 || slices.ContainsFunc(h.cols, func(x colSpec) bool { return x.kind == colGraph })):
			return h, d.errAt(base+pos, "@graph is a column after the first, once")
		case len(h.cols) == 0 && !nested:
			if c.kind != colID && c.kind != colAtIRI && c.kind != syntax.ClsPlain && c.kind != syntax.ClsLang {
				return h, d.errAt(base+pos, "expected id, @iri or a label column as the first column")
			}
		case c.kind == colID:
			return h, d.errAt(base+pos, "id can only be the first column")
		case c.kind == colAtIRI && len(h.cols) > 0 && h.cols[0].kind == colAtIRI:
			return h, d.errAt(base+pos, "@iri is already the first column")
		}
		h.cols = append(h.cols, c)
		pos += m
		if pos < len(s) && s[pos] == '}' {
			break
		}
		if !strings.HasPrefix(s[pos:], ", ") {
			return h, d.errAt(base+pos, "expected ', ' or '}' in the column list")
		}
		pos += 2
	}
	pos++
	if pos < len(s) {
		if s[pos] != ' ' {
			return h, d.errAt(base+pos, "expected ':' or constants after '}'")
		}
		pos++
		parts, offs, err := d.splitTop(s[pos:], base+pos, ',')
		if err != nil {
			return h, err
		}
		for i, p := range parts {
			c, m, err := d.parseSpec(p, offs[i])
			if err != nil {
				return h, err
			}
			if c.kind == colID || c.kind == colAtIRI || c.kind == colGraph {
				return h, d.errAt(offs[i], "id, @iri and @graph cannot be constants")
			}
			if m >= len(p) || p[m] != '=' {
				return h, d.errAt(offs[i]+m, "expected '=' after the constant's property")
			}
			vals, err := d.cell(p[m+1:], offs[i]+m+1, c)
			if err != nil {
				return h, err
			}
			if len(vals) == 0 {
				return h, d.errAt(offs[i]+m+1, "expected a constant value")
			}
			h.consts = append(h.consts, constant{c, vals})
		}
	}
	return h, nil
}

// parseSpec reads a column spec: id, @iri, a, or a term with its suffix.
func (d *decoder) parseSpec(s string, off int) (colSpec, int, error) {
	delim := func(i int) bool { return i >= len(s) || strings.IndexByte(",}= :", s[i]) >= 0 }
	switch {
	case d.v04 && strings.HasPrefix(s, "@graph") && delim(6):
		return colSpec{kind: colGraph}, 6, nil
	case strings.HasPrefix(s, "@iri") && delim(4):
		return colSpec{kind: colAtIRI}, 4, nil
	case strings.HasPrefix(s, "id") && delim(2) && (len(s) == 2 || s[2] != ':'):
		return colSpec{kind: colID}, 2, nil
	case strings.HasPrefix(s, "a") && delim(1):
		return colSpec{kind: syntax.ClsType, pred: rdf.RDFType}, 1, nil
	}
	iri, n, err := d.parseTerm(s, off)
	if err != nil {
		return colSpec{}, 0, err
	}
	c, m, err := d.parseSuffix(colSpec{kind: syntax.ClsPlain, pred: iri}, s[n:], off+n)
	return c, n + m, err
}

// parseSuffix reads the value-class suffix at the start of s (>, @lang,
// :iri, :datatype) and returns the column and the bytes consumed (0 when
// there is none, or for the ": " of a block key).
func (d *decoder) parseSuffix(c colSpec, s string, off int) (colSpec, int, error) {
	n := 0
	if len(s) == 0 {
		return c, 0, nil
	}
	switch s[n] {
	case '>':
		c.kind = syntax.ClsLink
		n++
	case '@':
		j := n + 1
		for j < len(s) && (s[j] == '-' || syntax.IsNameChar(s[j])) && s[j] != '_' {
			j++
		}
		tag := s[n+1 : j]
		if tag == "" && d.v04 {
			c.kind = syntax.ClsLangAny // p@: each value carries its language
			n = j
			break
		}
		if l, dir, ok := strings.Cut(tag, "--"); ok {
			if dir != "ltr" && dir != "rtl" {
				return c, 0, d.errAt(off+n, "expected --ltr or --rtl after the language tag")
			}
			tag, c.dir = l, dir
		}
		if !syntax.ValidLang(tag) {
			return c, 0, d.errAt(off+n+1, "expected a language tag after '@'")
		}
		c.kind, c.lang = syntax.ClsLang, tag
		n = j
	case ':':
		rest := s[n+1:]
		if rest == "" || rest[0] == ' ' {
			return c, n, nil // a block key "p: value"
		}
		if strings.HasPrefix(rest, "iri") && (len(rest) == 3 || strings.IndexByte(",}=: )", rest[3]) >= 0) {
			c.kind = syntax.ClsIRI
			return c, n + 4, nil
		}
		if rest[0] == '<' {
			dt, m, msg := d.angle(rest)
			if msg != "" {
				return c, 0, d.errAt(off+n+1+m, "%s", msg)
			}
			c.kind, c.dt = syntax.ClsTyped, dt
			return c, n + 1 + m, nil
		}
		m := syntax.ScanName(rest)
		if m == 0 {
			return c, 0, d.errAt(off+n+1, "expected a datatype after ':' (int, date, pfx:local, <IRI>) or iri")
		}
		name := rest[:m]
		if ns, ok := d.prefixes[name]; ok && m < len(rest) && rest[m] == ':' {
			if l := syntax.ScanLocal(rest[m+1:]); l > 0 {
				c.kind, c.dt = syntax.ClsTyped, ns+rest[m+1:m+1+l]
				return c, n + 1 + m + 1 + l, nil
			}
		}
		if dt := syntax.ShortIRI(name); dt != "" {
			c.kind, c.dt = syntax.ClsTyped, dt
			return c, n + 1 + m, nil
		}
		return c, 0, d.errAt(off+n+1, "unknown datatype %q: expected int, decimal, double, bool, date, dateTime, pfx:local or <IRI>", name)
	}
	return c, n, nil
}

// parseNestSpec parses the nested part of a column header, " Class{a, b=v}"
// without its leading space, and returns it and the bytes consumed.
func (d *decoder) parseNestSpec(s string, off int) (*nestSpec, int, error) {
	ns := &nestSpec{}
	pos := 0
	if !strings.HasPrefix(s, "{") {
		iri, n, err := d.parseTerm(s, off)
		if err != nil {
			return nil, 0, err
		}
		ns.class, ns.hasClass, pos = iri, true, n
	}
	if pos >= len(s) || s[pos] != '{' {
		return nil, 0, d.errAt(off+pos, "expected '{' and the properties of a nested column")
	}
	end := matchBrace(s, pos)
	if end < 0 {
		return nil, 0, d.errAt(off+pos, "expected '}' to close the nested column")
	}
	parts, offs, err := d.splitTop(s[pos+1:end], off+pos+1, ',')
	if err != nil {
		return nil, 0, err
	}
	for i, p := range parts {
		if p == "" && len(parts) == 1 {
			break
		}
		if p == "@iri" && i == 0 {
			ns.iri = true
			continue
		}
		c, m, err := d.parseSpec(p, offs[i])
		if err != nil {
			return nil, 0, err
		}
		if c.kind == colID || c.kind == colAtIRI || c.kind == colGraph {
			return nil, 0, d.errAt(offs[i], "id, @iri and @graph cannot be properties of a nested column")
		}
		switch {
		case m == len(p):
			ns.subs = append(ns.subs, c)
		case p[m] == '=':
			vals, err := d.cell(p[m+1:], offs[i]+m+1, c)
			if err != nil {
				return nil, 0, err
			}
			if len(vals) == 0 {
				return nil, 0, d.errAt(offs[i]+m+1, "expected a constant value")
			}
			ns.consts = append(ns.consts, constant{c, vals})
		default:
			return nil, 0, d.errAt(offs[i]+m, "expected ',' or '=' after a property of a nested column")
		}
	}
	return ns, end + 1, nil
}

// nestedHeader reports whether the value of a link property line is the
// header of a nested table, Type[N]{...: a bare id never holds a brace.
func nestedHeader(v string) bool {
	if v == "" || v[0] == '"' || v[0] == '[' || v[0] == '(' || v[0] == '{' {
		return false
	}
	i := strings.IndexByte(v, '{')
	return i > 0 && v[i-1] == ']' && strings.IndexByte(v[:i], '[') > 0
}
