package isolda

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/isolda/isolda/rdf"
)

// TestSymmetricBlankNodes round-trips large symmetric blank node structures
// (identical empty-ish blank nodes, a long cycle, a grid of lists), where
// canonical ordering is hardest.
func TestSymmetricBlankNodes(t *testing.T) {
	p := rdf.NewIRI(exNS + "p")
	build := map[string]func() *rdf.Dataset{
		"identical": func() *rdf.Dataset {
			d := rdf.NewDataset()
			for i := 0; i < 3000; i++ {
				d.AddTriple(rdf.NewBlank("b"+strconv.Itoa(i)), p, rdf.NewString("x"))
			}
			return d
		},
		"cycle": func() *rdf.Dataset {
			d := rdf.NewDataset()
			const n = 2000
			for i := 0; i < n; i++ {
				d.AddTriple(rdf.NewBlank("b"+strconv.Itoa(i)), p, rdf.NewBlank("b"+strconv.Itoa((i+1)%n)))
			}
			return d
		},
		"two-cycles": func() *rdf.Dataset {
			d := rdf.NewDataset()
			for c := 0; c < 2; c++ {
				for i := 0; i < 500; i++ {
					d.AddTriple(rdf.NewBlank(strconv.Itoa(c)+"b"+strconv.Itoa(i)), p, rdf.NewBlank(strconv.Itoa(c)+"b"+strconv.Itoa((i+1)%500)))
				}
			}
			return d
		},
		"objects-only": func() *rdf.Dataset {
			d := rdf.NewDataset()
			for i := 0; i < 2000; i++ {
				d.AddTriple(rdf.NewIRI(exNS+"s"), p, rdf.NewBlank("b"+strconv.Itoa(i)))
			}
			return d
		},
	}
	for _, name := range []string{"identical", "cycle", "two-cycles", "objects-only"} {
		d := build[name]()
		for _, v := range versions {
			start := time.Now()
			text, err, iso := roundTrip(t, d, Options{Version: v})
			if err != nil || !iso {
				t.Errorf("%s (%s): err=%v iso=%v", name, v, err, iso)
				continue
			}
			if again := encodeString(t, shuffled(d, 5), Options{Version: v}); again != text {
				t.Errorf("%s (%s): not deterministic", name, v)
			}
			msg := fmt.Sprintf("symmetric %s (%s): %d quads, %d bytes, %v", name, v, d.Len(), len(text), time.Since(start).Round(time.Millisecond))
			t.Log(msg)
		}
	}
}
