package main

import (
	"bufio"
	"io"
	"runtime"
	"sync"

	"github.com/isolda/isolda/chunk"
)

// encodeBatch is the number of neighbourhoods a goroutine of an
// orderedEncoder encodes at a time (as isolda chunk's writer does).
const encodeBatch = 64

// orderedEncoder encodes neighbourhoods on several goroutines and writes
// their JSON lines in the order they were added, as isolda chunk's
// writer does, with at most 3 batches per goroutine added and not yet
// written (queued, being encoded, or encoded and waiting for an earlier
// one): encoding is most of the gathering's work, and a runner
// gives a worker one bucket (Prism: every bucket, one after another) to
// gather, on one goroutine.
type orderedEncoder struct {
	encode func(*chunk.Neighbourhood) (chunk.Chunk, error)
	work   chan *encodeJob
	slots  chan struct{} // one per batch added and not yet written
	done   sync.WaitGroup
	werr   chan error
	cur    *encodeJob
	seq    int
	docs   int // written, counted by the writer
}

type encodeJob struct {
	seq int
	nbs []*chunk.Neighbourhood
	out []byte
	n   int
	err error
}

// newOrderedEncoder starts workers goroutines (GOMAXPROCS when 0 or
// less) encoding with encode, and a writer of their lines to w.
func newOrderedEncoder(encode func(*chunk.Neighbourhood) (chunk.Chunk, error), workers int, w io.Writer) *orderedEncoder {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &orderedEncoder{encode: encode, work: make(chan *encodeJob, workers), werr: make(chan error, 1), cur: &encodeJob{},
		slots: make(chan struct{}, 3*workers)}
	results := make(chan *encodeJob, workers)
	for range workers {
		e.done.Add(1)
		go func() {
			defer e.done.Done()
			for j := range e.work {
				if j.err == nil {
					for _, nb := range j.nbs {
						ch, err := e.encode(nb)
						if err != nil {
							j.err = err
							break
						}
						j.out = ch.AppendJSON(j.out)
						j.n++
					}
				}
				j.nbs = nil
				results <- j
			}
		}()
	}
	go func() {
		e.done.Wait()
		close(results)
	}()
	go func() {
		bw := bufio.NewWriterSize(w, 256<<10)
		pending := map[int]*encodeJob{}
		next := 0
		var err error
		for j := range results {
			pending[j.seq] = j
			for {
				j, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				<-e.slots
				if err == nil {
					err = j.err
				}
				if err == nil {
					_, err = bw.Write(j.out)
					e.docs += j.n
				}
			}
		}
		if err == nil {
			err = bw.Flush()
		}
		e.werr <- err
	}()
	return e
}

// add queues a neighbourhood; its line is written after those added
// before it.
func (e *orderedEncoder) add(nb *chunk.Neighbourhood) {
	e.cur.nbs = append(e.cur.nbs, nb)
	if len(e.cur.nbs) == encodeBatch {
		e.send()
	}
}

func (e *orderedEncoder) send() {
	e.slots <- struct{}{} // at most 3 workers batches not yet written
	e.cur.seq = e.seq
	e.seq++
	e.work <- e.cur
	e.cur = &encodeJob{}
}

// close encodes and writes what is queued, stops the goroutines and
// returns the number of documents written and the first error of
// encoding or writing.
func (e *orderedEncoder) close() (int, error) {
	if len(e.cur.nbs) > 0 {
		e.send()
	}
	close(e.work)
	err := <-e.werr
	return e.docs, err
}
