package baseline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

// exampleFiles returns the RDF files of ../shared/data/examples.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	dir := shared.MustPath(t, "data", "examples")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		switch filepath.Ext(e.Name()) {
		case ".ttl", ".html", ".nt", ".nq", ".jsonld", ".rdf", ".trig":
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) < 3 {
		t.Fatalf("found %d example files in %s", len(files), dir)
	}
	return files
}

func readExample(t testing.TB, path string) *rdf.Dataset {
	t.Helper()
	return rdftest.ReadFile(t, path, rdfio.Options{})
}

// encodeDecode encodes d in the baseline name and decodes the text back.
func encodeDecode(t *testing.T, d *rdf.Dataset, name string) ([]byte, *rdf.Dataset) {
	t.Helper()
	var buf bytes.Buffer
	if err := baseline.Encode(&buf, d, name); err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	back, err := baseline.Decode(bytes.NewReader(buf.Bytes()), name, rdf.ReadOptions{})
	if err != nil {
		t.Fatalf("%s: decode: %v\n%s", name, err, buf.Bytes())
	}
	return buf.Bytes(), back
}

// roundTrip encodes d, decodes the text and checks isomorphism.
func roundTrip(t *testing.T, d *rdf.Dataset, name string) []byte {
	t.Helper()
	text, back := encodeDecode(t, d, name)
	iso, err := canon.Isomorphic(d, back)
	if err != nil {
		t.Fatal(err)
	}
	if !iso {
		t.Errorf("%s: not isomorphic after round trip (%d quads in, %d out)\n%s", name, d.Len(), back.Len(), text)
	}
	return text
}

func TestExamplesRoundTrip(t *testing.T) {
	for _, f := range exampleFiles(t) {
		d := readExample(t, f)
		for _, name := range baseline.Names() {
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				roundTrip(t, d, name)
			})
		}
	}
}
