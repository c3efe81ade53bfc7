package isolda

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRealExamples round-trips the Turtle graphs of data/examples under
// both versions and checks that a shuffled, relabelled copy gives the same
// bytes.
func TestRealExamples(t *testing.T) {
	for _, name := range []string{"wikidata-L691820-lexeme.ttl", "lod-datagovuk-reference-intervals.ttl"} {
		path := filepath.Join("..", "examples", name) // the repository's copy of ../shared/data/examples/name
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := readTurtle(t, string(src), "file://"+filepath.ToSlash(path))
		for _, v := range versions {
			text, err, iso := roundTrip(t, d, Options{Version: v})
			if err != nil || !iso {
				t.Errorf("%s (%s): round trip failed: %v", name, v, err)
				continue
			}
			if again := encodeString(t, shuffled(d, 3), Options{Version: v}); again != text {
				t.Errorf("%s (%s): output depends on input order or blank node labels", name, v)
			}
			msg := fmt.Sprintf("example %s: %d quads, ISOLDA %s %d bytes (Turtle source %d bytes), round trip isomorphic",
				name, d.Len(), v, len(text), len(src))
			t.Log(msg)
		}
	}
}
