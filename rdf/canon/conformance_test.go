package canon

import (
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/w3c"
	"github.com/isolda/isolda/rdf"
)

// loadCanonManifest reads the tests of the W3C rdf-canon suite's manifest,
// as every conformance test reads its suite (internal/w3c).
func loadCanonManifest(t *testing.T) []w3c.Test {
	tests, err := w3c.Load(shared.MustPath(t, "conformance", "rdf-canon", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// fragment returns the part of a test IRI after its '#', the test's name
// in the suite (test001c).
func fragment(id string) string { return id[strings.LastIndexByte(id, '#')+1:] }

// knownFailures lists the rdf-canon tests this implementation does not pass,
// with the reason. It is empty: every test passes.
var knownFailures = map[string]string{}

// TestRDFC10Conformance runs the W3C rdf-canon suite: RDFC10EvalTest
// (output equal to the expected N-Quads), RDFC10MapTest (issued identifiers
// map equal to the expected JSON) and RDFC10NegativeEvalTest (must fail
// with the work limit).
func TestRDFC10Conformance(t *testing.T) {
	tests := loadCanonManifest(t)
	type count struct{ pass, fail, total int }
	counts := map[string]*count{}
	for _, tc := range tests {
		typ := tc.Type
		c := counts[typ]
		if c == nil {
			c = &count{}
			counts[typ] = c
		}
		c.total++
		ok := t.Run(fragment(tc.ID), func(t *testing.T) {
			d := loadNQuads(t, tc.Action)
			var hash string
			if h := tc.Extra[w3c.RDFC+"hashAlgorithm"]; len(h) > 0 {
				hash = h[0]
			}
			res, err := Canonicalize(d, Options{HashAlgorithm: hash})
			if typ == "RDFC10NegativeEvalTest" {
				if !errors.Is(err, rdf.ErrLimit) {
					t.Fatalf("want a work limit error, got %v", err)
				}
				return
			}
			if typ != "RDFC10EvalTest" && typ != "RDFC10MapTest" {
				t.Fatalf("unknown test type %s", tc.Type)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(tc.Result)
			if err != nil {
				t.Fatal(err)
			}
			if typ == "RDFC10EvalTest" {
				if res.NQuads != string(want) {
					t.Fatalf("%s:\ngot:\n%s\nwant:\n%s", tc.Name, res.NQuads, want)
				}
				return
			}
			var issued map[string]string
			if err := json.Unmarshal(want, &issued); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(res.Issued, issued) {
				t.Fatalf("%s: issued map %v, want %v", tc.Name, res.Issued, issued)
			}
		})
		if ok {
			c.pass++
		} else {
			c.fail++
			if _, known := knownFailures[fragment(tc.ID)]; !known {
				t.Errorf("%s failed and is not a known failure", fragment(tc.ID))
			}
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(counts)) {
		c := counts[typ]
		t.Logf("rdf-canon %s: %d/%d passed, %d failed", typ, c.pass, c.total, c.fail)
	}
	for _, id := range slices.Sorted(maps.Keys(knownFailures)) {
		t.Logf("known failure %s: %s", id, knownFailures[id])
	}
}

// TestSuiteIsomorphism uses the suite's inputs and expected outputs as an
// oracle for the fast labelling: each input is isomorphic to its expected
// canonical output, and BlankOrder is stable under relabelling.
func TestSuiteIsomorphism(t *testing.T) {
	tests := loadCanonManifest(t)
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for _, tc := range tests {
		id := "#" + fragment(tc.ID)
		if tc.Type == "RDFC10NegativeEvalTest" {
			// The poison clique is hard for RDFC-1.0 but not for the fast
			// labelling.
			checkCanonical(t, id, loadNQuads(t, tc.Action), rng)
			continue
		}
		if tc.Type != "RDFC10EvalTest" {
			continue
		}
		in := loadNQuads(t, tc.Action)
		out := loadNQuads(t, tc.Result)
		if !mustIso(t, in, out) {
			t.Errorf("%s: input not isomorphic to its canonical output", id)
		}
		checkCanonical(t, id, in, rng)
		n++
	}
	t.Logf("rdf-canon inputs isomorphic to their outputs: %d", n)
}
