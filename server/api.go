package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/sparql"
	"github.com/isolda/isolda/token"
)

// Graph is a graph sent inline (a document in an RDF syntax) or, when the
// server allows it (Config.AllowSPARQL), fetched from a SPARQL endpoint by
// a CONSTRUCT or DESCRIBE query.
type Graph struct {
	// Data is the document (empty with Endpoint).
	Data string `json:"data,omitempty"`
	// Endpoint is the URL of a SPARQL 1.1 Protocol endpoint; it must match
	// one of the server's Config.SPARQLEndpoints.
	Endpoint string `json:"endpoint,omitempty"`
	// Query is the CONSTRUCT or DESCRIBE query sent to Endpoint.
	Query string `json:"query,omitempty"`
	// Method is how the query is sent: get (the default), post (an
	// application/sparql-query body) or form.
	Method string `json:"method,omitempty"`
	// Format is its syntax, a name rdfio.ParseFormat reads (its short
	// name such as ttl, or a long one such as turtle); empty means sniffed
	// from the content.
	Format string `json:"format,omitempty"`
	// Base is the base IRI for relative IRIs.
	Base string `json:"base,omitempty"`
}

// IsoldaOptions are the ISOLDA encoder's options (isolda.Options) as JSON.
// Each field is named as the flag of `isolda convert` that sets the same
// option, with underscores for hyphens (--no-constants is no_constants).
type IsoldaOptions struct {
	// Spec is the notation version, "0.1", "0.2", "0.3" or "0.4" (--spec);
	// empty means the format's version.
	Spec string `json:"spec,omitempty"`
	// Version is the former name of Spec, still accepted (deprecated).
	Version string `json:"version,omitempty"`
	// IDs is "label" (the default) or "slug".
	IDs string `json:"ids,omitempty"`
	// NoConstants keeps values shared by every row in the rows.
	NoConstants bool `json:"no_constants,omitempty"`
	// NoTypes omits the @types line.
	NoTypes bool `json:"no_types,omitempty"`
	// Glossary is "full" (the default), "legend" or "none".
	Glossary string `json:"glossary,omitempty"`
	// Layout is "table" (the default), "blocks" or "hybrid".
	Layout string `json:"layout,omitempty"`
	// Theta is the regularity threshold of the hybrid layout, in [0, 1].
	Theta float64 `json:"theta,omitempty"`
	// Continuation writes a row's other properties as indented lines.
	Continuation bool `json:"continuation,omitempty"`
	// InlineBnodes writes singly-used blank nodes in place
	// (--inline-bnodes).
	InlineBnodes bool `json:"inline_bnodes,omitempty"`
	// InlineBlanks is the former name of InlineBnodes, still accepted
	// (deprecated).
	InlineBlanks bool `json:"inline_blanks,omitempty"`
	// InverseIndex adds a ~in: section of incoming links.
	InverseIndex bool `json:"inverse_index,omitempty"`
	// Hops, with an anchor, crops to the entities at most Hops links away.
	Hops int `json:"hops,omitempty"`
	// IRIIDs identifies unlabelled IRI entities by their @iri cell.
	IRIIDs bool `json:"iri_ids,omitempty"`
	// DatatypePrefixes declares the xsd or rdf namespace for datatypes.
	DatatypePrefixes bool `json:"datatype_prefixes,omitempty"`
}

// isoldaOptions converts o; an empty Version is the format's own (isolda-0.1,
// isolda-0.2 or isolda-0.3 fix the version unless o names one; isolda is
// the default version, 0.4: formats.Format.EncodeContext).
func (o *IsoldaOptions) isoldaOptions(anchor string) isolda.Options {
	var opts isolda.Options
	if o != nil {
		opts = isolda.Options{
			Version: o.Spec, IDs: o.IDs, NoConstants: o.NoConstants, NoTypes: o.NoTypes,
			Glossary: o.Glossary, Layout: o.Layout, Theta: o.Theta, Continuation: o.Continuation,
			InlineBlanks: o.InlineBnodes, InverseIndex: o.InverseIndex, Hops: o.Hops,
			IRIIDs: o.IRIIDs, DatatypePrefixes: o.DatatypePrefixes,
		}
	}
	opts.Anchor = anchor
	return opts
}

// validate rejects option values the encoder does not know, and moves
// the deprecated names to their current ones (conflicting values are an
// error), returning a warning for each deprecated name used.
func (o *IsoldaOptions) validate() ([]string, *apiError) {
	if o == nil {
		return nil, nil
	}
	var warnings []string
	if o.Version != "" {
		if o.Spec != "" && o.Spec != o.Version {
			return nil, unprocessable(fmt.Sprintf("options.spec %s and options.version %s disagree (version is the former name of spec)",
				quoteCapped(o.Spec, maxQuoted), quoteCapped(o.Version, maxQuoted)))
		}
		o.Spec, o.Version = o.Version, ""
		warnings = append(warnings, "options.version is deprecated: use options.spec (as the --spec flag)")
	}
	if o.InlineBlanks {
		o.InlineBnodes, o.InlineBlanks = true, false
		warnings = append(warnings, "options.inline_blanks is deprecated: use options.inline_bnodes (as the --inline-bnodes flag)")
	}
	return warnings, o.check()
}

// check rejects option values the encoder does not know.
func (o *IsoldaOptions) check() *apiError {
	bad := func(field, v string, ok ...string) *apiError {
		for _, k := range ok {
			if v == k {
				return nil
			}
		}
		return unprocessable(fmt.Sprintf("options.%s: %s is not one of %s", field, quoteCapped(v, maxQuoted), strings.Join(ok[1:], ", ")))
	}
	if e := bad("spec", o.Spec, "", isolda.V01, isolda.V02, isolda.V03, isolda.V04); e != nil {
		return e
	}
	if e := bad("ids", o.IDs, "", isolda.IDsLabel, isolda.IDsSlug); e != nil {
		return e
	}
	if e := bad("glossary", o.Glossary, "", isolda.GlossaryFull, isolda.GlossaryLegend, isolda.GlossaryNone); e != nil {
		return e
	}
	if e := bad("layout", o.Layout, "", isolda.LayoutTable, isolda.LayoutBlocks, isolda.LayoutHybrid); e != nil {
		return e
	}
	if o.Theta < 0 || o.Theta > 1 {
		return unprocessable("options.theta must be between 0 and 1")
	}
	if o.Hops < 0 || o.Hops > 1000 {
		return unprocessable("options.hops must be between 0 and 1000")
	}
	return nil
}

// SerializeRequest is the body of POST /v1/serialize.
type SerializeRequest struct {
	// Graph is the graph to write (required).
	Graph *Graph `json:"graph"`
	// Format is a registry name (default isolda).
	Format string `json:"format,omitempty"`
	// Options are the ISOLDA options (ISOLDA formats only).
	Options *IsoldaOptions `json:"options,omitempty"`
	// Tokenizer names the tokenizer (default o200k_base).
	Tokenizer string `json:"tokenizer,omitempty"`
	// Budget is the most tokens the text may have; 0 means no budget.
	Budget int `json:"budget,omitempty"`
	// Truncation is "record" (the default: whole records while the next
	// fits) or "raw" (a cut at a token boundary).
	Truncation string `json:"truncation,omitempty"`
	// Anchor is an entity IRI put first (ISOLDA formats only).
	Anchor string `json:"anchor,omitempty"`
	// Parts asks for the text also as glossary and body (ISOLDA formats
	// only, when no budget cuts the text).
	Parts bool `json:"parts,omitempty"`
}

// Dropped says what the budget removed.
type Dropped struct {
	// Records is the number of records (ISOLDA rows or blocks, lines of
	// other formats: quads of N-Triples and N-Quads) left out.
	Records int `json:"records"`
	// Tokens and Bytes are the tokens and bytes left out.
	Tokens int `json:"tokens"`
	Bytes  int `json:"bytes"`
}

// SerializeResponse is the answer of POST /v1/serialize.
type SerializeResponse struct {
	// Text is the serialization, cut to the budget if there is one.
	Text string `json:"text"`
	// Tokens and Bytes are the size of Text.
	Tokens int `json:"tokens"`
	Bytes  int `json:"bytes"`
	// Tokenizer is the name of the tokenizer that counted Tokens.
	Tokenizer string `json:"tokenizer"`
	// Quads is the number of quads of the graph.
	Quads int `json:"quads"`
	// Truncated is true when the budget cut the text.
	Truncated bool    `json:"truncated"`
	Dropped   Dropped `json:"dropped"`
	// GraphHash is the SHA-256 of the graph's RDFC-1.0 canonical
	// N-Quads; empty when canonicalization was too much work (see
	// Warnings).
	GraphHash string `json:"graph_hash"`
	// Format is the registry name of the format written.
	Format string `json:"format"`
	// Lossless is true when Text holds the whole graph: the format is
	// lossless (the registry's word) and no budget cut the text.
	Lossless bool `json:"lossless"`
	// Warnings say what could not be done, such as the hash.
	Warnings []string `json:"warnings,omitempty"`
	// Glossary and Body, with Parts, are Text split by isolda.SplitParts:
	// the glossary (in 0.4 the same bytes for every document that uses the
	// same constructs, to send once) and the rest, after an @isolda line,
	// which decodes alone.
	Glossary string `json:"glossary,omitempty"`
	Body     string `json:"body,omitempty"`
	// GlossaryTokens and BodyTokens, with Parts, are the sizes of Glossary
	// and Body in Tokenizer's tokens (each counted alone, so they may not
	// add up to Tokens exactly).
	GlossaryTokens int `json:"glossary_tokens,omitempty"`
	BodyTokens     int `json:"body_tokens,omitempty"`
}

// CompareRequest is the body of POST /v1/compare.
type CompareRequest struct {
	// Graph is the graph to write (required).
	Graph *Graph `json:"graph"`
	// Formats are registry names; empty means every format.
	Formats []string `json:"formats,omitempty"`
	// Tokenizers name the tokenizers (default: o200k_base).
	Tokenizers []string `json:"tokenizers,omitempty"`
	// Tokenizer is a single tokenizer, added to Tokenizers.
	Tokenizer string `json:"tokenizer,omitempty"`
}

// CompareResult is one format of a comparison.
type CompareResult struct {
	// Format, Family and Lossless are the registry's.
	Format   string `json:"format"`
	Family   string `json:"family"`
	Lossless bool   `json:"lossless"`
	// Bytes is the size of the text.
	Bytes int `json:"bytes"`
	// Tokens maps each tokenizer name to the token count.
	Tokens map[string]int `json:"tokens,omitempty"`
	// Error is set when the format cannot write this graph.
	Error string `json:"error,omitempty"`
}

// CompareResponse is the answer of POST /v1/compare.
type CompareResponse struct {
	// Quads is the number of quads of the graph.
	Quads int `json:"quads"`
	// Results has one entry per format, in the order asked (registry
	// order when none was asked).
	Results []CompareResult `json:"results"`
}

// CheckRequest is the body of POST /v1/check.
type CheckRequest struct {
	// Graph is the graph to check (required).
	Graph *Graph `json:"graph"`
	// Options are the ISOLDA options (version 0.2 by default).
	Options *IsoldaOptions `json:"options,omitempty"`
	// Anchor is an entity IRI put first (with options.hops: the crop).
	Anchor string `json:"anchor,omitempty"`
}

// maxListedQuads bounds the missing and extra quads listed by /v1/check.
const maxListedQuads = 100

// CheckResponse is the answer of POST /v1/check: the ISOLDA round trip.
type CheckResponse struct {
	// Isomorphic is true when the decoded document is the graph.
	Isomorphic bool `json:"isomorphic"`
	// Missing and Extra are N-Quads lines (at most 100 each);
	// MissingCount and ExtraCount are the full numbers.
	Missing      []string `json:"missing"`
	Extra        []string `json:"extra"`
	MissingCount int      `json:"missing_count"`
	ExtraCount   int      `json:"extra_count"`
	// Bytes is the size of the ISOLDA document.
	Bytes int `json:"bytes"`
	// Warnings say what the request should change, such as a deprecated
	// option name.
	Warnings []string `json:"warnings,omitempty"`
}

// FormatInfo describes one format of the registry.
type FormatInfo struct {
	// The fields are those of formats.Format; Input names the model the
	// encoder reads.
	Name     string `json:"name"`
	Family   string `json:"family"`
	Source   string `json:"source"`
	Lossless bool   `json:"lossless"`
	Loses    string `json:"loses,omitempty"`
	Input    string `json:"input"`
}

func badRequest(msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Msg: msg}
}

func unprocessable(msg string) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Msg: msg}
}

// decodeJSON decodes one JSON object into v (a pointer to a request
// struct), rejecting unknown fields, trailing data and null; errors name
// the line and column of the body, and the path of a value of the wrong
// type in JSON terms.
func decodeJSON(body []byte, v any) *apiError {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			off := dec.InputOffset()
			line, col := position(body, off)
			return &apiError{Status: http.StatusBadRequest, Msg: "request body: data after the JSON value", Line: line, Column: col}
		}
		if bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
			return badRequest("request body: null, a JSON object is expected")
		}
		return nil
	}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := "request body: " + strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offset is after the offending byte
	case errors.As(err, &te):
		msg = typeError(reflect.TypeOf(v).Elem(), te)
		// The offset is after the value, or after its first byte for an
		// array or object; the error is about the value.
		off = valueStart(body, te.Offset)
	case errors.Is(err, io.EOF):
		return badRequest("request body: empty, a JSON object is expected")
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "request body: the JSON text ends too early"
		off = int64(len(body))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if u, uerr := strconv.Unquote(name); uerr == nil {
			name = quoteCapped(u, maxQuoted)
		}
		msg = "request body: unknown field " + name + " (see /openapi.json)"
		off = dec.InputOffset()
	}
	e := badRequest(msg)
	if off >= 0 {
		e.Line, e.Column = position(body, off)
	}
	return e
}

// valueStart returns the offset of the start of the JSON value that ends
// at end: after the colon or bracket before it, at its first byte.
func valueStart(b []byte, end int64) int64 {
	end = max(0, min(end, int64(len(b))))
	if end == 0 {
		return 0
	}
	// A string value: go back to its opening quote.
	if b[end-1] == '"' {
		for i := end - 2; i >= 0; i-- {
			if b[i] != '"' {
				continue
			}
			n := 0
			for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
				n++
			}
			if n%2 == 0 {
				return i
			}
		}
		return end
	}
	if b[end-1] == '[' || b[end-1] == '{' {
		return end - 1
	}
	i := end
	for i > 0 && !strings.ContainsRune(":[,{", rune(b[i-1])) {
		i--
	}
	for i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// position returns the 1-based line and column (in bytes) of offset off.
func position(b []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(b))))
	prefix := b[:off]
	line = 1 + bytes.Count(prefix, []byte("\n"))
	col = int(off) - (bytes.LastIndexByte(prefix, '\n') + 1) + 1
	return line, col
}

// takeLargeIf takes a large-request slot when the request is large: its graph's
// data is over LargeBytes, or over an eighth of it for more than 8
// formats (Config.MaxLarge).
func (s *server) takeLargeIf(req *request, g *Graph, formats int) *apiError {
	n := len(g.Data)
	if formats > 8 {
		n *= 8
	}
	if n <= s.cfg.LargeBytes {
		return nil
	}
	return req.takeLarge()
}

// decodeRequest decodes a request body into v and checks that it names a
// graph; *g is the request's Graph field.
func decodeRequest(req *request, v any, g **Graph) *apiError {
	if e := decodeWithData(req.body, v, func() *string {
		if *g == nil {
			return nil
		}
		return &(*g).Data
	}); e != nil {
		return e
	}
	if *g == nil {
		return badRequest(`request body: "graph" is required: {"graph": {"data": "..."}} or, where the server allows it, {"graph": {"endpoint": "...", "query": "..."}}`)
	}
	// The body and the graph's data decoded from it are held from here on.
	return req.mem.growTo(int64(len(req.body) + len((*g).Data)))
}

// loadGraph is the start of the work on a graph to be written in the
// formats named names: a large-request slot if the graph is large (takeLargeIf), the
// graph (readGraph), then the memory of the work on it (estimate, with
// perQuad bytes a quad of the endpoint's own work).
func (s *server) loadGraph(req *request, g *Graph, names []string, perQuad int64) (*rdf.Dataset, *apiError) {
	if e := s.takeLargeIf(req, g, len(names)); e != nil {
		return nil, e
	}
	d, e := s.readGraph(req, g)
	if e != nil {
		return nil, e
	}
	if e := req.mem.growTo(estimate(len(req.body), len(g.Data), d.Len(), names, perQuad)); e != nil {
		return nil, e
	}
	return d, nil
}

// readGraph parses g under the quad limit, or fetches it from its SPARQL
// endpoint. The parse stops when ctx is done, and raises the memory
// reservation with the quads read.
func (s *server) readGraph(req *request, g *Graph) (*rdf.Dataset, *apiError) {
	if g.Endpoint != "" || g.Query != "" || g.Method != "" {
		return s.fetchGraph(req, g)
	}
	opts := rdfio.Options{}
	opts.File = "graph"
	opts.Base = g.Base
	opts.Limits = rdf.Limits{MaxQuads: s.cfg.MaxQuads, MaxBytes: s.cfg.MaxRequestBytes}
	if g.Format != "" {
		f, err := rdfio.ParseFormat(g.Format)
		if err != nil {
			return nil, unprocessable("graph.format: " + capMessage(err.Error()))
		}
		opts.Format = f
	}
	if g.Base != "" && !rdf.IsAbsoluteIRI(g.Base) {
		return nil, unprocessable(fmt.Sprintf("graph.base: %s is not an absolute IRI", quoteCapped(g.Base, maxQuoted)))
	}
	d := rdf.NewDataset()
	d.Base = opts.Base
	sink := &guardSink{d: d, ctx: req.ctx, mem: req.mem, req: req, largeAt: s.cfg.LargeQuads, base: req.mem.n}
	err := rdfio.ReadInto(ctxReader{req.ctx, strings.NewReader(g.Data)}, sink, opts)
	if sink.err != nil {
		return nil, sink.err
	}
	if err != nil {
		if req.ctx.Err() != nil {
			return nil, s.timeout()
		}
		var pe *rdf.ParseError
		status := http.StatusBadRequest
		if errors.Is(err, rdf.ErrLimit) {
			status = http.StatusRequestEntityTooLarge
		}
		e := &apiError{Status: status, Msg: "graph: " + err.Error()}
		if errors.As(err, &pe) {
			e.Msg = "graph: " + pe.Msg
			if pe.Err != nil && !strings.Contains(pe.Msg, pe.Err.Error()) {
				e.Msg += ": " + pe.Err.Error()
			}
			e.Line, e.Column = pe.Line, pe.Column
		}
		return nil, e
	}
	return d, nil
}

// tokenizer resolves a client-given tokenizer name.
func (s *server) tokenizer(name string) (token.Tokenizer, *apiError) {
	if name == "" {
		name = s.cfg.DefaultTokenizer
	}
	if !slices.Contains(s.cfg.AllowedTokenizers, name) && name != s.cfg.DefaultTokenizer {
		return nil, unprocessable(fmt.Sprintf("tokenizer %q is not available (available: %s)", name,
			strings.Join(s.cfg.AllowedTokenizers, ", ")))
	}
	tok, err := s.cfg.Tokenizers.Get(name)
	if err != nil {
		return nil, unprocessable(fmt.Sprintf("tokenizer %q: %v", name, err))
	}
	return tok, nil
}

// encode writes the input in format f with its EncodeContext: the ISOLDA
// formats take opts and anchor. The text goes through a guardWriter:
// writing stops with an error once ctx is done, and the memory
// reservation grows with the text.
func encode(req *request, f formats.Format, in *formats.Input, o *IsoldaOptions, anchor string) (string, error) {
	var b strings.Builder
	w := newGuardWriter(req, &b)
	opts := o.isoldaOptions(anchor)
	err := f.EncodeContext(req.ctx, w, in, &opts)
	if w.err != nil {
		return "", w.err
	}
	return b.String(), err
}

func (s *server) serialize(req *request) (any, *apiError) {
	var r SerializeRequest
	if e := decodeRequest(req, &r, &r.Graph); e != nil {
		return nil, e
	}
	if r.Format == "" {
		r.Format = "isolda"
	}
	f, ok := formats.Get(r.Format)
	if !ok {
		return nil, unprocessable(fmt.Sprintf("format %s is not in the registry (see GET /v1/formats)", quoteCapped(r.Format, maxQuoted)))
	}
	if f.Version == "" && (r.Options != nil || r.Anchor != "" || r.Parts) {
		return nil, unprocessable("options, anchor and parts apply only to the ISOLDA formats (isolda, isolda-0.1, isolda-0.2, isolda-0.3)")
	}
	warnings, e := r.Options.validate()
	if e != nil {
		return nil, e
	}
	if r.Budget < 0 {
		return nil, unprocessable("budget must not be negative")
	}
	switch r.Truncation {
	case "":
		r.Truncation = "record"
	case "record", "raw":
	default:
		return nil, unprocessable(fmt.Sprintf("truncation %s is not record or raw", quoteCapped(r.Truncation, maxQuoted)))
	}
	tok, e := s.tokenizer(r.Tokenizer)
	if e != nil {
		return nil, e
	}
	d, e := s.loadGraph(req, r.Graph, []string{f.Name}, memHashPerQuad)
	if e != nil {
		return nil, e
	}
	text, err := encode(req, f, formats.NewInput(d), r.Options, r.Anchor)
	if e := s.stopped(req, err); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, unprocessable(fmt.Sprintf("format %s: %s", f.Name, capMessage(err.Error())))
	}
	resp := &SerializeResponse{Format: f.Name, Lossless: f.Lossless, Tokenizer: tok.Name(), Quads: d.Len(), Warnings: warnings}
	resp.Text = text
	if resp.Tokens, e = countTokens(req, tok, text); e != nil {
		return nil, e
	}
	if r.Budget > 0 && resp.Tokens > r.Budget {
		var t truncation
		if r.Truncation == "raw" {
			t = truncateRaw(text, tok, r.Budget)
		} else {
			t = truncateRecords(text, f.Name, tok, r.Budget)
		}
		resp.Truncated = true
		resp.Lossless = false // the text no longer holds the whole graph
		resp.Dropped = Dropped{Records: t.droppedRecords, Tokens: resp.Tokens - t.tokens, Bytes: len(text) - len(t.text)}
		resp.Text, resp.Tokens = t.text, t.tokens
	}
	resp.Bytes = len(resp.Text)
	if r.Parts && !resp.Truncated {
		p := isolda.SplitParts(resp.Text)
		resp.Glossary, resp.Body = p.Glossary, p.Body
		// Each part is a piece of the text counted above: its counting
		// cost is covered.
		resp.GlossaryTokens, resp.BodyTokens = tok.Count(p.Glossary), tok.Count(p.Body)
	}
	h, err := canon.HashContext(req.ctx, d, canon.Options{})
	if req.ctx.Err() != nil {
		return nil, s.timeout()
	}
	if err != nil {
		resp.Warnings = append(resp.Warnings, "graph_hash: "+capMessage(err.Error()))
	} else {
		resp.GraphHash = h
	}
	return resp, nil
}

// stopped returns the error of a request whose work was stopped: its
// time ran out, or the memory budget refused what its text needed.
func (s *server) stopped(req *request, err error) *apiError {
	var me *memError
	switch {
	case req.ctx.Err() != nil:
		return s.timeout()
	case errors.As(err, &me):
		return me.e
	}
	return nil
}

func (s *server) compare(req *request) (any, *apiError) {
	var r CompareRequest
	if e := decodeRequest(req, &r, &r.Graph); e != nil {
		return nil, e
	}
	names := r.Tokenizers
	if r.Tokenizer != "" {
		names = append(names, r.Tokenizer)
	}
	if len(names) == 0 {
		names = []string{s.cfg.DefaultTokenizer}
	}
	if len(names) > 8 {
		return nil, unprocessable("at most 8 tokenizers")
	}
	toks := make([]token.Tokenizer, 0, len(names))
	for _, n := range names {
		tok, e := s.tokenizer(n)
		if e != nil {
			return nil, e
		}
		toks = append(toks, tok)
	}
	var fs []formats.Format
	if len(r.Formats) == 0 {
		fs = formats.All()
	} else {
		if len(r.Formats) > s.cfg.MaxFormats {
			return nil, unprocessable(fmt.Sprintf("at most %d formats", s.cfg.MaxFormats))
		}
		for _, n := range r.Formats {
			f, ok := formats.Get(n)
			if !ok {
				return nil, unprocessable(fmt.Sprintf("format %s is not in the registry (see GET /v1/formats)", quoteCapped(n, maxQuoted)))
			}
			fs = append(fs, f)
		}
	}
	d, e := s.loadGraph(req, r.Graph, formatNames(fs), memComparePerFormat*int64(len(fs)))
	if e != nil {
		return nil, e
	}
	in := formats.NewInput(d)
	resp := &CompareResponse{Quads: d.Len(), Results: make([]CompareResult, 0, len(fs))}
	for _, f := range fs {
		if req.ctx.Err() != nil {
			return nil, s.timeout()
		}
		res := CompareResult{Format: f.Name, Family: f.Family, Lossless: f.Lossless}
		text, err := encode(req, f, in, nil, "")
		if e := s.stopped(req, err); e != nil {
			return nil, e
		}
		if err != nil {
			res.Error = capMessage(err.Error())
		} else {
			res.Bytes = len(text)
			res.Tokens = make(map[string]int, len(toks))
			for _, tok := range toks {
				n, e := countTokens(req, tok, text)
				if e != nil {
					return nil, e
				}
				res.Tokens[tok.Name()] = n
			}
		}
		resp.Results = append(resp.Results, res)
	}
	return resp, nil
}

// formatNames returns the names of fs.
func formatNames(fs []formats.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

func (s *server) check(req *request) (any, *apiError) {
	var r CheckRequest
	if e := decodeRequest(req, &r, &r.Graph); e != nil {
		return nil, e
	}
	warnings, e := r.Options.validate()
	if e != nil {
		return nil, e
	}
	d, e := s.loadGraph(req, r.Graph, []string{"isolda"}, memCheckPerQuad)
	if e != nil {
		return nil, e
	}
	if req.ctx.Err() != nil {
		return nil, s.timeout()
	}
	opts := r.Options.isoldaOptions(r.Anchor)
	opts.Version = cmp.Or(opts.Version, isolda.V04) // the default version, as the format isolda
	res, err := isolda.Check(d, opts)
	if req.ctx.Err() != nil {
		return nil, s.timeout()
	}
	if err != nil {
		return nil, unprocessable("check: " + capMessage(err.Error()))
	}
	resp := &CheckResponse{Isomorphic: res.Isomorphic, Bytes: res.Bytes,
		MissingCount: len(res.Missing), ExtraCount: len(res.Extra),
		Missing: quadLines(res.Missing), Extra: quadLines(res.Extra), Warnings: warnings}
	return resp, nil
}

// quadLines writes at most maxListedQuads quads as N-Quads lines.
func quadLines(qs []rdf.Quad) []string {
	out := make([]string, 0, min(len(qs), maxListedQuads))
	for i, q := range qs {
		if i == maxListedQuads {
			break
		}
		out = append(out, capString(q.String(), maxMessage))
	}
	return out
}

func (s *server) formats(w http.ResponseWriter, r *http.Request) {
	all := formats.All()
	out := make([]FormatInfo, len(all))
	for i, f := range all {
		out[i] = FormatInfo{Name: f.Name, Family: f.Family, Source: f.Source, Lossless: f.Lossless,
			Loses: f.Loses, Input: f.Input.String()}
	}
	writeJSON(w, http.StatusOK, map[string]any{"formats": out})
}

// fetchGraph runs g's query on g's endpoint, when the server allows SPARQL
// retrieval and the endpoint matches its allow-list. Errors never quote
// the endpoint's answer: a refused or non-RDF answer is named by its
// status and media type only, as a server must not relay what a URL it
// fetched for a client holds.
func (s *server) fetchGraph(req *request, g *Graph) (*rdf.Dataset, *apiError) {
	ep := quoteCapped(g.Endpoint, 200)
	switch {
	case !s.cfg.AllowSPARQL:
		return nil, &apiError{Status: http.StatusForbidden, Msg: "graph.endpoint: SPARQL retrieval is off on this server; send the graph inline in graph.data"}
	case g.Endpoint == "" || g.Query == "":
		return nil, unprocessable("graph: endpoint and query go together")
	case g.Data != "" || g.Format != "" || g.Base != "":
		return nil, unprocessable("graph: data, format and base do not apply to a graph fetched from an endpoint")
	case !endpointAllowed(s.cfg.SPARQLEndpoints, g.Endpoint):
		return nil, &apiError{Status: http.StatusForbidden, Msg: fmt.Sprintf("graph.endpoint: %s is not an allowed SPARQL endpoint", ep)}
	}
	if _, err := sparql.QueryForm(g.Query); err != nil {
		return nil, unprocessable("graph.query: " + capMessage(strings.TrimPrefix(err.Error(), "sparql: ")))
	}
	m, err := sparql.ParseMethod(g.Method)
	if err != nil {
		return nil, unprocessable("graph.method: " + capMessage(err.Error()))
	}
	c := &sparql.Client{
		HTTP:     s.cfg.SPARQLClient,
		Method:   m,
		Timeout:  s.cfg.Timeout,
		MaxBytes: s.cfg.SPARQLMaxBytes,
		MaxQuads: s.cfg.MaxQuads,
		AllowURL: func(u string) bool { return endpointAllowed(s.cfg.SPARQLEndpoints, u) },
	}
	// The answer is parsed as it arrives, but may be as large as the
	// limit: reserve that.
	maxBytes := s.cfg.SPARQLMaxBytes
	if maxBytes <= 0 {
		maxBytes = sparql.DefaultMaxBytes
	}
	if e := req.mem.growTo(req.mem.n + maxBytes); e != nil {
		return nil, e
	}
	// The URL queried is the one checked: its normal form.
	endpoint, err := sparql.NormalizeURL(g.Endpoint)
	if err != nil {
		return nil, &apiError{Status: http.StatusForbidden, Msg: fmt.Sprintf("graph.endpoint: %s: %s", ep, err)}
	}
	d, err := c.Construct(req.ctx, endpoint, g.Query)
	if err != nil {
		e := &apiError{Status: http.StatusBadGateway, Msg: "graph.endpoint: " + err.Error()}
		var pe *rdf.ParseError
		var he *sparql.HTTPError
		switch {
		case errors.Is(err, rdf.ErrLimit):
			e.Status = http.StatusRequestEntityTooLarge
		case req.ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
			e.Status = http.StatusGatewayTimeout
		}
		switch {
		case errors.As(err, &he):
			e.Msg = fmt.Sprintf("graph.endpoint: %s: %s (HTTP %d, %s)", ep, he.Reason, he.Status, quoteCapped(he.ContentType, maxQuoted))
		case errors.As(err, &pe):
			// The position helps whoever runs the endpoint; the message
			// may quote the answer, so only its place is given.
			e.Msg = fmt.Sprintf("graph.endpoint: the answer of %s is not valid in the RDF syntax of its Content-Type, at line %d, column %d",
				ep, pe.Line, pe.Column)
			e.Line, e.Column = pe.Line, pe.Column
		}
		return nil, e
	}
	return d, nil
}

// endpointAllowed reports whether u is under one of the prefixes
// (sparql.AllowedURL: normalized URLs compared at a path boundary).
func endpointAllowed(prefixes []string, u string) bool {
	return sparql.AllowedURL(prefixes, u)
}

// countTokens counts the tokens of text with tok, having first raised the
// request's memory reservation by what counting may take (countCost:
// the reservation holds the largest of its texts' counting costs), and
// taken a large slot when that is countLarge or more.
func countTokens(req *request, tok token.Tokenizer, text string) (int, *apiError) {
	if c := countCost(text); c > req.counting {
		if c >= countLarge {
			if e := req.takeLarge(); e != nil {
				return 0, e
			}
		}
		if e := req.mem.growTo(req.mem.n + c - req.counting); e != nil {
			return 0, e
		}
		req.counting = c
	}
	return tok.Count(text), nil
}
