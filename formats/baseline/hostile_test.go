package baseline_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
)

func TestHostileRoundTrip(t *testing.T) {
	for _, name := range baseline.Names() {
		roundTrip(t, rdf.NewDataset(), name) // the empty dataset
	}
	for seed := range uint64(60) {
		d := testgraph.Hostile(seed, seed%2 == 1)
		for _, name := range baseline.Names() {
			t.Run(fmt.Sprintf("%d/%s", seed, name), func(t *testing.T) {
				roundTrip(t, d, name)
			})
		}
	}
}

func TestDeterministic(t *testing.T) {
	for seed := range uint64(20) {
		d := testgraph.Hostile(seed, seed%2 == 1)
		for _, name := range baseline.Names() {
			var a, b bytes.Buffer
			if err := baseline.Encode(&a, d, name); err != nil {
				t.Fatal(err)
			}
			if err := baseline.Encode(&b, testgraph.Shuffled(d, seed, true), name); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("seed %d %s: output depends on quad order or blank labels", seed, name)
			}
		}
	}
}
