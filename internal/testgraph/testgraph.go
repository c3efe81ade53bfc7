// Package testgraph generates hostile RDF datasets for the round-trip tests
// of the format packages: IRIs that are hard to abbreviate, labels with
// comment, quote and line-break characters, non-canonical literals, blank
// node chains, cycles and self-loops, and named graphs; and the other
// fixtures tests share (the Nomisma slice, the o200k tokenizer). Tests
// only.
package testgraph

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// Hostile material: IRIs that are hard to abbreviate, labels with comment,
// quote and line-break characters, literals whose lexical forms are not
// canonical.
var (
	hostileIRIs = []string{
		"http://schema.org/Person", "http://schema.org/Event", "http://example.org/a#b",
		"http://example.org/x%20y", "urn:x:1", "http://example.org/é", "http://example.org/ns/-dash",
		"http://example.org/ns/1abc", "http://example.org/ns/a.b.", "http://example.org/ns/a.b",
		"http://example.org/ns/", "http://example.org/ns/q?x=1&y=2",
		"tag:a,b:c", "http://example.org/ns/_u", "http://example.org/ns/a:b", "http://example.org/ns/@id",
		"http://example.org/ns/type", "http://example.org/ns/a,b",
	}
	hostilePreds = []string{
		"http://schema.org/name", "http://schema.org/knows", "http://schema.org/location",
		"http://schema.org/knows", "http://www.w3.org/2000/01/rdf-schema#label", "http://example.org/ns/p-1",
		"http://example.org/ns/a.b", "http://example.org/ns/@type", "http://example.org/ns/1st",
		rdf.RDFType, "http://schema.org/id", "http://schema.org/a",
	}
	hostileStrings = []string{
		"a # b", "line\nbreak", `quote " here`, `back\slash`, "tab\there", "pipe|comma,arrow->",
		"unicode ☃ é 中文 🎉", "", "\u2028sep\u2029", `"""`, "# only", "-> <- |", "cr\rlf\r\n",
		"@id", "_:b0", "http://example.org/ns/x", "ns:local", "\x01ctl\x7f",
	}
	hostileTyped = [][2]string{
		{"007", rdf.XSDInteger}, {"+5", rdf.XSDInteger}, {"42", rdf.XSDInteger}, {"-0", rdf.XSDInteger},
		{"123456789012345678901", rdf.XSDInteger}, {"-17", rdf.XSDInteger}, {"TRUE", rdf.XSDBoolean},
		{"true", rdf.XSDBoolean}, {"false", rdf.XSDBoolean}, {".5", rdf.XSDDecimal}, {"1.0", rdf.XSDDecimal},
		{"1e3", rdf.XSDDouble}, {"x y", "http://example.org/dt#t"}, {"2020-01-01", rdf.XSD + "date"},
		{"<a/>", rdf.RDFXMLLiteral}, {"abc", "http://schema.org/Text"},
	}
)

// Hostile generates a random dataset from hostile material: blank
// node chains, cycles and self-loops, nodes referenced once and many times,
// labels on linked nodes, and (when named) named graphs that share blank
// nodes with the default graph.
func Hostile(seed uint64, named bool) *rdf.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	d := rdf.NewDataset()
	const directional = true // RDF 1.2 directional strings too
	node := func() rdf.Term {
		if r.IntN(3) == 0 {
			return rdf.NewBlank(fmt.Sprintf("b%d", r.IntN(12)))
		}
		return rdf.NewIRI(hostileIRIs[r.IntN(len(hostileIRIs))])
	}
	literal := func() rdf.Term {
		switch r.IntN(5) {
		case 4:
			if directional {
				return rdf.Term{Kind: rdf.LiteralKind, Value: hostileStrings[r.IntN(len(hostileStrings))],
					Datatype: rdf.RDFDirLangString, Lang: []string{"ar", "he-IL"}[r.IntN(2)], Dir: []string{"ltr", "rtl"}[r.IntN(2)]}
			}
			return rdf.NewString("no direction")
		case 0:
			t := hostileTyped[r.IntN(len(hostileTyped))]
			return rdf.NewLiteral(t[0], t[1])
		case 1:
			return rdf.NewLangString(hostileStrings[r.IntN(len(hostileStrings))], []string{"en", "EN-gb", "ca", "x-y"}[r.IntN(4)])
		}
		return rdf.NewString(hostileStrings[r.IntN(len(hostileStrings))])
	}
	graphName := func() rdf.Term {
		if !named || r.IntN(3) != 0 {
			return rdf.Term{}
		}
		if r.IntN(2) == 0 {
			return rdf.NewBlank("g")
		}
		return rdf.NewIRI(hostileIRIs[r.IntN(len(hostileIRIs))])
	}
	n := 10 + r.IntN(50)
	for range n {
		s, p := node(), rdf.NewIRI(hostilePreds[r.IntN(len(hostilePreds))])
		var o rdf.Term
		switch {
		case p.Value == rdf.RDFType && r.IntN(4) != 0:
			o = rdf.NewIRI(hostileIRIs[r.IntN(3)])
		case r.IntN(2) == 0:
			o = node()
		default:
			o = literal()
		}
		d.Add(rdf.Quad{S: s, P: p, O: o, G: graphName()})
	}
	// A chain of blank nodes deeper than any nesting limit, a cycle of two
	// blank nodes referenced once each, and a self-loop.
	if r.IntN(2) == 0 {
		for i := range 40 {
			d.Add(rdf.Quad{S: rdf.NewBlank(fmt.Sprintf("c%d", i)), P: rdf.NewIRI("http://schema.org/knows"), O: rdf.NewBlank(fmt.Sprintf("c%d", i+1))})
		}
		d.Add(rdf.Quad{S: rdf.NewBlank("c40"), P: rdf.NewIRI("http://schema.org/name"), O: rdf.NewString("end # of chain")})
	}
	d.Add(rdf.Quad{S: rdf.NewBlank("x"), P: rdf.NewIRI("http://schema.org/knows"), O: rdf.NewBlank("y")})
	d.Add(rdf.Quad{S: rdf.NewBlank("y"), P: rdf.NewIRI("http://schema.org/knows"), O: rdf.NewBlank("x")})
	d.Add(rdf.Quad{S: rdf.NewBlank("z"), P: rdf.NewIRI("http://schema.org/knows"), O: rdf.NewBlank("z")})
	d.Add(rdf.Quad{S: rdf.NewIRI(hostileIRIs[0]), P: rdf.NewIRI("http://schema.org/name"), O: rdf.NewString("label with # hash\nand newline")})
	return d
}

// Shuffled copies d with its quads in random order and, if rename, its
// blank nodes renamed.
func Shuffled(d *rdf.Dataset, seed uint64, rename bool) *rdf.Dataset {
	r := rand.New(rand.NewPCG(seed, 99))
	qs := d.Quads()
	r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	ren := func(t rdf.Term) rdf.Term {
		if rename && t.IsBlank() {
			return rdf.NewBlank("r" + strings.Repeat("z", len(t.Value)%3) + t.Value)
		}
		return t
	}
	out := rdf.NewDataset()
	for _, q := range qs {
		out.Add(rdf.Quad{S: ren(q.S), P: q.P, O: ren(q.O), G: ren(q.G)})
	}
	return out
}
