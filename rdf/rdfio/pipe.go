package rdfio

import (
	"errors"
	"io"
	"strings"
	"unsafe"

	"github.com/isolda/isolda/rdf"
)

// pipeBatch is the number of statements handed from the reading goroutine
// to the sink at a time, pipeArena the bytes of term text a batch holds
// with ReadOptions.Transient, and pipeDepth the number of batches in
// flight (two more wait to be filled): enough to keep both goroutines busy
// with few hand-overs, little enough to stay under 2 MB.
const (
	pipeBatch = 1024
	pipeArena = 128 << 10
	pipeDepth = 2
)

// item is a statement, or a prefix declaration when prefix is set.
type item struct {
	q      rdf.Quad
	prefix *rdf.Prefix
}

// batch is a run of items. With ReadOptions.Transient their strings are
// views of arena, which is reused once the sink has had the batch.
type batch struct {
	items []item
	arena []byte
}

// errStopped stops the reader when the sink has failed.
var errStopped = errors.New("rdfio: sink stopped")

// ReadIntoPipelined is ReadInto with parsing and the sink on two
// goroutines, so that a streaming conversion uses two cores: the reader
// parses into batches while the sink consumes the previous ones, in the
// same order (prefix declarations stay in place among the statements when
// sink is an rdf.PrefixSink). The sink is called from the caller's
// goroutine only. Memory stays bounded: a few batches are in flight.
//
// With opts.Transient (the sink copies what it keeps), the reader gives
// views of its buffer, which are copied into the batch's reusable arena:
// a statement costs no allocation.
func ReadIntoPipelined(r io.Reader, sink rdf.Sink, opts Options) error {
	in, f, gz, done, err := prepareGzip(r, opts)
	if err != nil {
		return err
	}
	defer done()
	full := make(chan *batch, pipeDepth)
	free := make(chan *batch, pipeDepth+2)
	stop := make(chan struct{})
	for range pipeDepth + 2 {
		b := &batch{items: make([]item, 0, pipeBatch)}
		if opts.Transient {
			b.arena = make([]byte, 0, pipeArena)
		}
		free <- b
	}
	var readErr error
	go func() {
		defer close(full)
		p := &pipeSink{full: full, free: free, stop: stop, cur: <-free, transient: opts.Transient && viewsTerms(f)}
		if wholeDocument(f) {
			readErr = parseLimited(in, f, gz, p, opts)
		} else {
			readErr = parse(in, f, p, opts)
		}
		if p.err == nil && len(p.cur.items) > 0 { // also after a read error: the statements before it
			select {
			case full <- p.cur:
			case <-stop:
			}
		}
	}()
	psink, _ := sink.(rdf.PrefixSink)
	var sinkErr error
	for b := range full {
		if sinkErr == nil {
			for i := range b.items {
				it := &b.items[i]
				if it.prefix != nil {
					if psink != nil {
						psink.AddPrefix(it.prefix.Name, it.prefix.IRI)
					}
					continue
				}
				if err := sink.AddQuad(it.q); err != nil {
					sinkErr = err
					close(stop)
					break
				}
			}
		}
		if len(b.arena) == 0 {
			clear(b.items) // drop the strings they hold
		}
		b.items, b.arena = b.items[:0], b.arena[:0]
		free <- b
	}
	// full is closed: the reader has returned and readErr is set.
	if sinkErr != nil {
		return sinkErr
	}
	return readErr
}

// viewsTerms reports whether the reader of f gives views of its buffer
// with ReadOptions.Transient, which the pipeline copies; the others' strings
// are handed on as they are (Syntax.Views).
func viewsTerms(f Format) bool {
	s, _ := SyntaxOf(f)
	return s.Views
}

// pipeSink is the reader side of ReadIntoPipelined.
type pipeSink struct {
	full      chan<- *batch
	free      <-chan *batch
	stop      <-chan struct{}
	cur       *batch
	transient bool  // copy the strings of quads into cur.arena
	err       error // errStopped once the sink has failed
}

func (p *pipeSink) AddQuad(q rdf.Quad) error {
	if p.err != nil {
		return p.err
	}
	if p.transient && len(p.cur.arena)+quadBytes(&q) > cap(p.cur.arena) && len(p.cur.items) > 0 {
		if err := p.send(); err != nil {
			return err
		}
	}
	p.cur.items = append(p.cur.items, item{q: q})
	if p.transient {
		p.keepQuad(&p.cur.items[len(p.cur.items)-1].q)
	}
	if len(p.cur.items) == cap(p.cur.items) {
		return p.send()
	}
	return nil
}

// quadBytes returns the length of the strings of q.
func quadBytes(q *rdf.Quad) int {
	return termBytes(&q.S) + termBytes(&q.P) + termBytes(&q.O) + termBytes(&q.G)
}

func termBytes(t *rdf.Term) int { return len(t.Value) + len(t.Datatype) + len(t.Lang) + len(t.Dir) }

// keepQuad replaces the strings of q by copies in the arena (or on the heap
// when the arena is full: only for a statement larger than an arena).
func (p *pipeSink) keepQuad(q *rdf.Quad) {
	for _, t := range [4]*rdf.Term{&q.S, &q.P, &q.O, &q.G} {
		if t.Kind == rdf.None {
			continue
		}
		t.Value = p.keep(t.Value)
		if t.Datatype != rdf.XSDString && t.Datatype != rdf.RDFLangString {
			t.Datatype = p.keep(t.Datatype)
		}
		t.Lang = p.keep(t.Lang)
		t.Dir = p.keep(t.Dir)
	}
}

func (p *pipeSink) keep(s string) string {
	if s == "" {
		return ""
	}
	a := p.cur.arena
	if len(a)+len(s) > cap(a) {
		return strings.Clone(s)
	}
	p.cur.arena = append(a, s...)
	return unsafe.String(&p.cur.arena[len(a)], len(s))
}

func (p *pipeSink) AddPrefix(name, iri string) {
	if p.err != nil {
		return
	}
	if p.transient {
		name, iri = strings.Clone(name), strings.Clone(iri)
	}
	p.cur.items = append(p.cur.items, item{prefix: &rdf.Prefix{Name: name, IRI: iri}})
	if len(p.cur.items) == cap(p.cur.items) {
		p.send() // a failed sink is reported at the next statement
	}
}

func (p *pipeSink) send() error {
	select {
	case p.full <- p.cur:
	case <-p.stop:
		p.err = errStopped
		return p.err
	}
	select {
	case p.cur = <-p.free:
	case <-p.stop:
		p.err = errStopped
		return p.err
	}
	return nil
}
