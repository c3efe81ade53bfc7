package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/spf13/cobra"
)

func newConvertCmd(env *Env) *cobra.Command {
	var in inputFlags
	var to string
	var stream bool
	cmd := &cobra.Command{
		Use:   "convert [FILE|-] -t FORMAT",
		Short: "Convert RDF between syntaxes, or to any format of the format lab",
		Long: "Reads an RDF document (FILE, standard input when piped or given -, else the embedded demo graph) " +
			"and writes it in another RDF syntax: " + writableHelp() + "; or in any format that isolda formats lists (isolda, " +
			"b-ttl-ids, rdf_turtle3, mermaid, ...). Format names may use - or _ and any case (pretty-json is " +
			"pretty_json); messages print the registry's name.\n\n" +
			"With -f NAME it reads a lossless format of the list instead of an RDF syntax (-f isolda -t nquads); " +
			"a format lossless for labelled graphs only (pretty_json, dot, ...) converts only to formats of " +
			"labelled graphs.",
		Example: "  isolda convert examples/demo.ttl -t ntriples\n" +
			"  cat examples/demo.ttl | isolda convert -t b-ttl-ids\n" +
			"  isolda convert -t csv | isolda convert -f csv -t mermaid\n" +
			"  isolda encode examples/demo.ttl | isolda convert -f isolda -t turtle",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if to == "" {
				return usageError("convert: -t FORMAT is required (an RDF syntax or a name that isolda formats lists)")
			}
			if _, ok := formats.Lookup(to); !ok {
				return unknownOutputFormat("convert", to)
			}
			if stream {
				return convertStream(env, &in, argOrEmpty(args), to)
			}
			input, err := convertInput(env, &in, argOrEmpty(args))
			if err != nil {
				return err
			}
			return toStdout(env, func(w io.Writer) error { return writeFormat(w, "convert", to, input) })
		},
	}
	in.register(cmd)
	cmd.Flags().StringVarP(&to, "to", "t", "", "output format: an RDF syntax or a format name (isolda formats lists them)")
	cmd.Flags().BoolVar(&stream, "stream", false, streamHelp())
	return cmd
}

// convertInput reads the input: with -f naming a format of labelled graphs,
// through that format's graph decoder; else as an RDF dataset.
func convertInput(env *Env, in *inputFlags, name string) (*formats.Input, error) {
	f, ok := in.labFormat()
	if !ok || f.Decode != nil || f.DecodeGraph == nil {
		d, err := in.read(env, name)
		if err != nil {
			return nil, err
		}
		return formats.NewInput(d), nil
	}
	r, file, closeFn, err := in.openLab(env, f, graphSource(env, name))
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return decodeGraphInput(f, r, file)
}

// decodeGraphInput reads a labelled graph with a format's graph decoder.
func decodeGraphInput(f formats.Format, r io.Reader, file string) (*formats.Input, error) {
	g, err := f.DecodeGraph(r)
	if err != nil {
		return nil, badInput(nameParseError(err, file))
	}
	return formats.NewGraphInput(g), nil
}

// writableHelp lists the RDF syntaxes convert writes, each with its note:
// "nquads, ntriples (canonical ...), turtle, ...".
func writableHelp() string {
	var names []string
	for _, f := range rdfio.Writable() {
		s, _ := rdfio.SyntaxOf(f)
		if s.Note != "" {
			names = append(names, fmt.Sprintf("%s (%s)", f, s.Note))
		} else {
			names = append(names, string(f))
		}
	}
	return strings.Join(names, ", ")
}
