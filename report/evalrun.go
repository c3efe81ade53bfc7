package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/task/kg"
)

// FromRun reads the observations of an eval run folder: the question
// families from questions.jsonl and, from answers.jsonl, the last
// successful answer of every call key (failed calls are left out: a resume
// retries them; records outside the run's design too, see
// Run.OutOfDesign). Input tokens are those the server reported, else the
// local count.
func FromRun(dir string) ([]Observation, error) {
	r, err := ReadRunWith(dir, ReadOptions{Lazy: true})
	if err != nil {
		return nil, err
	}
	return r.Observations, nil
}

// observationOf is the observation of an ok record of question en.
func observationOf(r *runner.Record, en eval.Entry) Observation {
	in := int(r.PromptTokens)
	if in <= 0 {
		in = r.LocalPromptTokens
	}
	q := familyTaskOf(en)
	fam := q.family
	if fam == "" {
		fam = r.Task
	}
	return Observation{
		Arm: r.Arm, Model: r.Model, Family: fam, Task: q.task, Graph: r.Graph, QuestionID: r.QuestionK,
		Trial: r.Trial, Correct: r.Correct, Score: r.Score, Partial: r.Partial, Pair: q.pair, InputTokens: in, OutputTokens: int(r.CompletionTokens),
		LocalInputTokens: max(r.LocalPromptTokens, 0),
	}
}

// familyTask is the family and task of a question.
type familyTask struct{ family, task, pair string }

// familyTaskOf is the family of a question and its task (only when it
// differs from the family).
func familyTaskOf(e eval.Entry) familyTask {
	ft := familyTask{family: e.Q.Family, pair: e.Q.Meta["instance_key"]}
	switch {
	case e.Q.Task != e.Q.Family:
		ft.task = e.Q.Task
	case e.Q.Meta[kg.MetaSubfamily] != "":
		// A KG question of a sub-family (outgoing_aggregation_deg_gt4):
		// its task, for per-task rows and criteria.
		ft.task = e.Q.Meta[kg.MetaSubfamily]
	}
	return ft
}

// ReadManifest reads the manifest of an eval run folder.
func ReadManifest(dir string) (*eval.Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, runner.ManifestFile))
	if err != nil {
		return nil, err
	}
	var m eval.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, runner.ManifestFile), err)
	}
	return &m, nil
}

// ArmRow describes one arm of an eval run: its format, the contexts it
// rendered, and the round trips of those of a lossless format, decoded when
// the run was prepared (eval.Context.RoundTrip).
type ArmRow struct {
	Arm    string `json:"arm"`
	Format string `json:"format"`
	// Options are the arm's ISOLDA options, as the manifest records them.
	Options  string `json:"options,omitempty"`
	Contexts int    `json:"contexts"`
	// Isomorphic, Differs and DecodeErrors count the round trips by
	// result; Cut the contexts cut to a budget (not compared). All four
	// are 0 for a lossy format.
	Isomorphic   int `json:"isomorphic"`
	Differs      int `json:"differs"`
	DecodeErrors int `json:"decode_errors"`
	Cut          int `json:"cut"`
}

// Checked is the number of contexts whose round trip was compared.
func (a ArmRow) Checked() int { return a.Isomorphic + a.Differs + a.DecodeErrors }

// ArmRows summarizes the arms of a manifest, sorted by arm.
func ArmRows(m *eval.Manifest) []ArmRow {
	by := map[string]*ArmRow{}
	var names []string
	for _, c := range m.Contexts {
		a := by[c.Arm]
		if a == nil {
			a = &ArmRow{Arm: c.Arm, Format: c.Format}
			by[c.Arm] = a
			names = append(names, c.Arm)
		}
		a.Contexts++
		switch c.RoundTrip {
		case eval.RoundTripIsomorphic:
			a.Isomorphic++
		case eval.RoundTripDiffers:
			a.Differs++
		case eval.RoundTripDecodeError:
			a.DecodeErrors++
		case eval.RoundTripCut:
			a.Cut++
		}
	}
	for _, a := range m.Arms {
		if r := by[a.Name]; r != nil {
			r.Options = a.Options
		}
	}
	slices.Sort(names)
	out := make([]ArmRow, len(names))
	for i, n := range names {
		out[i] = *by[n]
	}
	return out
}

// RoundTripsFromManifest returns the round trips of an eval run, one per
// arm and graph whose contexts were compared (every item of a collection,
// every anchor and budget tokenizer together), sorted by arm then graph:
// isomorphic when every compared context was.
func RoundTripsFromManifest(m *eval.Manifest) []RoundTrip {
	type key struct{ arm, graph string }
	by := map[key]*RoundTrip{}
	var keys []key
	for _, c := range m.Contexts {
		switch c.RoundTrip {
		case eval.RoundTripIsomorphic, eval.RoundTripDiffers, eval.RoundTripDecodeError:
		default:
			continue
		}
		k := key{c.Arm, c.Graph}
		rt := by[k]
		if rt == nil {
			rt = &RoundTrip{Arm: c.Arm, Graph: c.Graph, Isomorphic: true}
			by[k] = rt
			keys = append(keys, k)
		}
		rt.Contexts++
		if c.RoundTrip == eval.RoundTripIsomorphic {
			rt.IsomorphicContexts++
		} else {
			rt.Isomorphic = false
		}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.arm, b.arm), cmp.Compare(a.graph, b.graph)) })
	out := make([]RoundTrip, len(keys))
	for i, k := range keys {
		out[i] = *by[k]
	}
	return out
}
