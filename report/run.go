package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/internal/jsonl"
)

// Run is what an eval run folder holds beyond the observations: its
// metadata (manifest, dates, endpoints, inputs and their hashes) and every
// call with its exact messages, for the report's per-sample view.
type Run struct {
	Dir      string
	Manifest eval.Manifest
	// First and Last are the times of the first and last logged call.
	First, Last string
	// Endpoints are the distinct endpoints each model was called at (as
	// logged; empty for logs written before endpoints were).
	Endpoints map[string][]string
	// OK and Failed count the calls in their latest state.
	OK, Failed int
	// Samples are the calls, each in its latest state, sorted by graph,
	// question, trial, model and arm (so that the answers to one question
	// stand together).
	Samples []Sample
	// Observations are the scored answers (the samples whose status is
	// ok), sorted by call key, as FromRun returns them.
	Observations []Observation
	// Contexts are the texts of the contexts the samples with messages
	// refer to, by SHA-1.
	Contexts map[string]string
	// Skipped counts the lines of answers.jsonl that are not records (a
	// torn last line, a line that is not JSON); SkippedLines describes the
	// first of them.
	Skipped      int
	SkippedLines []LineNote
	// OutOfDesign are the records that do not belong to the run's design
	// (another run, an arm, model, question or trial the manifest does not
	// have): none of them is counted.
	OutOfDesign []LineNote
}

// LineNote is a line of answers.jsonl and what is wrong with it.
type LineNote struct {
	Line   int    `json:"line"`
	Key    string `json:"key,omitempty"`
	Reason string `json:"reason"`
}

func (n LineNote) String() string {
	if n.Key != "" {
		return fmt.Sprintf("%s:%d: %s: %s", runner.AnswersFile, n.Line, n.Key, n.Reason)
	}
	return fmt.Sprintf("%s:%d: %s", runner.AnswersFile, n.Line, n.Reason)
}

// maxLineNotes bounds the skipped lines described (all are counted).
const maxLineNotes = 20

// Sample is one call: the question, the messages sent, the answer and its
// score.
type Sample struct {
	Key        string
	Arm, Model string
	Family     string
	Task       string
	Graph      string
	QuestionID string
	Trial      int
	Question   string
	// Gold is the expected answer; Alternatives the other accepted ones.
	Gold         string
	Alternatives []string
	// Messages are the messages of the request body, exactly as sent (nil
	// until LoadMessages reads them when the run was read lazily).
	Messages []Message
	// Status is runner.StatusOK or runner.StatusFailed (then Error says why).
	Status, Error string
	// Answer is the model's reply; Reasoning its reasoning text, if any;
	// Finish the finish reason. Answers and reasoning longer than
	// MaxSampleText bytes are kept cut: AnswerBytes and ReasoningBytes are
	// their whole sizes.
	Answer, Reasoning, Finish   string
	AnswerBytes, ReasoningBytes int
	// Correct, Score and the scorer's Rule and Parsed answer say why.
	Correct              bool
	Score                float64
	Scorer, Rule, Parsed string
	// PromptTokens and CompletionTokens are the server's counts;
	// LocalPromptTokens the local count (-1 without a tokenizer).
	PromptTokens, CompletionTokens int64
	LocalPromptTokens              int
	LatencyMS                      float64
	Attempts                       int
	Time                           string
	// Line is the record's line in answers.jsonl.
	Line int
	off  int64 // the record's offset in answers.jsonl
	size int   // its length
}

// MaxSampleText bounds the bytes of an answer (and of its reasoning) a
// sample keeps; the record in answers.jsonl has all of it.
const MaxSampleText = 64 << 10

// Message is one message sent. When the message holds the context the
// arm rendered, Content is the text around it: the message is
// Before + the context (Run.Contexts[ContextSHA1]) + After; the context,
// often most of the message, is then stored once per run.
type Message struct {
	Role string
	// Before and After surround the context; without a context (ContextSHA1
	// empty) Before is the whole content.
	Before, After string
	ContextSHA1   string
}

// Content returns the message as sent.
func (m Message) Content(contexts map[string]string) string {
	if m.ContextSHA1 == "" {
		return m.Before
	}
	return m.Before + contexts[m.ContextSHA1] + m.After
}

// maxContextBytes bounds a context text read from a run folder.
const maxContextBytes = 64 << 20

// ReadOptions configure ReadRunWith.
type ReadOptions struct {
	// Lazy leaves the samples' messages unread (LoadMessages reads those
	// of the samples to show), which keeps a large run's memory small.
	Lazy bool
	// Progress, when set, is called now and then with the bytes of
	// answers.jsonl read so far and its size, and once at the end.
	Progress func(read, total int64)
}

// ReadRun reads the manifest, the questions and the answer log of an eval
// run folder, with every sample's messages. A call answered more than
// once (a failed call retried on resume) counts in its last state.
func ReadRun(dir string) (*Run, error) { return ReadRunWith(dir, ReadOptions{}) }

// design is what a run's manifest and questions allow a record to be.
type design struct {
	runID     string
	arms      map[string]bool
	models    map[string]eval.ModelParams
	questions map[string]eval.Entry
	trials    int
}

// check says why rec is not a call of the design ("" when it is one).
func (d *design) check(rec *runner.Record) string {
	switch {
	case rec.RunID != d.runID:
		return fmt.Sprintf("record of run %q, this run is %q", rec.RunID, d.runID)
	case !d.arms[rec.Arm]:
		return fmt.Sprintf("arm %q is not an arm of the run", rec.Arm)
	}
	m, ok := d.models[rec.Model]
	switch {
	case !ok:
		return fmt.Sprintf("model %q is not a model of the run", rec.Model)
	case len(m.Arms) > 0 && !slices.Contains(m.Arms, rec.Arm):
		return fmt.Sprintf("model %q does not read arm %q", rec.Model, rec.Arm)
	}
	q, ok := d.questions[rec.QuestionK]
	switch {
	case !ok:
		return fmt.Sprintf("question %q is not in %s", rec.QuestionK, runner.QuestionsFile)
	case len(m.Graphs) > 0 && !slices.Contains(m.Graphs, q.Graph):
		return fmt.Sprintf("model %q is not asked about graph %q", rec.Model, q.Graph)
	case rec.Trial < 1 || rec.Trial > d.trials:
		return fmt.Sprintf("trial %d, the run has trials 1 to %d", rec.Trial, d.trials)
	case rec.Key != runner.CallKey(rec.Arm, rec.Model, rec.QuestionK, rec.Trial):
		return fmt.Sprintf("key does not match its arm, model, question and trial (%q)", runner.CallKey(rec.Arm, rec.Model, rec.QuestionK, rec.Trial))
	case rec.Status != runner.StatusOK && rec.Status != runner.StatusFailed:
		return fmt.Sprintf("status %q", rec.Status)
	}
	return ""
}

func newDesign(m *eval.Manifest, questions map[string]eval.Entry) *design {
	d := &design{runID: m.RunID, arms: map[string]bool{}, models: map[string]eval.ModelParams{}, questions: questions, trials: max(m.Params.Trials, 1)}
	for _, a := range m.Arms {
		d.arms[a.Name] = true
	}
	for _, c := range m.Contexts {
		d.arms[c.Arm] = true
	}
	for _, mp := range m.Params.Models {
		d.models[mp.Name] = mp
	}
	return d
}

// ReadRunWith reads an eval run folder like ReadRun, in one pass over
// answers.jsonl. Lines that are not records are counted (Run.Skipped);
// records outside the run's design are listed (Run.OutOfDesign) and not
// counted.
func ReadRunWith(dir string, opt ReadOptions) (*Run, error) {
	r := &Run{Dir: dir, Endpoints: map[string][]string{}, Contexts: map[string]string{}}
	mpath := filepath.Join(dir, runner.ManifestFile)
	b, err := os.ReadFile(mpath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.Manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", mpath, err)
	}
	questions, err := runQuestions(filepath.Join(dir, runner.QuestionsFile))
	if err != nil {
		return nil, err
	}
	d := newDesign(&r.Manifest, questions)
	apath := filepath.Join(dir, runner.AnswersFile)
	f, err := os.Open(apath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var total int64
	if st, err := f.Stat(); err == nil {
		total = st.Size()
	}
	latest := map[string]int{}         // call key → index in Samples
	scored := map[string]Observation{} // call key → its last ok answer
	lastProgress := time.Now()
	err = jsonl.ReadOffsets(f, apath, runner.MaxRecordLine, func(line int, off int64, b []byte) error {
		if opt.Progress != nil && time.Since(lastProgress) > 500*time.Millisecond {
			opt.Progress(off, total)
			lastProgress = time.Now()
		}
		var rec runner.Record
		if err := json.Unmarshal(b, &rec); err != nil || rec.Key == "" {
			why := "not a record"
			if err != nil {
				why += ": " + err.Error()
			} else {
				why += ": no key"
			}
			r.Skipped++
			if len(r.SkippedLines) < maxLineNotes {
				r.SkippedLines = append(r.SkippedLines, LineNote{Line: line, Reason: why})
			}
			return nil
		}
		if why := d.check(&rec); why != "" {
			r.OutOfDesign = append(r.OutOfDesign, LineNote{Line: line, Key: rec.Key, Reason: why})
			return nil
		}
		if r.First == "" || rec.Time < r.First {
			r.First = rec.Time
		}
		r.Last = max(r.Last, rec.Time)
		if rec.BaseURL != "" && !slices.Contains(r.Endpoints[rec.Model], rec.BaseURL) {
			r.Endpoints[rec.Model] = append(r.Endpoints[rec.Model], rec.BaseURL)
		}
		en := questions[rec.QuestionK]
		s := sampleOf(&rec, en)
		s.Line, s.off, s.size = line, off, len(b)
		if rec.Status == runner.StatusOK {
			scored[rec.Key] = observationOf(&rec, en)
		}
		if i, ok := latest[rec.Key]; ok {
			// An ok answer is final; a failure is replaced by the retry.
			if r.Samples[i].Status != runner.StatusOK {
				r.Samples[i] = s
			}
			return nil
		}
		latest[rec.Key] = len(r.Samples)
		r.Samples = append(r.Samples, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", apath, err)
	}
	if opt.Progress != nil {
		opt.Progress(total, total)
	}
	for _, eps := range r.Endpoints {
		slices.Sort(eps)
	}
	for _, s := range r.Samples {
		if s.Status == runner.StatusOK {
			r.OK++
		} else {
			r.Failed++
		}
	}
	slices.SortFunc(r.Samples, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Graph, b.Graph), cmp.Compare(a.Family, b.Family), cmp.Compare(a.QuestionID, b.QuestionID),
			cmp.Compare(a.Trial, b.Trial), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Arm, b.Arm), cmp.Compare(a.Key, b.Key))
	})
	keys := slices.Sorted(maps.Keys(scored)) // the order of the observations must not follow map order
	r.Observations = make([]Observation, 0, len(keys))
	for _, k := range keys {
		r.Observations = append(r.Observations, scored[k])
	}
	if !opt.Lazy {
		all := make([]int, len(r.Samples))
		for i := range all {
			all[i] = i
		}
		if err := r.LoadMessages(all); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// LoadMessages reads the messages of the samples with the indexes given
// (and the contexts they refer to) from the run folder, for a run read
// lazily; samples whose messages are read already are left as they are.
func (r *Run) LoadMessages(indexes []int) error {
	files := map[string]string{} // context SHA-1 → file in the run folder
	for _, c := range r.Manifest.Contexts {
		files[c.SHA1] = c.File
	}
	apath := filepath.Join(r.Dir, runner.AnswersFile)
	f, err := os.Open(apath)
	if err != nil {
		return err
	}
	defer f.Close()
	var buf []byte
	for _, i := range indexes {
		s := &r.Samples[i]
		if s.Messages != nil {
			continue
		}
		buf = slices.Grow(buf[:0], s.size)[:s.size]
		if _, err := f.ReadAt(buf, s.off); err != nil {
			return fmt.Errorf("%s:%d: %w", apath, s.Line, err)
		}
		var rec runner.Record
		if err := json.Unmarshal(buf, &rec); err != nil || rec.Key != s.Key {
			return fmt.Errorf("%s:%d: the record changed while the report was read", apath, s.Line)
		}
		ctx, err := r.context(r.Dir, files, rec.ContextSHA)
		if err != nil {
			return err
		}
		s.Messages = messagesOf(&rec, ctx)
	}
	return nil
}

// context returns the text of the context with SHA-1 sha, read once from
// the run folder ("" when the run has no such file).
func (r *Run) context(dir string, files map[string]string, sha string) (string, error) {
	if sha == "" {
		return "", nil
	}
	if t, ok := r.Contexts[sha]; ok {
		return t, nil
	}
	name, ok := files[sha]
	if !ok {
		return "", nil
	}
	path := filepath.Join(dir, filepath.FromSlash(name))
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.Size() > maxContextBytes {
		return "", fmt.Errorf("%s: larger than %d bytes", path, maxContextBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	r.Contexts[sha] = string(b)
	return string(b), nil
}

// runQuestions reads a run's questions.jsonl by question key.
func runQuestions(path string) (map[string]eval.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]eval.Entry{}
	err = runner.ReadQuestions(f, path, func(e *eval.Entry) error {
		out[e.Key] = *e
		return nil
	})
	return out, err
}

// sampleOf turns a record into a sample, without its messages.
func sampleOf(rec *runner.Record, en eval.Entry) Sample {
	s := Sample{Key: rec.Key, Arm: rec.Arm, Model: rec.Model, Family: en.Q.Family, Task: rec.Task, Graph: rec.Graph,
		QuestionID: rec.QuestionK, Trial: rec.Trial, Question: en.Q.Text, Gold: en.Q.Gold.Value, Alternatives: en.Q.Gold.Alternatives,
		Status: rec.Status, Error: rec.Error, Finish: rec.Finish,
		Correct: rec.Correct, Score: rec.Score, Scorer: rec.Scorer, Rule: rec.Rule, Parsed: rec.Parsed,
		PromptTokens: rec.PromptTokens, CompletionTokens: rec.CompletionTokens, LocalPromptTokens: rec.LocalPromptTokens,
		LatencyMS: rec.LatencyMS, Attempts: rec.Attempts, Time: rec.Time}
	s.Answer, s.AnswerBytes = cutText(rec.Response)
	s.Reasoning, s.ReasoningBytes = cutText(rec.Reasoning)
	if s.Family == "" {
		s.Family = rec.Task
	}
	if s.Gold == "" {
		s.Gold = en.Q.Gold.Text
	}
	if s.QuestionID == "" {
		s.QuestionID = rec.QuestionID
	}
	return s
}

// cutText returns s cut to MaxSampleText bytes (at a character boundary)
// and its whole size.
func cutText(s string) (string, int) {
	n := len(s)
	if n <= MaxSampleText {
		return s, n
	}
	k := MaxSampleText
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return strings.Clone(s[:k]), n
}

// messagesOf returns the messages of a record's request; ctx is the text
// of its context.
func messagesOf(rec *runner.Record, ctx string) []Message {
	body, err := rec.FullRequest(ctx)
	if err != nil {
		return []Message{{Role: "(request body not rebuilt: " + err.Error() + ")", Before: rec.RawRequest}}
	}
	msgs, err := requestMessages(body)
	if err != nil {
		return []Message{{Role: "(request body not readable: " + err.Error() + ")", Before: body}}
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		msg := Message{Role: m.Role, Before: m.Content}
		if ctx != "" {
			if before, after, ok := strings.Cut(m.Content, ctx); ok {
				msg = Message{Role: m.Role, Before: before, After: after, ContextSHA1: rec.ContextSHA}
			}
		}
		out = append(out, msg)
	}
	return out
}

type rawMessage struct {
	Role    string
	Content string
}

// requestMessages decodes the messages of an OpenAI-style chat request
// body. A content given as a list of parts keeps the text parts, joined.
func requestMessages(body string) ([]rawMessage, error) {
	if body == "" {
		return nil, errors.New("empty")
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		return nil, err
	}
	out := make([]rawMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		var text string
		if err := json.Unmarshal(m.Content, &text); err != nil {
			var parts []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				text = string(m.Content)
			} else {
				var b strings.Builder
				for _, p := range parts {
					b.WriteString(p.Text)
				}
				text = b.String()
			}
		}
		out = append(out, rawMessage{Role: m.Role, Content: text})
	}
	return out, nil
}
