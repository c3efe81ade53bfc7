package rdfio

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/rdfxml"
	"github.com/isolda/isolda/rdf/turtle"
)

// Syntax is one row of the syntax table: everything the readers, the
// writers, the CLI, the server and the format registry know of an RDF
// syntax. Adding a syntax is its package and one row in syntaxTable.
type Syntax struct {
	// Name is the canonical name (the format registry's name of a
	// writable syntax).
	Name Format
	// Short is the name the help text and messages list for reading.
	Short string
	// Aliases are the other names users type, in any case.
	Aliases []string
	// Extensions are the file name extensions, without the dot (a name
	// is also looked up as an extension, and an extension as a name).
	Extensions []string
	// MediaTypes are the media types of the syntax in lower case, the
	// registered one first (HTTP answers are read by ByMediaType).
	MediaTypes []string
	// Sniff reports whether the first bytes of a document (byte order
	// mark and leading white space removed; lower is the first 512 of
	// them in lower case) are in this syntax; nil for syntaxes that are
	// not told apart by their content (TriG, the fallback, reads Turtle,
	// N-Triples and N-Quads too).
	Sniff func(s, lower []byte) bool
	// Read parses a document into sink; nil for a syntax only written.
	Read func(in io.Reader, sink rdf.Sink, opts Options) error
	// WholeDocument is true when Read keeps the whole document in memory
	// (JSON-LD needs all of it before expanding), so that a gzip input is
	// bounded by Options.MaxDecompressed even when streamed.
	WholeDocument bool
	// Views is true when Read gives views of its buffer with
	// ReadOptions.Transient, which ReadIntoPipelined copies.
	Views bool
	// Write writes a dataset; nil for a syntax only read.
	Write func(ctx context.Context, w io.Writer, d *rdf.Dataset, opts WriteOptions) error
	// WriteRank orders the writable syntaxes in Writable (the lists of
	// output syntaxes in help text and messages); ties keep table order.
	WriteRank int
	// ReadBy is the syntax that reads this one's output back when it is
	// not Name itself (compacted JSON-LD is read as JSON-LD).
	ReadBy Format
	// Stream returns a writer that takes statements one at a time, for
	// `convert --stream`; nil when the output needs the whole graph.
	Stream func(w io.Writer) StreamWriter
	// Note says in a few words what the output is like, for help text
	// ("expanded"); empty for most.
	Note string
	// Loses says what writing drops of a dataset (the format registry's
	// Loses); empty when the output keeps everything.
	Loses string
}

// StreamWriter is a writer that takes statements one at a time and writes
// them as they come; Flush writes what is buffered.
type StreamWriter interface {
	rdf.Sink
	Flush() error
}

// graphsOnly is what the syntaxes without named graphs lose.
const graphsOnly = "named graphs cannot be written (encoding a dataset with named graphs is an error)"

// ntriplesRow is the row of N-Triples or N-Quads (syn).
func ntriplesRow(name Format, short, alias string, mediaTypes []string, syn ntriples.Syntax, rank int, note, loses string) Syntax {
	return Syntax{
		Name: name, Short: short, Aliases: []string{alias}, Extensions: []string{short}, MediaTypes: mediaTypes,
		Read: func(in io.Reader, sink rdf.Sink, opts Options) error {
			return ntriples.Parse(in, syn, sink, opts.ReadOptions)
		},
		Views: true,
		Write: func(_ context.Context, w io.Writer, d *rdf.Dataset, _ WriteOptions) error {
			return ntriples.Write(w, d, syn)
		},
		WriteRank: rank,
		Stream:    func(w io.Writer) StreamWriter { return ntriples.NewWriter(w, syn) },
		Note:      note,
		Loses:     loses,
	}
}

// turtleRow is the row of Turtle or TriG (syn).
func turtleRow(name Format, short string, mediaTypes []string, syn turtle.Syntax, rank int, loses string) Syntax {
	return Syntax{
		Name: name, Short: short, Extensions: []string{short}, MediaTypes: mediaTypes,
		Read: func(in io.Reader, sink rdf.Sink, opts Options) error {
			return turtle.Parse(in, syn, sink, opts.ReadOptions)
		},
		Views: true,
		Write: func(ctx context.Context, w io.Writer, d *rdf.Dataset, opts WriteOptions) error {
			return turtle.WriteContext(ctx, w, d, syn, turtle.WriteOptions{Prefixes: opts.Prefixes, Base: opts.Base})
		},
		WriteRank: rank,
		Stream:    func(w io.Writer) StreamWriter { return turtle.NewStreamWriter(w, syn, nil) },
		Loses:     loses,
	}
}

// syntaxTable is the syntax table, in the order of Readable.
var syntaxTable = []Syntax{
	ntriplesRow(NTriples, "nt", "n-triples", []string{"application/n-triples", "text/ntriples", "application/ntriples"}, ntriples.NTriples, 1, "canonical RDF 1.2 form with language tags as written, sorted", graphsOnly),
	ntriplesRow(NQuads, "nq", "n-quads", []string{"application/n-quads", "text/x-nquads"}, ntriples.NQuads, 0, "", ""),
	turtleRow(Turtle, "ttl", []string{"text/turtle", "application/turtle", "application/x-turtle"}, turtle.Turtle, 2, graphsOnly),
	turtleRow(TriG, "trig", []string{"application/trig"}, turtle.TriG, 3, ""),
	{
		Name: RDFXML, Short: "rdfxml", Aliases: []string{"rdf/xml"}, Extensions: []string{"rdf", "xml", "owl"},
		MediaTypes: []string{"application/rdf+xml"},
		Sniff:      func(s, lower []byte) bool { return xmlStart(s) && !bytes.Contains(lower, []byte("<html")) },
		Read: func(in io.Reader, sink rdf.Sink, opts Options) error {
			return rdfxml.Parse(in, sink, opts.ReadOptions)
		},
		Write: func(_ context.Context, w io.Writer, d *rdf.Dataset, _ WriteOptions) error {
			return rdfxml.Write(w, d, rdfxml.WriteOptions{})
		},
		WriteRank: 6,
		Loses:     graphsOnly + "; so can predicates whose IRI does not end in an XML name and text with characters XML 1.0 forbids (C0 controls other than tab, LF, CR)",
	},
	{
		Name: JSONLD, Short: "jsonld", Aliases: []string{"json-ld"}, Extensions: []string{"jsonld", "json"},
		MediaTypes: []string{"application/ld+json", "application/json"},
		Sniff:      func(s, _ []byte) bool { return bytes.HasPrefix(s, []byte("{")) || bytes.HasPrefix(s, []byte("[")) },
		Read: func(in io.Reader, sink rdf.Sink, opts Options) error {
			return jsonld.Parse(in, sink, jsonldOptions(opts))
		},
		WholeDocument: true,
		Write: func(ctx context.Context, w io.Writer, d *rdf.Dataset, _ WriteOptions) error {
			return jsonld.WriteContext(ctx, w, d, jsonld.WriteOptions{Form: jsonld.Expanded})
		},
		WriteRank: 4,
		Note:      "expanded",
	},
	{
		Name: JSONLDCompact, Aliases: []string{"jsonld-compacted", "compact-jsonld", "json-ld-compact"},
		Write: func(ctx context.Context, w io.Writer, d *rdf.Dataset, opts WriteOptions) error {
			return jsonld.WriteContext(ctx, w, d, jsonld.WriteOptions{Form: jsonld.Compacted, Context: opts.Context})
		},
		WriteRank: 5,
		ReadBy:    JSONLD,
	},
	{
		Name: HTML, Short: "html", Extensions: []string{"html", "htm", "xhtml"},
		Sniff: func(s, lower []byte) bool {
			return bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")) ||
				xmlStart(s) && bytes.Contains(lower, []byte("<html"))
		},
		Read: func(in io.Reader, sink rdf.Sink, opts Options) error {
			return jsonld.ParseHTML(in, sink, jsonldOptions(opts))
		},
		WholeDocument: true,
	},
}

// sniffDefault is what Sniff returns when no row's Sniff claims the
// document: TriG is a superset of Turtle, N-Triples and N-Quads.
const sniffDefault = TriG

// xmlStart reports whether a document starts as XML does.
func xmlStart(s []byte) bool {
	return bytes.HasPrefix(s, []byte("<?xml")) || bytes.HasPrefix(s, []byte("<rdf:")) || bytes.HasPrefix(s, []byte("<!--"))
}

// jsonldOptions are the JSON-LD reader's options of opts.
func jsonldOptions(opts Options) jsonld.Options {
	return jsonld.Options{ReadOptions: opts.ReadOptions, Contexts: opts.Contexts, AllowRemote: opts.AllowRemote}
}

// Syntaxes returns the syntax table, in the order of Readable then the
// syntaxes only written; the slice is the caller's own.
func Syntaxes() []Syntax { return slices.Clone(syntaxTable) }

// SyntaxOf returns the row of a syntax by its canonical name.
func SyntaxOf(f Format) (Syntax, bool) {
	for _, s := range syntaxTable {
		if s.Name == f {
			return s, true
		}
	}
	return Syntax{}, false
}

// Lookup returns the row that a user-typed name (any case, surrounding
// white space ignored) or a file extension names, written-only syntaxes
// included (ParseFormat takes only those Read accepts).
func Lookup(name string) (Syntax, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, s := range syntaxTable {
		if string(s.Name) == key || s.Short == key || slices.Contains(s.Aliases, key) || slices.Contains(s.Extensions, key) {
			return s, true
		}
	}
	return Syntax{}, false
}

// ByMediaType returns the readable syntax of a media type (any case,
// parameters such as charset already removed), for HTTP answers.
func ByMediaType(mediaType string) (Syntax, bool) {
	key := strings.ToLower(strings.TrimSpace(mediaType))
	for _, s := range syntaxTable {
		if s.Read != nil && slices.Contains(s.MediaTypes, key) {
			return s, true
		}
	}
	return Syntax{}, false
}

// Readable returns the syntaxes Read accepts, in a fixed order.
func Readable() []Format {
	return names(rows(func(s Syntax) bool { return s.Read != nil }))
}

// ReadableNames returns the short names of the syntaxes Read accepts, in
// the order of Readable (nt, nq, ttl, ...), for help text.
func ReadableNames() []string {
	var out []string
	for _, s := range rows(func(s Syntax) bool { return s.Read != nil }) {
		out = append(out, s.Short)
	}
	return out
}

// Writable returns the syntaxes Write produces, in the order of their
// WriteRank.
func Writable() []Format {
	w := rows(func(s Syntax) bool { return s.Write != nil })
	slices.SortStableFunc(w, func(a, b Syntax) int { return cmp.Compare(a.WriteRank, b.WriteRank) })
	return names(w)
}

// Streamable returns the syntaxes that have a Stream writer, in table
// order.
func Streamable() []Format {
	return names(rows(func(s Syntax) bool { return s.Stream != nil }))
}

// rows returns the rows of the syntax table that keep accepts, in table
// order.
func rows(keep func(Syntax) bool) []Syntax {
	var out []Syntax
	for _, s := range syntaxTable {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// names returns the names of rows, in order.
func names(rows []Syntax) []Format {
	out := make([]Format, len(rows))
	for i, s := range rows {
		out[i] = s.Name
	}
	return out
}
