package main

import (
	"fmt"
	"io"

	"github.com/isolda/isolda/rdf"
	"github.com/spf13/cobra"
)

func newStatsCmd(env *Env) *cobra.Command {
	var in inputFlags
	var count bool
	cmd := &cobra.Command{
		Use:   "stats [FILE|-]",
		Short: "Count quads, graphs, subjects, types, blank nodes, languages and datatypes",
		Long: "Reads an RDF document (FILE, standard input when piped or given -, else the embedded demo graph) " +
			"and prints its statistics. The first line is the number of quads, for scripts. --count only streams " +
			"the input and counts its statements, for files too large to hold in memory.",
		Example: "  isolda stats examples/wikidata-L691820-lexeme.ttl\n" +
			"  cat examples/demo.ttl | isolda stats | head -1\n" +
			"  isolda stats --count -f nt big.nt.gz",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if count {
				n, err := in.count(env, argOrEmpty(args))
				if err != nil {
					return err
				}
				fmt.Fprintln(env.Stdout, n)
				return nil
			}
			d, err := in.read(env, argOrEmpty(args))
			if err != nil {
				return err
			}
			writeSummary(env.Stdout, rdf.Summarize(d))
			return nil
		},
	}
	in.register(cmd)
	cmd.Flags().BoolVar(&count, "count", false, "only stream the input and print the number of statements read (duplicates included)")
	return cmd
}

func writeSummary(w io.Writer, s rdf.Summary) {
	fmt.Fprintf(w, "%d\n", s.Quads)
	fmt.Fprintf(w, "quads       %d\n", s.Quads)
	fmt.Fprintf(w, "graphs      %d named\n", s.Graphs)
	fmt.Fprintf(w, "subjects    %d\n", s.Subjects)
	fmt.Fprintf(w, "predicates  %d\n", s.Predicates)
	fmt.Fprintf(w, "objects     %d\n", s.Objects)
	fmt.Fprintf(w, "blank nodes %d\n", s.BlankNodes)
	fmt.Fprintf(w, "literals    %d\n", s.Literals)
	if s.TripleTerms > 0 {
		fmt.Fprintf(w, "triple terms %d\n", s.TripleTerms)
	}
	section := func(title string, counts []rdf.Count) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(counts))
		for _, c := range counts {
			fmt.Fprintf(w, "  %7d  %s\n", c.Count, c.Name)
		}
	}
	section("types", s.Types)
	section("languages", s.Languages)
	section("datatypes", s.Datatypes)
}
