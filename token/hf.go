package token

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Hugging Face tokenizer.json support: the BPE model with either a
// byte-level vocabulary (GPT-2 byte-to-unicode table; Qwen, Llama 3, GPT-4o)
// or a SentencePiece-style vocabulary with byte fallback (Gemma). The
// pipeline is the library's: split the raw text on added tokens
// (leftmost-longest), normalize each other segment, pre-tokenize, BPE each
// piece; the post-processor's special tokens are added only when asked.
//
// Supported components (anything else is refused with an error rather than
// silently tokenized differently):
//   - normalizer: null, NFC, NFD, NFKC, NFKD, Replace (string pattern),
//     Prepend, Sequence of these;
//   - pre_tokenizer: null, Split with one of the known regexes
//     (PatternCL100K, PatternQwen, PatternO200K, PatternGPT2) and behavior
//     Isolated, Split on a string with behavior MergedWithPrevious,
//     ByteLevel (use_regex splits with PatternGPT2; add_prefix_space only
//     when no Split comes before it), Sequence of these;
//   - model: BPE (merges as "a b" strings or [a, b] pairs), ignore_merges,
//     byte_fallback, unk_token, fuse_unk; no dropout, no subword affixes;
//   - post_processor: null, ByteLevel, TemplateProcessing, BertProcessing,
//     RobertaProcessing, Sequence.
//
// Added tokens' lstrip/rstrip/single_word flags are ignored and all added
// tokens are matched in the raw text (none of the supported models uses
// those flags, and all have normalized=false).

// hfFile is the part of tokenizer.json that is read.
type hfFile struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Model         struct {
		Type                    string   `json:"type"`
		UnkToken                *string  `json:"unk_token"`
		ContinuingSubwordPrefix *string  `json:"continuing_subword_prefix"`
		EndOfWordSuffix         *string  `json:"end_of_word_suffix"`
		FuseUnk                 bool     `json:"fuse_unk"`
		ByteFallback            bool     `json:"byte_fallback"`
		IgnoreMerges            bool     `json:"ignore_merges"`
		Dropout                 *float64 `json:"dropout"`
	} `json:"model"`
}

// component is a generic tokenizer.json component.
type component struct {
	Type    string          `json:"type"`
	Pattern json.RawMessage `json:"pattern"`
	Content string          `json:"content"`
	Prepend string          `json:"prepend"`
	// Sequence members.
	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	Processors    []json.RawMessage `json:"processors"`
	// Split.
	Behavior string `json:"behavior"`
	Invert   bool   `json:"invert"`
	// ByteLevel.
	AddPrefixSpace bool  `json:"add_prefix_space"`
	UseRegex       *bool `json:"use_regex"`
	// TemplateProcessing.
	Single        []map[string]json.RawMessage `json:"single"`
	SpecialTokens map[string]struct {
		IDs []int `json:"ids"`
	} `json:"special_tokens"`
	// BertProcessing, RobertaProcessing: [token, id].
	Cls []json.RawMessage `json:"cls"`
	Sep []json.RawMessage `json:"sep"`
}

type pattern struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

// hfBPE is a loaded tokenizer.json.
type hfBPE struct {
	added        *addedMatcher
	normalizers  []func(string) string
	split        splitter // nil: no regex split
	splitAfter   string   // Split on this string, MergedWithPrevious ("" none)
	byteLevel    bool
	vocab        map[string]int32 // byte-level: raw bytes -> id; else token text -> id
	byteIDs      [256]int32       // byte-level: id of each byte; byte fallback: <0xXX> ids; -1 if none
	merges       map[uint64]uint64
	ignoreMerges bool
	byteFallback bool
	unk          int32 // -1: none
	fuseUnk      bool
	prefix       []int // added with Special
	suffix       []int
	cutOK        bool // see cutSafe
	prefixSpace  bool // ByteLevel add_prefix_space: segments start with " "
	linOnce      sync.Once
	lin          *linearBPE // built by linear on the first long word
	longWord     int        // words from this length go to lin (longWord; tests lower it)
}

// OpenFile loads the Hugging Face tokenizer.json at path as a Tokenizer
// whose Name is name. With special, the tokens of the post-processor (such
// as Gemma's <bos>) are added to every encoding; added tokens written in
// the text (<|im_start|>, <start_of_turn>, ...) are always matched, as the
// Hugging Face libraries do.
func OpenFile(path, name string, special bool) (Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	defer f.Close()
	tok, err := ReadHF(f, name, special)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tok, nil
}

// MaxTokenizerJSON is the largest tokenizer.json ReadHF accepts (the
// biggest common ones, such as Gemma 3's, are about 35 MB).
const MaxTokenizerJSON = 1 << 30

// ReadHF reads a Hugging Face tokenizer.json from r; see OpenFile.
func ReadHF(r io.Reader, name string, special bool) (Tokenizer, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxTokenizerJSON+1))
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	if len(data) > MaxTokenizerJSON {
		return nil, fmt.Errorf("token: tokenizer.json larger than %d bytes", MaxTokenizerJSON)
	}
	f, vocab, merges, err := parseTokenizerJSON(data)
	if err != nil {
		return nil, fmt.Errorf("token: tokenizer.json: %w", err)
	}
	h, err := buildHF(f, vocab, merges, special)
	if err != nil {
		return nil, fmt.Errorf("token: tokenizer.json: %w", err)
	}
	return &base{name: name, enc: h}, nil
}

func buildHF(f *hfFile, vocab []vocabEntry, merges [][2]string, special bool) (*hfBPE, error) {
	m := &f.Model
	if m.Type != "BPE" && !(m.Type == "" && len(merges) > 0) {
		return nil, fmt.Errorf("model type %q is not supported (only BPE)", m.Type)
	}
	if m.Dropout != nil && *m.Dropout != 0 {
		return nil, errors.New("BPE dropout is not supported")
	}
	if (m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "") || (m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "") {
		return nil, errors.New("BPE continuing_subword_prefix/end_of_word_suffix are not supported")
	}
	h := &hfBPE{ignoreMerges: m.IgnoreMerges, byteFallback: m.ByteFallback, fuseUnk: m.FuseUnk, unk: -1, longWord: longWord}
	var err error
	if h.normalizers, err = parseNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if err := h.parsePreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	if len(vocab) == 0 {
		return nil, errors.New("model.vocab is empty")
	}
	textVocab := make(map[string]int32, len(vocab))
	for _, e := range vocab {
		textVocab[e.text] = e.id
	}
	if err := h.buildVocab(textVocab, m.UnkToken); err != nil {
		return nil, err
	}
	h.buildMerges(merges, vocab, textVocab)
	addedTokens := map[string]int{}
	for _, a := range f.AddedTokens {
		addedTokens[a.Content] = a.ID
	}
	if len(addedTokens) > 0 {
		h.added = newAddedMatcher(addedTokens)
	}
	_, newlineAdded := addedTokens["\n"]
	h.cutOK = !prepends(f.Normalizer) && !h.prefixSpace && (h.split != nil || newlineAdded)
	for content := range addedTokens {
		if i := strings.IndexByte(content, '\n'); i >= 0 && strings.Trim(content[i:], "\n") != "" {
			h.cutOK = false
		}
	}
	if special {
		if h.prefix, h.suffix, err = parsePostProcessor(f.PostProcessor); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// prepends reports whether a normalizer has a Prepend step.
func prepends(raw json.RawMessage) bool {
	return bytes.Contains(raw, []byte(`"Prepend"`))
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

func parseNormalizer(raw json.RawMessage) ([]func(string) string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("normalizer: %w", err)
	}
	switch c.Type {
	case "Sequence":
		var out []func(string) string
		for _, sub := range c.Normalizers {
			fs, err := parseNormalizer(sub)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
		return out, nil
	case "NFC":
		return []func(string) string{norm.NFC.String}, nil
	case "NFD":
		return []func(string) string{norm.NFD.String}, nil
	case "NFKC":
		return []func(string) string{norm.NFKC.String}, nil
	case "NFKD":
		return []func(string) string{norm.NFKD.String}, nil
	case "Replace":
		var p pattern
		if err := json.Unmarshal(c.Pattern, &p); err != nil || p.String == nil {
			return nil, errors.New("normalizer Replace: only string patterns are supported")
		}
		from, to := *p.String, c.Content
		if from == "" {
			return nil, errors.New("normalizer Replace: empty pattern")
		}
		return []func(string) string{func(s string) string { return strings.ReplaceAll(s, from, to) }}, nil
	case "Prepend":
		pre := c.Prepend
		return []func(string) string{func(s string) string {
			if s == "" {
				return s
			}
			return pre + s
		}}, nil
	}
	return nil, fmt.Errorf("normalizer %q is not supported", c.Type)
}

func (h *hfBPE) parsePreTokenizer(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return fmt.Errorf("pre_tokenizer: %w", err)
	}
	switch c.Type {
	case "Sequence":
		for _, sub := range c.Pretokenizers {
			if err := h.parsePreTokenizer(sub); err != nil {
				return err
			}
		}
		return nil
	case "ByteLevel":
		// use_regex defaults to true, as in the Rust library.
		if c.UseRegex == nil || *c.UseRegex {
			if h.split != nil || h.splitAfter != "" {
				return errors.New("pre_tokenizer: ByteLevel with use_regex after a Split is not supported")
			}
			h.split = gpt2Splitter{}
		}
		if c.AddPrefixSpace {
			// The library prepends the space to every piece split so far;
			// supported when nothing was split before (so per segment).
			if _, gpt2 := h.split.(gpt2Splitter); (h.split != nil && !gpt2) || h.splitAfter != "" {
				return errors.New("pre_tokenizer: ByteLevel add_prefix_space after a Split is not supported")
			}
			h.prefixSpace = true
		}
		h.byteLevel = true
		return nil
	case "Split":
		var p pattern
		if err := json.Unmarshal(c.Pattern, &p); err != nil {
			return fmt.Errorf("pre_tokenizer Split: %w", err)
		}
		if c.Invert {
			return errors.New("pre_tokenizer Split with invert is not supported")
		}
		switch {
		case p.Regex != nil && c.Behavior == "Isolated":
			if h.split != nil || h.splitAfter != "" {
				return errors.New("pre_tokenizer: more than one Split is not supported")
			}
			sp, ok := knownSplitter(*p.Regex)
			if !ok {
				return fmt.Errorf("pre_tokenizer Split regex %q is not supported", *p.Regex)
			}
			h.split = sp
			return nil
		case p.String != nil && *p.String != "" && c.Behavior == "MergedWithPrevious":
			if h.split != nil || h.splitAfter != "" {
				return errors.New("pre_tokenizer: more than one Split is not supported")
			}
			h.splitAfter = *p.String
			return nil
		}
		return fmt.Errorf("pre_tokenizer Split with behavior %q is not supported", c.Behavior)
	}
	return fmt.Errorf("pre_tokenizer %q is not supported", c.Type)
}

// byteToRune returns the GPT-2 byte-to-unicode table.
func byteToRune() [256]rune {
	var t [256]rune
	n := rune(0)
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			t[b] = rune(b)
		} else {
			t[b] = 256 + n
			n++
		}
	}
	return t
}

// runeToByte inverts byteToRune; -1 for runes that are not in it.
func runeToByte() map[rune]int {
	inv := make(map[rune]int, 256)
	for b, r := range byteToRune() {
		inv[r] = b
	}
	return inv
}

// decodeByteLevel maps a byte-level token text to raw bytes.
func decodeByteLevel(inv map[rune]int, s string, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	for _, r := range s {
		b, ok := inv[r]
		if !ok {
			return buf, false
		}
		buf = append(buf, byte(b))
	}
	return buf, true
}

func (h *hfBPE) buildVocab(textVocab map[string]int32, unkToken *string) error {
	for i := range h.byteIDs {
		h.byteIDs[i] = -1
	}
	if unkToken != nil {
		if id, ok := textVocab[*unkToken]; ok {
			h.unk = id
		}
	}
	if !h.byteLevel {
		h.vocab = textVocab
		if h.byteFallback {
			for b := 0; b < 256; b++ {
				if id, ok := textVocab[fmt.Sprintf("<0x%02X>", b)]; ok {
					h.byteIDs[b] = id
				}
			}
		}
		return nil
	}
	inv := runeToByte()
	h.vocab = make(map[string]int32, len(textVocab))
	var buf []byte
	for text, id := range textVocab {
		var ok bool
		if buf, ok = decodeByteLevel(inv, text, buf); ok {
			h.vocab[string(buf)] = id
		}
	}
	for b := 0; b < 256; b++ {
		id, ok := h.vocab[string([]byte{byte(b)})]
		if !ok {
			return fmt.Errorf("byte-level vocabulary lacks byte %#02x", b)
		}
		h.byteIDs[b] = id
	}
	return nil
}

// buildMerges makes the merge table from model.merges. Looking the
// pair's three token texts up in a string map is the slowest part of
// loading (cache misses on 500k+ merges), so the texts are looked up by
// their 64-bit maphash in an integer map and then compared with the text
// found, which keeps the result exact; if two vocabulary texts share a hash
// the string map is used instead.
func (h *hfBPE) buildMerges(pairs [][2]string, vocab []vocabEntry, textVocab map[string]int32) {
	seed := maphash.MakeSeed()
	byHash := make(map[uint64]int32, len(vocab))
	exact := true
	for i, e := range vocab {
		k := maphash.String(seed, e.text)
		if j, ok := byHash[k]; ok && vocab[j].text != e.text {
			exact = false
			break
		}
		byHash[k] = int32(i)
	}
	lookup := func(a, b string) (int32, bool) {
		if !exact {
			if b == "" {
				id, ok := textVocab[a]
				return id, ok
			}
			id, ok := textVocab[a+b]
			return id, ok
		}
		var mh maphash.Hash
		mh.SetSeed(seed)
		mh.WriteString(a)
		mh.WriteString(b)
		j, ok := byHash[mh.Sum64()]
		if !ok {
			return 0, false
		}
		t := vocab[j].text
		if len(t) != len(a)+len(b) || t[:len(a)] != a || t[len(a):] != b {
			return 0, false
		}
		return vocab[j].id, true // the last entry of this text
	}
	// The lookups only read, so two goroutines share them; the table is
	// then filled in rank order.
	type resolved struct{ a, b, ab int32 }
	res := make([]resolved, len(pairs))
	resolve := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			p := pairs[i]
			a, okA := lookup(p[0], "")
			b, okB := lookup(p[1], "")
			ab, okAB := lookup(p[0], p[1])
			if !okA || !okB || !okAB {
				ab = -1 // the Hugging Face library refuses such files; such a merge can never apply
			}
			res[i] = resolved{a, b, ab}
		}
	}
	half := len(pairs) / 2
	var wg sync.WaitGroup
	wg.Go(func() { resolve(0, half) })
	resolve(half, len(pairs))
	wg.Wait()
	h.merges = make(map[uint64]uint64, len(pairs))
	for rank, r := range res {
		if r.ab < 0 {
			continue
		}
		k := mergeKey(r.a, r.b)
		if _, dup := h.merges[k]; !dup {
			h.merges[k] = mergeVal(int32(rank), r.ab)
		}
	}
}

func parsePostProcessor(raw json.RawMessage) (prefix, suffix []int, err error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, nil, fmt.Errorf("post_processor: %w", err)
	}
	switch c.Type {
	case "ByteLevel":
		return nil, nil, nil
	case "Sequence":
		for _, sub := range c.Processors {
			p, s, err := parsePostProcessor(sub)
			if err != nil {
				return nil, nil, err
			}
			prefix = append(prefix, p...)
			suffix = append(s, suffix...)
		}
		return prefix, suffix, nil
	case "TemplateProcessing":
		seen := false
		for _, piece := range c.Single {
			if _, ok := piece["Sequence"]; ok {
				seen = true
				continue
			}
			st, ok := piece["SpecialToken"]
			if !ok {
				continue
			}
			var ref struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(st, &ref); err != nil {
				return nil, nil, fmt.Errorf("post_processor: %w", err)
			}
			tok, ok := c.SpecialTokens[ref.ID]
			if !ok {
				return nil, nil, fmt.Errorf("post_processor: special token %q not defined", ref.ID)
			}
			if seen {
				suffix = append(suffix, tok.IDs...)
			} else {
				prefix = append(prefix, tok.IDs...)
			}
		}
		return prefix, suffix, nil
	case "BertProcessing", "RobertaProcessing":
		cls, err1 := pairID(c.Cls)
		sep, err2 := pairID(c.Sep)
		if err1 != nil || err2 != nil {
			return nil, nil, errors.New("post_processor: bad cls/sep")
		}
		return []int{cls}, []int{sep}, nil
	}
	return nil, nil, fmt.Errorf("post_processor %q is not supported", c.Type)
}

func pairID(p []json.RawMessage) (int, error) {
	if len(p) != 2 {
		return 0, errors.New("not a [token, id] pair")
	}
	var id int
	err := json.Unmarshal(p[1], &id)
	return id, err
}

func (h *hfBPE) appendIDs(sc *scratch, text string, dst []int) []int {
	dst = h.appendBody(sc, text, append(dst, h.prefix...))
	return append(dst, h.suffix...)
}

// extra returns the number of ids the post-processor adds.
func (h *hfBPE) extra() int { return len(h.prefix) + len(h.suffix) }

// cutSafe reports whether encoding the text in two parts cut after a
// newline and before an ASCII letter gives the same ids as encoding it
// whole. Why it holds: none of the split patterns lets a piece run from a
// newline into a following letter; NFC/NFD/NFKC/NFKD cannot combine
// anything with a newline; Replace acts on each part alike. It does not
// hold with Prepend (each part would get the prefix), nor without a split
// pattern unless "\n" is an added token (then every newline ends a BPE
// word), nor when an added token contains a newline followed by anything
// but newlines (it could span the cut).
func (h *hfBPE) cutSafe() bool {
	return h.cutOK
}

func (h *hfBPE) appendBody(sc *scratch, text string, dst []int) []int {
	for len(text) > 0 {
		start, end, id := -1, -1, -1
		if h.added != nil {
			start, end, id = h.added.find(text, 0)
		}
		if start < 0 {
			dst = h.appendSegment(sc, text, dst)
			break
		}
		dst = h.appendSegment(sc, text[:start], dst)
		dst = sc.flush(append(dst, id))
		text = text[end:]
	}
	return dst
}

func (h *hfBPE) appendSegment(sc *scratch, seg string, dst []int) []int {
	if seg == "" {
		return dst
	}
	for _, f := range h.normalizers {
		seg = f(seg)
	}
	if h.prefixSpace && !strings.HasPrefix(seg, " ") {
		seg = " " + seg
	}
	switch {
	case h.split != nil:
		for i := 0; i < len(seg); {
			j := h.split.next(seg, i)
			dst = sc.flush(h.appendWord(sc, seg[i:j], dst))
			i = j
		}
	case h.splitAfter != "":
		for len(seg) > 0 {
			i := strings.Index(seg, h.splitAfter)
			if i < 0 {
				return h.appendWord(sc, seg, dst)
			}
			i += len(h.splitAfter)
			dst = sc.flush(h.appendWord(sc, seg[:i], dst))
			seg = seg[i:]
		}
	default:
		dst = h.appendWord(sc, seg, dst)
	}
	return dst
}

// appendWord runs the BPE model on one pre-token.
func (h *hfBPE) appendWord(sc *scratch, word string, dst []int) []int {
	if word == "" {
		return dst
	}
	if h.ignoreMerges {
		if id, ok := h.vocab[word]; ok {
			return append(dst, int(id))
		}
	}
	if len(word) >= h.longWord {
		if lb := h.linear(); lb != nil {
			if h.byteLevel {
				return lb.encode(sc, word, dst)
			}
			return h.appendLongWord(sc, lb, word, dst)
		}
	}
	return h.mergeWord(sc, word, dst)
}

// mergeWord is the BPE model on word, without the ignore_merges shortcut.
func (h *hfBPE) mergeWord(sc *scratch, word string, dst []int) []int {
	if word == "" {
		return dst
	}
	syms := sc.syms[:0]
	if h.byteLevel {
		if len(word) == 1 {
			return append(dst, int(h.byteIDs[word[0]]))
		}
		for i := 0; i < len(word); i++ {
			syms = append(syms, sym{start: int32(i), end: int32(i + 1), prev: int32(i - 1), next: int32(i + 1), id: h.byteIDs[word[i]]})
		}
	} else {
		for i := 0; i < len(word); {
			_, w := utf8.DecodeRuneInString(word[i:])
			if id, ok := h.vocab[word[i:i+w]]; ok {
				syms = appendSym(syms, i, i+w, id)
			} else if h.byteFallback && h.hasBytes(word[i:i+w]) {
				for k := i; k < i+w; k++ {
					syms = appendSym(syms, k, k+1, h.byteIDs[word[k]])
				}
			} else if h.unk >= 0 {
				if n := len(syms); h.fuseUnk && n > 0 && syms[n-1].id == h.unk {
					syms[n-1].end = int32(i + w)
				} else {
					syms = appendSym(syms, i, i+w, h.unk)
				}
			}
			i += w
		}
		if len(syms) == 0 {
			sc.syms = syms
			return dst
		}
	}
	syms[len(syms)-1].next = -1
	sc.syms = syms
	return mergeBPE(sc, h.merges, dst)
}

// appendLongWord encodes a long word of a tokenizer without byte-level
// pre-tokenization (SentencePiece style): runs of characters in the
// vocabulary go to the linear engine; a character outside it becomes its
// byte-fallback or unknown symbol, which no merge involves (linear checks
// this), so no merge crosses it and the runs are independent.
func (h *hfBPE) appendLongWord(sc *scratch, lb *linearBPE, word string, dst []int) []int {
	run := 0 // start of the current run of vocabulary characters
	lastUnk := false
	flush := func(end int) {
		if end-run >= h.longWord {
			dst = lb.encode(sc, word[run:end], dst)
		} else {
			dst = h.mergeWord(sc, word[run:end], dst)
		}
	}
	for i := 0; i < len(word); {
		_, w := utf8.DecodeRuneInString(word[i:])
		if _, ok := h.vocab[word[i:i+w]]; ok {
			lastUnk = false
			i += w
			continue
		}
		if run < i {
			flush(i)
			lastUnk = false
		}
		switch {
		case h.byteFallback && h.hasBytes(word[i:i+w]):
			for k := i; k < i+w; k++ {
				dst = append(dst, int(h.byteIDs[word[k]]))
			}
			lastUnk = false
		case h.unk >= 0:
			if !(h.fuseUnk && lastUnk) {
				dst = append(dst, int(h.unk))
			}
			lastUnk = true
		}
		i += w
		run = i
		dst = sc.flush(dst)
	}
	if run < len(word) {
		flush(len(word))
	}
	return dst
}

// linear returns the linear engine, built on first use; nil if it cannot
// be used with this vocabulary.
func (h *hfBPE) linear() *linearBPE {
	h.linOnce.Do(func() {
		toks := make([]linTok, 0, len(h.vocab))
		if h.byteLevel {
			for s, id := range h.vocab {
				if len(s) > 1 {
					toks = append(toks, linTok{s: s, id: id})
				}
			}
			for b, id := range h.byteIDs {
				if id < 0 {
					return
				}
				toks = append(toks, linTok{s: string([]byte{byte(b)}), id: id})
			}
		} else {
			special := map[int32]bool{}
			for _, id := range h.byteIDs {
				if id >= 0 {
					special[id] = true
				}
			}
			if h.unk >= 0 {
				special[h.unk] = true
			}
			for k := range h.merges {
				if special[int32(k>>32)] || special[int32(uint32(k))] {
					return
				}
			}
			for s, id := range h.vocab {
				if utf8.ValidString(s) && !special[id] {
					toks = append(toks, linTok{s: s, id: id})
				}
			}
		}
		h.lin = newLinearBPE(toks, h.mergeWord)
	})
	return h.lin
}

func appendSym(syms []sym, start, end int, id int32) []sym {
	n := int32(len(syms))
	return append(syms, sym{start: int32(start), end: int32(end), prev: n - 1, next: n + 1, id: id})
}

func (h *hfBPE) hasBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if h.byteIDs[s[i]] < 0 {
			return false
		}
	}
	return true
}
