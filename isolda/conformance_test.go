package isolda

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// knownFailures lists conformance files whose round trip is known to fail,
// with the reason. It is empty: every readable file round-trips.
var knownFailures = map[string]string{}

// suiteFiles returns the expected-result files of a suite.
func suiteFiles(t *testing.T, dir string, match func(string) bool) []string {
	root := shared.MustPath(t, "conformance", dir)
	var out []string
	filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() && match(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestConformanceRoundTrip round-trips the expected results of the W3C
// suites under both versions, and checks that a shuffled, relabelled copy
// encodes to the same bytes.
func TestConformanceRoundTrip(t *testing.T) {
	nt := func(p string) bool { return strings.HasSuffix(p, ".nt") || strings.HasSuffix(p, ".nq") }
	suites := []struct {
		name  string
		dir   string
		match func(string) bool
	}{
		{"turtle", "turtle", nt},
		{"trig", "trig", nt},
		{"rdfxml", "rdfxml", func(p string) bool { return strings.HasSuffix(p, ".nt") }},
		{"rdf-canon", "rdf-canon", func(p string) bool { return strings.HasSuffix(p, "-in.nq") }},
		{"rdf12-turtle", "rdf12-turtle", nt},
		{"rdf12-trig", "rdf12-trig", nt},
		{"ntriples", "ntriples", func(p string) bool { return strings.HasSuffix(p, ".nt") }},
		{"nquads", "nquads", func(p string) bool { return strings.HasSuffix(p, ".nq") }},
	}
	for _, s := range suites {
		files := suiteFiles(t, s.dir, s.match)
		var pass, fail, unreadable, known, refused int
		for _, f := range files {
			d, err := readNQuads(t, f)
			if err != nil {
				unreadable++ // negative syntax tests
				continue
			}
			rel, _ := filepath.Rel(shared.MustPath(t, "conformance"), f)
			if hasTripleTerm(d) {
				// The notation has no RDF 1.2 triple terms: Encode must
				// refuse them with an error naming the term.
				if err := Encode(io.Discard, d, Options{}); err == nil || !strings.Contains(err.Error(), "triple term <<(") {
					t.Errorf("%s: Encode of a dataset with a triple term: got %v, want an error naming it", rel, err)
				}
				refused++
				continue
			}
			if os.Getenv("ISOLDA_TRACE") != "" {
				t.Log("file", rel)
			}
			ok := true
			for _, v := range versions {
				text, err, iso := roundTrip(t, d, Options{Version: v})
				if err != nil || !iso {
					ok = false
					if _, k := knownFailures[rel]; !k {
						t.Errorf("%s (%s): round trip failed: err=%v\n%s", rel, v, err, text)
					}
					continue
				}
				if again := encodeString(t, shuffled(d, 7), Options{Version: v}); again != text {
					ok = false
					t.Errorf("%s (%s): output depends on quad order or blank labels:\n%s\n---\n%s", rel, v, text, again)
				}
			}
			switch {
			case ok:
				pass++
			case knownFailures[rel] != "":
				known++
			default:
				fail++
			}
		}
		msg := fmt.Sprintf("suite %-12s files %4d: pass %4d, fail %d, known failures %d, not readable by the RDF layer %d, refused (RDF 1.2 triple terms) %d",
			s.name, len(files), pass, fail, known, unreadable, refused)
		t.Log(msg)
	}
	for f, why := range knownFailures {
		t.Logf("known failure: %s: %s", f, why)
	}
}

// hasTripleTerm reports whether d holds an RDF 1.2 triple term.
func hasTripleTerm(d *rdf.Dataset) bool {
	for id := 1; id <= d.NumTerms(); id++ {
		if d.Term(rdf.TermID(id)).IsTriple() {
			return true
		}
	}
	return false
}
