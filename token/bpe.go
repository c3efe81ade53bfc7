package token

// Byte-pair encoding. Two flavours share one O(n log n) engine:
//
//   - rank BPE (tiktoken): a symbol is a byte range of the piece; the rank of
//     merging two neighbours is the rank of their concatenated bytes.
//   - merge BPE (Hugging Face): a symbol has a token id; the merge list gives
//     (rank, new id) for a pair of ids.
//
// Both repeatedly apply the lowest-ranked merge, leftmost first on ties,
// which is what tiktoken's byte_pair_merge and the Hugging Face BPE model
// (Rust tokenizers, transformers.js) do. The engine keeps the symbols in a
// doubly linked list and the candidate merges in a binary min-heap keyed by
// (rank, position of the left symbol); stale entries are skipped when
// popped. Short tiktoken pieces use tiktoken's own quadratic loop, which is
// faster for them; TestBPEEnginesAgree checks that both give the same ids.

// sym is one symbol of a word being merged.
type sym struct {
	start, end int32 // byte range in the word; end < 0 once merged away
	prev, next int32 // neighbours, -1 at the ends
	id         int32 // token id (merge BPE); unused by rank BPE
}

// cand is a candidate merge of symbol left with its right neighbour.
type cand struct {
	rank int32
	left int32
	size int32 // byte length of the merged symbol when queued
	id   int32 // id of the merged symbol (merge BPE)
}

func (a cand) less(b cand) bool {
	return a.rank < b.rank || (a.rank == b.rank && a.left < b.left)
}

// scratch holds reusable buffers for one encoding call.
type scratch struct {
	syms  []sym
	heap  []cand
	parts []part
	ids   []int
	// counting makes flush drop the ids gathered so far, adding their
	// number to counted, so that Count needs no memory per token.
	counting bool
	counted  int
	lin      linScratch // the linear engine's buffers
}

// flushEvery is how many ids a counting scratch gathers before dropping.
const flushEvery = 4096

// flush is called by the encoders between pieces.
func (sc *scratch) flush(dst []int) []int {
	if sc.counting && len(dst) >= flushEvery {
		sc.counted += len(dst)
		return dst[:0]
	}
	return dst
}

func (sc *scratch) push(c cand) {
	h := append(sc.heap, c)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	sc.heap = h
}

func (sc *scratch) pop() cand {
	h := sc.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	sc.heap = h
	return top
}

// mergeAll pops the candidates of the heap, lowest rank first, and merges
// each that still stands for two adjacent symbols of sc.syms (the merged
// symbol takes the candidate's id); after each merge, pair is called on
// the two new pairs of adjacent symbols l, r, to push their candidates.
func (sc *scratch) mergeAll(pair func(l, r int32)) {
	syms := sc.syms
	queue := func(l int32) {
		if l >= 0 && syms[l].next >= 0 {
			pair(l, syms[l].next)
		}
	}
	for len(sc.heap) > 0 {
		c := sc.pop()
		l := &syms[c.left]
		if l.end < 0 || l.next < 0 {
			continue
		}
		r := &syms[l.next]
		if r.end-l.start != c.size {
			continue
		}
		l.end = r.end
		l.next = r.next
		l.id = c.id
		if r.next >= 0 {
			syms[r.next].prev = c.left
		}
		r.end = -1
		queue(l.prev)
		queue(c.left)
	}
}

// initBytes makes one symbol per byte of a word of n bytes.
func (sc *scratch) initBytes(n int) {
	syms := sc.syms[:0]
	for i := 0; i < n; i++ {
		syms = append(syms, sym{start: int32(i), end: int32(i + 1), prev: int32(i - 1), next: int32(i + 1)})
	}
	syms[n-1].next = -1
	sc.syms = syms
	sc.heap = sc.heap[:0]
}

// rankBPEHeap merges the bytes of piece (len >= 2) by rank with the heap
// engine and appends the token ids (the ranks of the final symbols).
func rankBPEHeap(sc *scratch, piece string, ranks *rankTable, dst []int) []int {
	sc.initBytes(len(piece))
	syms := sc.syms
	for i := 0; i+1 < len(piece); i++ {
		if r, ok := ranks.get(piece[i : i+2]); ok {
			sc.push(cand{rank: r, left: int32(i), size: 2})
		}
	}
	sc.mergeAll(func(l, r int32) {
		if rk, ok := ranks.get(piece[syms[l].start:syms[r].end]); ok {
			sc.push(cand{rank: rk, left: l, size: syms[r].end - syms[l].start})
		}
	})
	for i := int32(0); i >= 0; i = syms[i].next {
		dst = append(dst, int(ranks.at(piece[syms[i].start:syms[i].end])))
	}
	return dst
}

// part is a boundary of tiktoken's quadratic merge loop.
type part struct {
	start int32
	rank  int32
}

const noRank = int32(1<<31 - 1)

// rankBPESmall is tiktoken's byte_pair_merge, for short pieces (len >= 2).
func rankBPESmall(sc *scratch, piece string, ranks *rankTable, dst []int) []int {
	parts := sc.parts[:0]
	minRank, minAt := noRank, -1
	for i := 0; i+1 < len(piece); i++ {
		r, ok := ranks.get(piece[i : i+2])
		if !ok {
			r = noRank
		}
		if r < minRank {
			minRank, minAt = r, i
		}
		parts = append(parts, part{int32(i), r})
	}
	parts = append(parts, part{int32(len(piece) - 1), noRank}, part{int32(len(piece)), noRank})
	rankOf := func(i int) int32 {
		if i+3 < len(parts) {
			if r, ok := ranks.get(piece[parts[i].start:parts[i+3].start]); ok {
				return r
			}
		}
		return noRank
	}
	for minRank != noRank {
		i := minAt
		if i > 0 {
			parts[i-1].rank = rankOf(i - 1)
		}
		parts[i].rank = rankOf(i)
		parts = append(parts[:i+1], parts[i+2:]...)
		minRank, minAt = noRank, -1
		for j := 0; j < len(parts)-1; j++ {
			if parts[j].rank < minRank {
				minRank, minAt = parts[j].rank, j
			}
		}
	}
	for j := 0; j+1 < len(parts); j++ {
		dst = append(dst, int(ranks.at(piece[parts[j].start:parts[j+1].start])))
	}
	sc.parts = parts
	return dst
}

// smallPiece is the piece length up to which the quadratic loop is used.
const smallPiece = 48

// mergeKey packs a pair of ids.
func mergeKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// mergeVal packs (rank, new id).
func mergeVal(rank, id int32) uint64 { return uint64(uint32(rank))<<32 | uint64(uint32(id)) }

// mergeBPE merges the symbols in sc.syms (ids set, linked in order from
// index 0) with the merge table and appends the final ids.
func mergeBPE(sc *scratch, merges map[uint64]uint64, dst []int) []int {
	syms := sc.syms
	sc.heap = sc.heap[:0]
	pair := func(l, r int32) {
		if v, ok := merges[mergeKey(syms[l].id, syms[r].id)]; ok {
			sc.push(cand{rank: int32(v >> 32), left: l, size: syms[r].end - syms[l].start, id: int32(uint32(v))})
		}
	}
	for i := range syms {
		if r := syms[i].next; r >= 0 {
			pair(int32(i), r)
		}
	}
	sc.mergeAll(pair)
	if len(syms) == 0 {
		return dst
	}
	for i := int32(0); i >= 0; i = syms[i].next {
		dst = append(dst, int(syms[i].id))
	}
	return dst
}
