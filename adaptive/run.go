package adaptive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/token"
)

// Params are the request parameters sent with every call.
type Params struct {
	// Temperature is always sent (0 too).
	Temperature float64
	// MaxTokens is sent as max_tokens when positive.
	MaxTokens int
	// Seed is sent when not nil.
	Seed *int64
}

// Model is the model that scores and answers, with its price table.
type Model struct {
	// Client sends the calls; its MaxConcurrency bounds the calls in flight.
	Client *llm.Client
	// Name identifies the model in the log (default: Client.Model).
	Name   string
	Params Params
	// PriceIn and PriceOut are prices per million input and output tokens.
	PriceIn, PriceOut float64
	// Tokenizer, if not nil, counts the message contents and the reply
	// locally (logged next to the server's usage).
	Tokenizer token.Tokenizer
}

func (m *Model) name() string {
	if m.Name != "" {
		return m.Name
	}
	return m.Client.Model
}

// cost returns the price of a number of tokens.
func (m *Model) cost(prompt, completion int64) float64 {
	return (float64(prompt)*m.PriceIn + float64(completion)*m.PriceOut) / 1e6
}

// Config configures Calibrate and Run.
type Config struct {
	Model *Model
	// Dir is the folder of the call log (and of the files the caller
	// writes); it is created when missing.
	Dir string
	// Concurrency is the number of questions worked on at once (0 means 4).
	// The calls in flight are further bounded by the client.
	Concurrency int
	// Now returns the time written into records (nil: time.Now).
	Now func() time.Time
}

func (c *Config) concurrency() int {
	if c.Concurrency <= 0 {
		return 4
	}
	return c.Concurrency
}

// caller makes logged calls, reusing the answered calls of the log.
type caller struct {
	cfg *Config
	log *callLog
	now func() time.Time
}

func newCaller(cfg *Config) (*caller, error) {
	if cfg.Model == nil || cfg.Model.Client == nil {
		return nil, errors.New("adaptive: no model")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	l, err := openLog(filepath.Join(cfg.Dir, LogFile))
	if err != nil {
		return nil, err
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &caller{cfg: cfg, log: l, now: now}, nil
}

// errCanceled reports a call abandoned because the context ended.
var errCanceled = errors.New("adaptive: canceled")

// canceled returns err, or the cause of ctx's end when err is errCanceled.
func canceled(ctx context.Context, err error) error {
	if errors.Is(err, errCanceled) {
		return fmt.Errorf("adaptive: %w", context.Cause(ctx))
	}
	return err
}

// call returns the record of a call: the answered one of the log, or a new
// call's, appended to the log. finish fills in the kind-specific fields of
// a successful call before it is logged. The error is errCanceled when ctx
// ended (nothing is logged) or a log write error.
func (c *caller) call(ctx context.Context, kind, split string, q task.Question, format string, msgs []llm.Message, finish func(*CallRecord)) (*CallRecord, error) {
	m := c.cfg.Model
	key := callKey(kind, q.ID, format, m.name(), m.Params, msgs)
	if r, ok := c.log.lookup(key); ok {
		return r, nil
	}
	p := m.Params
	resp, err := m.Client.Chat(ctx, llm.Request{Messages: msgs, Temperature: p.Temperature, MaxTokens: p.MaxTokens, Seed: p.Seed})
	if err != nil && ctx.Err() != nil {
		return nil, errCanceled
	}
	var count func(string) int
	if m.Tokenizer != nil {
		count = m.Tokenizer.Count
	}
	r := &CallRecord{Key: key, Time: c.now().UTC().Format(time.RFC3339Nano), Kind: kind, Split: split,
		QuestionID: q.ID, Task: q.Task, Format: format, Model: m.name(), CallRecord: llm.NewCallRecord(msgs, resp, err, count)}
	if err == nil && finish != nil {
		finish(r)
	}
	if err := c.log.append(r); err != nil {
		return nil, err
	}
	return r, nil
}

// answer makes (or reuses) the answer call of a question in a format,
// its graph rendered by rs.
func (c *caller) answer(ctx context.Context, rs *renders, kind, split string, it Item, format string) (*CallRecord, error) {
	rendered, err := rs.get(it, format)
	if err != nil {
		return nil, err
	}
	sys, user := AnswerMessages(it.Q, rendered)
	msgs := []llm.Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}
	return c.call(ctx, kind, split, it.Q, format, msgs, func(r *CallRecord) {
		sc := graphqa.ScoreFinal.Score(it.Q, r.Response)
		r.Rule, r.Parsed, r.Correct = sc.Rule, sc.Parsed, sc.Correct
	})
}

// selector makes (or reuses) the selector call of a candidate.
func (c *caller) selector(ctx context.Context, split string, it Item, cand Candidate, rendered string) (*CallRecord, error) {
	msgs := []llm.Message{{Role: "system", Content: SelectorSystemPrompt},
		{Role: "user", Content: SelectorUserPrompt(it.Q, cand, rendered)}}
	prior := cand.Prior
	return c.call(ctx, KindSelector, split, it.Q, cand.Format, msgs, func(r *CallRecord) {
		r.Prior = &prior
		ch, err := ParseChain(r.Response)
		if err != nil {
			r.ParseError = err.Error()
			return
		}
		r.Chain = &ch
	})
}

// FailedCallsError reports calls that failed (they are logged; running
// again retries them and reuses the others).
type FailedCallsError struct {
	Failed, Total int
	// First is the error of the first failed call.
	First string
}

func (e *FailedCallsError) Error() string {
	return fmt.Sprintf("adaptive: %d of %d calls failed (first: %s); run again to retry them", e.Failed, e.Total, e.First)
}

// renders renders a question's graph in each format, once.
type renders struct {
	mu   sync.Mutex
	text map[[2]string]string
}

func (r *renders) get(it Item, format string) (string, error) {
	k := [2]string{it.Q.ContextID, format}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.text == nil {
		r.text = map[[2]string]string{}
	}
	if s, ok := r.text[k]; ok {
		return s, nil
	}
	s, err := Render(format, it.Graph)
	if err != nil {
		return "", fmt.Errorf("adaptive: rendering %s in %s: %w", it.Q.ID, format, err)
	}
	r.text[k] = s
	return s, nil
}

// forEach runs fn(i) for i in [0, n) with at most workers at once and
// returns the first error (the others still finish).
func forEach(n, workers int, fn func(i int) error) error {
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	return firstErr(errs)
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Calibrate asks every question of split in every format and returns the
// priors (FromObservations of the answers), logging every call in cfg.Dir.
// Calls already answered in the log are reused. When calls fail, it returns
// a *FailedCallsError after making all the others.
func Calibrate(ctx context.Context, cfg *Config, split *Split, formatNames []string) (*Calibration, error) {
	if len(formatNames) == 0 || len(split.Items) == 0 {
		return nil, errors.New("adaptive: calibration needs formats and questions")
	}
	c, err := newCaller(cfg)
	if err != nil {
		return nil, err
	}
	defer c.log.close()
	var rs renders
	n := len(split.Items) * len(formatNames)
	recs := make([]*CallRecord, n)
	err = forEach(n, cfg.concurrency()*len(formatNames), func(i int) error {
		it, f := split.Items[i/len(formatNames)], formatNames[i%len(formatNames)]
		var err error
		recs[i], err = c.answer(ctx, &rs, KindCalibration, split.Name, it, f)
		return err
	})
	if err != nil {
		return nil, canceled(ctx, err)
	}
	var obs []Observation
	fe := &FailedCallsError{Total: n}
	for i, r := range recs {
		if r.Status != StatusOK {
			if fe.Failed == 0 {
				fe.First = r.Error
			}
			fe.Failed++
			continue
		}
		it := split.Items[i/len(formatNames)]
		obs = append(obs, Observation{Task: it.Q.Task, Format: r.Format, QuestionID: it.Q.ID, Correct: r.Correct, InputTokens: r.PromptTokens})
	}
	if fe.Failed > 0 {
		return nil, fe
	}
	return FromObservations(obs, fmt.Sprintf("calibration split %q (seed %d, %d questions) × %d formats, model %s",
		split.Name, split.Seed, len(split.Items), len(formatNames), cfg.Model.name()))
}
