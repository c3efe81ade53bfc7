package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/eval"
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
	// Contexts are the texts of the contexts the samples refer to, by
	// SHA-1.
	Contexts map[string]string
}

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
	// Messages are the messages of the request body, exactly as sent.
	Messages []Message
	// Status is eval.StatusOK or eval.StatusFailed (then Error says why).
	Status, Error string
	// Answer is the model's reply; Reasoning its reasoning text, if any;
	// Finish the finish reason.
	Answer, Reasoning, Finish string
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
}

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

// ReadRun reads the manifest, the questions and the answer log of an eval
// run folder. A call answered more than once (a failed call retried on
// resume) counts in its last state.
func ReadRun(dir string) (*Run, error) {
	r := &Run{Dir: dir, Endpoints: map[string][]string{}, Contexts: map[string]string{}}
	mpath := filepath.Join(dir, eval.ManifestFile)
	b, err := os.ReadFile(mpath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.Manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", mpath, err)
	}
	questions, err := runQuestions(filepath.Join(dir, eval.QuestionsFile))
	if err != nil {
		return nil, err
	}
	files := map[string]string{} // context SHA-1 → file in the run folder
	for _, c := range r.Manifest.Contexts {
		files[c.SHA1] = c.File
	}
	apath := filepath.Join(dir, eval.AnswersFile)
	f, err := os.Open(apath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	latest := map[string]int{} // call key → index in Samples
	err = eval.ReadRecords(f, func(rec *eval.Record) error {
		if rec.RunID != r.Manifest.RunID {
			return nil // not this run's (Run refuses to mix; be safe)
		}
		if r.First == "" || rec.Time < r.First {
			r.First = rec.Time
		}
		r.Last = max(r.Last, rec.Time)
		if rec.BaseURL != "" && !slices.Contains(r.Endpoints[rec.Model], rec.BaseURL) {
			r.Endpoints[rec.Model] = append(r.Endpoints[rec.Model], rec.BaseURL)
		}
		ctx, err := r.context(dir, files, rec.ContextSHA)
		if err != nil {
			return err
		}
		s := sampleOf(rec, questions[rec.QuestionK], ctx)
		if i, ok := latest[rec.Key]; ok {
			// An ok answer is final; a failure is replaced by the retry.
			if r.Samples[i].Status != eval.StatusOK {
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
	for _, eps := range r.Endpoints {
		slices.Sort(eps)
	}
	for _, s := range r.Samples {
		if s.Status == eval.StatusOK {
			r.OK++
		} else {
			r.Failed++
		}
	}
	slices.SortFunc(r.Samples, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Graph, b.Graph), cmp.Compare(a.Family, b.Family), cmp.Compare(a.QuestionID, b.QuestionID),
			cmp.Compare(a.Trial, b.Trial), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Arm, b.Arm), cmp.Compare(a.Key, b.Key))
	})
	return r, nil
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
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var e eval.Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out[e.Key] = e
	}
	return out, sc.Err()
}

// sampleOf turns a record into a sample; ctx is the text of its context.
func sampleOf(rec *eval.Record, en eval.Entry, ctx string) Sample {
	s := Sample{Key: rec.Key, Arm: rec.Arm, Model: rec.Model, Family: en.Q.Family, Task: rec.Task, Graph: rec.Graph,
		QuestionID: rec.QuestionK, Trial: rec.Trial, Question: en.Q.Text, Gold: en.Q.Gold.Value, Alternatives: en.Q.Gold.Alternatives,
		Status: rec.Status, Error: rec.Error, Answer: rec.Response, Reasoning: rec.Reasoning, Finish: rec.Finish,
		Correct: rec.Correct, Score: rec.Score, Scorer: rec.Scorer, Rule: rec.Rule, Parsed: rec.Parsed,
		PromptTokens: rec.PromptTokens, CompletionTokens: rec.CompletionTokens, LocalPromptTokens: rec.LocalPromptTokens,
		LatencyMS: rec.LatencyMS, Attempts: rec.Attempts, Time: rec.Time}
	if s.Family == "" {
		s.Family = rec.Task
	}
	if s.Gold == "" {
		s.Gold = en.Q.Gold.Text
	}
	if s.QuestionID == "" {
		s.QuestionID = rec.QuestionID
	}
	msgs, err := requestMessages(rec.RawRequest)
	if err != nil {
		s.Messages = []Message{{Role: "(request body not readable: " + err.Error() + ")", Before: rec.RawRequest}}
		return s
	}
	for _, m := range msgs {
		msg := Message{Role: m.Role, Before: m.Content}
		if ctx != "" {
			if before, after, ok := strings.Cut(m.Content, ctx); ok {
				msg = Message{Role: m.Role, Before: before, After: after, ContextSHA1: rec.ContextSHA}
			}
		}
		s.Messages = append(s.Messages, msg)
	}
	return s
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
