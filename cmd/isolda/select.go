package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/isolda/isolda/adaptive"
	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/page"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
)

// newSelectCmd is `isolda select` with its subcommands calibrate, run and
// compare: query-adaptive format selection (package adaptive).
func newSelectCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "select",
		Short: "Query-adaptive format selection: calibrate priors, run the selector and its baselines, compare",
		Long: "The serialization study's adaptive format selection on GraphQA-Hardened. " +
			"`isolda select calibrate --out DIR` answers every question of the calibration split (seed " +
			fmt.Sprint(adaptive.CalibrationSeed) + ", 105 questions) in every candidate format and writes the " +
			"per-task × per-format priors to DIR/priors.json (or takes them from an eval run with --from-eval). " +
			"`isolda select run --priors DIR/priors.json --out RUN` runs, on the disjoint test split (seed " +
			fmt.Sprint(adaptive.TestSeed) + ", 105 questions), the selector (5 parallel scoring calls over a " +
			"slate of 2 compact anchors, 1 semantic anchor and 2 task guests, band b, then one answer call), " +
			"global fixed-best, the task-wise router, MV-5 majority voting and the post-hoc oracle, logging " +
			"every call to RUN/" + adaptive.LogFile + " and the outcomes to RUN/" + adaptive.ResultFile + "; " +
			"running it again reuses the answered calls. `isolda select compare RUN` (or `isolda report RUN`) " +
			"prints the policy comparison with paired BCa intervals and mid-p McNemar against fixed-best.\n\n" +
			"isolda select --dry-run is isolda select calibrate --dry-run: the calls and input tokens of a " +
			"calibration, calling nothing.",
		Example: "  isolda select --dry-run\n" +
			"  isolda select calibrate --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --tokenizer qwen3 --out cal\n" +
			"  isolda select run --priors cal --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --out sel\n" +
			"  isolda select compare sel",
	}
	cal := newSelectCalibrateCmd(env)
	dryRunOrHelp(cmd, "print the calls and input tokens of a calibration with the default flags, call nothing (isolda select calibrate --dry-run)", func() error {
		if err := cal.Flags().Set("dry-run", "true"); err != nil {
			return err
		}
		return cal.RunE(cal, nil)
	})
	cmd.AddCommand(cal, newSelectRunCmd(env), newSelectCompareCmd(env))
	return cmd
}

// selectModelFlags are the model and request flags of calibrate and run.
type selectModelFlags struct {
	baseURL, model, apiKeyEnv, tokenizer string
	priceIn, priceOut, temperature       float64
	maxTokens, concurrency, retries      int
	timeout                              time.Duration
	stream                               bool
}

func (f *selectModelFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.baseURL, "base-url", "", "API root of an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
	fl.StringVar(&f.model, "model", "", "model name sent to the endpoint")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the API key (none: no key)")
	fl.StringVar(&f.tokenizer, "tokenizer", "", "tokenizer for local token counts in the log (token registry name; --dry-run: o200k_base when empty)")
	fl.Float64Var(&f.priceIn, "price-in", 0, "price per million input tokens")
	fl.Float64Var(&f.priceOut, "price-out", 0, "price per million output tokens")
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature (always sent)")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "max_tokens of every call (0: not sent)")
	fl.IntVar(&f.concurrency, "concurrency", 5, "calls in flight at most (the selector's 5 calls are parallel when ≥ 5)")
	fl.IntVar(&f.retries, "retries", 3, "retries of a failed call within one run")
	fl.DurationVar(&f.timeout, "timeout", 0, "bound on each attempt (0: none)")
	fl.BoolVar(&f.stream, "stream", false, "ask for server-sent events")
}

// selectTokenizer returns the named tokenizer, or for a dry run o200k_base when
// none is named; nil when none is named otherwise.
func selectTokenizer(name string, dry bool) (token.Tokenizer, string, error) {
	if name == "" {
		if !dry {
			return nil, "", nil
		}
		name = "o200k_base"
	}
	tok, err := token.NewRegistry(token.Options{}).Get(name)
	return tok, name, err
}

// modelOf builds the model of the flags.
func (f *selectModelFlags) modelOf() (*adaptive.Model, error) {
	if f.baseURL == "" || f.model == "" {
		return nil, errors.New("--base-url and --model are required (or --dry-run)")
	}
	if f.concurrency < 1 || f.retries < 0 || f.maxTokens < 0 || f.priceIn < 0 || f.priceOut < 0 {
		return nil, errors.New("--concurrency must be positive; --retries, --max-tokens and prices must not be negative")
	}
	key := ""
	if f.apiKeyEnv != "" {
		if key = os.Getenv(f.apiKeyEnv); key == "" {
			return nil, fmt.Errorf("environment variable %s is empty", f.apiKeyEnv)
		}
	}
	tok, _, err := selectTokenizer(f.tokenizer, false)
	if err != nil {
		return nil, err
	}
	c := &llm.Client{BaseURL: f.baseURL, Model: f.model, APIKey: key, MaxConcurrency: f.concurrency,
		Retries: f.retries, Timeout: f.timeout, Stream: f.stream}
	return &adaptive.Model{Client: c, Params: adaptive.Params{Temperature: f.temperature, MaxTokens: f.maxTokens},
		PriceIn: f.priceIn, PriceOut: f.priceOut, Tokenizer: tok}, nil
}

// call makes the calls of calibrate or run into the folder out with the
// model of the flags, until they end or SIGINT or SIGTERM stops them; it
// reports on stderr the replies that did not parse, and turns a failure
// into the command's error.
func (f *selectModelFlags) call(cmd *cobra.Command, env *Env, out string, calls func(context.Context, *adaptive.Config) error) error {
	if out == "" {
		return noOut()
	}
	m, err := f.modelOf()
	if err != nil {
		return badInput(err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = calls(ctx, &adaptive.Config{Model: m, Dir: out})
	reportReplyProblems(env, out)
	if err != nil {
		if ctx.Err() != nil {
			err = errors.Join(errSelectInterrupted, err)
		}
		return selectCallFailure(env, err)
	}
	return nil
}

// checkGraphs checks the --graphs flag of calibrate and run.
func checkGraphs(graphs int) error {
	if graphs < 1 || graphs > 1000 {
		return badInput(fmt.Errorf("--graphs %d outside 1..1000", graphs))
	}
	return nil
}

// selectWriteFile writes data to path through a temporary file.
func selectWriteFile(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, 0o644, write)
}

// selectCallFailure turns a run error into the command's error.
func selectCallFailure(env *Env, err error) error {
	var fe *adaptive.FailedCallsError
	if errors.As(err, &fe) {
		fmt.Fprintf(env.Stdout, "%d of %d calls failed (first: %s); run the same command again to retry them\n", fe.Failed, fe.Total, fe.First)
		return checkFailed()
	}
	if errors.Is(err, errSelectInterrupted) {
		fmt.Fprintln(env.Stdout, "stopped; run the same command again to resume")
		return checkFailed()
	}
	return badInput(err)
}

// reportReplyProblems counts, in the call log of dir, the replies the
// model gave but that did not parse: selector replies that broke the
// four-step chain, and answers without a FINAL: line; it prints the count
// and the first of each on stderr (a model that ignores the prompt format
// makes every policy look wrong, silently otherwise).
func reportReplyProblems(env *Env, dir string) {
	f, err := os.Open(filepath.Join(dir, adaptive.LogFile))
	if err != nil {
		return
	}
	defer f.Close()
	last := map[string]*adaptive.CallRecord{}
	var keys []string
	_ = adaptive.ReadLog(f, func(r *adaptive.CallRecord) error {
		if r.Status != adaptive.StatusOK {
			return nil
		}
		if last[r.Key] == nil {
			keys = append(keys, r.Key)
		}
		last[r.Key] = r
		return nil
	})
	type tally struct {
		bad, total int
		first      string
	}
	var sel, ans tally
	for _, k := range keys {
		r := last[k]
		t, why := &ans, ""
		if r.Kind == adaptive.KindSelector {
			t, why = &sel, r.ParseError
		} else if r.Rule == graphqa.RuleFinalMissing {
			why = "no FINAL: line"
		}
		t.total++
		if why == "" {
			continue
		}
		if t.bad++; t.first == "" {
			t.first = fmt.Sprintf("question %s, format %s: %s; reply %q", r.QuestionID, r.Format, why, clip(r.Response, 120))
		}
	}
	if sel.bad > 0 {
		fmt.Fprintf(env.Stderr, "isolda: %d of %d selector replies did not parse (the selector then falls back to the highest prior); first: %s\n",
			sel.bad, sel.total, sel.first)
	}
	if ans.bad > 0 {
		fmt.Fprintf(env.Stderr, "isolda: %d of %d answers have no FINAL: line (scored wrong); first: %s\n", ans.bad, ans.total, ans.first)
	}
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// errSelectInterrupted marks a run stopped by a signal.
var errSelectInterrupted = errors.New("interrupted")

func selectWriteRanking(w io.Writer, cal *adaptive.Calibration) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tFORMAT\tCLASS\tCORRECT\tN\tACCURACY\tMEAN_INPUT_TOKENS")
	for i, r := range cal.Ranking {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%.4f\t%.1f\n", i+1, r.Format, r.Class, r.Correct, r.N, r.Accuracy, r.MeanInputTokens)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "TASK\tROUTER\tTASK_RANKING")
	for _, t := range cal.Tasks {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", t, cal.Router(t), strings.Join(cal.TaskRanking(t), " "))
	}
	return tw.Flush()
}

func newSelectCalibrateCmd(env *Env) *cobra.Command {
	var mf selectModelFlags
	var out, fromEval, evalModel string
	var formatList []string
	var graphs int
	var seed int64
	var dry bool
	cmd := &cobra.Command{
		Use:   "calibrate --out DIR",
		Short: "Answer the calibration split in every candidate format and write the priors (DIR/priors.json)",
		Long: "Answers every question of the calibration split of GraphQA-Hardened in every candidate format " +
			"(or, with --from-eval, takes the answers of an isolda eval run), writes the per-task × per-format " +
			"priors to DIR/priors.json and prints the cross-task ranking. A calibration in which no format " +
			"answered any question right writes nothing and exits 1: its ranking would be arbitrary.",
		Example: "  isolda select calibrate --dry-run\n" +
			"  isolda select calibrate --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --tokenizer qwen3 --out cal\n" +
			"  isolda select calibrate --from-eval run --eval-model qwen3-8b --out cal",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if fromEval != "" {
				if out == "" {
					return noOut()
				}
				cal, err := adaptive.FromEvalRun(fromEval, evalModel)
				if err != nil {
					return badInput(err)
				}
				return selectWritePriors(env, out, cal, "")
			}
			if err := checkGraphs(graphs); err != nil {
				return err
			}
			formatList = canonicalNames(formatList)
			for _, f := range formatList {
				if _, err := adaptive.Render(f, nil); err != nil {
					return badInput(fmt.Errorf("format %s: %w", f, err))
				}
			}
			split, err := adaptive.HardenedSplit("calibration", seed, graphs, nil)
			if err != nil {
				return badInput(err)
			}
			if dry {
				tok, name, err := selectTokenizer(mf.tokenizer, true)
				if err != nil {
					return badInput(err)
				}
				st, err := adaptive.DryRunCalibration(split, formatList, tok)
				if err != nil {
					return badInput(err)
				}
				fmt.Fprintf(env.Stdout, "calibration split: seed %d, %d questions, %d tasks; %d formats\n",
					seed, len(split.Items), len(split.Tasks()), len(formatList))
				fmt.Fprintf(env.Stdout, "answer calls: %d, input tokens (%s, message contents): %d\n", st.AnswerCalls, name, st.AnswerInputTokens)
				return nil
			}
			var cal *adaptive.Calibration
			err = mf.call(cmd, env, out, func(ctx context.Context, cfg *adaptive.Config) (err error) {
				cal, err = adaptive.Calibrate(ctx, cfg, split, formatList)
				return err
			})
			if err != nil {
				return err
			}
			return selectWritePriors(env, out, cal, filepath.Join(out, adaptive.LogFile))
		},
	}
	mf.add(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "calibration folder (call log and priors.json; an existing log there is reused)")
	fl.StringVar(&fromEval, "from-eval", "", "take the priors from the folder of an isolda eval run instead of calling a model")
	fl.StringVar(&evalModel, "eval-model", "", "with --from-eval: the model whose answers to use (needed when the run has several)")
	fl.StringSliceVar(&formatList, "formats", adaptive.StudyFormats(), "candidate formats (registry names of labelled-graph formats)")
	fl.IntVar(&graphs, "graphs", adaptive.DefaultGraphs, "graphs of the split (7 Hardened questions each)")
	fl.Int64Var(&seed, "seed", adaptive.CalibrationSeed, "seed of the calibration split")
	fl.BoolVar(&dry, "dry-run", false, "build the split and every prompt, print the calls and input tokens, call nothing")
	return cmd
}

// selectWritePriors writes DIR/priors.json and prints the ranking, unless
// no format answered any question right (then the ranking would be the
// arbitrary order of ties: it says so and fails, naming the log to look at).
func selectWritePriors(env *Env, out string, cal *adaptive.Calibration, log string) error {
	right, n := 0, 0
	for _, r := range cal.Ranking {
		right += r.Correct
		n += r.N
	}
	if right == 0 {
		where := "the answers of the eval run"
		if log != "" {
			where = log
		}
		fmt.Fprintf(env.Stdout, "no format answered any of its %d calibration answers right: no ranking and no priors written "+
			"(check the model's replies in %s)\n", n, where)
		return checkFailed()
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return badInput(err)
	}
	path := filepath.Join(out, adaptive.PriorsFile)
	if err := selectWriteFile(path, cal.WriteJSON); err != nil {
		return err
	}
	if err := selectWriteRanking(env.Stdout, cal); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", path)
	return nil
}

// selectReadPriors reads a priors file, or DIR/priors.json of a folder.
func selectReadPriors(path string) (*adaptive.Calibration, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, adaptive.PriorsFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cal, err := adaptive.ReadCalibration(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cal, nil
}

func newSelectRunCmd(env *Env) *cobra.Command {
	var mf selectModelFlags
	var out, priors, fixed string
	var graphs, band, anchors, semantic, size int
	var seed, calSeed int64
	var dry, fixedOnTest bool
	cmd := &cobra.Command{
		Use:   "run --priors FILE --out DIR",
		Short: "Run the selector, fixed-best, the router, MV-5 and the oracle on the test split",
		Long: "Runs, on the test split (disjoint from the calibration split), the selector and the baselines, " +
			"logging every call to DIR/" + adaptive.LogFile + " and the outcomes to DIR/" + adaptive.ResultFile +
			", and prints the policy comparison. Selector replies that do not follow the four-step chain and " +
			"answers without a FINAL: line are counted on standard error, with the first of each.",
		Example: "  isolda select run --priors cal --dry-run\n" +
			"  isolda select run --priors cal/priors.json --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --out sel",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if priors == "" {
				return badInput(errors.New("--priors FILE (from `isolda select calibrate`) is required"))
			}
			cal, err := selectReadPriors(priors)
			if err != nil {
				return badInput(err)
			}
			if err := checkGraphs(graphs); err != nil {
				return err
			}
			if band < 0 || band > adaptive.MaxScore {
				return badInput(fmt.Errorf("--band %d outside 0..%d", band, adaptive.MaxScore))
			}
			split, err := adaptive.HardenedSplit("test", seed, graphs, nil)
			if err != nil {
				return badInput(err)
			}
			calSplit, err := adaptive.HardenedSplit("calibration", calSeed, graphs, nil)
			if err != nil {
				return badInput(err)
			}
			if err := adaptive.CheckDisjoint(calSplit, split); err != nil {
				return badInput(err)
			}
			opt := adaptive.RunOptions{Band: band, FixedBest: fixed, FixedBestOnTest: fixedOnTest,
				Slate: adaptive.SlateOptions{Anchors: anchors, Semantic: semantic, Size: size}}
			if dry {
				tok, name, err := selectTokenizer(mf.tokenizer, true)
				if err != nil {
					return badInput(err)
				}
				st, err := adaptive.DryRun(cal, split, opt, tok)
				if err != nil {
					return badInput(err)
				}
				return selectWriteDryRun(env.Stdout, seed, len(split.Tasks()), name, st)
			}
			var res *adaptive.Result
			err = mf.call(cmd, env, out, func(ctx context.Context, cfg *adaptive.Config) (err error) {
				res, err = adaptive.Run(ctx, cfg, cal, split, opt)
				return err
			})
			if err != nil {
				return err
			}
			if err := selectWriteFile(filepath.Join(out, adaptive.PriorsFile), cal.WriteJSON); err != nil {
				return err
			}
			if err := selectWriteFile(filepath.Join(out, adaptive.ResultFile), res.WriteJSON); err != nil {
				return err
			}
			pr, err := report.BuildPolicyReport(res, report.Options{Seed: bootstrapSeed, Resamples: bootstrapResamples})
			if err != nil {
				return err
			}
			return toStdout(env, func(w io.Writer) error {
				if err := pr.WriteText(w); err != nil {
					return err
				}
				fmt.Fprintf(w, "wrote %s\n", filepath.Join(out, adaptive.ResultFile))
				return nil
			})
		},
	}
	mf.add(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "run folder (call log, priors.json, "+adaptive.ResultFile+"; an existing log there is reused)")
	fl.StringVar(&priors, "priors", "", "priors file (or calibration folder) written by isolda select calibrate")
	fl.StringVar(&fixed, "fixed-best", "", "global fixed-best format (default: first of the calibration's cross-task ranking)")
	fl.BoolVar(&fixedOnTest, "fixed-best-on-test", false, "answer the test split in every calibrated format and take the best there as fixed-best (the study's post-hoc baseline)")
	fl.IntVar(&graphs, "graphs", adaptive.DefaultGraphs, "graphs of the test split (7 Hardened questions each)")
	fl.Int64Var(&seed, "seed", adaptive.TestSeed, "seed of the test split")
	fl.Int64Var(&calSeed, "calibration-seed", adaptive.CalibrationSeed, "seed of the calibration split (checked to share no graph with the test split)")
	fl.IntVar(&band, "band", 5, "diversification band b: candidates within b points of the top score share the choice round-robin")
	fl.IntVar(&anchors, "anchors", 0, "compact anchors on the slate (0: 2; -1: none)")
	fl.IntVar(&semantic, "semantic", 0, "semantic anchors on the slate (0: 1; -1: none)")
	fl.IntVar(&size, "slate", 0, "slate size (0: 5)")
	fl.BoolVar(&dry, "dry-run", false, "build the split, slates and prompts, print the calls and input tokens, call nothing")
	return cmd
}

func selectWriteDryRun(w io.Writer, seed int64, tasks int, tokName string, st adaptive.DryRunStats) error {
	fmt.Fprintf(w, "test split: seed %d, %d questions, %d tasks\n", seed, st.Questions, tasks)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tROUTER\tSLATE")
	for _, s := range st.Slates {
		var parts []string
		for _, c := range s.Slate {
			parts = append(parts, fmt.Sprintf("%s(%s %.0f%%)", c.Format, c.Role, 100*c.Prior))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Task, s.Router, strings.Join(parts, " "))
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "CALLS\tCOUNT\tINPUT_TOKENS (%s)\n", tokName)
	fmt.Fprintf(tw, "selector\t%d\t%d\n", st.SelectorCalls, st.SelectorInputTokens)
	fmt.Fprintf(tw, "answer\t%d\t%d\n", st.AnswerCalls, st.AnswerInputTokens)
	fmt.Fprintf(tw, "total\t%d\t%d\n", st.SelectorCalls+st.AnswerCalls, st.SelectorInputTokens+st.AnswerInputTokens)
	return tw.Flush()
}

func newSelectCompareCmd(env *Env) *cobra.Command {
	var seed uint64
	var resamples int
	var format string
	cmd := &cobra.Command{
		Use:   "compare RUNDIR",
		Short: "Print the policy comparison of a select run (text, markdown, html or json)",
		Example: "  isolda select compare sel\n" +
			"  isolda select compare sel -t html > sel.html",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr, err := selectPolicyReport(args[0], seed, resamples)
			if err != nil {
				return err
			}
			var write func(io.Writer) error
			switch format {
			case "text":
				write = pr.WriteText
			case "markdown":
				write = pr.WriteMarkdown
			case "html":
				write = func(w io.Writer) error { return page.WritePolicy(w, pr, "isolda select: "+args[0]) }
			case "json":
				write = pr.WriteJSON
			default:
				return usageError("--to %q: want text, markdown, html or json", format)
			}
			return toStdout(env, write)
		},
	}
	bootstrapFlags(cmd.Flags(), &seed, &resamples)
	cmd.Flags().StringVarP(&format, "to", "t", "text", "output format: text, markdown, html or json")
	cmd.Flags().StringVar(&format, "format", "text", "output format")
	if err := cmd.Flags().MarkDeprecated("format", "use --to (-t), the output format flag of every command"); err != nil {
		panic(err) // the flag is registered just above
	}
	return cmd
}

// selectPolicyReport reads the select run folder dir and builds its
// policy comparison; either failure is bad input.
func selectPolicyReport(dir string, seed uint64, resamples int) (*report.PolicyReport, error) {
	res, err := report.FromSelectRun(dir)
	if err != nil {
		return nil, badInput(err)
	}
	pr, err := report.BuildPolicyReport(res, report.Options{Seed: seed, Resamples: resamples})
	if err != nil {
		return nil, badInput(err)
	}
	return pr, nil
}

// selectReport is `isolda report RUNDIR` on a select run folder: the policy
// comparison as Markdown, and with out the files policies.md,
// policies.json, policies.html and one CSV per table.
func selectReport(env *Env, dir string, seed uint64, resamples int, out string) error {
	pr, err := selectPolicyReport(dir, seed, resamples)
	if err != nil {
		return err
	}
	if err := toStdout(env, pr.WriteMarkdown); err != nil {
		return err
	}
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return badInput(err)
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"policies.md", pr.WriteMarkdown},
		{"policies.json", pr.WriteJSON},
		{"policies.html", func(w io.Writer) error { return page.WritePolicy(w, pr, "isolda select: "+dir) }},
	}
	for _, t := range pr.Tables() {
		files = append(files, struct {
			name  string
			write func(io.Writer) error
		}{t.Name + ".csv", t.WriteCSV})
	}
	for _, f := range files {
		if err := selectWriteFile(filepath.Join(out, f.name), f.write); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", out)
	return nil
}
