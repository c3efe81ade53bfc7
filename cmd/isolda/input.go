package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/spf13/cobra"
)

// inputFlags are the flags of every command that reads RDF.
type inputFlags struct {
	from        string
	base        string
	strict      bool
	allowRemote bool
	contexts    []string
}

func (f *inputFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&f.from, "from", "f", "", "input syntax: nt, nq, ttl, trig, rdfxml, jsonld, html (default: by extension, else sniffed)")
	fl.StringVar(&f.base, "base", "", "base IRI for relative IRIs (default: the file's file: URL)")
	fl.BoolVar(&f.strict, "strict", false, "treat warnings such as invalid IRIs as errors")
	fl.StringArrayVar(&f.contexts, "context", nil, "serve a JSON-LD context URL from a local file: URL=FILE (repeatable)")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "let JSON-LD fetch remote contexts over the network")
}

// options builds the reader options from the flags.
func (f *inputFlags) options(env *Env) (rdfio.Options, error) {
	opts := rdfio.Options{AllowRemote: f.allowRemote}
	opts.Base, opts.Strict = f.base, f.strict
	opts.Warn = func(e *rdf.ParseError) { fmt.Fprintf(env.Stderr, "%s (warning)\n", e) }
	if f.from != "" {
		format, err := rdfio.ParseFormat(f.from)
		if err != nil {
			return opts, badInput(err)
		}
		opts.Format = format
	}
	if len(f.contexts) > 0 {
		opts.Contexts = map[string]string{}
		for _, c := range f.contexts {
			url, file, ok := strings.Cut(c, "=")
			if !ok || url == "" || file == "" {
				return opts, badInput(fmt.Errorf("--context %q: want URL=FILE", c))
			}
			opts.Contexts[url] = file
		}
	}
	return opts, nil
}

// count streams the named input without building a dataset and returns the
// number of statements read.
func (f *inputFlags) count(env *Env, name string) (int64, error) {
	opts, err := f.options(env)
	if err != nil {
		return 0, err
	}
	var n int64
	sink := rdf.SinkFunc(func(rdf.Quad) error { n++; return nil })
	var r io.Reader = env.Stdin
	opts.File = "<stdin>"
	if name == "" {
		data, err := examples.Read(examples.Default)
		if err != nil {
			return 0, err
		}
		r, opts.File = bytes.NewReader(data), "examples/"+examples.Default
	} else if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return 0, badInput(err)
		}
		defer file.Close()
		r, opts.File = file, name
		if opts.Base == "" {
			opts.Base = rdfio.FileBase(name)
		}
	}
	if err := rdfio.ReadInto(r, sink, opts); err != nil {
		return 0, badInput(err)
	}
	return n, nil
}

// read loads the named input: a file, "-" for standard input, or the
// embedded default example when name is empty. Warnings go to stderr.
func (f *inputFlags) read(env *Env, name string) (*rdf.Dataset, error) {
	opts, err := f.options(env)
	if err != nil {
		return nil, err
	}
	if name == "" {
		data, err := examples.Read(examples.Default)
		if err != nil {
			return nil, err
		}
		opts.File = "examples/" + examples.Default
		d, err := rdfio.Read(bytes.NewReader(data), opts)
		if err != nil {
			return nil, badInput(err)
		}
		return d, nil
	}
	d, err := rdfio.ReadFile(name, env.Stdin, opts)
	if err != nil {
		return nil, badInput(err)
	}
	return d, nil
}

// argOrEmpty returns the first argument or "".
func argOrEmpty(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

// openInput opens a file, or standard input for "-", and returns the reader,
// the name to use in messages, and a function that closes it.
func openInput(env *Env, name string) (io.Reader, string, func(), error) {
	if name == "-" {
		return env.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", nil, err
	}
	return f, name, func() { f.Close() }, nil
}
