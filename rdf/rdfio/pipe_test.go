package rdfio

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// recorder records the events a sink receives, in order.
type recorder struct {
	events []string
	failAt int // AddQuad fails at this event (0: never)
}

func (r *recorder) AddQuad(q rdf.Quad) error {
	r.events = append(r.events, q.String())
	if r.failAt > 0 && len(r.events) == r.failAt {
		return errSink
	}
	return nil
}

func (r *recorder) AddPrefix(name, iri string) { r.events = append(r.events, "@prefix "+name+": "+iri) }

var errSink = errors.New("sink failed")

// turtleDoc returns a Turtle document of n statements with a prefix
// declaration every 700 statements.
func turtleDoc(n int) string {
	var b strings.Builder
	for i := range n {
		if i%700 == 0 {
			fmt.Fprintf(&b, "@prefix p%d: <http://ex.org/%d/> .\n", i, i)
		}
		fmt.Fprintf(&b, "<http://ex.org/s%d> <http://ex.org/p> \"%d\" .\n", i/3, i)
	}
	return b.String()
}

// TestPipelinedSameEvents checks that the pipelined reader gives the sink
// the same statements and prefix declarations, in the same order, as
// ReadInto, across many batches.
func TestPipelinedSameEvents(t *testing.T) {
	doc := turtleDoc(5000)
	var want, got recorder
	opts := Options{Format: Turtle}
	if err := ReadInto(strings.NewReader(doc), &want, opts); err != nil {
		t.Fatal(err)
	}
	if err := ReadIntoPipelined(strings.NewReader(doc), &got, opts); err != nil {
		t.Fatal(err)
	}
	if len(want.events) != 5000+8 {
		t.Fatalf("%d events", len(want.events))
	}
	if strings.Join(got.events, "\n") != strings.Join(want.events, "\n") {
		t.Fatal("the pipelined reader's events differ")
	}
}

// TestPipelinedParseError checks that a syntax error is returned after
// every statement before it was delivered.
func TestPipelinedParseError(t *testing.T) {
	doc := turtleDoc(2000) + "<http://ex.org/bad> <p> .\n"
	var got recorder
	err := ReadIntoPipelined(strings.NewReader(doc), &got, Options{Format: Turtle, ReadOptions: rdf.ReadOptions{File: "doc.ttl"}})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2000+3+1 {
		t.Fatalf("error %v", err)
	}
	if n := len(got.events); n != 2000+3 {
		t.Fatalf("%d events before the error, want 2003", n)
	}
}

// endless is an N-Triples stream that never ends; it counts the lines it
// produced.
type endless struct {
	lines int
	buf   []byte
}

func (e *endless) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		e.buf = fmt.Appendf(e.buf, "<http://ex.org/s%d> <http://ex.org/p> <http://ex.org/o> .\n", e.lines)
		e.lines++
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// TestPipelinedSinkErrorStopsReader checks that a failing sink stops the
// reader (on an endless input, the call would otherwise never return)
// and that its error is returned.
func TestPipelinedSinkErrorStopsReader(t *testing.T) {
	src := &endless{}
	rec := &recorder{failAt: 3000}
	err := ReadIntoPipelined(io.Reader(src), rec, Options{Format: NTriples})
	if !errors.Is(err, errSink) {
		t.Fatalf("error %v", err)
	}
	if src.lines > 3000+(pipeDepth+3)*pipeBatch+10000 {
		t.Fatalf("the reader went on for %d lines", src.lines)
	}
}

// TestPipelinedTransient checks that with ReadOptions.Transient the sink
// gets the same statements as from ReadInto without it, across batches
// that fill their arena before their item count, with a statement larger
// than an arena, and with a failing sink that stops the reader.
func TestPipelinedTransient(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "<http://ex.org/s%d> <http://ex.org/p%d> \"%s\"@en <http://ex.org/g> .\n", i/3, i%7, strings.Repeat("x", i%300))
		if i == 5000 {
			fmt.Fprintf(&b, "_:b <http://ex.org/p> \"%s\"^^<http://ex.org/big> .\n", strings.Repeat("y", 3*pipeArena))
		}
	}
	doc := b.String()
	var want, got recorder
	if err := ReadInto(strings.NewReader(doc), &want, Options{Format: NQuads}); err != nil {
		t.Fatal(err)
	}
	opts := Options{Format: NQuads, ReadOptions: rdf.ReadOptions{Transient: true}}
	if err := ReadIntoPipelined(strings.NewReader(doc), &got, opts); err != nil {
		t.Fatal(err)
	}
	if len(want.events) != 20001 {
		t.Fatalf("%d events", len(want.events))
	}
	for i := range want.events {
		if got.events[i] != want.events[i] {
			t.Fatalf("event %d: %.80s, want %.80s", i, got.events[i], want.events[i])
		}
	}
	rec := &recorder{failAt: 3000}
	if err := ReadIntoPipelined(strings.NewReader(doc), rec, opts); !errors.Is(err, errSink) {
		t.Fatalf("error %v", err)
	}
}

// TestStreamWriterTransient checks that turtle.StreamWriter, which keeps
// the subject, predicate and graph of its open statement, writes the same
// bytes from a pipelined reader with ReadOptions.Transient as without,
// while the batches it kept terms from are reused.
func TestStreamWriterTransient(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		// Subjects and graphs whose statements span many batches, and
		// predicates that change every few statements.
		fmt.Fprintf(&b, "<http://ex.org/s%d> <http://ex.org/p%d> \"%d\" <http://ex.org/g%d> .\n", i/4000, i%7/3, i, i/9000)
	}
	write := func(transient bool) string {
		var out strings.Builder
		w := turtle.NewStreamWriter(&out, turtle.TriG, nil)
		opts := Options{Format: NQuads, ReadOptions: rdf.ReadOptions{Transient: transient}}
		if err := ReadIntoPipelined(strings.NewReader(b.String()), w, opts); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	want, got := write(false), write(true)
	if strings.Count(want, "\"") != 2*20000 {
		t.Fatalf("%d literals written, want 20000", strings.Count(want, "\"")/2)
	}
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range wl {
			if i < len(gl) && gl[i] != wl[i] {
				t.Fatalf("output differs with Transient at line %d:\n%s\n%s", i, gl[i], wl[i])
			}
		}
		t.Fatalf("output differs with Transient (%d and %d bytes)", len(got), len(want))
	}
}
