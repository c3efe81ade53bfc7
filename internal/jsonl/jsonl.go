// Package jsonl reads and appends JSON-lines logs: files of one JSON value
// a line, written by appending and syncing, so that a crash loses at most
// the line being written.
//
// A crash can leave a torn last line (a line without its LF, usually not
// valid JSON). [OpenAppend] terminates it before appending, so the next
// value starts a line of its own; readers skip it, since [Decode] passes
// over any line that does not decode. Nothing is ever rewritten in place.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/isolda/isolda/rdf/rdferr"
)

// DefaultMaxLine is the longest line, in bytes without its LF, that Read
// accepts when given a maximum of 0.
const DefaultMaxLine = 256 << 20

// Log is a JSON-lines file open for appending. A Log is not safe for
// concurrent use: callers serialize Write, Sync, Append and Close.
type Log struct {
	f *os.File
	w *bufio.Writer
}

// OpenAppend opens the file at path for appending, creating it (mode
// 0644) when it does not exist. When the file is not empty and does not
// end in LF, its torn last line is terminated with a LF (and synced), so
// that the next value starts its own line; the torn bytes are kept.
func OpenAppend(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if err := terminate(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Log{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// terminate appends a LF when f is not empty and its last byte is not one.
func terminate(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], st.Size()-1); err != nil {
		return err
	}
	if b[0] == '\n' {
		return nil
	}
	if _, err := f.Write([]byte{'\n'}); err != nil {
		return err
	}
	return f.Sync()
}

// Write encodes v with encoding/json and buffers it as one line. The line
// is not on disk before the next Sync (or Append, or Close).
func (l *Log) Write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = l.w.Write(b)
	return err
}

// Sync writes the buffered lines to the file and commits them to stable
// storage (fsync).
func (l *Log) Sync() error {
	if err := l.w.Flush(); err != nil {
		return err
	}
	return l.f.Sync()
}

// Append writes v as one line and syncs: when Append returns nil, the
// line is on stable storage.
func (l *Log) Append(v any) error {
	if err := l.Write(v); err != nil {
		return err
	}
	return l.Sync()
}

// Close syncs the buffered lines and closes the file.
func (l *Log) Close() error {
	err := l.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Read calls fn with the number (from 1) and the bytes of every line of r
// that is not blank (only white space), in order. The bytes exclude the
// line's LF and are valid only until fn returns. A last line without a LF
// is read too. A line longer than maxLine bytes (0: DefaultMaxLine; a
// negative value: no limit) ends the read with an *rdferr.ParseError naming
// file and the line (errors.Is(err, rdferr.ErrLimit) holds); nothing more
// than maxLine+1 bytes of it is held in memory. An error from fn ends the
// read and is returned as it is; so is an error reading r.
func Read(r io.Reader, file string, maxLine int, fn func(line int, b []byte) error) error {
	return ReadOffsets(r, file, maxLine, func(line int, _ int64, b []byte) error { return fn(line, b) })
}

// ReadOffsets is Read that also gives each line's offset in r, the
// position of its first byte, so that a reader can come back to it
// (io.ReaderAt) without keeping it.
func ReadOffsets(r io.Reader, file string, maxLine int, fn func(line int, off int64, b []byte) error) error {
	if maxLine == 0 {
		maxLine = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the reader's buffer, gathered
	var off int64   // offset of the next line
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
				if maxLine > 0 && len(bytes.TrimSuffix(long, []byte{'\n'})) > maxLine {
					return tooLong(file, n, maxLine)
				}
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return err
		}
		start := off
		off += int64(len(line))
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if maxLine > 0 && len(line) > maxLine {
			return tooLong(file, n, maxLine)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(n, start, line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// LineTooLongError is ReadLine's error for a line over its limit.
type LineTooLongError struct{ Max int }

func (e *LineTooLongError) Error() string { return fmt.Sprintf("line longer than %d bytes", e.Max) }

// ReadLine reads the next line of br without its LF. A line of more than
// maxLine bytes, its LF counted, is a *LineTooLongError (with no bytes); a
// read error, io.EOF included, is returned with the bytes read before it.
func ReadLine(br *bufio.Reader, maxLine int) ([]byte, error) {
	var out []byte
	for {
		b, err := br.ReadSlice('\n')
		out = append(out, b...)
		if len(out) > maxLine {
			return nil, &LineTooLongError{maxLine}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return out, err
		}
		return out[:len(out)-1], nil
	}
}

// tooLong is the error of a line over the limit.
func tooLong(file string, line, maxLine int) error {
	return &rdferr.ParseError{File: file, Line: line, Column: 1,
		Msg: fmt.Sprintf("line longer than %d bytes", maxLine), Err: rdferr.ErrLimit}
}

// Decode reads r like Read and calls fn with every line that decodes
// (encoding/json) into a value of type T, each into a new T. A line that
// does not decode, such as the torn last line of a crashed writer, is
// skipped.
func Decode[T any](r io.Reader, file string, maxLine int, fn func(line int, v *T) error) error {
	return Read(r, file, maxLine, func(line int, b []byte) error {
		v := new(T)
		if json.Unmarshal(b, v) != nil {
			return nil
		}
		return fn(line, v)
	})
}
