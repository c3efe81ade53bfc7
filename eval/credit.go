package eval

import (
	"encoding/json"

	"github.com/isolda/isolda/task"
)

// Credit is the partial credit of an answer whose gold answer is a set or a
// structure, for the scorers that give it (see creditOf): whether the
// response parsed, the precision, recall and F1 of its identifiers against
// the gold set, and the strict exact match. For a GraphRAG impact answer
// (seed 002) the identifiers are the affected services, and the owners map
// is scored separately in OwnersF1 (its (service, team) pairs) and
// OwnersExactMatch; ExactMatch needs both fields exact.
type Credit struct {
	ParseSuccess     bool     `json:"parse_success"`
	Precision        float64  `json:"precision"`
	Recall           float64  `json:"recall"`
	F1               float64  `json:"f1"`
	ExactMatch       bool     `json:"exact_match"`
	OwnersF1         *float64 `json:"owners_f1,omitempty"`
	OwnersExactMatch *bool    `json:"owners_exact_match,omitempty"`
}

// creditOf returns the partial credit of a response under a scorer, or nil
// when the scorer gives none (an answer that is only right or wrong).
func creditOf(scorer string, q task.Question, response string) *Credit {
	switch scorer {
	case "impact":
		var gold task.ImpactAnswer
		if err := json.Unmarshal([]byte(q.Gold.Text), &gold); err != nil {
			return nil
		}
		s := task.ScoreImpact(gold, response)
		c := &Credit{ParseSuccess: s.ParseSuccess, ExactMatch: s.ExactMatch}
		if s.ParseSuccess {
			c.Precision, c.Recall, c.F1 = s.AffectedServices.Precision, s.AffectedServices.Recall, s.AffectedServices.F1
		}
		of, oe := s.OwnerPairs.F1, s.OwnersExactMatch
		c.OwnersF1, c.OwnersExactMatch = &of, &oe
		return c
	}
	return nil
}
