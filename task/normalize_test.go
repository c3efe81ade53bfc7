package task

import "testing"

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"  Straße  ":  "strasse",   // full case folding
		"ＡＢＣ　１２":      "abc 12",    // NFKC: full-width letters, digits and space
		"ﬁne":         "fine",      // NFKC ligature
		"Ünïcödé\tX ": "ünïcödé x", // composed forms kept, white space collapsed
		"ΣΊΣΥΦΟΣ":     "σίσυφοσ",   // final sigma folds to σ
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFirstInteger(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"There are 12 nodes.", 12, true},
		{"１２ entities", 12, true},
		{"about 1,234 items", 1234, true},
		{"nodes 3, 4 and 5", 3, true},
		{"-2 degrees", -2, true},
		{"none", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, c := range cases {
		v, ok := FirstInteger(c.in)
		if v != c.want || ok != c.ok {
			t.Errorf("FirstInteger(%q) = %d %v", c.in, v, c.ok)
		}
	}
}

func TestScoreKG(t *testing.T) {
	text := Question{Gold: Answer{Kind: KindText, Value: "Barcelona"}}
	count := Question{Gold: Answer{Kind: KindInt, Value: "6"}}
	cases := []struct {
		q       Question
		resp    string
		correct bool
		rule    string
	}{
		{text, "barcelona", true, RuleNFKCCasefold},
		{text, "BARCELONA ", true, RuleNFKCCasefold},
		{text, "She was born in Barcelona.", true, RulePhraseInShort},
		{text, "She was born in Barcelonaville.", false, RulePhraseInShort},
		{text, "Madrid", false, RulePhraseInShort},
		{count, "There are 6 writers.", true, RuleFirstInteger},
		{count, "6 or 7", true, RuleFirstInteger},
		{count, "seven", false, RuleFirstInteger},
	}
	long := "x "
	for len(long) < 2*ShortAnswerMaxRunes {
		long += "filler "
	}
	cases = append(cases, struct {
		q       Question
		resp    string
		correct bool
		rule    string
	}{text, long + "Barcelona", false, RuleNFKCCasefold})
	for _, c := range cases {
		r := ScoreKG.Score(c.q, c.resp)
		if r.Correct != c.correct || r.Rule != c.rule {
			t.Errorf("%q: %+v", c.resp, r)
		}
	}
	if !ContainsPhrase("the city of são paulo.", "são paulo") || ContainsPhrase("paulos", "paulo") {
		t.Error("ContainsPhrase")
	}
}
