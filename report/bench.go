package report

import (
	"cmp"
	"slices"

	"github.com/isolda/isolda/bench"
)

// RoundTripsFromBench returns the round trips measured by an isolda bench
// run, one per format and graph that the format could encode, sorted by arm
// then graph. A round trip counts as isomorphic only when the decoded RDF
// dataset was isomorphic to the input (bench.FidelityIsomorphic); formats
// without a decoder (lossy) and labelled-graph formats (equal only on the
// graph view) do not.
func RoundTripsFromBench(rep *bench.Report) []RoundTrip {
	var rts []RoundTrip
	for _, r := range rep.Results {
		if r.Fidelity == bench.FidelityNotApplicable || r.Error != "" {
			continue
		}
		rts = append(rts, RoundTrip{Arm: r.Format, Graph: r.Graph, Isomorphic: r.Fidelity == bench.FidelityIsomorphic})
	}
	slices.SortStableFunc(rts, func(a, b RoundTrip) int {
		return cmp.Or(cmp.Compare(a.Arm, b.Arm), cmp.Compare(a.Graph, b.Graph))
	})
	return rts
}
