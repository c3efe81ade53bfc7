package stats

import (
	"fmt"
	"math"
	"testing"
)

// TestCompareLanguageDrop checks criterion C5's comparison on counts
// derived by hand.
func TestCompareLanguageDrop(t *testing.T) {
	arms := func(isoWrong, otherWrong []int) (map[string]bool, map[string]bool, map[string]bool, map[string]bool) {
		ie, ic, oe, oc := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		for i := 0; i < 20; i++ {
			k := fmt.Sprintf("pseudo/Task/%03d", i)
			ie[k], ic[k], oe[k], oc[k] = true, true, true, true
		}
		for _, i := range isoWrong {
			ic[fmt.Sprintf("pseudo/Task/%03d", i)] = false
		}
		for _, i := range otherWrong {
			oc[fmt.Sprintf("pseudo/Task/%03d", i)] = false
		}
		return ie, ic, oe, oc
	}
	// ISOLDA loses 10 instances in Catalan, the other format one of them:
	// 9 instances where ISOLDA drops more, none the reverse; p = 2·2⁻⁹.
	ie, ic, oe, oc := arms([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{0})
	d, err := CompareLanguageDrop(ie, ic, oe, oc, 0.05, BootstrapOptions{Resamples: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.N != 20 || d.Worse != 9 || d.Better != 0 || math.Abs(d.P-0.00390625) > 1e-15 || math.Abs(d.DropISOLDA-0.5) > 1e-12 || math.Abs(d.DropOther-0.05) > 1e-12 || math.Abs(d.Diff-0.45) > 1e-12 || !d.Larger {
		t.Errorf("%+v", d)
	}
	// 3 against 2: p = 2·(1+5+10)/32 = 1, not larger.
	ie, ic, oe, oc = arms([]int{0, 1, 2}, []int{3, 4})
	if d, err = CompareLanguageDrop(ie, ic, oe, oc, 0.05, BootstrapOptions{Resamples: 200, Seed: 1}); err != nil || d.Worse != 3 || d.Better != 2 || d.P != 1 || d.Larger {
		t.Errorf("%+v %v", d, err)
	}
	delete(oc, "pseudo/Task/007")
	if _, err := CompareLanguageDrop(ie, ic, oe, oc, 0.05, BootstrapOptions{}); err == nil {
		t.Error("missing instance accepted")
	}
}
