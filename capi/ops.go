package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/cgo"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// The operations of isolda_call.
const (
	opEncode = 1 // request: encodeRequest; data: the source; result: the document
	opDecode = 2 // request: decodeRequest; data: the document; result: the packed dataset
	opCheck  = 3 // request: encodeRequest; data: the source; result: checkResult as JSON
	opTokens = 4 // request: tokensRequest; data: the text; result: tokensResult as JSON
	opChunk  = 5 // request: chunkRequest; data: the source; result: JSON lines
	// request: {}; data: none; result: the readable RDF syntaxes of
	// rdfio's table as JSON (a list of syntaxRow), the names -f takes
	opSyntaxes = 6
)

// syntaxRow is a readable RDF syntax of rdfio's table.
type syntaxRow struct {
	Name       string   `json:"name"`  // the canonical name
	Short      string   `json:"short"` // the name help text lists
	Aliases    []string `json:"aliases"`
	Extensions []string `json:"extensions"`
}

// The statuses of isolda_call; the result holds what the status says.
const (
	statusOK         = 0 // the operation's result
	statusParseError = 1 // a parseErrorResult as JSON
	statusValueError = 2 // the message of a bad argument (an option, a value)
	statusError      = 3 // the message of any other failure
	statusPanic      = 4 // the panic's value and stack: a bug in isolda
)

// source says where the RDF input of encode, check and chunk is: the
// fields of the CLI's input flags, and how the data reached the call.
type source struct {
	// Kind is "path" (Path names a file, read as the CLI reads its FILE),
	// "text" (the data is a document in Format) or "packed" (the data is
	// a packed dataset).
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	File   string `json:"file"`   // the name of a text in error messages; empty: <string>
	Format string `json:"format"` // the CLI's -f: a readable syntax (opSyntaxes); empty: by name, else sniffed
	Base   string `json:"base"`   // the CLI's --base
	Strict bool   `json:"strict"` // the CLI's --strict
}

// encodeRequest is the request of encode and check.
type encodeRequest struct {
	Source  source         `json:"source"`
	Options isolda.Options `json:"options"` // the Go field names
}

// decodeRequest is the request of decode.
type decodeRequest struct {
	File string `json:"file"` // the document's name in error messages
	// To, when set, asks for the dataset written in this format of the
	// registry (nquads, turtle, ...: as isolda decode -t) instead of
	// packed.
	To string `json:"to"`
}

// tokensRequest is the request of tokens.
type tokensRequest struct {
	Registry  uintptr `json:"registry"` // a handle from isolda_registry
	Tokenizer string  `json:"tokenizer"`
	IDs       bool    `json:"ids"`
}

// tokensResult is the result of tokens.
type tokensResult struct {
	Count int   `json:"count"`
	IDs   []int `json:"ids,omitempty"`
}

// chunkRequest is the request of chunk: the CLI's flags.
type chunkRequest struct {
	Source   source        `json:"source"`
	Registry uintptr       `json:"registry"`
	Options  chunk.Options `json:"options"`
	Classes  []string      `json:"classes"` // IRIs or prefixed names, as --class
	Memory   int64         `json:"memory"`  // sort memory in bytes; 0: chunk.DefaultMemory
	TmpDir   string        `json:"tmp_dir"`
}

// checkResult is the result of check.
type checkResult struct {
	Isomorphic bool     `json:"isomorphic"`
	Bytes      int      `json:"bytes"`
	Quads      int      `json:"quads"`
	Missing    []string `json:"missing"`
	Extra      []string `json:"extra"`
}

// parseErrorResult is a positioned error of the input.
type parseErrorResult struct {
	Message string `json:"message"`
	Msg     string `json:"msg"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Offset  int64  `json:"offset"`
}

// valueError marks a bad argument.
type valueError struct{ msg string }

func (e valueError) Error() string { return e.msg }

func badValue(format string, args ...any) error { return valueError{fmt.Sprintf(format, args...)} }

// call runs one operation and returns its status and result. A panic is
// recovered and reported as statusPanic, so that it never reaches the
// caller's process.
func call(op int, req, data []byte) (status int, out []byte) {
	defer func() {
		if v := recover(); v != nil {
			status, out = statusPanic, fmt.Appendf(nil, "isolda: internal error (please report it): %v\n%s", v, debug.Stack())
		}
	}()
	out, err := dispatch(op, req, data)
	if err == nil {
		return statusOK, out
	}
	return failure(err, data)
}

// failure returns the status and result of an operation's error; data is
// the operation's input (for the byte offset of a parse error).
func failure(err error, data []byte) (status int, out []byte) {
	var pe *rdf.ParseError
	var ve valueError
	switch {
	case errors.As(err, &pe):
		if pe.Offset == 0 && pe.Line > 0 {
			pe.Offset = offsetOf(data, pe.Line, pe.Column)
		}
		b, _ := json.Marshal(parseErrorResult{Message: err.Error(), Msg: pe.Msg, File: pe.File, Line: pe.Line, Column: pe.Column, Offset: pe.Offset})
		return statusParseError, b
	case errors.As(err, &ve), errors.Is(err, errPacked):
		return statusValueError, []byte(err.Error())
	}
	return statusError, []byte(err.Error())
}

func dispatch(op int, req, data []byte) ([]byte, error) {
	switch op {
	case opEncode:
		return withRequest(req, data, encode)
	case opDecode:
		return withRequest(req, data, decode)
	case opCheck:
		return withRequest(req, data, check)
	case opTokens:
		return withRequest(req, data, tokens)
	case opChunk:
		return withRequest(req, data, chunkDocs)
	case opSyntaxes:
		return syntaxes()
	}
	return nil, badValue("isolda: unknown operation %d", op)
}

// withRequest decodes the JSON request of an operation (unknown fields are
// an error) and calls op with it and the data.
func withRequest[R any](req, data []byte, op func(R, []byte) ([]byte, error)) ([]byte, error) {
	var r R
	if err := decodeRequestJSON(req, &r); err != nil {
		return nil, err
	}
	return op(r, data)
}

// decode is opDecode: the dataset of an ISOLDA document, packed, or written
// in the format r.To.
func decode(r decodeRequest, data []byte) ([]byte, error) {
	var f formats.Format
	if r.To != "" {
		var ok bool
		if f, ok = formats.Lookup(r.To); !ok {
			return nil, badValue("isolda: unknown format %q (one of: %s)", r.To, strings.Join(formats.Names(), ", "))
		}
	}
	d, err := isolda.DecodeWith(bytes.NewReader(data), isolda.DecodeOptions{File: r.File})
	if err != nil {
		return nil, err
	}
	if r.To == "" {
		return pack(d)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, formats.NewInput(d)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// syntaxes is the result of opSyntaxes.
func syntaxes() ([]byte, error) {
	rows := []syntaxRow{}
	for _, s := range rdfio.Syntaxes() {
		if s.Read != nil {
			rows = append(rows, syntaxRow{Name: string(s.Name), Short: s.Short, Aliases: append([]string{}, s.Aliases...), Extensions: append([]string{}, s.Extensions...)})
		}
	}
	return json.Marshal(rows)
}

func decodeRequestJSON(req []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(req))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badValue("isolda: bad request: %v", err)
	}
	return nil
}

// readOptions are the reader options of a source, as the CLI builds them
// from its input flags.
func readOptions(s source) (rdfio.Options, error) {
	opts := rdfio.Options{}
	opts.Base, opts.Strict = s.Base, s.Strict
	if s.Format != "" {
		f, err := rdfio.ParseFormat(s.Format)
		if err != nil {
			return opts, badValue("isolda: unknown format %q (want %s)", s.Format, strings.Join(rdfio.ReadableNames(), ", "))
		}
		opts.Format = f
	}
	return opts, nil
}

// readSource reads the dataset of a source: a file as the CLI reads its
// FILE argument, a document as the CLI reads standard input, or a packed
// dataset.
func readSource(s source, data []byte) (*rdf.Dataset, error) {
	opts, err := readOptions(s)
	if err != nil {
		return nil, err
	}
	switch s.Kind {
	case "path":
		return rdfio.ReadFile(s.Path, nil, opts)
	case "text":
		opts.File = s.File
		if opts.File == "" {
			opts.File = "<string>"
		}
		return rdfio.Read(bytes.NewReader(data), opts)
	case "packed":
		return unpack(data)
	}
	return nil, badValue("isolda: unknown source kind %q", s.Kind)
}

// checkOptions reports bad options as a value error: the encoder refuses
// them on any dataset, the empty one included.
func checkOptions(o isolda.Options) error {
	o.Anchor, o.Hops = "", 0
	if err := isolda.Encode(io.Discard, rdf.NewDataset(), o); err != nil {
		return valueError{err.Error()}
	}
	return nil
}

// dataset checks the options of an encode or check request and reads its
// graph from data.
func (r encodeRequest) dataset(data []byte) (*rdf.Dataset, error) {
	if err := checkOptions(r.Options); err != nil {
		return nil, err
	}
	return readSource(r.Source, data)
}

func encode(r encodeRequest, data []byte) ([]byte, error) {
	d, err := r.dataset(data)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := isolda.Encode(&buf, d, r.Options); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func check(r encodeRequest, data []byte) ([]byte, error) {
	d, err := r.dataset(data)
	if err != nil {
		return nil, err
	}
	res, err := isolda.Check(d, r.Options)
	if err != nil {
		return nil, err
	}
	out := checkResult{Isomorphic: res.Isomorphic, Bytes: res.Bytes, Quads: d.Len(), Missing: []string{}, Extra: []string{}}
	for _, q := range res.Missing {
		out.Missing = append(out.Missing, q.String())
	}
	for _, q := range res.Extra {
		out.Extra = append(out.Extra, q.String())
	}
	return json.Marshal(out)
}

// registry returns the tokenizer registry of a handle from isolda_registry.
func registry(h uintptr) (*token.Registry, error) {
	if h == 0 {
		return nil, badValue("isolda: no tokenizer registry")
	}
	reg, ok := cgo.Handle(h).Value().(*token.Registry)
	if !ok {
		return nil, badValue("isolda: not a tokenizer registry")
	}
	return reg, nil
}

func tokens(r tokensRequest, data []byte) ([]byte, error) {
	reg, err := registry(r.Registry)
	if err != nil {
		return nil, err
	}
	tok, err := reg.Get(r.Tokenizer)
	if err != nil {
		return nil, valueError{err.Error()}
	}
	var res tokensResult
	if r.IDs {
		ids := tok.Encode(string(data))
		res.Count, res.IDs = len(ids), make([]int, len(ids))
		for i, id := range ids {
			res.IDs[i] = int(id)
		}
	} else if res.Count, err = token.CountReader(tok, bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

func chunkDocs(r chunkRequest, data []byte) ([]byte, error) {
	job, err := newChunkJob(r, data)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := job.run(context.Background(), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// chunkJob is a checked chunk request, ready to run.
type chunkJob struct {
	c    *chunk.Chunker
	read func(rdf.Sink) error
	opts chunk.RunOptions
}

// run writes the documents to w as JSON lines, as isolda chunk does,
// until ctx is done.
func (j chunkJob) run(ctx context.Context, w io.Writer) (chunk.Stats, error) {
	return j.c.RunContext(ctx, j.read, w, j.opts)
}

// newChunkJob checks a chunk request (options, classes, tokenizer) and
// returns the job that reads its source and writes the documents.
func newChunkJob(r chunkRequest, data []byte) (chunkJob, error) {
	reg, err := registry(r.Registry)
	if err != nil {
		return chunkJob{}, err
	}
	opts := r.Options
	for _, c := range r.Classes {
		iri, err := chunk.ExpandClass(c)
		if err != nil {
			return chunkJob{}, badValue("isolda: class: %v", err)
		}
		opts.Classes = append(opts.Classes, iri)
	}
	if opts.Hops < 1 || opts.Hops > chunk.MaxHops {
		return chunkJob{}, badValue("isolda: hops %d: give 1 to %d", opts.Hops, chunk.MaxHops)
	}
	if opts.Budget < 0 {
		return chunkJob{}, badValue("isolda: budget %d: give 0 (no cut) or more", opts.Budget)
	}
	f, ok := formats.Lookup(opts.Format)
	if !ok {
		return chunkJob{}, badValue("isolda: unknown format %q (one of: %s)", opts.Format, strings.Join(formats.Names(), ", "))
	}
	opts.Format = f.Name
	tok, err := reg.Get(opts.Tokenizer)
	if err != nil {
		return chunkJob{}, valueError{err.Error()}
	}
	c, err := chunk.New(opts, tok)
	if err != nil {
		return chunkJob{}, valueError{err.Error()}
	}
	read := func(sink rdf.Sink) error {
		switch r.Source.Kind {
		case "path":
			ro, err := readOptions(r.Source)
			if err != nil {
				return err
			}
			ro.Limits = rdf.Limits{MaxBytes: -1, MaxQuads: -1}
			if ro.Base == "" {
				ro.Base = rdfio.FileBase(r.Source.Path)
			}
			ro.File = r.Source.Path
			fh, err := os.Open(r.Source.Path)
			if err != nil {
				return err
			}
			defer fh.Close()
			return rdfio.ReadIntoPipelined(fh, sink, ro)
		default:
			d, err := readSource(r.Source, data)
			if err != nil {
				return err
			}
			for _, q := range d.Quads() {
				if err := sink.AddQuad(q); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return chunkJob{c: c, read: read, opts: chunk.RunOptions{Memory: r.Memory, TmpDir: r.TmpDir}}, nil
}

// offsetOf returns the byte offset of a line and column (from 1, the
// column in code points) in data, for the readers that give only the line
// and column; 0 when data does not reach them (the input was a file).
func offsetOf(data []byte, line, col int) int64 {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return 0
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ {
		_, w := utf8.DecodeRune(data[off:])
		off += w
	}
	return int64(off)
}
