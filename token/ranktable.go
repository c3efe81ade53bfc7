package token

import (
	"errors"
	"hash/maphash"
	"iter"
	"math"
	"math/bits"
)

// rankTable maps the byte strings of an OpenAI encoding to their ranks. It
// replaces a map[string]int32 of 200,000 separately allocated keys: the
// keys live in one string and the slots hold no pointers, so the garbage
// collector marks two objects instead of 200,000 on every cycle (a
// /v1/serialize load test spent about a fifth of its CPU time in the
// collector, mostly marking that map). Lookups cost about what a map
// lookup does: one hash, then linear probing in a table at most half full,
// comparing a 16-bit tag and the length before the bytes.
type rankTable struct {
	seed  maphash.Seed
	keys  string     // every key, concatenated
	slots []rankSlot // a power of two of them
	n     int        // number of keys
}

// rankSlot is one slot of a rankTable; n == 0 marks an empty slot (keys
// are never empty).
type rankSlot struct {
	off  uint32 // keys[off:off+n] is the key
	n    uint16
	tag  uint16 // the top bits of the key's hash
	rank int32
}

// rankEntry is a key, as a range of the concatenated keys, and its rank.
type rankEntry struct {
	off  uint32
	n    uint16
	rank int32
}

// newRankTable builds a table over keys (the concatenated keys) and
// entries; a key given twice keeps the last rank, like a map.
func newRankTable(keys string, entries []rankEntry) (*rankTable, error) {
	if len(keys) > math.MaxUint32 {
		return nil, errors.New("rank table larger than 4 GiB")
	}
	size := 1 << bits.Len(uint(2*len(entries)))
	t := &rankTable{seed: maphash.MakeSeed(), keys: keys, slots: make([]rankSlot, size)}
	mask := uint64(size - 1)
	for _, e := range entries {
		if e.n == 0 {
			return nil, errors.New("empty token")
		}
		key := keys[e.off : e.off+uint32(e.n)]
		h := maphash.String(t.seed, key)
		tag := uint16(h >> 48)
		for i := h & mask; ; i = (i + 1) & mask {
			s := &t.slots[i]
			if s.n == 0 {
				*s = rankSlot{off: e.off, n: e.n, tag: tag, rank: e.rank}
				t.n++
				break
			}
			if s.tag == tag && s.n == e.n && keys[s.off:s.off+uint32(s.n)] == key {
				s.rank = e.rank
				break
			}
		}
	}
	return t, nil
}

// get returns the rank of s.
func (t *rankTable) get(s string) (int32, bool) {
	if len(s) == 0 || len(s) > math.MaxUint16 {
		return 0, false
	}
	h := maphash.String(t.seed, s)
	tag := uint16(h >> 48)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.n == 0 {
			return 0, false
		}
		if sl.tag == tag && int(sl.n) == len(s) && t.keys[sl.off:sl.off+uint32(sl.n)] == s {
			return sl.rank, true
		}
	}
}

// at returns the rank of s, or 0 when s has none (like a map).
func (t *rankTable) at(s string) int32 {
	r, _ := t.get(s)
	return r
}

// len returns the number of keys.
func (t *rankTable) len() int { return t.n }

// all yields every key and its rank, in slot order.
func (t *rankTable) all() iter.Seq2[string, int32] {
	return func(yield func(string, int32) bool) {
		for _, s := range t.slots {
			if s.n != 0 && !yield(t.keys[s.off:s.off+uint32(s.n)], s.rank) {
				return
			}
		}
	}
}
