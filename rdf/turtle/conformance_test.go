package turtle_test

import (
	"bufio"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/w3c"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/turtle"
)

// knownFailures lists the conformance tests this package does not pass,
// by suite and test name, with the reason. Every other test must pass, and
// every test listed here must still fail (so the table stays honest).
//
// Keys are the suite folder and the last path segment of the test's IRI.
// It is empty: every test of the four suites passes.
var knownFailures = map[string]string{}

// parseFile reads a test document; warnings counts the warnings.
func parseFile(path string, syntax turtle.Syntax, base string, strict bool) (d *rdf.Dataset, warnings int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	d = rdf.NewDataset()
	opts := rdf.ReadOptions{File: filepath.Base(path), Base: base, Strict: strict, Warn: func(*rdf.ParseError) { warnings++ }}
	err = turtle.Parse(bufio.NewReader(f), syntax, d, opts)
	return d, warnings, err
}

// parseExpected reads the expected result of a test (w3c.ReadResult).
func parseExpected(path string) (*rdf.Dataset, error) { return w3c.ReadResult(path) }

// runTest runs one manifest entry and returns "" when it passes, else why
// not. The W3C suites test a conforming parser, which this reader is with
// ReadOptions.Strict: positive tests must pass with and without Strict and
// warn about nothing; negative tests must be rejected with Strict, and
// without it be rejected or kept with a warning (a term defect, by the
// reader policy of package rdf), which *lenient counts, never accepted
// silently.
func runTest(tc w3c.Test, lenient *int) string {
	syntax := testSyntax(tc)
	got, _, err := parseFile(tc.Action, syntax, tc.ActionIRI, true)
	switch {
	case tc.Negative():
		var pe *rdf.ParseError
		if err == nil {
			return "accepted a document that must be rejected"
		}
		if !errors.As(err, &pe) || pe.Line < 1 {
			return "rejected without a ParseError with a position: " + err.Error()
		}
		if _, warnings, err := parseFile(tc.Action, syntax, tc.ActionIRI, false); err == nil {
			if warnings == 0 {
				return "accepted without Strict and without a warning"
			}
			*lenient++
		}
		return ""
	case err != nil:
		return "rejected: " + err.Error()
	}
	if _, warnings, err := parseFile(tc.Action, syntax, tc.ActionIRI, false); err != nil || warnings > 0 {
		return fmt.Sprintf("without Strict: %d warnings, error %v", warnings, err)
	}
	switch {
	case !strings.HasSuffix(tc.Type, "Eval"):
		if msg := roundTrip(got, syntax); msg != "" {
			return "writer: " + msg
		}
	default:
		want, err := parseExpected(tc.Result)
		if err != nil {
			return "cannot read expected result: " + err.Error()
		}
		ok, err := canon.Isomorphic(got, want)
		if err != nil {
			return "isomorphism check: " + err.Error()
		}
		if !ok {
			return fmt.Sprintf("result not isomorphic to %s (%d quads, want %d)", filepath.Base(tc.Result), got.Len(), want.Len())
		}
		// Round trip through the writer.
		if msg := roundTrip(got, syntax); msg != "" {
			return "writer: " + msg
		}
	}
	return ""
}

// report prints a summary line (which .ci/run collects) and logs it.
func report(t *testing.T, format string, args ...any) {
	t.Helper()
	line := fmt.Sprintf(format, args...)
	t.Log(line)
}

// suites yields the tests of the Turtle and TriG suites, RDF 1.1 and 1.2,
// by suite folder.
func suites(t *testing.T) iter.Seq2[string, []w3c.Test] {
	dir := shared.MustPath(t, "conformance")
	return func(yield func(string, []w3c.Test) bool) {
		for _, suite := range []string{"turtle", "trig", "rdf12-turtle", "rdf12-trig"} {
			tests, err := w3c.Load(filepath.Join(dir, suite, "manifest.ttl"))
			if err != nil {
				t.Fatal(err)
			}
			if !yield(suite, tests) {
				return
			}
		}
	}
}

// testSyntax is the syntax of a Turtle or TriG suite test's input.
func testSyntax(tc w3c.Test) turtle.Syntax {
	if strings.Contains(tc.Type, "Trig") {
		return turtle.TriG
	}
	return turtle.Turtle
}

func TestConformance(t *testing.T) {
	for suite, tests := range suites(t) {
		pass, fail, known, lenient := 0, 0, 0, 0
		byType := map[string]*[2]int{} // passed, failed
		for _, tc := range tests {
			if byType[tc.Type] == nil {
				byType[tc.Type] = &[2]int{}
			}
			key := suite + "/" + tc.ID[strings.LastIndex(tc.ID, "/")+1:]
			why := runTest(tc, &lenient)
			reason, isKnown := knownFailures[key]
			if why == "" {
				byType[tc.Type][0]++
			} else {
				byType[tc.Type][1]++
			}
			switch {
			case why == "" && isKnown:
				t.Errorf("%s passes but is listed as a known failure (%s)", key, reason)
				pass++
			case why == "":
				pass++
			case isKnown:
				known++
				fail++
			default:
				fail++
				t.Errorf("%s %q (%s): %s", key, tc.Name, tc.Type, why)
			}
		}
		report(t, "conformance %-13s %3d tests: %3d passed, %3d failed (%d known, listed in knownFailures); %d negative tests rejected only with Strict (kept with a warning without it)", suite, len(tests), pass, fail, known, lenient)
		for _, typ := range slices.Sorted(maps.Keys(byType)) {
			report(t, "conformance %-13s   %-26s %3d passed, %3d failed", suite, typ, byType[typ][0], byType[typ][1])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(knownFailures)) {
		report(t, "known failure %-45s %s", k, knownFailures[k])
	}
}

// TestWriterRoundTripExpected writes every expected result of the Turtle
// and TriG eval tests (RDF 1.2 triple terms included), parses the output
// back and checks isomorphism.
func TestWriterRoundTripExpected(t *testing.T) {
	for suite, tests := range suites(t) {
		pass := 0
		for _, tc := range tests {
			if tc.Result == "" {
				continue
			}
			want, err := parseExpected(tc.Result)
			if err != nil {
				t.Errorf("%s: %v", tc.Result, err)
				continue
			}
			if msg := roundTrip(want, resultSyntax(tc.Result)); msg != "" {
				t.Errorf("%s: %s", tc.Result, msg)
				continue
			}
			pass++
		}
		report(t, "writer round trip %-13s %3d expected results passed", suite, pass)
	}
}

// TestNTriplesAsTurtle parses the positive N-Triples syntax tests as
// Turtle (N-Triples is a subset of Turtle) and checks that both readers
// agree.
func TestNTriplesAsTurtle(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	tests, err := w3c.Load(filepath.Join(dir, "ntriples", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	pass := 0
	for _, tc := range tests {
		if tc.Negative() {
			continue
		}
		got, _, err := parseFile(tc.Action, turtle.Turtle, tc.ActionIRI, true)
		if err != nil {
			t.Errorf("%s: %v", tc.Name, err)
			continue
		}
		want, err := parseExpected(tc.Action)
		if err != nil {
			t.Errorf("%s: rdf/ntriples: %v", tc.Name, err)
			continue
		}
		if ok, err := canon.Isomorphic(got, want); err != nil || !ok {
			t.Errorf("%s: Turtle reading differs from N-Triples reading (%v)", tc.Name, err)
			continue
		}
		pass++
	}
	report(t, "N-Triples positive syntax tests read as Turtle: %d passed", pass)
}
