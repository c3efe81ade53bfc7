package testgraph

import (
	"errors"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
)

// errEnough stops reading the thesaurus.
var errEnough = errors.New("enough triples")

// Nomisma returns the first n triples of the Nomisma thesaurus in
// ../shared/data/big (757k triples; n ≤ 0: all of them). Without the
// shared folder the test is skipped (shared.MustPath).
func Nomisma(t testing.TB, n int) *rdf.Dataset {
	t.Helper()
	path := shared.MustPath(t, "data", "big", "nomisma.nt.gz")
	zr := shared.OpenGzip(t, path)
	defer zr.Close()
	d := rdf.NewDataset()
	err := ntriples.Parse(zr, ntriples.NTriples, rdf.SinkFunc(func(q rdf.Quad) error {
		if d.Add(q); d.Len() == n {
			return errEnough
		}
		return nil
	}), rdf.ReadOptions{File: path})
	if n > 0 && !errors.Is(err, errEnough) {
		t.Fatalf("%s: %v before %d triples", path, err, n)
	}
	if n <= 0 && err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}
