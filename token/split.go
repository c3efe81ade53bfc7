package token

import (
	"unicode"
	"unicode/utf8"
)

// Pre-tokenizers: hand-written equivalents of the split regexes of
// o200k_base, cl100k_base (= Llama 3) and Qwen3, with the leftmost-first
// backtracking semantics of Rust's fancy-regex / Oniguruma. They run in time
// linear in the input (each character is inspected a bounded number of
// times) and allocate nothing. TestSplitMatchesRegexp2 checks them against
// the regexp2 engine on the real patterns.

// Character classes, as bit flags.
const (
	cL  uint8 = 1 << iota // \p{L}
	cN                    // \p{N}
	cS                    // \s (Unicode White_Space)
	cU                    // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cW                    // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cNL                   // \r or \n
	cLl                   // \p{Ll}
)

// Split patterns recognised by the hand-written splitters.
const (
	// PatternCL100K is the split regex of cl100k_base and of Llama 3.
	PatternCL100K = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// PatternQwen is the split regex of Qwen2/Qwen3 (one digit per piece).
	PatternQwen = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// PatternGPT2 is the split regex of GPT-2 (r50k_base, p50k_base), which
	// a Hugging Face ByteLevel pre-tokenizer with use_regex applies.
	PatternGPT2 = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
	// PatternO200K is the split regex of o200k_base.
	PatternO200K = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// classify returns the class flags of r.
func classify(r rune) uint8 {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'a' && r <= 'z':
			return cL | cW | cLl
		case r >= 'A' && r <= 'Z':
			return cL | cU
		case r >= '0' && r <= '9':
			return cN
		case r == '\r' || r == '\n':
			return cS | cNL
		case r == ' ' || r == '\t' || r == '\v' || r == '\f':
			return cS
		}
		return 0
	}
	switch {
	case unicode.IsLetter(r):
		switch {
		case unicode.Is(unicode.Ll, r):
			return cL | cW | cLl
		case unicode.Is(unicode.Lu, r) || unicode.Is(unicode.Lt, r):
			return cL | cU
		}
		return cL | cU | cW // Lm, Lo
	case unicode.IsMark(r):
		return cU | cW
	case unicode.IsNumber(r):
		return cN
	case unicode.IsSpace(r):
		return cS
	}
	return 0
}

// classAt returns the class and byte width of the character at s[i]
// (i < len(s)). Invalid UTF-8 bytes count as one U+FFFD each.
func classAt(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return classify(rune(c)), 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classify(r), w
}

// contraction returns the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i:],
// or 0. Case folding is Unicode's, as in Rust and Oniguruma: U+017F (ſ)
// matches s.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return 3
		}
	}
	if i+2 < len(s) && s[i+1] == 0xC5 && s[i+2] == 0xBF { // ſ
		return 3
	}
	return 0
}

// runEnd returns the end of the maximal run of characters whose class has
// one of the bits of mask, starting at i.
func runEnd(s string, i int, mask uint8) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// isP reports whether c is in [^\r\n\p{L}\p{N}].
func isP(c uint8) bool { return c&(cNL|cL|cN) == 0 }

// isPunct reports whether c is in [^\s\p{L}\p{N}].
func isPunct(c uint8) bool { return c&(cS|cL|cN) == 0 }

// nextCL100K returns the end of the piece that starts at i (i < len(s)) for
// the cl100k_base / Llama 3 pattern (maxDigits 3) or Qwen's (maxDigits 1).
func nextCL100K(s string, i, maxDigits int) int {
	if n := contraction(s, i); n > 0 {
		return i + n
	}
	c0, w0 := classAt(s, i)
	if c0&cL != 0 {
		return runEnd(s, i+w0, cL)
	}
	if isP(c0) && i+w0 < len(s) {
		if c1, w1 := classAt(s, i+w0); c1&cL != 0 {
			return runEnd(s, i+w0+w1, cL)
		}
	}
	if c0&cN != 0 {
		return digits(s, i+w0, maxDigits-1)
	}
	if e := punct(s, i, c0, w0, false); e > 0 {
		return e
	}
	return whitespace(s, i)
}

// digits extends a \p{N}{1,k} match by at most more further digits.
func digits(s string, i, more int) int {
	for ; more > 0 && i < len(s); more-- {
		c, w := classAt(s, i)
		if c&cN == 0 {
			break
		}
		i += w
	}
	return i
}

// punct matches ` ?[^\s\p{L}\p{N}]+[\r\n]*` (with slash also [\r\n/]*) at
// i and returns its end, or 0 when it does not match.
func punct(s string, i int, c0 uint8, w0 int, slash bool) int {
	j := i
	if s[i] == ' ' {
		j++
		if j >= len(s) {
			return 0
		}
		c0, w0 = classAt(s, j)
	}
	if !isPunct(c0) {
		return 0
	}
	j = runPunct(s, j+w0)
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || (slash && s[j] == '/')) {
		j++
	}
	return j
}

// runPunct returns the end of the run of [^\s\p{L}\p{N}] from i.
func runPunct(s string, i int) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if !isPunct(c) {
			break
		}
		i += w
	}
	return i
}

// whitespace matches `\s*[\r\n]+|\s+(?!\S)|\s+` at i, where s[i] is white
// space (every other character was matched by an earlier alternative).
func whitespace(s string, i int) int {
	j, lastNL, lastStart, n := i, -1, i, 0
	for j < len(s) {
		c, w := classAt(s, j)
		if c&cS == 0 {
			break
		}
		if c&cNL != 0 {
			lastNL = j + w
		}
		lastStart = j
		j += w
		n++
	}
	switch {
	case lastNL > 0:
		return lastNL
	case n == 0: // not reached for well-formed calls; consume one character
		_, w := classAt(s, i)
		return i + w
	case j == len(s) || n == 1:
		return j
	}
	return lastStart
}

// nextO200K returns the end of the piece that starts at i for the
// o200k_base pattern.
func nextO200K(s string, i int) int {
	c0, w0 := classAt(s, i)
	if isP(c0) && i+w0 < len(s) {
		if e := o200kWordLower(s, i+w0); e > 0 {
			return e + contraction(s, e)
		}
	}
	if e := o200kWordLower(s, i); e > 0 {
		return e + contraction(s, e)
	}
	if isP(c0) && i+w0 < len(s) {
		if e := o200kWordUpper(s, i+w0); e > 0 {
			return e + contraction(s, e)
		}
	}
	if e := o200kWordUpper(s, i); e > 0 {
		return e + contraction(s, e)
	}
	if c0&cN != 0 {
		return digits(s, i+w0, 2)
	}
	if e := punct(s, i, c0, w0, true); e > 0 {
		return e
	}
	return whitespace(s, i)
}

// o200kWordLower matches [U]*[W]+ at i (U, W as in the o200k pattern) with
// backtracking and returns its end, or 0.
func o200kWordLower(s string, i int) int {
	j, lastW := i, -1
	for j < len(s) {
		c, w := classAt(s, j)
		if c&cU == 0 {
			if c&cLl != 0 {
				return runEnd(s, j+w, cW)
			}
			break
		}
		j += w
		if c&cW != 0 {
			lastW = j
		}
	}
	if lastW > 0 {
		return lastW
	}
	return 0
}

// o200kWordUpper matches [U]+[W]* at i and returns its end, or 0.
func o200kWordUpper(s string, i int) int {
	j := runEnd(s, i, cU)
	if j == i {
		return 0
	}
	return runEnd(s, j, cW)
}

// nextGPT2 returns the end of the piece that starts at i for the GPT-2
// pattern (case-sensitive contractions, no newline rule).
func nextGPT2(s string, i int) int {
	if s[i] == '\'' && i+1 < len(s) {
		switch s[i+1] {
		case 's', 't', 'm', 'd':
			return i + 2
		case 'r', 'v':
			if i+2 < len(s) && s[i+2] == 'e' {
				return i + 3
			}
		case 'l':
			if i+2 < len(s) && s[i+2] == 'l' {
				return i + 3
			}
		}
	}
	c0, w0 := classAt(s, i)
	j := i
	if s[i] == ' ' && i+1 < len(s) {
		j = i + 1
		c0, w0 = classAt(s, j)
	}
	switch {
	case c0&cL != 0:
		return runEnd(s, j+w0, cL)
	case c0&cN != 0:
		return runEnd(s, j+w0, cN)
	case isPunct(c0):
		return runPunct(s, j+w0)
	}
	// \s+(?!\S)|\s+ at i, where s[i] is white space.
	j, lastStart, n := i, i, 0
	for j < len(s) {
		c, w := classAt(s, j)
		if c&cS == 0 {
			break
		}
		lastStart = j
		j += w
		n++
	}
	if n >= 2 && j < len(s) {
		return lastStart
	}
	if n == 0 {
		_, w := classAt(s, i)
		return i + w
	}
	return j
}

// splitter cuts a text into pre-tokens.
type splitter interface {
	// next returns the end of the piece starting at i < len(s).
	next(s string, i int) int
}

type o200kSplitter struct{}

func (o200kSplitter) next(s string, i int) int { return nextO200K(s, i) }

type gpt2Splitter struct{}

func (gpt2Splitter) next(s string, i int) int { return nextGPT2(s, i) }

type cl100kSplitter struct{ maxDigits int }

func (c cl100kSplitter) next(s string, i int) int { return nextCL100K(s, i, c.maxDigits) }

// knownSplitter returns the hand-written splitter for a known pattern.
func knownSplitter(pattern string) (splitter, bool) {
	switch pattern {
	case PatternCL100K:
		return cl100kSplitter{3}, true
	case PatternQwen:
		return cl100kSplitter{1}, true
	case PatternO200K:
		return o200kSplitter{}, true
	case PatternGPT2:
		return gpt2Splitter{}, true
	}
	return nil, false
}
