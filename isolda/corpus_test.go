package isolda

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestRealGraphsEveryOption encodes every real graph of testdata/corpus and
// examples/ in every version with each option of optionVariants, and
// requires an isomorphic round trip: the real-data counterpart of
// TestShapedRoundTrip (the nanopublication collection of the corpus made
// 0.4 panic with every option).
func TestRealGraphsEveryOption(t *testing.T) {
	if testing.Short() {
		t.Skip("every real graph in every option: not in -short")
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.*"))
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*.ttl"))
	files = append(files, examples...)
	if len(files) < 35 {
		t.Fatalf("real graphs: %d files, want the corpus and the examples", len(files))
	}
	variants := optionVariants(rand.New(rand.NewPCG(1, 1)))
	runs, graphs := 0, 0
	for _, path := range files {
		if filepath.Base(path) == "SOURCES" {
			continue
		}
		d, err := rdfio.ReadFile(path, os.Stdin, rdfio.Options{ReadOptions: rdf.ReadOptions{Base: "https://corpus.isolda.example/"}})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		graphs++
		for _, base := range variants {
			for _, v := range versions {
				o := base
				o.Version = v
				runs++
				_, iso, panicked, err := safeRoundTrip(t, d, o)
				if panicked != nil || err != nil || !iso {
					t.Errorf("%s options %+v: panic %v, error %v, isomorphic %v", filepath.Base(path), o, panicked, err, iso)
				}
			}
		}
	}
	t.Logf("real graphs: %d files, %d (graph, version, options) round trips", graphs, runs)
}
