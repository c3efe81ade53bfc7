package ntriples

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// addSeeds adds every input file of the W3C suites with the given
// extension to the fuzz corpus.
func addSeeds(f *testing.F, ext string) {
	root := shared.MustPath(f, "conformance")
	for _, dir := range []string{"ntriples", "nquads", "rdf12-ntriples/syntax", "rdf12-ntriples/c14n", "rdf12-nquads/syntax", "rdf12-nquads/c14n"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*"+ext))
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

// roundTrip checks the fuzz property: parsing never panics and fails only
// with a ParseError; a document that parses, written in canonical form and
// parsed again, gives the same quads, and writing those gives the same text.
func roundTrip(t *testing.T, data []byte, syntax Syntax) {
	opts := rdf.ReadOptions{Limits: rdf.Limits{MaxTermLength: 1 << 16, MaxQuads: 1 << 16}}
	transientSame(t, data, syntax, opts)
	var first []rdf.Quad
	err := Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
		first = append(first, q)
		return nil
	}), opts)
	if err != nil {
		var perr *rdf.ParseError
		if !errors.As(err, &perr) {
			t.Fatalf("error is not a *rdf.ParseError: %v", err)
		}
		if perr.Line < 1 || perr.Column < 1 {
			t.Fatalf("error without a position: %v", err)
		}
		return
	}
	var out bytes.Buffer
	w := NewWriter(&out, syntax)
	for _, q := range first {
		if err := w.WriteQuad(q); err != nil {
			t.Fatalf("writing %v: %v", q, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var second []rdf.Quad
	err = Parse(bytes.NewReader(out.Bytes()), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
		second = append(second, q)
		return nil
	}), opts)
	if err != nil {
		t.Fatalf("canonical output does not parse: %v\n%s", err, out.Bytes())
	}
	if len(first) != len(second) {
		t.Fatalf("read %d quads, then %d from the canonical output", len(first), len(second))
	}
	for i := range first {
		if !first[i].Equal(second[i]) {
			t.Fatalf("quad %d: read %v, then %v from the canonical output", i, first[i], second[i])
		}
		if o := first[i].O; o.Kind == rdf.TripleKind {
			// A triple term's value is canonical: its parts build it again.
			s, p, obj, err := o.Triple()
			if err != nil {
				t.Fatalf("triple term %v: %v", o, err)
			}
			if again := rdf.NewTripleTerm(s, p, obj); again != o {
				t.Fatalf("triple term %v rebuilt as %v", o, again)
			}
		}
	}
	var again bytes.Buffer
	w = NewWriter(&again, syntax)
	for _, q := range second {
		if err := w.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Fatalf("canonical form is not stable:\n%s\n%s", out.Bytes(), again.Bytes())
	}
}

// transientSame checks that with ReadOptions.Transient a sink sees the
// same statements while it has them, and the reader gives the same
// warnings and the same error, as without.
func transientSame(t *testing.T, data []byte, syntax Syntax, opts rdf.ReadOptions) {
	t.Helper()
	read := func(transient bool) (events []string, err error) {
		o := opts
		o.Transient = transient
		o.Warn = func(e *rdf.ParseError) { events = append(events, "warning: "+e.Error()) }
		err = Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
			events = append(events, q.String())
			return nil
		}), o)
		return events, err
	}
	want, wantErr := read(false)
	got, gotErr := read(true)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error with Transient: %v, without: %v", gotErr, wantErr)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("with Transient:\n%s\nwithout:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// rdf12Seeds are RDF 1.2 edge cases: nesting, blank nodes and escapes in
// triple terms, and malformed variants.
var rdf12Seeds = []string{
	"_:r <http://x/p> <<( _:b <http://x/q> <<( <http://x/s> <http://x/p> \"a\\n\\u0001\"@EN-us--rtl )>> )>> .\n",
	"<http://x/s> <http://x/p> <<(<http://x/a><http://x/b>\"x\"^^<http://x/d>)>>.\n",
	"<http://x/s> <http://x/p> <<( <http://x/a> <http://x/b> <http://x/c> ) .\n",
	"<http://x/s> <http://x/p> << <http://x/a> <http://x/b> <http://x/c> >> .\n",
}

func FuzzParseNTriples(f *testing.F) {
	addSeeds(f, ".nt")
	for _, s := range rdf12Seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { roundTrip(t, data, NTriples) })
}

func FuzzParseNQuads(f *testing.F) {
	addSeeds(f, ".nq")
	for _, s := range rdf12Seeds {
		f.Add([]byte(strings.Replace(s, " .", " <http://x/g> .", 1)))
	}
	f.Fuzz(func(t *testing.T, data []byte) { roundTrip(t, data, NQuads) })
}
