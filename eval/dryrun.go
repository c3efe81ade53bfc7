package eval

import (
	"fmt"
	"maps"
	"slices"

	"github.com/isolda/isolda/token"
)

// ModelCalls is what a run would send to one model.
type ModelCalls struct {
	Model string
	// Calls is the number of calls of a complete run.
	Calls int
	// Tokenizer counted InputTokens (the message contents of every call,
	// without the chat template); empty and -1 when the model has none.
	Tokenizer   string
	InputTokens int64
	// Arms break Calls and InputTokens down by arm, sorted by arm.
	Arms []ArmCalls
}

// ArmCalls is what a run would send to one model with one arm.
type ArmCalls struct {
	Arm         string
	Calls       int
	InputTokens int64 // -1 without a tokenizer
}

// DryRun counts the calls and input tokens per model (and arm) of a
// prepared plan without calling anything. reg nil means a registry with
// default options.
func DryRun(p *Plan, reg *token.Registry) ([]ModelCalls, error) {
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	e := p.Experiment
	type call struct{ entry, ctx int }
	// Counts per tokenizer and call, so that models sharing a tokenizer
	// count each call once; system messages repeat, so each distinct one
	// is counted once per tokenizer.
	counts := map[string]map[call]int64{}
	sys := map[string]map[string]int64{}
	var out []ModelCalls
	for _, m := range e.Models {
		mc := ModelCalls{Model: m.ModelName(), Tokenizer: m.Tokenizer, InputTokens: -1}
		var tok token.Tokenizer
		if m.Tokenizer != "" {
			var err error
			if tok, err = reg.Get(m.Tokenizer); err != nil {
				return nil, fmt.Errorf("model %s: tokenizer: %w", m.ModelName(), err)
			}
			mc.InputTokens = 0
			if counts[m.Tokenizer] == nil {
				counts[m.Tokenizer], sys[m.Tokenizer] = map[call]int64{}, map[string]int64{}
			}
		}
		arms := map[string]*ArmCalls{}
		for i := range p.Entries {
			for _, c := range p.contextsFor(i, m) {
				a := arms[c.Arm]
				if a == nil {
					a = &ArmCalls{Arm: c.Arm, InputTokens: -1}
					if tok != nil {
						a.InputTokens = 0
					}
					arms[c.Arm] = a
				}
				a.Calls += e.trials()
				mc.Calls += e.trials()
				if tok == nil {
					continue
				}
				k := call{i, p.index[c.key()]}
				n, ok := counts[m.Tokenizer][k]
				if !ok {
					msgs, err := p.Messages(&p.Entries[i], c)
					if err != nil {
						return nil, err
					}
					for _, msg := range msgs {
						if msg.Role != "system" {
							n += int64(tok.Count(msg.Content))
							continue
						}
						s, ok := sys[m.Tokenizer][msg.Content]
						if !ok {
							s = int64(tok.Count(msg.Content))
							sys[m.Tokenizer][msg.Content] = s
						}
						n += s
					}
					counts[m.Tokenizer][k] = n
				}
				a.InputTokens += n * int64(e.trials())
				mc.InputTokens += n * int64(e.trials())
			}
		}
		for _, a := range slices.Sorted(maps.Keys(arms)) {
			mc.Arms = append(mc.Arms, *arms[a])
		}
		out = append(out, mc)
	}
	return out, nil
}
