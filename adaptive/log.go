package adaptive

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/isolda/isolda/internal/jsonl"
	"github.com/isolda/isolda/llm"
)

// File names in a calibration or run folder.
const (
	// LogFile is the append-only log of every call, one CallRecord a line.
	LogFile = "select_calls.jsonl"
	// PriorsFile holds the Calibration (Calibration.WriteJSON).
	PriorsFile = "priors.json"
	// ResultFile holds a run's Result (Result.WriteJSON); `isolda report`
	// recognizes a select run by it.
	ResultFile = "select_result.json"
)

// Call kinds of a CallRecord.
const (
	KindCalibration = "calibration" // an answer call on the calibration split
	KindSelector    = "selector"    // a selector scoring call
	KindAnswer      = "answer"      // an answer call on the test split
)

// Call statuses of a CallRecord.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// MaxLogLine bounds one line of the call log when it is read back.
const MaxLogLine = 256 << 20

// CallRecord is one line of the call log: one model call and its outcome.
type CallRecord struct {
	// Key identifies the call: kind, question, format and a hash of the
	// model, request parameters and messages; a call whose key is answered
	// (status ok) in the log is not made again.
	Key        string `json:"key"`
	Time       string `json:"time"`
	Kind       string `json:"kind"`
	Split      string `json:"split"`
	QuestionID string `json:"question_id"`
	Task       string `json:"task"`
	Format     string `json:"format"`
	Model      string `json:"model"`
	Status     string `json:"status"`
	Error      string `json:"error,omitempty"`
	HTTPStatus int    `json:"http_status"`
	Attempts   int    `json:"attempts"`
	// LatencyMS is the duration of the last attempt.
	LatencyMS   float64 `json:"latency_ms"`
	RawRequest  string  `json:"raw_request"`
	RawResponse string  `json:"raw_response"`
	Response    string  `json:"response"`
	Reasoning   string  `json:"reasoning,omitempty"`
	Finish      string  `json:"finish_reason,omitempty"`
	// Server-reported usage.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	ReasoningTokens  int64 `json:"reasoning_tokens"`
	CachedTokens     int64 `json:"cached_tokens"`
	// Locally counted tokens of the message contents and the response (-1
	// without a tokenizer).
	LocalPromptTokens     int `json:"local_prompt_tokens"`
	LocalCompletionTokens int `json:"local_completion_tokens"`
	// Selector calls: the prior shown, the parsed chain or why the reply
	// was rejected.
	Prior      *float64 `json:"prior,omitempty"`
	Chain      *Chain   `json:"chain,omitempty"`
	ParseError string   `json:"parse_error,omitempty"`
	// Answer calls: the score of the reply (graphqa.ScoreFinal).
	Rule    string `json:"rule,omitempty"`
	Parsed  string `json:"parsed,omitempty"`
	Correct bool   `json:"correct"`
}

// callKey returns the key of a call.
func callKey(kind, questionID, format, model string, p Params, msgs []llm.Message) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s\x00%g\x00%d\x00", model, p.Temperature, p.MaxTokens)
	if p.Seed != nil {
		h.Write([]byte(strconv.FormatInt(*p.Seed, 10)))
	}
	for _, m := range msgs {
		fmt.Fprintf(h, "\x00%s\x00%d\x00%s", m.Role, len(m.Content), m.Content)
	}
	return kind + "|" + questionID + "|" + format + "|" + hex.EncodeToString(h.Sum(nil))[:16]
}

// ReadLog calls fn for every well-formed record of a call log, in order. A
// line that is not a record (such as the torn last line of a crashed run)
// is skipped; a line longer than MaxLogLine is an error naming LogFile and
// the line.
func ReadLog(r io.Reader, fn func(*CallRecord) error) error {
	return readLog(r, LogFile, fn)
}

// readLog is ReadLog with the name of the file in errors.
func readLog(r io.Reader, file string, fn func(*CallRecord) error) error {
	return jsonl.Decode(r, file, MaxLogLine, func(_ int, rec *CallRecord) error {
		if rec.Key == "" {
			return nil
		}
		return fn(rec)
	})
}

// callLog is an open call log with the answered calls it already holds.
type callLog struct {
	mu   sync.Mutex
	log  *jsonl.Log
	done map[string]*CallRecord
}

// openLog opens (creating it if needed) the log at path for appending and
// reads its answered calls.
func openLog(path string) (*callLog, error) {
	l := &callLog{done: map[string]*CallRecord{}}
	if f, err := os.Open(path); err == nil {
		err = readLog(f, path, func(r *CallRecord) error {
			if r.Status == StatusOK {
				l.done[r.Key] = r
			}
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	log, err := jsonl.OpenAppend(path)
	if err != nil {
		return nil, err
	}
	l.log = log
	return l, nil
}

// lookup returns the answered record of key, if any.
func (l *callLog) lookup(key string) (*CallRecord, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.done[key]
	return r, ok
}

// append writes a record as one line and syncs it.
func (l *callLog) append(r *CallRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.log.Append(r); err != nil {
		return err
	}
	if r.Status == StatusOK {
		l.done[r.Key] = r
	}
	return nil
}

func (l *callLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.log.Close()
}
