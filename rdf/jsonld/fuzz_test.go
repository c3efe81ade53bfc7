package jsonld

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/shared"
	"github.com/isolda/isolda/rdf"
)

// fuzzOptions keeps fuzzing fast and offline.
func fuzzOptions() Options {
	return Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 1 << 16, MaxDepth: 64, MaxQuads: 10000}}}
}

// addSeeds adds the files matching pattern under the JSON-LD suite.
func addSeeds(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join(shared.MustPath(f, "conformance", "jsonld"), pattern))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkQuads verifies the shape of every quad a reader produced.
func checkQuads(t *testing.T, quads []rdf.Quad) {
	for _, q := range quads {
		if (!q.S.IsIRI() && !q.S.IsBlank()) || (!q.P.IsIRI() && !q.P.IsBlank()) || q.O.IsZero() ||
			q.G.IsLiteral() || (q.O.IsLiteral() && q.O.Datatype == "") {
			t.Fatalf("malformed quad %v", q)
		}
	}
}

func FuzzParseJSONLD(f *testing.F) {
	addSeeds(f, "toRdf/*-in.jsonld")
	f.Add([]byte(`{"@context": "https://schema.org", "@type": "Event", "name": "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := rdf.NewDataset()
		if err := Parse(bytes.NewReader(data), d, fuzzOptions()); err != nil {
			return
		}
		checkQuads(t, d.Quads())
		// What was read can be written and read back to as many quads.
		var buf bytes.Buffer
		if err := Write(&buf, d, WriteOptions{}); err != nil {
			t.Fatalf("write: %v", err)
		}
		back := rdf.NewDataset()
		if err := Parse(&buf, back, Options{}); err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if back.Len() != d.Len() {
			t.Fatalf("round trip: %d quads, then %d\n%s", d.Len(), back.Len(), buf.String())
		}
	})
}

func FuzzParseHTML(f *testing.F) {
	addSeeds(f, "html/*-in.html")
	f.Add([]byte(`<script type="application/ld+json">{"@id": "_:a", "http://x/p": 1}</script><base href="http://x/">`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := rdf.NewDataset()
		if err := ParseHTML(bytes.NewReader(data), d, fuzzOptions()); err != nil {
			return
		}
		checkQuads(t, d.Quads())
	})
}
