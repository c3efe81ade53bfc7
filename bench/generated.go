package bench

import (
	"fmt"
	"slices"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task/graphqa"
)

// Generators returns the random-graph generators of GraphQA (Talk like a
// Graph) that GeneratedInput accepts.
func Generators() []string { return graphqa.Generators() }

// GeneratedInput returns a random graph of one of GraphQA's generators on
// n nodes (1 to graphqa.MaxGeneratedNodes) as an undirected labelled-graph
// input named GEN-nN-seedS: graphqa.GenerateGraph with Python's random seeded
// with seed and numpy's RandomState with its low 32 bits, the generator's
// parameters (er's p, ba's m, sbm's communities) drawn as Talk like a Graph
// draws them. Nodes are named by their number.
func GeneratedInput(gen string, n int, seed int64) (Input, error) {
	if !slices.Contains(graphqa.Generators(), gen) {
		return Input{}, fmt.Errorf("bench: unknown generator %q (want one of %v)", gen, graphqa.Generators())
	}
	gg, err := graphqa.GenerateGraph(gen, n, py.NewRand(seed), py.NewNumpyRandomState(uint32(seed)),
		graphqa.GenOptions{DrawP: true})
	if err != nil {
		return Input{}, err
	}
	return Input{Name: fmt.Sprintf("%s-n%d-seed%d", gen, n, seed), Graph: gg.Labelled(nil)}, nil
}
