package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/spf13/cobra"
	"golang.org/x/term"
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
	fl.StringVarP(&f.from, "from", "f", "", "input syntax: "+strings.Join(rdfio.ReadableNames(), ", ")+" (default: by extension, else sniffed)")
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
		if _, lab := f.labFormat(); err != nil && !lab {
			return opts, usageError("-f %q: unknown input format%s\nRDF syntaxes:\n    %s\nlossless lab formats:\n%s",
				f.from, suggest(f.from, append(formats.Names(), string(rdfio.HTML))), strings.Join(rdfio.ReadableNames(), ", "), wrapText(strings.Join(labFormatNames(true, false), ", "), helpWidth, "    "))
		}
		opts.Format = format
	}
	if len(f.contexts) > 0 {
		opts.Contexts = map[string]string{}
		for _, c := range f.contexts {
			url, file, ok := strings.Cut(c, "=")
			if !ok || url == "" || file == "" {
				return opts, usageError("--context %q: want URL=FILE", c)
			}
			opts.Contexts[url] = file
		}
	}
	return opts, nil
}

// labFormat returns the format of the format lab that -f names when it
// names one that is not an RDF syntax (-f isolda, -f b-json, -f csv).
func (f *inputFlags) labFormat() (formats.Format, bool) {
	if f.from == "" {
		return formats.Format{}, false
	}
	if _, err := rdfio.ParseFormat(f.from); err == nil {
		return formats.Format{}, false
	}
	return formats.Lookup(f.from)
}

// stdinPiped reports whether standard input carries data for the command:
// a pipe or a redirected file, not a terminal nor another character device
// such as /dev/null. A reader that is not a file (tests) is piped; nil is
// not.
func (env *Env) stdinPiped() bool {
	switch in := env.Stdin.(type) {
	case nil:
		return false
	case *os.File:
		st, err := in.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice == 0
	}
	return true
}

// stdinTerminal reports whether standard input is an interactive terminal.
func (env *Env) stdinTerminal() bool {
	f, ok := env.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// demoNote says on stderr that a command reads the embedded demo graph
// because it got no FILE and standard input is neither piped nor a
// terminal (such as </dev/null, or an empty variable for FILE), where
// the fallback would otherwise go unnoticed.
func demoNote(env *Env) {
	if env.Stdin != nil && !env.stdinTerminal() {
		fmt.Fprintf(env.Stderr, "isolda: no FILE and nothing piped: reading the embedded demo graph (examples/%s)\n", examples.Default)
	}
}

// demoInput opens the embedded demo graph, the input of a command given
// no FILE with nothing piped (demoNote says so), and returns its name in
// messages.
func demoInput(env *Env) (io.Reader, string, error) {
	demoNote(env)
	data, err := examples.Read(examples.Default)
	if err != nil {
		return nil, "", err
	}
	return bytes.NewReader(data), "examples/" + examples.Default, nil
}

// graphSource resolves the FILE argument of a command that reads a graph:
// "-" or, with no FILE, piped standard input, gives "-"; with no FILE and
// nothing piped, "" (the embedded demo graph).
func graphSource(env *Env, name string) string {
	if name == "" && env.stdinPiped() {
		return "-"
	}
	return name
}

// count streams the named input without building a dataset and returns the
// number of statements read.
func (f *inputFlags) count(env *Env, name string) (int64, error) {
	if _, ok := f.labFormat(); ok {
		d, err := f.read(env, name)
		if err != nil {
			return 0, err
		}
		return int64(d.Len()), nil
	}
	var n int64
	err := f.streamInto(env, name, rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }))
	return n, err
}

// read loads the named input: a file, "-" for standard input, or with no
// name standard input when it is piped, else the embedded demo graph.
// Warnings go to stderr.
func (f *inputFlags) read(env *Env, name string) (*rdf.Dataset, error) {
	opts, err := f.options(env)
	if err != nil {
		return nil, err
	}
	name = graphSource(env, name)
	if lab, ok := f.labFormat(); ok {
		switch {
		case lab.Decode == nil && lab.DecodeGraph == nil:
			return nil, usageError("-f %s: %s is lossy and cannot be read back (lossless formats: %s)",
				lab.Name, lab.Name, strings.Join(labFormatNames(true, false), ", "))
		case lab.Decode == nil:
			return nil, usageError("-f %s: %s decodes to a labelled graph, not an RDF dataset (isolda convert -f %s "+
				"writes its graph in another format; formats that decode to RDF: %s)",
				lab.Name, lab.Name, lab.Name, strings.Join(labFormatNames(true, true), ", "))
		}
		r, file, closeFn, err := f.openLab(env, lab, name)
		if err != nil {
			return nil, err
		}
		defer closeFn()
		d, err := lab.Decode(r)
		if err != nil {
			return nil, badInput(nameParseError(err, file))
		}
		return d, nil
	}
	if name == "" {
		r, file, err := demoInput(env)
		if err != nil {
			return nil, err
		}
		opts.File = file
		d, err := rdfio.Read(r, opts)
		if err != nil {
			return nil, readError(err)
		}
		return d, nil
	}
	stdin := env.Stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	d, err := rdfio.ReadFile(name, stdin, opts)
	if err != nil {
		return nil, readError(err)
	}
	return d, nil
}

// openLab opens the input of a lab format given by -f: FILE or standard
// input (the demo graph is Turtle, so no FILE and nothing piped is an
// error).
func (f *inputFlags) openLab(env *Env, lab formats.Format, name string) (io.Reader, string, func(), error) {
	if name == "" {
		return nil, "", nil, usageError("-f %s: give a FILE, or pipe the document into standard input", lab.Name)
	}
	return openInput(env, name)
}

// readError turns a read error into a bad-input error; a JSON-LD context
// that could not be loaded gets the flags that fix it.
func readError(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "remote context") || strings.Contains(msg, "loading document failed") {
		err = fmt.Errorf("%w (isolda reads JSON-LD offline: give --context URL=FILE with a local copy of the context, "+
			"or --allow-remote to fetch it)", err)
	}
	return badInput(err)
}

// argOrEmpty returns the first argument or "".
func argOrEmpty(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

// openInput opens a file, or standard input for "-", and returns the reader,
// the name to use in messages, and a function that closes it; a file that
// does not open is bad input.
func openInput(env *Env, name string) (io.Reader, string, func(), error) {
	if name == "-" {
		if env.Stdin == nil {
			return strings.NewReader(""), "<stdin>", func() {}, nil
		}
		return env.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", nil, badInput(err)
	}
	return f, name, func() { f.Close() }, nil
}

// openDocument opens the FILE argument of a command that has no demo input
// (decode, tokens, convert -f with a lab format): FILE, or standard input
// for "-" or no FILE. With no FILE and a terminal on standard input it
// fails instead of waiting for typed text (give - to type it).
func openDocument(env *Env, cmdName, name string) (io.Reader, string, func(), error) {
	if name == "" {
		if env.stdinTerminal() || env.Stdin == nil {
			return nil, "", nil, usageError("%s: no input: give a FILE, pipe it into standard input, or give - to type it", cmdName)
		}
		name = "-"
	}
	return openInput(env, name)
}
