package server

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
)

// ChunkRequest is the body of POST /v1/chunk: a graph to write as one
// document per entity, as `isolda chunk`.
type ChunkRequest struct {
	// Graph is the graph (required).
	Graph *Graph `json:"graph"`
	// To is the format of the documents: a registry name or an RDF
	// syntax the registry writes (isolda, the default; as isolda chunk -t).
	To string `json:"to,omitempty"`
	// Budget is the most tokens of a document (absent: 512, as isolda
	// chunk; 0 keeps every statement).
	Budget *int `json:"budget,omitempty"`
	// Hops is the radius of a neighbourhood, 1 (the default) to 8.
	Hops int `json:"hops,omitempty"`
	// Class restricts the entities to the instances of these classes:
	// IRIs or prefixed names such as schema:Person (isolda chunk --class).
	Class []string `json:"class,omitempty"`
	// Glossary is the ISOLDA glossary: full (the default), legend or
	// none (ISOLDA formats only).
	Glossary string `json:"glossary,omitempty"`
	// Tokenizer names the tokenizer of the budget and the counts, as in
	// /v1/serialize.
	Tokenizer string `json:"tokenizer,omitempty"`
}

// ChunkResponse is the answer of POST /v1/chunk.
type ChunkResponse struct {
	// Documents are the entities' documents sorted by entity IRI: each,
	// written as JSON without HTML escaping (chunk.Chunk.AppendJSON), is
	// the line `isolda chunk` writes for it, byte for byte.
	Documents []chunk.Chunk `json:"documents"`
	// Entities is the number of documents.
	Entities int `json:"entities"`
	// Quads is the number of quads of the graph.
	Quads int `json:"quads"`
	// Format is the registry name of the documents' format.
	Format string `json:"format"`
	// Tokenizer is the name of the tokenizer of the budget and counts.
	Tokenizer string `json:"tokenizer"`
	// Bytes is the size of the JSON lines isolda chunk writes for them.
	Bytes int `json:"bytes"`
}

// chunkBudget is the budget of a document when the request gives none,
// as isolda chunk's --budget.
const chunkBudget = 512

// chunkSortMemory is the memory the sorts of a chunk run may hold before
// they spill to disk, as the MCP tool had it (chunk.RunOptions.Memory):
// graphs within the default limits stay in memory (a quad makes a few
// records of a few hundred bytes). With 2 hops or more, the third sorted
// set is written to disk whatever its size (chunk's runner keeps two in
// memory), within chunkMaxSpill.
const chunkSortMemory = 256 << 20

// chunkSpillPerByte is the disk a chunk run may use (the bytes its sorts
// write to the temporary folder, chunk.RunOptions.MaxSpill) per byte of
// the largest request body (Config.MaxRequestBytes): 512 MiB with the
// defaults. A request that needs more gets 413.
const chunkSpillPerByte = 64

// chunkMaxSpill returns the disk bound of a chunk run.
func (s *server) chunkMaxSpill() int64 { return chunkSpillPerByte * s.cfg.MaxRequestBytes }

func (s *server) chunk(req *request) (any, *apiError) {
	var r ChunkRequest
	if e := decodeRequest(req, &r, &r.Graph); e != nil {
		return nil, e
	}
	opts := chunk.Options{Format: cmp.Or(r.To, chunk.DefaultFormat), Budget: chunkBudget, Hops: cmp.Or(r.Hops, 1),
		Glossary: r.Glossary}
	if r.Budget != nil {
		if *r.Budget < 0 {
			return nil, unprocessable("budget must not be negative")
		}
		opts.Budget = *r.Budget
	}
	if opts.Hops < 1 || opts.Hops > chunk.MaxHops {
		return nil, unprocessable(fmt.Sprintf("hops %d: give 1 to %d", r.Hops, chunk.MaxHops))
	}
	f, ok := formats.Lookup(opts.Format)
	if !ok {
		return nil, unprocessable(fmt.Sprintf("to: %s is not a format of the registry (see GET /v1/formats)", quoteCapped(r.To, maxQuoted)))
	}
	opts.Format = f.Name
	for _, c := range r.Class {
		iri, err := chunk.ExpandClass(c)
		if err != nil {
			return nil, unprocessable("class: " + capMessage(err.Error()))
		}
		opts.Classes = append(opts.Classes, iri)
	}
	tok, e := s.tokenizer(r.Tokenizer)
	if e != nil {
		return nil, e
	}
	opts.Tokenizer = tok.Name()
	c, err := chunk.New(opts, tok)
	if err != nil {
		// The package's messages name the CLI's flag.
		msg := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "chunk: "), "--glossary none", `"glossary": "none"`)
		return nil, unprocessable(capMessage(strings.ReplaceAll(msg, "--glossary", "glossary")))
	}
	if e := s.takeLargeIf(req, r.Graph, 1); e != nil {
		return nil, e
	}
	d, e := s.readGraph(req, r.Graph)
	if e != nil {
		return nil, e
	}
	if e := req.mem.growTo(chunkCost(len(req.body), len(r.Graph.Data), d.Len(), opts.Hops)); e != nil {
		return nil, e
	}
	quads := d.Len()
	read := func(sink rdf.Sink) error {
		for _, q := range d.IDQuads() {
			if err := sink.AddQuad(d.Quad(q)); err != nil {
				return err
			}
		}
		d = nil // the sorts hold the graph from here on
		return nil
	}
	docs := &docWriter{}
	w := newGuardWriter(req, docs)
	maxSpill := s.chunkMaxSpill()
	st, err := c.RunContext(req.ctx, read, w, chunk.RunOptions{Memory: chunkSortMemory, Workers: 1, MaxSpill: maxSpill})
	if w.err != nil {
		err = w.err
	}
	if e := s.stopped(req, err); e != nil {
		return nil, e
	}
	if errors.Is(err, rdf.ErrLimit) {
		return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf(
			"chunking this graph with %d hops needs more than %s of temporary files, the server's bound for one request (%d bytes per byte of the largest request body): send a smaller graph or fewer hops",
			opts.Hops, mib(maxSpill), chunkSpillPerByte)}
	}
	if err != nil {
		return nil, unprocessable(fmt.Sprintf("to %s: %s", f.Name, capMessage(strings.TrimPrefix(err.Error(), "chunk: "))))
	}
	if docs.docs == nil {
		docs.docs = []chunk.Chunk{}
	}
	return &ChunkResponse{Documents: docs.docs, Entities: int(st.Entities), Quads: quads, Format: f.Name,
		Tokenizer: tok.Name(), Bytes: docs.bytes}, nil
}

// docWriter takes the JSON lines of a chunk run and keeps their
// documents.
type docWriter struct {
	partial []byte
	docs    []chunk.Chunk
	bytes   int
}

func (w *docWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.bytes += n
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			w.partial = append(w.partial, line...)
			line = w.partial
		}
		var ch chunk.Chunk
		if err := json.Unmarshal(line, &ch); err != nil {
			return 0, fmt.Errorf("internal error: a document of the chunk run: %v", err)
		}
		w.docs = append(w.docs, ch)
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}
