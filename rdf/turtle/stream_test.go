package turtle_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// streamRoundTrip streams quads (and prefixes) through a StreamWriter,
// parses the output back and compares it with want; "" means isomorphic.
func streamRoundTrip(syntax turtle.Syntax, want *rdf.Dataset, feed func(*turtle.StreamWriter) error) string {
	var buf bytes.Buffer
	sw := turtle.NewStreamWriter(&buf, syntax, nil)
	if err := feed(sw); err != nil {
		return "write: " + err.Error()
	}
	if err := sw.Flush(); err != nil {
		return "flush: " + err.Error()
	}
	return reparse(buf.Bytes(), syntax, "streamed", want)
}

// TestStreamWriterConformance streams every positive eval test of the
// Turtle and TriG suites (RDF 1.1 and 1.2) twice: straight from the
// parser (prefixes passed through, in document order), and from the
// expected N-Triples/N-Quads result in its line order. Both outputs must
// parse back to a dataset isomorphic to the expected result.
func TestStreamWriterConformance(t *testing.T) {
	for suite, tests := range suites(t) {
		n := 0
		for _, tc := range tests {
			if tc.Negative() || !strings.HasSuffix(tc.Type, "Eval") {
				continue
			}
			syntax := testSyntax(tc)
			want, err := parseExpected(tc.Result)
			if err != nil {
				t.Fatalf("%s: %v", tc.Result, err)
			}
			msg := streamRoundTrip(syntax, want, func(sw *turtle.StreamWriter) error {
				return turtle.Parse(openFile(t, tc.Action), syntax, sw, rdf.ReadOptions{File: tc.Action, Base: tc.ActionIRI})
			})
			if msg != "" {
				t.Errorf("%s/%s from the parser: %s", suite, tc.Name, msg)
			}
			msg = streamRoundTrip(syntax, want, func(sw *turtle.StreamWriter) error {
				for _, q := range want.Quads() {
					if err := sw.WriteQuad(q); err != nil {
						return err
					}
				}
				return nil
			})
			if msg != "" {
				t.Errorf("%s/%s from the expected result: %s", suite, tc.Name, msg)
			}
			n++
		}
		if n < 20 {
			t.Errorf("%s: only %d eval tests", suite, n)
		}
		t.Logf("%s: %d eval tests streamed", suite, n)
	}
}

func openFile(t *testing.T, path string) *bytes.Reader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(data)
}

// TestStreamWriterLayout checks the exact text for a hand-written input:
// subjects and predicates grouped only when consecutive, "a" for
// rdf:type, prefixes where declared, graph blocks in TriG.
func TestStreamWriterLayout(t *testing.T) {
	ex := func(s string) rdf.Term { return rdf.NewIRI("http://ex.org/" + s) }
	typ := rdf.NewIRI(rdf.RDFType)
	var buf bytes.Buffer
	sw := turtle.NewStreamWriter(&buf, turtle.TriG, []rdf.Prefix{{Name: "ex", IRI: "http://ex.org/"}})
	quads := []rdf.Quad{
		{S: ex("a"), P: typ, O: ex("C")},
		{S: ex("a"), P: ex("p"), O: rdf.NewString("x")},
		{S: ex("a"), P: ex("p"), O: rdf.NewLangString("y", "en")},
		{S: ex("b"), P: ex("q"), O: rdf.NewBlank("n1")},
		{S: ex("a"), P: ex("p"), O: rdf.NewLiteral("3", rdf.XSDInteger)},
		{S: ex("a"), P: ex("p"), O: ex("z/w"), G: ex("g")},
		{S: ex("a"), P: ex("r"), O: ex("b"), G: ex("g")},
	}
	for _, q := range quads {
		if err := sw.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
	}
	sw.AddPrefix("ex", "http://other.org/") // ex: now means something else
	if err := sw.WriteQuad(rdf.Quad{S: ex("c"), P: ex("p"), O: rdf.NewIRI("http://other.org/d")}); err != nil {
		t.Fatal(err)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `@prefix ex: <http://ex.org/> .

ex:a a ex:C ;
    ex:p "x", "y"@en .

ex:b ex:q _:n1 .

ex:a ex:p 3 .

ex:g {
ex:a ex:p <http://ex.org/z/w> ;
    ex:r ex:b .
}
@prefix ex: <http://other.org/> .

<http://ex.org/c> <http://ex.org/p> ex:d .
`
	if got := buf.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestStreamWriterBlankLabels checks that labels Turtle cannot write, and
// labels that look like the escaped ones, stay distinct blank nodes.
func TestStreamWriterBlankLabels(t *testing.T) {
	p := rdf.NewIRI("http://ex.org/p")
	want := rdf.NewDataset()
	labels := []string{"ok", "a.b", "-bad", "hx_6f6b", "6f6b", "x y", "é", "hx_2d626164"}
	for i, l := range labels {
		want.Add(rdf.Quad{S: rdf.NewBlank(l), P: p, O: rdf.NewLiteral(fmt.Sprint(i), rdf.XSDInteger)})
	}
	if msg := streamRoundTrip(turtle.Turtle, want, func(sw *turtle.StreamWriter) error {
		for _, q := range want.Quads() {
			if err := sw.WriteQuad(q); err != nil {
				return err
			}
		}
		return nil
	}); msg != "" {
		t.Fatal(msg)
	}
}

// TestStreamWriterErrors checks what cannot be written.
func TestStreamWriterErrors(t *testing.T) {
	ex := rdf.NewIRI("http://ex.org/x")
	sw := turtle.NewStreamWriter(&bytes.Buffer{}, turtle.Turtle, nil)
	if err := sw.WriteQuad(rdf.Quad{S: ex, P: ex, O: ex, G: ex}); !errors.Is(err, turtle.ErrNamedGraphs) {
		t.Errorf("named graph in Turtle: %v", err)
	}
	if err := sw.WriteQuad(rdf.Quad{S: rdf.NewString("s"), P: ex, O: ex}); err == nil {
		t.Error("literal subject accepted")
	}
	if err := sw.WriteQuad(rdf.Quad{S: ex, P: rdf.NewBlank("b"), O: ex}); err == nil {
		t.Error("blank predicate accepted")
	}
	fail := errors.New("disk full")
	sw = turtle.NewStreamWriter(failWriter{fail}, turtle.Turtle, nil)
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = sw.WriteQuad(rdf.Quad{S: ex, P: ex, O: rdf.NewString(strings.Repeat("x", 100))})
	}
	if err == nil {
		err = sw.Flush()
	}
	if !errors.Is(err, fail) {
		t.Errorf("write error: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestStreamWriterConstantMemory writes 200,000 statements of 20,000
// subjects and checks that the live heap does not grow.
func TestStreamWriterConstantMemory(t *testing.T) {
	sw := turtle.NewStreamWriter(discard{}, turtle.TriG, []rdf.Prefix{{Name: "ex", IRI: "http://ex.org/"}})
	var lo, hi uint64
	for i := range 200_000 {
		s := rdf.NewIRI(fmt.Sprintf("http://ex.org/s%d", i/10))
		q := rdf.Quad{S: s, P: rdf.NewIRI("http://ex.org/p"), O: rdf.NewString(fmt.Sprint(i)), G: rdf.NewIRI(fmt.Sprintf("http://ex.org/g%d", i/1000))}
		if err := sw.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
		if i%20_000 == 19_999 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if lo == 0 || m.HeapAlloc < lo {
				lo = m.HeapAlloc
			}
			hi = max(hi, m.HeapAlloc)
		}
	}
	if hi-lo > 512<<10 {
		t.Fatalf("live heap grew from %d to %d bytes", lo, hi)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
