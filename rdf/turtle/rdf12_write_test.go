package turtle_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

// testdata/writer11.sha256 holds the SHA-256 of what Write produced, before it learnt
// the RDF 1.2 reification syntax, for every expected result of the W3C
// RDF 1.1 Turtle and TriG eval tests (path relative to the conformance
// folder). RDF 1.1 data must still be written byte for byte the same.

// testdata/writer12-plain-size.txt holds the size of what Write produced for the expected
// results of the W3C RDF 1.2 Turtle and TriG eval tests when it wrote every
// rdf:reifies statement as a plain triple: the reification syntax must
// never make the output longer.

// goldenLines returns the lines of the file name in testdata.
func goldenLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// resultSyntax is the syntax the writer uses for an expected result file:
// TriG for N-Quads (.nq), else Turtle.
func resultSyntax(path string) turtle.Syntax {
	if strings.HasSuffix(path, ".nq") {
		return turtle.TriG
	}
	return turtle.Turtle
}

// writeExpected writes the expected result of a W3C eval test.
func writeExpected(path string) ([]byte, *rdf.Dataset, error) {
	d, err := parseExpected(path)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	err = turtle.Write(&buf, d, resultSyntax(path), turtle.WriteOptions{})
	return buf.Bytes(), d, err
}

// TestWriterRDF11Unchanged checks that the RDF 1.1 expected results are
// written exactly as before.
func TestWriterRDF11Unchanged(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	pass, total := 0, 0
	for _, line := range goldenLines(t, "writer11.sha256") {
		rel, want, _ := strings.Cut(line, " ")
		total++
		out, _, err := writeExpected(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		sum := sha256.Sum256(out)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: output changed (sha256 %s, want %s):\n%s", rel, got, want, out)
			continue
		}
		pass++
	}
	report(t, "RDF 1.1 Turtle/TriG expected results written unchanged: %d/%d", pass, total)
}

// TestWriterRDF12Compact checks that the RDF 1.2 expected results round
// trip, are written no longer than with plain rdf:reifies triples, and
// start with VERSION "1.2" exactly when they use RDF 1.2 syntax.
func TestWriterRDF12Compact(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	before, after := 0, 0
	counts := map[string][2]int{} // suite -> passed, total
	for _, line := range goldenLines(t, "writer12-plain-size.txt") {
		rel, size, _ := strings.Cut(line, " ")
		plain, err := strconv.Atoi(size)
		if err != nil {
			t.Fatal(err)
		}
		suite, _, _ := strings.Cut(rel, "/")
		c := counts[suite]
		c[1]++
		counts[suite] = c
		path := filepath.Join(dir, filepath.FromSlash(rel))
		out, want, err := writeExpected(path)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		before += plain
		after += len(out)
		if len(out) > plain {
			t.Errorf("%s: %d bytes, longer than the plain form (%d):\n%s", rel, len(out), plain, out)
			continue
		}
		back := rdf.NewDataset()
		if err := turtle.Parse(bytes.NewReader(out), resultSyntax(rel), back, rdf.ReadOptions{}); err != nil {
			t.Errorf("%s: %v\n%s", rel, err, out)
			continue
		}
		if ok, err := canon.Isomorphic(want, back); err != nil || !ok {
			t.Errorf("%s: round trip not isomorphic (%v):\n%s", rel, err, out)
			continue
		}
		s := string(out)
		uses12 := strings.Contains(s, "<<") || strings.Contains(s, "{|") || strings.Contains(s, " ~")
		if uses12 != strings.HasPrefix(s, "VERSION \"1.2\"\n") {
			t.Errorf("%s: VERSION line does not match the use of RDF 1.2 syntax:\n%s", rel, out)
			continue
		}
		c[0]++
		counts[suite] = c
	}
	for _, suite := range []string{"rdf12-trig", "rdf12-turtle"} {
		report(t, "writer RDF 1.2 compact %-13s %2d/%2d passed", suite, counts[suite][0], counts[suite][1])
	}
	report(t, "writer RDF 1.2 bytes: %d with plain rdf:reifies triples, %d now", before, after)
}

// writeCases are RDF 1.2 datasets (as N-Quads) with the Turtle or TriG
// text the writer must produce, written by hand from the RDF 1.2 Turtle
// grammar.
var writeCases = []struct {
	name, nquads, want string
}{
	{
		name: "annotation with IRI reifier",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
<http://x/r> <http://x/a> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> ~ <http://x/r> {| <http://x/a> 1 |} .\n",
	},
	{
		name: "anonymous reifier",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
_:r <http://x/a> <http://x/b> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> {| <http://x/a> <http://x/b> |} .\n",
	},
	{
		name: "reifier with no other property",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
<http://x/i> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> ~ <http://x/i> ~ .\n",
	},
	{
		name: "reified triple not asserted",
		nquads: `<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> "v" )>> .
<http://x/r> <http://x/a> <http://x/b> .
_:q <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:q <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<< <http://x/s> <http://x/p> \"v\" ~ <http://x/r> >> <http://x/a> <http://x/b> .\n\n<< _:q <http://x/p> <http://x/o> ~ _:q >> .\n",
	},
	{
		name: "reified triple as object",
		nquads: `<http://x/a> <http://x/q> _:r .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/a> <http://x/q> << <http://x/s> <http://x/p> <http://x/o> >> .\n",
	},
	{
		name: "reifier in two graphs",
		nquads: `<http://x/s> <http://x/p> <http://x/o> <http://x/g> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> <http://x/g> .
<http://x/r> <http://x/a> <http://x/b> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/r> <http://x/a> <http://x/b> .\n\nGRAPH <http://x/g> {\n    <http://x/s> <http://x/p> <http://x/o> ~ <http://x/r> .\n}\n",
	},
	{
		name:   "RDF 1.1 only",
		nquads: "<http://x/s> <http://x/p> <http://x/o> .\n",
		want:   "<http://x/s> <http://x/p> <http://x/o> .\n",
	},
}

// roundTripCases are RDF 1.2 datasets (as N-Quads) whose reification
// structure is awkward: they must round trip.
var roundTripCases = []string{
	// Two reifiers that annotate each other's triples (a cycle).
	`_:a <http://x/p> _:b .
_:b <http://x/p> _:a .
_:a <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:b <http://x/p> _:a )>> .
_:b <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:a <http://x/p> _:b )>> .
`,
	`<http://x/a> <http://x/p> <http://x/b> .
<http://x/b> <http://x/p> <http://x/a> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/b> <http://x/p> <http://x/a> )>> .
<http://x/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> .
`,
	// IRI reifiers absorbed in two graphs that annotate each other.
	`<http://x/a> <http://x/p> <http://x/b> <http://x/g1> .
<http://x/b> <http://x/p> <http://x/a> <http://x/g1> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/b> <http://x/p> <http://x/a> )>> <http://x/g1> .
<http://x/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> <http://x/g1> .
<http://x/a> <http://x/p> <http://x/b> <http://x/g2> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> <http://x/g2> .
`,
	// One reifier for two asserted triples, and one referenced elsewhere.
	`<http://x/s> <http://x/p> <http://x/o1> .
<http://x/s> <http://x/p> <http://x/o2> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o1> )>> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o2> )>> .
_:r <http://x/a> "x" .
_:q <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o1> )>> .
<http://x/z> <http://x/ref> _:q .
`,
	// A reified list triple, and a list of reified triples.
	`<http://x/s> <http://x/p> _:l1 .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1" .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1" )>> .
<http://x/t> <http://x/p> _:m1 .
_:m1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:e .
_:m1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
_:e <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/b> <http://x/c> )>> .
`,
	// Blank reifier in two graphs, and reifier that is a graph name.
	`<http://x/s> <http://x/p> <http://x/o> <http://x/g> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> <http://x/g> .
_:r <http://x/a> <http://x/b> .
<http://x/s> <http://x/p> <http://x/o> _:h .
_:h <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> _:h .
`,
}

// chain returns n asserted triples, each annotated by an anonymous
// reifier whose one property is the next triple: nesting n deep.
func chain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "_:r%d <http://x/p> _:r%d .\n", i, i+1)
		fmt.Fprintf(&b, "_:r%d <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:r%d <http://x/p> _:r%d )>> .\n", i+1, i, i+1)
	}
	return b.String()
}

// deepAnnotation returns a triple annotated by a reifier whose property is
// annotated by another, and so on n deep: labelled blank reifiers (they
// occur in triple terms) whose annotation blocks nest past maxNest.
func deepAnnotation(n int) string {
	var b strings.Builder
	b.WriteString("<http://x/s> <http://x/p> <http://x/o> .\n_:r0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "_:r%d <http://x/q> \"%d\" .\n", i, i)
		fmt.Fprintf(&b, "_:r%d <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:r%d <http://x/q> \"%d\" )>> .\n", i+1, i, i)
	}
	return b.String()
}

// TestWriterReification checks the RDF 1.2 reification syntax on small
// cases: exact text where it is written by hand, else a round trip.
func TestWriterReification(t *testing.T) {
	read := func(t *testing.T, nq string) *rdf.Dataset {
		d := rdf.NewDataset()
		if err := ntriples.Parse(strings.NewReader(nq), ntriples.NQuads, d, rdf.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range writeCases {
		t.Run(c.name, func(t *testing.T) {
			d := read(t, c.nquads)
			var buf bytes.Buffer
			if err := turtle.Write(&buf, d, turtle.TriG, turtle.WriteOptions{Prefixes: []rdf.Prefix{}}); err != nil {
				t.Fatal(err)
			}
			if buf.String() != c.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), c.want)
			}
			if msg := roundTrip(d, turtle.TriG); msg != "" {
				t.Error(msg)
			}
		})
	}
	for i, nq := range append(roundTripCases, chain(3), chain(200), deepAnnotation(200)) {
		if msg := roundTrip(read(t, nq), turtle.TriG); msg != "" {
			t.Errorf("case %d: %s", i, msg)
		}
	}
}
