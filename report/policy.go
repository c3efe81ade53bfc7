package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/adaptive"
	"github.com/isolda/isolda/stats"
)

// IsSelectRun reports whether dir is an `isolda select run` folder: it holds
// adaptive.ResultFile.
func IsSelectRun(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, adaptive.ResultFile))
	return err == nil && st.Mode().IsRegular()
}

// FromSelectRun reads the result of an `isolda select run` folder.
func FromSelectRun(dir string) (*adaptive.Result, error) {
	f, err := os.Open(filepath.Join(dir, adaptive.ResultFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := adaptive.ReadResult(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, adaptive.ResultFile), err)
	}
	return res, nil
}

// PolicyRow is one policy of the policy comparison: its accuracy with the
// Wilson 95% interval, its accounting, and its paired comparison with
// global fixed-best (undefined, NaN, on fixed-best's own row).
type PolicyRow struct {
	Policy  string `json:"policy"`
	Correct int    `json:"correct"`
	N       int    `json:"n"`
	// Accuracy is Correct/N; Lo and Hi bound its Wilson 95% interval.
	Accuracy Num `json:"accuracy"`
	Lo       Num `json:"lo"`
	Hi       Num `json:"hi"`
	// Calls, tokens and cost total the split; CallsPerQuestion is Calls/N.
	Calls            int   `json:"calls"`
	CallsPerQuestion Num   `json:"calls_per_question"`
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	Cost             Num   `json:"cost"`
	// RelativeCost is Cost over fixed-best's (NaN when that is 0).
	RelativeCost Num `json:"relative_cost"`
	// MeanLatencyMS is the mean end-to-end latency per question, parallel
	// calls counting as the slowest of them.
	MeanLatencyMS Num `json:"mean_latency_ms"`
	// Diff is Accuracy minus fixed-best's; BCaLo and BCaHi bound its paired
	// BCa 95% interval; B counts questions this policy got right and
	// fixed-best wrong, C the reverse; MidP is the mid-p McNemar p-value.
	Diff  Num `json:"diff"`
	BCaLo Num `json:"bca_lo"`
	BCaHi Num `json:"bca_hi"`
	B     int `json:"b"`
	C     int `json:"c"`
	MidP  Num `json:"midp"`
}

// PolicyReport is the policy comparison of a select run (the study's
// Table 3).
type PolicyReport struct {
	Model     string `json:"model"`
	Split     string `json:"split"`
	N         int    `json:"n"`
	Band      int    `json:"band"`
	FixedBest string `json:"fixed_best"`
	// Seed and Resamples are those of the paired bootstraps.
	Seed      uint64      `json:"seed"`
	Resamples int         `json:"resamples"`
	Rows      []PolicyRow `json:"rows"`
	// Picks counts the selector's choices per format.
	Picks []adaptive.FormatCount `json:"picks"`
}

// BuildPolicyReport compares the policies of a select run with global
// fixed-best over the same questions (paired bootstrap with opt.Seed and
// opt.Resamples).
func BuildPolicyReport(res *adaptive.Result, opt Options) (*PolicyReport, error) {
	if res == nil || len(res.Questions) == 0 {
		return nil, errors.New("report: select run without questions")
	}
	resamples := opt.Resamples
	if resamples == 0 {
		resamples = stats.DefaultResamples
	}
	pr := &PolicyReport{Model: res.Model, Split: res.Split, N: len(res.Questions), Band: res.Band,
		FixedBest: res.FixedBest, Seed: opt.Seed, Resamples: resamples, Picks: res.Picks}
	sums := adaptive.Summarize(res.Questions)
	ref := res.Correct(adaptive.PolicyFixedBest)
	var refCost float64
	for _, s := range sums {
		if s.Policy == adaptive.PolicyFixedBest {
			refCost = s.Usage.Cost
		}
	}
	nan := Num(math.NaN())
	for _, s := range sums {
		w, err := stats.Wilson(s.Correct, s.N, 0.95)
		if err != nil {
			return nil, err
		}
		row := PolicyRow{Policy: s.Policy, Correct: s.Correct, N: s.N, Accuracy: Num(s.Accuracy), Lo: Num(w.Lo), Hi: Num(w.Hi),
			Calls: s.Usage.Calls, CallsPerQuestion: Num(float64(s.Usage.Calls) / float64(s.N)),
			InputTokens: s.Usage.PromptTokens, OutputTokens: s.Usage.CompletionTokens, Cost: Num(s.Usage.Cost),
			RelativeCost: nan, MeanLatencyMS: Num(s.MeanLatencyMS), Diff: nan, BCaLo: nan, BCaHi: nan, MidP: nan}
		if refCost > 0 {
			row.RelativeCost = Num(s.Usage.Cost / refCost)
		}
		if s.Policy != adaptive.PolicyFixedBest {
			p, err := stats.ComparePaired(res.Correct(s.Policy), ref, stats.BootstrapOptions{Resamples: resamples, Seed: opt.Seed})
			if err != nil {
				return nil, err
			}
			row.Diff, row.B, row.C, row.MidP = Num(p.Diff), p.B, p.C, Num(p.MidP)
			if p.BCaErr == nil {
				row.BCaLo, row.BCaHi = Num(p.BCa.Lo), Num(p.BCa.Hi)
			}
		}
		pr.Rows = append(pr.Rows, row)
	}
	return pr, nil
}

// pct formats a fraction as a percentage with two decimals; pp a difference
// as signed percentage points.
func pct(n Num) string { return fmtNum(n*100, 2) }

func pp(n Num) string {
	s := fmtNum(n*100, 2)
	if s != "–" && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// Table returns the policy comparison as a Table: accuracy (%) with its
// Wilson interval, the difference with fixed-best (pp) with its paired BCa
// interval, the discordant counts and mid-p McNemar p, then calls, tokens,
// relative cost and mean latency.
func (p *PolicyReport) Table() Table {
	t := Table{Name: "policies",
		Title: fmt.Sprintf("Policy comparison on %d %s questions (model %s, band b=%d, fixed-best %s; paired BCa 95%% and mid-p McNemar against fixed-best)",
			p.N, p.Split, p.Model, p.Band, p.FixedBest),
		Header: []string{"policy", "correct", "n", "accuracy %", "Wilson lo", "Wilson hi", "Δ pp", "BCa lo", "BCa hi", "b", "c", "mid-p",
			"calls", "calls/q", "input tokens", "output tokens", "relative cost", "mean latency s"}}
	for _, r := range p.Rows {
		b, c := strconv.Itoa(r.B), strconv.Itoa(r.C)
		if r.Policy == adaptive.PolicyFixedBest {
			b, c = "–", "–"
		}
		t.Rows = append(t.Rows, []string{r.Policy, strconv.Itoa(r.Correct), strconv.Itoa(r.N), pct(r.Accuracy), pct(r.Lo), pct(r.Hi),
			pp(r.Diff), pp(r.BCaLo), pp(r.BCaHi), b, c, fmtNum(r.MidP, 4),
			strconv.Itoa(r.Calls), fmtNum(r.CallsPerQuestion, 2), strconv.FormatInt(r.InputTokens, 10), strconv.FormatInt(r.OutputTokens, 10),
			fmtNum(r.RelativeCost, 2), fmtNum(r.MeanLatencyMS/1000, 2)})
	}
	return t
}

// picksTable lists the selector's choices per format.
func (p *PolicyReport) picksTable() Table {
	t := Table{Name: "selector_picks", Title: "Selector choices per format", Header: []string{"format", "questions"}}
	for _, f := range p.Picks {
		t.Rows = append(t.Rows, []string{f.Format, strconv.Itoa(f.Count)})
	}
	return t
}

// Tables returns the policy table and the selector's picks.
func (p *PolicyReport) Tables() []Table { return []Table{p.Table(), p.picksTable()} }

// WriteMarkdown writes the tables as Markdown.
func (p *PolicyReport) WriteMarkdown(w io.Writer) error {
	return writeMarkdownTables(w, p.Tables())
}

// WriteText writes the policy table as aligned plain text for a terminal.
func (p *PolicyReport) WriteText(w io.Writer) error {
	t := p.Table()
	if _, err := fmt.Fprintln(w, t.Title); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(t.Header, "\t")+"\t")
	for _, r := range t.Rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	return tw.Flush()
}

// WriteJSON writes the report as indented JSON; undefined figures are null.
func (p *PolicyReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}
