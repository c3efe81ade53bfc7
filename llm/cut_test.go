package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestReadCutAgreesWithDecoder: for strings of every kind (escapes,
// surrogate pairs, multi-byte characters, invalid UTF-8), the cut body
// decodes (encoding/json, the oracle) to CutUTF8 of the full text, the
// recorded size is the full decoded size, and an uncut body passes through
// byte for byte.
func TestReadCutAgreesWithDecoder(t *testing.T) {
	pieces := []string{"a", "é", "€", "😀", "\"", "\\", "\n", "<", "\u2028", "\x01", "\t", "z"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 400; n++ {
		var sb strings.Builder
		for i := rng.IntN(80); i > 0; i-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := sb.String()
		body, _ := json.Marshal(map[string]any{"id": "x", "choices": []any{map[string]any{"index": 0,
			"message": map[string]any{"role": "assistant", "content": s}}}})
		// Also with \u escapes for every non-ASCII character (the
		// encoder writes them raw), surrogate pairs included.
		esc := asciiEscape(body)
		for _, b := range [][]byte{body, esc} {
			limit := rng.IntN(40) + 10 // "assistant" is never cut
			cb, err := readCut(bytes.NewReader(b), limit, 1<<20, 1<<20)
			if err != nil || cb.raw != int64(len(b)) {
				t.Fatalf("%s: err %v, raw %d", b, err, cb.raw)
			}
			var v struct {
				Choices []struct{ Message struct{ Content string } }
			}
			if err := json.Unmarshal(cb.out, &v); err != nil {
				t.Fatalf("cut body %s does not decode: %v", cb.out, err)
			}
			if len(v.Choices) == 0 {
				t.Fatalf("%s -> %s", b, cb.out)
			}
			got := v.Choices[0].Message.Content
			if want := CutUTF8(s, limit); got != want {
				t.Fatalf("limit %d on %q (%s): got %q, want %q", limit, s, b, got, want)
			}
			full, cut := cb.cuts[answerPath]
			if cut != (len(s) > limit) || cut && full != len(s) || len(cb.cuts) > 1 {
				t.Fatalf("limit %d on %q: cuts %v, want %d", limit, s, cb.cuts, len(s))
			}
			if !cut && !bytes.Equal(cb.out, b) {
				t.Fatalf("uncut body changed: %s → %s", b, cb.out)
			}
		}
	}
}

// asciiEscape rewrites every non-ASCII character inside a JSON text as \u
// escapes (surrogate pairs above U+FFFF).
func asciiEscape(b []byte) []byte {
	var out bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			out.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			out.WriteString(jsonU(0xD800 + (r >> 10)))
			out.WriteString(jsonU(0xDC00 + (r & 0x3FF)))
		default:
			out.WriteString(jsonU(r))
		}
	}
	return out.Bytes()
}

func jsonU(r rune) string {
	const hex = "0123456789abcdef"
	return `\u` + string([]byte{hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})
}

// TestReadCutLimits: more than maxRaw bytes, or a body still above maxOut
// once its strings are cut, fail with ErrResponseTooLarge; keys and nested
// paths are tracked.
func TestReadCutLimits(t *testing.T) {
	long := strings.Repeat("A", 5000)
	b := []byte(`{"choices":[{"x":[1,2,{"a":"b"}],"message":{"reasoning_content":"` + long + `","content":"` + long + `"}}],"usage":{}}`)
	cb, err := readCut(bytes.NewReader(b), 100, 1<<20, 1<<20)
	if err != nil || cb.cuts[answerPath] != 5000 || cb.cuts[reasonPath] != 5000 || len(cb.out) > 400 {
		t.Fatalf("err %v, cuts %v, %d bytes", err, cb.cuts, len(cb.out))
	}
	if _, err := readCut(bytes.NewReader(b), 100, 9000, 1<<20); !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("raw limit: %v", err)
	}
	ws := append(bytes.Repeat([]byte(" "), 10000), b...)
	if _, err := readCut(bytes.NewReader(ws), 100, 1<<20, 4096); !errors.Is(err, ErrResponseTooLarge) || !errors.Is(err, errEnvelope) {
		t.Errorf("envelope limit: %v", err)
	}
}

// FuzzReadCut: readCut never fails on a body within its limits, and a
// valid JSON body stays valid once its strings are cut.
func FuzzReadCut(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":"h\u00e9llo \ud83d\ude00 \"x\""}}]}`), 3)
	f.Add([]byte(`["abc\\", {"k\u0041": "\uD800x"}]`), 1)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		limit = limit%64 + 1
		if limit < 1 {
			limit += 64
		}
		cb, err := readCut(bytes.NewReader(b), limit, 1<<20, 1<<20)
		if err != nil || cb.raw != int64(len(b)) {
			t.Fatalf("err %v, raw %d of %d", err, cb.raw, len(b))
		}
		if json.Valid(b) && !json.Valid(cb.out) {
			t.Fatalf("limit %d: %q cut to invalid %q", limit, b, cb.out)
		}
	})
}
