package main

import (
	"bufio"
	"fmt"
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
		Long: "Prints the format registry as a table: name, family (the serialization study's Table 1), " +
			"source, whether the format is lossless (and what it loses), and the model it reads. " +
			"`isolda convert -t NAME` writes any of them; `isolda convert -f NAME` reads the lossless ones.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := bufio.NewWriter(env.Stdout)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			if long {
				fmt.Fprintln(tw, "NAME\tFAMILY\tSOURCE\tLOSSLESS\tINPUT")
			} else {
				fmt.Fprintln(tw, "NAME\tFAMILY\tLOSSLESS\tINPUT\tSOURCE")
			}
			n := 0
			for _, f := range formats.All() {
				if family != "" && f.Family != family {
					continue
				}
				if long {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Family, f.Source, losslessText(f), f.Input)
				} else {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Family, losslessShort(f), f.Input, shortSource(f.Source))
				}
				n++
			}
			if n == 0 {
				return badInput(fmt.Errorf("formats: no format in family %q (families: %s)", family,
					strings.Join(formats.Families(), ", ")))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&family, "family", "", "list only this family (e.g. \"semantic web\", tabular)")
	cmd.Flags().BoolVarP(&long, "long", "l", false, "print the full source and, for each format, what it loses")
	return cmd
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
