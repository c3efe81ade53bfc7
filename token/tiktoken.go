package token

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// Names of the embedded OpenAI encodings.
const (
	O200KBase  = "o200k_base"
	CL100KBase = "cl100k_base"
)

// tiktokenSpecials returns the special tokens of an OpenAI encoding, from
// tiktoken's openai_public.py.
func tiktokenSpecials(name string) map[string]int {
	if name == O200KBase {
		return map[string]int{
			"<|endoftext|>":   199999,
			"<|endofprompt|>": 200018,
		}
	}
	return map[string]int{
		"<|endoftext|>":   100257,
		"<|fim_prefix|>":  100258,
		"<|fim_middle|>":  100259,
		"<|fim_suffix|>":  100260,
		"<|endofprompt|>": 100276,
	}
}

// tiktoken is an OpenAI BPE encoding: byte ranks and a split pattern.
type tiktoken struct {
	ranks    *rankTable
	split    splitter
	specials *addedMatcher // nil unless special tokens are recognised
	memo     *pieceMemo    // token counts of recent pieces, for Count
	linOnce  sync.Once
	lin      *linearBPE // built by linear on the first long piece
	longWord int        // pieces from this length go to lin (longWord; tests lower it)
}

// loadTiktoken builds an embedded encoding. With special, the text's
// special-token literals (such as <|endoftext|>) are encoded as the special
// tokens, like tiktoken's encode(text, allowed_special="all"); without, the
// text is encoded as ordinary text, like encode_ordinary.
func loadTiktoken(name string, special bool) (Tokenizer, error) {
	var sp splitter
	switch name {
	case O200KBase:
		sp = o200kSplitter{}
	case CL100KBase:
		sp = cl100kSplitter{3}
	default:
		return nil, fmt.Errorf("token: unknown tiktoken encoding %q", name)
	}
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, fmt.Errorf("token: embedded %s: %w", name, err)
	}
	ranks, err := parseTiktokenRanks(data)
	if err != nil {
		return nil, fmt.Errorf("token: embedded %s: %w", name, err)
	}
	t := &tiktoken{ranks: ranks, split: sp, memo: newPieceMemo(), longWord: longWord}
	if special {
		t.specials = newAddedMatcher(tiktokenSpecials(name))
	}
	return &base{name: name, enc: t}, nil
}

// parseTiktokenRanks reads a .tiktoken file: lines "base64 rank".
func parseTiktokenRanks(data []byte) (*rankTable, error) {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	keys := make([]byte, 0, len(data)*3/4)
	entries := make([]rankEntry, 0, lines)
	for line := 1; len(data) > 0; line++ {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		if len(l) == 0 {
			continue
		}
		sp := bytes.IndexByte(l, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("line %d: no rank", line)
		}
		off := len(keys)
		keys = slices.Grow(keys, base64.StdEncoding.DecodedLen(sp))
		n, err := base64.StdEncoding.Decode(keys[off:off+base64.StdEncoding.DecodedLen(sp)], l[:sp])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if n == 0 || n > math.MaxUint16 {
			return nil, fmt.Errorf("line %d: token of %d bytes", line, n)
		}
		keys = keys[:off+n]
		r, err := strconv.ParseInt(string(l[sp+1:]), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		entries = append(entries, rankEntry{off: uint32(off), n: uint16(n), rank: int32(r)})
	}
	ranks, err := newRankTable(string(keys), entries)
	if err != nil {
		return nil, err
	}
	for b := 0; b < 256; b++ {
		if _, ok := ranks.get(string([]byte{byte(b)})); !ok {
			return nil, fmt.Errorf("byte %#02x has no rank", b)
		}
	}
	return ranks, nil
}

func (t *tiktoken) appendIDs(sc *scratch, text string, dst []int) []int {
	if t.specials == nil {
		return t.appendOrdinary(sc, text, dst)
	}
	for len(text) > 0 {
		start, end, id := t.specials.find(text, 0)
		if start < 0 {
			return t.appendOrdinary(sc, text, dst)
		}
		dst = t.appendOrdinary(sc, text[:start], dst)
		dst = append(dst, id)
		text = text[end:]
	}
	return dst
}

// extra returns the number of ids added to every encoding: none.
func (t *tiktoken) extra() int { return 0 }

// appendBody is appendIDs: nothing is added around the text.
func (t *tiktoken) appendBody(sc *scratch, text string, dst []int) []int {
	return t.appendIDs(sc, text, dst)
}

// cutSafe: see hfBPE.cutSafe; the special tokens hold no newline.
func (t *tiktoken) cutSafe() bool { return true }

func (t *tiktoken) appendOrdinary(sc *scratch, text string, dst []int) []int {
	if sc.counting && t.memo != nil {
		return t.countOrdinary(sc, text, dst)
	}
	for i := 0; i < len(text); {
		j := t.split.next(text, i)
		dst = sc.flush(t.appendPiece(sc, text[i:j], dst))
		i = j
	}
	return dst
}

// countOrdinary is appendOrdinary for a counting scratch: the counts of
// memoized pieces go straight to sc.counted, other pieces are merged and
// memoized. A one-byte piece is always one token (every byte has a rank).
func (t *tiktoken) countOrdinary(sc *scratch, text string, dst []int) []int {
	for i := 0; i < len(text); {
		j := t.split.next(text, i)
		piece := text[i:j]
		i = j
		switch {
		case len(piece) == 1:
			sc.counted++
		case len(piece) <= memoMaxPiece:
			s := t.memo.slot(piece)
			if n, ok := t.memo.get(s, piece); ok {
				sc.counted += n
				continue
			}
			n0, c0 := len(dst), sc.counted
			dst = t.appendPiece(sc, piece, dst) // the linear engine adds to sc.counted
			t.memo.put(s, piece, len(dst)-n0+sc.counted-c0)
			dst = sc.flush(dst)
		default:
			dst = sc.flush(t.appendPiece(sc, piece, dst))
		}
	}
	return dst
}

func (t *tiktoken) appendPiece(sc *scratch, piece string, dst []int) []int {
	if id, ok := t.ranks.get(piece); ok {
		return append(dst, int(id))
	}
	if len(piece) >= t.longWord {
		if lb := t.linear(); lb != nil {
			return lb.encode(sc, piece, dst)
		}
	}
	return t.mergePiece(sc, piece, dst)
}

// mergePiece is tiktoken's byte_pair_merge of piece, without the shortcut
// for a piece that is itself a token.
func (t *tiktoken) mergePiece(sc *scratch, piece string, dst []int) []int {
	switch {
	case len(piece) == 1:
		return append(dst, int(t.ranks.at(piece)))
	case len(piece) <= smallPiece:
		return rankBPESmall(sc, piece, t.ranks, dst)
	}
	return rankBPEHeap(sc, piece, t.ranks, dst)
}

// linear returns the linear engine, built on first use (about 200,000
// tokens to sort: some tens of milliseconds).
func (t *tiktoken) linear() *linearBPE {
	t.linOnce.Do(func() {
		toks := make([]linTok, 0, t.ranks.len())
		for s, r := range t.ranks.all() {
			toks = append(toks, linTok{s: s, id: r})
		}
		t.lin = newLinearBPE(toks, t.mergePiece)
	})
	return t.lin
}
