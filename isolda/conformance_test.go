package isolda

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/shared"
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
		var pass, fail, unreadable, known int
		for _, f := range files {
			d, err := readNQuads(t, f)
			if err != nil {
				unreadable++ // negative syntax tests and RDF 1.2 triple terms
				continue
			}
			rel, _ := filepath.Rel(shared.MustPath(t, "conformance"), f)
			if os.Getenv("ISOLDA_TRACE") != "" {
				fmt.Println("file", rel)
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
		msg := fmt.Sprintf("suite %-12s files %4d: pass %4d, fail %d, known failures %d, not readable by the RDF layer %d",
			s.name, len(files), pass, fail, known, unreadable)
		t.Log(msg)
		fmt.Println(msg)
	}
	for f, why := range knownFailures {
		fmt.Printf("known failure: %s: %s\n", f, why)
	}
}
