package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/chunk/extsort"
)

// The steps of package chunk read each node's records in ascending byte
// order, as a sort-based group-by gives them. Beam's GroupByKey gives a
// key's values unordered, and moving every record as an element of its
// own costs a runner far more than the record. So records travel in
// batches keyed by bucket (a hash of the node modulo the number of
// buckets), and a worker sorts the records of one bucket with package
// chunk/extsort, as isolda chunk does, in bounded memory (spilling to its
// local disk), then runs the steps on each node's group in order.

// batchBytes is the size at which a batch of records is emitted.
const batchBytes = 1 << 20

// A grouping key holds a bucket and the number of buckets n, so that the
// stages after a grouping know n without a side input: Prism v2.77.0
// re-evaluates the watermarks in a loop that never blocks while a stage
// with a side input runs a bundle (its input watermark, held by the
// bundle, differs from its upstream's, which makes the stage look ready),
// which took a core for the whole of each such stage.

// bucketKey returns the grouping key of bucket b of n.
func bucketKey(b, n int) int { return n<<32 | b }

// splitKey returns the bucket and the number of buckets of a grouping
// key; ok is false for a key bucketKey makes of no bucket.
func splitKey(k int) (b, n int, ok bool) {
	b, n = k&(1<<32-1), k>>32
	return b, n, n > 0 && b < n
}

// bucketOf returns the bucket of a node key among n.
func bucketOf(key []byte, n int) int {
	h := fnv.New32a()
	h.Write(key)
	return int(h.Sum32() % uint32(n))
}

// A batch is a table of the distinct byte strings of its records (keys
// and values), each with its length, then each record as the indexes of
// its key and its value in the table. The records of a hop repeat their
// strings: a node sends the same statements (its package or its
// description) to each of its neighbours, and a bucket's nodes receive
// messages from the same origins, so a batch holds each once and a
// message costs a few bytes. The table's size comes first:
//
//	batch  = uvarint(strings) { uvarint(len) bytes } { uvarint(key) uvarint(val) }
//
// A batch crosses the shuffle compressed (DEFLATE, RFC 1951, at its
// fastest level): IRIs share long prefixes, so a batch shrinks to about a
// quarter, and what a runner holds of a shuffle shrinks with it (Prism
// holds a stage's whole grouped input, in several copies, in memory). An
// empty batch is empty.

var errBatch = errors.New("isolda-beam: corrupt batch")

// batchReader decompresses batches, reusing its buffers.
type batchReader struct {
	src bytes.Reader
	zr  io.ReadCloser
	buf bytes.Buffer
}

// eachRecord calls f with each record of a compressed batch.
func eachRecord(z []byte, f func(key, val []byte) error) error {
	var r batchReader
	return r.eachRecord(z, f)
}

// eachRecord calls f with each record of a compressed batch; the key and
// value f is given are valid until it returns.
func (r *batchReader) eachRecord(z []byte, f func(key, val []byte) error) error {
	if len(z) == 0 {
		return nil
	}
	r.src.Reset(z)
	if r.zr == nil {
		r.zr = flate.NewReader(&r.src)
	} else if err := r.zr.(flate.Resetter).Reset(&r.src, nil); err != nil {
		return fmt.Errorf("%w: %v", errBatch, err)
	}
	r.buf.Reset()
	if _, err := r.buf.ReadFrom(r.zr); err != nil {
		return fmt.Errorf("%w: %v", errBatch, err)
	}
	return eachRaw(r.buf.Bytes(), f)
}

// eachRaw calls f with each record of an uncompressed batch.
func eachRaw(b []byte, f func(key, val []byte) error) error {
	if len(b) == 0 {
		return errBatch
	}
	uvarint := func() (uint64, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return n, true
	}
	strs, ok := uvarint()
	if !ok || strs > uint64(len(b)) {
		return errBatch
	}
	table := make([][]byte, strs)
	for i := range table {
		n, ok := uvarint()
		if !ok || n > uint64(len(b)) {
			return errBatch
		}
		table[i] = b[:n:n]
		b = b[n:]
	}
	for len(b) > 0 {
		ki, ok := uvarint()
		if !ok || ki >= strs {
			return errBatch
		}
		vi, ok := uvarint()
		if !ok || vi >= strs {
			return errBatch
		}
		if err := f(table[ki], table[vi]); err != nil {
			return err
		}
	}
	return nil
}

// batch is a batch being written: its table and its records.
type batch struct {
	index   map[string]uint64 // of the table's strings
	table   []byte            // the strings, each with its length
	records []byte            // the pairs of indexes
}

// intern returns the index of s in the table, adding it if new.
func (b *batch) intern(s []byte) uint64 {
	if i, ok := b.index[string(s)]; ok {
		return i
	}
	i := uint64(len(b.index))
	b.index[string(s)] = i
	b.table = binary.AppendUvarint(b.table, uint64(len(s)))
	b.table = append(b.table, s...)
	return i
}

// add appends a record.
func (b *batch) add(key, val []byte) {
	ki, vi := b.intern(key), b.intern(val)
	b.records = binary.AppendUvarint(b.records, ki)
	b.records = binary.AppendUvarint(b.records, vi)
}

// size returns the bytes of the batch, but for the table's size.
func (b *batch) size() int { return len(b.table) + len(b.records) }

// compress returns the batch compressed with zw and empties b.
func (b *batch) compress(zw *flate.Writer) []byte {
	var out bytes.Buffer
	out.Grow(b.size() / 3)
	zw.Reset(&out)
	var n [binary.MaxVarintLen64]byte
	// Writes to a bytes.Buffer do not fail.
	zw.Write(binary.AppendUvarint(n[:0], uint64(len(b.index))))
	zw.Write(b.table)
	zw.Write(b.records)
	zw.Close()
	clear(b.index)
	b.table, b.records = b.table[:0], b.records[:0]
	return out.Bytes()
}

// batcher collects records into one batch per bucket and emits a batch,
// compressed, once it holds batchBytes, with its grouping key (bucketKey).
type batcher struct {
	n    int
	bufs map[int]*batch
	emit func(int, []byte)
	zw   *flate.Writer
}

func newBatcher(n int, emit func(int, []byte)) *batcher {
	return &batcher{n: n, bufs: map[int]*batch{}, emit: emit}
}

func (b *batcher) add(key, val []byte) {
	i := bucketOf(key, b.n)
	buf := b.bufs[i]
	if buf == nil {
		buf = &batch{index: map[string]uint64{}}
		b.bufs[i] = buf
	}
	buf.add(key, val)
	if buf.size() >= batchBytes {
		b.emit(bucketKey(i, b.n), buf.compress(b.writer()))
	}
}

// flush emits the batches not yet emitted, in bucket order.
func (b *batcher) flush() {
	for i := range b.n {
		if buf := b.bufs[i]; buf != nil && buf.size() > 0 {
			b.emit(bucketKey(i, b.n), buf.compress(b.writer()))
		}
	}
	clear(b.bufs)
}

// writer returns the batcher's compressor.
func (b *batcher) writer() *flate.Writer {
	if b.zw == nil {
		b.zw, _ = flate.NewWriter(io.Discard, flate.BestSpeed) // a valid level: no error
	}
	return b.zw
}

// sortBatches sorts the records of a bucket's batches: by key, then
// value, identical records once.
func sortBatches(batches func(*[]byte) bool, memory int64) (*extsort.Sorted, error) {
	s := extsort.New(extsort.Config{Memory: memory})
	var b []byte
	var r batchReader
	for batches(&b) {
		if err := r.eachRecord(b, s.Add); err != nil {
			s.Finish(false)
			return nil, err
		}
	}
	return s.Finish(true)
}

// groups calls f with each key of a sorted set and its values, in order;
// it skips what f leaves unread.
func groups(s *extsort.Sorted, f func(key []byte, vals chunk.Values) error) error {
	it := extsort.Merge(s)
	ok := it.Next()
	var key []byte
	for ok {
		key = append(key[:0], it.Key()...)
		vals := func(yield func([]byte) bool) {
			for ok && bytes.Equal(it.Key(), key) {
				if !yield(it.Value()) {
					return
				}
				ok = it.Next()
			}
		}
		if err := f(key, vals); err != nil {
			return err
		}
		for ok && bytes.Equal(it.Key(), key) {
			ok = it.Next()
		}
	}
	return it.Err()
}

// msgFilter keeps, of the messages one step sends to a node (in
// ascending order), those its next steps can read, so that no more than
// the bounds of --max-statements cross the shuffle. Each selection below
// is the one of a chunk step, applied to part of the messages: what the
// step reads of all of them is among what is kept of each part.
//
// For the next hop (Round), it keeps the first cap values of each of the
// first cap+1 origins: Round forwards the first cap statements of the
// first cap origins other than the node.
//
// For Gather, it drops the messages about the node itself (their origin,
// subject or object is the node: Gather takes those from the node's own
// records); of the messages from a neighbour (distance 1), it keeps the
// first cap distinct statements of each origin (Gather reads those of
// the neighbours within the node's bounds, which only the node knows:
// none is left out); of the farther ones, the first cap distinct
// statements in all. Gather keeps at most cap messages, each statement
// once, in order: at most cap statements before a part can repeat them,
// so the first cap distinct ones of a part hold all it takes of it.
type msgFilter struct {
	cap           int
	round, gather bool

	origin  []byte // of the last message
	origins int    // seen
	inOrig  int    // messages kept of the origin for the next hop
	near    map[string]bool
	far     map[string]bool
}

func newMsgFilter(cap int, round, gather bool) *msgFilter {
	return &msgFilter{cap: cap, round: round, gather: gather, near: map[string]bool{}, far: map[string]bool{}}
}

// reset starts the messages of another node.
func (m *msgFilter) reset() {
	m.origin, m.origins, m.inOrig = m.origin[:0], 0, 0
	clear(m.near)
	clear(m.far)
}

// keep reports whether a message is kept.
func (m *msgFilter) keep(v []byte) bool {
	prefix, ok := chunk.MessageOrigin(v)
	if !ok {
		return true // not a message: the step reports it
	}
	if !bytes.Equal(prefix, m.origin) {
		m.origin = append(m.origin[:0], prefix...)
		m.origins++
		m.inOrig = 0
		clear(m.near)
	}
	keep := false
	if m.round && m.origins <= m.cap+1 && m.inOrig < m.cap {
		m.inOrig++
		keep = true
	}
	if m.gather {
		self, stmt, ok := msgStatement(v, len(prefix))
		switch {
		case !ok:
			return true // the step reports it
		case self:
		case v[1] == 1:
			keep = distinct(m.near, stmt, m.cap) || keep
		default:
			keep = distinct(m.far, stmt, m.cap) || keep
		}
	}
	return keep
}

// distinct adds stmt to set unless it holds it or cap statements; it
// reports whether it added it.
func distinct(set map[string]bool, stmt []byte, cap int) bool {
	if len(set) >= cap || set[string(stmt)] {
		return false
	}
	set[string(stmt)] = true
	return true
}

// Term kinds of chunk's record layout (chunk/record.go), read here only
// to find a message's statement and whether it is about its target.
const (
	kindNone   = 0
	kindKey    = 'K' // the node the record is keyed by
	kindIRI    = 'I'
	kindBlank  = 'B'
	kindString = 'S'
	kindLang   = 'L'
	kindTyped  = 'T'
	kindTriple = 'R'
)

// msgStatement reads a message whose origin part is val[:n]: self reports
// that its origin, subject or object is the node it is sent to; stmt is
// its statement as Gather tells statements apart (language tags folded to
// lower case, as rdf.Quad.Key does).
func msgStatement(val []byte, n int) (self bool, stmt []byte, ok bool) {
	if val[2] == kindKey {
		self = true
	}
	b := val[n:]
	stmt = b
	fold := false
	for i := range 4 { // subject, predicate, object, graph
		if len(b) == 0 {
			return false, nil, false
		}
		kind := b[0]
		if kind == kindKey && (i == 0 || i == 2) {
			self = true
		}
		strs, ok := termStrings(kind)
		if !ok {
			return false, nil, false
		}
		b = b[1:]
		for s := range strs {
			str, rest, ok := readString(b)
			if !ok {
				return false, nil, false
			}
			if kind == kindLang && s == 1 && hasUpper(str) {
				fold = true
			}
			b = rest
		}
	}
	if len(b) != 0 {
		return false, nil, false
	}
	if fold {
		stmt = foldStatement(stmt)
	}
	return self, stmt, true
}

// readString reads a string of the record layout: its length, then it.
func readString(b []byte) (s, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// foldStatement returns an encoded statement (well formed) with its
// language tags in lower case.
func foldStatement(b []byte) []byte {
	var out []byte
	for len(b) > 0 {
		kind := b[0]
		out = append(out, kind)
		b = b[1:]
		strs, _ := termStrings(kind)
		for s := range strs {
			str, rest, _ := readString(b)
			if kind == kindLang && s == 1 && hasUpper(str) {
				str = []byte(strings.ToLower(string(str)))
			}
			out = binary.AppendUvarint(out, uint64(len(str)))
			out = append(out, str...)
			b = rest
		}
	}
	return out
}

// hasUpper reports whether s has an ASCII capital letter: rdf.Term.Key
// folds such a language tag (with strings.ToLower), and only such.
func hasUpper(s []byte) bool {
	return bytes.ContainsFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}

// termStrings is the number of strings that follow a term's kind byte in
// chunk's record layout (an IRI, a blank node's label, a plain string; a
// typed literal's form and datatype; a language-tagged literal's form, tag
// and direction); false for a byte that is no kind.
func termStrings(kind byte) (int, bool) {
	switch kind {
	case kindNone, kindKey:
		return 0, true
	case kindIRI, kindBlank, kindString, kindTriple:
		return 1, true
	case kindTyped:
		return 2, true
	case kindLang:
		return 3, true
	}
	return 0, false
}
