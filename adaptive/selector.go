package adaptive

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/task"
)

// SelectorSystemPrompt is the selector's fixed system prompt: the study's
// four-step chain (task needs, rendering, prior delta in [-40, +40], final
// score 0–100), asked for as four labelled lines.
const SelectorSystemPrompt = `You score how well one serialization of a graph supports answering one graph question. You do not answer the question.

You are given the task, the question, the name of one candidate format, that format's calibration baseline on this task (its accuracy on held-out calibration questions of the same task), and the graph rendered in that format.

Reason in exactly four steps and reply with exactly these four lines, in this order, and nothing else:
TASK_NEEDS: <one sentence on what must be computed to answer the question>
RENDERING: <one sentence on whether this format surfaces that substructure directly>
PRIOR_DELTA: <a signed integer from -40 to +40 that shifts the baseline according to RENDERING>
SCORE: <an integer from 0 to 100, the final score of this format for this question>`

// SelectorUserPrompt returns the selector's user message for one candidate:
// the task, the question (the study's wording), the candidate's name, its
// calibration baseline (e.g. "73% on max_clique_size") and the graph
// rendered in the candidate's format.
func SelectorUserPrompt(q task.Question, c Candidate, rendered string) string {
	text := q.Meta["study_question"]
	if text == "" {
		text = strings.TrimSuffix(strings.TrimPrefix(q.Text, "Q: "), "\nA: ")
	}
	var b strings.Builder
	b.WriteString("Task: " + q.Task + "\n")
	b.WriteString("Question: " + text + "\n")
	b.WriteString("Candidate format: " + c.Format + "\n")
	fmt.Fprintf(&b, "Calibration baseline: %d%% on %s\n\n", int(math.Round(100*c.Prior)), q.Task)
	b.WriteString("Graph in " + c.Format + " format:\n\n")
	b.WriteString(strings.TrimRight(rendered, "\n"))
	b.WriteString("\n")
	return b.String()
}

// Chain is a parsed selector reply.
type Chain struct {
	TaskNeeds  string `json:"task_needs"`
	Rendering  string `json:"rendering"`
	PriorDelta int    `json:"prior_delta"`
	Score      int    `json:"score"`
}

// Bounds of the chain's numbers and of a reply.
const (
	MaxChainBytes = 64 << 10
	MaxPriorDelta = 40
	MaxScore      = 100
)

// chainLabels returns the labels of the four steps in order.
func chainLabels() [4]string {
	return [4]string{"TASK_NEEDS", "RENDERING", "PRIOR_DELTA", "SCORE"}
}

// ParseChain parses a selector reply strictly: after blank lines and
// surrounding white space are dropped, it must be exactly four lines, each
// "LABEL: value" with the labels TASK_NEEDS, RENDERING, PRIOR_DELTA and
// SCORE in this order (labels in capitals, a colon right after them). The
// two sentences must not be empty; PRIOR_DELTA must be a signed or unsigned
// decimal integer in [-40, +40] and SCORE an unsigned decimal integer in
// [0, 100], with nothing else on their lines. A reply longer than
// MaxChainBytes is rejected unread. The error says which step failed.
//
// A rejected reply is a recorded outcome (CallRecord.ParseError), not an
// error of the run: the candidate takes no part in the choice (see
// Band.Choose for the case where no candidate is left).
func ParseChain(reply string) (Chain, error) {
	chainLabels := chainLabels()
	if len(reply) > MaxChainBytes {
		return Chain{}, fmt.Errorf("selector reply longer than %d bytes", MaxChainBytes)
	}
	var lines []string
	for l := range strings.SplitSeq(reply, "\n") {
		l = strings.TrimSpace(l)
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 4 {
		if len(lines) < 4 {
			missing := chainLabels[len(lines)]
			for i, l := range lines {
				if !strings.HasPrefix(l, chainLabels[i]+":") {
					missing = chainLabels[i]
					break
				}
			}
			return Chain{}, fmt.Errorf("selector reply: step %s missing (%d of 4 lines)", missing, len(lines))
		}
		return Chain{}, fmt.Errorf("selector reply: %d lines, want exactly 4", len(lines))
	}
	var vals [4]string
	for i, l := range lines {
		label := chainLabels[i]
		v, ok := strings.CutPrefix(l, label+":")
		if !ok {
			return Chain{}, fmt.Errorf("selector reply: line %d is not %s", i+1, label)
		}
		vals[i] = strings.TrimSpace(v)
	}
	var c Chain
	if c.TaskNeeds = vals[0]; c.TaskNeeds == "" {
		return Chain{}, fmt.Errorf("selector reply: empty TASK_NEEDS")
	}
	if c.Rendering = vals[1]; c.Rendering == "" {
		return Chain{}, fmt.Errorf("selector reply: empty RENDERING")
	}
	d, err := strictInt(vals[2], true)
	if err != nil || d < -MaxPriorDelta || d > MaxPriorDelta {
		return Chain{}, fmt.Errorf("selector reply: PRIOR_DELTA %q is not an integer in [-40, +40]", vals[2])
	}
	s, err := strictInt(vals[3], false)
	if err != nil || s < 0 || s > MaxScore {
		return Chain{}, fmt.Errorf("selector reply: SCORE %q is not an integer in [0, 100]", vals[3])
	}
	c.PriorDelta, c.Score = d, s
	return c, nil
}

// strictInt parses a decimal integer of at most 4 digits, with a sign only
// when signed.
func strictInt(s string, signed bool) (int, error) {
	digits := s
	if signed && (strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-")) {
		digits = s[1:]
	}
	if digits == "" || len(digits) > 4 {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// Scored is a slate candidate's selector outcome: OK with its score, or not
// (a failed call or a reply ParseChain rejected).
type Scored struct {
	OK    bool
	Score int
}

// Band is the selector's diversification band with its round-robin state.
// Make one per run (the zero value has B = 0: only exact ties share); it is
// not safe for concurrent use, and Choose must be called in question order
// for a run to be reproducible.
type Band struct {
	// B is the band width in score points (the study's b = 5).
	B int
	// next is the round-robin counter.
	next int
}

// NewBand returns a band of width b with its counter at 0.
func NewBand(b int) *Band { return &Band{B: b} }

// Next returns the round-robin counter: the number of choices so far that
// had two or more candidates in the band.
func (b *Band) Next() int { return b.next }

// Choose picks a candidate index from the scores of a slate (in slate
// order) and reports whether it fell back.
//
// The band holds the candidates with a valid score of at least top − B,
// where top is the highest valid score, ordered by score (higher first),
// then by slate position. With one candidate in the band it is chosen; with
// k ≥ 2 the candidate at position counter mod k is chosen and the counter
// advances by one, so successive banded questions rotate through their
// bands.
//
// When no candidate has a valid score (every selector call failed or was
// rejected by ParseChain), the choice falls back to the candidate with the
// highest calibration prior, the first in slate order among equal priors,
// and the counter does not move; fallback is then true.
func (b *Band) Choose(scores []Scored, slate []Candidate) (idx int, band []int, fallback bool) {
	top := -1
	for _, s := range scores {
		if s.OK && s.Score > top {
			top = s.Score
		}
	}
	if top < 0 {
		best := 0
		for i := range slate {
			if slate[i].Prior > slate[best].Prior {
				best = i
			}
		}
		return best, nil, true
	}
	for i, s := range scores {
		if s.OK && s.Score >= top-b.B {
			band = append(band, i)
		}
	}
	slices.SortStableFunc(band, func(x, y int) int {
		return cmp.Or(cmp.Compare(scores[y].Score, scores[x].Score), cmp.Compare(x, y))
	})
	if len(band) == 1 {
		return band[0], band, false
	}
	idx = band[b.next%len(band)]
	b.next++
	return idx, band, false
}
