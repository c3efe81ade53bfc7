package adaptive

import (
	"cmp"
	"slices"

	"github.com/isolda/isolda/token"
)

// DryRunStats counts the calls and input tokens a calibration or a run
// would make, without calling.
type DryRunStats struct {
	Questions int `json:"questions"`
	// SelectorCalls and AnswerCalls are the distinct calls (an answer call
	// shared by several policies counts once).
	SelectorCalls int `json:"selector_calls"`
	AnswerCalls   int `json:"answer_calls"`
	// Input tokens of the message contents, counted locally (no chat
	// template); -1 without a tokenizer.
	SelectorInputTokens int64 `json:"selector_input_tokens"`
	AnswerInputTokens   int64 `json:"answer_input_tokens"`
	// Slates are the slates of a run per task, sorted by task.
	Slates []TaskSlate `json:"slates,omitempty"`
}

// TaskSlate is the slate of one task.
type TaskSlate struct {
	Task    string      `json:"task"`
	Slate   []Candidate `json:"slate"`
	Router  string      `json:"router"`
	Answers []string    `json:"answers"`
}

func countMsgs(tok token.Tokenizer, texts ...string) int64 {
	if tok == nil {
		return -1
	}
	var n int64
	for _, s := range texts {
		n += int64(tok.Count(s))
	}
	return n
}

func addTokens(sum *int64, n int64) {
	if n < 0 || *sum < 0 {
		*sum = -1
		return
	}
	*sum += n
}

// DryRunCalibration renders every calibration prompt (every question in
// every format) and counts them.
func DryRunCalibration(split *Split, formatNames []string, tok token.Tokenizer) (DryRunStats, error) {
	st := DryRunStats{Questions: len(split.Items)}
	for _, it := range split.Items {
		for _, f := range formatNames {
			text, err := Render(f, it.Graph)
			if err != nil {
				return st, err
			}
			sys, user := AnswerMessages(it.Q, text)
			st.AnswerCalls++
			addTokens(&st.AnswerInputTokens, countMsgs(tok, sys, user))
		}
	}
	return st, nil
}

// DryRun builds the slates and every selector and answer prompt of a run
// and counts them.
func DryRun(cal *Calibration, split *Split, opt RunOptions, tok token.Tokenizer) (DryRunStats, error) {
	st := DryRunStats{Questions: len(split.Items)}
	fixed := opt.FixedBest
	if fixed == "" && len(cal.Ranking) > 0 {
		fixed = cal.Ranking[0].Format
	}
	var rs renders
	for _, it := range split.Items {
		slate, err := BuildSlate(cal, it.Q.Task, opt.Slate)
		if err != nil {
			return st, err
		}
		answers := []string{fixed, cal.Router(it.Q.Task)}
		if opt.FixedBestOnTest {
			answers = append(answers, cal.Formats()...)
		}
		for _, c := range slate {
			text, err := rs.get(it, c.Format)
			if err != nil {
				return st, err
			}
			st.SelectorCalls++
			addTokens(&st.SelectorInputTokens, countMsgs(tok, SelectorSystemPrompt, SelectorUserPrompt(it.Q, c, text)))
			answers = append(answers, c.Format)
		}
		var uniq []string
		for _, f := range answers {
			if slices.Contains(uniq, f) {
				continue
			}
			uniq = append(uniq, f)
			text, err := rs.get(it, f)
			if err != nil {
				return st, err
			}
			sys, user := AnswerMessages(it.Q, text)
			st.AnswerCalls++
			addTokens(&st.AnswerInputTokens, countMsgs(tok, sys, user))
		}
		if !slices.ContainsFunc(st.Slates, func(s TaskSlate) bool { return s.Task == it.Q.Task }) {
			st.Slates = append(st.Slates, TaskSlate{Task: it.Q.Task, Slate: slate, Router: cal.Router(it.Q.Task), Answers: uniq})
		}
	}
	slices.SortFunc(st.Slates, func(a, b TaskSlate) int { return cmp.Compare(a.Task, b.Task) })
	return st, nil
}
