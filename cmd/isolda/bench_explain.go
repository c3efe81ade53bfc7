package main

import (
	"bufio"
	"fmt"
	"slices"

	"github.com/isolda/isolda/bench/explain"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/token"
)

// runExplain prints, for each graph and each ISOLDA format of the run
// (--formats, else every ISOLDA format of the registry), the per-construct
// token breakdown of its document (explain.Explain), one column per
// tokenizer, and the sum over the graphs when there are several.
func runExplain(env *Env, fl *benchFlags, args []string, toks []token.Tokenizer) error {
	var names []string
	for _, f := range formats.All() {
		if f.Source != formats.SourceISOLDA || slices.Contains(fl.skip, f.Name) ||
			(len(fl.only) > 0 && !slices.Contains(fl.only, f.Name)) {
			continue
		}
		names = append(names, f.Name)
	}
	if len(names) == 0 {
		return badInput(fmt.Errorf("bench: --explain needs an ISOLDA format (isolda, isolda-0.x) in --formats"))
	}
	inputs, err := benchInputs(env, fl, args)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(env.Stdout)
	sums := map[string][]explain.Explanation{}
	for _, in := range inputs {
		fin := formats.NewInput(in.Dataset)
		for _, name := range names {
			text, err := formats.EncodeString(name, fin)
			if err != nil {
				return badInput(fmt.Errorf("%s: %s: %w", in.Name, name, err))
			}
			var exs []explain.Explanation
			for _, t := range toks {
				exs = append(exs, explain.Explain(text, t))
			}
			sums[name] = explain.AddExplanations(sums[name], exs)
			if err := explain.WriteExplanations(w, in.Name+" — "+name, exs); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	if len(inputs) > 1 {
		for _, name := range names {
			if err := explain.WriteExplanations(w, fmt.Sprintf("all %d graphs — %s", len(inputs), name), sums[name]); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	return w.Flush()
}
