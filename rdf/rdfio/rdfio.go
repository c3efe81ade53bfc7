// Package rdfio is the one entry point for reading and writing RDF in any
// syntax isolda supports: it picks the syntax from an explicit name, the
// file extension or the content, and dispatches to the syntax packages.
package rdfio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/rdfxml"
	"github.com/isolda/isolda/rdf/turtle"
)

// Format names an RDF syntax.
type Format string

// The RDF syntaxes.
const (
	NTriples Format = "ntriples"
	NQuads   Format = "nquads"
	Turtle   Format = "turtle"
	TriG     Format = "trig"
	RDFXML   Format = "rdfxml"
	JSONLD   Format = "jsonld"
	HTML     Format = "html" // JSON-LD in <script type="application/ld+json"> blocks
)

// Readable returns the syntaxes Read accepts, in a fixed order.
func Readable() []Format { return []Format{NTriples, NQuads, Turtle, TriG, RDFXML, JSONLD, HTML} }

// Writable returns the syntaxes Write produces.
func Writable() []Format {
	return []Format{NQuads, NTriples, Turtle, TriG, JSONLD, "jsonld-compact", RDFXML}
}

// aliases maps the names users type to formats.
func parseFormatName(name string) (Format, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "nt", "ntriples", "n-triples":
		return NTriples, true
	case "nq", "nquads", "n-quads":
		return NQuads, true
	case "ttl", "turtle":
		return Turtle, true
	case "trig":
		return TriG, true
	case "rdf", "xml", "rdfxml", "rdf/xml", "owl":
		return RDFXML, true
	case "jsonld", "json-ld", "json":
		return JSONLD, true
	case "html", "htm", "xhtml":
		return HTML, true
	}
	return "", false
}

// ParseFormat returns the format for a user-given name such as "ttl" or
// "n-quads".
func ParseFormat(name string) (Format, error) {
	if f, ok := parseFormatName(name); ok {
		return f, nil
	}
	return "", fmt.Errorf("unknown RDF syntax %q (known: nt, nq, ttl, trig, rdfxml, jsonld, html)", name)
}

// FormatFromName guesses the format from a file name's extension (a .gz
// suffix is looked through); ok is false when the extension says nothing.
func FormatFromName(name string) (Format, bool) {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	ext := strings.TrimPrefix(filepath.Ext(name), ".")
	if ext == "" {
		return "", false
	}
	return parseFormatName(ext)
}

// Sniff guesses the format from the first bytes of a document.
func Sniff(head []byte) Format {
	s := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	lower := bytes.ToLower(s[:min(len(s), 512)])
	switch {
	case bytes.HasPrefix(s, []byte("{")) || bytes.HasPrefix(s, []byte("[")):
		return JSONLD
	case bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")):
		return HTML
	case bytes.HasPrefix(s, []byte("<?xml")) || bytes.HasPrefix(s, []byte("<rdf:")) || bytes.HasPrefix(s, []byte("<!--")):
		if bytes.Contains(lower, []byte("<html")) {
			return HTML
		}
		return RDFXML
	}
	// TriG is a superset of Turtle, N-Triples and N-Quads.
	return TriG
}

// Options configure Read.
type Options struct {
	rdf.ReadOptions
	// Format is the syntax; empty means from the file name, else sniffed.
	Format Format
	// Contexts maps JSON-LD context URLs to local files.
	Contexts map[string]string
	// AllowRemote lets the JSON-LD reader fetch contexts from the network.
	AllowRemote bool
	// MaxDecompressed bounds what Read and ReadFile, which build the whole
	// dataset in memory, accept from a gzip input once decompressed: 0
	// means DefaultMaxDecompressed, negative no bound (beyond
	// Limits.MaxBytes). ReadInto, which streams, is bounded by it only for
	// JSON-LD (whose reader needs the whole document).
	MaxDecompressed int64
}

// DefaultMaxDecompressed is the default Options.MaxDecompressed: 1 GiB of
// text already makes a dataset of several GB; larger gzip inputs (or a
// small .gz that unpacks to gigabytes) are for the streaming commands.
const DefaultMaxDecompressed = 1 << 30

// Read reads one document into a new dataset.
func Read(r io.Reader, opts Options) (*rdf.Dataset, error) {
	d := rdf.NewDataset()
	d.Base = opts.Base
	in, f, gz, done, err := prepareGzip(r, opts)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := parseLimited(in, f, gz, d, opts); err != nil {
		return nil, err
	}
	return d, nil
}

// parseLimited is parse with the MaxDecompressed bound on a gzip input.
func parseLimited(in io.Reader, f Format, gz bool, sink rdf.Sink, opts Options) error {
	max := opts.MaxDecompressed
	if max < 0 || !gz {
		return parse(in, f, sink, opts)
	}
	if max == 0 {
		max = DefaultMaxDecompressed
	}
	lim := &decompressLimit{r: in, left: max, max: max}
	err := parse(lim, f, sink, opts)
	if err != nil && lim.hit {
		return &rdf.ParseError{File: opts.File, Offset: lim.max,
			Msg: fmt.Sprintf("gzip input larger than %d bytes once decompressed: too large to load in memory (the streaming commands, such as convert --stream, stats --count and chunk, read N-Triples, N-Quads, Turtle and TriG of any size)", lim.max),
			Err: rdf.ErrLimit}
	}
	return err
}

// wholeDocument reports whether the reader of f keeps the whole document
// in memory (JSON-LD needs all of it before expanding), so that a gzip
// input is bounded by MaxDecompressed even when streamed.
func wholeDocument(f Format) bool { return f == JSONLD || f == HTML }

// decompressLimit fails reads past max bytes.
type decompressLimit struct {
	r         io.Reader
	left, max int64
	hit       bool
}

func (l *decompressLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		if n, err := l.r.Read(one[:]); n == 0 && err == io.EOF {
			return 0, io.EOF // exactly max bytes
		}
		l.hit = true
		return 0, fmt.Errorf("decompressed input larger than %d bytes: %w", l.max, rdf.ErrLimit)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// ReadInto reads one document into a sink (a *rdf.Dataset also receives the
// prefixes).
func ReadInto(r io.Reader, sink rdf.Sink, opts Options) error {
	in, f, gz, done, err := prepareGzip(r, opts)
	if err != nil {
		return err
	}
	defer done()
	if wholeDocument(f) {
		return parseLimited(in, f, gz, sink, opts)
	}
	return parse(in, f, sink, opts)
}

// prepareGzip unpacks a gzip stream and decides the syntax: opts.Format,
// else from the file name, else sniffed; it tells whether the input was
// gzipped, and done releases the gzip reader.
func prepareGzip(r io.Reader, opts Options) (in *bufio.Reader, f Format, gz bool, done func(), err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(2)
	done = func() {}
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, "", false, nil, &rdf.ParseError{File: opts.File, Msg: "bad gzip stream: " + err.Error()}
		}
		done = func() { zr.Close() }
		br = bufio.NewReaderSize(zr, 64<<10)
		gz = true
	}
	f = opts.Format
	if f == "" {
		if g, ok := FormatFromName(opts.File); ok {
			f = g
		} else {
			h, _ := br.Peek(4096)
			f = Sniff(h)
		}
	}
	return br, f, gz, done, nil
}

// parse reads a document of syntax f into sink.
func parse(in io.Reader, f Format, sink rdf.Sink, opts Options) error {
	switch f {
	case NTriples:
		return ntriples.Parse(in, ntriples.NTriples, sink, opts.ReadOptions)
	case NQuads:
		return ntriples.Parse(in, ntriples.NQuads, sink, opts.ReadOptions)
	case Turtle:
		return turtle.Parse(in, turtle.Turtle, sink, opts.ReadOptions)
	case TriG:
		return turtle.Parse(in, turtle.TriG, sink, opts.ReadOptions)
	case RDFXML:
		return rdfxml.Parse(in, sink, opts.ReadOptions)
	case JSONLD, HTML:
		jo := jsonld.Options{ReadOptions: opts.ReadOptions, Contexts: opts.Contexts, AllowRemote: opts.AllowRemote}
		if f == HTML {
			return jsonld.ParseHTML(in, sink, jo)
		}
		return jsonld.Parse(in, sink, jo)
	}
	return fmt.Errorf("unknown RDF syntax %q", f)
}

// FileBase returns the file: URL of a path, the base IRI used for a file
// read without an explicit base (as rapper and rdflib do).
func FileBase(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// ReadFile reads a file ("-" is standard input, read from stdin). Without a
// base in opts, the base is the file's file: URL.
func ReadFile(path string, stdin io.Reader, opts Options) (*rdf.Dataset, error) {
	if path == "-" || path == "" {
		if opts.File == "" {
			opts.File = "<stdin>"
		}
		return Read(stdin, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if opts.File == "" {
		opts.File = path
	}
	if opts.Base == "" {
		opts.Base = FileBase(path)
	}
	return Read(f, opts)
}

// WriteOptions configure Write.
type WriteOptions struct {
	// Prefixes for Turtle, TriG and RDF/XML; nil means the dataset's own.
	Prefixes []rdf.Prefix
	// Base IRI for Turtle and TriG.
	Base string
	// Context is the JSON-LD context for compacted output.
	Context any
}

// Write writes a dataset in the named syntax. "jsonld" is expanded JSON-LD;
// "jsonld-compact" is compacted with opts.Context (default: the prefixes).
func Write(w io.Writer, d *rdf.Dataset, format string, opts WriteOptions) error {
	return WriteContext(context.Background(), w, d, format, opts)
}

// WriteContext is Write with a context: the Turtle, TriG and JSON-LD
// writers stop with ctx.Err() soon after ctx is cancelled; the others,
// which write as they go in linear time, are not interrupted.
func WriteContext(ctx context.Context, w io.Writer, d *rdf.Dataset, format string, opts WriteOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	prefixes := opts.Prefixes // nil lets each writer choose its defaults
	switch strings.ToLower(format) {
	case "jsonld-compact", "jsonld-compacted", "compact-jsonld":
		return jsonld.WriteContext(ctx, w, d, jsonld.WriteOptions{Form: jsonld.Compacted, Context: opts.Context})
	}
	f, err := ParseFormat(format)
	if err != nil {
		return err
	}
	switch f {
	case NTriples:
		return ntriples.Write(w, d, ntriples.NTriples)
	case NQuads:
		return ntriples.Write(w, d, ntriples.NQuads)
	case Turtle:
		return turtle.WriteContext(ctx, w, d, turtle.Turtle, turtle.WriteOptions{Prefixes: prefixes, Base: opts.Base})
	case TriG:
		return turtle.WriteContext(ctx, w, d, turtle.TriG, turtle.WriteOptions{Prefixes: prefixes, Base: opts.Base})
	case JSONLD:
		return jsonld.WriteContext(ctx, w, d, jsonld.WriteOptions{Form: jsonld.Expanded})
	case RDFXML:
		return rdfxml.Write(w, d, rdfxml.WriteOptions{})
	}
	return fmt.Errorf("cannot write %s", f)
}
