package ntriples

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// suite is one W3C test suite and the number of tests of each type its
// manifest lists, from the table in shared/conformance/README.md (counted
// there with rdflib).
type suite struct {
	dir    string
	counts map[string]int
}

var suites = []suite{
	{"ntriples", map[string]int{"TestNTriplesPositiveSyntax": 41, "TestNTriplesNegativeSyntax": 29}},
	{"nquads", map[string]int{"TestNQuadsPositiveSyntax": 53, "TestNQuadsNegativeSyntax": 34}},
	{"rdf12-ntriples", map[string]int{"TestNTriplesPositiveSyntax": 7, "TestNTriplesNegativeSyntax": 22, "TestNTriplesPositiveC14N": 41}},
	{"rdf12-nquads", map[string]int{"TestNQuadsPositiveSyntax": 7, "TestNQuadsNegativeSyntax": 20, "TestNQuadsPositiveC14N": 41}},
}

// unsupported lists the tests this package does not pass, by suite and
// action file name, with the reason. Each must fail with an error saying
// that triple terms are not supported; any other test must pass. Since
// triple terms are supported, it is empty.
var unsupported = map[string]string{}

// runTest runs one manifest test and returns nil when it passes. The W3C
// suites test a conforming parser, which isolda's readers are with
// ReadOptions.Strict: positive tests must parse with and without Strict
// and warn about nothing, negative tests must be rejected with Strict, and
// without it either rejected or kept with a warning (a term defect, by the
// reader policy of package rdf), never accepted silently. lenient counts
// the negative tests kept with a warning.
func runTest(tc manifestTest, lenient map[string]int) error {
	syntax := syntaxOf(tc.Type)
	input, err := os.ReadFile(tc.Action)
	if err != nil {
		return err
	}
	warnings := 0
	opts := rdf.ReadOptions{File: filepath.Base(tc.Action), Warn: func(*rdf.ParseError) { warnings++ }}
	strict := opts
	strict.Strict = true
	discard := rdf.SinkFunc(func(rdf.Quad) error { return nil })
	switch {
	case strings.HasSuffix(tc.Type, "PositiveSyntax"):
		if err := Parse(bytes.NewReader(input), syntax, discard, strict); err != nil {
			return err
		}
		if err := Parse(bytes.NewReader(input), syntax, discard, opts); err != nil {
			return err
		}
		if warnings > 0 {
			return fmt.Errorf("%d warnings for a valid document", warnings)
		}
		return nil
	case strings.HasSuffix(tc.Type, "NegativeSyntax"):
		err := Parse(bytes.NewReader(input), syntax, discard, strict)
		var perr *rdf.ParseError
		if err == nil {
			return errors.New("accepted a document that must be rejected")
		}
		if !errors.As(err, &perr) || perr.Line < 1 || perr.Column < 1 {
			return fmt.Errorf("rejected, but without a ParseError with a position: %v", err)
		}
		if err := Parse(bytes.NewReader(input), syntax, discard, opts); err == nil {
			if warnings == 0 {
				return errors.New("accepted without Strict and without a warning")
			}
			lenient[tc.Type]++
		}
		return nil
	case strings.HasSuffix(tc.Type, "PositiveC14N"):
		want, err := os.ReadFile(tc.Result)
		if err != nil {
			return err
		}
		var out bytes.Buffer
		w := NewCanonicalWriter(&out, syntax)
		if err := Parse(bytes.NewReader(input), syntax, w, strict); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if !bytes.Equal(out.Bytes(), want) {
			return fmt.Errorf("canonical output differs:\n got: %q\nwant: %q", out.Bytes(), want)
		}
		return nil
	}
	return fmt.Errorf("unknown test type %s", tc.Type)
}

func TestConformance(t *testing.T) {
	root := shared.MustPath(t, "conformance")
	seenUnsupported := map[string]bool{}
	for _, s := range suites {
		t.Run(s.dir, func(t *testing.T) {
			tests, skipped, err := loadManifest(filepath.Join(root, s.dir, "manifest.ttl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, inc := range skipped {
				t.Logf("%s: include %s not followed (another suite in this test)", s.dir, inc)
			}
			counts := map[string]int{}
			for _, tc := range tests {
				counts[tc.Type]++
			}
			for typ, want := range s.counts {
				if counts[typ] != want {
					t.Errorf("manifest lists %d %s tests, the README says %d", counts[typ], typ, want)
				}
			}
			for typ, n := range counts {
				if _, ok := s.counts[typ]; !ok {
					t.Errorf("manifest lists %d tests of unexpected type %s", n, typ)
				}
			}
			pass, fail, unsup, byTT, lenient := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
			var notPassed []string
			for _, tc := range tests {
				rel, _ := filepath.Rel(root, tc.Action)
				rel = filepath.ToSlash(rel)
				err := runTest(tc, lenient)
				if reason, ok := unsupported[rel]; ok {
					seenUnsupported[rel] = true
					switch {
					case err == nil:
						t.Errorf("%s (%s) passes but is listed as unsupported: update the table", tc.Name, rel)
					case !strings.Contains(err.Error(), "triple terms <<( s p o )>> are not supported"):
						t.Errorf("%s (%s): unsupported test failed for another reason: %v", tc.Name, rel, err)
					default:
						unsup[tc.Type]++
						notPassed = append(notPassed, fmt.Sprintf("%-55s %s", rel, reason))
					}
					continue
				}
				if err != nil {
					fail[tc.Type]++
					t.Errorf("%s (%s, %s): %v", tc.Name, tc.Type, rel, err)
					continue
				}
				pass[tc.Type]++
				if strings.HasSuffix(tc.Type, "NegativeSyntax") {
					// Say so when a bad RDF 1.2 document is rejected only
					// because it has a well-formed triple term.
					perr := Parse(bytes.NewReader(mustRead(t, tc.Action)), syntaxOf(tc.Type), rdf.SinkFunc(func(rdf.Quad) error { return nil }), rdf.ReadOptions{Strict: true})
					if strings.Contains(perr.Error(), "not supported") {
						byTT[tc.Type]++
					}
				}
			}
			var types []string
			for typ := range counts {
				types = append(types, typ)
			}
			sort.Strings(types)
			total := 0
			for _, typ := range types {
				total += pass[typ]
				line := fmt.Sprintf("conformance: %-15s %-28s pass %3d  fail %3d  unsupported %3d  of %3d",
					s.dir, typ, pass[typ], fail[typ], unsup[typ], counts[typ])
				if lenient[typ] > 0 {
					line += fmt.Sprintf("  (%d rejected only with Strict: without it, kept with a warning)", lenient[typ])
				}
				if byTT[typ] > 0 {
					line += fmt.Sprintf("  (%d of the passes reject a triple term as unsupported rather than as malformed)", byTT[typ])
				}
				t.Log(line)
			}
			line := fmt.Sprintf("conformance: %-15s %-28s pass %3d of %3d", s.dir, "ALL", total, len(tests))
			t.Log(line)
			sort.Strings(notPassed)
			for _, np := range notPassed {
				line := fmt.Sprintf("conformance:   not supported: %s", np)
				t.Log(line)
			}
		})
	}
	for rel := range unsupported {
		if !seenUnsupported[rel] {
			t.Errorf("unsupported table names %s, which no manifest lists", rel)
		}
	}
}

func syntaxOf(testType string) Syntax {
	if strings.HasPrefix(testType, "TestNQuads") {
		return NQuads
	}
	return NTriples
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
