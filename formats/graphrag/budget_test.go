package graphrag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFitRecords(t *testing.T) {
	g, err := Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	measures := []struct {
		name string
		fn   func(string) int
	}{
		{"bytes", func(s string) int { return len(s) }},
		{"words", func(s string) int {
			return len(strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' || r == '\n' || r == '"' }))
		}},
		{"runes", utf8.RuneCountInString},
	}
	for _, f := range Formats() {
		for _, m := range measures {
			mname, measure := m.name, m.fn
			for _, budget := range []int{0, 10, 100, 512, 1024, 4096, 1 << 20} {
				kept, text, err := FitRecords(f, g, budget, measure)
				if err != nil {
					t.Fatal(err)
				}
				// Oracle: the linear policy of the article, appending records
				// while the next one still fits.
				k := 0
				for k < g.Records() {
					next, _ := EncodeString(f.Name, g.Prefix(k+1))
					if measure(next) > budget {
						break
					}
					k++
				}
				if kept.Records() != k {
					t.Errorf("%s %s budget %d: kept %d records, linear policy keeps %d", f.Name, mname, budget, kept.Records(), k)
				}
				dec, err := DecodeString(f.Name, text, DecodeOptions{})
				if err != nil {
					t.Errorf("%s budget %d: the kept text does not parse: %v", f.Name, budget, err)
				} else if !Equal(dec, kept) {
					t.Errorf("%s budget %d: the kept text does not decode to the kept records", f.Name, budget)
				}
				if k > 0 && measure(text) > budget {
					t.Errorf("%s budget %d: text over budget", f.Name, budget)
				}
			}
		}
	}
}
