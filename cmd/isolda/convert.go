package main

import (
	"bufio"
	"fmt"

	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/spf13/cobra"
)

func newConvertCmd(env *Env) *cobra.Command {
	var in inputFlags
	var to string
	cmd := &cobra.Command{
		Use:   "convert [FILE|-] -t FORMAT",
		Short: "Convert RDF between syntaxes",
		Long: "Reads an RDF document (the embedded demo graph when no file is given) and writes it in " +
			"another syntax: nquads, ntriples (canonical RDF 1.2 form, sorted), turtle, trig, jsonld " +
			"(expanded), jsonld-compact, rdfxml.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if to == "" {
				return badInput(fmt.Errorf("convert: -t FORMAT is required (one of nquads, ntriples, turtle, trig, jsonld, jsonld-compact, rdfxml)"))
			}
			d, err := in.read(env, argOrEmpty(args))
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(env.Stdout, 64<<10)
			if err := rdfio.Write(w, d, to, rdfio.WriteOptions{}); err != nil {
				return badInput(err)
			}
			return w.Flush()
		},
	}
	in.register(cmd)
	cmd.Flags().StringVarP(&to, "to", "t", "", "output syntax")
	return cmd
}
