package grammar

import (
	"strings"
	"testing"
	"unsafe"
)

func TestUCHAR(t *testing.T) {
	for _, tc := range []struct {
		in   string
		r    rune
		n    int
		pair bool
		msg  string // a substring of the error, "" for none
	}{
		{`\u0041`, 'A', 6, false, ""},
		{`\u00e9x`, 'é', 6, false, ""},
		{`\U0001F600`, 0x1F600, 10, false, ""},
		{`\u007B`, '{', 6, false, ""},
		{`\uD83D\uDE00`, 0x1F600, 12, true, ""},
		{`\uD83D`, 0, 6, false, "lone UTF-16 surrogate"},
		{`\uD83D\u0041`, 0, 6, false, "lone UTF-16 surrogate"},
		{`\uDE00\uD83D`, 0, 6, false, "lone UTF-16 surrogate"},
		{`\U0000D800`, 0, 10, false, "lone UTF-16 surrogate"},
		{`\U00110000`, 0, 10, false, "beyond U+10FFFF"},
		{`\u00ZZ`, 0, 4, false, "expected 4 hexadecimal digits"},
		{`\u12`, 0, 4, false, "expected 4 hexadecimal digits"},
		{`\U0001F60`, 0, 9, false, "expected 8 hexadecimal digits"},
	} {
		r, n, pair, msg := UCHAR([]byte(tc.in))
		if tc.msg != "" {
			if !strings.Contains(msg, tc.msg) || n != tc.n {
				t.Errorf("UCHAR(%s) = n %d, msg %q; want n %d and an error containing %q", tc.in, n, msg, tc.n, tc.msg)
			}
			continue
		}
		if r != tc.r || n != tc.n || pair != tc.pair || msg != "" {
			t.Errorf("UCHAR(%s) = %U %d %v %q, want %U %d %v", tc.in, r, n, pair, msg, tc.r, tc.n, tc.pair)
		}
	}
	if got := PairMsg([]byte(`\uD83D\uDE00`)); !strings.Contains(got, `\U0001F600`) {
		t.Errorf("PairMsg = %q, want the \\U form", got)
	}
}

func TestECHAR(t *testing.T) {
	for in, want := range map[byte]byte{'t': '\t', 'b': '\b', 'n': '\n', 'r': '\r', 'f': '\f', '"': '"', '\'': '\'', '\\': '\\'} {
		if got, ok := ECHAR(in); !ok || got != want {
			t.Errorf("ECHAR(%q) = %q %v", in, got, ok)
		}
	}
	for _, in := range []byte("uUaz/ 0") {
		if _, ok := ECHAR(in); ok {
			t.Errorf("ECHAR(%q) accepted", in)
		}
	}
}

func TestLangTag(t *testing.T) {
	for in, want := range map[string]int{
		"en":                 2,
		"en-US":              5,
		"zh-classical":       12, // no subtag limit in the grammar
		"be-x-old .":         8,
		"en--ltr":            2, // a base direction follows
		"en-":                2,
		"en- ":               2,
		"1en":                0,
		"":                   0,
		"abcdefghijklmnop-x": 18,
		"en_US":              2,
	} {
		if got := LangTag([]byte(in)); got != want {
			t.Errorf("LangTag(%q) = %d, want %d", in, got, want)
		}
	}
	for in, want := range map[string]bool{
		"en": true, "en-US": true, "zh-classical": true, "x-a1": true, "a-1-2": true,
		"": false, "en-": false, "-en": false, "en--us": false, "en_US": false, "1a": false, "en-é": false, "en US": false,
	} {
		if got := IsLangTag(in); got != want {
			t.Errorf("IsLangTag(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestWellFormedLang checks the BCP 47 rule against tags from RFC 5646
// Appendix A (examples of well-formed and ill-formed tags) and from real
// data (Wikidata's zh-classical and be-x-old).
func TestWellFormedLang(t *testing.T) {
	good := []string{"de", "fr", "ja", "i-enochian", "zh-Hant", "zh-Hans", "sr-Cyrl", "sr-Latn",
		"zh-cmn-Hans-CN", "cmn-Hans-CN", "zh-yue-HK", "yue-HK", "zh-Hans-CN", "sr-Latn-RS",
		"sl-rozaj", "sl-rozaj-biske", "sl-nedis", "de-CH-1901", "sl-IT-nedis", "hy-Latn-IT-arevela",
		"de-DE", "en-US", "es-419", "de-CH-x-phonebk", "az-Arab-x-AZE-derbend", "x-whatever",
		"qaa-Qaaa-QM-x-southern", "de-Qaaa", "sr-Latn-QM", "sr-Qaaa-RS", "en-US-u-islamcal",
		"zh-CN-a-myext-x-private", "en-a-myext-b-another", "be-x-old", "EN-us", "simple",
		"roa-tara", "zh-min-nan", "en-GB-oed", "sgn-BE-FR", "de-1996", "ar-EG"}
	bad := []string{"de-419-DE", "a-DE", "ar-a-aaa-b-bbb-a", "zh-classical", "abcdefghi", "en-",
		"en--us", "", "x", "x-", "en-a", "en-a-x-foo", "en-US-x", "1en", "en_US", "en-abcdefghi",
		"en-123456789", "abcd-efg"}
	for _, tag := range good {
		if !WellFormedLang(tag) {
			t.Errorf("WellFormedLang(%q) = false, want true", tag)
		}
	}
	for _, tag := range bad {
		if WellFormedLang(tag) {
			t.Errorf("WellFormedLang(%q) = true, want false", tag)
		}
	}
}

func TestIsBlankLabel(t *testing.T) {
	for in, want := range map[string]bool{
		"b0": true, "0": true, "_x": true, "a.b": true, "a-b": true, "é·": true,
		"": false, "a.": false, "-a": false, ".a": false, "a b": false, "a:b": false, "\xff": false,
	} {
		if got := IsBlankLabel(in); got != want {
			t.Errorf("IsBlankLabel(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestInterner(t *testing.T) {
	var in Interner
	a := in.Intern([]byte("http://example.org/a"))
	b := in.Intern([]byte("http://example.org/a"))
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) || in.Len() != 1 {
		t.Fatalf("Intern: %q %q not shared, %d entries", a, b, in.Len())
	}
	for i := range 3 * MaxEntries {
		in.Intern([]byte(strings.Repeat("x", i%300)))
		in.Intern([]byte{byte(i), byte(i >> 8), byte(i >> 16)})
		if in.Len() > MaxEntries {
			t.Fatalf("%d entries, want at most %d", in.Len(), MaxEntries)
		}
	}
	long := strings.Repeat("y", 1000)
	if in.Intern([]byte(long)) != long || in.Len() > MaxEntries {
		t.Error("a long string must be returned and not kept")
	}
}
