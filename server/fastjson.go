package server

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Fast decoding of a request's big string. A request is a few hundred bytes
// of JSON around one big string, the graph's data; encoding/json scans that
// string twice (once to find the end of the value, once to decode it) with
// a byte-at-a-time state machine and copies it twice more, which was an
// eighth of the CPU time of a /v1/serialize request. decodeWithData finds
// the longest string literal with a simple lexer, decodes it here in one
// pass, and lets encoding/json decode the rest of the body with a
// placeholder in its place. It falls back to decoding the original body
// with encoding/json whenever anything is unusual (the literal holds an
// escape or a byte this decoder does not handle, the placeholder did not
// end up in the graph's data, the rest fails to decode), so that every
// answer, error messages and positions included, is the one decodeJSON
// gives; TestUnquoteFast and FuzzUnquoteFast check the literal decoder
// against encoding/json, TestDecodeWithData and FuzzDecodeWithData the
// whole against decodeJSON.

// bigString is the length from which a string literal is decoded here.
const bigString = 4 << 10

// decodeWithData decodes body into v like decodeJSON; data returns the
// field of v that received the graph's data (nil when v has no graph).
func decodeWithData(body []byte, v any, data func() *string) *apiError {
	start, end := longestString(body)
	if end-start < bigString {
		return decodeJSON(body, v)
	}
	s, ok := unquoteFast(body[start+1 : end-1])
	if !ok {
		return decodeJSON(body, v)
	}
	// A placeholder no client can predict: a NUL and 128 random bits.
	var nonce [16]byte
	for i := range nonce {
		nonce[i] = byte(rand.Uint32())
	}
	ph := `\u0000` + hex.EncodeToString(nonce[:])
	rest := make([]byte, 0, len(body)-(end-start)+len(ph)+2)
	rest = append(rest, body[:start]...)
	rest = append(rest, '"')
	rest = append(rest, ph...)
	rest = append(rest, '"')
	rest = append(rest, body[end:]...)
	if e := decodeJSON(rest, v); e != nil || data() == nil || *data() != "\x00"+hex.EncodeToString(nonce[:]) {
		reflect.ValueOf(v).Elem().SetZero()
		return decodeJSON(body, v)
	}
	*data() = s
	return nil
}

// longestString returns the byte range, quotes included, of the longest
// string literal of the JSON text b, or (0, 0) when there is none or b
// ends inside a string. Outside strings no byte is a quote except the one
// that opens a string, so the lexer needs to know nothing else of JSON.
func longestString(b []byte) (start, end int) {
	for i := 0; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			break
		}
		s := i + q
		j := s + 1
		for {
			k := bytes.IndexByte(b[j:], '"')
			if k < 0 {
				return 0, 0 // unterminated: encoding/json reports it
			}
			j += k
			// The quote is escaped when an odd number of backslashes
			// precede it.
			n := 0
			for p := j - 1; p > s && b[p] == '\\'; p-- {
				n++
			}
			j++
			if n%2 == 0 {
				break
			}
		}
		if j-s > end-start {
			start, end = s, j
		}
		i = j
	}
	return start, end
}

// unquoteFast decodes the body of a JSON string literal (without its
// quotes) as encoding/json does, for literals of valid UTF-8 with any
// escape but a UTF-16 surrogate; ok is false for anything else (control
// characters, invalid UTF-8, surrogates, bad escapes), which encoding/json
// either rejects or decodes with replacement characters.
func unquoteFast(b []byte) (s string, ok bool) {
	var out strings.Builder // String does not copy
	out.Grow(len(b))
	for i := 0; i < len(b); {
		// Copy the run up to the next backslash, checking it.
		k := bytes.IndexByte(b[i:], '\\')
		run := b[i:]
		if k >= 0 {
			run = b[i : i+k]
		}
		for _, c := range run {
			if c < 0x20 || c == '"' {
				return "", false
			}
		}
		if !utf8.Valid(run) {
			return "", false
		}
		out.Write(run)
		if k < 0 {
			break
		}
		i += k
		if i+1 >= len(b) {
			return "", false
		}
		switch c := b[i+1]; c {
		case '"', '\\', '/':
			out.WriteByte(c)
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			if i+6 > len(b) {
				return "", false
			}
			r := rune(0)
			for _, h := range b[i+2 : i+6] {
				switch {
				case '0' <= h && h <= '9':
					h -= '0'
				case 'a' <= h && h <= 'f':
					h = h - 'a' + 10
				case 'A' <= h && h <= 'F':
					h = h - 'A' + 10
				default:
					return "", false
				}
				r = r<<4 | rune(h)
			}
			if utf16.IsSurrogate(r) {
				return "", false
			}
			out.WriteRune(r)
			i += 6
			continue
		default:
			return "", false
		}
		i += 2
	}
	return out.String(), true
}
