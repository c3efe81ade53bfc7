package main

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/study"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// newEvalCmd is `isolda eval` with its subcommands init, validate and run.
func newEvalCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Run formats × models × questions against OpenAI-compatible endpoints, reproducibly",
		Long: "Evaluation experiments described by a YAML file: `isolda eval init` writes a commented example, " +
			"`isolda eval validate FILE` checks one, `isolda eval run FILE --out DIR` freezes every context and " +
			"question (SHA-1 hashes in DIR/manifest.json) and appends one JSON line per call to DIR/answers.jsonl; " +
			"running it again resumes where it stopped.\n\n" +
			"isolda eval --dry-run renders the embedded example experiment (the file isolda eval init writes) " +
			"and prints what it would send, calling nothing.",
		Example: "  isolda eval --dry-run\n" +
			"  isolda eval init exp.yaml\n" +
			"  isolda eval validate --prepare exp.yaml\n" +
			"  isolda eval run exp.yaml --out run",
	}
	dryRunOrHelp(cmd, "render and hash the embedded example experiment (the file isolda eval init writes), print its calls and input tokens per model, call nothing", func() error {
		p, cleanup, err := prepareExperiment(nil)
		if err != nil {
			return err
		}
		defer cleanup()
		return printDryRun(env, nil, p, nil)
	})
	cmd.AddCommand(newEvalInitCmd(env), newEvalValidateCmd(env), newEvalRunCmd(env))
	return cmd
}

// prepareExperimentWith is prepareExperiment with the models changed by
// ov, and the tokenizers checked first, saying on ph what it is doing.
func prepareExperimentWith(ph *phases, args []string, ov endpointOverride) (*eval.Plan, func(), error) {
	return prepareExperimentOpts(args, ph, func(e *eval.Experiment) error {
		if err := ov.apply(e); err != nil {
			return err
		}
		ph.Set("loading the tokenizers")
		if err := checkTokenizers(e, ov.registry()); err != nil {
			return badInput(err)
		}
		return nil
	}, ov.registry())
}

// prepareExperiment loads and prepares the experiment file args[0] or, with
// no argument, the embedded example (`isolda eval init`) with the demo graph
// beside it in a temporary folder that cleanup removes.
func prepareExperiment(args []string) (p *eval.Plan, cleanup func(), err error) {
	return prepareExperimentOpts(args, nil, nil, nil)
}

// prepareExperimentOpts is prepareExperiment that calls edit (when not
// nil) on the experiment before preparing it with reg's tokenizers.
func prepareExperimentOpts(args []string, ph *phases, edit func(*eval.Experiment) error, reg *token.Registry) (p *eval.Plan, cleanup func(), err error) {
	cleanup = func() {}
	var e *eval.Experiment
	var dir string
	if len(args) == 1 {
		if e, err = eval.LoadExperiment(args[0]); err != nil {
			return nil, cleanup, badInput(err)
		}
		dir = filepath.Dir(args[0])
	} else {
		if e, err = eval.ParseExperiment([]byte(eval.ExampleYAML), "(embedded example)"); err != nil {
			return nil, cleanup, err
		}
		if dir, err = os.MkdirTemp("", "isolda-eval-"); err != nil {
			return nil, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		if err := writeDemo(dir); err != nil {
			cleanup()
			return nil, func() {}, err
		}
	}
	if edit != nil {
		if err := edit(e); err != nil {
			cleanup()
			return nil, func() {}, err
		}
	}
	opts := eval.PrepareOptions{Tokenizers: reg, Scorers: study.Scorings()}
	if ph != nil {
		opts.Progress, opts.Phase = ph.Count, ph.Set
	}
	if p, err = eval.PrepareWith(e, dir, opts); err != nil {
		cleanup()
		return nil, func() {}, badInput(err)
	}
	return p, cleanup, nil
}

// writeDemo writes the embedded demo graph into dir, where the embedded
// example experiment (eval.ExampleYAML) reads it.
func writeDemo(dir string) error {
	b, err := examples.Read(examples.Default)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, examples.Default), b, 0o644)
}

func newEvalInitCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented example experiment (to FILE, with demo.ttl beside it, or to standard output)",
		Example: "  isolda eval init exp.yaml\n" +
			"  isolda eval init | less",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				_, err := fmt.Fprint(env.Stdout, eval.ExampleYAML)
				return err
			}
			path := args[0]
			if _, err := os.Stat(path); err == nil {
				return badInput(fmt.Errorf("%s exists; not overwriting it", path))
			}
			if err := os.WriteFile(path, []byte(eval.ExampleYAML), 0o644); err != nil {
				return badInput(err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), examples.Default)); errors.Is(err, os.ErrNotExist) {
				if err := writeDemo(filepath.Dir(path)); err != nil {
					return badInput(err)
				}
			}
			fmt.Fprintf(env.Stdout, "wrote %s\n", path)
			return nil
		},
	}
}

func newEvalValidateCmd(env *Env) *cobra.Command {
	var prepare bool
	var ov endpointOverride
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check an experiment file (errors as FILE:LINE:COL: message)",
		Long: "Checks an experiment file: its fields, names, formats, options and scorers, and that the graph " +
			"and question-set files it names exist, and loads every tokenizer it names (a tokenizer isolda does not ship is an error " +
			"that says where to put it). --prepare also reads them and renders every context.",
		Example: "  isolda eval validate exp.yaml\n" +
			"  isolda eval validate --prepare exp.yaml",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := eval.LoadExperiment(args[0])
			if err != nil {
				return badInput(err)
			}
			if err := e.CheckScorers(study.Scorings()); err != nil {
				return badInput(err)
			}
			ph := startPhases(env.Stderr, "eval")
			defer ph.Stop()
			ph.Set("loading the tokenizers")
			if err := checkTokenizers(e, ov.registry()); err != nil {
				return badInput(fmt.Errorf("%s: %w", args[0], err))
			}
			if prepare {
				p, err := eval.PrepareWith(e, filepath.Dir(args[0]), eval.PrepareOptions{Tokenizers: ov.registry(), Scorers: study.Scorings(),
					Progress: ph.Count, Phase: ph.Set})
				ph.Stop()
				if err != nil {
					return badInput(err)
				}
				fmt.Fprintf(env.Stdout, "%s: ok: %d contexts, %d questions, %d calls\n", args[0],
					len(p.Contexts), len(p.Entries), p.Manifest.Calls)
				return nil
			}
			ph.Stop()
			fmt.Fprintf(env.Stdout, "%s: ok\n", args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&prepare, "prepare", false, "also read the graphs and question sets and render every context")
	modelsDirFlag(cmd.Flags(), &ov.modelsDir)
	return cmd
}

func newEvalRunCmd(env *Env) *cobra.Command {
	var out string
	var dry bool
	var interval time.Duration
	var ov endpointOverride
	var maxCost float64
	var limit int
	cmd := &cobra.Command{
		Use:   "run [FILE] --out DIR",
		Short: "Run (or resume) an experiment (the embedded example without FILE), or with --dry-run count its calls and input tokens",
		Long: "Freezes every context and question into the run folder (SHA-1 hashes in DIR/manifest.json), then " +
			"calls each model's endpoint and appends one JSON line per call to DIR/answers.jsonl, and prints " +
			"accuracy per arm and model. Running it again resumes: answered calls are skipped, failed ones " +
			"retried, and changed inputs refused. A model whose endpoint gives no response to " +
			fmt.Sprint(runner.ConnectionFailuresToStop) + " calls in a row is stopped early with a message. " +
			"Exit status 1 when calls failed or were left, 0 when every call is answered.\n\n" +
			"Before a run whose models have prices (price_in, price_out per million tokens), the cost is estimated (input from the " +
			"local token count, output from max_tokens as an upper bound); above --max-cost it asks on a terminal and refuses " +
			"elsewhere. --base-url, --model and --api-key-env point the experiment's models at another endpoint without editing " +
			"it (the run id changes with the model sent).",
		Example: "  isolda eval run exp.yaml --out run --dry-run\n" +
			"  isolda eval run exp.yaml --out run --limit 20\n" +
			"  isolda eval run exp.yaml --out run\n" +
			"  isolda eval run exp.yaml --out run-vllm --base-url http://localhost:8000/v1 --model Qwen/Qwen3-4B",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if limit < 0 {
				return usageError("--limit %d: give a number of calls above 0", limit)
			}
			if !dry && out == "" {
				return noOut()
			}
			ph := startPhases(env.Stderr, "eval")
			defer ph.Stop()
			fp := ""
			if !dry && len(args) == 1 {
				// A finished run with the same inputs has nothing to do:
				// say so without preparing every prompt again.
				ph.Set("checking " + out + " for a finished run")
				var finished bool
				if fp, finished, err = resumeFinished(env, args[0], &ov, out); finished || err != nil {
					return err
				}
			}
			p, cleanup, err := prepareExperimentWith(ph, args, ov)
			if err != nil {
				return err
			}
			defer cleanup()
			e := p.Experiment
			if dry {
				return printDryRun(env, ph, p, ov.registry())
			}
			if err := confirmCost(env, ph, p, ov.registry(), maxCost, limit); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A terminal gets one line per model redrawn in place every
			// second; logs and CI get plain lines every --progress.
			progress := runner.PlainProgress(env.Stderr)
			if f, ok := env.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				progress = runner.TerminalProgress(env.Stderr)
				if !cmd.Flags().Changed("progress") {
					interval = time.Second
				}
			}
			res, err := runner.Run(ctx, p, runner.RunOptions{Out: out, OnProgress: progress, ProgressInterval: interval, Limit: limit,
				Tokenizers: ov.registry(), Fingerprint: fp, Phase: func(what string) {
					if what == "" {
						ph.Stop() // the calls' own progress takes over
					} else {
						ph.Set(what)
					}
				}})
			ph.Stop()
			if err != nil && !res.Canceled {
				return badInput(err)
			}
			for _, msg := range res.Stopped {
				fmt.Fprintln(env.Stderr, "isolda:", msg)
			}
			fmt.Fprintf(env.Stdout, "run %s: %d calls answered now, %d failed, %d already answered\n",
				p.Manifest.RunID, res.Done, res.Failed, res.Skipped)
			if res.Canceled {
				fmt.Fprintf(env.Stdout, "stopped; run the same command again to resume\n")
				return &exitError{code: exitCheckFail}
			}
			f, err := os.Open(filepath.Join(out, runner.AnswersFile))
			if err != nil {
				return err
			}
			defer f.Close()
			cells, err := runner.Summarize(f, e)
			if err != nil {
				return err
			}
			if err := runner.WriteSummary(env.Stdout, cells); err != nil {
				return err
			}
			if left := p.Manifest.Calls - res.Done - res.Skipped - res.Failed; res.Failed > 0 || left > 0 {
				fmt.Fprintf(env.Stdout, "%d calls failed and %d were not made; run the same command again to retry them\n", res.Failed, left)
				return &exitError{code: exitCheckFail}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "run folder (created; an existing run there is resumed if its inputs match)")
	cmd.Flags().BoolVar(&dry, "dry-run", false, "render and hash everything, print calls and input tokens per model, call nothing")
	cmd.Flags().DurationVar(&interval, "progress", 10*time.Second, "interval of the progress lines on standard error (on a terminal: 1s, redrawn in place)")
	cmd.Flags().Float64Var(&maxCost, "max-cost", 5, "estimated cost (in the unit of the models' price_in/price_out, per million tokens) above which a run asks for confirmation on a terminal and refuses elsewhere")
	cmd.Flags().IntVar(&limit, "limit", 0, "make only the first N calls not yet answered, in the run's order (question by question), for a smoke test; running again without it makes the rest")
	ov.flags(cmd)
	return cmd
}

// endpointOverride points an experiment's models at another endpoint
// without editing the file (--base-url, --model, --api-key-env), and names
// the tokenizers' folder (--models-dir).
type endpointOverride struct {
	baseURL, model, apiKeyEnv, modelsDir string
	// reg is the registry every step of the command shares, so that each
	// tokenizer is loaded once (a tokenizer.json takes seconds).
	reg *token.Registry
}

func (o *endpointOverride) flags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.baseURL, "base-url", "", "call every model of the experiment at this API root instead (e.g. http://localhost:8000/v1)")
	f.StringVar(&o.model, "model", "", "the model name to send instead (with several models: NAME=ID, comma-separated)")
	f.StringVar(&o.apiKeyEnv, "api-key-env", "", "the environment variable holding the API key instead (\"\" in the file: no key)")
	modelsDirFlag(f, &o.modelsDir)
}

// registry is the token registry of the command: with --models-dir or
// not, one for the whole command.
func (o *endpointOverride) registry() *token.Registry {
	if o.reg == nil {
		o.reg = token.NewRegistry(token.Options{ModelsDir: o.modelsDir})
	}
	return o.reg
}

// apply changes the experiment's models as the flags say.
func (o *endpointOverride) apply(e *eval.Experiment) error {
	ids := map[string]string{}
	if o.model != "" {
		if !strings.Contains(o.model, "=") {
			if len(e.Models) != 1 {
				return usageError("--model %s: the experiment has %d models; give NAME=ID for each to change", o.model, len(e.Models))
			}
			ids[e.Models[0].ModelName()] = o.model
		} else {
			for _, kv := range strings.Split(o.model, ",") {
				name, id, ok := strings.Cut(kv, "=")
				if !ok || name == "" || id == "" {
					return usageError("--model %q: give ID, or NAME=ID for each model", kv)
				}
				ids[name] = id
			}
		}
	}
	for i := range e.Models {
		m := &e.Models[i]
		name := m.ModelName()
		if id, ok := ids[name]; ok {
			if m.Name == "" {
				m.Name = name // the model keeps its name in the run
			}
			m.Model = id
			delete(ids, name)
		}
		if o.baseURL != "" {
			m.BaseURL = o.baseURL
		}
		if o.apiKeyEnv != "" {
			m.APIKeyEnv = o.apiKeyEnv
		}
	}
	for name := range ids {
		return usageError("--model: the experiment has no model %q", name)
	}
	return nil
}

// resumeFinished computes the fingerprint of the inputs of the experiment
// file (runner.Fingerprint, with the models as ov changes them) and, when
// the run folder out holds a finished run made from the same inputs
// (runner.Finished), prints what a resume prints (nothing called, the
// accuracy per arm and model) without preparing the plan, and reports
// finished. On any doubt it returns finished false and the caller
// prepares the plan as usual.
func resumeFinished(env *Env, file string, ov *endpointOverride, out string) (fp string, finished bool, err error) {
	e, err := eval.LoadExperiment(file)
	if err != nil || ov.apply(e) != nil {
		return "", false, nil // the usual path says what is wrong
	}
	fp = runner.Fingerprint(e, filepath.Dir(file))
	m, ok := runner.Finished(out, fp)
	if !ok {
		return fp, false, nil
	}
	f, err := os.Open(filepath.Join(out, runner.AnswersFile))
	if err != nil {
		return fp, false, nil
	}
	defer f.Close()
	cells, err := runner.Summarize(f, e)
	if err != nil {
		return fp, false, nil
	}
	fmt.Fprintf(env.Stderr, "eval: every call of run %s in %s is answered and its inputs are unchanged: nothing to call\n", m.RunID, out)
	fmt.Fprintf(env.Stdout, "run %s: %d calls answered now, %d failed, %d already answered\n", m.RunID, 0, 0, m.Calls)
	return fp, true, runner.WriteSummary(env.Stdout, cells)
}

// checkTokenizers loads every tokenizer the experiment names, so that a
// missing one is an error before anything is rendered, with the fix.
func checkTokenizers(e *eval.Experiment, reg *token.Registry) error {
	if reg == nil {
		reg = token.NewRegistry(token.Options{})
	}
	// Load them all at once (a tokenizer.json takes seconds); the
	// registry remembers each outcome for the checks below.
	var wg sync.WaitGroup
	for _, m := range e.Models {
		if m.Tokenizer != "" {
			wg.Add(1)
			go func() { defer wg.Done(); _, _ = reg.Get(m.Tokenizer) }() // checked below
		}
	}
	wg.Wait()
	check := func(what, name string) error {
		if name == "" {
			return nil
		}
		if _, err := reg.Get(name); err != nil {
			return fmt.Errorf("%s: tokenizer %q is not available (available here: %s): give the folder holding %s/tokenizer.json "+
				"with --models-dir DIR or $ISOLDA_TOKENIZERS (isolda tokens --help lists the names), or set tokenizer: o200k_base "+
				"in the experiment, which counts with GPT-4o's tokenizer instead: local token counts, budgets and cost estimates "+
				"are then approximate for this model, the calls themselves are unchanged (%v)",
				what, name, strings.Join(reg.Available(), ", "), name, err)
		}
		return nil
	}
	for _, m := range e.Models {
		if err := check("model "+m.ModelName(), m.Tokenizer); err != nil {
			return err
		}
	}
	if e.Budget != nil {
		if err := check("budget", e.Budget.Tokenizer); err != nil {
			return err
		}
	}
	for _, a := range e.Arms {
		if a.Budget != nil {
			if err := check("arm "+a.Name+" budget", a.Budget.Tokenizer); err != nil {
				return err
			}
		}
	}
	return nil
}

// confirmCost estimates the cost of a run (of its first limit calls when
// limit is set) and, above maxCost, asks on a terminal and refuses
// elsewhere.
func confirmCost(env *Env, ph *phases, p *eval.Plan, reg *token.Registry, maxCost float64, limit int) error {
	priced := false
	for _, m := range p.Experiment.Models {
		priced = priced || m.PriceIn > 0 || m.PriceOut > 0
	}
	if !priced {
		return nil
	}
	ph.Set("estimating the cost (questions × models)")
	mc, err := eval.DryRunProgress(p, reg, ph.Count)
	if err != nil {
		return badInput(err)
	}
	total, unbounded, calls := 0.0, false, 0
	for _, m := range mc {
		in, out, _ := m.Cost()
		total += in + out
		unbounded = unbounded || (m.PriceOut > 0 && m.MaxOutputTokens == 0)
		calls += m.Calls
	}
	if limit > 0 && limit < calls {
		total *= float64(limit) / float64(calls)
	}
	what := fmt.Sprintf("estimated cost up to %.4f", total)
	if unbounded {
		what += " plus the answers (max_tokens is not set, so their cost has no bound)"
	}
	if total <= maxCost && !unbounded {
		return nil
	}
	msg := fmt.Sprintf("%s, above --max-cost %g (isolda eval run --dry-run shows it per model)", what, maxCost)
	f, ok := env.Stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return usageError("eval run: %s: not on a terminal, so not asking: raise --max-cost to run it", msg)
	}
	fmt.Fprintf(env.Stderr, "%s. Run it? [y/N] ", msg)
	line, _ := bufio.NewReader(f).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return usageError("eval run: not confirmed; nothing called")
	}
	return nil
}

// shaped reports whether a context of the plan has a budget or an ordering
// other than canonical.
func shaped(cs []eval.Context) bool {
	for _, c := range cs {
		if c.Budget > 0 || c.Ordering != "" {
			return true
		}
	}
	return false
}

// printDryRun prints the contexts (when any is budgeted or reordered) and
// the calls and input tokens per model of a prepared plan.
func printDryRun(env *Env, ph *phases, p *eval.Plan, reg *token.Registry) error {
	var progress func(done, total int)
	if ph != nil {
		ph.Set("counting input tokens (questions × models)")
		progress = ph.Count
	}
	mc, err := eval.DryRunProgress(p, reg, progress)
	if err != nil {
		return badInput(err)
	}
	if ph != nil {
		ph.Stop()
	}
	fmt.Fprintf(env.Stdout, "run %s: %d contexts, %d questions\n", p.Manifest.RunID, len(p.Contexts), len(p.Entries))
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	if shaped(p.Contexts) {
		fmt.Fprintln(tw, "GRAPH\tARM\tORDERING\tANCHOR\tBUDGET\tTOKENIZER\tTOKENS\tRECORDS")
		for _, c := range p.Contexts {
			budget, tok, toks, recs := "-", "-", "-", "-"
			if c.Budget > 0 {
				budget, tok, toks = fmt.Sprintf("%d %s", c.Budget, c.Policy), c.Tokenizer, fmt.Sprint(c.Tokens)
			}
			if c.Records > 0 {
				recs = fmt.Sprintf("%d/%d", c.Kept, c.Records)
			}
			anchor := c.Anchor
			if anchor == "" {
				anchor = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Graph, c.Arm, c.OrderingName(), anchor, budget, tok, toks, recs)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintln(tw, "MODEL\tCALLS\tTOKENIZER\tINPUT_TOKENS")
	for _, m := range mc {
		tok, n := m.Tokenizer, fmt.Sprint(m.InputTokens)
		if tok == "" {
			tok, n = "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", m.Model, m.Calls, tok, n)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Per arm: the calls and the mean input tokens of one call.
	fmt.Fprintln(env.Stdout)
	tw = tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tARM\tCALLS\tINPUT_TOKENS\tMEAN_PER_CALL")
	for _, m := range mc {
		for _, a := range m.Arms {
			n, mean := "-", "-"
			if a.InputTokens >= 0 && a.Calls > 0 {
				n, mean = fmt.Sprint(a.InputTokens), fmt.Sprintf("%.1f", float64(a.InputTokens)/float64(a.Calls))
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.Model, a.Arm, a.Calls, n, mean)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printCost(env, mc)
}

// printCost prints the estimated cost per model and in total, when a
// model has a price.
func printCost(env *Env, mc []eval.ModelCalls) error {
	priced := false
	for _, m := range mc {
		priced = priced || m.PriceIn > 0 || m.PriceOut > 0
	}
	if !priced {
		return nil
	}
	fmt.Fprintln(env.Stdout)
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tPRICE_IN\tPRICE_OUT\tINPUT_COST\tOUTPUT_COST_MAX\tCOST_MAX")
	var tin, tout float64
	notes := map[string]bool{}
	for _, m := range mc {
		in, out, exact := m.Cost()
		tin, tout = tin+in, tout+out
		ins, outs := fmt.Sprintf("%.4f", in), fmt.Sprintf("%.4f", out)
		if !exact && m.PriceIn > 0 {
			ins = "≈" + ins
			notes["≈: no tokenizer; input tokens estimated as bytes/3"] = true
		}
		if m.PriceOut > 0 && m.MaxOutputTokens == 0 {
			outs = "unbounded"
			notes["unbounded: the experiment sets no max_tokens"] = true
		}
		fmt.Fprintf(tw, "%s\t%g\t%g\t%s\t%s\t%.4f\n", m.Model, m.PriceIn, m.PriceOut, ins, outs, in+out)
	}
	fmt.Fprintf(tw, "total\t\t\t%.4f\t%.4f\t%.4f\n", tin, tout, tin+tout)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "Prices are per million tokens; input from the local count of the messages (without the chat template), output at max_tokens per call (an upper bound).")
	for _, n := range slices.Sorted(maps.Keys(notes)) {
		fmt.Fprintln(env.Stdout, n)
	}
	return nil
}
