package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// newStreamWriter returns the streaming writer of an RDF syntax, or an
// error for an output that cannot be written statement by statement.
func newStreamWriter(w io.Writer, to string) (rdfio.StreamWriter, error) {
	f, err := rdfio.ParseFormat(to)
	if err != nil {
		return nil, fmt.Errorf("convert --stream: %q is not an RDF syntax (--stream writes %s)", to, streamNames())
	}
	if s, _ := rdfio.SyntaxOf(f); s.Stream != nil {
		return s.Stream(w), nil
	}
	return nil, fmt.Errorf("convert --stream: %s output needs the whole graph; --stream writes %s", f, streamNames())
}

// streamNames lists the syntaxes --stream writes: "ntriples, nquads,
// turtle or trig".
func streamNames() string {
	var names []string
	for _, f := range rdfio.Streamable() {
		names = append(names, string(f))
	}
	return orList(names)
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// streamLimits are the reader limits of a streaming run: the size and
// statement-count limits protect memory, which streaming does not use, so
// they are lifted; term length and nesting stay bounded.
func streamLimits() rdf.Limits {
	return rdf.Limits{MaxBytes: -1, MaxQuads: -1}
}

// streamInto reads the named input statement by statement into sink: a
// file, - for standard input, or with no name standard input when piped,
// else the embedded demo graph; with the reader limits of streaming.
// Reading and the sink run on two goroutines (rdfio.ReadIntoPipelined).
func (f *inputFlags) streamInto(env *Env, name string, sink rdf.Sink) error {
	return f.streamIntoWrapped(env, name, sink, nil)
}

// streamIntoWrapped is streamInto with the input reader passed through
// wrap, when not nil (to count the bytes read).
func (f *inputFlags) streamIntoWrapped(env *Env, name string, sink rdf.Sink, wrap func(io.Reader) io.Reader) error {
	return f.stream(env, name, sink, wrap, false)
}

// stream is streamIntoWrapped; with transient, sink copies the strings it
// keeps (rdf.ReadOptions.Transient), which saves the readers' allocations.
func (f *inputFlags) stream(env *Env, name string, sink rdf.Sink, wrap func(io.Reader) io.Reader, transient bool) error {
	if lab, ok := f.labFormat(); ok {
		return usageError("-f %s: streaming reads the RDF syntaxes (%s), not the formats of the lab", lab.Name, strings.Join(rdfio.ReadableNames(), ", "))
	}
	opts, err := f.options(env)
	if err != nil {
		return err
	}
	opts.Limits = streamLimits()
	opts.Transient = transient
	var r io.Reader
	switch name = graphSource(env, name); name {
	case "":
		if r, opts.File, err = demoInput(env); err != nil {
			return err
		}
	default:
		in, file, closeFn, err := openInput(env, name)
		if err != nil {
			return err
		}
		defer closeFn()
		r, opts.File = in, file
		if opts.Base == "" && name != "-" {
			opts.Base = rdfio.FileBase(name)
		}
	}
	if wrap != nil {
		r = wrap(r)
	}
	if err := rdfio.ReadIntoPipelined(r, sink, opts); err != nil {
		return readError(err)
	}
	return nil
}

// convertStream converts statement by statement, in constant memory.
func convertStream(env *Env, in *inputFlags, name, to string) error {
	sw, err := newStreamWriter(env.Stdout, to)
	if err != nil {
		return badInput(err)
	}
	// The live heap is a few buffers; a tighter collector target keeps
	// the process small for little work (the readers allocate little).
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	// The writers copy what they keep of a statement, so the reader may
	// hand them views of its buffers.
	if err := in.stream(env, name, sw, nil, true); err != nil {
		sw.Flush() // what was read before the error
		return err
	}
	return sw.Flush()
}

// streamHelp documents --stream.
func streamHelp() string {
	return "write each statement as it is read, in constant memory (" + streamNames() + " output): " +
		"input order, duplicates kept, a subject's consecutive statements grouped in Turtle and TriG"
}
