package rdf

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDatasetSetSemantics adds random quads with many duplicates (some
// subjects far above the linear-scan threshold) and checks Len, Add's
// result and Has against a plain map of canonical quad strings.
func TestDatasetSetSemantics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	d := NewDataset()
	seen := map[string]bool{}
	term := func(n int) Term {
		switch r.IntN(4) {
		case 0:
			return NewBlank(fmt.Sprint("b", r.IntN(n)))
		case 1:
			return NewLangString("x", []string{"en", "EN", "en-GB", "En-gb"}[r.IntN(4)])
		case 2:
			return NewLiteral(fmt.Sprint(r.IntN(n)), XSDInteger)
		}
		return NewIRI(fmt.Sprint("http://e/", r.IntN(n)))
	}
	for i := 0; i < 20000; i++ {
		s := NewIRI(fmt.Sprint("http://s/", r.IntN(3)*r.IntN(40))) // subject 0 gets thousands of quads
		q := Quad{S: s, P: NewIRI(fmt.Sprint("http://p/", r.IntN(5))), O: term(30)}
		if r.IntN(5) == 0 {
			q.G = NewIRI("http://g")
		}
		key := q.Key().String()
		if got, want := d.Add(q), !seen[key]; got != want {
			t.Fatalf("Add(%s) = %v, want %v", q, got, want)
		}
		seen[key] = true
		if !d.Has(q) {
			t.Fatalf("Has(%s) false after Add", q)
		}
	}
	if d.Len() != len(seen) {
		t.Fatalf("Len %d, want %d", d.Len(), len(seen))
	}
	c := d.Clone()
	for _, q := range d.Quads() {
		if c.Add(q) {
			t.Fatalf("clone accepted duplicate %s", q)
		}
	}
	if d.Has(Quad{S: NewIRI("http://nowhere"), P: NewIRI("http://p/1"), O: NewString("x")}) {
		t.Fatal("Has reports an absent quad")
	}
}

func TestLangTagsCompareCaseInsensitively(t *testing.T) {
	d := NewDataset()
	s, p := NewIRI("http://s"), NewIRI("http://p")
	if !d.AddTriple(s, p, NewLangString("chat", "en-GB")) {
		t.Fatal("first add")
	}
	if d.AddTriple(s, p, NewLangString("chat", "EN-gb")) {
		t.Fatal("the same literal with a tag in other case must be a duplicate")
	}
	if got := d.Quads()[0].O.Lang; got != "en-GB" {
		t.Fatalf("tag %q: the first spelling must be kept", got)
	}
}
