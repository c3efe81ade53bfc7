package ldproc

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// prefixesOf finds every prefix IRI that begins an IRI, by binary search;
// the oracle is a scan of all of them.
func TestPrefixesOf(t *testing.T) {
	prefixes := []string{"", "h", "http://a/", "http://a/b", "http://a/b/", "http://a/ba", "http://a/bz", "http://a/c",
		"http://a/é", "http://b", "http://b/", "urn:", "urn:x:", "urn:x:y"}
	c := &compactor{prefixes: slices.Clone(prefixes)}
	slices.Sort(c.prefixes)
	for _, iri := range []string{"http://a/b/c", "http://a/bz", "http://a/bzz", "http://a/b", "http://a/", "http://a",
		"http://a/éé", "http://b/x", "urn:x:yz", "urn:x", "zzz", "", "http://a/baz", "http://a/c/d"} {
		var want []string
		for _, p := range prefixes {
			if strings.HasPrefix(iri, p) {
				want = append(want, p)
			}
		}
		got := c.prefixesOf(iri)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("prefixesOf(%q) = %q, want %q", iri, got, want)
		}
	}
}

// The same on random sets of strings over a small alphabet, where
// prefixes, near misses and equal strings are frequent.
func TestPrefixesOfRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	word := func() string {
		b := make([]byte, rng.IntN(6))
		for i := range b {
			b[i] = "ab/"[rng.IntN(3)]
		}
		return string(b)
	}
	for range 2000 {
		set := map[string]bool{}
		for range rng.IntN(12) {
			set[word()] = true
		}
		c := &compactor{}
		for p := range set {
			c.prefixes = append(c.prefixes, p)
		}
		slices.Sort(c.prefixes)
		iri := word()
		var want []string
		for _, p := range c.prefixes {
			if strings.HasPrefix(iri, p) {
				want = append(want, p)
			}
		}
		got := c.prefixesOf(iri)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("prefixes %q: prefixesOf(%q) = %q, want %q", c.prefixes, iri, got, want)
		}
	}
}
