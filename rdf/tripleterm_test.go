package rdf

import (
	"testing"
)

// TestTripleTermRoundTrip checks that Triple returns the parts given to
// NewTripleTerm, including escapes, language tags, directions, datatypes
// and nested triple terms, and that String gives the N-Triples 1.2 form.
func TestTripleTermRoundTrip(t *testing.T) {
	s := NewBlank("b1")
	p := NewIRI("http://example.org/p q") // a space in an IRI is escaped
	objs := []Term{
		NewIRI("http://example.org/o>"),
		NewBlank("o"),
		NewString("a \"quoted\"\n\\ line\u0001\uFFFF"),
		{Kind: LiteralKind, Value: "x", Datatype: RDFDirLangString, Lang: "en-us", Dir: "rtl"},
		NewLangString("y", "de"),
		NewLiteral("1", XSDInteger),
		NewTripleTerm(NewIRI("http://example.org/a"), NewIRI("http://example.org/b"), NewString("c )>> d")),
	}
	for _, o := range objs {
		tt := NewTripleTerm(s, p, o)
		gs, gp, gobj, err := tt.Triple()
		if err != nil {
			t.Fatalf("%v: %v", o, err)
		}
		if gs != s || gp != p || !gobj.Equal(o) {
			t.Errorf("got %v %v %v, want %v %v %v", gs, gp, gobj, s, p, o)
		}
	}
	tt := NewTripleTerm(NewIRI("http://example.org/s"), NewIRI("http://example.org/p"), NewTripleTerm(NewBlank("x"), NewIRI("http://example.org/q"), NewLangString("v", "EN")))
	want := `<<( <http://example.org/s> <http://example.org/p> <<( _:x <http://example.org/q> "v"@en )>> )>>`
	if tt.String() != want {
		t.Errorf("String = %s, want %s", tt.String(), want)
	}
	if tt.Kind.String() != "triple term" || !tt.IsTriple() {
		t.Errorf("kind %v", tt.Kind)
	}
}

// TestTripleTermMalformed checks that Triple rejects other terms and
// values not in canonical form, without panicking.
func TestTripleTermMalformed(t *testing.T) {
	for _, v := range []string{
		"", "<a>", "<a> <b>", "<a> <b> <c> ", "<a>  <b> <c>", `"x" <b> <c>`, "<a> _:b <c>",
		`<a> <b> "x`, `<a> <b> "x"@`, `<a> <b> "x"@en--up`, `<a> <b> "\q"`, `<a> <b> "\u12"`,
		"<a> <b> <<( <c> <d> <e>", "<a> <b> <<( <c> <d> <e> )>> x", `<a\u00zz> <b> <c>`, "_: <b> <c>",
	} {
		if _, _, _, err := (Term{Kind: TripleKind, Value: v}).Triple(); err == nil {
			t.Errorf("Triple accepted %q", v)
		}
	}
	if _, _, _, err := NewIRI("http://example.org/").Triple(); err == nil {
		t.Error("Triple accepted an IRI")
	}
}

// TestTripleTermOrderAndInterning checks Compare (triple terms after
// literals), Equal on language tag case and interning in a Dataset.
func TestTripleTermOrderAndInterning(t *testing.T) {
	a := NewTripleTerm(NewIRI("http://example.org/s"), NewIRI("http://example.org/p"), NewLangString("v", "EN"))
	b := NewTripleTerm(NewIRI("http://example.org/s"), NewIRI("http://example.org/p"), NewLangString("v", "en"))
	if a != b || !a.Equal(b) || a.Key() != b.Key() {
		t.Errorf("triple terms differing in tag case differ: %v %v", a, b)
	}
	if Compare(NewString("zzz"), a) >= 0 || Compare(a, NewString("zzz")) <= 0 {
		t.Error("a triple term must sort after literals")
	}
	d := NewDataset()
	d.AddTriple(NewBlank("r"), NewIRI(RDFReifies), a)
	if d.Add(Quad{S: NewBlank("r"), P: NewIRI(RDFReifies), O: b}) {
		t.Error("the same triple term was added twice")
	}
	if id, ok := d.Lookup(b); !ok || d.Term(id) != a {
		t.Errorf("lookup of %v failed", b)
	}
	d.AddTriple(NewIRI("http://example.org/x"), NewIRI("http://example.org/p"), NewTripleTerm(NewBlank("inner"), NewIRI("http://example.org/p"), NewBlank("r")))
	sum := Summarize(d)
	if sum.BlankNodes != 2 || sum.TripleTerms != 2 || sum.Literals != 0 {
		t.Errorf("summary %+v, want 2 blank nodes (r, inner), 2 triple terms, 0 literals", sum)
	}
}

// TestMapBlanks checks relabelling inside nested triple terms.
func TestMapBlanks(t *testing.T) {
	p := NewIRI("http://example.org/p")
	tt := NewTripleTerm(NewBlank("a"), p, NewTripleTerm(NewBlank("b"), p, NewBlank("a")))
	got := MapBlanks(tt, func(b Term) Term { return NewBlank("x" + b.Value) })
	want := NewTripleTerm(NewBlank("xa"), p, NewTripleTerm(NewBlank("xb"), p, NewBlank("xa")))
	if got != want {
		t.Errorf("MapBlanks = %v, want %v", got, want)
	}
	var seen []string
	EachBlank(tt, func(b Term) { seen = append(seen, b.Value) })
	if len(seen) != 3 || seen[0] != "a" || seen[1] != "b" || seen[2] != "a" {
		t.Errorf("EachBlank saw %v", seen)
	}
	if !HasBlank(tt) || HasBlank(NewTripleTerm(NewIRI("http://example.org/_:a"), p, NewString("_:b"))) {
		t.Error("HasBlank wrong")
	}
}

// FuzzTripleTerm feeds arbitrary values to Term.Triple: it must not panic,
// and the parts of a value it accepts must build a canonical value that
// parses back to the same parts.
func FuzzTripleTerm(f *testing.F) {
	f.Add(`<http://x/s> <http://x/p> "a\n\"b\"\u0001"@en-us--rtl`)
	f.Add(`_:b <http://x/p> <<( _:c <http://x/q> "1"^^<http://x/d> )>>`)
	f.Add(`<a\u003E> <b> <<( <c> <d> <<( <e> <f> _:g )>> )>>`)
	f.Fuzz(func(t *testing.T, v string) {
		s, p, o, err := Term{Kind: TripleKind, Value: v}.Triple()
		if err != nil {
			return
		}
		tt := NewTripleTerm(s, p, o)
		s2, p2, o2, err := tt.Triple()
		if err != nil {
			t.Fatalf("canonical value %q does not parse: %v", tt.Value, err)
		}
		if s2 != s || p2 != p || !o2.Equal(o) || NewTripleTerm(s2, p2, o2) != tt {
			t.Fatalf("%q: parts %v %v %v, then %v %v %v", v, s, p, o, s2, p2, o2)
		}
	})
}
