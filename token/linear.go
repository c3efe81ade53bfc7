package token

import (
	"math"
	"slices"
	"strings"
)

// Linear-memory BPE for long words.
//
// The heap engine keeps a symbol (20 bytes) per input byte and a heap of
// candidate merges (16 bytes each, up to two per byte with the stale ones):
// about 100 bytes of memory per byte of a word. That is nothing for a word
// of a few hundred bytes, but a word is as long as the pre-tokenizer lets
// it be: a 16 MB run of one letter is one o200k piece, and Gemma 3, which
// has no split pattern, makes one word of everything between two added
// tokens. Words longer than longWord go to the engine below, which needs
// one bit per byte plus 4 bytes per output token.
//
// The engine is the backtracking encoder of GitHub's "bpe" crate
// (rust-gems, crates/bpe, README "Properties of BPE" and "Backtracking"),
// built on these facts about the merge process (rank BPE and merge BPE
// alike, since both only ever merge neighbours, lowest rank first, leftmost
// on ties):
//
//   - call a token sequence valid if BPE of its bytes gives it back. The
//     encoding of a text is the one valid sequence for that text (BPE is
//     deterministic);
//   - a contiguous part of a valid sequence is valid (no merge crossed its
//     boundaries, and the merges inside happen in the same order alone);
//   - a valid sequence followed by a token t is valid when its last token
//     and t form a valid pair.
//
// So the encoding is the unique sequence whose first token is valid alone
// and whose neighbours are valid pairs. The encoder searches for it depth
// first: from the current position it tries the tokens that are prefixes
// of the rest, longest first; it keeps the first one that forms a valid
// pair with the previous token, and when none does it pops the previous
// token and tries that position's shorter tokens. A position from which no
// continuation exists is dead for every sequence (the sequence before it
// is the unique encoding of that prefix), so it is marked in a bit set and
// never entered again: each position is entered at most once and tries at
// most as many tokens as the longest token has bytes, hence linear time in
// the word length for a given vocabulary.
//
// Validity of a pair (or of the first token) is decided by the exact
// engines themselves on the pair's bytes (at most twice the longest token),
// with the answers cached per call; nothing about the vocabulary is
// assumed. TestLinearAgrees compares the engine with the heap engine on
// random and adversarial words for every tokenizer, and
// TestReferenceCorpusLinear sends every word of the reference corpus
// through it and compares with tiktoken and the Hugging Face tokenizers.

// longWord is the word length from which the linear engine is used.
const longWord = 1 << 14

// linTok is one token of a linearBPE: its bytes (as they occur in a word)
// and its id.
type linTok struct {
	s  string
	id int32
}

// linearBPE is the linear engine for one tokenizer.
type linearBPE struct {
	toks []linTok // sorted by s, no duplicate s and no duplicate id
	lens []int32  // lens[id] is the length of token id
	// exact encodes a short word with the exact engines (the heap or
	// quadratic BPE), without any whole-word shortcut.
	exact func(sc *scratch, word string, dst []int) []int
}

// newLinearBPE builds the engine over toks; it returns nil if two tokens
// share their bytes or their id (then the pair cache, keyed by ids, would
// not be exact).
func newLinearBPE(toks []linTok, exact func(sc *scratch, word string, dst []int) []int) *linearBPE {
	slices.SortFunc(toks, func(a, b linTok) int { return strings.Compare(a.s, b.s) })
	maxID := int32(-1)
	for _, t := range toks {
		if t.id < 0 || len(t.s) >= math.MaxInt32 {
			return nil
		}
		maxID = max(maxID, t.id)
	}
	lens := make([]int32, maxID+1)
	for i, t := range toks {
		if t.s == "" || (i > 0 && toks[i-1].s == t.s) || lens[t.id] != 0 {
			return nil
		}
		lens[t.id] = int32(len(t.s))
	}
	return &linearBPE{toks: toks, lens: lens, exact: exact}
}

// linCand is a token that is a prefix of the rest of the word.
type linCand struct {
	n  int32 // length in bytes
	id int32
}

// linScratch holds the linear engine's buffers.
type linScratch struct {
	stack []int32  // token ids; their lengths give their offsets
	dead  []uint64 // bit i: position i of the word is dead
	cands []linCand
	pairs map[uint64]bool // validity of pairs (and of single tokens: b = -1)
	ids   []int
	// steps counts the tokens tried (tests check it stays linear).
	steps int
}

// maxPairs bounds the pair cache; it is emptied when full.
const maxPairs = 1 << 16

// prefixes appends the tokens that are prefixes of w[pos:], longest first.
func (lb *linearBPE) prefixes(w string, pos int, dst []linCand) []linCand {
	dst = dst[:0]
	toks := lb.toks
	lo, hi := 0, len(toks)
	for l := 0; pos+l < len(w) && lo < hi; l++ {
		// toks[lo:hi] are the tokens starting with w[pos:pos+l]; the one
		// equal to it, if any, sorts first.
		if len(toks[lo].s) == l {
			lo++
		}
		c := w[pos+l]
		a, b := lo, hi
		for a < b { // first token whose byte l is >= c
			m := int(uint(a+b) >> 1)
			if toks[m].s[l] < c {
				a = m + 1
			} else {
				b = m
			}
		}
		lo = a
		b = hi
		for a < b { // first token whose byte l is > c
			m := int(uint(a+b) >> 1)
			if toks[m].s[l] <= c {
				a = m + 1
			} else {
				b = m
			}
		}
		hi = a
		if lo < hi && len(toks[lo].s) == l+1 {
			dst = append(dst, linCand{n: int32(l + 1), id: toks[lo].id})
		}
	}
	slices.Reverse(dst)
	return dst
}

// valid reports whether BPE of s gives exactly a (b < 0) or a, b.
func (lb *linearBPE) valid(sc *scratch, s string, a, b int32) bool {
	ls := &sc.lin
	key := uint64(uint32(a))<<32 | uint64(uint32(b))
	if v, ok := ls.pairs[key]; ok {
		return v
	}
	ids := lb.exact(sc, s, ls.ids[:0])
	var v bool
	if b < 0 {
		v = len(ids) == 1 && ids[0] == int(a)
	} else {
		v = len(ids) == 2 && ids[0] == int(a) && ids[1] == int(b)
	}
	ls.ids = ids[:0]
	if ls.pairs == nil || len(ls.pairs) >= maxPairs {
		ls.pairs = make(map[uint64]bool, 1024)
	}
	ls.pairs[key] = v
	return v
}

// encode appends the BPE encoding of w (or adds its length to sc.counted
// when counting).
func (lb *linearBPE) encode(sc *scratch, w string, dst []int) []int {
	if len(w) >= math.MaxInt32 {
		return lb.exact(sc, w, dst)
	}
	ls := &sc.lin
	words := len(w)/64 + 1
	if cap(ls.dead) < words {
		ls.dead = make([]uint64, words)
	} else {
		ls.dead = ls.dead[:words]
		clear(ls.dead)
	}
	dead := ls.dead
	stack := ls.stack[:0]
	pos := 0
	cands := lb.prefixes(w, 0, ls.cands)
	ci := 0
	for pos < len(w) {
		pushed := false
		for ; ci < len(cands); ci++ {
			c := cands[ci]
			end := pos + int(c.n)
			ls.steps++
			if dead[end/64]&(1<<(end%64)) != 0 {
				continue
			}
			var ok bool
			if len(stack) == 0 {
				ok = lb.valid(sc, w[:end], c.id, -1)
			} else {
				top := stack[len(stack)-1]
				ok = lb.valid(sc, w[pos-int(lb.lens[top]):end], top, c.id)
			}
			if ok {
				stack = append(stack, c.id)
				pos = end
				pushed = true
				break
			}
		}
		if pushed {
			cands = lb.prefixes(w, pos, cands)
			ci = 0
			continue
		}
		if len(stack) == 0 {
			// No valid sequence: impossible if the facts above hold (every
			// byte is a token). Give the exact engine's answer anyway.
			ls.stack, ls.cands = stack, cands
			return lb.exact(sc, w, dst)
		}
		dead[pos/64] |= 1 << (pos % 64)
		n := lb.lens[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		pos -= int(n)
		cands = lb.prefixes(w, pos, cands)
		for ci = 0; ci < len(cands) && cands[ci].n >= n; ci++ {
		}
	}
	if sc.counting {
		sc.counted += len(stack)
	} else {
		for _, id := range stack {
			dst = append(dst, int(id))
		}
	}
	ls.stack, ls.cands = stack, cands
	return dst
}
