package task

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Names of the normalization and comparison rules, reported in Result.Rule.
const (
	// RuleNFKCCasefold compares NFKC-normalized, case-folded, space-trimmed
	// strings for equality.
	RuleNFKCCasefold = "nfkc_casefold_equal"
	// RuleFirstInteger takes the first integer in the response (counts).
	RuleFirstInteger = "first_integer"
	// RulePhraseInShort accepts a short response that contains the expected
	// answer as a whole phrase (bounded by non-alphanumerics).
	RulePhraseInShort = "phrase_in_short_answer"
	// RuleNoAnswer is reported when nothing could be compared.
	RuleNoAnswer = "no_answer"
)

// ShortAnswerMaxRunes is the longest response (after normalization) that
// RulePhraseInShort accepts: a phrase inside a long answer is not evidence of
// a correct answer (it may be one item of an enumeration).
const ShortAnswerMaxRunes = 200

// Normalize applies NFKC, Unicode case folding, and collapses runs of white
// space into one space, trimming both ends: the normalization of the ISOLDA
// studies.
func Normalize(s string) string {
	s = norm.NFKC.String(s)
	s = cases.Fold().String(s)
	return strings.Join(strings.Fields(s), " ")
}

var intRE = regexp.MustCompile(`[-+−]?\d[\d,]*`)

// FirstInteger returns the first integer written in s (after NFKC, so
// full-width digits count) and whether there is one. Thousands separators
// "1,234" are accepted when every group after the first has three digits;
// otherwise the comma ends the number.
func FirstInteger(s string) (int64, bool) {
	s = norm.NFKC.String(s)
	m := intRE.FindString(s)
	if m == "" {
		return 0, false
	}
	neg := false
	switch {
	case strings.HasPrefix(m, "-"), strings.HasPrefix(m, "−"):
		neg = true
		m = strings.TrimLeft(m, "-−")
	case strings.HasPrefix(m, "+"):
		m = m[1:]
	}
	groups := strings.Split(m, ",")
	digits := groups[0]
	for _, g := range groups[1:] {
		if len(g) != 3 || !allDigits(g) {
			break
		}
		digits += g
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// ContainsPhrase reports whether normalized text contains normalized phrase
// as a whole phrase: the characters before and after the match are not
// letters or digits. Both arguments must already be normalized.
func ContainsPhrase(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	for start := 0; start <= len(text)-len(phrase); {
		i := strings.Index(text[start:], phrase)
		if i < 0 {
			return false
		}
		i += start
		end := i + len(phrase)
		if boundaryBefore(text, i) && boundaryAfter(text, end) {
			return true
		}
		start = i + 1
	}
	return false
}

// IsWordRune reports whether r is a letter, a digit or a combining mark: the
// characters ContainsPhrase does not accept next to a phrase.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

func boundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r := lastRune(s[:i])
	return !IsWordRune(r)
}

func boundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	for _, r := range s[i:] {
		return !IsWordRune(r)
	}
	return true
}

func lastRune(s string) rune {
	rs := []rune(s)
	return rs[len(rs)-1]
}

// ScoreKG is the scorer of the ISOLDA studies (§4.3 of the ISOLDA paper):
// after NFKC normalization and case folding, a count question (Kind int) is
// right when the first integer of the response equals the gold value;
// otherwise the response is right when it equals the expected answer (or an
// alternative), or is short and contains it as a whole phrase.
var ScoreKG = ScorerFunc(scoreKG)

func scoreKG(q Question, response string) Result {
	if q.Gold.Kind == KindInt {
		return scoreFirstInteger(q.Gold.Value, response)
	}
	resp := Normalize(response)
	accepted := append([]string{q.Gold.Value}, q.Gold.Alternatives...)
	for _, a := range accepted {
		if resp == Normalize(a) {
			return Result{Correct: true, Score: 1, Parsed: resp, Rule: RuleNFKCCasefold}
		}
	}
	if len([]rune(resp)) <= ShortAnswerMaxRunes {
		for _, a := range accepted {
			if ContainsPhrase(resp, Normalize(a)) {
				return Result{Correct: true, Score: 1, Parsed: Normalize(a), Rule: RulePhraseInShort}
			}
		}
		return Result{Parsed: resp, Rule: RulePhraseInShort}
	}
	return Result{Parsed: resp, Rule: RuleNFKCCasefold}
}

func scoreFirstInteger(gold, response string) Result {
	v, ok := FirstInteger(response)
	if !ok {
		return Result{Rule: RuleFirstInteger}
	}
	g, err := strconv.ParseInt(gold, 10, 64)
	p := strconv.FormatInt(v, 10)
	if err == nil && g == v {
		return Result{Correct: true, Score: 1, Parsed: p, Rule: RuleFirstInteger}
	}
	return Result{Parsed: p, Rule: RuleFirstInteger}
}
