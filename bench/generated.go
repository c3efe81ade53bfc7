package bench

import (
	"fmt"
	"slices"

	"github.com/isolda/isolda/internal/pyrand"
	"github.com/isolda/isolda/task"
)

// Generators returns the random-graph generators of GraphQA (Talk like a
// Graph) that GeneratedInput accepts.
func Generators() []string { return task.Generators() }

// GeneratedInput returns a random graph of one of GraphQA's generators on
// n nodes (1 to task.MaxGeneratedNodes) as an undirected labelled-graph
// input named GEN-nN-seedS: task.GenerateGraph with Python's random seeded
// with seed and numpy's RandomState with its low 32 bits, the generator's
// parameters (er's p, ba's m, sbm's communities) drawn as Talk like a Graph
// draws them. Nodes are named by their number.
func GeneratedInput(gen string, n int, seed int64) (Input, error) {
	if !slices.Contains(task.Generators(), gen) {
		return Input{}, fmt.Errorf("bench: unknown generator %q (want one of %v)", gen, task.Generators())
	}
	gg, err := task.GenerateGraph(gen, n, pyrand.New(seed), task.NewNumpyRandomState(uint32(seed)),
		task.GenOptions{DrawP: true})
	if err != nil {
		return Input{}, err
	}
	return Input{Name: fmt.Sprintf("%s-n%d-seed%d", gen, n, seed), Graph: gg.Labelled(nil)}, nil
}
