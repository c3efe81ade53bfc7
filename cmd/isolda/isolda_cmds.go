package main

import (
	"fmt"
	"io"
	"os"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/spf13/cobra"
)

// isoldaFlags are the encoder options as flags, shared by encode and check.
type isoldaFlags struct {
	opts isolda.Options
}

func (f *isoldaFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	o := &f.opts
	fl.StringVar(&o.Version, "spec", "0.4", "notation version: 0.4 (docs/SPEC.md section 17), 0.2 (the paper's), 0.1 or 0.3 (0.2 with --iri-ids, --continuation and (N) list cells for RDF lists)")
	fl.StringVar(&o.IDs, "ids", "label", "entity ids: label (labels where unique, else slugs) or slug (slugs for every entity)")
	fl.BoolVar(&o.NoConstants, "no-constants", false, "keep values shared by every row in the rows instead of the header (p=v)")
	fl.BoolVar(&o.NoTypes, "no-types", false, "omit the @types line")
	fl.StringVar(&o.Glossary, "glossary", "full", "glossary: full, legend (one line) or none")
	fl.BoolVar(&o.InverseIndex, "inverse-index", false, "add a ~in: section of incoming links for targets with two or more (ignored by the decoder)")
	fl.StringVar(&o.Layout, "layout", "table", "sections as table, blocks (one property per line), or hybrid (blocks when the table is sparser than --theta)")
	fl.Float64Var(&o.Theta, "theta", 0, "hybrid layout: regularity threshold θ (fraction of filled cells below which a section becomes blocks)")
	fl.BoolVar(&o.Continuation, "continuation", false, "write properties that are not columns as continuation lines under their row instead of ~extra:")
	fl.BoolVar(&o.InlineBlanks, "inline-bnodes", false, "write blank nodes referenced once inline, {p: v}, inside the referring entity")
	fl.StringVar(&o.Anchor, "anchor", "", "anchor mode: order the document by breadth-first search from this entity (id or IRI)")
	fl.IntVar(&o.Hops, "hops", 0, "with --anchor: crop the document to entities at most k links away (lossless only for the crop)")
	fl.BoolVar(&o.NoPreferredLanguage, "no-preferred-language", false, "0.2 ablation: a label is an id only if it is the only label literal")
	fl.BoolVar(&o.NoRowLabelIDs, "no-row-label-ids", false, "0.2 ablation: one row without a label id makes the whole table use slugs")
	fl.BoolVar(&o.NoTermAliases, "no-term-aliases", false, "0.2 ablation: no @term aliases")
	fl.BoolVar(&o.NoVocabPrefix, "no-vocab-prefix", false, "0.2 ablation: never declare the @vocab namespace as a prefix")
	fl.BoolVar(&o.IRIIDs, "iri-ids", false, "identify unlabelled IRI entities by their compact IRI (first column @iri) instead of a slug")
	fl.BoolVar(&o.DatatypePrefixes, "datatype-prefixes", false, "declare the xsd (or rdf) prefix whenever a written datatype uses it, whatever its number of uses")
}

func newEncodeCmd(env *Env) *cobra.Command {
	var in inputFlags
	var enc isoldaFlags
	var glossaryFile string
	cmd := &cobra.Command{
		Use:   "encode [FILE|-]",
		Short: "Write an RDF graph as an ISOLDA document",
		Long: "Reads an RDF document in any syntax (FILE, standard input when piped or given -, else the " +
			"embedded demo graph) and writes it in the ISOLDA notation (docs/SPEC.md) to standard output. " +
			"The flags are the notation's options; isolda check tells whether a combination round-trips.",
		Example: "  isolda encode examples/demo.ttl\n" +
			"  isolda encode --spec 0.3 --glossary none examples/wikidata-L691820-lexeme.ttl\n" +
			"  cat examples/demo.ttl | isolda encode --layout blocks --no-types\n" +
			"  isolda encode --glossary-file glossary.txt examples/demo.ttl > body.isolda",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := in.read(env, argOrEmpty(args))
			if err != nil {
				return err
			}
			if glossaryFile != "" {
				// The glossary apart (the same bytes for every document
				// with the same constructs), the body on stdout.
				p, err := isolda.EncodeParts(d, enc.opts)
				if err != nil {
					return badInput(err)
				}
				if err := os.WriteFile(glossaryFile, []byte(p.Glossary), 0o644); err != nil {
					return err
				}
				_, err = io.WriteString(env.Stdout, p.Body)
				return err
			}
			return toStdout(env, func(w io.Writer) error {
				if err := isolda.Encode(w, d, enc.opts); err != nil {
					return badInput(err)
				}
				return nil
			})
		},
	}
	in.register(cmd)
	enc.register(cmd)
	cmd.Flags().StringVar(&glossaryFile, "glossary-file", "", "write the glossary to this file and only the body (which starts with @isolda VERSION and decodes alone) to standard output")
	return cmd
}

func newDecodeCmd(env *Env) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "decode [FILE|-] [-t FORMAT]",
		Short: "Rebuild the RDF graph of an ISOLDA document",
		Long: "Reads an ISOLDA document (FILE, or standard input for - or no FILE; any version and options: the " +
			"document says what it uses) and writes the dataset it encodes, canonical N-Quads by default, or " +
			"in any output format of convert (-t turtle, -t jsonld-compact, -t b-ttl-ids, ...).",
		Example: "  isolda encode examples/demo.ttl > demo.isolda\n" +
			"  isolda decode demo.isolda -t turtle\n" +
			"  isolda encode examples/demo.ttl | isolda decode",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := formats.Lookup(to); !ok {
				return unknownOutputFormat("decode", to)
			}
			r, file, closeFn, err := openDocument(env, "decode", argOrEmpty(args))
			if err != nil {
				return err
			}
			defer closeFn()
			d, err := isolda.DecodeWith(r, isolda.DecodeOptions{File: file})
			if err != nil {
				return badInput(err)
			}
			return toStdout(env, func(w io.Writer) error { return writeFormat(w, "decode", to, formats.NewInput(d)) })
		},
	}
	cmd.Flags().StringVarP(&to, "to", "t", "nquads", "output format: an RDF syntax or a format name (isolda formats lists them)")
	return cmd
}

func newCheckCmd(env *Env) *cobra.Command {
	var in inputFlags
	var enc isoldaFlags
	cmd := &cobra.Command{
		Use:   "check [FILE|-]",
		Short: "Encode, decode and compare: exit 0 if the round trip is isomorphic, 1 if not",
		Long: "Reads an RDF document (FILE, standard input when piped or given -, else the embedded demo graph), " +
			"encodes it as ISOLDA with the given options, decodes the result and compares the two datasets. " +
			"Prints the outcome and, on failure, the quads that differ.",
		Example: "  isolda check examples/lod-datagovuk-reference-intervals.ttl\n" +
			"  isolda check --spec 0.3 --inline-bnodes examples/lod-datagovuk-reference-intervals.ttl\n" +
			"  isolda check --anchor https://example.org/ada --hops 1",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := in.read(env, argOrEmpty(args))
			if err != nil {
				return err
			}
			res, err := isolda.Check(d, enc.opts)
			if err != nil {
				return badInput(err)
			}
			what := fmt.Sprintf("%d quads", d.Len())
			if enc.opts.Anchor != "" && enc.opts.Hops > 0 {
				// A cropped document is checked against its crop (Check does so).
				crop, err := isolda.Crop(d, enc.opts)
				if err != nil {
					return badInput(err)
				}
				what = fmt.Sprintf("%d of %d quads (cropped to %d hops)", crop.Len(), d.Len(), enc.opts.Hops)
			}
			if res.Isomorphic {
				fmt.Fprintf(env.Stdout, "ok: %s, %d bytes of ISOLDA, round trip isomorphic\n", what, res.Bytes)
				return nil
			}
			fmt.Fprintf(env.Stdout, "FAIL: %s, round trip not isomorphic\n", what)
			for _, q := range res.Missing {
				fmt.Fprintf(env.Stdout, "- %s\n", q)
			}
			for _, q := range res.Extra {
				fmt.Fprintf(env.Stdout, "+ %s\n", q)
			}
			return checkFailed()
		},
	}
	in.register(cmd)
	enc.register(cmd)
	return cmd
}
