package synthetic

import (
	"fmt"
	"testing"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/token"
)

// BenchmarkSyntheticSweep is the scale sweep of the article's benchmark:
// services from 40 to 100,000 with twice as many noise edges, the article's
// formats, o200k_base tokens, no budget study. Run it with -benchtime=1x
// -benchmem; BENCHMARKS.md records a run.
func BenchmarkSyntheticSweep(b *testing.B) {
	sweep(b, []int{40, 400, 4000, 40000, 100000}, nil)
}

// BenchmarkSyntheticBudgets adds the full budget study (five budgets, five
// orderings, two policies, six formats) to the sweep.
func BenchmarkSyntheticBudgets(b *testing.B) {
	sweep(b, []int{40, 4000, 40000}, bench.DefaultBudgets())
}

// sweep runs the benchmark on the synthetic graph of each number of
// services (twice as many noise edges) with the budgets' study (none when
// nil), reporting its records and CPU time per run.
func sweep(b *testing.B, services, budgets []int) {
	tok := testgraph.O200k(b)
	for _, n := range services {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			p := graphrag.DefaultParameters()
			p.Services, p.NoiseEdges = n, 2*n
			b.ReportAllocs()
			cpu0 := cputime.Used()
			for b.Loop() {
				rep, err := Run(Options{Parameters: p, Tokenizers: []token.Tokenizer{tok}, Budgets: budgets})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.Graph.Nodes+rep.Graph.Edges), "records")
			}
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric(float64((cputime.Used()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
