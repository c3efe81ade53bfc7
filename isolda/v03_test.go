package isolda

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestIRIIDCollision encodes two unlabelled IRI entities whose IRIs are
// written with the same text, ex:s (the IRI "ex:s", quoted because ex is a
// declared prefix, and http://example.org/s): only one may have the text as
// its id; the decoded dataset must be isomorphic to the input.
func TestIRIIDCollision(t *testing.T) {
	d := rdf.NewDataset()
	d.Prefixes = append(d.Prefixes, rdf.Prefix{Name: "ex", IRI: exNS})
	a, b, c := rdf.NewIRI("ex:s"), rdf.NewIRI(exNS+"s"), rdf.NewIRI(exNS+"c")
	knows := rdf.NewIRI(exNS + "knows")
	for _, q := range []rdf.Quad{
		{S: a, P: knows, O: b}, {S: b, P: knows, O: a}, {S: c, P: knows, O: a}, {S: c, P: knows, O: b},
		{S: a, P: rdf.NewIRI(rdf.RDFType), O: rdf.NewIRI(exNS + "T")},
		{S: b, P: rdf.NewIRI(rdf.RDFType), O: rdf.NewIRI(exNS + "T")},
	} {
		d.Add(q)
	}
	for _, o := range []Options{{Version: V03}, {IRIIDs: true}, {Version: V03, Layout: LayoutBlocks}, {Version: V03, Continuation: true}} {
		text, err, iso := roundTrip(t, d, o)
		if err != nil || !iso {
			t.Errorf("%+v: round trip failed (%v):\n%s", o, err, text)
		}
	}
}

// TestIRIIDsTable checks the shape IRI ids give a table of unlabelled IRI
// entities with long local names, against text written by hand: first
// column @iri, no id column, links by compact IRI, ~extra ids unquoted.
func TestIRIIDsTable(t *testing.T) {
	d := readTurtle(t, `@prefix ex: <http://example.org/> .
@prefix st: <http://example.org/statement/> .
ex:s1 ex:claim st:Q1-8a3e07b1-4f7c-2f25-a6d1-93e0, st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa .
st:Q1-8a3e07b1-4f7c-2f25-a6d1-93e0 a ex:Statement ; ex:value 1 .
st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa a ex:Statement ; ex:value 2 ; ex:note "x" .
st:Q1-0d8f2c55-1e3b-4a70-9c2e-77ab a ex:Statement ; ex:value 3 .
`, "http://example.org/")
	for _, c := range []struct {
		opts Options
		want []string
	}{
		{Options{Version: V03, Glossary: GlossaryNone}, []string{
			"\nStatement[3]{@iri, value:int}:\n  st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa, 2\n    note: x\n",
			"[2] st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa | st:Q1-8a3e07b1-4f7c-2f25-a6d1-93e0",
		}},
		{Options{Version: V02, IRIIDs: true, Glossary: GlossaryNone}, []string{
			"\nStatement[3]{@iri, value:int}:\n  st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa, 2\n",
			"\n~extra:\n  st:Q1-c2b9e1d0-4d1a-9e77-0b5c-61fa:\n    note: x\n",
		}},
	} {
		text := encodeString(t, d, c.opts)
		for _, want := range c.want {
			if !strings.Contains(text, want) {
				t.Errorf("%+v: document lacks %q:\n%s", c.opts, want, text)
			}
		}
		back, err := Decode(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if iso, err := canon.Isomorphic(d, back); err != nil || !iso {
			t.Errorf("not isomorphic (%v)", err)
		}
	}
	// 0.2 keeps slugs and the id column.
	if t02 := encodeString(t, d, Options{Version: V02, Glossary: GlossaryNone}); !strings.Contains(t02, "Statement[3]{id, @iri, value:int}:") {
		t.Errorf("0.2 changed:\n%s", t02)
	}
}

// genListGraph builds a random dataset full of RDF lists, well-formed or
// not: items of one class or mixed, nested lists, shared tails, lists with
// extra properties, cycles of rdf:rest, lists split over graphs, list nodes
// as graph names, values that look like list cells.
func genListGraph(r *rand.Rand) *rdf.Dataset {
	d := rdf.NewDataset()
	first, rest, nilT := rdf.NewIRI(rdf.RDFFirst), rdf.NewIRI(rdf.RDFRest), rdf.NewIRI(rdf.RDFNil)
	nb := 0
	blank := func() rdf.Term { nb++; return rdf.NewBlank("x" + strconv.Itoa(nb)) }
	graph := func() rdf.Term {
		if r.IntN(4) == 0 {
			return rdf.NewIRI(exNS + "g" + strconv.Itoa(r.IntN(2)))
		}
		return rdf.Term{}
	}
	ents := []rdf.Term{rdf.NewIRI(exNS + "a"), rdf.NewIRI(exNS + "b"), rdf.NewIRI("(paren)"), rdf.NewIRI("<angle>")}
	for _, e := range ents[:2] {
		d.Add(rdf.Quad{S: e, P: rdf.NewIRI(sdo + "name"), O: rdf.NewString(nasty[r.IntN(len(nasty))])})
	}
	item := func(kind int) rdf.Term {
		switch kind {
		case 0:
			return ents[r.IntN(len(ents))]
		case 1:
			return rdf.NewIRI(iris[r.IntN(len(iris))])
		case 2:
			return rdf.NewLiteral(strconv.Itoa(r.IntN(100)), rdf.XSDInteger)
		case 3:
			return rdf.NewLangString(nasty[r.IntN(len(nasty))], langs[r.IntN(len(langs))])
		case 4:
			return blank()
		}
		return rdf.NewString([]string{"(3) a | b", "<x>", "(", "a | b", "plain", ""}[r.IntN(6)])
	}
	var heads []rdf.Term
	for i := 0; i < 1+r.IntN(6); i++ {
		n := 1 + r.IntN(4)
		g := graph()
		nodes := make([]rdf.Term, n)
		for j := range nodes {
			nodes[j] = blank()
		}
		kind := r.IntN(6)
		for j, nd := range nodes {
			k := kind
			if r.IntN(5) == 0 {
				k = r.IntN(6) // mixed items
			}
			it := item(k)
			if r.IntN(8) == 0 && len(heads) > 0 {
				it = heads[r.IntN(len(heads))] // nested list
			}
			gq := g
			if r.IntN(20) == 0 {
				gq = graph() // split over graphs
			}
			d.Add(rdf.Quad{S: nd, P: first, O: it, G: gq})
			next := nilT
			if j+1 < n {
				next = nodes[j+1]
			}
			switch r.IntN(25) {
			case 0:
				next = nodes[0] // cycle
			case 1:
				d.Add(rdf.Quad{S: nd, P: rdf.NewIRI(exNS + "p"), O: rdf.NewString("extra"), G: g})
			case 2:
				d.Add(rdf.Quad{S: ents[0], P: rdf.NewIRI(exNS + "q"), O: nd, G: g}) // shared tail
			case 3:
				d.Add(rdf.Quad{S: ents[1], P: rdf.NewIRI(exNS + "q"), O: rdf.NewString("x"), G: nd}) // graph name
			}
			d.Add(rdf.Quad{S: nd, P: rest, O: next, G: g})
		}
		heads = append(heads, nodes[0])
		refs := 1
		if r.IntN(8) == 0 {
			refs = r.IntN(3) // unreferenced or shared
		}
		for k := 0; k < refs; k++ {
			s := ents[r.IntN(len(ents))]
			if r.IntN(4) == 0 {
				s = blank() // an entity that may be inline
				d.Add(rdf.Quad{S: ents[0], P: rdf.NewIRI(exNS + "has"), O: s, G: g})
			}
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(exNS + "list" + strconv.Itoa(r.IntN(3))), O: nodes[0], G: g})
		}
	}
	return d
}

// TestListRoundTrip encodes random list-heavy datasets in 0.3 under option
// combinations and requires isomorphic round trips (rdf/canon) and the same
// bytes for a shuffled, relabelled copy. It also counts how many documents
// used the (N) syntax, so the test cannot pass by never writing lists.
func TestListRoundTrip(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 120
	}
	opts := []Options{{Version: V03}, {Version: V03, InlineBlanks: true}, {Version: V03, Layout: LayoutBlocks},
		{Version: V03, Continuation: true, IDs: IDsSlug}, {Version: V03, Glossary: GlossaryNone, InverseIndex: true},
		{Version: V02, IRIIDs: true, DatatypePrefixes: true}}
	fails, withLists := 0, 0
	for seed := 0; seed < n; seed++ {
		d := genListGraph(rand.New(rand.NewPCG(uint64(seed), 7)))
		for _, o := range opts {
			text, err, iso := roundTrip(t, d, o)
			if err != nil || !iso {
				fails++
				t.Errorf("seed %d %+v: round trip failed (%v):\n%s", seed, o, err, text)
				continue
			}
			if o.Version == V03 && strings.Contains(text, ") ") && strings.Contains(text, "rdf:List") {
				withLists++
			}
			if again := encodeString(t, shuffled(d, uint64(seed)), o); again != text {
				fails++
				t.Errorf("seed %d %+v: not deterministic", seed, o)
			}
		}
	}
	msg := fmt.Sprintf("list graphs: %d datasets x %d option sets, %d failures, %d documents with (N) lists", n, len(opts), fails, withLists)
	t.Log(msg)
	if withLists < n {
		t.Errorf("only %d documents used the (N) syntax", withLists)
	}
}
