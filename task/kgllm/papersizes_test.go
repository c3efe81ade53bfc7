package kgllm

import (
	"fmt"
	"math"
	"testing"

	"github.com/isolda/isolda/internal/shared"
	"github.com/isolda/isolda/token"
)

// TestPaperPromptSizes measures the mean o200k_base tokens of the whole
// prompt (the benchmark's structure_prompt with the ISOLDA description,
// one user message) of ISOLDA 0.1 and 0.2 on the 500 pseudonymized
// instances, every context decoded and checked isomorphic (ISOLDAContext),
// and compares them with the ISOLDA paper: §3.6 prints 8,076 (0.1) and
// 5,925 (0.2) for all 500, §4.5 prints 7,968 for 0.1 on AggByRelation.
// Both must be within 1.5 % (docs/SPEC.md section 18 gives the readings
// of the paper that reproduce them).
// go test -run TestPaperPromptSizes -v ./task/kgllm/
func TestPaperPromptSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("paper prompt sizes: 1,000 encodings, not in -short")
	}
	s, err := LoadStudy(shared.MustPath(t, "data", "kgllmbench", "instances", "instances"), VariantPseudo)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Instances) != 500 {
		t.Fatalf("%d instances, want 500", len(s.Instances))
	}
	tok, err := token.NewRegistry(token.Options{}).Get(token.O200KBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		version      string
		paper, aggBy float64 // the paper's means (0: not printed)
		tolerance    float64
	}{
		{"0.1", 8076, 7968, 0.015},
		{"0.2", 5925, 0, 0.015},
	} {
		sum, aggSum, aggN := 0, 0, 0
		for i, inst := range s.Instances {
			ctx, err := ISOLDAContext(inst, c.version)
			if err != nil {
				t.Fatal(err) // not lossless
			}
			n := tok.Count(UserMessage(LangEnglish, FormatISOLDA, ctx, s.Questions[i].Text))
			sum += n
			if inst.Task == AggByRelation {
				aggSum += n
				aggN++
			}
		}
		mean := float64(sum) / float64(len(s.Instances))
		aggMean := float64(aggSum) / float64(aggN)
		line := fmt.Sprintf("ISOLDA %s: mean o200k prompt tokens %.1f (paper %.0f, %+.2f %%); AggByRelation %.1f",
			c.version, mean, c.paper, 100*(mean/c.paper-1), aggMean)
		if c.aggBy > 0 {
			line += fmt.Sprintf(" (paper %.0f, %+.2f %%)", c.aggBy, 100*(aggMean/c.aggBy-1))
		}
		t.Log(line)
		if math.Abs(mean/c.paper-1) > c.tolerance {
			t.Errorf("ISOLDA %s: %.1f mean prompt tokens, more than %.1f %% from the paper's %.0f", c.version, mean, 100*c.tolerance, c.paper)
		}
		if c.aggBy > 0 && math.Abs(aggMean/c.aggBy-1) > c.tolerance {
			t.Errorf("ISOLDA %s: %.1f mean prompt tokens on AggByRelation, more than %.1f %% from the paper's %.0f", c.version, aggMean, 100*c.tolerance, c.aggBy)
		}
	}
}
