package token

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// Piece memo. Counting spends most of its time in the BPE merges of the
// pieces the pre-tokenizer cuts, and the texts this project counts (ISOLDA,
// Turtle, N-Triples of one graph) repeat the same pieces over and over: the
// same property names, prefixes, IRIs and words. A pieceMemo remembers the
// token count of recently seen pieces so that Count merges each distinct
// piece about once.
//
// The memo is a direct-mapped cache of memoSlots slots, each an atomic
// pointer to an immutable entry (the piece, copied, and its count): a
// lookup is one hash, one atomic load and one string comparison, with no
// lock, and a miss replaces the slot's entry. Readers never write, so
// concurrent Count calls do not contend on shared cache lines except when
// they insert. The count of a piece does not depend on its neighbours
// (tiktoken merges within a piece only), so a memoized count is exactly the
// count BPE gives; TestMemoExact checks this on the reference corpus.
//
// Memory bound: memoSlots pointers (128 KiB) plus at most memoSlots
// entries of at most memoMaxPiece bytes of piece each (a 24-byte header,
// the piece rounded up to its size class: at most 88 bytes), so under
// 1.6 MiB per tokenizer whatever is counted.
type pieceMemo struct {
	seed  maphash.Seed
	slots [memoSlots]atomic.Pointer[memoEntry]
}

// memoEntry is one memoized piece; it is never modified once published.
type memoEntry struct {
	piece string
	count int
}

const (
	// memoSlots is the number of slots of a pieceMemo (a power of two).
	memoSlots = 1 << 14
	// memoMaxPiece is the longest piece memoized; longer pieces are rare
	// and would make the memory bound large.
	memoMaxPiece = 64
)

func newPieceMemo() *pieceMemo {
	return &pieceMemo{seed: maphash.MakeSeed()}
}

// slot returns the slot of piece.
func (m *pieceMemo) slot(piece string) *atomic.Pointer[memoEntry] {
	return &m.slots[maphash.String(m.seed, piece)&(memoSlots-1)]
}

// get returns the memoized count of piece.
func (m *pieceMemo) get(s *atomic.Pointer[memoEntry], piece string) (int, bool) {
	if e := s.Load(); e != nil && e.piece == piece {
		return e.count, true
	}
	return 0, false
}

// put memoizes the count of piece, copying the piece so that the memo does
// not keep the counted text alive.
func (m *pieceMemo) put(s *atomic.Pointer[memoEntry], piece string, count int) {
	s.Store(&memoEntry{piece: strings.Clone(piece), count: count})
}
