// Command capi is isolda's exported C API, built as a shared library
// (go build -buildmode=c-shared) for the Python package in python/, which
// calls it through ctypes. It has no logic of its own: each operation reads
// a JSON request and bytes, calls the Go packages (isolda, rdf/rdfio, token,
// chunk, formats) as the CLI does, and returns bytes.
//
// The boundary:
//
//	int isolda_call(int op, const char *req, size_t req_len,
//	                const char *data, size_t data_len,
//	                char **out, size_t *out_len);
//	int isolda_call_str(int op, const char *req, size_t req_len,
//	                    const char *data, size_t data_len,
//	                    void **out, size_t *out_len, int *kind);
//	int isolda_call_text(int op, const char *req, size_t req_len,
//	                     const char *data, size_t data_len,
//	                     uintptr_t *h, size_t *n, uint32_t *maxchar,
//	                     char **out, size_t *out_len);
//	void isolda_text_fill(uintptr_t h, void *dst, int kind);
//	void isolda_free(char *p);
//	uintptr_t isolda_registry(const char *models_dir, size_t len, int special);
//	void isolda_registry_free(uintptr_t h);
//	int isolda_chunk_open(const char *req, size_t req_len,
//	                      const char *data, size_t data_len,
//	                      uintptr_t *h, char **out, size_t *out_len);
//	int isolda_chunk_next(uintptr_t h, char **out, size_t *out_len);
//	int64_t isolda_chunk_written(uintptr_t h);
//	int64_t isolda_chunk_close(uintptr_t h);
//
// isolda_call returns a status (0 ok, 1 parse error as JSON with the line,
// column and byte offset, 2 bad argument, 3 other error, 4 a panic, which
// is recovered and never reaches the caller's process) and sets *out to a
// buffer of *out_len bytes, allocated with malloc, that the caller frees
// with isolda_free. isolda_call_str is isolda_call for an operation whose
// result is text (encode): on success *out holds the code units of a
// Python str of *out_len code points, *kind bytes each (1, 2 or 4: see
// codeUnits); on failure *kind is 0 and *out is as isolda_call's. The inputs are copied before the call returns, so the
// caller may free them at once. Every function is safe to call from many
// threads at once. Graphs cross the boundary in the packed form of
// pack.go, never in an RDF syntax.
//
// isolda_call_text is isolda_call_str without the library's copy of the
// code units: on success it keeps the text and sets *h to it, *n to its
// number of code points and *maxchar to the largest (the arguments of
// CPython's PyUnicode_New), and *out to NULL; the caller makes the str
// and passes its buffer to isolda_text_fill, which writes the code units
// there, kind bytes each, and frees the text (dst NULL: only frees it).
// On failure *h is 0 and *out is as isolda_call's.
//
// isolda_chunk_open starts the chunk operation (the request of
// isolda_call's) on a goroutine and sets *h to a stream, or returns the
// status of a bad request (then *h is 0); isolda_chunk_next returns the
// next block of documents (whole JSON lines, as isolda chunk writes
// them) as they are written, an empty result at the end, or the status
// of the operation's failure; isolda_chunk_written is the number of
// documents handed over so far; isolda_chunk_close stops the operation
// (the chunker's context is cancelled), waits for it to end, frees the
// stream and returns the number of documents the chunker encoded (-1 for
// a handle that is not a stream). Documents not yet read wait in a bounded buffer:
// the operation waits for the reader (see stream.go).
//
// A tokenizer registry (isolda_registry) loads each tokenizer once; its
// handle is passed in the requests of tokens and chunk, and the caller
// frees it with isolda_registry_free.
package main

/*
#include <stdlib.h>
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/isolda/isolda/token"
)

//export isolda_call
func isolda_call(op C.int, req *C.char, reqLen C.size_t, data *C.char, dataLen C.size_t, out **C.char, outLen *C.size_t) C.int {
	status, res := call(int(op), goBytes(req, reqLen), goBytes(data, dataLen))
	*out, *outLen = (*C.char)(C.CBytes(res)), C.size_t(len(res))
	return C.int(status)
}

//export isolda_call_str
func isolda_call_str(op C.int, req *C.char, reqLen C.size_t, data *C.char, dataLen C.size_t, out *unsafe.Pointer, outLen *C.size_t, kind *C.int) C.int {
	status, res := call(int(op), goBytes(req, reqLen), goBytes(data, dataLen))
	*kind = 0
	if status == statusOK {
		buf, n, k, err := codeUnits(res)
		if err == nil {
			*out, *outLen, *kind = buf, C.size_t(n), C.int(k)
			return C.int(status)
		}
		status, res = statusError, []byte(err.Error())
	}
	*out, *outLen = C.CBytes(res), C.size_t(len(res))
	return C.int(status)
}

// textResult is a text that isolda_call_text keeps for isolda_text_fill.
type textResult struct {
	text []byte
	n    int
}

//export isolda_call_text
func isolda_call_text(op C.int, req *C.char, reqLen C.size_t, data *C.char, dataLen C.size_t, h *C.uintptr_t, n *C.size_t, maxchar *C.uint32_t, out **C.char, outLen *C.size_t) C.int {
	status, res := call(int(op), goBytes(req, reqLen), goBytes(data, dataLen))
	*h, *n, *maxchar, *out, *outLen = 0, 0, 0, nil, 0
	if status == statusOK {
		cnt, maxr, err := countUnits(res)
		if err == nil {
			*h = C.uintptr_t(cgo.NewHandle(&textResult{text: res, n: cnt}))
			*n, *maxchar = C.size_t(cnt), C.uint32_t(maxr)
			return C.int(status)
		}
		status, res = statusError, []byte(err.Error())
	}
	*out, *outLen = (*C.char)(C.CBytes(res)), C.size_t(len(res))
	return C.int(status)
}

//export isolda_text_fill
func isolda_text_fill(h C.uintptr_t, dst unsafe.Pointer, kind C.int) {
	if h == 0 {
		return
	}
	handle := cgo.Handle(h)
	t, ok := handle.Value().(*textResult)
	handle.Delete()
	if ok && dst != nil && (kind == 1 || kind == 2 || kind == 4) {
		writeUnits(dst, t.text, t.n, int(kind))
	}
}

// goBytes copies n bytes at p into Go memory (C.GoBytes takes an int
// length: 2 GiB at most).
func goBytes(p *C.char, n C.size_t) []byte {
	if n == 0 {
		return []byte{}
	}
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))...)
}

//export isolda_free
func isolda_free(p *C.char) { C.free(unsafe.Pointer(p)) }

//export isolda_registry
func isolda_registry(modelsDir *C.char, n C.size_t, special C.int) C.uintptr_t {
	reg := token.NewRegistry(token.Options{ModelsDir: string(goBytes(modelsDir, n)), Special: special != 0})
	return C.uintptr_t(cgo.NewHandle(reg))
}

//export isolda_registry_free
func isolda_registry_free(h C.uintptr_t) {
	if h != 0 {
		cgo.Handle(h).Delete()
	}
}

func main() {}
