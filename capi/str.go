package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"unicode/utf8"
	"unsafe"
)

// errNotUTF8 is the error of a result that should be text and is not
// UTF-8 (a bug: the encoder writes UTF-8).
var errNotUTF8 = errors.New("isolda: the result is not UTF-8")

// countUnits returns the number of code points of text and the largest,
// eight ASCII bytes at a time.
func countUnits(text []byte) (n int, maxr rune, err error) {
	for i := 0; i < len(text); {
		if i+8 <= len(text) && binary.LittleEndian.Uint64(text[i:])&0x8080808080808080 == 0 {
			i += 8
			n += 8
			continue
		}
		if text[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, w := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && w == 1 {
			return 0, 0, errNotUTF8
		}
		maxr = max(maxr, r)
		i += w
		n++
	}
	return n, maxr, nil
}

// unitKind is the width in bytes of the code units of a Python str
// (PEP 393) whose largest code point is maxr: 1 (Latin-1), 2 (UCS-2) or
// 4 (UCS-4).
func unitKind(maxr rune) int {
	switch {
	case maxr < 1<<8:
		return 1
	case maxr < 1<<16:
		return 2
	}
	return 4
}

// writeUnits writes the n code points of text (UTF-8, as countUnits
// checked) at buf, kind bytes each, in the machine's byte order.
func writeUnits(buf unsafe.Pointer, text []byte, n, kind int) {
	if n == 0 {
		return
	}
	switch kind {
	case 1:
		out := unsafe.Slice((*byte)(buf), n)
		if n == len(text) { // ASCII
			copy(out, text)
			break
		}
		putUnits(out, text)
	case 2:
		putUnits(unsafe.Slice((*uint16)(buf), n), text)
	case 4:
		putUnits(unsafe.Slice((*uint32)(buf), n), text)
	}
}

// putUnits writes the code points of text to out, one a unit.
func putUnits[U uint8 | uint16 | uint32](out []U, text []byte) {
	j := 0
	for _, r := range string(text) {
		out[j] = U(r)
		j++
	}
}

// codeUnits returns text as the code units of a Python str (PEP 393) in
// the narrowest width (see unitKind), in a buffer allocated with malloc. n
// is the number of code points and kind the width. Python builds its str
// from them with a copy (PyUnicode_FromKindAndData) instead of decoding
// UTF-8, which for a document with a few non-Latin letters widens its
// buffer as it goes and takes several times as long.
func codeUnits(text []byte) (buf unsafe.Pointer, n, kind int, err error) {
	n, maxr, err := countUnits(text)
	if err != nil {
		return nil, 0, 0, err
	}
	kind = unitKind(maxr)
	buf = C.malloc(C.size_t(max(n*kind, 1)))
	writeUnits(buf, text, n, kind)
	return buf, n, kind, nil
}

// freeC frees a buffer of codeUnits (cgo cannot be used in tests).
func freeC(p unsafe.Pointer) { C.free(p) }
