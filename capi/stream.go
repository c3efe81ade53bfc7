package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// errClosed is what the documents' writer returns once the stream is
// closed, so that the chunker stops writing.
var errClosed = errors.New("isolda: the chunk stream was closed")

// chunkStream runs a chunk job on a goroutine of its own and hands its
// documents over in blocks of whole JSON lines, as they are written. The
// writer waits while a block is not taken (blocks holds one at most), so
// the documents not yet read by the caller take a bounded memory: the
// chunker's write buffer (256 KiB) and one block.
type chunkStream struct {
	blocks   chan []byte   // whole lines, in order; closed when the job ends
	done     chan struct{} // closed by close: the writer gives up
	ctx      context.Context
	cancel   context.CancelFunc // called by close: the chunker stops
	ended    chan struct{}      // closed when the job has returned
	encoded  int64              // documents the chunker encoded, read after ended
	closeOne sync.Once
	freeOne  sync.Once
	partial  []byte       // the end of the last write, not yet a whole line
	written  atomic.Int64 // documents (lines) handed to blocks so far
	status   int          // the job's outcome, read after blocks is closed
	result   []byte       // the job's error, as call's result
}

// Write sends the whole lines of p (with the partial line before them)
// as one block.
func (s *chunkStream) Write(p []byte) (int, error) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		s.partial = append(s.partial, p...)
		return len(p), nil
	}
	block := make([]byte, 0, len(s.partial)+i+1)
	block = append(append(block, s.partial...), p[:i+1]...)
	s.partial = append(s.partial[:0], p[i+1:]...)
	select {
	case <-s.done: // closed: give up even if a block could be sent
		return 0, errClosed
	default:
	}
	select {
	case s.blocks <- block:
		s.written.Add(int64(bytes.Count(block, []byte{'\n'})))
		return len(p), nil
	case <-s.done:
		return 0, errClosed
	}
}

// run runs the job and records its outcome; a panic is recovered.
func (s *chunkStream) run(job chunkJob) {
	defer close(s.ended)
	defer close(s.blocks)
	defer func() {
		if v := recover(); v != nil {
			s.status, s.result = statusPanic, fmt.Appendf(nil, "isolda: internal error (please report it): %v\n%s", v, debug.Stack())
		}
	}()
	st, err := job.run(s.ctx, s)
	s.encoded = st.Entities
	if err == nil && len(s.partial) > 0 {
		err = fmt.Errorf("isolda: chunk: %d bytes after the last document", len(s.partial))
	}
	if err != nil && !errors.Is(err, errClosed) && !errors.Is(err, context.Canceled) {
		s.status, s.result = failure(err, nil)
	}
}

// close stops the job (the writer gives up, the chunker's context is
// cancelled), waits for it to return and returns the number of documents
// the chunker encoded.
func (s *chunkStream) close() int64 {
	s.closeOne.Do(func() {
		close(s.done)
		s.cancel()
	})
	<-s.ended
	return s.encoded
}

//export isolda_chunk_open
func isolda_chunk_open(req *C.char, reqLen C.size_t, data *C.char, dataLen C.size_t, h *C.uintptr_t, out **C.char, outLen *C.size_t) C.int {
	status, res, s := chunkOpen(goBytes(req, reqLen), goBytes(data, dataLen))
	*h, *out, *outLen = 0, nil, 0
	if s != nil {
		*h = C.uintptr_t(cgo.NewHandle(s))
		return C.int(status)
	}
	*out, *outLen = (*C.char)(C.CBytes(res)), C.size_t(len(res))
	return C.int(status)
}

// chunkOpen checks a chunk request and starts its stream; on failure it
// returns the status and result of call.
func chunkOpen(req, data []byte) (status int, out []byte, s *chunkStream) {
	defer func() {
		if v := recover(); v != nil {
			status, out, s = statusPanic, fmt.Appendf(nil, "isolda: internal error (please report it): %v\n%s", v, debug.Stack()), nil
		}
	}()
	var r chunkRequest
	if err := decodeRequestJSON(req, &r); err != nil {
		st, res := failure(err, data)
		return st, res, nil
	}
	job, err := newChunkJob(r, data)
	if err != nil {
		st, res := failure(err, data)
		return st, res, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	s = &chunkStream{blocks: make(chan []byte, 1), done: make(chan struct{}), ctx: ctx, cancel: cancel, ended: make(chan struct{})}
	go s.run(job)
	return statusOK, nil, s
}

// stream returns the stream of a handle from isolda_chunk_open; nil for
// a handle that is not one (or no longer: cgo.Handle.Value panics then,
// which must not reach the caller's process).
func stream(h C.uintptr_t) (s *chunkStream) {
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	s, _ = cgo.Handle(h).Value().(*chunkStream)
	return s
}

//export isolda_chunk_next
func isolda_chunk_next(h C.uintptr_t, out **C.char, outLen *C.size_t) C.int {
	*out, *outLen = nil, 0
	s := stream(h)
	if s == nil {
		res := []byte("isolda: not a chunk stream")
		*out, *outLen = (*C.char)(C.CBytes(res)), C.size_t(len(res))
		return statusValueError
	}
	if block, ok := <-s.blocks; ok {
		*out, *outLen = (*C.char)(C.CBytes(block)), C.size_t(len(block))
		return statusOK
	}
	if s.status != statusOK {
		*out, *outLen = (*C.char)(C.CBytes(s.result)), C.size_t(len(s.result))
	}
	return C.int(s.status)
}

//export isolda_chunk_written
func isolda_chunk_written(h C.uintptr_t) C.int64_t {
	if s := stream(h); s != nil {
		return C.int64_t(s.written.Load())
	}
	return -1
}

//export isolda_chunk_close
func isolda_chunk_close(h C.uintptr_t) C.int64_t {
	s := stream(h)
	if s == nil {
		return -1
	}
	s.freeOne.Do(func() { cgo.Handle(h).Delete() })
	return C.int64_t(s.close())
}
