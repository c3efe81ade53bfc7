package graphtext

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestSharedDataRoundTrip derives the labelled graph of every RDF example
// in ../shared/data/examples, round-trips it through every lossless format
// (directed, and again undirected) and checks that every other format
// encodes it.
func TestSharedDataRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shared.MustPath(t, "data", "examples"), "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".md") {
			continue
		}
		d, err := rdfio.ReadFile(path, nil, rdfio.Options{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, undirected := range []bool{false, true} {
			g := graph.FromRDF(d, graph.Options{Undirected: undirected})
			if len(g.Nodes) == 0 || len(g.Edges) == 0 {
				t.Errorf("%s: empty graph", path)
				continue
			}
			for _, f := range Formats() {
				if strings.HasPrefix(f.Name, "tlag_") {
					continue // their name lists hold at most 21 nodes
				}
				var sb strings.Builder
				if err := Encode(&sb, g, f.Name, Options{}); err != nil {
					t.Errorf("%s %s: %v", path, f.Name, err)
					continue
				}
				if !f.Lossless {
					continue
				}
				back, err := Decode(strings.NewReader(sb.String()), f.Name)
				if err != nil {
					t.Errorf("%s %s: decode: %v", path, f.Name, err)
					continue
				}
				if !Equal(g, back) {
					t.Errorf("%s %s: round trip changed the graph", path, f.Name)
					continue
				}
				n++
			}
			t.Logf("%s (undirected=%v): %d nodes, %d edges", filepath.Base(path), undirected, len(g.Nodes), len(g.Edges))
		}
	}
	t.Logf("shared data round trips: %d passed", n)
}
