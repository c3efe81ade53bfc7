package turtle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/turtle"
)

// fuzzLimits keep each fuzz input cheap.
var fuzzLimits = rdf.Limits{MaxBytes: 1 << 20, MaxQuads: 5000, MaxDepth: 64, MaxTermLength: 1 << 12}

func addSeeds(f *testing.F, suites []string, exts ...string) {
	for _, suite := range suites {
		dir := shared.MustPath(f, "conformance", suite)
		filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			for _, ext := range exts {
				if filepath.Ext(path) == ext {
					if b, err := os.ReadFile(path); err == nil && len(b) < 1<<14 {
						f.Add(b)
					}
				}
			}
			return nil
		})
	}
}

// fuzzOne parses data; when it parses, the written form must parse back
// to an isomorphic dataset.
func fuzzOne(t *testing.T, data []byte, syntax turtle.Syntax) {
	d := rdf.NewDataset()
	opts := rdf.ReadOptions{Base: "http://example.org/base/doc", Limits: fuzzLimits}
	transientSame(t, data, syntax, opts)
	if err := turtle.Parse(bytes.NewReader(data), syntax, d, opts); err != nil {
		if _, ok := err.(*rdf.ParseError); !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, syntax, turtle.WriteOptions{}); err != nil {
		t.Fatalf("write: %v", err)
	}
	back := rdf.NewDataset()
	if err := turtle.Parse(bytes.NewReader(buf.Bytes()), syntax, back, rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: -1}}); err != nil {
		t.Fatalf("written output does not parse: %v\n%s", err, buf.String())
	}
	ok, err := canon.IsomorphicWith(d, back, canon.Options{MaxWork: 100000})
	if err != nil {
		return // too much work to decide (adversarial blank node structure)
	}
	if !ok {
		t.Fatalf("round trip not isomorphic:\ninput:\n%s\nwritten:\n%s", data, buf.String())
	}
}

// rdf12Seeds are RDF 1.2 edge cases: reifiers, annotations, reified and
// nested triple terms, blank nodes shared with triple terms.
var rdf12Seeds = []string{
	"PREFIX : <http://x/>\nVERSION \"1.2\"\n:s :p :o ~:r {| :a :b ; |} {| :c [ :d 1 ] |} ~ , :o2 ~ _:x .\n",
	"PREFIX : <http://x/>\n<< << :a :b :c >> :p <<( _:t :q ( ) )>> ~ [] >> :r <<( _:t :p <<( :s :p \"v\"@en--ltr )>> )>> .\n",
	"PREFIX : <http://x/>\n_:t :p <<( _:t :p _:t )>> .\n:g { << :a :b :c >> :p :o } GRAPH :h { :s :p :o {| :a :b |} }\n",
}

func FuzzParseTurtle(f *testing.F) {
	addSeeds(f, []string{"turtle", "rdf12-turtle"}, ".ttl", ".nt")
	for _, s := range rdf12Seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, data, turtle.Turtle) })
}

func FuzzParseTriG(f *testing.F) {
	addSeeds(f, []string{"trig", "rdf12-trig"}, ".trig", ".nq")
	for _, s := range rdf12Seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, data, turtle.TriG) })
}
