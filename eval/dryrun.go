package eval

import (
	"fmt"

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
}

// DryRun counts the calls and input tokens per model of a prepared plan
// without calling anything. reg nil means a registry with default options.
func DryRun(p *Plan, reg *token.Registry) ([]ModelCalls, error) {
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	e := p.Experiment
	perTok := map[string]int64{}
	var out []ModelCalls
	for _, m := range e.Models {
		mc := ModelCalls{Model: m.ModelName(), Tokenizer: m.Tokenizer, InputTokens: -1}
		for i := range p.Entries {
			mc.Calls += len(p.contextsFor(i, m)) * e.trials()
		}
		if m.Tokenizer != "" {
			n, ok := perTok[m.Tokenizer]
			if !ok {
				tok, err := reg.Get(m.Tokenizer)
				if err != nil {
					return nil, fmt.Errorf("model %s: tokenizer: %w", m.ModelName(), err)
				}
				// System messages repeat once per context: count each once.
				sys := map[string]int64{}
				for i := range p.Entries {
					for _, c := range p.contextsFor(i, m) {
						msgs, err := p.messages(&p.Entries[i], c)
						if err != nil {
							return nil, err
						}
						for _, msg := range msgs {
							if msg.Role != "system" {
								n += int64(tok.Count(msg.Content))
								continue
							}
							k, ok := sys[msg.Content]
							if !ok {
								k = int64(tok.Count(msg.Content))
								sys[msg.Content] = k
							}
							n += k
						}
					}
				}
				n *= int64(e.trials())
				perTok[m.Tokenizer] = n
			}
			mc.InputTokens = n
		}
		out = append(out, mc)
	}
	return out, nil
}
