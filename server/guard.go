package server

import (
	"context"
	"fmt"
	"io"

	"github.com/isolda/isolda/rdf"
)

// ctxReader fails its reads once ctx is done, so that a parser stops
// soon after its request's time runs out.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// guardEvery is the number of quads between two checks of a guardSink.
const guardEvery = 4096

// guardSink adds quads to a dataset and, every guardEvery quads, stops
// the parse when the request's context is done and raises the request's
// memory reservation to cover the quads read so far (memParsePerQuad
// each, above base). At its largeAt-th quad the request is large: it
// takes a large slot (req.takeLarge), which stops the parse when none is
// free or when the request must move to a worker process.
type guardSink struct {
	d       *rdf.Dataset
	ctx     context.Context
	mem     *reservation
	req     *request
	largeAt int64
	base    int64
	n       int64
	err     *apiError // why the parse was stopped
}

func (g *guardSink) AddQuad(q rdf.Quad) error {
	g.n++
	if g.n == g.largeAt {
		if e := g.req.takeLarge(); e != nil {
			g.err = e
			return e
		}
	}
	if g.n%guardEvery == 0 {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		if e := g.mem.growTo(g.base + g.n*memParsePerQuad); e != nil {
			g.err = e
			return e
		}
	}
	return g.d.AddQuad(q)
}

// AddPrefix passes the input's prefixes to the dataset.
func (g *guardSink) AddPrefix(name, iri string) { g.d.AddPrefix(name, iri) }

// memError is the error a guardWriter fails with when the memory budget
// refuses the text's growth.
type memError struct{ e *apiError }

func (m *memError) Error() string { return m.e.Msg }

// textSlack is the text a guardWriter lets an encoder write beyond the
// estimate before it raises the reservation: the estimate already counts
// a text of the usual size.
const textSlack = 4 << 20

// guardWriter is the writer encoders write a text through. Once the
// request's context is done, every write fails, so that an encoder that
// writes as it goes stops soon after a 503; and when a text grows past
// what the estimate allowed for, the writer raises the request's memory
// reservation (twice the text, for a strings.Builder's growth), failing
// with a *memError when the budget cannot take it.
type guardWriter struct {
	req     *request
	w       io.Writer
	written int64
	allow   int64 // bytes written before the reservation must grow
	err     error
}

func newGuardWriter(req *request, w io.Writer) *guardWriter {
	return &guardWriter{req: req, w: w, allow: textSlack}
}

func (g *guardWriter) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if err := g.req.ctx.Err(); err != nil {
		g.err = err
		return 0, err
	}
	g.written += int64(len(p))
	if g.written > g.allow {
		more := 2 * (g.written - g.allow + textSlack)
		if e := g.req.mem.growTo(g.req.mem.n + more); e != nil {
			e.Msg = fmt.Sprintf("the text grew past %s: %s", mib(g.written), e.Msg)
			g.err = &memError{e}
			return 0, g.err
		}
		g.allow = g.written + textSlack
	}
	return g.w.Write(p)
}
