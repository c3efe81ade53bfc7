package rdfio

import (
	"errors"
	"io"

	"github.com/isolda/isolda/rdf"
)

// pipeBatch is the number of statements handed from the reading goroutine
// to the sink at a time, and pipeDepth the number of batches in flight:
// enough to keep both goroutines busy, little enough to stay a few
// hundred kilobytes.
const (
	pipeBatch = 256
	pipeDepth = 4
)

// item is a statement, or a prefix declaration when prefix is set.
type item struct {
	q      rdf.Quad
	prefix *rdf.Prefix
}

// errStopped stops the reader when the sink has failed.
var errStopped = errors.New("rdfio: sink stopped")

// ReadIntoPipelined is ReadInto with parsing and the sink on two
// goroutines, so that a streaming conversion uses two cores: the reader
// parses into batches while the sink consumes the previous ones, in the
// same order (prefix declarations stay in place among the statements when
// sink is an rdf.PrefixSink). The sink is called from the caller's
// goroutine only. Memory stays bounded: a few batches are in flight.
func ReadIntoPipelined(r io.Reader, sink rdf.Sink, opts Options) error {
	in, f, done, err := prepare(r, opts)
	if err != nil {
		return err
	}
	defer done()
	full := make(chan []item, pipeDepth)
	free := make(chan []item, pipeDepth+2)
	stop := make(chan struct{})
	for range pipeDepth + 2 {
		free <- make([]item, 0, pipeBatch)
	}
	var readErr error
	go func() {
		defer close(full)
		p := &pipeSink{full: full, free: free, stop: stop, cur: <-free}
		readErr = parse(in, f, p, opts)
		if p.err == nil && len(p.cur) > 0 { // also after a read error: the statements before it
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
			for i := range b {
				if b[i].prefix != nil {
					if psink != nil {
						psink.AddPrefix(b[i].prefix.Name, b[i].prefix.IRI)
					}
					continue
				}
				if err := sink.AddQuad(b[i].q); err != nil {
					sinkErr = err
					close(stop)
					break
				}
			}
		}
		clear(b) // drop the strings it holds
		free <- b[:0]
	}
	// full is closed: the reader has returned and readErr is set.
	if sinkErr != nil {
		return sinkErr
	}
	return readErr
}

// pipeSink is the reader side of ReadIntoPipelined.
type pipeSink struct {
	full chan<- []item
	free <-chan []item
	stop <-chan struct{}
	cur  []item
	err  error // errStopped once the sink has failed
}

func (p *pipeSink) AddQuad(q rdf.Quad) error {
	if p.err != nil {
		return p.err
	}
	p.cur = append(p.cur, item{q: q})
	if len(p.cur) == cap(p.cur) {
		return p.send()
	}
	return nil
}

func (p *pipeSink) AddPrefix(name, iri string) {
	if p.err != nil {
		return
	}
	p.cur = append(p.cur, item{prefix: &rdf.Prefix{Name: name, IRI: iri}})
	if len(p.cur) == cap(p.cur) {
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
