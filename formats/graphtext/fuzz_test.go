package graphtext

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// FuzzDecode feeds arbitrary text to every decoder: it must not panic, must
// fail with an *rdf.ParseError, and what it accepts must re-encode to text
// that decodes to the same graph.
func FuzzDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range losslessNames() {
		for _, g := range []*graph.Graph{referenceGraph(), labelledGraph(), hostileGraph(r), hostileGraph(r)} {
			var sb strings.Builder
			if Encode(&sb, g, name, Options{}) == nil {
				f.Add(uint8(200), sb.String())
			}
		}
	}
	names := losslessNames()
	f.Fuzz(func(t *testing.T, which uint8, in string) {
		for i, name := range names {
			if int(which)%len(names) != i && which < 128 {
				continue
			}
			g, err := Decode(strings.NewReader(in), name)
			if err != nil {
				var pe *rdf.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("%s: %T %v", name, err, err)
				}
				continue
			}
			var sb strings.Builder
			if err := Encode(&sb, g, name, Options{}); err != nil {
				t.Fatalf("%s: re-encode: %v", name, err)
			}
			back, err := Decode(strings.NewReader(sb.String()), name)
			if err != nil {
				t.Fatalf("%s: decode of re-encoded text: %v\n%q", name, err, sb.String())
			}
			if !Equal(g, back) {
				t.Fatalf("%s: round trip changed the graph\n%q\n%q", name, in, sb.String())
			}
		}
	})
}
