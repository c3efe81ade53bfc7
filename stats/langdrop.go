package stats

import (
	"fmt"
	"maps"
	"slices"
)

// LanguageDrop compares the drop in accuracy between two languages (such
// as English to Catalan) of a format A with that of a format B, on the
// same instances: criterion C5 of the Catalan study (ISOLDA paper §4.7,
// A is ISOLDA), which passes when A's drop is never significantly
// larger.
type LanguageDrop struct {
	// N is the number of instances paired in the four arms.
	N int
	// DropISOLDA and DropOther are the accuracy of A and of B in the first
	// language minus that in the second; Diff is DropISOLDA − DropOther.
	DropISOLDA, DropOther, Diff float64
	// Worse counts the instances where A's drop exceeds B's (d > 0, with
	// d = (aFirst − aSecond) − (bFirst − bSecond) per instance), Better
	// those where it is smaller (d < 0).
	Worse, Better int
	// P is the exact two-sided sign test of Worse against Better (the
	// exact McNemar test on the discordant instances).
	P float64
	// Bootstrap is the paired bootstrap of Diff (CompareScores of the
	// per-instance drops).
	Bootstrap ScoreComparison
	// Larger is true when A's drop is significantly larger: P < alpha and
	// Diff > 0.
	Larger bool
}

// CompareLanguageDrop computes criterion C5's comparison from the
// correctness of each instance, keyed by its instance key, in four arms:
// format A and format B, each in the first and in the second language.
// Every key of aFirst must be in the three others, and the maps must have
// the same size.
func CompareLanguageDrop(aFirst, aSecond, bFirst, bSecond map[string]bool, alpha float64, opt BootstrapOptions) (LanguageDrop, error) {
	n := len(aFirst)
	if n == 0 || len(aSecond) != n || len(bFirst) != n || len(bSecond) != n {
		return LanguageDrop{}, fmt.Errorf("stats: a language drop needs the same instances in four arms (%d, %d, %d, %d)", len(aFirst), len(aSecond), len(bFirst), len(bSecond))
	}
	keys := slices.Sorted(maps.Keys(aFirst))
	b2f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	ld := LanguageDrop{N: n}
	dropA, dropB := make([]float64, n), make([]float64, n)
	for i, k := range keys {
		as, ok1 := aSecond[k]
		bf, ok2 := bFirst[k]
		bs, ok3 := bSecond[k]
		if !ok1 || !ok2 || !ok3 {
			return LanguageDrop{}, fmt.Errorf("stats: language drop: instance %s missing from an arm", k)
		}
		dropA[i] = b2f(aFirst[k]) - b2f(as)
		dropB[i] = b2f(bf) - b2f(bs)
		switch d := dropA[i] - dropB[i]; {
		case d > 0:
			ld.Worse++
		case d < 0:
			ld.Better++
		}
	}
	cmp, err := CompareScores(dropA, dropB, opt)
	if err != nil {
		return LanguageDrop{}, err
	}
	ld.Bootstrap = cmp
	ld.DropISOLDA, ld.DropOther, ld.Diff = cmp.MeanA, cmp.MeanB, cmp.Diff
	ld.P = McNemarExact(ld.Worse, ld.Better)
	ld.Larger = ld.P < alpha && ld.Diff > 0
	return ld, nil
}
