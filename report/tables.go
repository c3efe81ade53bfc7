package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Table is a titled grid of formatted cells, the common form of every table
// written as Markdown, CSV or HTML.
type Table struct {
	// Name is a short identifier ("accuracy", "pairs", …).
	Name string
	// Title is the human-readable caption.
	Title  string
	Header []string
	Rows   [][]string
	// Note, when set, is shown instead of an empty table.
	Note string
}

func p4(n Num) string { return fmtNum(n, 4) }
func p1(n Num) string { return fmtNum(n, 1) }

// Tables returns the report's tables in a fixed order: the arms of an eval
// run (when known), accuracy (with the partial-credit columns when some
// answer has credit), paired comparisons, paired comparisons on partial
// credit (when any), tokens, run-to-run spread and Pareto fronts.
func (r *Report) Tables() []Table {
	var out []Table
	if len(r.Arms) > 0 {
		arms := Table{Name: "arms", Title: "Arms: contexts rendered and round trips of the lossless ones (decoded when the run was prepared)",
			Header: []string{"arm", "format", "options", "contexts", "round trips", "isomorphic", "differs", "decode errors", "cut to a budget"}}
		for _, a := range r.Arms {
			rt := "not lossless"
			if a.Checked() > 0 {
				rt = fmt.Sprintf("%d/%d isomorphic", a.Isomorphic, a.Checked())
			} else if a.Cut > 0 {
				rt = "cut, not compared"
			}
			arms.Rows = append(arms.Rows, []string{a.Arm, a.Format, a.Options, strconv.Itoa(a.Contexts), rt,
				strconv.Itoa(a.Isomorphic), strconv.Itoa(a.Differs), strconv.Itoa(a.DecodeErrors), strconv.Itoa(a.Cut)})
		}
		out = append(out, arms)
	}
	credit := false
	for _, a := range r.Accuracy {
		credit = credit || a.Credit != nil
	}
	acc := Table{Name: "accuracy", Title: "Accuracy with Wilson 95% intervals",
		Header: []string{"model", "arm", "family", "task", "graph", "correct", "n", "accuracy", "lo", "hi"}}
	if credit {
		acc.Title += "; partial credit (means over the answers with credit)"
		acc.Header = append(acc.Header, "n credit", "mean F1", "precision", "recall", "exact match", "parse success")
	}
	for _, a := range r.Accuracy {
		row := []string{a.Model, a.Arm, a.Family, a.Task, a.Graph,
			strconv.Itoa(a.Correct), strconv.Itoa(a.N), p4(a.Accuracy), p4(a.Lo), p4(a.Hi)}
		if credit {
			if c := a.Credit; c != nil {
				row = append(row, strconv.Itoa(c.N), p4(c.F1), p4(c.Precision), p4(c.Recall), p4(c.ExactMatch), p4(c.ParseSuccess))
			} else {
				row = append(row, "0", "–", "–", "–", "–", "–")
			}
		}
		acc.Rows = append(acc.Rows, row)
	}
	out = append(out, acc)
	pairs := Table{Name: "pairs", Title: "Paired comparisons (McNemar; bootstrap and BCa 95% intervals of acc(A) − acc(B))",
		Header: []string{"model", "A", "B", "n", "b", "c", "acc A", "acc B", "diff", "McNemar p", "mid-p", "boot lo", "boot hi", "BCa lo", "BCa hi"}}
	for _, p := range r.Pairs {
		pairs.Rows = append(pairs.Rows, []string{p.Model, p.A, p.B, strconv.Itoa(p.N), strconv.Itoa(p.B10), strconv.Itoa(p.C01),
			p4(p.AccA), p4(p.AccB), p4(p.Diff), p4(p.McNemar), p4(p.MidP), p4(p.BootLo), p4(p.BootHi), p4(p.BCaLo), p4(p.BCaHi)})
	}
	tok := Table{Name: "tokens", Title: "Tokens per arm and model: \"in\" as the server counted them (usage.prompt_tokens, chat template included; " +
		"the local count where the server gave none), used by the token criteria and the Pareto fronts; \"local in mean\" the model's " +
		"tokenizer on the messages alone",
		Header: []string{"model", "arm", "n", "in mean", "local in mean", "in sd", "in min", "in max", "out mean", "out sd", "out min", "out max"}}
	for _, t := range r.Tokens {
		tok.Rows = append(tok.Rows, []string{t.Model, t.Arm, strconv.Itoa(t.N), p1(t.InMean), p1(t.LocalInMean), p1(t.InSD), p1(t.InMin), p1(t.InMax),
			p1(t.OutMean), p1(t.OutSD), p1(t.OutMin), p1(t.OutMax)})
	}
	run := Table{Name: "run_to_run", Title: "Run-to-run spread of accuracy over repeated trials",
		Header: []string{"model", "arm", "trials", "questions", "mean", "sd", "min", "max"}}
	for _, x := range r.RunToRun {
		run.Rows = append(run.Rows, []string{x.Model, x.Arm, strconv.Itoa(x.Trials), strconv.Itoa(x.Questions), p4(x.Mean), p4(x.SD), p4(x.Min), p4(x.Max)})
	}
	par := Table{Name: "pareto", Title: "Accuracy against mean input tokens (Pareto front per model)",
		Header: []string{"model", "arm", "mean input tokens", "accuracy", "on front"}}
	for _, x := range r.Pareto {
		on := "no"
		if x.OnFront {
			on = "yes"
		}
		par.Rows = append(par.Rows, []string{x.Model, x.Arm, p1(x.Tokens), p4(x.Accuracy), on})
	}
	out = append(out, pairs)
	if len(r.CreditPairs) > 0 {
		cp := Table{Name: "credit_pairs", Title: "Paired comparisons on partial credit (bootstrap and BCa 95% intervals of mean(A) − mean(B))",
			Header: []string{"model", "A", "B", "metric", "n", "mean A", "mean B", "diff", "boot lo", "boot hi", "BCa lo", "BCa hi"}}
		for _, p := range r.CreditPairs {
			cp.Rows = append(cp.Rows, []string{p.Model, p.A, p.B, p.Metric, strconv.Itoa(p.N), p4(p.MeanA), p4(p.MeanB), p4(p.Diff),
				p4(p.BootLo), p4(p.BootHi), p4(p.BCaLo), p4(p.BCaHi)})
		}
		out = append(out, cp)
	}
	return append(out, tok, run, par)
}

// mdEscape escapes the characters that would break a Markdown table cell.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return s
}

// WriteMarkdown writes the table as a GitHub-flavoured Markdown table
// preceded by a level-2 heading with its title.
func (t Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", mdEscape(t.Title))
	if len(t.Rows) == 0 && t.Note != "" {
		fmt.Fprintf(&b, "%s\n\n", mdEscape(t.Note))
		_, err := io.WriteString(w, b.String())
		return err
	}
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the table as RFC 4180 CSV with a header line.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteMarkdown writes every table of the report as Markdown, as
// DisplayTables shows them.
func (r *Report) WriteMarkdown(w io.Writer) error {
	return writeMarkdownTables(w, r.DisplayTables())
}

// WriteJSON writes the report as indented JSON; undefined figures are null.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// NoRunToRun is the note of the run-to-run table when no question was
// answered in two trials.
const NoRunToRun = "one trial per question: no run-to-run variation to show"

// DisplayTables returns the tables as people read them (HTML and Markdown):
// a run on a single graph does not repeat its accuracy rows per graph (the
// graph column and the per-graph rows, equal to the "*" rows, are left
// out), and an empty run-to-run table says why. CSV files keep the full
// tables of Tables.
func (r *Report) DisplayTables() []Table {
	tables := r.Tables()
	graphs := map[string]bool{}
	for _, a := range r.Accuracy {
		if a.Graph != All {
			graphs[a.Graph] = true
		}
	}
	for i, t := range tables {
		switch t.Name {
		case "accuracy":
			col := slices.Index(t.Header, "graph")
			if len(graphs) != 1 || col < 0 {
				continue
			}
			var g string
			for k := range graphs {
				g = k
			}
			nt := Table{Name: t.Name, Title: t.Title + " (graph " + g + ")", Note: t.Note,
				Header: slices.Delete(slices.Clone(t.Header), col, col+1)}
			for _, row := range t.Rows {
				if row[col] == All {
					nt.Rows = append(nt.Rows, slices.Delete(slices.Clone(row), col, col+1))
				}
			}
			tables[i] = nt
		case "run_to_run":
			if len(t.Rows) == 0 {
				tables[i].Note = NoRunToRun
			}
		}
	}
	return tables
}

// writeMarkdownTables writes each of ts as Markdown, in order.
func writeMarkdownTables(w io.Writer, ts []Table) error {
	for _, t := range ts {
		if err := t.WriteMarkdown(w); err != nil {
			return err
		}
	}
	return nil
}
