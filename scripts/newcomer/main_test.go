package main

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	readme := "# x\n\n```turtle in.ttl\n<a> <b> <c> .\n```\n\n" +
		"```\n$ isolda stats in.ttl | head -1\n1\n$ isolda check\nok\n...\n```\n\n" +
		"```sh\n$ isolda eval run exp.yaml --out run\n```\n\n```\nnot a session\n```\n"
	items, err := parse(strings.NewReader(readme))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0].file != "in.ttl" || items[0].text != "<a> <b> <c> .\n" {
		t.Fatalf("items %+v", items)
	}
	s1, s2 := items[1].step, items[2].step
	if s1.command != "isolda stats in.ttl | head -1" || s1.line != 8 || strings.Join(s1.want, "|") != "1" ||
		s2.command != "isolda check" || strings.Join(s2.want, "|") != "ok|..." {
		t.Errorf("steps %+v %+v", s1, s2)
	}
	if _, err := parse(strings.NewReader("```\n$ x\n")); err == nil {
		t.Error("an unterminated block is not an error")
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a|b", "a|b", true},
		{"a|b", "a|c", false},
		{"a", "a|b", false},
		{"a|...", "a|b|c", true},
		{"a|...", "a", true},
		{"...|c", "a|b|c", true},
		{"a|...|d|...", "a|b|c|d|e", true},
		{"a|...|d", "a|b|c", false},
		{"# 3 graphs; 1375 ms", "# 3 graphs; 980 ms", true},
		{"# 3 graphs; 1375 ms", "# 4 graphs; 980 ms", false},
		{"", "", true},
	} {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, "|")
		}
		if got := match(split(c.want), split(c.got)); got != c.ok {
			t.Errorf("match(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}
