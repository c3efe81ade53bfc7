package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/study"
	"github.com/spf13/cobra"
)

// newStudyCmd is `isolda study` with its subcommands list and init.
func newStudyCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "study",
		Short: "The experiments of the papers as ready-to-run experiment folders",
		Long: "Every experiment of the three papers behind isolda is a named, versioned study. isolda study list " +
			"shows them; isolda study init NAME DIR writes DIR/experiment.yaml, DIR/criteria.yaml (where the paper " +
			"pre-registered criteria), the frozen question sets and data, and DIR/README.md (what the study is, where each " +
			"number comes from, what deviates from the paper). Then isolda eval run DIR/experiment.yaml --out RUN and " +
			"isolda report RUN --criteria DIR/criteria.yaml are all there is to do.",
		Example: "  isolda study list\n" +
			"  isolda study init graphrag-impact impact --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --tokenizer o200k_base\n" +
			"  isolda eval run impact/experiment.yaml --out impact-run\n" +
			"  isolda report impact-run",
	}
	cmd.AddCommand(newStudyListCmd(env), newStudyInitCmd(env))
	return cmd
}

func newStudyListCmd(env *Env) *cobra.Command {
	var short bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Every study: its paper section, arms, models, questions and calls per model",
		Long: "Prints one block per study: its name and version, the paper and section, the data it needs, its arms, " +
			"its question sets, the paper's models with the arms each reads and the calls each makes in a complete run " +
			"(questions × arms × trials), and its pre-registered criteria.",
		Example: "  isolda study list --short\n  isolda study list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := env.Stdout
			if short {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "STUDY\tCALLS\tPAPER")
				for _, s := range study.All() {
					total := 0
					for _, m := range s.Models {
						total += s.Calls(m)
					}
					fmt.Fprintf(tw, "%s\t%d\t%s\n", s.Name, total, s.Paper)
				}
				return tw.Flush()
			}
			for i, s := range study.All() {
				if i > 0 {
					fmt.Fprintln(w)
				}
				fmt.Fprintf(w, "%s (version %d)\n  %s\n  %s\n", s.Name, s.Version, s.Title, s.Paper)
				if len(s.Variants) > 0 {
					fmt.Fprintf(w, "  variants: %s (default %s)\n", strings.Join(s.Variants, ", "), s.Variants[0])
				}
				for _, d := range s.Data {
					opt := ""
					if d.Optional {
						opt = " (optional)"
					}
					fmt.Fprintf(w, "  data %s%s: %s\n", d.Name, opt, d.What)
				}
				fmt.Fprintf(w, "  arms (%d): %s\n", len(s.Arms()), strings.Join(s.Arms(), ", "))
				for _, p := range s.Parts {
					fmt.Fprintf(w, "  questions: %d about %s, read by %d arms\n", p.Questions, p.Graph, len(p.Arms))
				}
				if s.Trials > 1 {
					fmt.Fprintf(w, "  trials: %d\n", s.Trials)
				}
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "  MODEL\tMODEL ID\tARMS\tCALLS")
				total := 0
				for _, m := range s.Models {
					arms := "all"
					if len(m.Arms) > 0 {
						arms = fmt.Sprint(len(m.Arms))
					}
					if len(m.Graphs) > 0 {
						arms += " on " + strings.Join(m.Graphs, ", ")
					}
					c := s.Calls(m)
					total += c
					fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\n", m.Name, m.Model, arms, c)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(w, "  calls in all: %d\n", total)
				for _, v := range s.Variants[min(1, len(s.Variants)):] {
					vs := s.Variant(v)
					fmt.Fprintf(w, "  variant %s: %d arms, %d questions, %d calls in all\n", v, len(vs.Arms()), vs.Questions(), vs.TotalCalls())
				}
				if s.Criteria != "" {
					fmt.Fprintf(w, "  criteria: %s\n", s.Criteria)
				} else {
					fmt.Fprintf(w, "  criteria: none pre-registered\n")
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&short, "short", false, "one line per study: its name, the calls of a complete run and its paper")
	return cmd
}

func newStudyInitCmd(env *Env) *cobra.Command {
	var opts study.Options
	var data, units []string
	cmd := &cobra.Command{
		Use:   "init NAME DIR",
		Short: "Write a study's experiment folder (experiment.yaml, criteria.yaml, question sets, data, README.md)",
		Long: "Writes the study NAME (see isolda study list) into DIR, which must not exist or be empty. With " +
			"--base-url and --model the experiment asks that one model with every arm; without, it names the paper's " +
			"models with a placeholder endpoint to edit. --data NAME=PATH gives the data a study needs that is not " +
			"in isolda (the list names each study's slots); the files are copied into DIR and hashed in DIR/SHA256SUMS. " +
			"The confirmatory and validation studies cut a graph whose largest encoding is over 20,000 o200k tokens as the paper did " +
			"(§4.1, isolda sample): the longest prefix of its units that fits, the class of the units from --unit SLOT=CLASS or the " +
			"slot's default; init says so on standard error and in DIR/README.md, and writes the sample as DIR/data/SLOT.sample.nq.",
		Example: "  isolda study init graphqa gq --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B\n" +
			"  isolda study init kgllmbench kgb --variant real --data kgllmbench=../shared/data/kgllmbench/instances\n" +
			"  isolda study init isolda-confirmatory conf --data dcat=dcat.ttl --data municipalities=municipalities.ttl\n" +
			"  isolda study init isolda-validation val --data writers=writers.ttl --unit writers=http://www.wikidata.org/entity/Q5 --data kgllmbench=../shared/data/kgllmbench",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Data = map[string]string{}
			for _, d := range data {
				k, v, ok := strings.Cut(d, "=")
				if !ok || k == "" || v == "" {
					return badInput(fmt.Errorf("--data %q: want NAME=PATH", d))
				}
				if _, dup := opts.Data[k]; dup {
					return badInput(fmt.Errorf("--data %s given twice", k))
				}
				opts.Data[k] = v
			}
			opts.Units = map[string]string{}
			for _, u := range units {
				k, v, ok := strings.Cut(u, "=")
				if !ok || k == "" || v == "" {
					return badInput(fmt.Errorf("--unit %q: want SLOT=CLASS", u))
				}
				iri, err := chunk.ExpandClass(v)
				if err != nil {
					return badInput(fmt.Errorf("--unit %s: %w", k, err))
				}
				opts.Units[k] = iri
			}
			ph := startPhases(env.Stderr, "study")
			opts.Phase = ph.Set
			opts.Notes = func(s string) { fmt.Fprintln(env.Stderr, s) }
			paths, err := study.Init(args[0], args[1], opts)
			ph.Stop()
			if err != nil {
				return badInput(err)
			}
			for _, p := range paths {
				fmt.Fprintf(env.Stdout, "wrote %s/%s\n", strings.TrimRight(args[1], "/"), p)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.BaseURL, "base-url", "", "API root of the one model to ask, e.g. http://localhost:8000/v1 (with --model)")
	fl.StringVar(&opts.Model, "model", "", "model id the server serves (with --base-url)")
	fl.StringVar(&opts.Tokenizer, "tokenizer", "", "tokenizer counting the model's tokens locally (o200k_base, a short name in $ISOLDA_TOKENIZERS, a tokenizer.json, a Hugging Face id)")
	fl.StringVar(&opts.Variant, "variant", "", "the study's variant (see isolda study list; default its first)")
	fl.StringArrayVar(&data, "data", nil, "NAME=PATH: a data input of the study (repeatable; see isolda study list)")
	fl.StringArrayVar(&units, "unit", nil, "SLOT=CLASS: the class of the units a data graph over the budget is cut into (repeatable)")
	return cmd
}
