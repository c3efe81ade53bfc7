package bench

import (
	"fmt"
	"testing"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/token"
)

// BenchmarkSyntheticSweep is the scale sweep of the article's benchmark:
// services from 40 to 100,000 with twice as many noise edges, the article's
// formats, o200k_base tokens, no budget study. Run it with -benchtime=1x
// -benchmem; BENCHMARKS.md records a run.
func BenchmarkSyntheticSweep(b *testing.B) {
	tok := o200k(b)
	for _, n := range []int{40, 400, 4000, 40000, 100000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			p := graphrag.DefaultParameters()
			p.Services, p.NoiseEdges = n, 2*n
			b.ReportAllocs()
			cpu0 := cputime.Used()
			for b.Loop() {
				rep, err := Synthetic(SyntheticOptions{Parameters: p, Tokenizers: []token.Tokenizer{tok}})
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

// BenchmarkDefaultRun is `isolda bench` with no arguments: every format on
// the embedded examples, o200k_base.
func BenchmarkDefaultRun(b *testing.B) {
	in := exampleInputs(b)
	tok := o200k(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(in, Options{Tokenizers: []token.Tokenizer{tok}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyntheticBudgets adds the full budget study (five budgets, five
// orderings, two policies, six formats) to the sweep.
func BenchmarkSyntheticBudgets(b *testing.B) {
	tok := o200k(b)
	for _, n := range []int{40, 4000, 40000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			p := graphrag.DefaultParameters()
			p.Services, p.NoiseEdges = n, 2*n
			b.ReportAllocs()
			cpu0 := cputime.Used()
			for b.Loop() {
				if _, err := Synthetic(SyntheticOptions{Parameters: p, Tokenizers: []token.Tokenizer{tok},
					Budgets: DefaultBudgets()}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Used()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkGraphBudgets is the RDF budget study of `isolda bench
// --budgets 512,1024,2048,4096,8192` (every ordering) on each embedded
// example, for every lossless format of the registry.
func BenchmarkGraphBudgets(b *testing.B) {
	tok := o200k(b)
	fs, err := SelectFormats(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range exampleInputs(b) {
		b.Run(in.Name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Used()
			for b.Loop() {
				if _, err := GraphBudgets(in, fs, GraphBudgetOptions{Budgets: DefaultBudgets(), Orderings: Orderings(),
					ShuffleSeed: 1, Count: tok.Count}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Used()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
