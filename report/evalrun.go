package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/isolda/isolda/eval"
)

// FromRun reads the observations of an eval run folder: the question
// families from questions.jsonl and, from answers.jsonl, the last
// successful answer of every call key (failed calls are left out: a resume
// retries them). Input tokens are those the server reported, else the
// local count.
func FromRun(dir string) ([]Observation, error) {
	families, err := runFamilies(filepath.Join(dir, eval.QuestionsFile))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, eval.AnswersFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	last := map[string]Observation{}
	err = eval.ReadRecords(f, func(r *eval.Record) error {
		if r.Status != eval.StatusOK {
			return nil
		}
		in := int(r.PromptTokens)
		if in <= 0 {
			in = r.LocalPromptTokens
		}
		fam := families[r.QuestionK]
		if fam == "" {
			fam = r.Task
		}
		last[r.Key] = Observation{
			Arm: r.Arm, Model: r.Model, Family: fam, Graph: r.Graph, QuestionID: r.QuestionK,
			Trial: r.Trial, Correct: r.Correct, Score: r.Score, InputTokens: in, OutputTokens: int(r.CompletionTokens),
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, eval.AnswersFile), err)
	}
	keys := make([]string, 0, len(last))
	for k := range last {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the order of the observations must not follow map order
	out := make([]Observation, 0, len(keys))
	for _, k := range keys {
		out = append(out, last[k])
	}
	return out, nil
}

// runFamilies maps question keys to families from a run's questions.jsonl.
func runFamilies(path string) (map[string]string, error) {
	qs, err := runQuestions(path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(qs))
	for k, e := range qs {
		out[k] = e.Q.Family
	}
	return out, nil
}
