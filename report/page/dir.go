package page

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/report"
)

// AnswersCSV is the file of WriteDir that lists every call of the run.
const AnswersCSV = "answers.csv"

// maxCSVAnswer bounds the bytes of an answer in answers.csv (the column
// answer_bytes gives its whole size, and answers.jsonl has it whole).
const maxCSVAnswer = 4096

// WriteDir writes every output of a report into dir, creating it:
// report.md and report.html as people read them, report.json, one CSV
// file per table (the full tables of Report.Tables) and, with a run,
// answers.csv (every call, the line of its record in answers.jsonl
// included). Each file is replaced atomically. When p.RunLink is empty,
// the page links to the run folder relative to dir.
func WriteDir(dir string, p Page) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if p.Run != nil && p.RunLink == "" {
		if rel, err := relLink(dir, p.Run.Dir); err == nil {
			p.RunLink = rel
		}
	}
	write := func(name string, fn func(io.Writer) error) error {
		return atomicfile.Write(filepath.Join(dir, name), 0o644, fn)
	}
	if err := write("report.md", p.Report.WriteMarkdown); err != nil {
		return err
	}
	if err := write("report.json", p.Report.WriteJSON); err != nil {
		return err
	}
	if err := write("report.html", p.WriteHTML); err != nil {
		return err
	}
	for _, t := range p.Report.Tables() {
		if err := write(t.Name+".csv", t.WriteCSV); err != nil {
			return err
		}
	}
	if p.Run != nil {
		if err := write(AnswersCSV, func(w io.Writer) error { return WriteAnswersCSV(w, p.Run) }); err != nil {
			return err
		}
	}
	return nil
}

// relLink is the run folder as a slash-separated path relative to dir.
func relLink(dir, run string) (string, error) {
	ad, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	ar, err := filepath.Abs(run)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ad, ar)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// WriteAnswersCSV writes every call of the run, in the run's order, one
// row each: its line in answers.jsonl, identity, outcome, answer (cut to
// 4096 bytes; answer_bytes is its whole size) and token counts.
func WriteAnswersCSV(w io.Writer, run *report.Run) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"line", "key", "model", "arm", "family", "task", "graph", "question_id", "trial", "status", "outcome",
		"score", "answer", "answer_bytes", "gold", "prompt_tokens", "local_prompt_tokens", "completion_tokens", "latency_ms", "error"}); err != nil {
		return err
	}
	for _, s := range run.Samples {
		ans := s.Answer
		if len(ans) > maxCSVAnswer {
			n := maxCSVAnswer
			for n > 0 && ans[n]&0xC0 == 0x80 {
				n--
			}
			ans = ans[:n]
		}
		score := ""
		if s.Status == runner.StatusOK {
			score = strconv.FormatFloat(s.Score, 'f', -1, 64)
		}
		if err := cw.Write([]string{strconv.Itoa(s.Line), s.Key, s.Model, s.Arm, s.Family, s.Task, s.Graph, s.QuestionID, strconv.Itoa(s.Trial),
			s.Status, outcome(s), score, ans, strconv.Itoa(s.AnswerBytes), s.Gold, strconv.FormatInt(s.PromptTokens, 10),
			strconv.Itoa(s.LocalPromptTokens), strconv.FormatInt(s.CompletionTokens, 10), strconv.FormatFloat(s.LatencyMS, 'f', -1, 64), s.Error}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
