package ntriples

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestWriteDataset checks that Write sorts (graph, subject, predicate,
// object; IRIs before blank nodes before literals) and writes the
// canonical form, language tags as written; and that a canonical Writer
// lower-cases them, as canonical N-Triples requires.
func TestWriteDataset(t *testing.T) {
	d := rdf.NewDataset()
	d.Add(rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewLangString("x", "EN-GB"), G: iri("g")})
	d.Add(rdf.Quad{S: rdf.NewBlank("z"), P: iri("p"), O: rdf.NewLiteral("1", rdf.XSDInteger)})
	d.Add(rdf.Quad{S: iri("b"), P: iri("p"), O: rdf.NewString("tab\there \"q\" \\ \x7f \ufffe é")})
	d.Add(rdf.Quad{S: iri("a"), P: iri("p"), O: rdf.Term{Kind: rdf.LiteralKind, Value: "x", Datatype: rdf.RDFDirLangString, Lang: "AR", Dir: "rtl"}})
	d.Add(rdf.Quad{S: iri("a"), P: iri("p"), O: iri("o"), G: rdf.NewBlank("g")})
	d.Add(rdf.Quad{S: iri("a"), P: iri("p"), O: rdf.NewBlank("o")})
	want := `<http://example.org/a> <http://example.org/p> _:o .
<http://example.org/a> <http://example.org/p> "x"@AR--rtl .
<http://example.org/b> <http://example.org/p> "tab\there \"q\" \\ \u007F \uFFFE é" .
_:z <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/b> <http://example.org/p> "x"@EN-GB <http://example.org/g> .
<http://example.org/a> <http://example.org/p> <http://example.org/o> _:g .
`
	var out bytes.Buffer
	if err := Write(&out, d, NQuads); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	cw := NewCanonicalWriter(&out, NQuads)
	for _, q := range d.Sorted() {
		if err := cw.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	canonical := strings.NewReplacer("@AR--", "@ar--", "@EN-GB", "@en-gb").Replace(want)
	if out.String() != canonical {
		t.Errorf("canonical writer: got\n%s\nwant\n%s", out.String(), canonical)
	}

	out.Reset()
	err := Write(&out, d, NTriples)
	if !errors.Is(err, ErrNamedGraph) {
		t.Errorf("N-Triples with named graphs: got %v, want ErrNamedGraph", err)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %q before failing", out.String())
	}
}

func TestWriterErrors(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, NTriples)
	bad := []rdf.Quad{
		{S: rdf.NewString("s"), P: iri("p"), O: iri("o")},
		{S: iri("s"), P: rdf.NewBlank("p"), O: iri("o")},
		{S: iri("s"), P: iri("p")},
		{S: iri("s"), P: iri("p"), O: iri("o"), G: rdf.NewString("g")},
	}
	for _, q := range bad {
		if err := w.WriteQuad(q); err == nil {
			t.Errorf("WriteQuad(%v) accepted a quad with a misplaced term", q)
		}
	}
	if err := w.WriteQuad(rdf.Quad{S: iri("s"), P: iri("p"), O: iri("o"), G: iri("g")}); !errors.Is(err, ErrNamedGraph) {
		t.Errorf("got %v, want ErrNamedGraph", err)
	}
	if err := w.Flush(); err != nil || out.Len() != 0 {
		t.Errorf("Flush: %v, output %q", err, out.String())
	}

	boom := errors.New("boom")
	w = NewWriter(failWriter{boom}, NQuads)
	q := rdf.Quad{S: iri("s"), P: iri("p"), O: rdf.NewString(strings.Repeat("x", 100<<10))}
	if err := w.WriteQuad(q); !errors.Is(err, boom) {
		t.Errorf("got %v, want the write error", err)
	}
	if err := w.Flush(); !errors.Is(err, boom) {
		t.Errorf("Flush: got %v, want the write error", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestWriterStream pipes a reader into a writer (the Writer is an rdf.Sink)
// and checks the canonical text of a non-canonical input.
func TestWriterStream(t *testing.T) {
	src := "<http://example.org/s>\t<http://example.org/p>   \"\\u0041\\U0001F600\\u000b\"  @EN  <http://example.org/g>.# c\n" +
		"_:b <http://example.org/p> \"x\"^^<http://www.w3.org/2001/XMLSchema#string> .\r\n"
	want := "<http://example.org/s> <http://example.org/p> \"A😀\\u000B\"@EN <http://example.org/g> .\n" +
		"_:b <http://example.org/p> \"x\" .\n"
	var out bytes.Buffer
	w := NewWriter(&out, NQuads)
	if err := Parse(strings.NewReader(src), NQuads, w, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}

// TestWriteOrder checks that Write's order equals rdf.Dataset.Sorted on a
// dataset with many kinds of term, language tags differing only in case,
// named graphs and blank nodes.
func TestWriteOrder(t *testing.T) {
	d := rdf.NewDataset()
	objs := []rdf.Term{
		iri("o"), iri("O"), rdf.NewBlank("a"), rdf.NewBlank("b"), rdf.NewString("x"), rdf.NewString(""),
		rdf.NewLangString("x", "en"), rdf.NewLangString("x", "EN-us"), rdf.NewLangString("x", "de"),
		rdf.NewLiteral("x", ex+"dt"), rdf.NewLiteral("1", rdf.XSDInteger),
		{Kind: rdf.LiteralKind, Value: "x", Datatype: rdf.RDFDirLangString, Lang: "en", Dir: "rtl"},
		{Kind: rdf.LiteralKind, Value: "x", Datatype: rdf.RDFDirLangString, Lang: "en", Dir: "ltr"},
	}
	graphs := []rdf.Term{{}, iri("g2"), iri("g1"), rdf.NewBlank("g")}
	subjects := []rdf.Term{iri("s2"), rdf.NewBlank("s"), iri("s1")}
	for i := range 400 {
		d.Add(rdf.Quad{
			S: subjects[i%len(subjects)],
			P: iri(string(rune('a' + i%5))),
			O: objs[(i*7)%len(objs)],
			G: graphs[(i/3)%len(graphs)],
		})
	}
	var want strings.Builder
	for _, q := range d.Sorted() {
		rdf.AppendQuadAsWritten(&want, q)
		want.WriteByte('\n')
	}
	var got bytes.Buffer
	if err := Write(&got, d, NQuads); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("Write order differs from Dataset.Sorted:\n got:\n%s\nwant:\n%s", got.String(), want.String())
	}
	if d.Len() < 100 {
		t.Fatalf("only %d quads: the test data is too uniform", d.Len())
	}
}
