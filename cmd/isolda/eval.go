package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/examples"
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
	var dry bool
	cmd.Flags().BoolVar(&dry, "dry-run", false, "render and hash the embedded example experiment (the file isolda eval init writes), print its calls and input tokens per model, call nothing")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !dry {
			return cmd.Help()
		}
		p, cleanup, err := prepareExperiment(nil)
		if err != nil {
			return err
		}
		defer cleanup()
		return printDryRun(env, p)
	}
	cmd.Args = unknownSubcommand
	cmd.AddCommand(newEvalInitCmd(env), newEvalValidateCmd(env), newEvalRunCmd(env))
	return cmd
}

// prepareExperiment loads and prepares the experiment file args[0] or, with
// no argument, the embedded example (`isolda eval init`) with the demo graph
// beside it in a temporary folder that cleanup removes.
func prepareExperiment(args []string) (p *eval.Plan, cleanup func(), err error) {
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
		b, err := examples.Read(examples.Default)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, examples.Default), b, 0o644)
		}
		if err != nil {
			cleanup()
			return nil, func() {}, err
		}
	}
	if p, err = eval.Prepare(e, dir); err != nil {
		cleanup()
		return nil, func() {}, badInput(err)
	}
	return p, cleanup, nil
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
			demo := filepath.Join(filepath.Dir(path), examples.Default)
			if _, err := os.Stat(demo); errors.Is(err, os.ErrNotExist) {
				b, err := examples.Read(examples.Default)
				if err != nil {
					return err
				}
				if err := os.WriteFile(demo, b, 0o644); err != nil {
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
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check an experiment file (errors as FILE:LINE:COL: message)",
		Long: "Checks an experiment file: its fields, names, formats, options and scorers, and that the graph " +
			"and question-set files it names exist. --prepare also reads them and renders every context.",
		Example: "  isolda eval validate exp.yaml\n" +
			"  isolda eval validate --prepare exp.yaml",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := eval.LoadExperiment(args[0])
			if err != nil {
				return badInput(err)
			}
			if prepare {
				p, err := eval.Prepare(e, filepath.Dir(args[0]))
				if err != nil {
					return badInput(err)
				}
				fmt.Fprintf(env.Stdout, "%s: ok: %d contexts, %d questions, %d calls\n", args[0],
					len(p.Contexts), len(p.Entries), p.Manifest.Calls)
				return nil
			}
			fmt.Fprintf(env.Stdout, "%s: ok\n", args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&prepare, "prepare", false, "also read the graphs and question sets and render every context")
	return cmd
}

func newEvalRunCmd(env *Env) *cobra.Command {
	var out string
	var dry bool
	var interval time.Duration
	cmd := &cobra.Command{
		Use:   "run [FILE] --out DIR",
		Short: "Run (or resume) an experiment (the embedded example without FILE), or with --dry-run count its calls and input tokens",
		Long: "Freezes every context and question into the run folder (SHA-1 hashes in DIR/manifest.json), then " +
			"calls each model's endpoint and appends one JSON line per call to DIR/answers.jsonl, and prints " +
			"accuracy per arm and model. Running it again resumes: answered calls are skipped, failed ones " +
			"retried, and changed inputs refused. A model whose endpoint gives no response to " +
			fmt.Sprint(eval.ConnectionFailuresToStop) + " calls in a row is stopped early with a message. " +
			"Exit status 1 when calls failed or were left, 0 when every call is answered.",
		Example: "  isolda eval run exp.yaml --out run --dry-run\n" +
			"  isolda eval run exp.yaml --out run",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, cleanup, err := prepareExperiment(args)
			if err != nil {
				return err
			}
			defer cleanup()
			e := p.Experiment
			if dry {
				return printDryRun(env, p)
			}
			if out == "" {
				return badInput(errors.New("--out DIR is required"))
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A terminal gets one line per model redrawn in place every
			// second; logs and CI get plain lines every --progress.
			progress := eval.PlainProgress(env.Stderr)
			if f, ok := env.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				progress = eval.TerminalProgress(env.Stderr)
				if !cmd.Flags().Changed("progress") {
					interval = time.Second
				}
			}
			res, err := eval.Run(ctx, p, eval.RunOptions{Out: out, OnProgress: progress, ProgressInterval: interval})
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
			f, err := os.Open(filepath.Join(out, eval.AnswersFile))
			if err != nil {
				return err
			}
			defer f.Close()
			cells, err := eval.Summarize(f, e)
			if err != nil {
				return err
			}
			if err := eval.WriteSummary(env.Stdout, cells); err != nil {
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
	return cmd
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
func printDryRun(env *Env, p *eval.Plan) error {
	mc, err := eval.DryRun(p, nil)
	if err != nil {
		return badInput(err)
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
	return tw.Flush()
}
