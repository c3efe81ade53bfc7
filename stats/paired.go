package stats

import (
	"fmt"
	"math"
)

// Paired is the comparison of two arms A and B answered over the same
// questions, question i being right or wrong in both.
type Paired struct {
	// N is the number of questions.
	N int
	// B counts questions A got right and B got wrong; C the reverse.
	B, C int
	// AccA and AccB are the accuracies of the arms; Diff is AccA − AccB.
	AccA, AccB, Diff float64
	// McNemar is the exact two-sided McNemar p-value; MidP its mid-p version.
	McNemar, MidP float64
	// Bootstrap is the paired percentile bootstrap interval of Diff and BCa
	// the paired BCa interval, both from the same replicates (resampling
	// questions). BCaErr is non-nil when the BCa interval is degenerate
	// (ErrDegenerate); BCa is then the zero Interval.
	Bootstrap, BCa Interval
	BCaErr         error
}

// ComparePaired compares arm a with arm b, where a[i] and b[i] say whether
// each arm answered question i correctly. The bootstrap resamples questions
// (pairs) with the seeded generator of opt; see BootstrapMeans.
func ComparePaired(a, b []bool, opt BootstrapOptions) (Paired, error) {
	opt, err := pairedOptions(len(a), len(b), opt)
	if err != nil {
		return Paired{}, err
	}
	p := Paired{N: len(a)}
	d := make([]float64, len(a))
	var ra, rb int
	for i := range a {
		if a[i] {
			ra++
		}
		if b[i] {
			rb++
		}
		switch {
		case a[i] && !b[i]:
			p.B++
			d[i] = 1
		case !a[i] && b[i]:
			p.C++
			d[i] = -1
		}
	}
	n := float64(p.N)
	p.AccA, p.AccB = float64(ra)/n, float64(rb)/n
	p.Diff = float64(p.B-p.C) / n
	p.McNemar = McNemarExact(p.B, p.C)
	p.MidP = McNemarMidP(p.B, p.C)
	if p.Bootstrap, p.BCa, p.BCaErr, err = pairedIntervals(d, p.Diff, opt); err != nil {
		return Paired{}, err
	}
	return p, nil
}

// pairedOptions checks that two arms have the same number of questions,
// na and nb, and at least one, and returns opt normalized.
func pairedOptions(na, nb int, opt BootstrapOptions) (BootstrapOptions, error) {
	if na != nb {
		return opt, fmt.Errorf("stats: paired arms have %d and %d questions", na, nb)
	}
	if na == 0 {
		return opt, fmt.Errorf("stats: paired comparison of no questions")
	}
	return opt.normalized()
}

// pairedIntervals bootstraps the mean of the paired differences d, whose
// mean is diff: the percentile interval, and the BCa interval from the same
// replicates with its error (ErrDegenerate) apart; err is the bootstrap's
// error.
func pairedIntervals(d []float64, diff float64, opt BootstrapOptions) (boot, bca Interval, bcaErr, err error) {
	reps, err := BootstrapMeans(d, opt)
	if err != nil {
		return boot, bca, nil, err
	}
	if boot, err = PercentileInterval(reps, opt.Confidence); err != nil {
		return boot, bca, nil, err
	}
	bca, bcaErr = BCaInterval(diff, reps, JackknifeMeans(d), opt.Confidence)
	return boot, bca, bcaErr, nil
}

// ScoreComparison is the paired comparison of two arms with real-valued
// per-question scores (for example partial credit or F1).
type ScoreComparison struct {
	// N is the number of questions.
	N int
	// MeanA and MeanB are the arms' mean scores; Diff is MeanA − MeanB.
	MeanA, MeanB, Diff float64
	// Bootstrap and BCa are the paired percentile and BCa intervals of Diff,
	// as in Paired; BCaErr is non-nil when the BCa interval is degenerate.
	Bootstrap, BCa Interval
	BCaErr         error
}

// CompareScores compares arms a and b scored per question, a[i] and b[i]
// being the scores of question i, by bootstrapping the mean of the paired
// differences a[i] − b[i] with the seeded generator of opt. With scores 0
// and 1 it gives the same Diff and intervals as ComparePaired.
func CompareScores(a, b []float64, opt BootstrapOptions) (ScoreComparison, error) {
	opt, err := pairedOptions(len(a), len(b), opt)
	if err != nil {
		return ScoreComparison{}, err
	}
	s := ScoreComparison{N: len(a)}
	d := make([]float64, len(a))
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) || math.IsInf(a[i], 0) || math.IsInf(b[i], 0) {
			return ScoreComparison{}, fmt.Errorf("stats: question %d has a non-finite score", i)
		}
		s.MeanA += a[i]
		s.MeanB += b[i]
		d[i] = a[i] - b[i]
	}
	n := float64(len(a))
	s.MeanA /= n
	s.MeanB /= n
	var sum float64
	for _, v := range d {
		sum += v
	}
	s.Diff = sum / n
	if s.Bootstrap, s.BCa, s.BCaErr, err = pairedIntervals(d, s.Diff, opt); err != nil {
		return ScoreComparison{}, err
	}
	return s, nil
}
