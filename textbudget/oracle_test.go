package textbudget_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/isoldatest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
	"github.com/isolda/isolda/textbudget"
)

// nomisma returns the first n triples of the Nomisma thesaurus.
func nomisma(t testing.TB, n int) *rdf.Dataset { return testgraph.Nomisma(t, n) }

// example reads a Turtle example graph of ../shared/data/examples from
// the repository's copy in examples/.
func example(t testing.TB, name string) *rdf.Dataset {
	t.Helper()
	path := filepath.Join("..", "examples", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := rdf.NewDataset()
	add := rdf.SinkFunc(func(q rdf.Quad) error { d.Add(q); return nil })
	if err := turtle.Parse(f, turtle.Turtle, add, rdf.ReadOptions{File: path, Base: "http://example.org/"}); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPrefixDecodes checks cuts of real ISOLDA documents against the
// ISOLDA decoder, which checks every table's [N] against its rows and
// inline entities: every Prefix decodes, and its ground statements are
// statements of the graph.
func TestPrefixDecodes(t *testing.T) {
	graphs := []struct {
		name string
		d    *rdf.Dataset
	}{
		{"nomisma-1000", nomisma(t, 1000)},
		{"lod-datagovuk-reference-intervals.ttl", example(t, "lod-datagovuk-reference-intervals.ttl")},
		{"wikidata-L691820-lexeme.ttl", example(t, "wikidata-L691820-lexeme.ttl")},
	}
	options := []isolda.Options{{}, {Version: "0.2"}, {Version: "0.1"}, {Version: "0.3"}, {Layout: "blocks"}, {Layout: "hybrid", Theta: 0.6},
		{Continuation: true}, {InlineBlanks: true}, {InverseIndex: true}, {Glossary: "none"}, {Version: "0.3", InlineBlanks: true, InverseIndex: true}}
	pass, fail := 0, 0
	for _, g := range graphs {
		for _, o := range options {
			text := isoldatest.Encode(t, g.d, o)
			d := textbudget.Split(text, textbudget.ISOLDA)
			n := d.NumRecords()
			if n == 0 {
				t.Errorf("%s %+v: no records", g.name, o)
				continue
			}
			for k := 0; k <= n; k++ {
				if k > 40 && k < n-5 && k%17 != 0 {
					continue // a sample of the middle keeps the test fast
				}
				cut := d.Prefix(k)
				dec, err := isolda.Decode(strings.NewReader(cut))
				if err != nil {
					fail++
					t.Errorf("%s %+v: Prefix(%d) does not decode: %v", g.name, o, k, err)
					continue
				}
				ok := true
				for _, q := range dec.Quads() {
					if !q.S.IsBlank() && !q.O.IsBlank() && !q.G.IsBlank() && !g.d.Has(q) {
						t.Errorf("%s %+v: Prefix(%d) decodes to %v, not in the graph", g.name, o, k, q)
						ok = false
						break
					}
				}
				if k == n && dec.Len() != g.d.Len() {
					t.Errorf("%s %+v: the whole text decodes to %d statements of %d", g.name, o, dec.Len(), g.d.Len())
					ok = false
				}
				if ok {
					pass++
				} else {
					fail++
				}
			}
		}
	}
	t.Logf("ISOLDA prefixes checked by the decoder: %d pass, %d fail", pass, fail)
}

// TestFitTokenizer cuts a real document with o200k_base: the cut is
// within budget, its count is reported right, and one more record would
// not fit (the count of these prefixes grows with k).
func TestFitTokenizer(t *testing.T) {
	tok := testgraph.O200k(t)
	for _, c := range []struct {
		name, format, text string
	}{
		{"isolda", "isolda", isoldatest.Encode(t, nomisma(t, 1000), isolda.Options{})},
		{"ntriples", "ntriples", ntText(t, nomisma(t, 300))},
	} {
		d := textbudget.Split(c.text, textbudget.SyntaxOf(c.format))
		full := tok.Count(c.text)
		head := tok.Count(d.Prefix(0))
		for _, budget := range []int{head, head + 1, (head + full) / 3, (head + full) / 2, full - 1, full, full + 10} {
			cut, err := d.Fit(tok.Count, budget)
			if err != nil {
				t.Fatalf("%s budget %d: %v", c.name, budget, err)
			}
			if cut.Tokens != tok.Count(cut.Text) || cut.Tokens > budget || cut.Records != d.NumRecords() {
				t.Errorf("%s budget %d: %+v tokens, counted %d", c.name, budget, cut.Tokens, tok.Count(cut.Text))
			}
			if cut.Kept < cut.Records && tok.Count(d.Prefix(cut.Kept+1)) <= budget {
				t.Errorf("%s budget %d: kept %d records but %d fit", c.name, budget, cut.Kept, cut.Kept+1)
			}
			if budget >= full && cut.Text != c.text {
				t.Errorf("%s budget %d: the whole text fits but was cut", c.name, budget)
			}
		}
	}
}

func ntText(t testing.TB, d *rdf.Dataset) string {
	var b strings.Builder
	if err := ntriples.Write(&b, d, ntriples.NTriples); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
