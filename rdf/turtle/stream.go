package turtle

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// StreamWriter writes Turtle or TriG as statements arrive, in constant
// memory: consecutive statements of one subject share it ("s p o ; p2 o2"),
// consecutive objects of one predicate share it ("p o1, o2"), and in TriG
// consecutive statements of one named graph share a "<g> { ... }" block.
// Nothing is sorted, nested or deduplicated: the output follows the input
// order (group a subject's statements together upstream for compact
// output), which is what a streaming converter such as serdi does.
//
// Prefixes are those given to NewStreamWriter and those declared on the
// way with AddPrefix (so a StreamWriter passes a Turtle input's @prefix
// lines through when it is the reader's sink); each is written as an
// @prefix line where it is declared. A blank node label that is not a
// valid Turtle label, or that starts with "hx_", is written as "hx_"
// followed by the label's bytes in hex, which keeps labels distinct.
// The first triple term is preceded by VERSION "1.2".
//
// It copies the few strings it keeps, so it may be the sink of a reader
// with rdf.ReadOptions.Transient. Output is buffered: call Flush at the
// end, which also ends the last statement.
type StreamWriter struct {
	w      *bufio.Writer
	syntax Syntax
	tw     writer // term writer: literals, triple terms, datatype IRIs

	ns     map[string]string // namespace -> prefix name
	odd    bool              // some namespace does not end in '/' or '#'
	graph  rdf.Term          // graph of the open block (TriG)
	inG    bool              // a named graph block is open
	subj   rdf.Term
	pred   rdf.Term
	open   bool // a statement is open (a subject was written)
	v12    bool // VERSION "1.2" was written
	any    bool // something was written
	hexbuf []byte
	err    error
}

// NewStreamWriter returns a StreamWriter writing syntax to w, with the
// given prefixes declared first (nil for none).
func NewStreamWriter(w io.Writer, syntax Syntax, prefixes []rdf.Prefix) *StreamWriter {
	sw := &StreamWriter{w: bufio.NewWriterSize(w, 64<<10), syntax: syntax, ns: map[string]string{}}
	sw.tw = writer{out: sw.w, used: map[string]bool{}}
	for _, p := range prefixes {
		sw.AddPrefix(p.Name, p.IRI)
	}
	return sw
}

// AddPrefix declares a prefix: it ends the open statement and writes an
// @prefix line. Invalid names and empty namespaces are ignored. It
// implements rdf.PrefixSink.
func (s *StreamWriter) AddPrefix(name, iri string) {
	if s.err != nil || !validPrefixName(name) || iri == "" {
		return
	}
	s.end()
	for ns, n := range s.ns { // a name declared again takes its new namespace
		if n == name {
			delete(s.ns, ns)
		}
	}
	s.ns[iri] = name
	s.odd = false
	s.tw.prefixes = s.tw.prefixes[:0]
	for ns, n := range s.ns {
		s.odd = s.odd || !strings.HasSuffix(ns, "/") && !strings.HasSuffix(ns, "#")
		s.tw.prefixes = append(s.tw.prefixes, rdf.Prefix{Name: n, IRI: ns})
	}
	// Longest namespace first, as the sorted writer orders them.
	slices.SortFunc(s.tw.prefixes, func(a, b rdf.Prefix) int {
		if len(a.IRI) != len(b.IRI) {
			return len(b.IRI) - len(a.IRI)
		}
		return strings.Compare(a.Name, b.Name)
	})
	s.closeGraph() // a directive cannot stand inside a graph block
	s.w.WriteString("@prefix ")
	s.w.WriteString(name)
	s.w.WriteString(": <")
	writeIRIBody(s.w, iri)
	s.w.WriteString("> .\n")
	s.any = true
}

// AddQuad implements rdf.Sink by calling WriteQuad.
func (s *StreamWriter) AddQuad(q rdf.Quad) error { return s.WriteQuad(q) }

// WriteQuad writes one statement. It returns ErrNamedGraphs for a quad in
// a named graph when writing Turtle, an error for a term that cannot stand
// in its position, and the first write error.
func (s *StreamWriter) WriteQuad(q rdf.Quad) error {
	if s.err != nil {
		return s.err
	}
	switch {
	case q.S.Kind != rdf.IRIKind && q.S.Kind != rdf.BlankKind:
		return fmt.Errorf("turtle: the subject must be an IRI or a blank node, not a %s (%s)", q.S.Kind, q.S)
	case q.P.Kind != rdf.IRIKind:
		return fmt.Errorf("turtle: the predicate must be an IRI, not a %s (%s)", q.P.Kind, q.P)
	case q.O.Kind == rdf.None:
		return fmt.Errorf("turtle: a statement of %s has no object", q.S)
	case q.G.Kind != rdf.None && q.G.Kind != rdf.IRIKind && q.G.Kind != rdf.BlankKind:
		return fmt.Errorf("turtle: the graph name must be an IRI or a blank node, not a %s (%s)", q.G.Kind, q.G)
	case q.G.Kind != rdf.None && s.syntax == Turtle:
		return fmt.Errorf("%w (graph %s)", ErrNamedGraphs, q.G)
	}
	if q.O.Kind == rdf.TripleKind && !s.v12 {
		s.end()
		s.closeGraph()
		s.w.WriteString("VERSION \"1.2\"\n")
		s.v12, s.any = true, true
	}
	if !q.G.Equal(s.graph) {
		s.end()
		s.closeGraph()
		s.graph = cloneTerm(q.G)
		if !q.G.IsZero() {
			if s.any {
				s.w.WriteByte('\n')
			}
			s.node(q.G)
			s.w.WriteString(" {\n")
			s.inG, s.any = true, true
		}
	}
	switch {
	case s.open && q.S.Equal(s.subj) && q.P.Equal(s.pred):
		s.w.WriteString(", ")
	case s.open && q.S.Equal(s.subj):
		s.w.WriteString(" ;\n    ")
		s.predicate(q.P)
		s.w.WriteByte(' ')
	default:
		s.end()
		if s.any && !s.inG {
			s.w.WriteByte('\n')
		}
		s.node(q.S)
		s.w.WriteByte(' ')
		s.predicate(q.P)
		s.w.WriteByte(' ')
		s.subj, s.open, s.any = cloneTerm(q.S), true, true
	}
	if !q.P.Equal(s.pred) {
		s.pred = cloneTerm(q.P)
	}
	s.object(q.O)
	_, s.err = s.w.Write(nil) // the first write error, which bufio.Writer keeps
	return s.err
}

// cloneTerm returns t with its own strings: the StreamWriter keeps the
// subject, predicate and graph of the open statement, while the strings of
// a quad may be a reader's transient views (rdf.ReadOptions.Transient).
func cloneTerm(t rdf.Term) rdf.Term {
	t.Value, t.Datatype = strings.Clone(t.Value), strings.Clone(t.Datatype)
	t.Lang, t.Dir = strings.Clone(t.Lang), strings.Clone(t.Dir)
	return t
}

// Flush ends the last statement (and graph block) and writes the buffered
// output.
func (s *StreamWriter) Flush() error {
	if s.err != nil {
		return s.err
	}
	s.end()
	s.closeGraph()
	s.err = s.w.Flush()
	return s.err
}

// end closes the open statement.
func (s *StreamWriter) end() {
	if s.open {
		s.w.WriteString(" .\n")
		s.open = false
	}
}

// closeGraph closes the open graph block; the graph becomes the default
// graph again.
func (s *StreamWriter) closeGraph() {
	if s.inG {
		s.w.WriteString("}\n")
		s.inG = false
	}
	s.graph = rdf.Term{}
}

func (s *StreamWriter) predicate(p rdf.Term) {
	if p.Value == rdf.RDFType {
		s.w.WriteByte('a')
		return
	}
	s.iri(p.Value)
}

func (s *StreamWriter) object(o rdf.Term) {
	switch o.Kind {
	case rdf.LiteralKind:
		s.tw.literal(o)
	case rdf.TripleKind:
		s.tw.tripleTerm(s.relabelTriple(o))
	default:
		s.node(o)
	}
}

// node writes an IRI or a blank node.
func (s *StreamWriter) node(t rdf.Term) {
	if t.Kind == rdf.IRIKind {
		s.iri(t.Value)
		return
	}
	s.w.WriteString("_:")
	s.w.WriteString(s.label(t.Value))
}

// label returns the label a blank node is written with (see
// StreamWriter).
func (s *StreamWriter) label(l string) string {
	if validBlankLabel(l) && !strings.HasPrefix(l, "hx_") {
		return l
	}
	s.hexbuf = append(s.hexbuf[:0], "hx_"...)
	s.hexbuf = hex.AppendEncode(s.hexbuf, []byte(l))
	return string(s.hexbuf)
}

// relabelTriple applies label to the blank nodes inside a triple term.
func (s *StreamWriter) relabelTriple(t rdf.Term) rdf.Term {
	return rdf.MapBlanks(t, func(b rdf.Term) rdf.Term { return rdf.NewBlank(s.label(b.Value)) })
}

// iri writes an IRI as a prefixed name when a declared namespace ending
// at its last '/' or '#' (or, for namespaces ending otherwise, any
// declared namespace) gives a valid local name, else in full.
func (s *StreamWriter) iri(v string) {
	if len(s.ns) > 0 {
		if i := strings.LastIndexAny(v, "/#"); i >= 0 {
			if name, ok := s.ns[v[:i+1]]; ok && s.prefixed(name, v[i+1:]) {
				return
			}
		}
		if s.odd {
			for _, p := range s.tw.prefixes {
				if strings.HasPrefix(v, p.IRI) && s.prefixed(p.Name, v[len(p.IRI):]) {
					return
				}
			}
		}
	}
	s.w.WriteByte('<')
	writeIRIBody(s.w, v)
	s.w.WriteByte('>')
}

// prefixed writes name:local when local can be a PN_LOCAL.
func (s *StreamWriter) prefixed(name, local string) bool {
	l, ok := escapeLocal(local)
	if !ok {
		return false
	}
	s.w.WriteString(name)
	s.w.WriteByte(':')
	s.w.WriteString(l)
	return true
}
