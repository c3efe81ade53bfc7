// Package jsonpos finds a value in JSON text by its path (object keys and
// array indexes), so that JSON-LD errors, found on decoded values, can name
// the line and column of the value at fault.
package jsonpos

import (
	"bytes"
	"encoding/json"
)

// The expander keeps the path (object keys and array indexes) of the value
// it is working on and leaves it in place when it returns an error; Offset
// then finds that value in the JSON text.

// Offset returns the byte offset in data of the value at path (or of
// the deepest value of the path that exists). An integer step applied to a
// value that is not an array (a value the algorithms treat as a one-item
// array) is skipped.
func Offset(data []byte, path []any) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	off, _ := valueAt(data, dec, path)
	return off
}

// nextValue returns the offset of the next value: after off, past white
// space, ':' and ','.
func nextValue(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// valueAt reads the next value of dec, returning the offset of the value
// at path within it; ok is false on a syntax error.
func valueAt(data []byte, dec *json.Decoder, path []any) (int, bool) {
	start := nextValue(data, int(dec.InputOffset()))
	if len(path) == 0 {
		return start, true
	}
	tok, err := dec.Token()
	if err != nil {
		return start, false
	}
	switch tok {
	case json.Delim('{'):
		if _, isIndex := path[0].(int); isIndex {
			path = path[1:]
			if len(path) == 0 {
				return start, true
			}
		}
		key, _ := path[0].(string)
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return start, false
			}
			if k, _ := kt.(string); k == key {
				off, ok := valueAt(data, dec, path[1:])
				if !ok {
					return start, false
				}
				return off, true
			}
			if !skipValue(dec) {
				return start, false
			}
		}
	case json.Delim('['):
		want, _ := path[0].(int)
		for i := 0; dec.More(); i++ {
			if i == want {
				return valueAt(data, dec, path[1:])
			}
			if !skipValue(dec) {
				return start, false
			}
		}
	}
	return start, true
}

// skipValue reads one value of dec; false on a syntax error.
func skipValue(dec *json.Decoder) bool {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}
