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
	if got := d.Quads()[0].O.Lang; got != "EN-gb" {
		t.Fatalf("tag %q: the spelling that sorts first must be kept, whatever the order", got)
	}
}

// TestLangCaseOrderIndependent checks that a literal written with a tag in
// two cases is one term, and that the spelling kept does not depend on the
// order the quads arrive in.
func TestLangCaseOrderIndependent(t *testing.T) {
	s, p := NewIRI("http://x/s"), NewIRI("http://x/p")
	spellings := []string{"en-us", "EN-us", "en-US", "En-Us"}
	for i := range spellings {
		d := NewDataset()
		for k := range spellings {
			d.Add(Quad{S: s, P: p, O: NewLangString("x", spellings[(i+k)%len(spellings)])})
		}
		d.Add(Quad{S: s, P: p, O: NewLangString("y", "en-us")})
		if d.Len() != 2 {
			t.Fatalf("rotation %d: %d quads, want 2", i, d.Len())
		}
		if got := d.Quads()[0].O.Lang; got != "EN-us" {
			t.Errorf("rotation %d: kept %q, want EN-us (the bytewise smallest)", i, got)
		}
		if got := d.Quads()[1].O.Lang; got != "en-us" {
			t.Errorf("rotation %d: the other literal has %q, want en-us", i, got)
		}
		if !d.Has(Quad{S: s, P: p, O: NewLangString("x", "en-us")}) {
			t.Errorf("rotation %d: Has is not case-insensitive", i)
		}
	}
}
