package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/internal/jsonl"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/token"
)

// File names in a run folder.
const (
	ManifestFile  = "manifest.json"
	QuestionsFile = "questions.jsonl"
	AnswersFile   = "answers.jsonl"
	ContextsDir   = "contexts"
)

// Call outcomes of a Record (those of llm.CallRecord).
const (
	StatusOK     = llm.StatusOK
	StatusFailed = llm.StatusFailed
)

// MaxRecordLine bounds one line of answers.jsonl when it is read back.
const MaxRecordLine = 256 << 20

// Record is one line of answers.jsonl: one call and its outcome.
type Record struct {
	RunID string `json:"run_id"`
	Key   string `json:"key"`
	Time  string `json:"time"`
	Task  string `json:"task"`
	Graph string `json:"graph"`
	// Item is the collection's item the question is about (omitted for a
	// graph file).
	Item       string `json:"item,omitempty"`
	GraphSHA1  string `json:"graph_sha1"`
	Arm        string `json:"arm"`
	Format     string `json:"format"`
	ContextSHA string `json:"context_sha1"`
	// Ordering is the order of the context's records (OrderCanonical,
	// OrderShuffle with OrderSeed, omitted when 0; OrderBFS from Anchor).
	Ordering  string `json:"ordering"`
	OrderSeed uint64 `json:"order_seed,omitempty"`
	Anchor    string `json:"anchor,omitempty"`
	// Budget is the context's token budget (0: none), counted by
	// BudgetTokenizer under BudgetPolicy; ContextTokens is the size of the
	// context under that tokenizer.
	Budget          int    `json:"budget"`
	BudgetPolicy    string `json:"budget_policy,omitempty"`
	BudgetTokenizer string `json:"budget_tokenizer,omitempty"`
	ContextTokens   int    `json:"context_tokens,omitempty"`
	// Model is the model's name in the run; Tokenizer its tokenizer, which
	// counted the Local*Tokens ("" when it has none). BaseURL is the
	// endpoint called, without user information, query or fragment.
	Model      string `json:"model"`
	BaseURL    string `json:"base_url,omitempty"`
	Tokenizer  string `json:"tokenizer"`
	QuestionID string `json:"question_id"`
	QuestionK  string `json:"question_key"`
	Trial      int    `json:"trial"`
	// The call, its answer and usage (the local tokens counted by
	// Tokenizer).
	llm.CallRecord
	// Score of an ok call.
	Scorer  string  `json:"scorer,omitempty"`
	Rule    string  `json:"rule,omitempty"`
	Parsed  string  `json:"parsed,omitempty"`
	Correct bool    `json:"correct"`
	Score   float64 `json:"score"`
	// Partial is the partial credit of an ok call, for scorers whose gold
	// answer is a set (omitted otherwise).
	Partial *task.Score `json:"partial,omitempty"`
	// RequestContext, when set, is the SHA-1 of the frozen context that
	// RawRequest holds by reference: every occurrence of the context's
	// JSON-escaped text in the body sent is logged as RequestContextMark
	// (RequestContextEscape "html" when the body escaped <, > and & as
	// JSON's HTML-safe form does). FullRequest rebuilds the body byte for
	// byte from the context's file in the run folder. Records written
	// before this field have the whole body.
	RequestContext       string `json:"request_context,omitempty"`
	RequestContextEscape string `json:"request_context_escape,omitempty"`
}

// RequestContextMark stands for the frozen context in a logged request
// body: a NUL character, which a JSON text never holds unescaped.
const RequestContextMark = "\x00"

// minContextRef is the shortest context logged by reference.
const minContextRef = 64

// jsonInner is s as a JSON string's contents (without the quotes),
// escaped as encoding/json does with or without HTML escaping.
func jsonInner(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if enc.Encode(s) != nil {
		return ""
	}
	out := b.Bytes()
	return string(out[1 : len(out)-2]) // the quotes and the newline
}

// CompactRequest replaces the context (text ctx, SHA-1 sha) in a request
// body by RequestContextMark, and returns the body, sha and the escaping;
// it returns raw unchanged (and "", "") when the body does not hold the
// context or already holds a NUL.
func CompactRequest(raw, ctx, sha string) (string, string, string) {
	if len(ctx) < minContextRef || strings.Contains(raw, RequestContextMark) {
		return raw, "", ""
	}
	for _, html := range []bool{false, true} {
		esc := jsonInner(ctx, html)
		if esc != "" && strings.Contains(raw, esc) {
			mode := "plain"
			if html {
				mode = "html"
			}
			return strings.ReplaceAll(raw, esc, RequestContextMark), sha, mode
		}
	}
	return raw, "", ""
}

// FullRequest returns the request body as it was sent: RawRequest with
// the context ctx (the text of the run's file for RequestContext) put
// back. It fails when ctx is not that context.
func (r *Record) FullRequest(ctx string) (string, error) {
	if r.RequestContext == "" {
		return r.RawRequest, nil
	}
	if task.SHA1Hex(ctx) != r.RequestContext {
		return "", fmt.Errorf("%s: the request refers to context %s, which the run folder does not hold", r.Key, r.RequestContext)
	}
	return strings.ReplaceAll(r.RawRequest, RequestContextMark, jsonInner(ctx, r.RequestContextEscape == "html")), nil
}

// CallKey identifies a call: arm, model, question key and trial.
func CallKey(arm, model, questionKey string, trial int) string {
	return arm + "|" + model + "|" + questionKey + "|" + strconv.Itoa(trial)
}

// RunOptions configure Run.
type RunOptions struct {
	// Out is the run folder.
	Out string
	// Getenv reads API keys (nil: os.Getenv).
	Getenv func(string) string
	// Tokenizers resolves model tokenizers (nil: a registry with default
	// options).
	Tokenizers *token.Registry
	// HTTPClient, if not nil, is used by every model's client.
	HTTPClient *http.Client
	// Backoff overrides the retry backoff (0: llm's default).
	Backoff time.Duration
	// OnProgress, if not nil, is called with a snapshot of every model's
	// calls every ProgressInterval (0: 10s), and once more at the end with
	// final set. It is called from one goroutine at a time.
	OnProgress func(models []ModelProgress, final bool)
	// Progress, if not nil and OnProgress is nil, receives PlainProgress
	// lines.
	Progress         io.Writer
	ProgressInterval time.Duration
	// Now returns the time written into records (nil: time.Now).
	Now func() time.Time
	// Limit, when above 0, makes only the first Limit calls not yet
	// answered, in the run's order (question by question; for each, model
	// by model, arm by arm, trial by trial): a smoke test of a large run.
	// The calls left are made by the next run.
	Limit int
	// Fingerprint, when not "", is the Fingerprint of the inputs the plan
	// was made from: Run records it in the run folder (PreparedFile), so
	// that Finished can tell a later resume that it has nothing to do.
	Fingerprint string
	// Phase, when set, is called with what Run starts doing before it
	// makes calls ("checking the frozen inputs in DIR", "reading
	// DIR/answers.jsonl"), and with "" when the calls start (and
	// OnProgress takes over).
	Phase func(what string)
}

// RunResult reports what a Run did.
type RunResult struct {
	// Skipped calls were already answered in the log; Done answered now;
	// Failed failed now (they are logged and retried by the next run).
	Skipped, Done, Failed int
	// Canceled is true when the context ended before every call was made.
	Canceled bool
	// Stopped says, one line per model, which models Run stopped calling
	// because ConnectionFailuresToStop calls in a row got no HTTP response
	// (the endpoint is down or unreachable); their remaining calls are left
	// for the next run.
	Stopped []string
}

// ConnectionFailuresToStop is the number of calls in a row, each after its
// retries, that must get no HTTP response at all (connection refused, no
// such host, timeout) for Run to stop calling that model's endpoint
// instead of trying every remaining call.
const ConnectionFailuresToStop = 5

type job struct {
	en     *eval.Entry
	scorer task.Scorer // the scorer en.Scorer names
	c      *eval.Context
	trial  int
	key    string
}

// Run freezes the plan's inputs into opts.Out (or verifies them against a
// previous run there), then makes every call not yet answered in
// answers.jsonl, appending one Record per call. When ctx ends, calls in
// flight are abandoned without being logged and Run returns with Canceled
// set and ctx's error; running again resumes.
func Run(ctx context.Context, p *eval.Plan, opts RunOptions) (RunResult, error) {
	var res RunResult
	scorers := map[string]task.Scorer{}
	for _, en := range p.Entries {
		if _, ok := scorers[en.Scorer]; !ok {
			sc, err := p.Scorers.Lookup(en.Scorer)
			if err != nil {
				return res, fmt.Errorf("question %s: %w", en.Key, err)
			}
			scorers[en.Scorer] = sc
		}
	}
	phase := opts.Phase
	if phase == nil {
		phase = func(string) {}
	}
	phase("checking the frozen inputs in " + opts.Out)
	if err := Freeze(p, opts.Out); err != nil {
		return res, err
	}
	if opts.Fingerprint != "" {
		if err := writePrepared(opts.Out, opts.Fingerprint, p.Manifest.RunID); err != nil {
			return res, err
		}
	}
	logPath := filepath.Join(opts.Out, AnswersFile)
	phase("reading " + logPath)
	done, err := answeredKeys(logPath, p.Manifest.RunID)
	if err != nil {
		return res, err
	}
	log, err := jsonl.OpenAppend(logPath)
	if err != nil {
		return res, err
	}
	defer log.Close()
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	reg := opts.Tokenizers
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	e := p.Experiment
	retries := e.Retries
	switch {
	case retries == 0:
		retries = 3
	case retries < 0:
		retries = 0
	}

	toks := make([]token.Tokenizer, len(e.Models))
	for mi, m := range e.Models {
		if m.Tokenizer != "" {
			if toks[mi], err = reg.Get(m.Tokenizer); err != nil {
				return res, fmt.Errorf("model %s: tokenizer: %w", m.ModelName(), err)
			}
		}
	}

	var allowed map[string]bool // the calls Limit lets through (nil: all)
	if opts.Limit > 0 {
		allowed = map[string]bool{}
	limit:
		for i := range p.Entries {
			for _, m := range e.Models {
				for _, c := range p.ContextsFor(i, m) {
					for t := 1; t <= e.NumTrials(); t++ {
						if k := CallKey(c.Arm, m.ModelName(), p.Entries[i].Key, t); !done[k] {
							if len(allowed) == opts.Limit {
								break limit
							}
							allowed[k] = true
						}
					}
				}
			}
		}
	}

	phase("")
	recs := make(chan *Record, 64)
	var writeErr error
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		writeErr = writeRecords(log, recs)
	}()

	onProgress := opts.OnProgress
	if onProgress == nil && opts.Progress != nil {
		onProgress = PlainProgress(opts.Progress)
	}
	type modelState struct {
		name           string
		total, skipped int
		done, failed   atomic.Int64
	}
	var wg sync.WaitGroup
	states := make([]*modelState, len(e.Models))
	start := time.Now()
	var canceled atomic.Bool
	stops := make([]context.CancelCauseFunc, len(e.Models))
	modelCtxs := make([]context.Context, len(e.Models))
	for mi, m := range e.Models {
		st := &modelState{name: m.ModelName()}
		mctx, stopModel := context.WithCancelCause(ctx)
		modelCtxs[mi], stops[mi] = mctx, stopModel
		var unreachable atomic.Int64 // calls in a row without an HTTP response
		states[mi] = st
		tok := toks[mi]
		// The calls are counted first and generated one at a time by the
		// feeder, so memory does not grow with their number.
		eachJob := func(fn func(job) bool) {
			for i := range p.Entries {
				en := &p.Entries[i]
				for _, c := range p.ContextsFor(i, m) {
					for t := 1; t <= e.NumTrials(); t++ {
						k := CallKey(c.Arm, m.ModelName(), en.Key, t)
						if done[k] || (allowed != nil && !allowed[k]) {
							continue
						}
						if !fn(job{en: en, scorer: scorers[en.Scorer], c: c, trial: t, key: k}) {
							return
						}
					}
				}
			}
		}
		eachJob(func(job) bool { st.total++; return true })
		// Skipped are the calls answered already (not those Limit leaves).
		for i := range p.Entries {
			for _, c := range p.ContextsFor(i, m) {
				for t := 1; t <= e.NumTrials(); t++ {
					if done[CallKey(c.Arm, m.ModelName(), p.Entries[i].Key, t)] {
						st.skipped++
					}
				}
			}
		}
		res.Skipped += st.skipped
		conc := m.MaxConcurrency
		if conc <= 0 {
			conc = 1
		}
		client := &llm.Client{BaseURL: m.BaseURL, Model: m.Model, ExtraBody: m.ExtraBody, MaxConcurrency: conc,
			Retries: retries, Backoff: opts.Backoff, HTTPClient: opts.HTTPClient, Stream: m.Stream,
			Timeout: time.Duration(e.TimeoutSeconds * float64(time.Second)), MaxAnswerBytes: e.MaxAnswerBytes}
		if m.APIKeyEnv != "" {
			client.APIKey = getenv(m.APIKeyEnv)
		}
		queue := make(chan job)
		go func() {
			defer close(queue)
			eachJob(func(j job) bool {
				select {
				case queue <- j:
					return true
				case <-mctx.Done():
					return false
				}
			})
		}()
		for w := 0; w < conc; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range queue {
					r, ok := call(mctx, client, p, m, tok, j, now)
					if !ok {
						if ctx.Err() != nil {
							canceled.Store(true)
						}
						continue
					}
					if r.Status == StatusOK {
						st.done.Add(1)
					} else {
						st.failed.Add(1)
					}
					if r.Status == StatusFailed && r.HTTPStatus == 0 {
						if unreachable.Add(1) == ConnectionFailuresToStop {
							stopModel(fmt.Errorf("model %s: stopped after %d calls in a row got no response from %s (last error: %s); "+
								"its remaining calls are left for the next run", m.ModelName(), ConnectionFailuresToStop, m.BaseURL, r.Error))
						}
					} else {
						unreachable.Store(0)
					}
					recs <- r
				}
			}()
		}
	}
	snapshot := func() []ModelProgress {
		el := time.Since(start)
		out := make([]ModelProgress, len(states))
		for i, st := range states {
			out[i] = ModelProgress{Model: st.name, Total: st.total, Done: int(st.done.Load()),
				Failed: int(st.failed.Load()), Skipped: st.skipped, Elapsed: el}
		}
		return out
	}
	stopProgress := make(chan struct{})
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		if onProgress == nil {
			return
		}
		iv := opts.ProgressInterval
		if iv <= 0 {
			iv = 10 * time.Second
		}
		t := time.NewTicker(iv)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				onProgress(snapshot(), false)
			case <-stopProgress:
				return
			}
		}
	}()
	wg.Wait()
	for mi, stop := range stops {
		if cause := context.Cause(modelCtxs[mi]); cause != nil && ctx.Err() == nil {
			res.Stopped = append(res.Stopped, cause.Error())
		}
		stop(nil)
	}
	close(stopProgress)
	<-progressDone
	close(recs)
	<-writerDone
	if onProgress != nil {
		onProgress(snapshot(), true)
	}
	for _, st := range states {
		res.Done += int(st.done.Load())
		res.Failed += int(st.failed.Load())
	}
	if writeErr != nil {
		return res, fmt.Errorf("writing %s: %w", logPath, writeErr)
	}
	if ctx.Err() != nil && (canceled.Load() || res.Done+res.Failed+res.Skipped < p.Manifest.Calls) {
		res.Canceled = true
		return res, ctx.Err()
	}
	return res, nil
}

// writeRecords appends the records to log, one JSON line each, syncing
// whenever no other record is waiting, and drains recs even after an
// error. Nothing is kept after a record is written.
func writeRecords(log *jsonl.Log, recs <-chan *Record) error {
	var werr error
	for r := range recs {
		if werr != nil {
			continue
		}
		werr = log.Write(r)
		if werr == nil && len(recs) == 0 {
			werr = log.Sync()
		}
	}
	if werr == nil {
		werr = log.Sync()
	}
	return werr
}

// call makes one call; ok is false when ctx ended (nothing to log).
func call(ctx context.Context, client *llm.Client, p *eval.Plan, m eval.Model, tok token.Tokenizer, j job, now func() time.Time) (*Record, bool) {
	e := p.Experiment
	msgs, merr := p.Messages(j.en, j.c)
	var resp llm.Response
	var err error
	if merr == nil {
		resp, err = client.Chat(ctx, llm.Request{Messages: msgs, Temperature: e.Temperature, MaxTokens: e.MaxTokens, Seed: e.Seed})
		if err != nil && ctx.Err() != nil {
			return nil, false
		}
	} else {
		err = merr
	}
	var count func(string) int
	if tok != nil {
		count = tok.Count
	}
	r := &Record{RunID: p.Manifest.RunID, Key: j.key, Time: now().UTC().Format(time.RFC3339Nano),
		Task: j.en.Task, Graph: j.en.Graph, Item: j.en.Item, GraphSHA1: j.c.GraphSHA1, Arm: j.c.Arm, Format: j.c.Format,
		ContextSHA: j.c.SHA1, Ordering: j.c.OrderingName(), OrderSeed: j.c.OrderSeed, Anchor: j.c.Anchor,
		Budget: j.c.Budget, BudgetPolicy: j.c.Policy, BudgetTokenizer: j.c.Tokenizer, ContextTokens: j.c.Tokens,
		Model: m.ModelName(), BaseURL: redactURL(m.BaseURL), Tokenizer: m.Tokenizer, QuestionID: j.en.Q.ID,
		QuestionK: j.en.Key, Trial: j.trial, CallRecord: llm.NewCallRecord(msgs, resp, err, count)}
	// The context, often most of the body, is in the run folder already.
	r.RawRequest, r.RequestContext, r.RequestContextEscape = CompactRequest(r.RawRequest, j.c.Text, j.c.SHA1)
	if err != nil {
		return r, true
	}
	sc := j.scorer.Score(j.en.Q, resp.Text)
	r.Scorer, r.Rule, r.Parsed, r.Correct, r.Score = j.en.Scorer, sc.Rule, sc.Parsed, sc.Correct, sc.Score
	r.Partial = sc.Partial
	return r, true
}

// redactURL drops what may hold a secret (user information, query,
// fragment) from an endpoint URL before it is logged.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// ReadQuestions calls fn for every entry of a run folder's questions.jsonl
// (read from r; file names it in errors), in order. A line that is not an
// entry is an error naming file and the line, and so is a line longer than
// MaxRecordLine.
func ReadQuestions(r io.Reader, file string, fn func(*eval.Entry) error) error {
	return jsonl.Read(r, file, MaxRecordLine, func(line int, b []byte) error {
		var e eval.Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("%s:%d: %w", file, line, err)
		}
		return fn(&e)
	})
}

// ReadRecords calls fn for every well-formed record of an answer log, in
// order. A line that is not a record (such as the torn last line of a
// crashed run) is skipped; a line longer than MaxRecordLine is an error
// naming AnswersFile and the line.
func ReadRecords(r io.Reader, fn func(*Record) error) error {
	return readRecords(r, AnswersFile, func(_ int, rec *Record) error { return fn(rec) })
}

// readRecords is ReadRecords with the name of the file in errors and the
// number of each record's line.
func readRecords(r io.Reader, file string, fn func(line int, rec *Record) error) error {
	return jsonl.Decode(r, file, MaxRecordLine, func(line int, rec *Record) error {
		if rec.Key == "" {
			return nil
		}
		return fn(line, rec)
	})
}

// answeredKeys returns the keys of the calls answered (status ok) in the log.
// It refuses a log written by a run with other inputs, with an
// *rdf.ParseError at the first record of another run.
func answeredKeys(path, runID string) (map[string]bool, error) {
	done := map[string]bool{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Only the three fields it needs are decoded: the log of a large run
	// holds tens of MB of requests and answers.
	type keyOnly struct {
		RunID  string `json:"run_id"`
		Key    string `json:"key"`
		Status string `json:"status"`
	}
	err = jsonl.Decode(f, path, MaxRecordLine, func(line int, r *keyOnly) error {
		if r.Key == "" {
			return nil
		}
		if r.RunID != runID {
			return &rdf.ParseError{File: path, Line: line, Column: 1,
				Msg: fmt.Sprintf("record of run %s, this run is %s: refusing to mix inputs", r.RunID, runID)}
		}
		if r.Status == StatusOK {
			done[r.Key] = true
		}
		return nil
	})
	return done, err
}

// Freeze writes the plan's frozen inputs (manifest.json, questions.jsonl,
// contexts/) into dir, or, when dir already holds a run, verifies that its
// manifest and files have the same hashes and refuses otherwise.
func Freeze(p *eval.Plan, dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ContextsDir), 0o755); err != nil {
		return err
	}
	mpath := filepath.Join(dir, ManifestFile)
	old, err := os.ReadFile(mpath)
	if errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(dir, AnswersFile)); err == nil {
			return fmt.Errorf("%s: an answer log without %s: refusing to mix inputs", dir, ManifestFile)
		}
		for _, c := range p.Contexts {
			if err := writeFileSync(filepath.Join(dir, c.File), []byte(c.Text)); err != nil {
				return err
			}
		}
		if err := writeFileSync(filepath.Join(dir, QuestionsFile), p.QuestionsJSONL); err != nil {
			return err
		}
		b, err := json.MarshalIndent(p.Manifest, "", "  ")
		if err != nil {
			return err
		}
		return writeFileSync(mpath, append(b, '\n'))
	}
	if err != nil {
		return err
	}
	var m eval.Manifest
	if err := json.Unmarshal(old, &m); err != nil {
		return fmt.Errorf("%s: %w", mpath, err)
	}
	if diffs := diffManifest(&m, &p.Manifest); len(diffs) > 0 {
		return &MismatchError{Dir: dir, Diffs: diffs}
	}
	// The files on disk must still have their recorded hashes.
	if diffs := verifyFrozen(dir, &m); len(diffs) > 0 {
		return &MismatchError{Dir: dir, Diffs: diffs}
	}
	return nil
}

// verifyFrozen checks the frozen files of the run m in dir against their
// hashes in m, and returns one line per file missing or changed.
func verifyFrozen(dir string, m *eval.Manifest) []string {
	var diffs []string
	for _, c := range m.Contexts {
		b, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil || task.SHA1Hex(string(b)) != c.SHA1 {
			diffs = append(diffs, fmt.Sprintf("%s: missing or changed (want SHA-1 %s)", c.File, c.SHA1))
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, QuestionsFile))
	if err != nil || task.SHA1Hex(string(b)) != m.QuestionsSHA1 {
		diffs = append(diffs, fmt.Sprintf("%s: missing or changed (want SHA-1 %s)", QuestionsFile, m.QuestionsSHA1))
	}
	return diffs
}

// MismatchError is returned when a run folder holds a run with other inputs.
type MismatchError struct {
	Dir   string
	Diffs []string
}

// Error lists the differences, one per line.
func (e *MismatchError) Error() string {
	s := fmt.Sprintf("%s holds a run with other inputs; refusing to mix them (use another --out):", e.Dir)
	for _, d := range e.Diffs {
		s += "\n  " + d
	}
	return s
}

func diffManifest(old, cur *eval.Manifest) []string {
	var d []string
	if old.Version != cur.Version {
		d = append(d, fmt.Sprintf("manifest version %d, now %d", old.Version, cur.Version))
	}
	ob, _ := json.Marshal(old.Params)
	cb, _ := json.Marshal(cur.Params)
	if !bytes.Equal(ob, cb) {
		d = append(d, fmt.Sprintf("parameters were %s, now %s", ob, cb))
	}
	name := func(c *eval.Context) string {
		k := c.Graph + "/" + c.Arm
		if c.Item != "" {
			k = c.Graph + "/" + c.Item + "/" + c.Arm
		}
		if c.Anchor != "" {
			k += " anchor " + c.Anchor
		}
		if c.Tokenizer != "" {
			k += " tokenizer " + c.Tokenizer
		}
		return k
	}
	oc := map[string]eval.Context{}
	for _, c := range old.Contexts {
		oc[name(&c)] = c
	}
	cc := map[string]bool{}
	for _, c := range cur.Contexts {
		k := name(&c)
		cc[k] = true
		o, ok := oc[k]
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("context %s is new", k))
		case o.GraphSHA1 != c.GraphSHA1:
			d = append(d, fmt.Sprintf("graph %s: SHA-1 was %s, now %s", c.Graph, o.GraphSHA1, c.GraphSHA1))
		case o.SHA1 != c.SHA1:
			d = append(d, fmt.Sprintf("context %s: SHA-1 was %s, now %s", k, o.SHA1, c.SHA1))
		case o.Format != c.Format || o.HideName != c.HideName:
			d = append(d, fmt.Sprintf("context %s: format %s (hide name %t), now %s (hide name %t)", k, o.Format, o.HideName, c.Format, c.HideName))
		}
	}
	var gone []string
	for k := range oc {
		if !cc[k] {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		d = append(d, fmt.Sprintf("context %s is gone", k))
	}
	if old.QuestionsSHA1 != cur.QuestionsSHA1 {
		d = append(d, fmt.Sprintf("questions: SHA-1 was %s (%d), now %s (%d)", old.QuestionsSHA1, old.Questions, cur.QuestionsSHA1, cur.Questions))
	}
	if len(d) == 0 && old.RunID != cur.RunID {
		d = append(d, fmt.Sprintf("run id was %s, now %s", old.RunID, cur.RunID))
	}
	return d
}

func writeFileSync(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, 0o644)
}
