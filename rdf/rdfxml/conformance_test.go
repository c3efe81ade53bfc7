package rdfxml

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/w3c"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// unsupported lists the W3C tests this reader does not pass, with the
// reason. Every other test must pass; a listed test that starts passing
// fails the run so that the table stays true.
var unsupported = map[string]string{}

// suiteResult counts the outcomes of one suite.
type suiteResult struct {
	pass, fail, unsupported int
	byType                  map[string][2]int // test type -> passed, run
}

func TestConformanceRDF11(t *testing.T) {
	runSuite(t, "rdfxml")
}

func TestConformanceRDF12(t *testing.T) {
	runSuite(t, "rdf12-rdfxml")
}

func runSuite(t *testing.T, folder string) {
	manifest := shared.MustPath(t, "conformance", folder, "manifest.ttl")
	tests, err := w3c.Load(manifest)
	if err != nil {
		t.Fatalf("loading %s: %v", manifest, err)
	}
	if len(tests) == 0 {
		t.Fatalf("%s lists no tests", manifest)
	}
	res := suiteResult{byType: map[string][2]int{}}
	var notes []string
	for _, tc := range tests {
		err := runTest(tc)
		reason, listed := unsupported[tc.Name]
		c := res.byType[tc.Type]
		c[1]++
		switch {
		case err == nil && listed:
			res.fail++
			t.Errorf("%s passes but is listed as unsupported (%s): update the table", tc.Name, reason)
		case err == nil:
			res.pass++
			c[0]++
		case listed:
			res.unsupported++
			notes = append(notes, fmt.Sprintf("%-28s %s", tc.Name, reason))
		default:
			res.fail++
			t.Errorf("%s (%s): %v", tc.Name, tc.Type, err)
		}
		res.byType[tc.Type] = c
	}
	types := make([]string, 0, len(res.byType))
	for k := range res.byType {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, ty := range types {
		c := res.byType[ty]
		line := fmt.Sprintf("suite %s: %s passed %d/%d", folder, ty, c[0], c[1])
		t.Log(line)
	}
	line := fmt.Sprintf("suite %s: %d passed, %d failed, %d unsupported (of %d)", folder, res.pass, res.fail, res.unsupported, len(tests))
	t.Log(line)
	for _, n := range notes {
		t.Log("  unsupported: " + n)
	}
}

// runTest runs one W3C test and returns why it did not pass.
func runTest(tc w3c.Test) error {
	switch tc.Type {
	case "TestXMLEval":
		got := rdf.NewDataset()
		if err := parseFile(tc.Action, tc.ActionIRI, got); err != nil {
			return fmt.Errorf("parse: %w", err)
		}
		want, err := w3c.ReadResult(tc.Result)
		if err != nil {
			return fmt.Errorf("expected result: %w", err)
		}
		ok, err := canon.Isomorphic(got, want)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("graphs differ:\n got:\n%s want:\n%s", dump(got), dump(want))
		}
		return nil
	case "TestXMLNegativeSyntax":
		if err := parseFile(tc.Action, tc.ActionIRI, rdf.NewDataset()); err == nil {
			return fmt.Errorf("parsed without error")
		}
		return nil
	}
	return fmt.Errorf("unknown test type %s", tc.Type)
}

func parseFile(path, base string, d *rdf.Dataset) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return Parse(f, d, rdf.ReadOptions{File: filepath.Base(path), Base: base})
}

func dump(d *rdf.Dataset) string {
	var b strings.Builder
	for _, q := range d.Sorted() {
		b.WriteString("  ")
		b.WriteString(q.String())
		b.WriteByte('\n')
	}
	return b.String()
}
