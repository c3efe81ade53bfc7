package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/chunk/extsort"
	"github.com/isolda/isolda/rdf"
)

// Hubs. A hub is a node with more than cap own statements (types, labels
// and others) or more than cap links to it (cap is --max-statements).
// chunk's steps read, of a hub's records in ascending order, the first
// cap own ones and the first cap links: its bounds. What a hub receives
// from its neighbours in hop 1 (distance 1) is read by Gather only for
// the neighbours within the bounds (those its kept statements link to or
// from), and by Round not at all (a hub forwards nothing). So before hop
// 1 a pass over the statement records (hubFn) emits each hub's cut-offs:
// its cap-th own record and its cap-th link record, when it has more.
// They reach every hop as a side input (hubCuts), and in hop 1 a sender
// keeps its messages to a hub only when a statement linking the two is
// within the hub's bounds: the record Map made of it for the hub
// (otherRecord) sorts at or before the cut-off. In the last hop (with
// --hops 2 or more) a hub's messages are read by Gather alone, which
// keeps the first cap distinct statements; a worker keeps, of all it
// sends to a hub, those first cap (farSelector), not cap of each origin.
// A hub that is the subject of no statement is no entity and forwards
// nothing: it is sent nothing (cutUnread).

// Tags of chunk's record layout (chunk/record.go), read here to tell a
// node's own statements, its links and the messages apart; TestOtherRecord
// checks them against chunk.Mapper.
const (
	tagDesc = 1 // a type or a label of the node
	tagOwn  = 2 // another statement of the node
	tagIn   = 3 // a statement linking to the node
	tagMsg  = 4 // a message
)

// hubCut is a hub's cut-offs: its cap-th own record and its cap-th link
// record, each nil when it has no more than cap (all are within the
// bounds). unread marks a hub with no statement of its own: it is no
// entity, so no step reads what it receives.
type hubCut struct {
	own, in []byte
	unread  bool
}

// hubCuts maps the key of each hub to its cut-offs.
type hubCuts map[string]*hubCut

// Cut-off records of the hubs' side input: the hub's key, then one of
// these bytes and the cut-off record (none for cutUnread).
const (
	cutOwn    = 'o'
	cutIn     = 'i'
	cutUnread = 'n'
)

// loadHubs reads the hubs' side input: batches of cut-off records.
func loadHubs(iter func(*[]byte) bool) (hubCuts, error) {
	hubs := hubCuts{}
	var r batchReader
	var b []byte
	for iter(&b) {
		if err := r.eachRecord(b, hubs.add); err != nil {
			return nil, err
		}
	}
	return hubs, nil
}

// add reads a cut-off record of the hub key.
func (hubs hubCuts) add(key, val []byte) error {
	if len(val) == 0 || len(val) == 1 && val[0] != cutUnread {
		return errBatch
	}
	h := hubs[string(key)]
	if h == nil {
		h = &hubCut{}
		hubs[string(key)] = h
	}
	cut := bytes.Clone(val[1:])
	switch val[0] {
	case cutOwn:
		h.own = cut
	case cutIn:
		h.in = cut
	case cutUnread:
		h.unread = true
	default:
		return errBatch
	}
	return nil
}

// hubRecord is the first byte of the key of a hub's cut-off record among
// a bucket's records (the hops after the first get the cut-offs so, not
// as a side input): no node's key starts with it, and it sorts first, so
// that a hop reads every cut-off before the first node.
const hubRecord = 0

// hubGroups is groups on a bucket's sorted records that may start with
// the hubs' cut-off records: it adds those to hubs, and calls f with the
// other groups.
func hubGroups(in *extsort.Sorted, hubs hubCuts, f func(key []byte, vals chunk.Values) error) error {
	return groups(in, func(key []byte, vals chunk.Values) error {
		if len(key) == 0 || key[0] != hubRecord {
			return f(key, vals)
		}
		for v := range vals {
			if err := hubs.add(key[1:], v); err != nil {
				return err
			}
		}
		return nil
	})
}

// hubFn emits the cut-offs of the hubs of a bucket (its statement
// records, sorted), in batches of one bucket (hop 1's side input), and
// with Broadcast the same as records keyed hubRecord + the hub's key in
// batches for every bucket (the later hops' main input).
type hubFn struct {
	Cap       int   `json:"cap"`
	Memory    int64 `json:"memory"`
	Broadcast bool  `json:"broadcast"`
}

func (f *hubFn) ProcessElement(key int, batches func(*[]byte) bool, emit func([]byte), bcast func(int, []byte)) error {
	_, n, ok := splitKey(key)
	if !ok {
		return fmt.Errorf("isolda-beam: hubs: grouping key %d is no bucket", key)
	}
	in, err := sortBatches(batches, f.Memory)
	if err != nil {
		return err
	}
	defer in.Close()
	side := newBatcher(1, func(_ int, data []byte) { emit(data) })
	all := newBatcher(1, func(_ int, data []byte) {
		for i := range n {
			bcast(bucketKey(i, n), data)
		}
	})
	var rkey []byte
	b := batchAdder(func(key, val []byte) {
		side.add(key, val)
		if f.Broadcast {
			rkey = append(append(rkey[:0], hubRecord), key...)
			all.add(rkey, val)
		}
	})
	var ownCut, inCut []byte
	err = groups(in, func(key []byte, vals chunk.Values) error {
		own, links := 0, 0
		for v := range vals {
			switch v[0] {
			case tagDesc, tagOwn:
				if own++; own == f.Cap {
					ownCut = append(append(ownCut[:0], cutOwn), v...)
				}
			case tagIn:
				if links++; links == f.Cap {
					inCut = append(append(inCut[:0], cutIn), v...)
				}
			}
		}
		switch {
		case own == 0 && links > f.Cap:
			b.add(key, []byte{cutUnread})
		case own > f.Cap || links > f.Cap:
			if own > f.Cap {
				b.add(key, ownCut)
			}
			if links > f.Cap {
				b.add(key, inCut)
			}
		}
		return nil
	})
	side.flush()
	all.flush()
	return err
}

// batchAdder adds a record to batches.
type batchAdder func(key, val []byte)

func (a batchAdder) add(key, val []byte) { a(key, val) }

// term is the span of an encoded term in a record: its kind, and for an
// IRI or a blank node its value.
type term struct {
	kind  byte
	value []byte
	enc   []byte // the whole encoding
}

// nextTerm reads the term at the start of b.
func nextTerm(b []byte) (t term, rest []byte, ok bool) {
	if len(b) == 0 {
		return t, nil, false
	}
	t.kind = b[0]
	strs, ok := termStrings(t.kind)
	if !ok {
		return t, nil, false
	}
	rest = b[1:]
	for s := range strs {
		str, r, ok := readString(rest)
		if !ok {
			return t, nil, false
		}
		if s == 0 {
			t.value = str
		}
		rest = r
	}
	t.enc = b[:len(b)-len(rest)]
	return t, rest, true
}

// isNodeTerm reports whether a term is an IRI or a blank node (other than
// the record's key).
func (t term) isNodeTerm() bool { return t.kind == kindIRI || t.kind == kindBlank }

// otherNode returns the terms of a statement record and the node, other
// than the record's key, that the statement links it to: for the node's
// own statement (key p o) its object, for a link (s p key) its subject.
// ok is false for a record that links to no other node (a literal
// object, a loop) or that is no statement.
func otherNode(val []byte) (ts [4]term, other term, ok bool) {
	if len(val) == 0 {
		return ts, other, false
	}
	b := val[1:]
	for i := range ts {
		if ts[i], b, ok = nextTerm(b); !ok {
			return ts, other, false
		}
	}
	switch {
	case len(b) != 0:
		return ts, other, false
	case val[0] == tagDesc || val[0] == tagOwn:
		other = ts[2]
	case val[0] == tagIn:
		other = ts[0]
	default:
		return ts, other, false
	}
	return ts, other, other.isNodeTerm()
}

// appendKey appends the key of a node term: its kind (the key's kind
// bytes are the terms': kIRI, kBlank) and its value.
func appendKey(dst []byte, t term) []byte {
	return append(append(dst, t.kind), t.value...)
}

// otherRecord returns, for a statement record val of the node key that
// links it to another node, that node's key and the record Map made of
// the same statement for it, as out[:n] and out[n:] (written over dst):
// for the node's own statement (key p o) a link record keyed by o; for a
// link (s p key) the own record keyed by s, a description when p is
// rdf:type. ok is false for a record that links to no other node (a
// literal object, a loop) or that is no statement.
func otherRecord(dst, key, val []byte) (out []byte, n int, ok bool) {
	ts, other, ok := otherNode(val)
	if !ok || len(key) == 0 {
		return dst, 0, false
	}
	out = appendKey(dst[:0], other)
	n = len(out)
	return appendRecord(out, key, val[0], ts, other), n, true
}

// appendRecord appends the record, for the node other, of the statement
// of terms ts whose record for key has the tag keyTag.
func appendRecord(dst, key []byte, keyTag byte, ts [4]term, other term) []byte {
	tag := byte(tagIn)
	if keyTag == tagIn {
		tag = tagOwn
		p := ts[1].value
		if ts[1].kind == kindKey {
			p = key[1:]
		}
		if string(p) == rdf.RDFType {
			tag = tagDesc // a type whose object is a node (key)
		}
	}
	dst = append(dst, tag)
	for _, t := range ts {
		switch {
		case t.kind == kindKey: // the key, written out
			dst = append(dst, key[0])
			dst = binary.AppendUvarint(dst, uint64(len(key)-1))
			dst = append(dst, key[1:]...)
		case t.kind == other.kind && bytes.Equal(t.value, other.value):
			dst = append(dst, kindKey)
		default:
			dst = append(dst, t.enc...)
		}
	}
	return dst
}

// boundsOf finds, reading a sender's statement records one by one, the
// hubs it is within the bounds of: those with a statement linking them to
// the sender whose record, for the hub, sorts at or before the hub's
// cut-off of its kind.
type boundsOf struct {
	hubs   hubCuts
	within map[string]bool
	buf    []byte
}

// reset starts another sender.
func (s *boundsOf) reset() { clear(s.within) }

// add reads a statement record of the sender key.
func (s *boundsOf) add(key, val []byte) {
	if len(s.hubs) == 0 || len(val) == 0 || val[0] > tagIn {
		return
	}
	ts, other, ok := otherNode(val)
	if !ok {
		return
	}
	s.buf = appendKey(s.buf[:0], other)
	h := s.hubs[string(s.buf)]
	if h == nil || h.unread || s.within[string(s.buf)] {
		return
	}
	n := len(s.buf)
	s.buf = appendRecord(s.buf, key, val[0], ts, other)
	okey, oval := s.buf[:n], s.buf[n:]
	cut := h.own
	if oval[0] == tagIn {
		cut = h.in
	}
	if cut == nil || bytes.Compare(oval, cut) <= 0 {
		s.within[string(okey)] = true
	}
}

// farSelector keeps, of the messages a worker sends to each hub in the
// last hop, those Gather can read: the first cap distinct statements (in
// the order of the message values) that are not about the hub (see
// msgFilter). It holds at most 2 cap+1 messages per hub: a statement is
// kept with its smallest message; past 2 cap statements the cap with the
// smallest messages stay and the largest of those becomes a bar that
// later messages must not pass (the cap kept before it are still among
// the first).
type farSelector struct {
	cap  int
	hubs map[string]*farSet
}

type farSet struct {
	first map[string][]byte // statement → its smallest message
	bar   []byte            // nil until the first trim
}

func newFarSelector(cap int) *farSelector {
	return &farSelector{cap: cap, hubs: map[string]*farSet{}}
}

// add offers a message (a value) to the hub key; it reports whether it
// is kept for now.
func (s *farSelector) add(key, v []byte) (bool, error) {
	h := s.hubs[string(key)]
	if h == nil {
		h = &farSet{first: map[string][]byte{}}
		s.hubs[string(key)] = h
	}
	if h.bar != nil && bytes.Compare(v, h.bar) > 0 {
		return false, nil
	}
	prefix, ok := chunk.MessageOrigin(v)
	if !ok {
		return false, fmt.Errorf("isolda-beam: a message to a hub that is not one")
	}
	self, stmt, ok := msgStatement(v, len(prefix))
	if !ok {
		return false, fmt.Errorf("isolda-beam: corrupt message")
	}
	if self {
		return false, nil
	}
	if old, ok := h.first[string(stmt)]; ok {
		if bytes.Compare(v, old) < 0 {
			h.first[string(stmt)] = bytes.Clone(v)
		}
		return true, nil
	}
	h.first[string(stmt)] = bytes.Clone(v)
	if len(h.first) > 2*s.cap {
		h.trim(s.cap)
	}
	return true, nil
}

// trim keeps the cap statements with the smallest messages.
func (h *farSet) trim(cap int) {
	type entry struct {
		stmt string
		v    []byte
	}
	all := make([]entry, 0, len(h.first))
	for s, v := range h.first {
		all = append(all, entry{s, v})
	}
	slices.SortFunc(all, func(a, b entry) int { return bytes.Compare(a.v, b.v) })
	for _, e := range all[cap:] {
		delete(h.first, e.stmt)
	}
	h.bar = all[cap-1].v
}

// flush adds the kept messages of each hub, in key order, to b, and
// empties the selector; it returns the number added.
func (s *farSelector) flush(b *batcher) int {
	keys := make([]string, 0, len(s.hubs))
	for k := range s.hubs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	n := 0
	for _, k := range keys {
		h := s.hubs[k]
		vals := make([][]byte, 0, len(h.first))
		for _, v := range h.first {
			vals = append(vals, v)
		}
		slices.SortFunc(vals, bytes.Compare)
		for _, v := range vals[:min(len(vals), s.cap)] {
			b.add([]byte(k), v)
			n++
		}
	}
	clear(s.hubs)
	return n
}
