// Package extsort sorts key-value records that may not fit in memory: an
// external merge sort (Knuth, The Art of Computer Programming vol. 3,
// section 5.4). Records are collected in a buffer of bounded size; a full
// buffer is sorted and written to a temporary file (a run) while the next
// one fills; at the end the runs are merged k ways. Records come out
// ordered by key, then value, bytewise, with identical records given once,
// so equal keys form contiguous groups (what a group-by needs).
//
// Run files are unlinked as soon as they are created, so nothing is left
// behind when the process ends, however it ends. Their records are
// compact: each key is written as the length it shares with the previous
// key and the rest, then the value with its length.
package extsort

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync/atomic"
)

// Config configures a Sorter.
type Config struct {
	// Memory is the most memory, in bytes, the Sorter's buffers use: two
	// buffers of half of it each, one filling while the other is sorted
	// and written. Values below 64 KiB count as 64 KiB.
	Memory int64
	// TmpDir is the folder of the run files; empty means os.TempDir().
	TmpDir string
	// FanIn is the most runs merged at once; more runs are first merged
	// into bigger ones. Zero means 64.
	FanIn int
	// Disk, when set, bounds the bytes written to run files (merges of
	// runs included) by the Sorters that share it.
	Disk *DiskLimit
}

// ErrDiskLimit is wrapped by the error of a Sorter that would write more
// to its run files than its Config.Disk allows.
var ErrDiskLimit = errors.New("extsort: disk limit reached")

// DiskLimit bounds the bytes that Sorters write to run files, in all:
// what they have written, not what is still on disk, so that it bounds
// the disk they use at any time. It is safe for concurrent use.
type DiskLimit struct {
	max  int64
	used atomic.Int64
}

// NewDiskLimit returns a DiskLimit of max bytes.
func NewDiskLimit(max int64) *DiskLimit { return &DiskLimit{max: max} }

// Max returns the bound.
func (l *DiskLimit) Max() int64 { return l.max }

// Used returns the bytes written so far (and those a Sorter was refused).
func (l *DiskLimit) Used() int64 { return l.used.Load() }

// take counts n more bytes; it reports false past the bound.
func (l *DiskLimit) take(n int64) bool {
	return l == nil || l.used.Add(n) <= l.max
}

// minMemory is the smallest buffer memory a Sorter uses.
const minMemory = 64 << 10

// maxBuffer bounds one buffer: offsets into it are 32-bit.
const maxBuffer = 1<<31 - 1

// Stats describe the work of a Sorter.
type Stats struct {
	Records  int64 // records added
	Runs     int   // runs written to disk (before any merge of runs)
	Spilled  int64 // bytes written to run files, merges of runs included
	InMemory bool  // the records never left memory
}

// Sorter collects records and sorts them. It is not safe for concurrent
// use.
type Sorter struct {
	cfg   Config
	half  int // bytes of one buffer (records and index)
	cur   *buffer
	spare chan *buffer // the buffer not filling, once its spill is done
	spill chan *buffer // buffers to sort and write
	done  chan error   // the spill goroutine's errors, closed when it ends
	runs  []*fileRun
	stats Stats
	err   error
	ended bool
}

// New returns a Sorter.
func New(cfg Config) *Sorter {
	if cfg.Memory < minMemory {
		cfg.Memory = minMemory
	}
	if cfg.FanIn < 2 {
		cfg.FanIn = 64
	}
	half := int(min(cfg.Memory/2, maxBuffer))
	return &Sorter{cfg: cfg, half: half, cur: &buffer{}}
}

// entry locates a record in a buffer: data[off:off+n] is the encoded key
// followed by the value, and klen the length of the encoded key.
type entry struct {
	off, n, klen uint32
}

// entrySize is the memory an entry takes.
const entrySize = 12

// buffer holds records in one byte slice and their entries.
type buffer struct {
	data []byte
	idx  []entry
}

// reserve makes room for a record of up to n bytes and its entry, growing
// the slices (by doubling) within limit bytes of capacity in all; it
// reports false when the buffer is full. Counting capacity rather than
// length keeps the memory really held within the limit.
func (b *buffer) reserve(n, limit int) bool {
	if len(b.idx) == cap(b.idx) {
		c := max(2*cap(b.idx), 1024)
		c = min(c, (limit-cap(b.data))/entrySize)
		if c <= len(b.idx) {
			return false
		}
		b.idx = append(make([]entry, 0, c), b.idx...)
	}
	if len(b.data)+n > cap(b.data) {
		c := max(2*cap(b.data), len(b.data)+n, 64<<10)
		c = min(c, limit-cap(b.idx)*entrySize)
		if c < len(b.data)+n {
			return false
		}
		b.data = append(make([]byte, 0, c), b.data...)
	}
	return true
}

func (b *buffer) reset() {
	b.data = b.data[:0]
	b.idx = b.idx[:0]
}

// record returns entry e's encoded key and value.
func (b *buffer) record(e entry) (ekey, val []byte) {
	r := b.data[e.off : e.off+e.n]
	return r[:e.klen], r[e.klen:]
}

// sort sorts the entries by the bytes of their records: the key encoding
// makes that the order of (key, value).
func (b *buffer) sort() {
	slices.SortFunc(b.idx, func(x, y entry) int {
		return bytes.Compare(b.data[x.off:x.off+x.n], b.data[y.off:y.off+y.n])
	})
}

// appendKey appends the order-preserving encoding of key: each 0x00 byte
// as 0x00 0xFF, then the terminator 0x00 0x00. Comparing encoded key plus
// value bytewise then compares keys first and values second.
func appendKey(dst, key []byte) []byte {
	for {
		i := bytes.IndexByte(key, 0)
		if i < 0 {
			break
		}
		dst = append(dst, key[:i+1]...)
		dst = append(dst, 0xFF)
		key = key[i+1:]
	}
	dst = append(dst, key...)
	return append(dst, 0, 0)
}

// appendDecodedKey appends the key an encoding (terminator included)
// stands for.
func appendDecodedKey(dst, ekey []byte) []byte {
	ekey = ekey[:len(ekey)-2]
	for {
		i := bytes.Index(ekey, []byte{0, 0xFF})
		if i < 0 {
			break
		}
		dst = append(dst, ekey[:i+1]...)
		ekey = ekey[i+2:]
	}
	return append(dst, ekey...)
}

// Add adds a record. The slices are copied. A key or value longer than a
// buffer is an error.
func (s *Sorter) Add(key, val []byte) error {
	if s.err != nil {
		return s.err
	}
	if s.ended {
		return errors.New("extsort: Add after Finish")
	}
	n := 2*len(key) + 2 + len(val) // at most, with every byte escaped
	if n+entrySize > s.half {
		return fmt.Errorf("extsort: a record of %d bytes does not fit in a buffer of %d bytes", n, s.half)
	}
	if !s.cur.reserve(n, s.half) {
		if err := s.flush(); err != nil {
			return err
		}
		s.cur.reserve(n, s.half) // an empty buffer always has room
	}
	b := s.cur
	off := len(b.data)
	b.data = appendKey(b.data, key)
	klen := len(b.data) - off
	b.data = append(b.data, val...)
	b.idx = append(b.idx, entry{off: uint32(off), n: uint32(len(b.data) - off), klen: uint32(klen)})
	s.stats.Records++
	return nil
}

// flush hands the full buffer to the spill goroutine and takes the other
// buffer, waiting for its spill to finish.
func (s *Sorter) flush() error {
	if s.spill == nil {
		s.spill = make(chan *buffer, 1)
		s.spare = make(chan *buffer, 2)
		s.done = make(chan error, 1)
		s.spare <- &buffer{}
		go s.spiller()
	}
	s.spill <- s.cur
	select {
	case s.cur = <-s.spare:
	case err, ok := <-s.done:
		if !ok {
			err = errors.New("extsort: spill stopped")
		}
		s.err = err
		return err
	}
	return nil
}

// spiller sorts and writes the buffers it is given, then returns them.
func (s *Sorter) spiller() {
	defer close(s.done)
	for b := range s.spill {
		b.sort()
		r, err := s.writeRun(newBufferIter(b))
		if err != nil {
			s.done <- err
			return
		}
		s.runs = append(s.runs, r) // read by Finish after done is closed
		s.stats.Runs++
		b.reset()
		s.spare <- b
	}
}

// Finish sorts what remains. With keep, records that never spilled stay in
// memory (the buffer is kept until the Sorted is closed); otherwise, or
// once anything has spilled, the last buffer is written to disk too and
// the buffers are released. The Sorter cannot be used afterwards.
func (s *Sorter) Finish(keep bool) (*Sorted, error) {
	if s.err != nil {
		return nil, s.err
	}
	s.ended = true
	if s.spill != nil {
		if len(s.cur.idx) > 0 {
			if err := s.flush(); err != nil {
				s.closeRuns()
				return nil, err
			}
		}
		close(s.spill)
		if err := <-s.done; err != nil {
			s.closeRuns()
			return nil, err
		}
		s.cur = nil
	}
	out := &Sorted{cfg: s.cfg}
	if s.cur != nil && keep {
		s.cur.sort()
		out.mem = s.cur
		s.stats.InMemory = true
	} else if s.cur != nil && len(s.cur.idx) > 0 {
		s.cur.sort()
		r, err := s.writeRun(newBufferIter(s.cur))
		if err != nil {
			s.closeRuns()
			return nil, err
		}
		s.runs = append(s.runs, r)
		s.stats.Runs++
	}
	s.cur = nil
	out.runs = s.runs
	s.runs = nil
	// Too many runs for one merge: merge the oldest into bigger ones.
	for len(out.runs) > s.cfg.FanIn {
		var its []recordIter
		for _, r := range out.runs[:s.cfg.FanIn] {
			its = append(its, r.iter())
		}
		r, err := s.writeRun(newMergeIter(its))
		for _, old := range out.runs[:s.cfg.FanIn] {
			old.f.Close()
		}
		out.runs = out.runs[s.cfg.FanIn:]
		if err != nil {
			out.Close()
			return nil, err
		}
		out.runs = append(out.runs, r)
	}
	out.stats = s.stats
	return out, nil
}

func (s *Sorter) closeRuns() {
	for _, r := range s.runs {
		r.f.Close()
	}
	s.runs = nil
}

// Len returns the number of records added so far.
func (s *Sorter) Len() int64 { return s.stats.Records }

// writeRun writes the records of it, deduplicated, to a new unlinked
// temporary file.
func (s *Sorter) writeRun(it recordIter) (*fileRun, error) {
	f, err := os.CreateTemp(s.cfg.TmpDir, "isolda-sort-*.run")
	if err != nil {
		return nil, fmt.Errorf("extsort: %w", err)
	}
	// Unlinked now, the file lives as long as it is open.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("extsort: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var prev, prevVal []byte
	var tmp [binary.MaxVarintLen64]byte
	var size int64
	first := true
	put := func(n int) {
		k := binary.PutUvarint(tmp[:], uint64(n))
		w.Write(tmp[:k])
		size += int64(k)
	}
	for {
		ekey, val, ok := it.next()
		if !ok {
			break
		}
		if !first && bytes.Equal(ekey, prev) && bytes.Equal(val, prevVal) {
			continue // a duplicate record
		}
		shared := 0
		if !first {
			shared = commonPrefix(prev, ekey)
		}
		before := size
		put(shared)
		put(len(ekey) - shared)
		w.Write(ekey[shared:])
		put(len(val))
		w.Write(val)
		size += int64(len(ekey) - shared + len(val))
		if !s.cfg.Disk.take(size - before) {
			f.Close()
			return nil, fmt.Errorf("%w: more than %d bytes of run files", ErrDiskLimit, s.cfg.Disk.max)
		}
		prev = append(prev[:0], ekey...)
		prevVal = append(prevVal[:0], val...)
		first = false
	}
	if err := it.err(); err != nil {
		f.Close()
		return nil, err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, fmt.Errorf("extsort: writing a run: %w", err)
	}
	s.stats.Spilled += size
	return &fileRun{f: f, size: size}, nil
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Sorted is a sorted set of records: runs on disk and at most one in
// memory. It can be iterated many times; Close releases it.
type Sorted struct {
	cfg   Config
	mem   *buffer
	runs  []*fileRun
	stats Stats
}

// Stats returns the statistics of the Sorter that made s.
func (s *Sorted) Stats() Stats { return s.stats }

// Close releases the memory and files of s.
func (s *Sorted) Close() error {
	var first error
	for _, r := range s.runs {
		if err := r.f.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.runs, s.mem = nil, nil
	return first
}

// Iterator yields the records of one or more Sorted sets merged, in
// order, identical records once.
type Iterator struct {
	it       recordIter
	key, val []byte
	prevK    []byte // the last encoded key and value, to skip duplicates
	prevV    []byte
	started  bool
}

// Merge returns an iterator over the records of the given sets together.
func Merge(sets ...*Sorted) *Iterator {
	var its []recordIter
	for _, s := range sets {
		if s.mem != nil {
			its = append(its, newBufferIter(s.mem))
		}
		for _, r := range s.runs {
			its = append(its, r.iter())
		}
	}
	return &Iterator{it: newMergeIter(its)}
}

// Next advances to the next record and reports whether there is one.
func (it *Iterator) Next() bool {
	for {
		ekey, val, ok := it.it.next()
		if !ok {
			return false
		}
		if it.started && bytes.Equal(ekey, it.prevK) && bytes.Equal(val, it.prevV) {
			continue
		}
		it.started = true
		it.prevK = append(it.prevK[:0], ekey...)
		it.prevV = append(it.prevV[:0], val...)
		it.key = appendDecodedKey(it.key[:0], ekey)
		it.val = it.prevV
		return true
	}
}

// Key returns the current record's key; it is valid until Next is called.
func (it *Iterator) Key() []byte { return it.key }

// Value returns the current record's value; it is valid until Next is
// called.
func (it *Iterator) Value() []byte { return it.val }

// Err returns the first read error.
func (it *Iterator) Err() error { return it.it.err() }

// recordIter yields encoded records in order.
type recordIter interface {
	next() (ekey, val []byte, ok bool)
	err() error
}

// bufferIter iterates over a sorted buffer.
type bufferIter struct {
	b *buffer
	i int
}

func newBufferIter(b *buffer) *bufferIter { return &bufferIter{b: b} }

func (it *bufferIter) next() ([]byte, []byte, bool) {
	if it.i >= len(it.b.idx) {
		return nil, nil, false
	}
	k, v := it.b.record(it.b.idx[it.i])
	it.i++
	return k, v, true
}

func (it *bufferIter) err() error { return nil }

// fileRun is a run on disk.
type fileRun struct {
	f    *os.File
	size int64
}

func (r *fileRun) iter() recordIter {
	return &fileIter{r: bufio.NewReaderSize(io.NewSectionReader(r.f, 0, r.size), 256<<10)}
}

// fileIter reads a run file.
type fileIter struct {
	r        *bufio.Reader
	key, val []byte
	e        error
}

func (it *fileIter) next() ([]byte, []byte, bool) {
	if it.e != nil {
		return nil, nil, false
	}
	shared, err := binary.ReadUvarint(it.r)
	if err == io.EOF {
		return nil, nil, false
	}
	rest, err2 := binary.ReadUvarint(it.r)
	if err != nil || err2 != nil || shared > uint64(len(it.key)) {
		it.e = corrupt(cmp.Or(err, err2))
		return nil, nil, false
	}
	it.key = it.key[:shared]
	if it.key, err = readN(it.r, it.key, rest); err != nil {
		it.e = corrupt(err)
		return nil, nil, false
	}
	vlen, err := binary.ReadUvarint(it.r)
	if err != nil {
		it.e = corrupt(err)
		return nil, nil, false
	}
	if it.val, err = readN(it.r, it.val[:0], vlen); err != nil {
		it.e = corrupt(err)
		return nil, nil, false
	}
	return it.key, it.val, true
}

func (it *fileIter) err() error { return it.e }

// readN appends n bytes of r to dst.
func readN(r io.Reader, dst []byte, n uint64) ([]byte, error) {
	if n > maxBuffer {
		return dst, errors.New("record too long")
	}
	l := len(dst)
	dst = slices.Grow(dst, int(n))[:l+int(n)]
	_, err := io.ReadFull(r, dst[l:])
	return dst, err
}

func corrupt(err error) error {
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("extsort: reading a run: %w", err)
}

// mergeIter merges sorted iterators with a binary heap.
type mergeIter struct {
	heap []*head
	last *head // the head returned last, to advance on the next call
	e    error
}

type head struct {
	it        recordIter
	ekey, val []byte
}

func newMergeIter(its []recordIter) *mergeIter {
	m := &mergeIter{}
	for _, it := range its {
		h := &head{it: it}
		if m.advance(h) {
			m.heap = append(m.heap, h)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return m
}

// advance moves h to its next record; false at its end (or on error).
func (m *mergeIter) advance(h *head) bool {
	k, v, ok := h.it.next()
	if !ok {
		if err := h.it.err(); err != nil && m.e == nil {
			m.e = err
		}
		return false
	}
	h.ekey, h.val = k, v
	return true
}

func (m *mergeIter) less(i, j int) bool {
	a, b := m.heap[i], m.heap[j]
	if c := bytes.Compare(a.ekey, b.ekey); c != 0 {
		return c < 0
	}
	return bytes.Compare(a.val, b.val) < 0
}

func (m *mergeIter) down(i int) {
	n := len(m.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && m.less(r, l) {
			j = r
		}
		if !m.less(j, i) {
			return
		}
		m.heap[i], m.heap[j] = m.heap[j], m.heap[i]
		i = j
	}
}

func (m *mergeIter) next() ([]byte, []byte, bool) {
	if m.last != nil {
		// The previous record's slices may be reused by its iterator only
		// now, after the caller is done with them.
		if m.advance(m.last) {
			m.down(0)
		} else {
			n := len(m.heap) - 1
			m.heap[0] = m.heap[n]
			m.heap = m.heap[:n]
			if n > 0 {
				m.down(0)
			}
		}
		m.last = nil
	}
	if m.e != nil || len(m.heap) == 0 {
		return nil, nil, false
	}
	m.last = m.heap[0]
	return m.last.ekey, m.last.val, true
}

func (m *mergeIter) err() error { return m.e }
