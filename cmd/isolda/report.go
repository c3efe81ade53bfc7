package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/page"
	"github.com/spf13/cobra"
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
			"report.html (self-contained: inline SVG, no JavaScript; with the run's metadata and every answer, " +
			"filterable by arm, model, family and outcome) and one CSV per table. On the folder of an " +
			"isolda select run it prints the policy comparison instead. " +
			"--rescore SCORER scores every logged answer again with another scorer (no model is called, the run is not " +
			"changed; the per-answer view of --out keeps the logged scores); --with RUN adds the answers of another run " +
			"about graphs this run did not ask (rescored too with --rescore): how the Catalan study reuses an English run.\n\n" +
			"Exit status with --criteria: 0 when every criterion is PASS, 1 when one is FAIL or NOT EVALUATED " +
			"(the run lacks what it needs, such as an arm or model it names: a pre-registered criterion that " +
			"could not be checked is not confirmed).",
		Example: "  isolda report run\n" +
			"  isolda report run --criteria report/examples/paper-4.4-confirmatory.yaml --out run/report\n" +
			"  isolda report sel --out sel/report\n" +
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
			obs, err := runObservations(args[0], rescore)
			if err != nil {
				return badInput(err)
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
			rep, err := report.Build(obs, report.Options{Seed: seed, Resamples: resamples})
			if err != nil {
				return badInput(err)
			}
			man, err := report.ReadManifest(args[0])
			if err != nil {
				return badInput(err)
			}
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
			w := bufio.NewWriter(env.Stdout)
			if err := rep.WriteMarkdown(w); err != nil {
				return err
			}
			if results != nil {
				fmt.Fprintln(w)
				if err := report.WriteCriteriaMarkdown(w, results); err != nil {
					return err
				}
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if out != "" {
				run, err := report.ReadRun(args[0])
				if err != nil {
					return badInput(err)
				}
				if err := page.WriteDir(out, page.Page{Title: "isolda report", Report: rep, Results: results, Run: run}); err != nil {
					return err
				}
				fmt.Fprintf(env.Stderr, "wrote %s\n", out)
			}
			return criteriaOutcome(env, results)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&criteria, "criteria", "", "pre-registered criteria file (YAML or JSON; see report/examples); exit 1 unless every criterion passes")
	fl.StringVar(&benchFile, "bench", "", "the JSON file of isolda bench --json, for round-trip criteria")
	fl.StringVar(&out, "out", "", "folder for report.md, report.json, report.html and CSV tables")
	fl.StringVar(&rescore, "rescore", "", "score every logged answer again with this scorer (e.g. kgllm_adapted) instead of the logged scores")
	fl.StringArrayVar(&with, "with", nil, "RUNDIR: add the answers of another eval run about graphs this run has none of (repeatable)")
	fl.Uint64Var(&seed, "seed", 1101, "seed of the bootstrap resampling")
	fl.IntVar(&resamples, "resamples", 10000, "bootstrap resamples")
	return cmd
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
		return report.FromRunRescored(dir, rescore)
	}
	return report.FromRun(dir)
}
