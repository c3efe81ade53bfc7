package baseline

import (
	"bufio"
	"io"
	"regexp"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// ttlWriter writes the layout as Turtle (TriG when there are named graphs),
// optionally with label comments.
type ttlWriter struct {
	l       *layout
	ids     bool
	ns      []rdf.Prefix // usable prefixes, @vocab first
	index   nsIndex
	shared  map[rdf.Term]bool
	emitted map[rdf.Term]bool
	g       *graphPart
	cut     []rdf.Term
}

// tline is one output line and the label comment that ends it.
type tline struct{ text, comment string }

var (
	reInteger = regexp.MustCompile(`^[+-]?[0-9]+$`)
	reDecimal = regexp.MustCompile(`^[+-]?[0-9]*\.[0-9]+$`)
)

func writeTurtle(w io.Writer, d *rdf.Dataset, ids bool) error {
	l, err := newLayout(d)
	if err != nil {
		return err
	}
	t := &ttlWriter{l: l, ids: ids, shared: blankScope(l), emitted: map[rdf.Term]bool{}}
	if l.vocab != "" {
		t.ns = append(t.ns, rdf.Prefix{Name: "", IRI: l.vocab})
	}
	for _, p := range l.prefixes {
		if turtlePrefixName(p.Name) {
			t.ns = append(t.ns, p)
		}
	}
	bw := bufio.NewWriter(w)
	for _, p := range t.ns {
		bw.WriteString("@prefix " + p.Name + ": " + iriRef(p.IRI) + " .\n")
	}
	// The empty prefix (@vocab) wins over a prefix of the same namespace.
	t.index = nsIndex{}
	for i := len(t.ns) - 1; i >= 0; i-- {
		t.index[t.ns[i].IRI] = t.ns[i].Name
	}
	for _, g := range l.graphs {
		t.g = g
		t.cut = t.cut[:0]
		clear(t.emitted)
		bw.WriteString("\n")
		if !g.name.IsZero() {
			bw.WriteString("GRAPH " + t.term(g.name) + " {\n")
		}
		first := true
		emit := func(s rdf.Term) {
			if !first {
				bw.WriteString("\n")
			}
			first = false
			t.writeStatement(bw, s)
		}
		for _, s := range g.subjects {
			if !t.emitted[s] && !t.nestable(s) {
				emit(s)
			}
		}
		// emitCut emits the nodes cut by the nesting limit so far.
		emitCut := func() {
			for len(t.cut) > 0 {
				c := t.cut[0]
				t.cut = t.cut[1:]
				if !t.emitted[c] {
					emit(c)
				}
			}
		}
		// Nodes cut by the nesting limit, then nodes on cycles of nestable
		// blank nodes, which no root reaches.
		emitCut()
		for _, s := range g.subjects {
			if !t.emitted[s] {
				emit(s)
				emitCut()
			}
		}
		if !g.name.IsZero() {
			bw.WriteString("}\n")
		}
	}
	return bw.Flush()
}

// writeStatement writes the top-level statement of subject s.
func (t *ttlWriter) writeStatement(bw *bufio.Writer, s rdf.Term) {
	lines := t.block(s, 0)
	lines[0].text = t.term(s) + " " + strings.TrimLeft(lines[0].text, " ")
	lines[len(lines)-1].text += " ."
	for _, ln := range lines {
		bw.WriteString(ln.text)
		if t.ids && ln.comment != "" {
			bw.WriteString("  # ")
			bw.WriteString(ln.comment)
		}
		bw.WriteByte('\n')
	}
}

// nestable reports whether the blank node o can be written as [ ... ] where
// it is referenced: it is referenced once, in this graph only, and has not
// been written yet.
func (t *ttlWriter) nestable(o rdf.Term) bool {
	return o.Kind == rdf.BlankKind && !t.shared[o] && t.g.objCount[o] == 1 && !t.emitted[o]
}

// block returns the predicate-object lines of s at the given depth.
func (t *ttlWriter) block(s rdf.Term, depth int) []tline {
	t.emitted[s] = true
	qs := t.g.props[s]
	ind := strings.Repeat("    ", depth+1)
	var out []tline
	for i, q := range qs {
		sameP := i > 0 && qs[i-1].P == q.P
		head := ind + t.pred(q.P) + " "
		if sameP {
			head = ind + "    "
		}
		if i > 0 {
			if sameP {
				out[len(out)-1].text += " ,"
			} else {
				out[len(out)-1].text += " ;"
			}
		}
		_, hasProps := t.g.props[q.O]
		switch {
		case t.nestable(q.O) && !hasProps:
			t.emitted[q.O] = true
			out = append(out, tline{head + "[]", t.label(q.O)})
		case t.nestable(q.O) && depth < maxNest:
			out = append(out, tline{head + "[", t.label(q.O)})
			out = append(out, t.block(q.O, depth+1)...)
			out = append(out, tline{ind + "]", ""})
		default:
			if t.nestable(q.O) {
				t.cut = append(t.cut, q.O)
			}
			out = append(out, tline{head + t.term(q.O), t.label(q.O)})
		}
	}
	return out
}

// label returns the sanitized label comment of a linked node, or "".
func (t *ttlWriter) label(o rdf.Term) string {
	if !t.ids || o.IsLiteral() {
		return ""
	}
	return commentText(t.l.labels[o])
}

// commentText makes s safe inside a Turtle comment, which a line break ends:
// control characters and Unicode line separators become spaces.
func commentText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

func (t *ttlWriter) pred(p rdf.Term) string {
	if p.Value == rdf.RDFType {
		return "a"
	}
	return t.term(p)
}

// term writes an IRI as a prefixed name when it can, else in full.
func (t *ttlWriter) term(x rdf.Term) string {
	switch x.Kind {
	case rdf.IRIKind:
		if name, local, ok := t.index.split(x.Value, turtleLocal); ok {
			return name + ":" + local
		}
		return iriRef(x.Value)
	case rdf.BlankKind:
		return "_:" + x.Value
	case rdf.LiteralKind:
		switch x.Datatype {
		case rdf.XSDString:
			return rdf.QuoteLiteral(x.Value)
		case rdf.RDFLangString, rdf.RDFDirLangString:
			s := rdf.QuoteLiteral(x.Value) + "@" + x.Lang
			if x.Dir != "" {
				s += "--" + x.Dir
			}
			return s
		case rdf.XSDInteger:
			if reInteger.MatchString(x.Value) {
				return x.Value
			}
		case rdf.XSDDecimal:
			if reDecimal.MatchString(x.Value) {
				return x.Value
			}
		case rdf.XSDBoolean:
			if x.Value == "true" || x.Value == "false" {
				return x.Value
			}
		}
		return rdf.QuoteLiteral(x.Value) + "^^" + t.term(rdf.NewIRI(x.Datatype))
	}
	return ""
}

// iriRef writes an IRI in angle brackets. The characters an IRIREF may not
// contain (found only in invalid IRIs kept by lenient readers from messy
// data) are percent-encoded, as rdf/turtle's writer does: the text stays
// valid Turtle, but such an IRI does not read back identical.
func iriRef(iri string) string {
	var b strings.Builder
	b.Grow(len(iri) + 2)
	b.WriteByte('<')
	for i := 0; i < len(iri); i++ {
		c := iri[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("<>\"{}|^`\\", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('>')
	return b.String()
}

// turtleLocal reports whether s can be the local part of a Turtle prefixed
// name without escapes (a conservative ASCII subset of PN_LOCAL).
func turtleLocal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0:
		case c == '.' && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

// turtlePrefixName reports whether s is a valid Turtle PN_PREFIX in the
// ASCII subset ISOLDA's prefix names use.
func turtlePrefixName(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && s[len(s)-1] != '.' && asciiNameChars(s[1:])
}
