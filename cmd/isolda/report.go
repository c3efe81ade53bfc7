package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/page"
	"github.com/isolda/isolda/study"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newReportCmd(env *Env) *cobra.Command {
	var criteria, benchFile, out, rescore string
	var with []string
	var seed uint64
	var resamples int
	cmd := &cobra.Command{
		Use:   "report RUNDIR",
		Short: "Statistics, pre-registered criteria and an HTML report of an eval run",
		Long: "Reads the folder of an isolda eval run and prints its arms (with the round trips of their contexts), " +
			"accuracy per arm × model × family (and task) × graph with Wilson 95% intervals and, where the scorer " +
			"gives partial credit, mean F1, precision, recall, exact match and parse success; paired comparisons " +
			"(discordant counts, exact and mid-p McNemar, paired bootstrap and BCa intervals, also on partial credit), " +
			"token summaries, run-to-run spread and Pareto fronts as Markdown. " +
			"--criteria evaluates a pre-registered criteria file (PASS/FAIL with the figures), with the round trips " +
			"the run recorded when it was prepared; --bench adds those of an isolda bench --json file; --out writes report.md, report.json, " +
			"report.html (self-contained: inline SVG, no JavaScript; results first, then the answers, filterable by arm, model, " +
			"family and outcome: every answer of a run of up to 1,000 calls, else a sample of every model × arm × family cell, " +
			"wrong answers first, with \"N of M shown\"), answers.csv (every call) and one CSV per table. Records of answers.jsonl " +
			"that are not calls of the run's design (another run, an arm, model, question or trial the run does not have) are " +
			"errors: they are listed, not counted, the exit status is 2 and --criteria refuses to judge; lines that are not " +
			"records (a torn last line) are counted and printed. Progress goes to stderr on large runs. On the folder of an " +
			"isolda select run it prints the policy comparison instead. " +
			"--rescore SCORER scores every logged answer again with another scorer (no model is called, the run is not " +
			"changed; the per-answer view of --out keeps the logged scores); --with RUN adds the answers of another run " +
			"about graphs this run did not ask (rescored too with --rescore): how the Catalan study reuses an English run.\n\n" +
			"Exit status with --criteria: 0 when every criterion is PASS, 1 when one is FAIL or NOT EVALUATED " +
			"(the run lacks what it needs, such as an arm or model it names: a pre-registered criterion that " +
			"could not be checked is not confirmed).",
		Example: "  isolda report run\n" +
			"  isolda report run --criteria report/examples/paper-4.4-confirmatory.yaml --out run/report\n" +
			"  isolda report sel -o sel/report\n" +
			"  isolda report en-run --rescore kgllm_adapted\n" +
			"  isolda report ca-run --with en-pseudo-run --with en-real-run --rescore kgllm_adapted --criteria ca/criteria.yaml",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRunDir(args[0]); err != nil {
				return err
			}
			if report.IsSelectRun(args[0]) {
				return selectReport(env, args[0], seed, resamples, out)
			}
			prog := newReportProgress(env, args[0])
			run, err := report.ReadRunWith(args[0], report.ReadOptions{Lazy: true, Progress: prog.read})
			if err != nil {
				return badInput(err)
			}
			logProblems(env, run)
			if len(run.OutOfDesign) > 0 && criteria != "" {
				return badInput(fmt.Errorf("report: %d record(s) of %s are not calls of the run's design (listed above): "+
					"refusing to judge the criteria on this log", len(run.OutOfDesign), runner.AnswersFile))
			}
			obs := run.Observations
			if rescore != "" {
				if obs, err = runObservations(args[0], rescore); err != nil {
					return badInput(err)
				}
			}
			for _, w := range with {
				if err := checkRunDir(w); err != nil {
					return err
				}
				more, err := runObservations(w, rescore)
				if err != nil {
					return badInput(err)
				}
				obs = report.AddGraphs(obs, more)
			}
			if len(obs) == 0 {
				return badInput(fmt.Errorf("%s: no successful answers yet", args[0]))
			}
			prog.step(fmt.Sprintf("statistics of %d answers (%d bootstrap resamples)", len(obs), resamples))
			rep, err := report.Build(obs, report.Options{Seed: seed, Resamples: resamples})
			if err != nil {
				return badInput(err)
			}
			man := &run.Manifest
			rep.Arms = report.ArmRows(man)
			var results []report.Result
			if criteria != "" {
				in := report.Input{Observations: obs, RoundTrips: report.RoundTripsFromManifest(man)}
				if benchFile != "" {
					b, err := readBenchReport(benchFile)
					if err != nil {
						return badInput(err)
					}
					in.RoundTrips = append(in.RoundTrips, report.RoundTripsFromBench(b)...)
				}
				f, err := os.Open(criteria)
				if err != nil {
					return badInput(err)
				}
				set, err := report.ParseCriteria(f, criteria)
				f.Close()
				if err != nil {
					return badInput(err)
				}
				if results, err = set.Evaluate(in); err != nil {
					return badInput(err)
				}
			}
			if err := toStdout(env, func(w io.Writer) error {
				if err := rep.WriteMarkdown(w); err != nil {
					return err
				}
				if results == nil {
					return nil
				}
				fmt.Fprintln(w)
				return report.WriteCriteriaMarkdown(w, results)
			}); err != nil {
				return err
			}
			if out != "" {
				prog.step("writing " + out)
				if err := page.WriteDir(out, page.Page{Title: "isolda report", Report: rep, Results: results, Run: run}); err != nil {
					return err
				}
				fmt.Fprintf(env.Stderr, "wrote %s\n", out)
			}
			prog.done()
			if n := len(run.OutOfDesign); n > 0 {
				return badInput(fmt.Errorf("report: %d record(s) of %s are not calls of the run's design (listed above) and were not counted", n, runner.AnswersFile))
			}
			return criteriaOutcome(env, results)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&criteria, "criteria", "", "pre-registered criteria file (YAML or JSON; see report/examples); exit 1 unless every criterion passes")
	fl.StringVar(&benchFile, "bench", "", "the JSON file of isolda bench --json, for round-trip criteria")
	fl.StringVarP(&out, "out", "o", "", "folder for report.md, report.json, report.html, answers.csv and CSV tables")
	fl.StringVar(&rescore, "rescore", "", "score every logged answer again with this scorer (e.g. kgllm_adapted) instead of the logged scores")
	fl.StringArrayVar(&with, "with", nil, "RUNDIR: add the answers of another eval run about graphs this run has none of (repeatable)")
	bootstrapFlags(fl, &seed, &resamples)
	return cmd
}

// The bootstrap of the intervals that report and select compare print
// (unless --seed and --resamples change it) and select run prints.
const (
	bootstrapSeed      = 1101
	bootstrapResamples = 10000
)

// bootstrapFlags adds --seed and --resamples, the bootstrap of the
// intervals, to fl.
func bootstrapFlags(fl *pflag.FlagSet, seed *uint64, resamples *int) {
	fl.Uint64Var(seed, "seed", bootstrapSeed, "seed of the bootstrap resampling")
	fl.IntVar(resamples, "resamples", bootstrapResamples, "bootstrap resamples")
}

// checkRunDir says what is wrong with a RUNDIR argument that is not the
// folder of an eval or select run.
func checkRunDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError("report: the run folder %s does not exist (give the --out folder of isolda eval run or isolda select run)", dir)
	case err != nil:
		return badInput(err)
	case !st.IsDir():
		return usageError("report: %s is not a folder (give the --out folder of isolda eval run or isolda select run)", dir)
	}
	if report.IsSelectRun(dir) {
		return nil
	}
	for _, name := range []string{runner.QuestionsFile, runner.AnswersFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			return usageError("report: %s is not a run folder: it has no %s (give the --out folder of isolda eval run or isolda select run)", dir, name)
		}
	}
	return nil
}

// criteriaOutcome prints the criteria tally on stderr and returns the exit
// status: a check failure when a criterion is FAIL or NOT EVALUATED.
func criteriaOutcome(env *Env, results []report.Result) error {
	if results == nil {
		return nil
	}
	n := map[report.Outcome]int{}
	for _, r := range results {
		n[r.Outcome]++
	}
	fmt.Fprintf(env.Stderr, "criteria: %d PASS, %d FAIL, %d NOT EVALUATED\n", n[report.Pass], n[report.Fail], n[report.NotEvaluated])
	if n[report.Fail]+n[report.NotEvaluated] > 0 {
		return checkFailed()
	}
	return nil
}

func readBenchReport(path string) (*bench.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b bench.Report
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &b, nil
}

// runObservations reads the observations of an eval run folder, scored
// again with the named scorer when rescore is set.
func runObservations(dir, rescore string) ([]report.Observation, error) {
	if rescore != "" {
		sc, err := study.Scorings().Lookup(rescore)
		if err != nil {
			return nil, err
		}
		return report.FromRunRescored(dir, sc)
	}
	return report.FromRun(dir)
}

// reportProgress prints the phases of a report on stderr when the run is
// large (its log over 32 MB) or the report has taken over 2 s.
type reportProgress struct {
	env   *Env
	start time.Time
	large bool
	last  time.Time
}

func newReportProgress(env *Env, dir string) *reportProgress {
	p := &reportProgress{env: env, start: time.Now()}
	if st, err := os.Stat(filepath.Join(dir, runner.AnswersFile)); err == nil && st.Size() > 32<<20 {
		p.large = true
	}
	return p
}

func (p *reportProgress) on() bool { return p.large || time.Since(p.start) > 2*time.Second }

// read reports the reading of answers.jsonl, every 2 s at most.
func (p *reportProgress) read(done, total int64) {
	if !p.on() || (done < total && time.Since(p.last) < 2*time.Second) {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.env.Stderr, "report: read %s of %s of %s (%.0f s)\n", mb(done), mb(total), runner.AnswersFile, time.Since(p.start).Seconds())
}

func (p *reportProgress) step(what string) {
	if p.on() {
		fmt.Fprintf(p.env.Stderr, "report: %s (%.0f s)\n", what, time.Since(p.start).Seconds())
	}
}

func (p *reportProgress) done() {
	if p.on() {
		fmt.Fprintf(p.env.Stderr, "report: done in %.1f s\n", time.Since(p.start).Seconds())
	}
}

func mb(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/(1<<20)) }

// logProblems prints on stderr what is wrong with a run's log: the lines
// that are not records and the records outside the run's design.
func logProblems(env *Env, run *report.Run) {
	if run.Skipped > 0 {
		fmt.Fprintf(env.Stderr, "report: %d line(s) of %s skipped: not records (a torn last line is one)\n", run.Skipped, runner.AnswersFile)
		for _, l := range run.SkippedLines {
			fmt.Fprintf(env.Stderr, "  %s\n", l)
		}
		if run.Skipped > len(run.SkippedLines) {
			fmt.Fprintf(env.Stderr, "  … and %d more\n", run.Skipped-len(run.SkippedLines))
		}
	}
	for i, l := range run.OutOfDesign {
		if i == 20 {
			fmt.Fprintf(env.Stderr, "  … and %d more records outside the design\n", len(run.OutOfDesign)-i)
			break
		}
		fmt.Fprintf(env.Stderr, "report: error: %s\n", l)
	}
}
