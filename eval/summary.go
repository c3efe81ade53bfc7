package eval

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// Cell is the summary of one arm × model.
type Cell struct {
	Arm, Model string
	// Answered calls (first ok record per key), Correct among them, and
	// Failures (failed records, including ones retried since).
	Answered, Correct, Failures int
	// Accuracy is Correct/Answered (0 when nothing was answered).
	Accuracy float64
	// Server-reported token sums over answered calls.
	PromptTokens, CompletionTokens, ReasoningTokens int64
	// Cost in the price table's currency, from Model.PriceIn/PriceOut.
	Cost float64
}

// Summarize reads an answer log and returns one Cell per arm × model, sorted
// by arm then model. Prices come from the models of e (nil: no cost).
func Summarize(r io.Reader, e *Experiment) ([]Cell, error) {
	cells := map[[2]string]*Cell{}
	seen := map[string]bool{}
	get := func(arm, model string) *Cell {
		k := [2]string{arm, model}
		c := cells[k]
		if c == nil {
			c = &Cell{Arm: arm, Model: model}
			cells[k] = c
		}
		return c
	}
	err := ReadRecords(r, func(rec *Record) error {
		c := get(rec.Arm, rec.Model)
		if rec.Status != StatusOK {
			c.Failures++
			return nil
		}
		if seen[rec.Key] {
			return nil
		}
		seen[rec.Key] = true
		c.Answered++
		if rec.Correct {
			c.Correct++
		}
		c.PromptTokens += rec.PromptTokens
		c.CompletionTokens += rec.CompletionTokens
		c.ReasoningTokens += rec.ReasoningTokens
		return nil
	})
	if err != nil {
		return nil, err
	}
	prices := map[string]Model{}
	if e != nil {
		for _, m := range e.Models {
			prices[m.ModelName()] = m
		}
	}
	out := make([]Cell, 0, len(cells))
	for _, c := range cells {
		if c.Answered > 0 {
			c.Accuracy = float64(c.Correct) / float64(c.Answered)
		}
		if m, ok := prices[c.Model]; ok {
			c.Cost = (float64(c.PromptTokens)*m.PriceIn + float64(c.CompletionTokens)*m.PriceOut) / 1e6
		}
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Arm != out[j].Arm {
			return out[i].Arm < out[j].Arm
		}
		return out[i].Model < out[j].Model
	})
	return out, nil
}

// WriteSummary writes cells as an aligned table. A cell with nothing
// answered shows "no answers" for its accuracy, never 0.000.
func WriteSummary(w io.Writer, cells []Cell) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ARM\tMODEL\tANSWERED\tCORRECT\tACCURACY\tFAILURES\tPROMPT_TOKENS\tCOMPLETION_TOKENS\tCOST")
	for _, c := range cells {
		acc := fmt.Sprintf("%.3f", c.Accuracy)
		if c.Answered == 0 {
			acc = "no answers"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%.4f\n", c.Arm, c.Model, c.Answered, c.Correct,
			acc, c.Failures, c.PromptTokens, c.CompletionTokens, c.Cost)
	}
	return tw.Flush()
}
