package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

const streamInput = `@prefix ex: <http://example.org/> .
ex:b ex:name "B" .
ex:a a ex:T ; ex:name "A" ; ex:knows ex:b, [ ex:name "anon" ] .
ex:a ex:name "A" .
`

// TestConvertStreamNQuads checks that --stream writes the statements in
// the order the reader completes them (a nested blank node's statements
// before the one that refers to it), duplicates included, as canonical N-Quads lines, and that
// without --stream the output stays sorted and deduplicated.
func TestConvertStreamNQuads(t *testing.T) {
	code, out, errs := runCLI(t, streamInput, "convert", "--stream", "-f", "ttl", "-t", "nquads", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `<http://example.org/b> <http://example.org/name> "B" .
<http://example.org/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/T> .
<http://example.org/a> <http://example.org/name> "A" .
<http://example.org/a> <http://example.org/knows> <http://example.org/b> .
_:genid0 <http://example.org/name> "anon" .
<http://example.org/a> <http://example.org/knows> _:genid0 .
<http://example.org/a> <http://example.org/name> "A" .
`
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	_, sorted, _ := runCLI(t, streamInput, "convert", "-f", "ttl", "-t", "nquads", "-")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	slices.Sort(lines)
	lines = slices.Compact(lines)
	if strings.Join(lines, "\n")+"\n" != sorted {
		t.Fatalf("the sorted output is not the streamed lines sorted and deduplicated:\n%s", sorted)
	}
}

// TestConvertStreamTurtleRoundTrip checks that --stream Turtle and TriG
// read back to the input graph.
func TestConvertStreamTurtleRoundTrip(t *testing.T) {
	in := rdftest.Read(t, streamInput, rdfio.Options{Format: rdfio.Turtle})
	for _, to := range []string{"turtle", "trig", "ntriples"} {
		code, out, errs := runCLI(t, streamInput, "convert", "--stream", "-f", "ttl", "-t", to, "-")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", to, code, errs)
		}
		back, err := rdfio.Read(strings.NewReader(out), rdfio.Options{Format: rdfio.TriG})
		if err != nil {
			t.Fatalf("%s: %v\n%s", to, err, out)
		}
		if ok, err := canon.Isomorphic(in, back); err != nil || !ok {
			t.Fatalf("%s: not isomorphic (%v):\n%s", to, err, out)
		}
	}
}

// TestConvertStreamErrors checks the refusals: an output that needs the
// whole graph, a named graph in Turtle, and bad input (exit 2, with the
// position, after the statements before it).
func TestConvertStreamErrors(t *testing.T) {
	code, _, errs := runCLI(t, streamInput, "convert", "--stream", "-f", "ttl", "-t", "jsonld", "-")
	if code != 2 || !strings.Contains(errs, "--stream writes ntriples, nquads, turtle or trig") {
		t.Errorf("jsonld: exit %d: %s", code, errs)
	}
	code, _, errs = runCLI(t, "<http://e/s> <http://e/p> <http://e/o> <http://e/g> .\n", "convert", "--stream", "-f", "nq", "-t", "turtle", "-")
	if code != 2 || !strings.Contains(errs, "named graphs") {
		t.Errorf("named graph as Turtle: exit %d: %s", code, errs)
	}
	bad := "<http://e/s> <http://e/p> <http://e/o> .\n<http://e/s> <http://e/p> .\n"
	code, out, errs := runCLI(t, bad, "convert", "--stream", "-f", "nt", "-t", "nt", "-")
	if code != 2 || !strings.Contains(errs, "<stdin>:2:") || out != "<http://e/s> <http://e/p> <http://e/o> .\n" {
		t.Errorf("bad input: exit %d, out %q, err %s", code, out, errs)
	}
}

// TestConvertStreamLimits checks that streaming lifts the size limits
// (memory does not grow with the input) but keeps the term length limit.
func TestConvertStreamLimits(t *testing.T) {
	lim := streamLimits().WithDefaults()
	if lim.MaxBytes >= 0 || lim.MaxQuads >= 0 || lim.MaxTermLength != rdf.DefaultLimits.MaxTermLength {
		t.Fatalf("limits %+v", lim)
	}
}
