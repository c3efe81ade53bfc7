package report

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/task"
)

// FromRunRescored reads the observations of an eval run folder as FromRun
// does, but scores every successful answer again with sc (a scorer of the
// caller's scorer table, such as study.Scorings().Lookup("kgllm_adapted"))
// against its question's gold answer, instead of keeping the score logged
// when the call was made. No model is called and the run folder is not
// changed. This is how the ISOLDA paper's Catalan study (§4.7) reuses its
// English runs: "The English runs are rescored with the same scorer"
// (kgllm_adapted) rather than asked again.
func FromRunRescored(dir string, sc task.Scorer) ([]Observation, error) {
	qpath := filepath.Join(dir, runner.QuestionsFile)
	questions, err := runQuestions(qpath)
	if err != nil {
		return nil, err
	}
	apath := filepath.Join(dir, runner.AnswersFile)
	f, err := os.Open(apath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	last := map[string]Observation{}
	err = runner.ReadRecords(f, func(r *runner.Record) error {
		if r.Status != runner.StatusOK {
			return nil
		}
		en, ok := questions[r.QuestionK]
		if !ok {
			return fmt.Errorf("answer %s: question %s is not in %s", r.Key, r.QuestionK, qpath)
		}
		o := observationOf(r, en)
		res := sc.Score(en.Q, r.Response)
		o.Correct, o.Score, o.Partial = res.Correct, res.Score, res.Partial
		last[r.Key] = o
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", apath, err)
	}
	keys := slices.Sorted(maps.Keys(last))
	out := make([]Observation, 0, len(keys))
	for _, k := range keys {
		out = append(out, last[k])
	}
	return out, nil
}

// AddGraphs returns obs with the observations of extra whose graph obs has
// none of: how the answers of another run (the English half of a study
// whose run asked only the Catalan half) join a run's for its tables and
// criteria. Observations of a graph that both have are obs's only.
func AddGraphs(obs, extra []Observation) []Observation {
	have := map[string]bool{}
	for _, o := range obs {
		have[o.Graph] = true
	}
	out := slices.Clone(obs)
	for _, o := range extra {
		if !have[o.Graph] {
			out = append(out, o)
		}
	}
	return out
}
