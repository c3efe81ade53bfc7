package rdfio

import (
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
)

// hostileGraph returns a small dataset of hostile terms (testgraph.Dataset):
// raw IRIs and blank node labels no syntax can write as they are, the
// whole set of hostile literals, RDF lists, triple terms and, in half the
// datasets, named graphs. c is a seeded generator for the property test,
// the fuzzer's bytes (testgraph.FromBytes) for the fuzz target.
func hostileGraph(c testgraph.Chooser) *rdf.Dataset {
	return testgraph.Dataset(c, testgraph.Options{Named: c.IntN(2) == 0, Raw: true, Lists: true, TripleTerms: true, Small: true})
}
