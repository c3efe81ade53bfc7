package chunk

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestNomismaDefaultFormat chunks the whole Nomisma graph (757k triples)
// with the default format (ISOLDA 0.4) and a 400-token budget, as
// `isolda chunk ../shared/data/big/nomisma.nt.gz --budget 400` does, and
// decodes every document: each must decode to exactly the statements it
// reports kept, every one of them a statement of the graph (statements
// with blank nodes up to their labels). The encoder once panicked after
// ~900 documents of this run (a nested table with no column).
func TestNomismaDefaultFormat(t *testing.T) {
	if testing.Short() {
		t.Skip("long test (the whole Nomisma graph): skipped in -short")
	}
	d := testgraph.Nomisma(t, 0)
	blankShape := func(q rdf.Quad) (rdf.Quad, bool) {
		blank := false
		for _, t := range []*rdf.Term{&q.S, &q.O, &q.G} {
			if t.IsBlank() {
				*t, blank = rdf.NewBlank("_"), true
			}
		}
		return q.Key(), blank
	}
	shapes := map[rdf.Quad]bool{}
	for _, q := range d.Quads() {
		if s, ok := blankShape(q); ok {
			shapes[s] = true
		}
	}
	c, err := New(Options{Budget: 400}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(readDataset(d, 0), pw, RunOptions{})
		pw.CloseWithError(err)
		done <- err
	}()
	docs, kept := 0, 0
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var ch Chunk
		if err := json.Unmarshal(sc.Bytes(), &ch); err != nil {
			t.Fatalf("document %d: %v", docs+1, err)
		}
		docs++
		if ch.Format != DefaultFormat {
			t.Fatalf("%s: format %q, want the default %q", ch.Entity, ch.Format, DefaultFormat)
		}
		got, err := isolda.Decode(strings.NewReader(ch.Text))
		if err != nil {
			t.Fatalf("%s: decode: %v\n%s", ch.Entity, err, ch.Text)
		}
		if got.Len() != ch.Kept {
			t.Fatalf("%s: decodes to %d statements, reports %d kept\n%s", ch.Entity, got.Len(), ch.Kept, ch.Text)
		}
		if ch.Tokens > 400 {
			t.Fatalf("%s: %d tokens over the budget of 400", ch.Entity, ch.Tokens)
		}
		for _, q := range got.Quads() {
			if s, blank := blankShape(q); blank && !shapes[s] || !blank && !d.Has(q) {
				t.Fatalf("%s: decoded statement %s is not in the graph\n%s", ch.Entity, q, ch.Text)
			}
		}
		kept += ch.Kept
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Every IRI subject of the graph gets a document.
	subjects := map[rdf.Term]bool{}
	for _, q := range d.Quads() {
		if q.S.IsIRI() {
			subjects[q.S] = true
		}
	}
	if docs != len(subjects) {
		t.Fatalf("%d documents for %d IRI subjects", docs, len(subjects))
	}
	t.Logf("nomisma: %d statements, %d ISOLDA 0.4 documents within 400 tokens decoded, %d statements kept", d.Len(), docs, kept)
}

// TestCorpusDefaultFormat chunks every real graph of testdata/corpus with
// the default format, with and without a budget, and decodes every
// document: it must decode to exactly the statements it reports kept.
func TestCorpusDefaultFormat(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.*"))
	if len(files) < 30 {
		t.Fatalf("corpus: %d files", len(files))
	}
	docs := 0
	for _, path := range files {
		d, err := rdfio.ReadFile(path, os.Stdin, rdfio.Options{ReadOptions: rdf.ReadOptions{Base: "https://corpus.isolda.example/"}})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, budget := range []int{0, 400} {
			out := runChunks(t, d, Options{Budget: budget}, RunOptions{}, 0)
			for _, ch := range parseChunks(t, out) {
				got, err := isolda.Decode(strings.NewReader(ch.Text))
				if err != nil {
					t.Fatalf("%s %s budget %d: decode: %v\n%s", filepath.Base(path), ch.Entity, budget, err, ch.Text)
				}
				if got.Len() != ch.Kept || budget == 0 && ch.Kept != ch.Total {
					t.Fatalf("%s %s budget %d: decodes to %d statements, reports %d kept of %d", filepath.Base(path), ch.Entity, budget, got.Len(), ch.Kept, ch.Total)
				}
				docs++
			}
		}
	}
	t.Logf("corpus: %d graphs chunked with the default format, %d documents decoded", len(files), docs)
}
