package main

import (
	"bufio"
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
		Long: "Reads an RDF document (the embedded demo graph when no file is given) and writes it in " +
			"another syntax: nquads, ntriples (canonical RDF 1.2 form, sorted), turtle, trig, jsonld " +
			"(expanded), jsonld-compact, rdfxml; or in any format `isolda formats` lists (isolda, b-ttl-ids, " +
			"rdf_turtle3, mermaid, ...). With -f NAME it reads a lossless format of the list instead of an " +
			"RDF syntax (e.g. -f isolda -t nquads); a lossless labelled-graph format (pretty_json, dot, ...) " +
			"converts only to formats of labelled graphs.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if to == "" {
				return badInput(fmt.Errorf("convert: -t FORMAT is required (an RDF syntax or a name from `isolda formats`)"))
			}
			if stream {
				return convertStream(env, &in, argOrEmpty(args), to)
			}
			input, err := convertInput(env, &in, argOrEmpty(args))
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(env.Stdout, 64<<10)
			if f, ok := formats.Get(to); ok {
				if err := f.Encode(w, input); err != nil {
					return badInput(fmt.Errorf("convert -t %s: %w", to, err))
				}
			} else if input.Dataset == nil {
				return badInput(fmt.Errorf("convert: unknown format %q", to))
			} else if err := rdfio.Write(w, input.Dataset, to, rdfio.WriteOptions{}); err != nil {
				return badInput(err)
			}
			return w.Flush()
		},
	}
	in.register(cmd)
	cmd.Flags().StringVarP(&to, "to", "t", "", "output syntax or format name (see `isolda formats`)")
	cmd.Flags().BoolVar(&stream, "stream", false, streamHelp)
	return cmd
}

// convertInput reads the input: with -f naming a registered format that is
// not an RDF syntax, through that format's decoder; else as RDF.
func convertInput(env *Env, in *inputFlags, name string) (*formats.Input, error) {
	f, ok := formats.Get(in.from)
	if _, err := rdfio.ParseFormat(in.from); in.from == "" || err == nil || !ok {
		d, err := in.read(env, name)
		if err != nil {
			return nil, err
		}
		return formats.NewInput(d), nil
	}
	if f.Decode == nil && f.DecodeGraph == nil {
		return nil, badInput(fmt.Errorf("convert: %s is not lossless and cannot be read (lossless formats: %s)",
			f.Name, strings.Join(decodable(), ", ")))
	}
	if name == "" {
		return nil, badInput(fmt.Errorf("convert -f %s: give a FILE or - for standard input", f.Name))
	}
	r, _, closeFn, err := openInput(env, name)
	if err != nil {
		return nil, badInput(err)
	}
	defer closeFn()
	return decodeInput(f, r)
}

func decodeInput(f formats.Format, r io.Reader) (*formats.Input, error) {
	if f.Decode != nil {
		d, err := f.Decode(r)
		if err != nil {
			return nil, badInput(err)
		}
		return formats.NewInput(d), nil
	}
	g, err := f.DecodeGraph(r)
	if err != nil {
		return nil, badInput(err)
	}
	return formats.NewGraphInput(g), nil
}

// decodable lists the formats -f accepts besides the RDF syntaxes.
func decodable() []string {
	var out []string
	for _, f := range formats.All() {
		if f.Lossless {
			out = append(out, f.Name)
		}
	}
	return out
}
