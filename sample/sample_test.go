package sample

import (
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// catalogue: three datasets written out of IRI order; d1 and d2 name the
// same publisher (shared), d3 its own contact (belongs to d3), each its own
// distribution (a blank node); the title property has a label (shared: every
// unit uses it); a catalogue record names nothing and is named by nothing.
const catalogue = `@prefix ex: <http://ex.org/> .
@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:d3 a dcat:Dataset ; ex:title "Three" ; ex:contact ex:c3 ; dcat:distribution [ ex:format "CSV" ] .
ex:c3 rdfs:label "Contact of three" ; ex:mail [ ex:box "three@ex.org" ] .
ex:d1 a dcat:Dataset ; ex:title "One" ; ex:publisher ex:pub ; dcat:distribution [ ex:format "JSON" ] .
ex:d2 a dcat:Dataset ; ex:title "Two" ; ex:publisher ex:pub ; dcat:distribution [ ex:format "XML" ] .
ex:pub rdfs:label "Publisher" ; ex:seat ex:city .
ex:city rdfs:label "City" .
ex:title rdfs:label "title" .
ex:record ex:note "about nothing" .
`

func read(t *testing.T, text string) *rdf.Dataset {
	t.Helper()
	return rdftest.Read(t, text, rdfio.Options{Format: rdfio.Turtle})
}

// lines writes a dataset's statements as sorted N-Triples lines, blank
// nodes written as _:b (the test graphs have one per owner, named by the
// statement around it).
func lines(d *rdf.Dataset) []string {
	var out []string
	for _, q := range d.Quads() {
		o := q.O.String()
		if q.O.IsBlank() {
			o = "_:b"
		}
		s := q.S.String()
		if q.S.IsBlank() {
			s = "_:b"
		}
		out = append(out, s+" "+q.P.String()+" "+o)
	}
	slices.Sort(out)
	return out
}

func TestUnits(t *testing.T) {
	d := read(t, catalogue)
	u, err := Split(d, "http://www.w3.org/ns/dcat#Dataset")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for i := range u.Len() {
		order = append(order, u.Unit(i).Value)
	}
	if want := []string{"http://ex.org/d1", "http://ex.org/d2", "http://ex.org/d3"}; !slices.Equal(order, want) {
		t.Errorf("units %v, want %v", order, want)
	}
	const (
		ex   = "http://ex.org/"
		typ  = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/ns/dcat#Dataset>"
		dist = "<http://www.w3.org/ns/dcat#distribution> _:b"
		lab  = "<http://www.w3.org/2000/01/rdf-schema#label>"
	)
	// Written by hand from the rules: d1 with its distribution, the shared
	// publisher and the city it names, the title's label.
	want1 := []string{
		"<" + ex + "d1> " + typ,
		"<" + ex + "d1> " + dist,
		"<" + ex + "d1> <" + ex + "publisher> <" + ex + "pub>",
		"<" + ex + "d1> <" + ex + "title> \"One\"",
		"<" + ex + "city> " + lab + " \"City\"",
		"<" + ex + "pub> " + lab + " \"Publisher\"",
		"<" + ex + "pub> <" + ex + "seat> <" + ex + "city>",
		"<" + ex + "title> " + lab + " \"title\"",
		"_:b <" + ex + "format> \"JSON\"",
	}
	slices.Sort(want1)
	if got := lines(u.Prefix(1)); !slices.Equal(got, want1) {
		t.Errorf("prefix 1:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want1, "\n"))
	}
	// Three units: everything but the record nobody names.
	all := u.Prefix(3)
	if all.Len() != d.Len()-1 || all.Has(rdf.Quad{S: rdf.NewIRI(ex + "record"), P: rdf.NewIRI(ex + "note"), O: rdf.NewString("about nothing")}) {
		t.Errorf("prefix 3 has %d of %d statements", all.Len(), d.Len())
	}
	// d3's contact and its blank node belong to d3 only.
	if p2 := lines(u.Prefix(2)); slices.ContainsFunc(p2, func(l string) bool { return strings.Contains(l, "c3") || strings.Contains(l, "three") }) {
		t.Errorf("prefix 2 has d3's nodes: %v", p2)
	}
	if _, err := Split(d, ex+"Nothing"); err == nil {
		t.Error("a class without entities accepted")
	}
}

// TestShared: a blank node named by two units is shared, and so is what it
// names; a unit named by another unit is not pulled in with it.
func TestShared(t *testing.T) {
	d := read(t, `@prefix ex: <http://ex.org/> .
ex:a a ex:U ; ex:p _:s ; ex:q ex:b .
ex:b a ex:U ; ex:p _:s ; ex:r ex:only .
_:s ex:v ex:deep .
ex:deep ex:w "deep" .
ex:only ex:w "b's" .
`)
	u, err := Split(d, "http://ex.org/U")
	if err != nil {
		t.Fatal(err)
	}
	got := lines(u.Prefix(1))
	want := []string{
		"<http://ex.org/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/U>",
		"<http://ex.org/a> <http://ex.org/p> _:b",
		"<http://ex.org/a> <http://ex.org/q> <http://ex.org/b>",
		"<http://ex.org/deep> <http://ex.org/w> \"deep\"",
		"_:b <http://ex.org/v> <http://ex.org/deep>",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("prefix 1:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// municipalities builds a graph of n units of growing size.
func municipalities(n int) string {
	var b strings.Builder
	b.WriteString("@prefix ex: <http://ex.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n")
	for i := range n {
		name := strings.Repeat("x", i%7+1)
		b.WriteString("ex:m" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + " a ex:Municipality ; rdfs:label \"Town " + name + "\" ; ex:population " + strings.Repeat("1", i%5+1) + " ; ex:district [ rdfs:label \"District " + name + "\" ] .\n")
	}
	return b.String()
}

// TestCutBoundary: against a linear scan of every prefix (the oracle), for
// budgets at, just under and between the sizes of the prefixes: the kept
// prefix k fits and k+1 does not.
func TestCutBoundary(t *testing.T) {
	d := read(t, municipalities(40))
	u, err := Split(d, "http://ex.org/Municipality")
	if err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	fs := []string{"turtle", "isolda", "b-json"}
	largest := make([]int, u.Len()+1)
	for k := 1; k <= u.Len(); k++ {
		s, err := Measure(u.Prefix(k), fs, tok)
		if err != nil {
			t.Fatal(err)
		}
		largest[k] = Largest(s).Tokens
		if largest[k] < largest[k-1] {
			t.Fatalf("prefix %d takes %d tokens, prefix %d %d", k, largest[k], k-1, largest[k-1])
		}
	}
	for _, k := range []int{1, 2, 3, 7, 16, 17, 31, 39} {
		for _, budget := range []int{largest[k], largest[k+1] - 1, (largest[k] + largest[k+1]) / 2} {
			want := 0
			for j := 1; j <= u.Len() && largest[j] <= budget; j++ {
				want = j
			}
			r, err := u.Cut(Options{Budget: budget, Formats: fs, Tokenizer: tok})
			if err != nil {
				t.Fatal(err)
			}
			if r.Units != want || Largest(r.Sizes).Tokens != largest[want] || Largest(r.Sizes).Tokens > budget {
				t.Errorf("budget %d: %d units (%d tokens), want %d (%d)", budget, r.Units, Largest(r.Sizes).Tokens, want, largest[want])
			}
			if want < u.Len() && (len(r.Next) != len(fs) || Largest(r.Next).Tokens != largest[want+1] || Largest(r.Next).Tokens <= budget) {
				t.Errorf("budget %d: the next prefix %v", budget, r.Next)
			}
			if r.Sample.Len() != u.Prefix(want).Len() || len(r.Hash) != 64 {
				t.Errorf("budget %d: sample of %d statements, hash %q", budget, r.Sample.Len(), r.Hash)
			}
		}
	}
	r, err := u.Cut(Options{Budget: largest[u.Len()] + 100, Formats: fs, Tokenizer: tok})
	if err != nil || r.Units != u.Len() || r.Next != nil {
		t.Errorf("a budget above the whole graph: %+v %v", r, err)
	}
	if _, err := u.Cut(Options{Budget: largest[1] - 1, Formats: fs, Tokenizer: tok}); err == nil || !strings.Contains(err.Error(), "first unit") {
		t.Errorf("a first unit above the budget: %v", err)
	}
	if _, err := u.Cut(Options{Budget: 100, Formats: []string{"nope"}, Tokenizer: tok}); err == nil {
		t.Error("an unknown format accepted")
	}
}
