package ntriples

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// resultExceptions are expected-result files of other suites that are not
// RDF 1.1 N-Triples / N-Quads, with the reason.
var resultExceptions = map[string]string{
	"jsonld/toRdf/0118-out.nq": "generalized RDF (produceGeneralizedRdf): a blank node as predicate",
	"jsonld/toRdf/e075-out.nq": "generalized RDF (produceGeneralizedRdf): a blank node as predicate",
}

// walkQuadFiles calls fn, in lexical order, with every N-Triples (.nt)
// and N-Quads (.nq) file below root/dir: its path relative to root
// (slash-separated), its bytes and its syntax.
func walkQuadFiles(root, dir string, fn func(rel string, data []byte, syntax Syntax) error) error {
	return filepath.WalkDir(filepath.Join(root, dir), func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		syntax := NTriples
		switch {
		case strings.HasSuffix(path, ".nq"):
			syntax = NQuads
		case !strings.HasSuffix(path, ".nt"):
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), data, syntax)
	})
}

// TestOtherSuitesResults parses the expected results of the RDF 1.1
// Turtle, TriG and RDF/XML suites, the JSON-LD toRdf suite and the RDF
// canonicalization suite: every one is N-Triples or N-Quads written by the
// W3C working groups, so all must parse.
func TestOtherSuitesResults(t *testing.T) {
	root := shared.MustPath(t, "conformance")
	for _, dir := range []string{"turtle", "trig", "rdfxml", "jsonld/toRdf", "rdf-canon"} {
		ok, bad, quads := 0, 0, 0
		err := walkQuadFiles(root, dir, func(rel string, data []byte, syntax Syntax) error {
			n := 0
			perr := Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), rdf.ReadOptions{File: rel})
			reason, listed := resultExceptions[rel]
			switch {
			case perr == nil && listed:
				t.Errorf("%s parses but is listed as an exception (%s)", rel, reason)
			case perr != nil && !listed:
				t.Errorf("%s: %v", rel, perr)
				bad++
			case perr != nil:
				bad++
				line := fmt.Sprintf("  rejected as expected: %s: %s", rel, reason)
				t.Log(line)
			default:
				ok++
				quads += n
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("expected results %-13s parsed %4d files (%5d statements), rejected %d", dir, ok, quads, bad)
		t.Log(line)
	}
}

// TestCanonResultsRoundTrip reads the expected outputs of the RDF Dataset
// Canonicalization suite, which are canonical N-Quads, and writes them back
// in the same order: the text must not change.
func TestCanonResultsRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shared.MustPath(t, "conformance", "rdf-canon", "rdfc10"), "*-rdfc10.nq"))
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w := NewWriter(&out, NQuads)
		if err := Parse(bytes.NewReader(data), NQuads, w, rdf.ReadOptions{File: filepath.Base(path)}); err != nil {
			t.Errorf("%v", err)
			continue
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("%s: canonical output differs:\n got: %q\nwant: %q", filepath.Base(path), out.Bytes(), data)
			continue
		}
		same++
	}
	line := fmt.Sprintf("rdf-canon expected outputs written back unchanged: %d of %d", same, len(files))
	t.Log(line)
	if len(files) == 0 {
		t.Error("no rdf-canon result files found")
	}
}
