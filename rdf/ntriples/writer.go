package ntriples

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/isolda/isolda/rdf"
)

// ErrNamedGraph is returned when a quad in a named graph is written as
// N-Triples, which can only hold the default graph.
var ErrNamedGraph = errors.New("ntriples: N-Triples cannot hold quads in named graphs; write N-Quads")

// Writer writes quads as N-Triples or N-Quads, one statement per line, in
// the order they are given, in canonical form (rdf.AppendTerm) except that
// language tags keep their case unless the Writer is canonical. Output is
// buffered: call Flush at the end.
type Writer struct {
	w         *bufio.Writer
	syntax    Syntax
	canonical bool
	err       error
}

// NewWriter returns a Writer that writes to w in the given syntax, with
// language tags as written.
func NewWriter(w io.Writer, syntax Syntax) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), syntax: syntax}
}

// NewCanonicalWriter returns a Writer that writes canonical N-Triples or
// N-Quads exactly as RDF 1.2 defines them, language tags in lower case.
func NewCanonicalWriter(w io.Writer, syntax Syntax) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), syntax: syntax, canonical: true}
}

// WriteQuad writes one statement. It returns ErrNamedGraph for a quad in a
// named graph when writing N-Triples, an error for a quad whose terms
// cannot stand in their positions (such as a literal subject), and the
// first write error of the underlying writer.
func (w *Writer) WriteQuad(q rdf.Quad) error {
	if w.err != nil {
		return w.err
	}
	if err := checkQuad(q); err != nil {
		return err
	}
	if !q.G.IsZero() && w.syntax != NQuads {
		return fmt.Errorf("%w: graph %s", ErrNamedGraph, q.G)
	}
	// Appended in place in the buffer's free space (a statement longer
	// than that is appended to a new slice, and written from there).
	if _, err := w.w.Write(rdf.AppendQuadLine(w.w.AvailableBuffer(), q, w.canonical)); err != nil {
		w.err = err
	}
	return w.err
}

// AddQuad implements rdf.Sink by calling WriteQuad, so that a Writer can
// receive quads straight from a reader.
func (w *Writer) AddQuad(q rdf.Quad) error { return w.WriteQuad(q) }

// Flush writes any buffered output to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	w.err = w.w.Flush()
	return w.err
}

// checkQuad reports terms that cannot stand in their positions.
func checkQuad(q rdf.Quad) error {
	switch {
	case q.S.Kind != rdf.IRIKind && q.S.Kind != rdf.BlankKind:
		return fmt.Errorf("ntriples: the subject must be an IRI or a blank node, not a %s (%s)", q.S.Kind, q.S)
	case q.P.Kind != rdf.IRIKind:
		return fmt.Errorf("ntriples: the predicate must be an IRI, not a %s (%s)", q.P.Kind, q.P)
	case q.O.Kind != rdf.IRIKind && q.O.Kind != rdf.BlankKind && q.O.Kind != rdf.LiteralKind && q.O.Kind != rdf.TripleKind:
		return fmt.Errorf("ntriples: the object must be an IRI, a blank node, a literal or a triple term, not %s", q.O.Kind)
	case q.G.Kind != rdf.None && q.G.Kind != rdf.IRIKind && q.G.Kind != rdf.BlankKind:
		return fmt.Errorf("ntriples: the graph name must be an IRI or a blank node, not a %s (%s)", q.G.Kind, q.G)
	case q.O.Kind == rdf.LiteralKind && q.O.Lang != "":
		if _, ok := rdf.CheckLangTag(q.O.Lang); !ok {
			return fmt.Errorf("ntriples: cannot write the language tag %q: N-Triples allows letters, then groups of letters and digits after '-'", q.O.Lang)
		}
		if q.O.Dir != "" && q.O.Dir != "ltr" && q.O.Dir != "rtl" {
			return fmt.Errorf("ntriples: cannot write the base direction %q: it must be ltr or rtl", q.O.Dir)
		}
	}
	return nil
}

// Write writes every quad of d as NewWriter does, one per line, in the order of d.Sorted() (graph, subject, predicate, object, by
// rdf.Compare), so the output depends only on the set of quads. Writing a
// dataset with named graphs as N-Triples returns ErrNamedGraph before
// anything is written.
func Write(w io.Writer, d *rdf.Dataset, syntax Syntax) error {
	if syntax != NQuads {
		for _, q := range d.IDQuads() {
			if q[3] != 0 {
				return fmt.Errorf("%w: graph %s", ErrNamedGraph, d.Term(q[3]))
			}
		}
	}
	nw := NewWriter(w, syntax)
	for _, q := range sortedIDQuads(d) {
		if err := nw.WriteQuad(d.Quad(q)); err != nil {
			return err
		}
	}
	return nw.Flush()
}

// sortedIDQuads returns d's quads in the order of d.Sorted() without
// materializing every quad's terms: terms are ranked once by rdf.Compare
// and the quads sorted by the ranks of their graph, subject, predicate and
// object. Interned terms are distinct, so no two ranks tie.
func sortedIDQuads(d *rdf.Dataset) []rdf.IDQuad {
	order := make([]rdf.TermID, d.NumTerms()+1)
	for i := range order {
		order[i] = rdf.TermID(i)
	}
	slices.SortFunc(order, func(a, b rdf.TermID) int { return rdf.Compare(d.Term(a), d.Term(b)) })
	rank := make([]uint32, len(order))
	for i, id := range order {
		rank[id] = uint32(i)
	}
	qs := slices.Clone(d.IDQuads())
	slices.SortFunc(qs, func(a, b rdf.IDQuad) int {
		for _, k := range [4]int{3, 0, 1, 2} {
			if c := cmp.Compare(rank[a[k]], rank[b[k]]); c != 0 {
				return c
			}
		}
		return 0
	})
	return qs
}
