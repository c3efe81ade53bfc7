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

// codeUnits returns text as the code units of a Python str (PEP 393): one
// byte per code point (Latin-1) when every code point is below 256, two
// (UCS-2) below 65,536, four (UCS-4) otherwise, in the machine's byte
// order, in a buffer allocated with malloc. n is the number of code points
// and kind the width. Python builds its str from them with a copy
// (PyUnicode_FromKindAndData) instead of decoding UTF-8, which for a
// document with a few non-Latin letters widens its buffer as it goes and
// takes several times as long.
func codeUnits(text []byte) (buf unsafe.Pointer, n, kind int, err error) {
	// Pass 1: the number of code points and the largest, eight ASCII
	// bytes at a time.
	maxr := rune(0)
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
			return nil, 0, 0, errNotUTF8
		}
		maxr = max(maxr, r)
		i += w
		n++
	}
	switch {
	case maxr < 1<<8:
		kind = 1
	case maxr < 1<<16:
		kind = 2
	default:
		kind = 4
	}
	buf = C.malloc(C.size_t(max(n*kind, 1)))
	switch kind {
	case 1:
		out := unsafe.Slice((*byte)(buf), n)
		if n == len(text) { // ASCII
			copy(out, text)
			break
		}
		j := 0
		for _, r := range string(text) {
			out[j] = byte(r)
			j++
		}
	case 2:
		out := unsafe.Slice((*uint16)(buf), n)
		j := 0
		for _, r := range string(text) {
			out[j] = uint16(r)
			j++
		}
	case 4:
		out := unsafe.Slice((*uint32)(buf), n)
		j := 0
		for _, r := range string(text) {
			out[j] = uint32(r)
			j++
		}
	}
	return buf, n, kind, nil
}

// freeC frees a buffer of codeUnits (cgo cannot be used in tests).
func freeC(p unsafe.Pointer) { C.free(p) }
