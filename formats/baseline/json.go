package baseline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/rdf"
)

// jsonWriter writes the layout as compact JSON-LD with nested node objects.
type jsonWriter struct {
	l       *layout
	ctx     []rdf.Prefix    // the context's prefixes (without @vocab)
	isPfx   map[string]bool // the context's prefix names
	index   nsIndex         // the context's prefixes by namespace
	shared  map[rdf.Term]bool
	emitted map[rdf.Term]bool
	g       *graphPart
	cut     []rdf.Term
	quoted  bytes.Buffer // the text of the last str
}

// obj is a JSON object with ordered members; values are raw (JSON text),
// obj or arr.
type obj []member

// member is one member of an obj.
type member struct {
	key string
	val any
}

// arr is a JSON array.
type arr []any

// raw is JSON text written as is.
type raw string

func writeJSON(w io.Writer, d *rdf.Dataset) error {
	l, err := newLayout(d)
	if err != nil {
		return err
	}
	j := &jsonWriter{l: l, shared: blankScope(l), emitted: map[rdf.Term]bool{}, isPfx: map[string]bool{}}
	// A prefix whose name is the scheme of an IRI of the dataset would turn
	// that IRI into a compact IRI: leave such prefixes out.
	schemes := map[string]bool{}
	for _, g := range l.graphs {
		for _, s := range g.subjects {
			for _, q := range g.props[s] {
				for _, x := range []rdf.Term{q.S, q.P, q.O, q.G} {
					v := x.Value
					if x.IsLiteral() {
						if strings.HasPrefix(x.Datatype, i18nNS) {
							return fmt.Errorf("baseline: b-json cannot write a literal of datatype <%s>: JSON-LD reads it as a directional string", x.Datatype)
						}
						v = x.Datatype
					} else if !x.IsIRI() {
						continue
					}
					if sch, _, ok := strings.Cut(v, ":"); ok {
						schemes[sch] = true
					}
				}
			}
		}
	}
	for _, p := range l.prefixes {
		if p.Name == "" || strings.HasPrefix(p.Name, "_") || strings.HasPrefix(p.Name, "@") || schemes[p.Name] {
			continue
		}
		j.ctx = append(j.ctx, p)
		j.isPfx[p.Name] = true
	}
	j.index = nsIndex{}
	for _, p := range j.ctx {
		j.index[p.IRI] = p.Name
	}

	ctx := obj{}
	if l.vocab != "" {
		ctx = append(ctx, member{"@vocab", j.str(l.vocab)})
	}
	for _, p := range j.ctx {
		ctx = append(ctx, member{p.Name, j.str(p.IRI)})
	}
	var top arr
	for _, g := range l.graphs {
		j.g = g
		j.cut = j.cut[:0]
		clear(j.emitted)
		nodes := j.graphNodes()
		if g.name.IsZero() {
			top = append(top, nodes...)
			continue
		}
		top = append(top, obj{{"@id", j.str(j.id(g.name))}, {"@graph", nodes}})
	}
	doc := obj{{"@context", ctx}}
	if len(top) == 1 {
		doc = append(doc, top[0].(obj)...)
	} else {
		if top == nil {
			top = arr{}
		}
		doc = append(doc, member{"@graph", top})
	}
	bw := bufio.NewWriter(w)
	writeValue(bw, doc, 0)
	bw.WriteByte('\n')
	return bw.Flush()
}

// graphNodes returns the top-level node objects of the current graph.
func (j *jsonWriter) graphNodes() arr {
	nodes := arr{}
	drain := func() {
		for len(j.cut) > 0 {
			c := j.cut[0]
			j.cut = j.cut[1:]
			if !j.emitted[c] {
				nodes = append(nodes, j.node(c, 0, false))
			}
		}
	}
	for _, s := range j.g.subjects {
		if !j.emitted[s] && !j.nestable(s) {
			nodes = append(nodes, j.node(s, 0, false))
		}
	}
	drain()
	for _, s := range j.g.subjects {
		if !j.emitted[s] {
			nodes = append(nodes, j.node(s, 0, false))
			drain()
		}
	}
	return nodes
}

// nestable reports whether node o can be nested where it is referenced: it
// is a subject of this graph referenced once (not as a class), a blank node
// does not occur in another graph, and it has not been written yet.
func (j *jsonWriter) nestable(o rdf.Term) bool {
	if o.IsLiteral() || j.emitted[o] || j.g.objCount[o] != 1 || j.g.classRef[o] != 0 || j.shared[o] {
		return false
	}
	_, ok := j.g.props[o]
	return ok
}

// node returns the node object of s with its properties, nesting the nodes
// referenced only here. A nested blank node has no @id.
func (j *jsonWriter) node(s rdf.Term, depth int, nested bool) obj {
	j.emitted[s] = true
	o := obj{}
	if s.IsIRI() || !nested {
		o = append(o, member{"@id", j.str(j.id(s))})
	}
	qs := j.g.props[s]
	var types arr
	for _, q := range qs {
		if q.P.Value != rdf.RDFType {
			break // rdf:type comes first
		}
		if q.O.IsIRI() {
			types = append(types, j.str(j.vocabTerm(q.O.Value)))
		}
	}
	if len(types) == 1 {
		o = append(o, member{"@type", types[0]})
	} else if len(types) > 1 {
		o = append(o, member{"@type", types})
	}
	for i := 0; i < len(qs); {
		p := qs[i].P
		var vals arr
		for ; i < len(qs) && qs[i].P == p; i++ {
			x := qs[i].O
			if p.Value == rdf.RDFType && x.IsIRI() {
				continue
			}
			vals = append(vals, j.value(x, depth))
		}
		switch len(vals) {
		case 0:
		case 1:
			o = append(o, member{j.vocabTerm(p.Value), vals[0]})
		default:
			o = append(o, member{j.vocabTerm(p.Value), vals})
		}
	}
	return o
}

// value returns the JSON-LD value of an object term.
func (j *jsonWriter) value(x rdf.Term, depth int) any {
	if !x.IsLiteral() {
		if j.nestable(x) {
			if depth < maxNest {
				return j.node(x, depth+1, true)
			}
			j.cut = append(j.cut, x)
		}
		return obj{{"@id", j.str(j.id(x))}}
	}
	switch x.Datatype {
	case rdf.XSDString:
		return j.str(x.Value)
	case rdf.RDFLangString, rdf.RDFDirLangString:
		v := obj{{"@value", j.str(x.Value)}, {"@language", j.str(x.Lang)}}
		if x.Dir != "" {
			v = append(v, member{"@direction", j.str(x.Dir)})
		}
		return v
	case rdf.XSDBoolean:
		if x.Value == "true" || x.Value == "false" {
			return raw(x.Value)
		}
	case rdf.XSDInteger:
		if nativeInteger(x.Value) {
			return raw(x.Value)
		}
	}
	return obj{{"@value", j.str(x.Value)}, {"@type", j.str(j.vocabTerm(x.Datatype))}}
}

// nativeInteger reports whether s is an xsd:integer that a JSON number
// gives back exactly: canonical and at most 15 digits.
func nativeInteger(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 15 || digits[0] == '0' && len(digits) > 1 || s == "-0" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// vocabTerm writes an IRI where JSON-LD expands it against @vocab (keys,
// @type values and datatypes): a bare name of the vocabulary, a compact
// IRI, or the IRI itself.
func (j *jsonWriter) vocabTerm(iri string) string {
	if v := j.l.vocab; v != "" {
		if rest, ok := strings.CutPrefix(iri, v); ok && jsonTerm(rest) && !j.isPfx[rest] {
			return rest
		}
	}
	return j.id(rdf.NewIRI(iri))
}

// id writes a node reference for @id: a compact IRI, the IRI, or _:label.
func (j *jsonWriter) id(x rdf.Term) string {
	if x.Kind == rdf.BlankKind {
		return "_:" + x.Value
	}
	if name, local, ok := j.index.split(x.Value, jsonTerm); ok {
		return name + ":" + local
	}
	return x.Value
}

// jsonTerm reports whether s is safe as a bare term or the suffix of a
// compact IRI: ASCII letters, digits, '_', '-' and '.', not starting with
// '.' or '-'.
func jsonTerm(s string) bool {
	return s != "" && s[0] != '.' && s[0] != '-' && asciiNameChars(s)
}

// asciiNameChars reports whether every byte of s is an ASCII letter, a
// digit, '_', '-' or '.'.
func asciiNameChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// quoting is how b-json quotes a string: only '"', '\\' and control
// characters (DEL included; \b and \f as \u0008 and \u000c) are escaped, so
// the text stays readable, and an invalid byte becomes the escape \ufffd.
func quoting() py.JSONQuoting {
	return py.JSONQuoting{EscapeDEL: true, HexBF: true, EscapeInvalid: true}
}

// str returns s as JSON text (see quoting).
func (j *jsonWriter) str(s string) raw {
	j.quoted.Reset()
	_ = quoting().Write(&j.quoted, s) // a bytes.Buffer does not fail
	return raw(j.quoted.String())
}

// writeValue writes v indented by two spaces per level.
func writeValue(w *bufio.Writer, v any, level int) {
	switch v := v.(type) {
	case raw:
		w.WriteString(string(v))
	case obj:
		writeMembers(w, "{}", len(v), level, func(i int) {
			_ = quoting().Write(w, v[i].key) // w's errors come back from Flush
			w.WriteString(": ")
			writeValue(w, v[i].val, level+1)
		})
	case arr:
		writeMembers(w, "[]", len(v), level, func(i int) { writeValue(w, v[i], level+1) })
	default:
		w.WriteString("null")
	}
}

// writeMembers writes an object or array (brackets "{}" or "[]") of n
// members at level: empty as the two brackets, else one member a line,
// each written by member at level+1.
func writeMembers(w *bufio.Writer, brackets string, n, level int, member func(i int)) {
	if n == 0 {
		w.WriteString(brackets)
		return
	}
	w.WriteByte(brackets[0])
	w.WriteByte('\n')
	for i := range n {
		indent(w, level+1)
		member(i)
		if i < n-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	indent(w, level)
	w.WriteByte(brackets[1])
}

func indent(w *bufio.Writer, level int) {
	for range level {
		w.WriteString("  ")
	}
}
