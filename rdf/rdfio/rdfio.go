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
)

// Format names an RDF syntax.
type Format string

// The RDF syntaxes (the rows of the syntax table, see Syntaxes).
const (
	NTriples      Format = "ntriples"
	NQuads        Format = "nquads"
	Turtle        Format = "turtle"
	TriG          Format = "trig"
	RDFXML        Format = "rdfxml"
	JSONLD        Format = "jsonld"
	JSONLDCompact Format = "jsonld-compact" // written only; read as JSONLD
	HTML          Format = "html"           // JSON-LD in <script type="application/ld+json"> blocks
)

// readSyntax returns the row of a syntax Read accepts by a user-typed
// name or a file extension.
func readSyntax(name string) (Syntax, bool) {
	s, ok := Lookup(name)
	return s, ok && s.Read != nil
}

// ParseFormat returns the format for a user-given name such as "ttl" or
// "n-quads".
func ParseFormat(name string) (Format, error) {
	if s, ok := readSyntax(name); ok {
		return s.Name, nil
	}
	return "", fmt.Errorf("unknown RDF syntax %q (known: %s)", name, strings.Join(ReadableNames(), ", "))
}

// FormatFromName guesses the format from a file name's extension (a .gz
// suffix is looked through); ok is false when the extension says nothing.
func FormatFromName(name string) (Format, bool) {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	ext := strings.TrimPrefix(filepath.Ext(name), ".")
	if ext == "" {
		return "", false
	}
	s, ok := readSyntax(ext)
	return s.Name, ok
}

// Sniff guesses the format from the first bytes of a document.
func Sniff(head []byte) Format {
	s := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	lower := bytes.ToLower(s[:min(len(s), 512)])
	for _, row := range syntaxTable {
		if row.Sniff != nil && row.Sniff(s, lower) {
			return row.Name
		}
	}
	return sniffDefault
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
// in memory (Syntax.WholeDocument).
func wholeDocument(f Format) bool {
	s, _ := SyntaxOf(f)
	return s.WholeDocument
}

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
	if s, ok := SyntaxOf(f); ok && s.Read != nil {
		return s.Read(in, sink, opts)
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
	s, ok := Lookup(format)
	if !ok {
		_, err := ParseFormat(format)
		return err
	}
	if s.Write == nil {
		return fmt.Errorf("cannot write %s", s.Name)
	}
	return s.Write(ctx, w, d, opts)
}
