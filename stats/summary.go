package stats

import (
	"fmt"
	"math"
)

// Summary describes a sample: its size, mean, sample standard deviation
// (denominator N−1; NaN when N < 2), minimum and maximum. All fields except N
// are NaN for an empty sample.
type Summary struct {
	N                  int
	Mean, SD, Min, Max float64
}

// Summarize returns the summary of x, computed with Welford's update so that
// large token counts do not lose precision.
func Summarize(x []float64) Summary {
	s := Summary{N: len(x), Mean: math.NaN(), SD: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(x) == 0 {
		return s
	}
	var mean, m2 float64
	lo, hi := x[0], x[0]
	for i, v := range x {
		d := v - mean
		mean += d / float64(i+1)
		m2 += d * (v - mean)
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	s.Mean, s.Min, s.Max = mean, lo, hi
	if len(x) > 1 {
		s.SD = math.Sqrt(m2 / float64(len(x)-1))
	}
	return s
}

// SummarizeInts is Summarize for integer counts such as tokens per prompt.
func SummarizeInts(x []int) Summary {
	f := make([]float64, len(x))
	for i, v := range x {
		f[i] = float64(v)
	}
	return Summarize(f)
}

// RunToRun summarizes repeated trials of one arm over the same questions:
// correct[t][i] says whether trial t answered question i correctly. It
// returns the summary of the per-trial accuracies, whose SD is the
// run-to-run standard deviation.
func RunToRun(correct [][]bool) (Summary, error) {
	acc := make([]float64, len(correct))
	for t, row := range correct {
		if len(row) == 0 {
			return Summary{}, fmt.Errorf("stats: trial %d has no questions", t)
		}
		if len(row) != len(correct[0]) {
			return Summary{}, fmt.Errorf("stats: trial %d has %d questions, trial 0 has %d", t, len(row), len(correct[0]))
		}
		k := 0
		for _, ok := range row {
			if ok {
				k++
			}
		}
		acc[t] = float64(k) / float64(len(row))
	}
	return Summarize(acc), nil
}
