package bench

import (
	"testing"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/token"
)

// BenchmarkDefaultRun is `isolda bench` with no arguments: every format on
// the embedded examples, o200k_base.
func BenchmarkDefaultRun(b *testing.B) {
	in := exampleInputs(b)
	tok := testgraph.O200k(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(in, Options{Tokenizers: []token.Tokenizer{tok}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGraphBudgets is the RDF budget study of `isolda bench
// --budgets 512,1024,2048,4096,8192` (every ordering) on each embedded
// example, for every lossless format of the registry.
func BenchmarkGraphBudgets(b *testing.B) {
	tok := testgraph.O200k(b)
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
