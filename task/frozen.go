package task

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/internal/jsonl"
	"github.com/isolda/isolda/rdf"
)

// MaxFrozenLine is the longest line ReadFrozen accepts (a context can be a
// whole serialized graph).
const MaxFrozenLine = 64 << 20

// Record types of the frozen JSONL format.
const (
	recordSet      = "set"
	recordContext  = "context"
	recordQuestion = "question"
)

type setRecord struct {
	Type string `json:"type"`
	Set
}

type contextRecord struct {
	Type string `json:"type"`
	Context
}

type questionRecord struct {
	Type string `json:"type"`
	Question
}

// WriteFrozen writes the set as JSONL: a header line {"type":"set",...} with
// its name, seed and counts, then one {"type":"context",...} line per context
// and one {"type":"question",...} line per question. Hashes are (re)computed
// first with Seal, so what is written always verifies.
func WriteFrozen(w io.Writer, set *Set) error {
	set.Seal()
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(setRecord{recordSet, *set}); err != nil {
		return err
	}
	for _, c := range set.Contexts {
		if err := enc.Encode(contextRecord{recordContext, c}); err != nil {
			return err
		}
	}
	for _, q := range set.Questions {
		if err := enc.Encode(questionRecord{recordQuestion, q}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadFrozen reads a set written by WriteFrozen and verifies it: every
// context's SHA-1 matches its text (when stored), every question's SHA-1
// matches its text and its answer's SHA-1 its gold answer, every context a
// question names exists and has the hash the question recorded, and ids are
// unique. Errors are *rdf.ParseError with the line (and column 1).
func ReadFrozen(r io.Reader) (*Set, error) {
	br := bufio.NewReader(r)
	set := &Set{}
	ctx := map[string]string{}
	qids := map[string]bool{}
	line := 0
	header := false
	for {
		b, err := jsonl.ReadLine(br, MaxFrozenLine)
		if err == io.EOF && len(b) == 0 {
			break
		}
		line++
		perr := func(format string, args ...any) error {
			return &rdf.ParseError{Line: line, Column: 1, Msg: fmt.Sprintf(format, args...)}
		}
		if err != nil && err != io.EOF {
			if _, ok := err.(*jsonl.LineTooLongError); ok {
				return nil, perr("line longer than %d bytes", MaxFrozenLine)
			}
			return nil, err
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err == io.EOF {
				break
			}
			continue
		}
		var probe struct {
			Type string `json:"type"`
		}
		if jerr := json.Unmarshal(b, &probe); jerr != nil {
			return nil, jsonError(line, jerr)
		}
		switch probe.Type {
		case recordSet:
			if header {
				return nil, perr("second set header")
			}
			var rec setRecord
			if jerr := strictUnmarshal(b, &rec); jerr != nil {
				return nil, jsonError(line, jerr)
			}
			header = true
			set.Name, set.Seed, set.Counts = rec.Name, rec.Seed, rec.Counts
		case recordContext:
			var rec contextRecord
			if jerr := strictUnmarshal(b, &rec); jerr != nil {
				return nil, jsonError(line, jerr)
			}
			c := rec.Context
			if c.ID == "" {
				return nil, perr("context without id")
			}
			if _, dup := ctx[c.ID]; dup {
				return nil, perr("duplicate context id %q", c.ID)
			}
			if c.Text != "" {
				if h := SHA1Hex(c.Text); h != c.SHA1 {
					return nil, perr("context %q: SHA-1 %s does not match its text (%s)", c.ID, c.SHA1, h)
				}
			} else if len(c.SHA1) != 40 {
				return nil, perr("context %q: missing SHA-1", c.ID)
			}
			ctx[c.ID] = c.SHA1
			set.Contexts = append(set.Contexts, c)
		case recordQuestion:
			var rec questionRecord
			if jerr := strictUnmarshal(b, &rec); jerr != nil {
				return nil, jsonError(line, jerr)
			}
			q := rec.Question
			if q.ID == "" {
				return nil, perr("question without id")
			}
			if qids[q.ID] {
				return nil, perr("duplicate question id %q", q.ID)
			}
			qids[q.ID] = true
			if h := SHA1Hex(q.Text); h != q.QuestionSHA1 {
				return nil, perr("question %q: SHA-1 %s does not match its text (%s)", q.ID, q.QuestionSHA1, h)
			}
			if h := SHA1Hex(q.Gold.Text); h != q.AnswerSHA1 {
				return nil, perr("question %q: answer SHA-1 %s does not match its gold answer (%s)", q.ID, q.AnswerSHA1, h)
			}
			if q.ContextID != "" {
				h, ok := ctx[q.ContextID]
				if !ok {
					return nil, perr("question %q: unknown context %q", q.ID, q.ContextID)
				}
				if h != q.ContextSHA1 {
					return nil, perr("question %q: context SHA-1 %s differs from context %q (%s)", q.ID, q.ContextSHA1, q.ContextID, h)
				}
			}
			set.Questions = append(set.Questions, q)
		default:
			return nil, perr("unknown record type %q", probe.Type)
		}
		if err == io.EOF {
			break
		}
	}
	if !header {
		return nil, &rdf.ParseError{Line: max(line, 1), Column: 1, Msg: "no set header"}
	}
	return set, nil
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

func jsonError(line int, err error) error {
	col := 1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		col = int(se.Offset)
	case errors.As(err, &te):
		col = int(te.Offset)
	}
	return &rdf.ParseError{Line: line, Column: max(col, 1), Msg: "bad JSON: " + err.Error(), Err: err}
}

// WriteSetFiles writes each set to dir as <Name>.jsonl (WriteFrozen) and
// returns the file names written, in order. Set names must be distinct,
// non-empty and usable as file names.
func WriteSetFiles(dir string, sets []*Set) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, set := range sets {
		if set.Name == "" || set.Name != filepath.Base(set.Name) || strings.ContainsAny(set.Name, "/\\") || set.Name == "." || set.Name == ".." {
			return names, fmt.Errorf("task: set name %q is not a file name", set.Name)
		}
		name := set.Name + ".jsonl"
		if seen[name] {
			return names, fmt.Errorf("task: two sets named %q", set.Name)
		}
		seen[name] = true
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return names, err
		}
		werr := WriteFrozen(f, set)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return names, werr
		}
		names = append(names, name)
	}
	return names, nil
}
