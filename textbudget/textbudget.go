// Package textbudget cuts a text to a token budget, either raw (the
// longest prefix that fits) or by whole records (the head of a document
// and as many of its records as fit, so that the cut text still parses).
//
// Token counts are given as a function count(text) int (such as a
// token.Tokenizer's Count). The searches assume that a longer prefix never
// counts fewer tokens; see LargestFit for what happens when it does.
package textbudget

import (
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// LargestFit returns the largest k in [0, n] with fits(k), assuming that
// fits(0) holds (it is never called with 0) and that fits is monotone:
// true from 0 up to some m, false after. It gallops up (1, 3, 7, 15, ...)
// before bisecting, so it calls fits about 2·log2(k+1)+2 times and never
// with a k outside [1, n]: a small budget on a large text costs little.
//
// When fits is not monotone, the result is still a k that was seen to fit
// (or 0) at an edge: k == n, or fits(k+1) was false. It may then not be the
// largest k that fits, but it never is one that does not.
func LargestFit(n int, fits func(k int) bool) int { return searchFrom(n, 0, fits) }

// Cut is a text cut to a budget.
type Cut struct {
	// Text is the cut text and Tokens its count.
	Text   string
	Tokens int
	// Records counts the records of the whole document and Kept those
	// in Text. For Raw, the records are the lines (a line ends with its
	// LF, or at the end of the text) and Kept counts the lines wholly
	// in Text, so Records-Kept lines were cut wholly or in part.
	Records, Kept int
}

// Raw returns the longest prefix of text whose count is within budget (a
// negative budget counts as 0), cut only between two characters: where a
// `for range` over text would start a rune, so a multibyte UTF-8 character
// is never split (an invalid byte is a character of its own). The prefix
// is found by LargestFit over byte offsets; it is the longest when count
// is monotone in the prefix length (token counts practically are) and
// within budget in any case, as long as count("") is 0.
func Raw(text string, count func(string) int, budget int) Cut {
	budget = max(budget, 0)
	best, tokens := 0, -1 // the longest prefix seen to fit, and its count
	k := LargestFit(len(text), func(k int) bool {
		p := runeStart(text, k)
		c := count(text[:p])
		if c <= budget && p >= best {
			best, tokens = p, c
		}
		return c <= budget
	})
	if p := runeStart(text, k); p != best || tokens < 0 { // k is 0, never probed
		best, tokens = p, count(text[:p])
	}
	t := text[:best]
	c := Cut{Text: t, Tokens: tokens, Records: strings.Count(text, "\n"), Kept: strings.Count(t, "\n")}
	if text != "" && !strings.HasSuffix(text, "\n") {
		c.Records++ // the last line has no LF
		if len(t) == len(text) {
			c.Kept++
		}
	}
	return c
}

// runeStart moves the byte offset p of s back to the start of the
// character it falls in, as a `for range` over s decodes them.
func runeStart(s string, p int) int {
	if p <= 0 || p >= len(s) || utf8.RuneStart(s[p]) {
		return p
	}
	// s[p] is a continuation byte: it is inside a character only when a
	// valid sequence starts at most utf8.UTFMax-1 bytes before it.
	for i := p - 1; i >= 0 && i > p-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size > p {
				return i
			}
			return p
		}
	}
	return p
}

// HeadError is returned by Doc.Fit when the head of a document (what is
// always kept) alone exceeds the budget.
type HeadError struct {
	Budget, Tokens int
}

// Error says what does not fit.
func (e *HeadError) Error() string {
	return fmt.Sprintf("budget of %d tokens is smaller than the document without records (%d tokens)", e.Budget, e.Tokens)
}

// Fit keeps the head of d and its first records, in document order, while
// the text fits budget (a negative budget counts as 0): the Prefix with
// the most records whose count is within budget (the most when count is
// monotone in the number of records; in any case a text within budget).
// When even Prefix(0) exceeds the budget it returns a *HeadError and a Cut
// with only Records set.
//
// The search starts from an estimate, the records whose counts, each
// counted alone (with its section's header), add up to the budget, and
// gallops from there like LargestFit, so it counts about as much text as
// the budget covers plus a few whole prefixes.
func (d *Doc) Fit(count func(string) int, budget int) (Cut, error) {
	budget = max(budget, 0)
	n := d.records
	head := count(d.Prefix(0))
	if head > budget {
		return Cut{Records: n}, &HeadError{Budget: budget, Tokens: head}
	}
	fit := Cut{Text: d.Prefix(0), Tokens: head, Records: n} // the most records seen to fit
	k := searchFrom(n, d.estimate(count, budget-head), func(k int) bool {
		t := d.Prefix(k)
		c := count(t)
		if c <= budget && k >= fit.Kept {
			fit.Text, fit.Tokens, fit.Kept = t, c, k
		}
		return c <= budget
	})
	if k != fit.Kept { // not reached: searchFrom returns a k seen to fit, or 0
		t := d.Prefix(k)
		fit.Text, fit.Tokens, fit.Kept = t, count(t), k
	}
	return fit, nil
}

// estimate returns the number of records, in document order, whose counts
// (each record counted alone, plus its section's header with its first
// record) add up to at most budget.
func (d *Doc) estimate(count func(string) int, budget int) int {
	started := make([]bool, len(d.sections))
	used, k := 0, 0
	for _, p := range d.parts {
		if p.Kind != Record {
			continue
		}
		c := count(p.Text)
		if s := p.Section; !started[s] {
			started[s] = true
			if h := d.parts[d.sections[s][0]]; h.Kind == Header {
				c += count(h.Text)
			}
		}
		if used+c > budget {
			break
		}
		used += c
		k++
	}
	return k
}

// searchFrom returns the largest k in [0, n] with fits(k), for a monotone
// fits with fits(0) (never called with 0), searching from a guess: it
// gallops up from the guess when it fits, down when it does not, by steps
// of 1, 2, 4, ..., then bisects, so it costs about 2·log2(e+1)+3 calls of
// fits for a guess e off. For any fits, the result was seen to fit (or is
// 0) and is n or has fits(k+1) false.
func searchFrom(n, guess int, fits func(k int) bool) int {
	guess = min(max(guess, 0), n)
	var lo, hi int // fits(lo) (or lo == 0); hi does not fit, or is n+1
	if guess == 0 || fits(guess) {
		lo, hi = guess, guess+1
		for step := 1; hi <= n && fits(hi); step *= 2 {
			lo, hi = hi, hi+2*step
		}
		hi = min(hi, n+1)
	} else {
		lo, hi = guess-1, guess
		for step := 1; lo > 0 && !fits(lo); step *= 2 {
			lo, hi = lo-2*step, lo
		}
		lo = max(lo, 0)
	}
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// LargestWithin returns the largest k in [0, n] whose cost(k) is within
// budget, for a cost that grows with k about linearly (such as the token
// count of a document of k records), given cost0 = cost(0) and costN =
// cost(n), which it does not recompute; cost0 must be within budget. It
// interpolates between the nearest points known on each side of the
// budget (regula falsi), and bisects once it has taken more steps than a
// bisection would, so that any cost takes O(log n) calls; a cost near
// linear takes two or three. As with LargestFit, for any cost the result
// is 0 or was seen within budget, and is n or has cost(k+1) seen over it.
func LargestWithin(n, budget, cost0, costN int, cost func(k int) int) int {
	if costN <= budget {
		return n
	}
	lo, clo, hi, chi := 0, cost0, n, costN
	for steps := 0; hi-lo > 1; steps++ {
		k := lo + (hi-lo)/2
		if steps <= bits.Len(uint(n)) && chi > clo {
			k = lo + int(float64(budget-clo)*float64(hi-lo)/float64(chi-clo))
		}
		k = min(max(k, lo+1), hi-1)
		if c := cost(k); c <= budget {
			lo, clo = k, c
		} else {
			hi, chi = k, c
		}
	}
	return lo
}
