package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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
	// Format is its syntax (nt, nq, ttl, trig, rdfxml, jsonld, html, or a
	// long name such as turtle); empty means sniffed from the content.
	Format string `json:"format,omitempty"`
	// Base is the base IRI for relative IRIs.
	Base string `json:"base,omitempty"`
}

// IsoldaOptions are the ISOLDA encoder's options (isolda.Options) as JSON.
type IsoldaOptions struct {
	// Version is "0.1", "0.2", "0.3" or "0.4"; empty means the format's version.
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
	// InlineBlanks writes singly-used blank nodes in place.
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

// isoldaOptions converts o for the format named name (isolda-0.1,
// isolda-0.2 or isolda-0.3 fix the version unless o names one; isolda is
// the default version, 0.4).
func (o *IsoldaOptions) isoldaOptions(name, anchor string) isolda.Options {
	var opts isolda.Options
	if o != nil {
		opts = isolda.Options{
			Version: o.Version, IDs: o.IDs, NoConstants: o.NoConstants, NoTypes: o.NoTypes,
			Glossary: o.Glossary, Layout: o.Layout, Theta: o.Theta, Continuation: o.Continuation,
			InlineBlanks: o.InlineBlanks, InverseIndex: o.InverseIndex, Hops: o.Hops,
			IRIIDs: o.IRIIDs, DatatypePrefixes: o.DatatypePrefixes,
		}
	}
	if opts.Version == "" {
		switch name {
		case "isolda-0.1":
			opts.Version = isolda.V01
		case "isolda-0.2":
			opts.Version = isolda.V02
		case "isolda-0.3":
			opts.Version = isolda.V03
		default:
			opts.Version = isolda.V04
		}
	}
	opts.Anchor = anchor
	return opts
}

// validate rejects option values the encoder does not know.
func (o *IsoldaOptions) validate() *apiError {
	if o == nil {
		return nil
	}
	bad := func(field, v string, ok ...string) *apiError {
		for _, k := range ok {
			if v == k {
				return nil
			}
		}
		return unprocessable(fmt.Sprintf("options.%s: %q is not one of %s", field, v, strings.Join(ok[1:], ", ")))
	}
	if e := bad("version", o.Version, "", isolda.V01, isolda.V02, isolda.V03, isolda.V04); e != nil {
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
	// Graph is the graph to write.
	Graph Graph `json:"graph"`
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
	// Lossless is the registry's word on the format (for the whole text).
	Lossless bool `json:"lossless"`
	// Warnings say what could not be done, such as the hash.
	Warnings []string `json:"warnings,omitempty"`
}

// CompareRequest is the body of POST /v1/compare.
type CompareRequest struct {
	// Graph is the graph to write.
	Graph Graph `json:"graph"`
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
	// Graph is the graph to check.
	Graph Graph `json:"graph"`
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

// decodeJSON decodes one JSON value into v, rejecting unknown fields and
// trailing data; errors name the line and column of the body.
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
		return nil
	}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offset is after the offending byte
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF):
		return badRequest("request body: empty, a JSON object is expected")
	}
	e := badRequest("request body: " + err.Error())
	if off >= 0 {
		e.Line, e.Column = position(body, off)
	}
	return e
}

// position returns the 1-based line and column (in bytes) of offset off.
func position(b []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(b))))
	prefix := b[:off]
	line = 1 + bytes.Count(prefix, []byte("\n"))
	col = int(off) - (bytes.LastIndexByte(prefix, '\n') + 1) + 1
	return line, col
}

// readGraph parses g under the quad limit, or fetches it from its SPARQL
// endpoint.
func (s *server) readGraph(ctx context.Context, g Graph) (*rdf.Dataset, *apiError) {
	if g.Endpoint != "" || g.Query != "" || g.Method != "" {
		return s.fetchGraph(ctx, g)
	}
	opts := rdfio.Options{}
	opts.File = "graph"
	opts.Base = g.Base
	opts.Limits = rdf.Limits{MaxQuads: s.cfg.MaxQuads, MaxBytes: s.cfg.MaxRequestBytes}
	if g.Format != "" {
		f, err := rdfio.ParseFormat(g.Format)
		if err != nil {
			return nil, unprocessable("graph.format: " + err.Error())
		}
		opts.Format = f
	}
	if g.Base != "" && !rdf.IsAbsoluteIRI(g.Base) {
		return nil, unprocessable(fmt.Sprintf("graph.base: %q is not an absolute IRI", g.Base))
	}
	d, err := rdfio.Read(strings.NewReader(g.Data), opts)
	if err != nil {
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
	if !containsString(s.cfg.AllowedTokenizers, name) && name != s.cfg.DefaultTokenizer {
		return nil, unprocessable(fmt.Sprintf("tokenizer %q is not available (available: %s)", name,
			strings.Join(s.cfg.AllowedTokenizers, ", ")))
	}
	tok, err := s.cfg.Tokenizers.Get(name)
	if err != nil {
		return nil, unprocessable(fmt.Sprintf("tokenizer %q: %v", name, err))
	}
	return tok, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isISOLDA reports whether a registry name is an ISOLDA version.
func isISOLDA(name string) bool {
	return name == "isolda" || strings.HasPrefix(name, "isolda-")
}

// encode writes d in format f; ISOLDA formats take opts and anchor.
func encode(f formats.Format, d *rdf.Dataset, in *formats.Input, o *IsoldaOptions, anchor string) (string, error) {
	var b strings.Builder
	var err error
	if isISOLDA(f.Name) {
		err = isolda.Encode(&b, d, o.isoldaOptions(f.Name, anchor))
	} else {
		err = f.Encode(&b, in)
	}
	return b.String(), err
}

func (s *server) serialize(ctx context.Context, body []byte) (any, *apiError) {
	var req SerializeRequest
	if e := decodeWithData(body, &req, &req.Graph.Data); e != nil {
		return nil, e
	}
	if req.Format == "" {
		req.Format = "isolda"
	}
	f, ok := formats.Get(req.Format)
	if !ok {
		return nil, unprocessable(fmt.Sprintf("format %q is not in the registry (see GET /v1/formats)", req.Format))
	}
	if !isISOLDA(f.Name) && (req.Options != nil || req.Anchor != "") {
		return nil, unprocessable("options and anchor apply only to the ISOLDA formats (isolda, isolda-0.1, isolda-0.2, isolda-0.3)")
	}
	if e := req.Options.validate(); e != nil {
		return nil, e
	}
	if req.Budget < 0 {
		return nil, unprocessable("budget must not be negative")
	}
	switch req.Truncation {
	case "":
		req.Truncation = "record"
	case "record", "raw":
	default:
		return nil, unprocessable(fmt.Sprintf("truncation %q is not record or raw", req.Truncation))
	}
	tok, e := s.tokenizer(req.Tokenizer)
	if e != nil {
		return nil, e
	}
	d, e := s.readGraph(ctx, req.Graph)
	if e != nil {
		return nil, e
	}
	text, err := encode(f, d, formats.NewInput(d), req.Options, req.Anchor)
	if err != nil {
		return nil, unprocessable(fmt.Sprintf("format %s: %v", f.Name, err))
	}
	if ctx.Err() != nil {
		return nil, s.timeout()
	}
	resp := &SerializeResponse{Format: f.Name, Lossless: f.Lossless, Tokenizer: tok.Name(), Quads: d.Len()}
	resp.Text = text
	resp.Tokens = tok.Count(text)
	if req.Budget > 0 && resp.Tokens > req.Budget {
		var t truncation
		if req.Truncation == "raw" {
			t = truncateRaw(text, tok, req.Budget)
		} else {
			t = truncateRecords(text, f.Name, tok, req.Budget)
		}
		resp.Truncated = true
		resp.Dropped = Dropped{Records: t.droppedRecords, Tokens: resp.Tokens - t.tokens, Bytes: len(text) - len(t.text)}
		resp.Text, resp.Tokens = t.text, t.tokens
	}
	resp.Bytes = len(resp.Text)
	h, err := canon.Hash(d)
	if err != nil {
		resp.Warnings = append(resp.Warnings, "graph_hash: "+err.Error())
	} else {
		resp.GraphHash = h
	}
	return resp, nil
}

func (s *server) compare(ctx context.Context, body []byte) (any, *apiError) {
	var req CompareRequest
	if e := decodeWithData(body, &req, &req.Graph.Data); e != nil {
		return nil, e
	}
	names := req.Tokenizers
	if req.Tokenizer != "" {
		names = append(names, req.Tokenizer)
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
	if len(req.Formats) == 0 {
		fs = formats.All()
	} else {
		if len(req.Formats) > s.cfg.MaxFormats {
			return nil, unprocessable(fmt.Sprintf("at most %d formats", s.cfg.MaxFormats))
		}
		for _, n := range req.Formats {
			f, ok := formats.Get(n)
			if !ok {
				return nil, unprocessable(fmt.Sprintf("format %q is not in the registry (see GET /v1/formats)", n))
			}
			fs = append(fs, f)
		}
	}
	d, e := s.readGraph(ctx, req.Graph)
	if e != nil {
		return nil, e
	}
	in := formats.NewInput(d)
	resp := &CompareResponse{Quads: d.Len(), Results: make([]CompareResult, 0, len(fs))}
	for _, f := range fs {
		if ctx.Err() != nil {
			return nil, s.timeout()
		}
		r := CompareResult{Format: f.Name, Family: f.Family, Lossless: f.Lossless}
		text, err := encode(f, d, in, nil, "")
		if err != nil {
			r.Error = err.Error()
		} else {
			r.Bytes = len(text)
			r.Tokens = make(map[string]int, len(toks))
			for _, tok := range toks {
				r.Tokens[tok.Name()] = tok.Count(text)
			}
		}
		resp.Results = append(resp.Results, r)
	}
	return resp, nil
}

func (s *server) check(ctx context.Context, body []byte) (any, *apiError) {
	var req CheckRequest
	if e := decodeWithData(body, &req, &req.Graph.Data); e != nil {
		return nil, e
	}
	if e := req.Options.validate(); e != nil {
		return nil, e
	}
	d, e := s.readGraph(ctx, req.Graph)
	if e != nil {
		return nil, e
	}
	res, err := isolda.Check(d, req.Options.isoldaOptions("isolda", req.Anchor))
	if err != nil {
		return nil, unprocessable("check: " + err.Error())
	}
	resp := &CheckResponse{Isomorphic: res.Isomorphic, Bytes: res.Bytes,
		MissingCount: len(res.Missing), ExtraCount: len(res.Extra),
		Missing: quadLines(res.Missing), Extra: quadLines(res.Extra)}
	return resp, nil
}

// quadLines writes at most maxListedQuads quads as N-Quads lines.
func quadLines(qs []rdf.Quad) []string {
	out := make([]string, 0, min(len(qs), maxListedQuads))
	for i, q := range qs {
		if i == maxListedQuads {
			break
		}
		out = append(out, q.String())
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
// retrieval and the endpoint matches its allow-list.
func (s *server) fetchGraph(ctx context.Context, g Graph) (*rdf.Dataset, *apiError) {
	switch {
	case !s.cfg.AllowSPARQL:
		return nil, &apiError{Status: http.StatusForbidden, Msg: "graph.endpoint: SPARQL retrieval is off on this server; send the graph inline in graph.data"}
	case g.Endpoint == "" || g.Query == "":
		return nil, unprocessable("graph: endpoint and query go together")
	case g.Data != "" || g.Format != "" || g.Base != "":
		return nil, unprocessable("graph: data, format and base do not apply to a graph fetched from an endpoint")
	case !endpointAllowed(s.cfg.SPARQLEndpoints, g.Endpoint):
		return nil, &apiError{Status: http.StatusForbidden, Msg: fmt.Sprintf("graph.endpoint: %s is not an allowed SPARQL endpoint", g.Endpoint)}
	}
	if _, err := sparql.QueryForm(g.Query); err != nil {
		return nil, unprocessable("graph.query: " + strings.TrimPrefix(err.Error(), "sparql: "))
	}
	m, err := sparql.ParseMethod(g.Method)
	if err != nil {
		return nil, unprocessable("graph.method: " + err.Error())
	}
	c := &sparql.Client{
		HTTP:     s.cfg.SPARQLClient,
		Method:   m,
		Timeout:  s.cfg.Timeout,
		MaxBytes: s.cfg.SPARQLMaxBytes,
		MaxQuads: s.cfg.MaxQuads,
		AllowURL: func(u string) bool { return endpointAllowed(s.cfg.SPARQLEndpoints, u) },
	}
	d, err := c.Construct(ctx, g.Endpoint, g.Query)
	if err != nil {
		e := &apiError{Status: http.StatusBadGateway, Msg: "graph.endpoint: " + err.Error()}
		var pe *rdf.ParseError
		switch {
		case errors.Is(err, rdf.ErrLimit):
			e.Status = http.StatusRequestEntityTooLarge
		case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
			e.Status = http.StatusGatewayTimeout
		}
		if errors.As(err, &pe) {
			e.Msg = "graph.endpoint: the answer of " + g.Endpoint + ": " + pe.Msg
			e.Line, e.Column = pe.Line, pe.Column
		}
		return nil, e
	}
	return d, nil
}

// endpointAllowed reports whether u starts with one of the prefixes, at a
// path boundary: http://h:1/sparql allows http://h:1/sparql?x and
// http://h:1/sparql/x, not http://h:1/sparqlx or http://h:1.evil/.
func endpointAllowed(prefixes []string, u string) bool {
	for _, p := range prefixes {
		if p == "" || !strings.HasPrefix(u, p) {
			continue
		}
		rest := u[len(p):]
		if rest == "" || strings.HasSuffix(p, "/") || rest[0] == '/' || rest[0] == '?' {
			return true
		}
	}
	return false
}
