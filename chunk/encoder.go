package chunk

import (
	"bufio"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// encodeBatch is the number of neighbourhoods an OrderedEncoder's
// goroutine encodes at a time.
const encodeBatch = 64

// batchesPerWorker bounds the batches added and not yet written (queued,
// being encoded, or encoded and waiting for an earlier one) per goroutine,
// so that one slow document does not let the others pile up.
const batchesPerWorker = 3

// An OrderedEncoder encodes neighbourhoods on several goroutines and
// writes their documents as JSON lines in the order they were added:
// encoding is most of the work of writing the documents, and their order
// (by entity key) is part of the output. At most 3 batches of 64 per
// goroutine are added and not yet written. The runner of Run and
// isolda-beam's gathering write through it.
type OrderedEncoder struct {
	encode  func(*Neighbourhood) (Chunk, error)
	work    chan *encodeJob
	slots   chan struct{} // one per batch added and not yet written
	workers sync.WaitGroup
	werr    chan error
	cur     *encodeJob
	seq     int
	written atomic.Int64 // documents written, counted by the writer
}

type encodeJob struct {
	seq int
	nbs []*Neighbourhood
	out []byte
	n   int
	err error
}

// NewOrderedEncoder starts workers goroutines (GOMAXPROCS when 0 or
// less) encoding with encode (such as Chunker.Encode), and a writer of
// their lines to w. Close must be called to stop them.
func NewOrderedEncoder(encode func(*Neighbourhood) (Chunk, error), workers int, w io.Writer) *OrderedEncoder {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &OrderedEncoder{encode: encode, work: make(chan *encodeJob, workers), werr: make(chan error, 1), cur: &encodeJob{},
		slots: make(chan struct{}, batchesPerWorker*workers)}
	results := make(chan *encodeJob, workers)
	for range workers {
		e.workers.Add(1)
		go func() {
			defer e.workers.Done()
			for j := range e.work {
				for _, nb := range j.nbs {
					ch, err := e.encode(nb)
					if err != nil {
						j.err = err
						break
					}
					j.out = ch.AppendJSON(j.out)
					j.n++
				}
				j.nbs = nil
				results <- j
			}
		}()
	}
	go func() {
		e.workers.Wait()
		close(results)
	}()
	go e.write(w, results)
	return e
}

// write writes the jobs' lines in sequence order; after the first error
// it writes nothing more.
func (e *OrderedEncoder) write(w io.Writer, results <-chan *encodeJob) {
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
				e.written.Add(int64(j.n))
			}
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	e.werr <- err
}

// Add queues a neighbourhood; its line is written after those added
// before it. It blocks while the encoder holds its bound of batches.
func (e *OrderedEncoder) Add(nb *Neighbourhood) {
	e.cur.nbs = append(e.cur.nbs, nb)
	if len(e.cur.nbs) == encodeBatch {
		e.send()
	}
}

func (e *OrderedEncoder) send() {
	e.slots <- struct{}{}
	e.cur.seq = e.seq
	e.seq++
	e.work <- e.cur
	e.cur = &encodeJob{}
}

// Written returns the number of documents written so far.
func (e *OrderedEncoder) Written() int64 { return e.written.Load() }

// Close encodes and writes what is queued, stops the goroutines and
// returns the number of documents written and the first error of
// encoding or writing.
func (e *OrderedEncoder) Close() (int64, error) {
	if len(e.cur.nbs) > 0 {
		e.send()
	}
	close(e.work)
	err := <-e.werr
	return e.written.Load(), err
}
