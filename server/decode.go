package server

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
)

// DecodeRequest is the body of POST /v1/decode: an ISOLDA document to
// write in another syntax, as `isolda decode -t TO`.
type DecodeRequest struct {
	// Text is the ISOLDA document, of any version (the document says
	// which) (required).
	Text string `json:"text"`
	// To is the output format: an RDF syntax (nquads, the default,
	// ntriples, turtle, trig, ...) or any name of the format registry.
	To string `json:"to,omitempty"`
}

// DecodeResponse is the answer of POST /v1/decode.
type DecodeResponse struct {
	// Text is the dataset the document encodes, written in Format: the
	// bytes `isolda decode -t` writes.
	Text string `json:"text"`
	// Format is the registry name of the format written.
	Format string `json:"format"`
	// Quads is the number of quads of the dataset.
	Quads int `json:"quads"`
	// Bytes is the size of Text.
	Bytes int `json:"bytes"`
}

// decodeTo is the format /v1/decode writes by default, as isolda decode.
const decodeTo = "nquads"

func (s *server) decode(req *request) (any, *apiError) {
	var r DecodeRequest
	if e := decodeWithData(req.body, &r, func() *string { return &r.Text }); e != nil {
		return nil, e
	}
	if r.Text == "" {
		return nil, badRequest(`request body: "text" is required: {"text": "@isolda 0.4\n..."}`)
	}
	f, ok := formats.Lookup(cmp.Or(r.To, decodeTo))
	if !ok {
		return nil, unprocessable(fmt.Sprintf("to: %s is not a format (an RDF syntax such as turtle, or a registry name: see GET /v1/formats)",
			quoteCapped(r.To, maxQuoted)))
	}
	n := len(r.Text)
	if e := req.mem.growTo(int64(len(req.body) + n)); e != nil {
		return nil, e
	}
	// ISOLDA is denser than the syntaxes LargeBytes is set for: a byte of
	// it is about decodeDensity bytes of N-Triples.
	if n*decodeDensity > s.cfg.LargeBytes {
		if e := req.takeLarge(); e != nil {
			return nil, e
		}
	}
	if e := req.mem.growTo(decodeCost(len(req.body), n)); e != nil {
		return nil, e
	}
	d, err := isolda.DecodeWith(ctxReader{req.ctx, strings.NewReader(r.Text)}, isolda.DecodeOptions{File: "text",
		Limits: rdf.Limits{MaxQuads: s.cfg.MaxQuads, MaxBytes: s.cfg.MaxRequestBytes}})
	if err != nil {
		if req.ctx.Err() != nil {
			return nil, s.timeout()
		}
		return nil, textError(err)
	}
	if int64(d.Len()) >= s.cfg.LargeQuads {
		if e := req.takeLarge(); e != nil {
			return nil, e
		}
	}
	// The decoder's tables are gone; the dataset and the text to come
	// stay.
	if e := req.mem.growTo(estimate(len(req.body), n, d.Len(), []string{f.Name}, 0)); e != nil {
		return nil, e
	}
	var b strings.Builder
	w := newGuardWriter(req, &b)
	err = f.Encode(w, formats.NewInput(d))
	if w.err != nil {
		err = w.err
	}
	if e := s.stopped(req, err); e != nil {
		return nil, e
	}
	if err != nil {
		if errors.Is(err, formats.ErrNoDataset) {
			return nil, unprocessable(fmt.Sprintf("to %s: the document is a labelled graph, and %s writes RDF datasets", f.Name, f.Name))
		}
		return nil, unprocessable(fmt.Sprintf("to %s: %s", f.Name, capMessage(err.Error())))
	}
	return &DecodeResponse{Text: b.String(), Format: f.Name, Quads: d.Len(), Bytes: b.Len()}, nil
}

// textError is the error of a document that does not decode: 400 with
// the line and column of a parse error, 413 for one over a limit.
func textError(err error) *apiError {
	status := http.StatusBadRequest
	if errors.Is(err, rdf.ErrLimit) {
		status = http.StatusRequestEntityTooLarge
	}
	e := &apiError{Status: status, Msg: "text: " + capMessage(err.Error())}
	var pe *rdf.ParseError
	if errors.As(err, &pe) {
		e.Msg = "text: " + pe.Msg
		if pe.Err != nil && !strings.Contains(pe.Msg, pe.Err.Error()) {
			e.Msg += ": " + pe.Err.Error()
		}
		e.Msg = capMessage(e.Msg)
		e.Line, e.Column = pe.Line, pe.Column
	}
	return e
}
