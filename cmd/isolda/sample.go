package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/sample"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
)

// sampleFormats are the formats sample measures by default: the ISOLDA
// paper's baselines and ISOLDA.
const sampleFormats = "b-json,b-ttl,b-ttl-ids,isolda"

func newSampleCmd(env *Env) *cobra.Command {
	var in inputFlags
	var unit, fmts, tokName, modelsDir, to, out string
	var budget int
	cmd := &cobra.Command{
		Use:   "sample [FILE|-] --unit CLASS --budget N",
		Short: "Cut a graph to the longest prefix of units whose largest encoding fits a token budget (ISOLDA paper §4.1)",
		Long: "Reads a graph (FILE, standard input for - or when piped, else the embedded demo graph) and keeps the " +
			"longest prefix of its units whose largest encoding among --formats fits --budget tokens of --tokenizer, " +
			"as the ISOLDA paper cut its held-out graphs (§4.1: \"the longest prefix of units (datasets, groups of " +
			"municipalities, writers) whose largest context among all the formats fits in 20,000 o200k tokens\").\n\n" +
			"A unit is an entity of CLASS (a subject with rdf:type CLASS) with what belongs to it: its statements and " +
			"those of every node only it reaches (its blank nodes, the entities only it references). Nodes that several " +
			"units reach (a shared publisher, a property with its label) go with the first unit that reaches them. " +
			"Units are taken with IRIs in code-point order, then blank nodes in input order; statements keep the input's " +
			"order. CLASS is an IRI, <IRI>, or a prefixed name of the input's prefixes or of the common ones (dcat:Dataset).\n\n" +
			"The sample goes to standard output (or -o) in -t FORMAT (turtle, trig when it has named graphs); standard " +
			"error gets the units kept, the sample's RDFC-1.0 hash, and the tokens, bytes and SHA-256 of each format's " +
			"text, for the sample and for the prefix with one unit more, which does not fit.",
		Example: "  isolda sample dcat.ttl --unit dcat:Dataset --budget 20000 > dcat-sample.ttl\n" +
			"  isolda sample writers.ttl --unit http://www.wikidata.org/entity/Q5 --budget 20000 --formats b-json,b-ttl,b-ttl-ids,isolda-0.1,isolda-0.2\n" +
			"  isolda sample examples/demo.ttl --unit schema:Person --budget 300 --tokenizer cl100k_base -t ntriples",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if unit == "" {
				return usageError("sample: --unit CLASS is required (the class whose entities are the units)")
			}
			if budget <= 0 {
				return usageError("sample: --budget %d: give a positive number of tokens", budget)
			}
			var names []string
			for _, f := range strings.Split(fmts, ",") {
				f = strings.TrimSpace(f)
				if f == "" {
					continue
				}
				ff, ok := formats.Lookup(f)
				if !ok {
					return usageError("sample: --formats: unknown format %q (isolda formats lists them)", f)
				}
				names = append(names, ff.Name)
			}
			if len(names) == 0 {
				return usageError("sample: --formats is empty")
			}
			if to != "" {
				if _, ok := formats.Lookup(to); !ok {
					return unknownOutputFormat("sample", to)
				}
			}
			tok, err := token.NewRegistry(token.Options{ModelsDir: modelsDir}).Get(tokName)
			if err != nil {
				return badInput(err)
			}
			d, err := in.read(env, argOrEmpty(args))
			if err != nil {
				return err
			}
			class, err := expandSampleClass(d, unit)
			if err != nil {
				return usageError("sample: --unit: %v", err)
			}
			units, err := sample.Split(d, class)
			if err != nil {
				return badInput(err)
			}
			res, err := units.Cut(sample.Options{Budget: budget, Formats: names, Tokenizer: tok})
			if err != nil {
				return badInput(err)
			}
			if err := writeSampleReport(env.Stderr, res, class, budget, tok.Name()); err != nil {
				return err
			}
			if to == "" {
				to = "turtle"
				if len(res.Sample.Graphs()) > 0 {
					to = "trig"
				}
			}
			var w io.Writer = env.Stdout
			if out != "" && out != "-" {
				f, err := os.Create(out)
				if err != nil {
					return badInput(err)
				}
				defer f.Close()
				w = f
			}
			bw := bufio.NewWriterSize(w, 64<<10)
			if err := writeFormat(bw, "sample", to, formats.NewInput(res.Sample)); err != nil {
				return err
			}
			return bw.Flush()
		},
	}
	in.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&unit, "unit", "", "the class whose entities are the units (IRI or prefixed name)")
	fl.IntVar(&budget, "budget", 20000, "the most tokens the largest encoding may take")
	fl.StringVar(&fmts, "formats", sampleFormats, "comma-separated formats whose largest encoding must fit (isolda formats lists them)")
	fl.StringVar(&tokName, "tokenizer", token.O200KBase, "tokenizer: o200k_base, cl100k_base, a short name in the models directory, a tokenizer.json path or a Hugging Face model id")
	modelsDirFlag(fl, &modelsDir)
	fl.StringVarP(&to, "to", "t", "", "format of the sample written (default turtle, trig with named graphs)")
	fl.StringVarP(&out, "out", "o", "", "write the sample to this file instead of standard output")
	return cmd
}

// expandSampleClass resolves CLASS: an IRI, <IRI>, or a prefixed name of
// the input's prefixes, else of the common prefixes.
func expandSampleClass(d *rdf.Dataset, c string) (string, error) {
	if strings.HasPrefix(c, "<") && strings.HasSuffix(c, ">") {
		return c[1 : len(c)-1], nil
	}
	if pfx, local, ok := strings.Cut(c, ":"); ok && !strings.HasPrefix(local, "//") {
		for i := len(d.Prefixes) - 1; i >= 0; i-- {
			if d.Prefixes[i].Name == pfx {
				return d.Prefixes[i].IRI + local, nil
			}
		}
	}
	return chunk.ExpandClass(c)
}

// writeSampleReport writes the sizes and hashes of a cut.
func writeSampleReport(w io.Writer, res *sample.Result, class string, budget int, tok string) error {
	fmt.Fprintf(w, "sample: %d of %d units of <%s> fit %d %s tokens (%d prefixes encoded)\n",
		res.Units, res.Total, class, budget, tok, res.Encodings)
	fmt.Fprintf(w, "sample: %d statements, RDFC-1.0 SHA-256 %s\n", res.Sample.Len(), res.Hash)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "FORMAT\tUNITS\tTOKENS\tFITS\tBYTES\tSHA-256\n")
	row := func(k int, s sample.Size) {
		fits := "yes"
		if s.Tokens > budget {
			fits = "no"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\n", s.Format, k, s.Tokens, fits, s.Bytes, s.SHA256)
	}
	for _, s := range res.Sizes {
		row(res.Units, s)
	}
	for _, s := range res.Next {
		row(res.Units+1, s)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Next != nil {
		l := sample.Largest(res.Next)
		fmt.Fprintf(w, "sample: with %d units %s takes %d tokens, more than %d\n", res.Units+1, l.Format, l.Tokens, budget)
	} else {
		fmt.Fprintf(w, "sample: every unit fits\n")
	}
	return nil
}
