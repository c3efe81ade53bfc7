package llm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cutBody is a JSON response body read with its long strings cut: every
// string literal whose decoded text is longer than the answer cap keeps its
// first cap bytes (at a character boundary, never inside an escape) and is
// closed there, so the body stays valid JSON and what the SDK decodes is
// bounded by the cap, not by the size of what the server sent.
type cutBody struct {
	out []byte
	// raw is the number of bytes received.
	raw int64
	// cuts maps the path of each cut string ("choices/0/message/content")
	// to its full decoded size in bytes.
	cuts map[string]int
}

// maxKeyBytes bounds the part of an object key kept for a path.
const maxKeyBytes = 64

// maxKeyCut is the size beyond which an object key is cut, when the answer
// cap is smaller.
const maxKeyCut = 4096

// errEnvelope is wrapped in ErrResponseTooLarge when the body, its long
// strings cut, is still larger than the envelope bound.
var errEnvelope = errors.New("response envelope too large")

// readCut reads a JSON body from r, cutting every string longer than limit
// decoded bytes. It fails with ErrResponseTooLarge when more than maxRaw
// bytes arrive or when the cut body exceeds maxOut bytes; the body read so
// far is returned with the error.
func readCut(r io.Reader, limit int, maxRaw, maxOut int64) (cutBody, error) {
	br := bufio.NewReaderSize(r, 32<<10)
	var cb cutBody
	type frame struct {
		obj       bool
		expectKey bool
		key       string
		idx       int
	}
	var stack []frame
	path := func() string {
		var sb strings.Builder
		for i, f := range stack {
			if i > 0 {
				sb.WriteByte('/')
			}
			if f.obj {
				sb.WriteString(f.key)
			} else {
				sb.WriteString(strconv.Itoa(f.idx))
			}
		}
		return sb.String()
	}
	tooLarge := func() error {
		if cb.raw > maxRaw {
			return ErrResponseTooLarge
		}
		return fmt.Errorf("%w: %w", ErrResponseTooLarge, errEnvelope)
	}
	next := func() (byte, error) {
		c, err := br.ReadByte()
		if err == nil {
			cb.raw++
		}
		return c, err
	}
	for {
		c, err := next()
		if err == io.EOF {
			return cb, nil
		}
		if err != nil {
			return cb, err
		}
		if cb.raw > maxRaw || int64(len(cb.out)) >= maxOut {
			return cb, tooLarge()
		}
		switch c {
		case '{':
			stack = append(stack, frame{obj: true, expectKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].obj {
					stack[n-1].expectKey = true
				} else {
					stack[n-1].idx++
				}
			}
		case ':':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = false
			}
		}
		cb.out = append(cb.out, c)
		if c != '"' {
			continue
		}
		// A string literal: copy it, cut at limit decoded bytes.
		isKey := len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].expectKey
		limit := limit
		if isKey && limit >= 0 {
			limit = max(limit, maxKeyCut) // a key is cut only when hostile
		}
		start := len(cb.out)
		decoded, cut, highAt, afterHigh := 0, false, -1, false
		emit := func(b []byte, n int) {
			if cut {
				decoded += n
				return
			}
			if limit >= 0 && decoded+n > limit {
				cut = true
				// Never leave half a character or half a surrogate pair.
				if highAt >= 0 && highAt == len(cb.out)-6 {
					cb.out = cb.out[:highAt]
				}
				if len(b) == 1 && !utf8.RuneStart(b[0]) {
					i := len(cb.out)
					for i > start && i > len(cb.out)-utf8.UTFMax && !utf8.RuneStart(cb.out[i-1]) {
						i--
					}
					if i > start && cb.out[i-1] >= utf8.RuneSelf {
						i--
					}
					cb.out = cb.out[:i]
				}
				decoded += n
				return
			}
			decoded += n
			cb.out = append(cb.out, b...)
		}
		for {
			c, err = next()
			if err == io.EOF {
				return cb, nil // unterminated: the SDK reports it
			}
			if err != nil {
				return cb, err
			}
			if cb.raw > maxRaw || int64(len(cb.out)) >= maxOut {
				return cb, tooLarge()
			}
			if c == '"' {
				break
			}
			if c != '\\' {
				if !cut && (limit < 0 || decoded < limit) {
					decoded++
					cb.out = append(cb.out, c)
				} else {
					emit([]byte{c}, 1)
				}
				highAt, afterHigh = -1, false
				continue
			}
			e, err := next()
			if err != nil {
				if err == io.EOF {
					return cb, nil
				}
				return cb, err
			}
			if e != 'u' {
				emit([]byte{c, e}, 1)
				highAt, afterHigh = -1, false
				continue
			}
			var u [6]byte
			u[0], u[1] = c, e
			for i := 2; i < 6; i++ {
				if u[i], err = next(); err != nil {
					if err == io.EOF {
						return cb, nil
					}
					return cb, err
				}
			}
			v, perr := strconv.ParseUint(string(u[2:]), 16, 16)
			switch {
			case perr != nil:
				emit(u[:], 1) // invalid: the SDK reports it
			case v >= 0xD800 && v < 0xDC00: // high surrogate: 3 alone, 4 with its low half
				pos := len(cb.out)
				emit(u[:], 3)
				highAt, afterHigh = pos, true
				continue
			case v >= 0xDC00 && v < 0xE000 && afterHigh:
				emit(u[:], 1)
			case v < 0x80:
				emit(u[:], 1)
			case v < 0x800:
				emit(u[:], 2)
			default:
				emit(u[:], 3)
			}
			highAt, afterHigh = -1, false
		}
		cb.out = append(cb.out, '"')
		if isKey {
			if n := len(stack); n > 0 {
				k := cb.out[start : len(cb.out)-1]
				if len(k) > maxKeyBytes {
					k = k[:maxKeyBytes]
				}
				stack[n-1].key = string(k)
			}
		}
		if cut {
			if cb.cuts == nil {
				cb.cuts = map[string]int{}
			}
			cb.cuts[path()] = decoded
		}
	}
}
