package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
	"github.com/spf13/cobra"
)

func newQuestionsCmd(env *Env) *cobra.Command {
	var in inputFlags
	var families, out string
	var perFamily int
	var seed int64
	cmd := &cobra.Command{
		Use:   "questions [FILE|-]",
		Short: "Generate a frozen set of KG questions with gold answers from an RDF graph",
		Long: "Generates questions of the ISOLDA studies' families (lookup, multi_hop, count, " +
			"outgoing_aggregation, incoming_aggregation, language_choice, two_hop, filter) from the " +
			"structure of an RDF graph (FILE, standard input when piped or given -, else the embedded demo " +
			"graph), with gold answers, seeded. No set holds a question twice, and every question has one reading " +
			"in the graph: types and properties that share a name are named by their prefixed name, and a candidate " +
			"whose text would still fit two readings is left out. Prints the count per family (with the candidates " +
			"left out as ambiguous, and why a family was skipped) and " +
			"writes the frozen set as JSONL with SHA-1 hashes of every context and question (the file an " +
			"experiment's questions: entry names).",
		Example: "  isolda questions --per-family 3 -o q.jsonl\n" +
			"  isolda questions examples/wikidata-L691820-lexeme.ttl --families lookup,count -o lexeme.jsonl\n" +
			"  cat examples/demo.ttl | isolda questions -o - | head -2",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fams, err := kg.ParseFamilies(families)
			if err != nil {
				return badInput(err)
			}
			name := graphSource(env, argOrEmpty(args))
			d, err := in.read(env, name)
			if err != nil {
				return err
			}
			setName := filepath.Base(name)
			switch name {
			case "":
				setName = examples.Default
			case "-":
				setName = "stdin"
			}
			set, err := kg.Generate(d, kg.Options{Families: fams, PerFamily: perFamily, Seed: seed, Name: setName})
			if err != nil {
				return badInput(err)
			}
			report := env.Stdout
			if out == "-" {
				report = env.Stderr
			}
			if err := set.WriteCounts(report); err != nil {
				return err
			}
			if out != "-" {
				if err := atomicfile.Write(out, 0o644, func(w io.Writer) error { return task.WriteFrozen(w, set) }); err != nil {
					return badInput(err)
				}
				fmt.Fprintf(report, "wrote %s\n", out)
				return nil
			}
			bw := bufio.NewWriter(env.Stdout)
			if err := task.WriteFrozen(bw, set); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			return nil
		},
	}
	in.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&families, "families", "all", "question families: all, or a comma-separated list")
	fl.IntVar(&perFamily, "per-family", kg.DefaultPerFamily, "at most this many questions per family")
	fl.Int64Var(&seed, "seed", 1201, "seed for the choice among candidate questions")
	fl.StringVarP(&out, "out", "o", "questions.jsonl", "file for the frozen set (- for standard output)")
	return cmd
}
