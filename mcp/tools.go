package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// GraphInput is the graph of a tool's input: a document given inline or
// by path, and its syntax.
type GraphInput struct {
	Data   string `json:"data,omitempty" jsonschema:"the graph as a document in an RDF syntax (Turtle, N-Triples, N-Quads, TriG, RDF/XML, JSON-LD or HTML with JSON-LD blocks); give data or path"`
	Path   string `json:"path,omitempty" jsonschema:"a file holding the graph, relative to the server's root folder (only when the server was started with --root); give data or path"`
	Format string `json:"format,omitempty" jsonschema:"syntax of the graph: {readable}; empty means detected from the content"`
}

// EncodeInput is the input of the encode tool.
type EncodeInput struct {
	GraphInput
	Base      string `json:"base,omitempty" jsonschema:"base IRI for the relative IRIs of the graph"`
	To        string `json:"to,omitempty" jsonschema:"output format: isolda (the default: the compact ISOLDA notation for LLM prompts) or any format of the lab registry, such as turtle, ntriples, jsonld-compact, b-ttl-ids"`
	Spec      string `json:"spec,omitempty" jsonschema:"ISOLDA notation version: 0.1, 0.2, 0.3 or 0.4 (the default)"`
	Budget    int    `json:"budget,omitempty" jsonschema:"most tokens the text may have; the text is cut at a record boundary to fit; 0 or absent means no budget"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"tokenizer of the counts and the budget: o200k_base (the default, GPT-4o and later), cl100k_base, or a model name the server offers"`
	Anchor    string `json:"anchor,omitempty" jsonschema:"IRI of an entity to put first (ISOLDA only); with hops, the document keeps only its neighbourhood"`
	Hops      int    `json:"hops,omitempty" jsonschema:"with anchor: keep only the entities at most this many links away from it (ISOLDA only)"`
	IDs       string `json:"ids,omitempty" jsonschema:"how ISOLDA names entities: label (the default, from their labels) or slug"`
	Glossary  string `json:"glossary,omitempty" jsonschema:"ISOLDA glossary: full (the default), legend (one line) or none"`
	Layout    string `json:"layout,omitempty" jsonschema:"ISOLDA layout: table (the default), blocks or hybrid"`
	NoTypes   bool   `json:"no_types,omitempty" jsonschema:"leave out the @types line (ISOLDA only)"`
	// NoConstants keeps the values shared by every row in the rows.
	NoConstants  bool `json:"no_constants,omitempty" jsonschema:"keep values shared by every row of a table in the rows instead of one constant line (ISOLDA only)"`
	InlineBnodes bool `json:"inline_bnodes,omitempty" jsonschema:"write blank nodes used once in place (ISOLDA only)"`
	InverseIndex bool `json:"inverse_index,omitempty" jsonschema:"add a section listing the incoming links of each entity (ISOLDA only)"`
}

// EncodeOutput is the structured content of encode and describe; the text
// itself is the text content.
type EncodeOutput struct {
	Format    string `json:"format" jsonschema:"registry name of the format written"`
	Tokens    int    `json:"tokens" jsonschema:"tokens of the text"`
	Tokenizer string `json:"tokenizer" jsonschema:"tokenizer that counted them"`
	Bytes     int    `json:"bytes" jsonschema:"bytes of the text"`
	Quads     int    `json:"quads" jsonschema:"statements of the graph"`
	Lossless  bool   `json:"lossless" jsonschema:"true when the text holds the whole graph (a lossless format, not cut by the budget)"`
	Truncated bool   `json:"truncated" jsonschema:"true when the budget cut the text"`
	// DroppedRecords counts the records the budget left out.
	DroppedRecords int      `json:"dropped_records" jsonschema:"records (rows, blocks or lines) the budget left out"`
	GraphHash      string   `json:"graph_hash,omitempty" jsonschema:"SHA-256 of the graph's canonical N-Quads (RDFC-1.0)"`
	Warnings       []string `json:"warnings,omitempty" jsonschema:"what could not be done"`
}

// DecodeInput is the input of the decode tool.
type DecodeInput struct {
	Text string `json:"text,omitempty" jsonschema:"an ISOLDA document (any version: the document says which); give text or path"`
	Path string `json:"path,omitempty" jsonschema:"a file holding the ISOLDA document, relative to the server's root folder (only with --root); give text or path"`
	To   string `json:"to,omitempty" jsonschema:"output syntax: {writable}, or any format of the lab registry"`
}

// DecodeOutput is the structured content of decode.
type DecodeOutput struct {
	Format string `json:"format" jsonschema:"registry name of the syntax written"`
	Quads  int    `json:"quads" jsonschema:"statements of the dataset"`
	Bytes  int    `json:"bytes" jsonschema:"bytes of the text"`
}

// CountInput is the input of the count_tokens tool.
type CountInput struct {
	Text      string `json:"text,omitempty" jsonschema:"the text to count; give text or path"`
	Path      string `json:"path,omitempty" jsonschema:"a file to count, relative to the server's root folder (only with --root)"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"tokenizer: o200k_base (the default, GPT-4o and later), cl100k_base, or a model name the server offers"`
}

// CountOutput is the structured content of count_tokens.
type CountOutput struct {
	Tokens    int    `json:"tokens" jsonschema:"the exact number of tokens"`
	Tokenizer string `json:"tokenizer" jsonschema:"the tokenizer that counted them"`
	Bytes     int    `json:"bytes" jsonschema:"bytes of the text"`
}

// CompareInput is the input of the compare_formats tool.
type CompareInput struct {
	GraphInput
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"tokenizer of the counts: o200k_base (the default, GPT-4o and later), cl100k_base, or a model name the server offers"`
}

// Ranked is one format of compare_formats.
type Ranked struct {
	Rank   int    `json:"rank" jsonschema:"1 for the fewest tokens"`
	Format string `json:"format" jsonschema:"registry name (give it as to of encode)"`
	Family string `json:"family" jsonschema:"family of the format"`
	Tokens int    `json:"tokens" jsonschema:"tokens of the graph in this format"`
	Bytes  int    `json:"bytes" jsonschema:"bytes of the graph in this format"`
}

// CompareOutput is the structured content of compare_formats.
type CompareOutput struct {
	Quads     int      `json:"quads" jsonschema:"statements of the graph"`
	Tokenizer string   `json:"tokenizer" jsonschema:"tokenizer of the counts"`
	Formats   []Ranked `json:"formats" jsonschema:"the formats lossless for RDF that can write this graph, fewest tokens first"`
}

// DescribeInput is the input of the describe tool.
type DescribeInput struct {
	Endpoint  string `json:"endpoint" jsonschema:"URL of a SPARQL endpoint the server allows (its --sparql-endpoint list)"`
	IRI       string `json:"iri" jsonschema:"IRI of the entity to describe"`
	Hops      int    `json:"hops,omitempty" jsonschema:"radius of the neighbourhood in links: 1 (the default: its statements and the links to it) to 3"`
	Budget    int    `json:"budget,omitempty" jsonschema:"most tokens the document may have; the entity comes first and the farthest records are cut first; 0 or absent means no budget"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"tokenizer of the budget: o200k_base (the default), cl100k_base, or a model name the server offers"`
}

// ChunkInput is the input of the chunk tool.
type ChunkInput struct {
	GraphInput
	Budget    *int     `json:"budget,omitempty" jsonschema:"most tokens of each document (default 512; 0 keeps every statement)"`
	Cls       []string `json:"cls,omitempty" jsonschema:"write only the instances of these classes: IRIs or prefixed names such as schema:Person"`
	To        string   `json:"to,omitempty" jsonschema:"format of the documents: isolda (the default) or any format of the lab registry"`
	Hops      int      `json:"hops,omitempty" jsonschema:"radius of each neighbourhood, 1 (the default) to 8"`
	Tokenizer string   `json:"tokenizer,omitempty" jsonschema:"tokenizer of the budget and counts: o200k_base (the default), cl100k_base, or a model name the server offers"`
}

// ChunkOutput is the structured content of chunk.
type ChunkOutput struct {
	Documents []chunk.Chunk `json:"documents" jsonschema:"one document per entity, sorted by entity IRI, as the JSON lines of isolda chunk"`
}

// MCPServer returns an SDK server with every tool registered.
func (s *Server) MCPServer() *sdk.Server {
	version := s.cfg.Version
	if version == "" {
		version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "isolda", Title: "isolda: RDF graphs as LLM-friendly text", Version: version},
		&sdk.ServerOptions{Instructions: "isolda turns RDF graphs into compact text for prompts (the ISOLDA notation) and back, " +
			"counts tokens exactly, compares formats by tokens and fetches entity neighbourhoods from SPARQL endpoints. " +
			"Send graphs inline in data" + s.pathHint() + "."})
	addTool(srv, &sdk.Tool{Name: "encode", Title: "Encode a graph for a prompt",
		Description: "Writes an RDF graph as ISOLDA, a compact text notation for LLM prompts (tables of entities with a glossary), " +
			"or in any format of the lab registry (to). The text is the content; its token count, size and whether it holds " +
			"the whole graph are in the structured content. With budget, the text is cut at a record boundary to fit."},
		s.encode)
	addTool(srv, &sdk.Tool{Name: "decode", Title: "Decode an ISOLDA document",
		Description: "Rebuilds the RDF dataset an ISOLDA document encodes and writes it in an RDF syntax (canonical N-Quads by default). " +
			"A malformed document is an error naming its line and column."},
		s.decode)
	addTool(srv, &sdk.Tool{Name: "count_tokens", Title: "Count tokens",
		Description: "Counts the tokens of a text with a tokenizer (o200k_base by default): the exact number, the first word of the answer."},
		s.countTokens)
	addTool(srv, &sdk.Tool{Name: "compare_formats", Title: "Rank formats by tokens",
		Description: "Writes one graph in every format of the lab registry that is lossless for RDF (it decodes to the same dataset) " +
			"and ranks them by tokens, fewest first, as isolda bench does for one graph: which format gives this graph to a model in " +
			"the fewest tokens without losing a statement."},
		s.compare)
	addTool(srv, &sdk.Tool{Name: "describe", Title: "Describe an entity from a SPARQL endpoint",
		Description: "Fetches the neighbourhood of an entity (its statements, the links to it, and with hops the entities " +
			"further away) from a SPARQL endpoint the server allows, and writes it as an ISOLDA document, the entity first, " +
			"within the token budget."},
		s.describe)
	addTool(srv, &sdk.Tool{Name: "chunk", Title: "One document per entity",
		Description: "Writes, for every entity of a graph (an IRI that is the subject of a statement; cls restricts them), a " +
			"document of its neighbourhood within budget tokens (ISOLDA by default), for retrieval indexes. The content is " +
			"one JSON line per entity, {entity, format, text, tokens, sha256, statements_kept, statements_total}, as isolda chunk writes them."},
		s.chunk)
	return srv
}

// decodeTo is the syntax decode writes by default.
const decodeTo = rdfio.NQuads

// addTool registers a tool whose input schema is In's, with the
// placeholders of its descriptions filled from rdfio's syntax table:
// {readable}, the syntaxes a graph is read in (nt, nq, ttl, ... or html),
// and {writable}, those decode writes (nquads (the default), ntriples, ...).
func addTool[In, Out any](srv *sdk.Server, t *sdk.Tool, h sdk.ToolHandlerFor[In, Out]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic("mcp: the input schema of " + t.Name + ": " + err.Error()) // the types are this package's
	}
	readable := rdfio.ReadableNames()
	var writable []string
	for _, f := range rdfio.Writable() {
		if f == decodeTo {
			writable = append(writable, string(f)+" (the default)")
		} else {
			writable = append(writable, string(f))
		}
	}
	fill := strings.NewReplacer("{readable}", strings.Join(readable[:len(readable)-1], ", ")+" or "+readable[len(readable)-1],
		"{writable}", strings.Join(writable, ", "))
	for _, p := range schema.Properties {
		p.Description = fill.Replace(p.Description)
	}
	t.InputSchema = schema
	sdk.AddTool(srv, t, h)
}

// text returns a result whose content is t.
func text(t string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}
}

// guard turns a panic into a tool error.
func guard(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("internal error: %v", p)
	}
}

func (s *Server) encode(ctx context.Context, _ *sdk.CallToolRequest, in EncodeInput) (_ *sdk.CallToolResult, _ EncodeOutput, err error) {
	defer guard(&err)
	src, err := s.read(in.Data, "data", in.Path)
	if err != nil {
		return nil, EncodeOutput{}, err
	}
	req := server.SerializeRequest{
		Graph:  &server.Graph{Data: src.text, Format: in.Format, Base: in.Base},
		Format: cmp.Or(in.To, "isolda"), Tokenizer: in.Tokenizer, Budget: in.Budget, Anchor: in.Anchor,
	}
	opts := server.IsoldaOptions{Spec: in.Spec, IDs: in.IDs, Glossary: in.Glossary, Layout: in.Layout, NoTypes: in.NoTypes,
		NoConstants: in.NoConstants, InlineBnodes: in.InlineBnodes, InverseIndex: in.InverseIndex, Hops: in.Hops}
	if opts != (server.IsoldaOptions{}) {
		req.Options = &opts
	}
	return s.serialize(ctx, req, src.name)
}

// serialize calls POST /v1/serialize.
func (s *Server) serialize(ctx context.Context, req server.SerializeRequest, file string) (*sdk.CallToolResult, EncodeOutput, error) {
	var resp server.SerializeResponse
	if err := s.call(ctx, "/v1/serialize", req, &resp, file); err != nil {
		return nil, EncodeOutput{}, err
	}
	out := EncodeOutput{Format: resp.Format, Tokens: resp.Tokens, Tokenizer: resp.Tokenizer, Bytes: resp.Bytes, Quads: resp.Quads,
		Lossless: resp.Lossless, Truncated: resp.Truncated, DroppedRecords: resp.Dropped.Records, GraphHash: resp.GraphHash,
		Warnings: resp.Warnings}
	return text(resp.Text), out, nil
}

func (s *Server) decode(ctx context.Context, _ *sdk.CallToolRequest, in DecodeInput) (_ *sdk.CallToolResult, _ DecodeOutput, err error) {
	defer guard(&err)
	f, ok := formats.Lookup(cmp.Or(in.To, string(decodeTo)))
	if !ok {
		return nil, DecodeOutput{}, fmt.Errorf("to: %q is not a format (an RDF syntax such as turtle, or a registry name)", in.To)
	}
	src, err := s.read(in.Text, "text", in.Path)
	if err != nil {
		return nil, DecodeOutput{}, err
	}
	var resp server.DecodeResponse
	if err := s.call(ctx, "/v1/decode", server.DecodeRequest{Text: src.text, To: f.Name}, &resp, src.name); err != nil {
		return nil, DecodeOutput{}, err
	}
	return text(resp.Text), DecodeOutput{Format: resp.Format, Quads: resp.Quads, Bytes: resp.Bytes}, nil
}

func (s *Server) countTokens(ctx context.Context, _ *sdk.CallToolRequest, in CountInput) (_ *sdk.CallToolResult, _ CountOutput, err error) {
	defer guard(&err)
	tok, err := s.tokenizer(in.Tokenizer)
	if err != nil {
		return nil, CountOutput{}, err
	}
	src, err := s.read(in.Text, "text", in.Path)
	if err != nil {
		return nil, CountOutput{}, err
	}
	var resp server.TokensResponse
	if err := s.call(ctx, "/v1/tokens", server.TokensRequest{Text: src.text, Tokenizer: tok.Name()}, &resp, src.name); err != nil {
		return nil, CountOutput{}, err
	}
	return text(fmt.Sprintf("%d tokens (%s, %d bytes)", resp.Tokens, resp.Tokenizer, resp.Bytes)),
		CountOutput{Tokens: resp.Tokens, Tokenizer: resp.Tokenizer, Bytes: resp.Bytes}, nil
}

func (s *Server) compare(ctx context.Context, _ *sdk.CallToolRequest, in CompareInput) (_ *sdk.CallToolResult, _ CompareOutput, err error) {
	defer guard(&err)
	src, err := s.read(in.Data, "data", in.Path)
	if err != nil {
		return nil, CompareOutput{}, err
	}
	tokName := cmp.Or(in.Tokenizer, s.cfg.Service.DefaultTokenizer)
	// The formats lossless for RDF, as isolda bench ranks them (its
	// ScopeRDF): those that decode to the dataset; the formats of the
	// labelled-graph view drop literals and named graphs.
	var lossless []string
	for _, f := range formats.All() {
		if f.Lossless && f.Decode != nil {
			lossless = append(lossless, f.Name)
		}
	}
	var resp server.CompareResponse
	req := server.CompareRequest{Graph: &server.Graph{Data: src.text, Format: in.Format}, Formats: lossless, Tokenizer: tokName}
	if err := s.call(ctx, "/v1/compare", req, &resp, src.name); err != nil {
		return nil, CompareOutput{}, err
	}
	out := CompareOutput{Quads: resp.Quads, Tokenizer: tokName, Formats: []Ranked{}}
	for _, r := range resp.Results {
		if r.Error != "" || !r.Lossless {
			continue
		}
		out.Formats = append(out.Formats, Ranked{Format: r.Format, Family: r.Family, Tokens: r.Tokens[tokName], Bytes: r.Bytes})
	}
	slices.SortStableFunc(out.Formats, func(a, b Ranked) int {
		return cmp.Or(cmp.Compare(a.Tokens, b.Tokens), cmp.Compare(a.Bytes, b.Bytes), strings.Compare(a.Format, b.Format))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d quads; the formats that decode to this dataset, by %s tokens, fewest first:\n", resp.Quads, tokName)
	fmt.Fprintf(&b, "%-4s %-28s %8s %9s\n", "rank", "format", "tokens", "bytes")
	for i := range out.Formats {
		r := &out.Formats[i]
		r.Rank = i + 1
		fmt.Fprintf(&b, "%-4d %-28s %8d %9d\n", r.Rank, r.Format, r.Tokens, r.Bytes)
	}
	return text(b.String()), out, nil
}

// maxDescribeHops bounds the hops of describe: each hop is one more
// chain in the query, and neighbourhoods grow quickly with it.
const maxDescribeHops = 3

// describeQuery returns the CONSTRUCT query of the neighbourhood of iri:
// the chains of at most hops links from it, and the links to it.
func describeQuery(iri string, hops, limit int) string {
	var b strings.Builder
	b.WriteString("CONSTRUCT {\n  ?s0 ?in <" + iri + "> .\n")
	for k := 1; k <= hops; k++ {
		fmt.Fprintf(&b, "  %s ?p%d ?o%d .\n", node(iri, k-1), k, k)
	}
	b.WriteString("} WHERE {\n  { ?s0 ?in <" + iri + "> }\n")
	for k := 1; k <= hops; k++ {
		b.WriteString("  UNION { ")
		for j := 1; j <= k; j++ {
			fmt.Fprintf(&b, "%s ?p%d ?o%d . ", node(iri, j-1), j, j)
		}
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, "} LIMIT %d\n", limit)
	return b.String()
}

// node is the subject of the k+1-th link of a chain from iri.
func node(iri string, k int) string {
	if k == 0 {
		return "<" + iri + ">"
	}
	return fmt.Sprintf("?o%d", k)
}

func (s *Server) describe(ctx context.Context, _ *sdk.CallToolRequest, in DescribeInput) (_ *sdk.CallToolResult, _ EncodeOutput, err error) {
	defer guard(&err)
	if !rdf.IsAbsoluteIRI(in.IRI) || strings.ContainsAny(in.IRI, "<>\"{}|^`\\ \t\r\n") {
		return nil, EncodeOutput{}, fmt.Errorf("iri: %q is not an absolute IRI", in.IRI)
	}
	hops := cmp.Or(in.Hops, 1)
	if hops < 1 || hops > maxDescribeHops {
		return nil, EncodeOutput{}, fmt.Errorf("hops %d: give 1 to %d", in.Hops, maxDescribeHops)
	}
	if in.Endpoint == "" {
		return nil, EncodeOutput{}, errors.New("endpoint: give the URL of a SPARQL endpoint the server allows")
	}
	req := server.SerializeRequest{
		Graph:  &server.Graph{Endpoint: in.Endpoint, Query: describeQuery(in.IRI, hops, int(s.cfg.Service.MaxQuads))},
		Format: "isolda", Tokenizer: in.Tokenizer, Budget: in.Budget, Anchor: in.IRI,
		Options: &server.IsoldaOptions{Hops: hops},
	}
	return s.serialize(ctx, req, "")
}

func (s *Server) chunk(ctx context.Context, _ *sdk.CallToolRequest, in ChunkInput) (_ *sdk.CallToolResult, _ ChunkOutput, err error) {
	defer guard(&err)
	src, err := s.read(in.Data, "data", in.Path)
	if err != nil {
		return nil, ChunkOutput{}, err
	}
	req := server.ChunkRequest{Graph: &server.Graph{Data: src.text, Format: in.Format}, To: in.To, Budget: in.Budget,
		Hops: in.Hops, Class: in.Cls, Tokenizer: in.Tokenizer}
	var resp server.ChunkResponse
	if err := s.call(ctx, "/v1/chunk", req, &resp, src.name); err != nil {
		return nil, ChunkOutput{}, err
	}
	// The lines isolda chunk writes: each document as JSON without HTML
	// escaping.
	lines := make([]byte, 0, resp.Bytes)
	for i := range resp.Documents {
		lines = resp.Documents[i].AppendJSON(lines)
	}
	return text(string(lines)), ChunkOutput{Documents: resp.Documents}, nil
}
