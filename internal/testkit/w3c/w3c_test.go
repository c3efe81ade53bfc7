package w3c

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// TestLoadCounts checks the entry counts per test type against the table in
// the conformance folder's README.md (counted there with rdflib).
func TestLoadCounts(t *testing.T) {
	want := map[string]map[string]int{
		"turtle":         {"TestTurtleEval": 145, "TestTurtlePositiveSyntax": 74, "TestTurtleNegativeSyntax": 94},
		"trig":           {"TestTrigEval": 143, "TestTrigPositiveSyntax": 98, "TestTrigNegativeSyntax": 115},
		"ntriples":       {"TestNTriplesPositiveSyntax": 41, "TestNTriplesNegativeSyntax": 29},
		"nquads":         {"TestNQuadsPositiveSyntax": 53, "TestNQuadsNegativeSyntax": 34},
		"rdfxml":         {"TestXMLEval": 126, "TestXMLNegativeSyntax": 40},
		"rdf12-turtle":   {"TestTurtleEval": 29, "TestTurtlePositiveSyntax": 41, "TestTurtleNegativeSyntax": 33},
		"rdf12-trig":     {"TestTrigEval": 25, "TestTrigPositiveSyntax": 24, "TestTrigNegativeSyntax": 11},
		"rdf12-ntriples": {"TestNTriplesPositiveSyntax": 7, "TestNTriplesNegativeSyntax": 22, "TestNTriplesPositiveC14N": 41},
		"rdf12-nquads":   {"TestNQuadsPositiveSyntax": 7, "TestNQuadsNegativeSyntax": 20, "TestNQuadsPositiveC14N": 41},
		"rdf12-rdfxml":   {"TestXMLEval": 29, "TestXMLNegativeSyntax": 2},
		"rdf-canon":      {"RDFC10EvalTest": 64, "RDFC10MapTest": 21, "RDFC10NegativeEvalTest": 1},
	}
	dir := shared.MustPath(t, "conformance")
	suites := make([]string, 0, len(want))
	for s := range want {
		suites = append(suites, s)
	}
	sort.Strings(suites)
	for _, suite := range suites {
		tests, err := Load(filepath.Join(dir, suite, "manifest.ttl"))
		if err != nil {
			t.Errorf("%s: %v", suite, err)
			continue
		}
		got := map[string]int{}
		for _, tc := range tests {
			got[tc.Type]++
			if tc.Action == "" {
				t.Errorf("%s: %s has no action", suite, tc.ID)
				continue
			}
			if _, err := os.Stat(tc.Action); err != nil {
				t.Errorf("%s: %s: action: %v", suite, tc.ID, err)
			}
			if tc.Result != "" {
				if _, err := os.Stat(tc.Result); err != nil {
					t.Errorf("%s: %s: result: %v", suite, tc.ID, err)
				}
			}
			if tc.Suite != suite {
				t.Errorf("%s: %s has suite %q", suite, tc.ID, tc.Suite)
			}
		}
		line := fmt.Sprintf("w3c: %-15s %4d entries %v", suite, len(tests), got)
		t.Log(line)
		for typ, n := range want[suite] {
			if got[typ] != n {
				t.Errorf("%s: %d %s tests, want %d", suite, got[typ], typ, n)
			}
		}
		for typ, n := range got {
			if _, ok := want[suite][typ]; !ok {
				t.Errorf("%s: unexpected type %s (%d)", suite, typ, n)
			}
		}
	}
}

// TestBaseAndInclude checks the published base of a test and that
// FollowExternal adds the RDF 1.1 suite to the RDF 1.2 Turtle manifest.
func TestBaseAndInclude(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	tests, err := Load(filepath.Join(dir, "turtle", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, tc := range tests {
		if tc.Name == "turtle-subm-01" {
			found = true
			if tc.ActionIRI != "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-turtle/turtle-subm-01.ttl" {
				t.Errorf("ActionIRI = %s", tc.ActionIRI)
			}
			if filepath.Base(tc.Action) != "turtle-subm-01.ttl" || filepath.Base(tc.Result) != "turtle-subm-01.nt" {
				t.Errorf("Action, Result = %s, %s", tc.Action, tc.Result)
			}
			if tc.ID != "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-turtle/manifest.ttl#turtle-subm-01" {
				t.Errorf("ID = %s", tc.ID)
			}
		}
	}
	if !found {
		t.Error("turtle-subm-01 not found")
	}
	all, err := LoadWith(filepath.Join(dir, "rdf12-turtle", "manifest.ttl"), Options{FollowExternal: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := 29 + 41 + 33 + 145 + 74 + 94; len(all) != want {
		t.Errorf("with FollowExternal: %d tests, want %d", len(all), want)
	}
	n := 0
	for _, tc := range all {
		if tc.Suite == "turtle" {
			n++
		}
		if tc.Negative() != strings.Contains(tc.Type, "Negative") {
			t.Errorf("Negative() wrong for %s", tc.ID)
		}
	}
	if n != 145+74+94 {
		t.Errorf("%d tests from the turtle suite, want %d", n, 145+74+94)
	}
	// Approval of a proposed test.
	proposed := 0
	for _, tc := range tests {
		if tc.Approval == "Proposed" {
			proposed++
		}
	}
	if proposed != 8 {
		t.Errorf("%d proposed turtle tests, want 8", proposed)
	}
}
