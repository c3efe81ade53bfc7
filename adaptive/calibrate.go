package adaptive

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
)

// CalibrationVersion is the version of the priors file format.
const CalibrationVersion = 1

// Bounds of a priors file read by ReadCalibration: its size, its formats
// and its tasks.
const (
	MaxCalibrationBytes = 64 << 20
	MaxFormats          = 1000
	MaxTasks            = 1000
)

// Observation is one calibration answer: a question of a task asked with the
// graph in one format, right or wrong.
type Observation struct {
	Task       string
	Format     string
	QuestionID string
	Correct    bool
	// InputTokens is the prompt size of the call (0: unknown).
	InputTokens int64
}

// Cell is the prior of one task × format: the calibration accuracy.
type Cell struct {
	Task     string  `json:"task"`
	Format   string  `json:"format"`
	Correct  int     `json:"correct"`
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
}

// Rank is one format of the cross-task ranking.
type Rank struct {
	Format string `json:"format"`
	Class  Class  `json:"class"`
	// Correct and N pool every task; Accuracy is Correct/N.
	Correct  int     `json:"correct"`
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
	// MeanInputTokens is the mean prompt size over the calls whose size is
	// known (0 when none is).
	MeanInputTokens float64 `json:"mean_input_tokens"`
}

// Calibration holds the priors of a calibration run: per-task, per-format
// accuracies and the cross-task ranking of the formats.
//
// Ranking order: pooled accuracy, higher first; then mean input tokens,
// fewer first (a format with unknown tokens after those with known ones);
// then the format name, bytewise. A task's ranking (TaskRanking) orders by
// that task's accuracy, higher first, then by the position in Ranking.
type Calibration struct {
	Version int `json:"version"`
	// Source says where the answers came from.
	Source string `json:"source"`
	// Tasks are sorted; Cells are sorted by task, then format.
	Tasks []string `json:"tasks"`
	Cells []Cell   `json:"cells"`
	// Ranking is the cross-task ranking, best first.
	Ranking []Rank `json:"ranking"`
}

// FromObservations computes the priors of a set of calibration answers.
// Every observation counts; callers deduplicate repeated calls.
func FromObservations(obs []Observation, source string) (*Calibration, error) {
	if len(obs) == 0 {
		return nil, errors.New("adaptive: calibration without answers")
	}
	type key struct{ task, format string }
	cells := map[key]*Cell{}
	ranks := map[string]*Rank{}
	tokens := map[string][2]int64{} // sum, count
	for _, o := range obs {
		if o.Task == "" || o.Format == "" {
			return nil, fmt.Errorf("adaptive: calibration answer %q without task or format", o.QuestionID)
		}
		k := key{o.Task, o.Format}
		c := cells[k]
		if c == nil {
			c = &Cell{Task: o.Task, Format: o.Format}
			cells[k] = c
		}
		r := ranks[o.Format]
		if r == nil {
			r = &Rank{Format: o.Format, Class: ClassOf(o.Format)}
			ranks[o.Format] = r
		}
		c.N++
		r.N++
		if o.Correct {
			c.Correct++
			r.Correct++
		}
		if o.InputTokens > 0 {
			t := tokens[o.Format]
			tokens[o.Format] = [2]int64{t[0] + o.InputTokens, t[1] + 1}
		}
	}
	cal := &Calibration{Version: CalibrationVersion, Source: source}
	taskSet := map[string]bool{}
	for _, c := range cells {
		c.Accuracy = float64(c.Correct) / float64(c.N)
		cal.Cells = append(cal.Cells, *c)
		taskSet[c.Task] = true
	}
	for t := range taskSet {
		cal.Tasks = append(cal.Tasks, t)
	}
	slices.Sort(cal.Tasks)
	slices.SortFunc(cal.Cells, func(a, b Cell) int {
		return cmp.Or(strings.Compare(a.Task, b.Task), strings.Compare(a.Format, b.Format))
	})
	for f, r := range ranks {
		r.Accuracy = float64(r.Correct) / float64(r.N)
		if t := tokens[f]; t[1] > 0 {
			r.MeanInputTokens = float64(t[0]) / float64(t[1])
		}
		cal.Ranking = append(cal.Ranking, *r)
	}
	slices.SortFunc(cal.Ranking, compareRanks)
	return cal, nil
}

// compareRanks orders the cross-task ranking (see Calibration).
func compareRanks(a, b Rank) int {
	if a.Accuracy != b.Accuracy {
		return cmp.Compare(b.Accuracy, a.Accuracy)
	}
	ka, kb := a.MeanInputTokens > 0, b.MeanInputTokens > 0
	switch {
	case ka && kb && a.MeanInputTokens != b.MeanInputTokens:
		return cmp.Compare(a.MeanInputTokens, b.MeanInputTokens)
	case ka && !kb:
		return -1
	case !ka && kb:
		return 1
	}
	return strings.Compare(a.Format, b.Format)
}

// Prior returns the calibration cell of a task and format.
func (c *Calibration) Prior(task, format string) (Cell, bool) {
	i, ok := slices.BinarySearchFunc(c.Cells, Cell{Task: task, Format: format}, func(a, b Cell) int {
		return cmp.Or(strings.Compare(a.Task, b.Task), strings.Compare(a.Format, b.Format))
	})
	if !ok {
		return Cell{}, false
	}
	return c.Cells[i], true
}

// Formats returns the calibrated formats in ranking order.
func (c *Calibration) Formats() []string {
	out := make([]string, len(c.Ranking))
	for i, r := range c.Ranking {
		out[i] = r.Format
	}
	return out
}

// TaskRanking returns the formats calibrated on task, best first: by the
// task's accuracy, then by the cross-task ranking. Formats without an answer
// on the task are left out.
func (c *Calibration) TaskRanking(task string) []string {
	type fa struct {
		format string
		acc    float64
		pos    int
	}
	var l []fa
	for i, r := range c.Ranking {
		if p, ok := c.Prior(task, r.Format); ok {
			l = append(l, fa{r.Format, p.Accuracy, i})
		}
	}
	slices.SortStableFunc(l, func(a, b fa) int {
		return cmp.Or(cmp.Compare(b.acc, a.acc), cmp.Compare(a.pos, b.pos))
	})
	out := make([]string, len(l))
	for i, x := range l {
		out[i] = x.format
	}
	return out
}

// Router returns the task-wise router's format for task: the first of
// TaskRanking, or the first of the cross-task ranking when the task was not
// calibrated.
func (c *Calibration) Router(task string) string {
	if r := c.TaskRanking(task); len(r) > 0 {
		return r[0]
	}
	if len(c.Ranking) > 0 {
		return c.Ranking[0].Format
	}
	return ""
}

// WriteJSON writes the calibration as indented JSON.
func (c *Calibration) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// readBounded reads all of r, at most limit bytes: a larger file (named
// what in the error) is an error.
func readBounded(r io.Reader, limit int, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("adaptive: %s larger than %d bytes", what, limit)
	}
	return data, nil
}

// ReadCalibration reads a priors file written by WriteJSON and checks it.
func ReadCalibration(r io.Reader) (*Calibration, error) {
	data, err := readBounded(r, MaxCalibrationBytes, "priors file")
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var c Calibration
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("adaptive: priors file: %w", err)
	}
	if c.Version != CalibrationVersion {
		return nil, fmt.Errorf("adaptive: priors file version %d, want %d", c.Version, CalibrationVersion)
	}
	if len(c.Ranking) == 0 || len(c.Cells) == 0 {
		return nil, errors.New("adaptive: priors file without formats")
	}
	if len(c.Ranking) > MaxFormats || len(c.Tasks) > MaxTasks || len(c.Cells) > MaxFormats*MaxTasks {
		return nil, fmt.Errorf("adaptive: priors file with more than %d formats or %d tasks", MaxFormats, MaxTasks)
	}
	sorted := slices.IsSortedFunc(c.Cells, func(a, b Cell) int {
		return cmp.Or(strings.Compare(a.Task, b.Task), strings.Compare(a.Format, b.Format))
	})
	if !sorted || !slices.IsSortedFunc(c.Ranking, compareRanks) {
		return nil, errors.New("adaptive: priors file cells or ranking out of order")
	}
	ranked := map[string]bool{}
	for _, r := range c.Ranking {
		if r.N <= 0 || r.Correct < 0 || r.Correct > r.N || r.Format == "" || ranked[r.Format] {
			return nil, fmt.Errorf("adaptive: priors file: bad ranking entry %q", r.Format)
		}
		ranked[r.Format] = true
	}
	for i, x := range c.Cells {
		if x.N <= 0 || x.Correct < 0 || x.Correct > x.N || x.Task == "" || !ranked[x.Format] ||
			(i > 0 && c.Cells[i-1].Task == x.Task && c.Cells[i-1].Format == x.Format) {
			return nil, fmt.Errorf("adaptive: priors file: bad cell %s/%s", x.Task, x.Format)
		}
	}
	return &c, nil
}

// FromEvalRun computes priors from an `isolda eval run` folder: the task of
// each question (task.Question.Task) from questions.jsonl and, from
// answers.jsonl, the last successful answer of every call key of model (the
// only model of the log when model is empty). The format is the record's
// registry format name. Both files are read by package eval/runner, which
// writes them; lines of the answer log that are not records (a torn last
// line) are skipped.
func FromEvalRun(dir, model string) (*Calibration, error) {
	tasks := map[string]string{}
	if err := readRunFile(dir, runner.QuestionsFile, func(r io.Reader, file string) error {
		return runner.ReadQuestions(r, file, func(e *eval.Entry) error {
			tasks[e.Key] = e.Q.Task
			return nil
		})
	}); err != nil {
		return nil, err
	}
	last := map[string]Observation{}
	models := map[string]bool{}
	if err := readRunFile(dir, runner.AnswersFile, func(r io.Reader, _ string) error {
		return runner.ReadRecords(r, func(r *runner.Record) error {
			if r.Status != StatusOK {
				return nil
			}
			models[r.Model] = true
			if model != "" && r.Model != model {
				return nil
			}
			last[r.Key] = Observation{Task: tasks[r.QuestionK], Format: r.Format, QuestionID: r.QuestionK,
				Correct: r.Correct, InputTokens: r.PromptTokens}
			return nil
		})
	}); err != nil {
		return nil, err
	}
	if model == "" && len(models) > 1 {
		return nil, fmt.Errorf("adaptive: %s holds answers of %d models; name one", dir, len(models))
	}
	keys := slices.Sorted(maps.Keys(last))
	obs := make([]Observation, 0, len(keys))
	for _, k := range keys {
		o := last[k]
		if o.Task == "" {
			return nil, fmt.Errorf("adaptive: answer %s of %s has no question in %s", k, dir, runner.QuestionsFile)
		}
		obs = append(obs, o)
	}
	return FromObservations(obs, "eval run "+dir)
}

// readRunFile opens the file name of the run folder dir and calls read
// with it and its path.
func readRunFile(dir, name string, read func(r io.Reader, file string) error) error {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f, path)
}
