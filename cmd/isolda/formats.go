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
			fmt.Fprintln(tw, "NAME\tFAMILY\tSOURCE\tLOSSLESS\tINPUT")
			n := 0
			for _, f := range formats.All() {
				if family != "" && f.Family != family {
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Family, f.Source, losslessText(f), f.Input)
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
