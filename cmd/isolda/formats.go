package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/formats"
	"github.com/spf13/cobra"
)

// newFormatsCmd lists the format lab's registry.
func newFormatsCmd(env *Env) *cobra.Command {
	var family string
	var long bool
	cmd := &cobra.Command{
		Use:   "formats",
		Short: "List every serialization isolda can write",
		Long: "Prints the format registry as a table: name, family (the families of Table 1 of Graph " +
			"Serializations for Reasoning LLMs), whether the format is lossless, the model it reads (an RDF " +
			"dataset, a labelled graph or an ontology) and its source. --long prints one block per format " +
			"instead: the full source (paper and section) and what a lossy format loses. isolda convert -t NAME " +
			"writes any of them; isolda convert -f NAME reads the lossless ones.",
		Example: "  isolda formats\n" +
			"  isolda formats --family tabular --long\n" +
			"  isolda formats | grep -w yes",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var fs []formats.Format
			for _, f := range formats.All() {
				if family == "" || f.Family == family {
					fs = append(fs, f)
				}
			}
			if len(fs) == 0 {
				return usageError("formats: no format in family %q (families: %s)", family,
					strings.Join(formats.Families(), ", "))
			}
			return toStdout(env, func(w io.Writer) error {
				if long {
					writeFormatsLong(w, fs)
					return nil
				}
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tFAMILY\tLOSSLESS\tINPUT\tSOURCE")
				for _, f := range fs {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Family, losslessShort(f), f.Input, shortSource(f.Source))
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&family, "family", "", "list only this family (e.g. \"semantic web\", tabular)")
	cmd.Flags().BoolVarP(&long, "long", "l", false, "one block per format: the full source (paper and section) and what it loses")
	return cmd
}

// writeFormatsLong writes one block per format: its name, family and
// input model, then its source and losslessness wrapped to helpWidth.
func writeFormatsLong(w io.Writer, fs []formats.Format) {
	for i, f := range fs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s; input: %s)\n", f.Name, f.Family, f.Input)
		fmt.Fprintln(w, hanging("source:   ", f.Source))
		fmt.Fprintln(w, hanging("lossless: ", losslessText(f)))
	}
}

// hanging wraps text to helpWidth after a label, indenting the following
// lines under the text.
func hanging(label, text string) string {
	indent := "  " + strings.Repeat(" ", len(label))
	wrapped := wrapText(text, helpWidth, indent)
	return "  " + label + strings.TrimPrefix(wrapped, indent)
}

// losslessText is the LOSSLESS column: "yes", "yes, but ..." for RDF
// syntaxes that cannot write every dataset, "yes for its labelled graph;
// from RDF loses ..." for lossless graph formats, else "no: loses ...".
func losslessText(f formats.Format) string {
	switch {
	case f.Lossless && f.Loses == "":
		return "yes"
	case f.Lossless && f.Input == formats.InputRDF:
		return "yes, but " + f.Loses
	case f.Lossless:
		return "yes for its " + f.Input.String() + "; from RDF loses " + f.Loses
	}
	return "no: loses " + f.Loses
}

// losslessShort is the LOSSLESS column of the short table: "yes", "yes*"
// (lossless with a caveat: a syntax that cannot write every dataset, or a
// graph format lossless for its labelled graph only) or "no".
func losslessShort(f formats.Format) string {
	switch {
	case f.Lossless && f.Loses == "":
		return "yes"
	case f.Lossless && f.Input == formats.InputRDF:
		return "yes*"
	case f.Lossless:
		return "graph"
	}
	return "no"
}

// shortSource keeps the part of a source before its first comma or parenthesis.
func shortSource(s string) string {
	if i := strings.IndexAny(s, ",("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
