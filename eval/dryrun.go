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
	// InputBytes are the bytes of the message contents of every call,
	// counted when the model has a price but no tokenizer (else 0).
	InputBytes int64
	// MaxOutputTokens is Calls × the experiment's max_tokens (0 when it
	// sets none): the most the answers can cost.
	MaxOutputTokens int64
	// PriceIn and PriceOut are the model's prices per million tokens.
	PriceIn, PriceOut float64
}

// bytesPerToken is the estimate of input tokens from bytes when a priced
// model has no tokenizer: 3 bytes a token, more tokens than English text
// gives with common tokenizers, so that the cost is not underestimated.
const bytesPerToken = 3

// Cost returns the estimated cost of the model's calls in the prices'
// currency: in for the input (exact local count, or InputBytes/3 when the
// model has no tokenizer: then exact is false) and outMax for the output
// at MaxOutputTokens, an upper bound.
func (m ModelCalls) Cost() (in, outMax float64, exact bool) {
	tokens, exact := float64(m.InputTokens), true
	if m.InputTokens < 0 {
		tokens, exact = float64(m.InputBytes)/bytesPerToken, false
	}
	return tokens * m.PriceIn / 1e6, float64(m.MaxOutputTokens) * m.PriceOut / 1e6, exact
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
	return DryRunProgress(p, reg, nil)
}

// DryRunProgress is DryRun that calls progress (when not nil) after each
// question of each model with the number done and the number to do.
func DryRunProgress(p *Plan, reg *token.Registry, progress func(done, total int)) ([]ModelCalls, error) {
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
	for mi, m := range e.Models {
		mc := ModelCalls{Model: m.ModelName(), Tokenizer: m.Tokenizer, InputTokens: -1, PriceIn: m.PriceIn, PriceOut: m.PriceOut}
		countBytes := m.Tokenizer == "" && m.PriceIn > 0
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
			if progress != nil {
				progress(mi*len(p.Entries)+i, len(e.Models)*len(p.Entries))
			}
			for _, c := range p.ContextsFor(i, m) {
				a := arms[c.Arm]
				if a == nil {
					a = &ArmCalls{Arm: c.Arm, InputTokens: -1}
					if tok != nil {
						a.InputTokens = 0
					}
					arms[c.Arm] = a
				}
				a.Calls += e.NumTrials()
				mc.Calls += e.NumTrials()
				if countBytes {
					msgs, err := p.Messages(&p.Entries[i], c)
					if err != nil {
						return nil, err
					}
					for _, msg := range msgs {
						mc.InputBytes += int64(len(msg.Content)) * int64(e.NumTrials())
					}
				}
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
				a.InputTokens += n * int64(e.NumTrials())
				mc.InputTokens += n * int64(e.NumTrials())
			}
		}
		mc.MaxOutputTokens = int64(mc.Calls) * int64(max(e.MaxTokens, 0))
		for _, a := range slices.Sorted(maps.Keys(arms)) {
			mc.Arms = append(mc.Arms, *arms[a])
		}
		out = append(out, mc)
	}
	return out, nil
}
