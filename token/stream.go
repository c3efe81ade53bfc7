package token

import (
	"bytes"
	"errors"
	"io"
)

// streamer is implemented by the encoders that can count a text in parts.
type streamer interface {
	// cutSafe reports whether cutting the text after a newline and before
	// an ASCII letter leaves the ids unchanged.
	cutSafe() bool
	// appendBody encodes without the post-processor's special tokens.
	appendBody(sc *scratch, text string, dst []int) []int
	// extra is the number of special tokens the post-processor adds.
	extra() int
}

// streamBlock is how much CountReader reads at a time.
const streamBlock = 1 << 20

// CountReader returns the number of tokens of the text read from r: the
// same number as tok.Count on the whole text. For the tokenizers of this
// package whose pre-tokenization allows it (all the supported models do),
// it reads in blocks of about 1 MiB and counts each part as it goes,
// cutting only after a newline that is followed by an ASCII letter, where a
// cut provably changes nothing; a text with no such place is held whole.
// Other tokenizers get the whole text at once.
func CountReader(tok Tokenizer, r io.Reader) (int, error) {
	return countReader(tok, r, streamBlock)
}

func countReader(tok Tokenizer, r io.Reader, block int) (int, error) {
	b, ok := tok.(*base)
	var st streamer
	if ok {
		st, ok = b.enc.(streamer)
	}
	if !ok || !st.cutSafe() {
		data, err := io.ReadAll(r)
		if err != nil {
			return 0, err
		}
		return tok.Count(string(data)), nil
	}
	sc := b.pool.get()
	defer b.pool.put(sc)
	sc.counting, sc.counted = true, 0
	defer func() { sc.counting, sc.counted = false, 0 }()
	count := st.extra()
	buf := make([]byte, 0, block)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow: no cut point so far
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			return 0, err
		}
		cut := len(buf)
		if !eof {
			cut = lastCut(buf)
		}
		if cut > 0 {
			ids := st.appendBody(sc, string(buf[:cut]), sc.ids[:0])
			count += sc.counted + len(ids)
			sc.counted, sc.ids = 0, ids[:0]
			buf = buf[:copy(buf, buf[cut:])]
		}
		if eof {
			return count, nil
		}
	}
}

// lastCut returns the last position p in b with b[p-1] == '\n' and b[p] an
// ASCII letter, or 0.
func lastCut(b []byte) int {
	for end := len(b); end > 0; {
		i := bytes.LastIndexByte(b[:end], '\n')
		if i < 0 {
			return 0
		}
		if i+1 < len(b) {
			if c := b[i+1] | 0x20; c >= 'a' && c <= 'z' {
				return i + 1
			}
		}
		end = i
	}
	return 0
}
