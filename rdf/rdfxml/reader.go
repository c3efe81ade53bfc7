package rdfxml

import (
	"bufio"
	"fmt"
	"io"

	"github.com/isolda/isolda/rdf"
	"golang.org/x/text/encoding/unicode"
)

// pos is a position in the input: line and column (in code points) from 1,
// and the byte offset from the start of the input (a byte order mark
// included), as rdf.ParseError reports them.
type pos struct {
	line, col int
	off       int64
}

// Encodings of the input, which decide how many input bytes a byte of the
// UTF-8 text the decoder reads stands for.
const (
	encUTF8       = iota // one input byte per byte
	encUTF16             // two input bytes per code point of the BMP, four beyond
	encSingleByte        // one input byte per code point (ISO-8859-1, Windows-1252, ...)
)

// States of the start tag recorder.
const (
	recOff    = iota
	recFirst  // expecting '<'
	recSecond // expecting the first character of a name
	recOn
)

// posReader feeds the XML decoder one byte at a time (the decoder uses an
// io.ByteReader as it is), enforcing the byte limit and tracking the
// position (line, column in code points and input byte offset) after the
// last byte read and before it, so that positions stay exact when the
// decoder pushes one byte back. It also keeps the bytes of the start tag
// being read, to locate its attributes.
type posReader struct {
	r     *bufio.Reader
	n     int64 // bytes read (of UTF-8 text)
	limit int64 // < 0: none
	hit   bool  // the limit was reached

	enc  int
	raw  *countingReader // the input under a UTF-16 decoder
	cur  pos             // after the last byte
	prev pos             // before the last byte
	last byte            // the last byte read

	// The start tag being read: rec holds its bytes while recState is
	// recOn, from the position recAt.
	rec      []byte
	recState int
	recAt    pos

	// given counts the bytes handed to the decoder: the bytes read but
	// those squeezed out (see squeeze).
	given int64
	// squeeze, set by the parser where text is insignificant, has a run of
	// white space at the start of a token handed over as its first byte;
	// lex tracks the token's first bytes to find such runs and comments,
	// whose text (skipped everywhere) is handed over with each run of
	// bytes other than '-' and '>' as one 'x'. encoding/xml buffers a
	// token whole: a 100 MB run of blanks between elements or a 100 MB
	// comment would otherwise be held (and copied) whole.
	squeeze bool
	lex     int
	filler  bool // the last byte handed over in a comment was an 'x'

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
// recognized by its byte order mark, to UTF-8. The byte limit counts UTF-8
// bytes; offsets count input bytes.
func newPosReader(r io.Reader, limit int64) *posReader {
	br := bufio.NewReaderSize(r, 64<<10)
	p := &posReader{limit: limit, cur: pos{line: 1, col: 1}}
	if bom, err := br.Peek(2); err == nil && (string(bom) == "\xFE\xFF" || string(bom) == "\xFF\xFE") {
		dec := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
		p.raw = &countingReader{r: br}
		br = bufio.NewReaderSize(dec.Reader(p.raw), 64<<10)
		p.enc, p.cur.off = encUTF16, 2
	} else if bom, err := br.Peek(3); err == nil && string(bom) == "\xEF\xBB\xBF" {
		_, _ = br.Discard(3)
		p.cur.off = 3
	}
	p.r, p.prev = br, p.cur
	return p
}

// transcode makes the reader read through a decoder of a single-byte
// encoding from now on (the decoder has read the XML declaration that
// names it): what the XML decoder reads is then UTF-8, and offsets count
// one input byte per code point.
func (p *posReader) transcode(wrap func(io.Reader) io.Reader) {
	p.r = bufio.NewReaderSize(wrap(p.r), 64<<10)
	p.enc = encSingleByte
}

// States of posReader.lex.
const (
	lexNone    = iota // nothing to squeeze in this token
	lexStart          // at the token's first byte
	lexBlank          // in a run of insignificant white space
	lexLT             // after '<'
	lexBang           // after "<!"
	lexDash           // after "<!-"
	lexComment        // in a comment's text
)

// ReadByte implements io.ByteReader.
func (p *posReader) ReadByte() (byte, error) {
	for {
		b, err := p.readByte()
		if err != nil {
			return b, err
		}
		switch p.lex {
		case lexNone:
		case lexStart:
			switch {
			case b == '<':
				p.lex = lexLT
			case p.squeeze && isSpace(b):
				p.lex = lexBlank
			default:
				p.lex = lexNone
			}
		case lexBlank:
			if isSpace(b) {
				continue
			}
			p.lex = lexNone
		case lexLT:
			p.lex = lexNone
			if b == '!' {
				p.lex = lexBang
			}
		case lexBang:
			p.lex = lexNone
			if b == '-' {
				p.lex = lexDash
			}
		case lexDash:
			p.lex = lexNone
			if b == '-' {
				p.lex, p.filler = lexComment, false
			}
		case lexComment:
			if b == '-' || b == '>' {
				p.filler = false
				break
			}
			if p.filler {
				continue
			}
			b, p.filler = 'x', true
		}
		p.given++
		return b, nil
	}
}

// readByte reads one byte, keeping the position, the limits and the start
// tag recorder up to date.
func (p *posReader) readByte() (byte, error) {
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
	p.prev, p.last = p.cur, b
	p.cur = p.cur.step(b, p.enc)
	if p.raw != nil && p.cur.off > p.raw.n {
		// A last odd byte of UTF-16 input decodes to U+FFFD, which stands
		// for one byte, not two.
		p.cur.off = p.raw.n
	}
	if p.recState != recOff {
		p.record(b, p.prev)
	}
	return b, nil
}

// record feeds one byte, read at position at, to the start tag recorder.
func (p *posReader) record(b byte, at pos) {
	switch p.recState {
	case recFirst:
		p.recState = recOff
		if b == '<' {
			p.rec, p.recAt, p.recState = append(p.rec[:0], b), at, recSecond
		}
	case recSecond:
		p.recState = recOff
		if b != '/' && b != '!' && b != '?' {
			p.rec, p.recState = append(p.rec, b), recOn
		}
	case recOn:
		p.rec = append(p.rec, b)
	}
}

// startToken starts recording the token that begins at the decoder's input
// offset (which may lie one byte before the bytes read, when the decoder
// pushed that byte back).
func (p *posReader) startToken(offset int64) {
	p.rec, p.recState = p.rec[:0], recFirst
	p.lex = lexStart
	if offset < p.given {
		p.record(p.last, p.prev)
		p.lex = lexNone // the token began with the byte pushed back
		if p.last == '<' {
			p.lex = lexLT
		}
	}
}

// stopToken stops recording and returns the bytes of the start tag read
// since startToken and the position of their first byte; nil when the token
// was not a start tag.
func (p *posReader) stopToken() ([]byte, pos) {
	on := p.recState == recOn
	p.recState = recOff
	if !on {
		return nil, pos{}
	}
	return p.rec, p.recAt
}

// pos returns the position of the next byte the decoder will consume,
// given the decoder's input offset.
func (p *posReader) pos(offset int64) pos {
	if offset < p.given {
		return p.prev
	}
	return p.cur
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
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

// attrPositions returns the positions of the attributes of the start tag
// tag (its bytes, read from at on in an input of encoding enc), in the order they are written: where
// each attribute name begins. It stops at the first thing that is not an
// attribute (the decoder reports syntax errors).
func attrPositions(tag []byte, at pos, enc int) []pos {
	var out []pos
	i := 1 // past '<'
	for i < len(tag) && !isSpace(tag[i]) && tag[i] != '>' && tag[i] != '/' {
		i++
	}
	done := 0 // tag[:done] has been accounted in at
	for {
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] == '>' || tag[i] == '/' {
			return out
		}
		for _, b := range tag[done:i] {
			at = at.step(b, enc)
		}
		done = i
		out = append(out, at)
		for i < len(tag) && !isSpace(tag[i]) && tag[i] != '=' {
			i++
		}
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] != '=' {
			return out
		}
		i++
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] != '"' && tag[i] != '\'' {
			return out
		}
		q := tag[i]
		i++
		for i < len(tag) && tag[i] != q {
			i++
		}
		i++
	}
}

// step returns the position after the byte b of the UTF-8 text the
// decoder reads, in an input of encoding enc.
func (at pos) step(b byte, enc int) pos {
	start := b&0xC0 != 0x80 // not a UTF-8 continuation byte: a new code point
	switch {
	case b == '\n':
		at.line++
		at.col = 1
	case start:
		at.col++
	}
	switch {
	case enc == encUTF8:
		at.off++
	case !start:
	case enc == encSingleByte:
		at.off++
	case b >= 0xF0: // UTF-16 beyond the BMP: a surrogate pair
		at.off += 4
	default:
		at.off += 2
	}
	return at
}
