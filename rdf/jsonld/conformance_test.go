package jsonld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// The W3C JSON-LD 1.1 API test suite (w3c/json-ld-api tests/, see
// /work/shared/conformance/jsonld/ORIGIN.md): toRdf-manifest.jsonld and the
// ToRDFTest entries of html-manifest.jsonld. Positive tests compare the
// result with the expected N-Quads by isomorphism, negative tests expect an
// error with the named JSON-LD error code.

// testsBase is the published base IRI of the suite.
const testsBase = "https://w3c.github.io/json-ld-api/tests/"

// knownFailures lists every test of the two manifests this package does not
// pass, with the reason. The test fails if one of them starts passing (so
// the table stays true) or if any other test fails.
var knownFailures = map[string]string{
	// By design.
	"html#tr004": "by design: each script is its own document; the spec wraps all scripts in one array, " +
		"so a top-level @graph becomes a named graph there",
}

// isJSONLD10 reports whether a test is for JSON-LD 1.0 processors only
// (specVersion json-ld-1.0). Such tests are run in json-ld-1.0 processing
// mode and counted apart from the JSON-LD 1.1 tests.
func isJSONLD10(e manifestEntry) bool { return e.Option.SpecVersion == "json-ld-1.0" }

// tally counts the outcomes of the tests of one suite.
type tally struct {
	name                     string
	total, pass, known, fail int
	failures                 []string
}

// record counts one outcome; problem is "" for a pass.
func (c *tally) record(t *testing.T, id, testName, problem string) {
	t.Helper()
	c.total++
	reason, isKnown := knownFailures[id]
	switch {
	case problem == "" && isKnown:
		c.fail++
		t.Errorf("%s (%s) passes now: remove it from knownFailures (%s)", id, testName, reason)
	case problem == "":
		c.pass++
	case isKnown:
		c.known++
		c.failures = append(c.failures, fmt.Sprintf("  %-14s %s", id, reason))
	default:
		c.fail++
		t.Errorf("%s (%s): %s", id, testName, problem)
	}
}

// report prints the counts with t.Log and on standard output.
func (c *tally) report(t *testing.T) {
	t.Helper()
	summary := fmt.Sprintf("jsonld %s: %d tests: %d passed, %d known failures, %d unexpected failures (%.1f%%)",
		c.name, c.total, c.pass, c.known, c.fail, 100*float64(c.pass)/float64(max(c.total, 1)))
	t.Log(summary)
	if len(c.failures) > 0 {
		t.Logf("jsonld %s known failures:\n%s", c.name, strings.Join(c.failures, "\n"))
	}
}

type manifestEntry struct {
	ID              string   `json:"@id"`
	Type            []string `json:"@type"`
	Name            string   `json:"name"`
	Input           string   `json:"input"`
	Expect          string   `json:"expect"`
	ExpectErrorCode string   `json:"expectErrorCode"`
	Option          struct {
		SpecVersion           string `json:"specVersion"`
		ProcessingMode        string `json:"processingMode"`
		Base                  string `json:"base"`
		ExpandContext         string `json:"expandContext"`
		RDFDirection          string `json:"rdfDirection"`
		ProduceGeneralizedRdf bool   `json:"produceGeneralizedRdf"`
		ExtractAllScripts     *bool  `json:"extractAllScripts"`
	} `json:"option"`
}

type manifest struct {
	BaseIri  string          `json:"baseIri"`
	Sequence []manifestEntry `json:"sequence"`
}

func (e manifestEntry) is(t string) bool { return slices.Contains(e.Type, "jld:"+t) }

// suiteLoader serves the suite's URLs from the local copy, like the
// published test server (content types and Link headers are not modelled).
type suiteLoader struct{ dir string }

func (l suiteLoader) LoadDocument(u string) (*RemoteDocument, error) {
	rel, ok := strings.CutPrefix(u, testsBase)
	if !ok {
		return nil, LoadFailed("not in the test suite: "+u, nil)
	}
	rel, _, _ = strings.Cut(rel, "#")
	data, err := os.ReadFile(filepath.Join(l.dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, LoadFailed(err.Error(), err)
	}
	doc, err := decodeJSONDoc(data)
	if err != nil {
		return nil, LoadFailed(err.Error(), err)
	}
	return &RemoteDocument{DocumentURL: u, Document: doc}, nil
}

// runEntry runs one test and returns "" when it passes, else what went wrong.
func runEntry(dir string, e manifestEntry, html bool) string {
	input, fragment, _ := strings.Cut(e.Input, "#")
	opts := Options{
		ReadOptions:    rdf.ReadOptions{File: input, Base: testsBase + input},
		Loader:         suiteLoader{dir},
		ProcessingMode: e.Option.ProcessingMode,
		RDFDirection:   e.Option.RDFDirection,
		GeneralizedRDF: e.Option.ProduceGeneralizedRdf,
		DropInvalid:    true,
		HTMLScriptID:   fragment,
	}
	if opts.RDFDirection == "" {
		// The suite's default is JSON-LD 1.1's, null (this package's
		// default keeps directions as RDF 1.2 directional strings).
		opts.RDFDirection = NullDirection
	}
	if e.Option.Base != "" {
		opts.Base = e.Option.Base
	}
	if e.Option.ExpandContext != "" {
		opts.ExpandContext = testsBase + e.Option.ExpandContext
	}
	if e.Option.ExtractAllScripts != nil && !*e.Option.ExtractAllScripts {
		opts.HTMLFirstOnly = true
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(input)))
	if err != nil {
		return err.Error()
	}
	var quads []rdf.Quad
	sink := rdf.SinkFunc(func(q rdf.Quad) error { quads = append(quads, q); return nil })
	if html {
		err = ParseHTML(bytes.NewReader(data), sink, opts)
	} else {
		err = Parse(bytes.NewReader(data), sink, opts)
	}
	switch {
	case e.is("NegativeEvaluationTest"):
		return e.checkError(err)
	case err != nil:
		return "unexpected error: " + err.Error()
	case e.is("PositiveSyntaxTest"):
		return ""
	}
	want, rerr := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Expect)))
	if rerr != nil {
		return rerr.Error()
	}
	wantCanon, cerr := canonicalNQuads(string(want))
	if cerr != nil {
		return "cannot read expected result: " + cerr.Error()
	}
	if got := canonicalQuads(quads); got != wantCanon {
		return fmt.Sprintf("not isomorphic:\n got:\n%s\n want:\n%s", got, wantCanon)
	}
	return ""
}

// checkError returns why err does not pass the negative test e, or "" when
// it is an *Error with the expected code.
func (e manifestEntry) checkError(err error) string {
	if err == nil {
		return "expected error " + e.ExpectErrorCode + ", got none"
	}
	var je *Error
	if !errors.As(err, &je) || je.Code != e.ExpectErrorCode {
		return fmt.Sprintf("expected error %q, got %v", e.ExpectErrorCode, err)
	}
	return ""
}

// runSuite runs the entries of type testType listed in manifestFile (in
// the JSON-LD suite folder) with run, and reports the JSON-LD 1.1 entries
// and, run in json-ld-1.0 mode, the JSON-LD 1.0 ones.
func runSuite(t *testing.T, name, manifestFile, testType string, run func(dir string, e manifestEntry) string) {
	dir := shared.MustPath(t, "conformance", "jsonld")
	data, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.BaseIri != testsBase {
		t.Fatalf("baseIri = %q", m.BaseIri)
	}
	v11 := &tally{name: name}
	v10 := &tally{name: name + " (specVersion json-ld-1.0 tests, run in json-ld-1.0 mode)"}
	for _, e := range m.Sequence {
		if !e.is(testType) {
			continue
		}
		c := v11
		if isJSONLD10(e) {
			c = v10
			e.Option.ProcessingMode = JSONLD10
		}
		c.record(t, name+e.ID, e.Name, run(dir, e))
	}
	v11.report(t)
	if v10.total > 0 {
		v10.report(t)
	}
}

func TestConformanceToRDF(t *testing.T) {
	runSuite(t, "toRdf", "toRdf-manifest.jsonld", "ToRDFTest", func(dir string, e manifestEntry) string {
		return runEntry(dir, e, false)
	})
}

func TestConformanceHTML(t *testing.T) {
	runSuite(t, "html", "html-manifest.jsonld", "ToRDFTest", func(dir string, e manifestEntry) string {
		return runEntry(dir, e, true)
	})
}
