package explain

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/isoldatest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// TestExplainByHand checks Explain on a 0.4 document whose pieces are
// counted here one by one: each construct gets the tokens of its own text,
// and the parts sum to the document's count.
func TestExplainByHand(t *testing.T) {
	tok := testgraph.O200k(t)
	doc := "# ISOLDA 0.4: RDF as text; bare names are @vocab terms.\n" +
		"\n" +
		"@vocab http://schema.org/\n" +
		"\n" +
		"Recipe[1]{name, @iri, author>}:\n" +
		"  Lasagne, https://food.example/l, Person{name: Ana}\n" +
		"    recipeInstructions> HowToStep[2]{position:int, text}:\n" +
		"      1, Brown the meat.\n" +
		"      2, Bake.\n" +
		"    keywords: pasta\n"
	ex := Explain(doc, tok)
	want := map[string]int{
		ConstructGlossary: tok.Count("# ISOLDA 0.4: RDF as text; bare names are @vocab terms."),
		ConstructPrefix:   tok.Count("@vocab http://schema.org/"),
		ConstructHeader:   tok.Count("Recipe[1]{name, @iri, author>}:") + tok.Count("HowToStep[2]{position:int, text}:"),
		ConstructID:       tok.Count("Lasagne"),
		ConstructIRI:      tok.Count("https://food.example/l"),
		ConstructNested: tok.Count("Person{name: Ana}") + tok.Count("1") + tok.Count("Brown the meat.") +
			tok.Count("2") + tok.Count("Bake."),
		ConstructKey:     tok.Count("recipeInstructions>") + tok.Count("keywords:"),
		ConstructLiteral: tok.Count("pasta"),
	}
	sum := 0
	for _, p := range ex.Parts {
		sum += p.Tokens
		if p.Construct == ConstructSeparator {
			continue
		}
		if p.Tokens != want[p.Construct] {
			t.Errorf("%s: %d tokens, want %d", p.Construct, p.Tokens, want[p.Construct])
		}
	}
	for c, n := range want {
		if ex.Tokens(c) != n {
			t.Errorf("%s: Tokens gives %d, want %d", c, ex.Tokens(c), n)
		}
	}
	if ex.Total != tok.Count(doc) || sum != ex.Total {
		t.Errorf("total %d, parts sum to %d, the document has %d tokens", ex.Total, sum, tok.Count(doc))
	}
	var b strings.Builder
	if err := WriteExplanations(&b, "doc", []Explanation{ex}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "  body ") || !strings.Contains(b.String(), "  nested entity ") {
		t.Errorf("WriteExplanations:\n%s", b.String())
	}
}

// TestExplainSums checks that the parts sum to the total on the encodings
// of a graph in every version.
func TestExplainSums(t *testing.T) {
	tok := testgraph.O200k(t)
	d := rdf.NewDataset()
	src := `@prefix s: <http://schema.org/> .
<http://e/r> a s:Recipe ; s:name "R, one" ; s:author [ a s:Person ; s:name "Ana" ] ;
  s:step [ a s:HowToStep ; s:text "a" ; s:position 1 ], [ a s:HowToStep ; s:text "b" ; s:position 2 ] .`
	if err := turtle.Parse(strings.NewReader(src), turtle.Turtle, d, rdf.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{isolda.V01, isolda.V02, isolda.V03, isolda.V04} {
		doc := isoldatest.Encode(t, d, isolda.Options{Version: v})
		ex := Explain(doc, tok)
		sum := 0
		for _, p := range ex.Parts {
			sum += p.Tokens
		}
		if sum != ex.Total || ex.Total != tok.Count(doc) || ex.Tokens(ConstructGlossary) == 0 {
			t.Errorf("%s: parts %d, total %d, glossary %d\n%s", v, sum, ex.Total, ex.Tokens(ConstructGlossary), doc)
		}
	}
}
