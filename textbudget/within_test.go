package textbudget

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestLargestWithin compares LargestWithin with a linear scan on random
// monotone costs (lumpy, with plateaus and jumps), checks its guarantees
// on costs that are not monotone, and bounds its calls.
func TestLargestWithin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		n := 1 + r.IntN(300)
		costs := make([]int, n+1)
		costs[0] = r.IntN(50)
		monotone := trial%3 != 0
		for k := 1; k <= n; k++ {
			step := r.IntN(30)
			if r.IntN(20) == 0 {
				step += 200 // a jump, like a glossary or a table header
			}
			if !monotone {
				step -= 12
			}
			costs[k] = costs[k-1] + step
		}
		budget := costs[0] + r.IntN(max(costs[n]-costs[0]+40, 1))
		calls := 0
		got := LargestWithin(n, budget, costs[0], costs[n], func(k int) int {
			if k <= 0 || k >= n {
				t.Fatalf("cost(%d) called, n=%d", k, n)
			}
			calls++
			return costs[k]
		})
		if calls > 2*bits.Len(uint(n))+2 {
			t.Fatalf("n=%d: %d calls", n, calls)
		}
		if got < 0 || got > n || costs[got] > budget || got < n && costs[got+1] <= budget {
			t.Fatalf("n=%d budget=%d: k=%d breaks the guarantees (costs %v)", n, budget, got, costs)
		}
		if monotone {
			want := 0
			for want < n && costs[want+1] <= budget {
				want++
			}
			if got != want {
				t.Fatalf("n=%d budget=%d: k=%d, want %d", n, budget, got, want)
			}
		}
	}
}

// TestLargestWithinLinear checks that a linear cost takes at most two
// calls.
func TestLargestWithinLinear(t *testing.T) {
	for n := 2; n < 500; n += 7 {
		for _, budget := range []int{n, 5 * n, 9*n + 3} {
			calls := 0
			got := LargestWithin(n, budget, 0, 10*n, func(k int) int { calls++; return 10 * k })
			if got != budget/10 || calls > 2 {
				t.Fatalf("n=%d budget=%d: k=%d after %d calls", n, budget, got, calls)
			}
		}
	}
}
