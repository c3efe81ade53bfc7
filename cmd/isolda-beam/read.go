package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// DefaultSplitBytes is the size of the byte ranges a large uncompressed
// N-Triples or N-Quads file is read in, each by its own reader.
const DefaultSplitBytes = 64 << 20

// fileRange is a part of an input file to read: the lines that start in
// [Start, End), or the whole file when End is negative; N is the number
// of buckets its records are batched in.
type fileRange struct {
	Path  string `json:"path"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	N     int    `json:"n"`
}

// lineBased reports whether a file of this name is read line by line
// (N-Triples or N-Quads, what isolda-beam reads when the name says
// nothing), so that it can be split at any byte.
func lineBased(path string) bool {
	f, ok := rdfio.FormatFromName(path)
	return !ok || f == rdfio.NTriples || f == rdfio.NQuads
}

// ranges returns the ranges of a file of size bytes split every split
// bytes (at least one range; split <= 0 means DefaultSplitBytes).
func ranges(path string, size, split int64) []fileRange {
	if split <= 0 {
		split = DefaultSplitBytes
	}
	var out []fileRange
	for start := int64(0); start < size || start == 0; start += split {
		out = append(out, fileRange{Path: path, Start: start, End: min(start+split, size)})
		if size == 0 {
			break
		}
	}
	return out
}

// splitFn turns a matched file into the ranges to read: byte ranges of an
// uncompressed N-Triples or N-Quads file, else the whole file (a gzip
// stream cannot be entered in the middle; other syntaxes are not line
// based).
type splitFn struct {
	Bytes int64 `json:"bytes"`
}

func (f *splitFn) ProcessElement(ctx context.Context, md fileio.FileMetadata, n int, emit func(fileRange)) error {
	if md.Size <= f.Bytes || !lineBased(md.Path) {
		emit(fileRange{Path: md.Path, End: -1, N: n})
		return nil
	}
	gz, err := gzipped(ctx, md.Path)
	if err != nil {
		return err
	}
	if gz {
		emit(fileRange{Path: md.Path, End: -1, N: n})
		return nil
	}
	for _, r := range ranges(md.Path, md.Size, f.Bytes) {
		r.N = n
		emit(r)
	}
	return nil
}

// gzipped reports whether a file starts with the gzip magic number.
func gzipped(ctx context.Context, path string) (bool, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return false, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	var head [2]byte
	n, _ := io.ReadFull(rc, head[:])
	return n == 2 && head[0] == 0x1f && head[1] == 0x8b, nil
}

// readFn reads a range of an input file and emits the records of its
// statements, batched by bucket (of the range's N).
type readFn struct {
	Opts chunk.Options `json:"opts"`
	c    *chunk.Chunker
}

func (f *readFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *readFn) ProcessElement(ctx context.Context, r fileRange, emit func(int, []byte)) error {
	if r.N <= 0 {
		return fmt.Errorf("isolda-beam: %s: a range of no bucket", r.Path)
	}
	m := f.c.NewMapper()
	b := newBatcher(r.N, emit)
	err := readRange(ctx, r, rdf.SinkFunc(func(q rdf.Quad) error {
		return m.Map(q, func(k, v []byte) error {
			b.add(k, v)
			return nil
		})
	}))
	if err != nil {
		return err
	}
	b.flush()
	return nil
}

// readRange sends the statements of a range to sink. A whole file is read
// in the syntax its name gives (N-Quads, which reads N-Triples too, when
// it gives none), gzipped or not. A byte range of a line-based file holds
// the lines that start in it: its reader starts at the first line
// boundary at or after Start and reads through the line that crosses End,
// so that the ranges of a file give each of its lines once. Errors name
// the file and the byte where the range's first line starts; their line
// numbers count from there.
func readRange(ctx context.Context, r fileRange, sink rdf.Sink) error {
	fs, err := filesystem.New(ctx, r.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, r.Path)
	if err != nil {
		return err
	}
	defer rc.Close()
	format, ok := rdfio.FormatFromName(r.Path)
	if !ok {
		format = rdfio.NQuads
	}
	opts := rdfio.Options{Format: format, ReadOptions: rdf.ReadOptions{File: r.Path, Limits: rdf.Limits{MaxBytes: -1, MaxQuads: -1}}}
	if r.End < 0 {
		return rdfio.ReadInto(rc, sink, opts)
	}
	lr, err := newLineRange(rc, r.Start, r.End)
	if err != nil {
		return fmt.Errorf("isolda-beam: %s: %w", r.Path, err)
	}
	if r.Start > 0 {
		opts.File = fmt.Sprintf("%s (from byte %d)", r.Path, lr.pos)
	}
	return rdfio.ReadInto(lr, sink, opts)
}

// lineRange reads the lines of a reader that start before end, from the
// first line that starts at or after start.
type lineRange struct {
	br      *bufio.Reader
	pos     int64 // offset of the next byte br gives
	end     int64
	atStart bool   // pos is at the start of a line
	buf     []byte // the rest of the slice being given
}

// newLineRange positions a lineRange on r (at offset 0) for the lines
// starting in [start, end).
func newLineRange(r io.Reader, start, end int64) (*lineRange, error) {
	l := &lineRange{end: end, atStart: true}
	if start > 0 {
		// The line that holds byte start-1 belongs to the range before:
		// skip through its end.
		skip := start - 1
		if s, ok := r.(io.Seeker); ok {
			if _, err := s.Seek(skip, io.SeekStart); err != nil {
				return nil, err
			}
		} else if _, err := io.CopyN(io.Discard, r, skip); err != nil {
			return nil, err
		}
		l.pos = skip
		l.br = bufio.NewReaderSize(r, 64<<10)
		for {
			b, err := l.br.ReadSlice('\n')
			l.pos += int64(len(b))
			if err == nil {
				break
			}
			if err != bufio.ErrBufferFull {
				l.atStart = false // no line starts in the range
				l.end = l.pos
				break
			}
		}
		return l, nil
	}
	l.br = bufio.NewReaderSize(r, 64<<10)
	return l, nil
}

func (l *lineRange) Read(p []byte) (int, error) {
	if len(l.buf) == 0 {
		if l.atStart && l.pos >= l.end {
			return 0, io.EOF
		}
		b, err := l.br.ReadSlice('\n')
		if len(b) == 0 {
			if err == nil || err == bufio.ErrBufferFull {
				err = io.ErrNoProgress
			}
			return 0, err
		}
		l.atStart = err == nil // the slice ends a line
		l.pos += int64(len(b))
		l.buf = b
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}
