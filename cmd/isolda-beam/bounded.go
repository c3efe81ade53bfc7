package main

import (
	"bytes"
	"iter"
	"slices"

	"github.com/isolda/isolda/chunk"
)

// The steps of package chunk read a node's records in ascending byte
// order and keep only the first few of each kind (the bounds of
// --max-statements), but a Beam group comes unordered and may be huge (a
// class with millions of instances). So the DoFns below never copy a whole
// group: one pass keeps the smallest values of each kind, as many as the
// steps can read, and the steps run on those; a hub's first hop streams
// again, keyed by the hub, the links beyond the bounds it dropped, to a
// second step that streams them with the kept ones (hubFn).

// smallest keeps the n smallest distinct values given to it: at most 2n
// (plus a few) at any time.
type smallest struct {
	n     int
	vals  [][]byte
	bound []byte // the n-th smallest value once n are kept: larger ones are left out
	// drop, when set, receives each value left out (a repeat may be
	// given again).
	drop func([]byte)
}

func (s *smallest) add(v []byte) {
	if s.bound != nil && bytes.Compare(v, s.bound) >= 0 {
		if s.drop != nil && !bytes.Equal(v, s.bound) {
			s.drop(v)
		}
		return
	}
	s.vals = append(s.vals, bytes.Clone(v))
	if len(s.vals) >= 2*s.n+16 {
		s.trim()
	}
}

// trim sorts the values, drops repeats and keeps the n smallest.
func (s *smallest) trim() {
	slices.SortFunc(s.vals, bytes.Compare)
	s.vals = slices.CompactFunc(s.vals, bytes.Equal)
	if len(s.vals) >= s.n {
		if s.drop != nil {
			for _, v := range s.vals[s.n:] {
				s.drop(v)
			}
		}
		s.vals = s.vals[:s.n]
		s.bound = s.vals[s.n-1]
	}
}

// full reports whether n values are kept (after trim): values above the
// last may have been left out.
func (s *smallest) full() bool { return len(s.vals) == s.n }

// stmtSel keeps, of a node's statement records, the smallest cap+1 of
// each tag (the value's first byte: types and labels, other statements,
// links to the node): what chunk's steps read of them, the one beyond the
// cap telling them the node is a hub.
type stmtSel struct {
	cap  int
	tags map[byte]*smallest
	// drop, when set, receives the values left out, but for types and
	// labels.
	drop func([]byte)
}

func newStmtSel(cap int) *stmtSel {
	return &stmtSel{cap: cap, tags: map[byte]*smallest{}}
}

func (s *stmtSel) add(v []byte) {
	if len(v) == 0 {
		return // chunk reports it as corrupt, from the kept values
	}
	t := s.tags[v[0]]
	if t == nil {
		t = &smallest{n: s.cap + 1}
		if !chunk.IsDescription(v) {
			t.drop = s.drop
		}
		s.tags[v[0]] = t
	}
	t.add(v)
}

// sorted returns the kept values in ascending order (tags in order, each
// tag's values sorted).
func (s *stmtSel) sorted() [][]byte {
	tags := make([]byte, 0, len(s.tags))
	for t := range s.tags {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	var out [][]byte
	for _, t := range tags {
		s.tags[t].trim()
		out = append(out, s.tags[t].vals...)
	}
	return out
}

// overflowed reports whether some values were left out (call after
// sorted).
func (s *stmtSel) overflowed() bool {
	for _, t := range s.tags {
		if t.full() {
			return true
		}
	}
	return false
}

// msgSel keeps, of the messages of one hop, the smallest cap values of
// each of the cap+1 smallest origins: what chunk.Round forwards (the
// first cap origins other than the node itself, cap statements each).
type msgSel struct {
	cap     int
	origins map[string]*smallest
	bound   string // the last origin kept: origins above it are left out
	bounded bool
}

func newMsgSel(cap int) *msgSel {
	return &msgSel{cap: cap, origins: map[string]*smallest{}}
}

func (s *msgSel) add(v []byte) {
	o, ok := chunk.MessageOrigin(v)
	if !ok {
		o = v // not a message: chunk reports it, kept as its own origin
	}
	if s.bounded && string(o) > s.bound {
		return
	}
	m := s.origins[string(o)]
	if m == nil {
		m = &smallest{n: s.cap}
		s.origins[string(o)] = m
		if len(s.origins) >= 2*(s.cap+1)+16 {
			s.trim()
		}
	}
	m.add(v)
}

// trim keeps the cap+1 smallest origins.
func (s *msgSel) trim() []string {
	keys := make([]string, 0, len(s.origins))
	for k := range s.origins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if n := s.cap + 1; len(keys) > n {
		for _, k := range keys[n:] {
			delete(s.origins, k)
		}
		keys = keys[:n]
		s.bound, s.bounded = keys[n-1], true
	}
	return keys
}

// sorted returns the kept messages in ascending order.
func (s *msgSel) sorted() [][]byte {
	var out [][]byte
	for _, k := range s.trim() {
		m := s.origins[k]
		m.trim()
		out = append(out, m.vals...)
	}
	return out
}

// seqOf returns the values of some lists, in order, then those of more.
func seqOf(more iter.Seq[[]byte], lists ...[][]byte) chunk.Values {
	return func(yield func([]byte) bool) {
		for _, l := range lists {
			for _, v := range l {
				if !yield(v) {
					return
				}
			}
		}
		if more != nil {
			more(yield)
		}
	}
}
