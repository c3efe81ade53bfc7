package rdfxml

import (
	"bufio"
	"fmt"
	"io"

	"github.com/isolda/isolda/rdf"
	"golang.org/x/text/encoding/unicode"
)

// posReader feeds the XML decoder one byte at a time (the decoder uses an
// io.ByteReader as it is), enforcing the byte limit and tracking the line and
// the column in Unicode code points of the position after the last byte read
// and of the position before it, so that positions stay exact when the
// decoder pushes one byte back.
type posReader struct {
	r     *bufio.Reader
	n     int64 // bytes read
	limit int64 // < 0: none
	hit   bool  // the limit was reached

	line, col         int // after the last byte: line from 1, code points read on the line
	prevLine, prevCol int // before the last byte

	// Entity reference accounting, once the document declares entities.
	ents     map[string]int // name -> length of the expanded value
	ref      []byte         // the name of the reference being read
	inRef    bool
	expanded int64 // bytes the references read so far expand to
	budget   int64
	entHit   bool // the budget was exceeded
}

// trackEntities starts counting the bytes that references to the given
// entities expand to, failing the read once they exceed budget plus eight
// times the bytes read (so memory stays proportional to the input).
func (p *posReader) trackEntities(values map[string]string, budget int64) {
	p.ents = make(map[string]int, len(values))
	for k, v := range values {
		p.ents[k] = len(v)
	}
	p.budget = budget
}

// countRef feeds one byte to the entity reference counter.
func (p *posReader) countRef(b byte) {
	switch {
	case b == '&':
		p.inRef, p.ref = true, p.ref[:0]
	case !p.inRef:
	case b == ';':
		p.inRef = false
		p.expanded += int64(p.ents[string(p.ref)])
		if p.expanded > p.budget+8*p.n {
			p.entHit = true
		}
	case len(p.ref) >= 256 || b == '<' || b == '>' || isSpace(b):
		p.inRef = false
	default:
		p.ref = append(p.ref, b)
	}
}

// newPosReader returns a posReader over r that skips a UTF-8 byte order
// mark (which encoding/xml would take for text) and converts UTF-16 input,
// recognized by its byte order mark, to UTF-8. Positions and the byte
// limit then count UTF-8 bytes.
func newPosReader(r io.Reader, limit int64) *posReader {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, err := br.Peek(2); err == nil && (string(bom) == "\xFE\xFF" || string(bom) == "\xFF\xFE") {
		dec := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
		br = bufio.NewReaderSize(dec.Reader(br), 64<<10)
	} else if bom, err := br.Peek(3); err == nil && string(bom) == "\xEF\xBB\xBF" {
		_, _ = br.Discard(3)
	}
	return &posReader{r: br, limit: limit, line: 1, prevLine: 1}
}

// ReadByte implements io.ByteReader.
func (p *posReader) ReadByte() (byte, error) {
	if p.limit >= 0 && p.n >= p.limit {
		p.hit = true
	}
	if p.hit || p.entHit {
		return 0, errByteLimit
	}
	b, err := p.r.ReadByte()
	if err != nil {
		return 0, err
	}
	if p.ents != nil {
		p.countRef(b)
	}
	p.n++
	p.prevLine, p.prevCol = p.line, p.col
	switch {
	case b == '\n':
		p.line++
		p.col = 0
	case b&0xC0 != 0x80: // not a UTF-8 continuation byte: a new code point
		p.col++
	}
	return b, nil
}

// pos returns the line and column (both from 1) of the next byte the
// decoder will consume, given the decoder's input offset.
func (p *posReader) pos(offset int64) (line, col int) {
	if offset < p.n {
		return p.prevLine, p.prevCol + 1
	}
	return p.line, p.col + 1
}

// errByteLimit is what the reader returns once a limit is reached (the
// parser reports the limit with its position).
var errByteLimit = fmt.Errorf("input larger than the byte limit: %w", rdf.ErrLimit)

// Read implements io.Reader; the decoder uses ReadByte, but Read keeps the
// accounting right for any other caller.
func (p *posReader) Read(b []byte) (int, error) {
	for i := range b {
		c, err := p.ReadByte()
		if err != nil {
			if i > 0 && err == io.EOF {
				return i, nil
			}
			return i, err
		}
		b[i] = c
	}
	return len(b), nil
}
