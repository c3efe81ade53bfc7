// Package testgraph generates hostile graphs for the round-trip tests of
// the notation, the format packages and the RDF syntaxes: RDF datasets
// (Dataset, Hostile) with IRIs that are hard to abbreviate or to write at
// all, literals with comment, quote, control and line-break characters and
// non-canonical lexical forms, blank node chains, cycles and self-loops,
// lists, triple terms and named graphs; labelled graphs (Labelled) with
// hostile identifiers; the same dataset in another order (Shuffled); and
// the other fixtures tests share (the Nomisma slice, the o200k tokenizer).
// Tests only.
package testgraph

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// The material of the hostile datasets: IRIs that are hard to abbreviate,
// predicates, literal lexical forms (whole strings and pieces to join) and
// typed literals whose lexical forms are not canonical.
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
		"http://example.org/p", "http://example.org/ns#q", "http://example.org/é", "urn:x:p",
		"http://example.org/p.", "http://example.org/p/1", "http://schema.org/target",
		// Names of XML 1.0 fifth edition that encoding/xml refuses.
		"http://example.org/\u3400", "http://example.org/p😀", "http://example.org/a😀b", "http://example.org/\u3400x",
	}
	hostileStrings = []string{
		"a # b", "line\nbreak", `quote " here`, `back\slash`, "tab\there", "pipe|comma,arrow->",
		"unicode ☃ é 中文 🎉", "", "\u2028sep\u2029", `"""`, "# only", "-> <- |", "cr\rlf\r\n",
		"@id", "_:b0", "http://example.org/ns/x", "ns:local", "\x01ctl\x7f",
	}
	// literalPieces are joined into lexical forms: what breaks writers
	// (control characters, quotes, backslashes, '{', lone U+FFFE, long
	// strings, characters beyond the BMP, empty strings).
	literalPieces = []string{
		"", "plain", "é", "😀", "\"", "\\", "'", "\n", "\r", "\t", "\r\n", "\x00", "\x01", "\x1f",
		"\x7f", "\ufffe", "\uffff", "{", "}", "<tag>", "&amp;", "]]>", " ", "  ", "\u0085", "\u2028",
		"\U0010FFFF", "@en", "^^", "\"\"\"", "'''", "#", "%", "_:b", "<http://x/>", "中文", "\\u0041",
		strings.Repeat("long ", 60),
	}
	hostileTyped = [][2]string{
		{"007", rdf.XSDInteger}, {"+5", rdf.XSDInteger}, {"42", rdf.XSDInteger}, {"-0", rdf.XSDInteger},
		{"123456789012345678901", rdf.XSDInteger}, {"-17", rdf.XSDInteger}, {"TRUE", rdf.XSDBoolean},
		{"true", rdf.XSDBoolean}, {"false", rdf.XSDBoolean}, {".5", rdf.XSDDecimal}, {"1.0", rdf.XSDDecimal},
		{"1e3", rdf.XSDDouble}, {"x y", "http://example.org/dt#t"}, {"2020-01-01", rdf.XSD + "date"},
		{"<a/>", rdf.RDFXMLLiteral}, {"abc", "http://schema.org/Text"},
		{"01", rdf.XSDInteger}, {"1.50", rdf.XSDDecimal}, {"2024-02-30", rdf.XSD + "date"}, {"NaN", rdf.XSDDouble},
		{"", rdf.XSDInteger}, {"1", rdf.XSDBoolean},
	}
	datatypes = []string{
		rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDBoolean, rdf.XSD + "date", "http://example.org/dt",
		rdf.RDFXMLLiteral, rdf.XSDString, "http://schema.org/Text",
	}
	langTags = []string{
		"en", "EN-gb", "ca", "x-y", "en-US", "EN-us", "en-us", "zh-classical", "be-x-old", "de-CH-1901",
		"x-abcdefghijklmnop", "i-klingon", "sgn-BE-FR", "ZH-Hant-TW", "fr", "ar", "he-IL",
	}
)

// The raw material (Options.Raw): IRIs built from pieces that no syntax
// writes as they are, relative references, and blank node labels no syntax
// can write as they are.
var (
	rawIRIStarts = []string{
		"http://example.org/", "https://example.com/?s=", "urn:x-isolda:", "http://example.org/ns#",
		"http://ex.org/ä/", "mailto:a@example.org?x=", "http://example.org/%7B/",
	}
	// rawRelativeStarts begin relative references, which readers keep as
	// they are when there is no base (JSON-LD drops them).
	rawRelativeStarts = []string{"", "rel/", "#", "../"}
	rawIRIPieces      = []string{
		"a", "b", "c1", "é", "😀", "{search_term_string}", "{", "}", "a b", "q|r", "^", "`", "\\",
		"\"", "<", ">", "#frag", "#", "%41", "x.y", "-", "_", "~", "\u0001", "\u007f", "\u00a0",
		"中文", "\ufffd", "", "p:q", "//", "..", "?",
	}
	rawPreds       = []string{"http://example.org/{p}", "http://example.org/a b", "http://example.org/_"}
	rawDatatypes   = []string{"http://example.org/dt{x}"}
	rawBlankLabels = []string{"b0", "b1", "a.b", "x_1", "genid3", "é", "n-1", "0", "a b", "a.", "-x"}
)

// Options chooses what a hostile dataset holds beyond the terms of every
// one (the IRIs, predicates, and the whole union of literals above).
type Options struct {
	// Named adds named graphs (IRIs and blank nodes, sharing blank nodes
	// with the default graph).
	Named bool
	// Raw adds IRIs and blank node labels no syntax writes as they are
	// (spaces, braces, quotes, control characters, relative references).
	Raw bool
	// Lists adds RDF collections; TripleTerms RDF 1.2 triple terms.
	Lists, TripleTerms bool
	// Small makes 1 to 8 statements and no long chain, cycle or self-loop
	// (for tests that write each dataset in many syntaxes, and fuzzing);
	// otherwise 10 to 59 statements, a chain of 40 blank nodes deeper than
	// any nesting limit (half the time), a cycle of two blank nodes
	// referenced once each, a self-loop and a label with '#' and a line
	// break.
	Small bool
}

// Hostile is Dataset with seeded choices and no raw terms, lists or
// triple terms: what every lossless format must round-trip.
func Hostile(seed uint64, named bool) *rdf.Dataset {
	return Dataset(Seeded(seed), Options{Named: named})
}

// gen holds one dataset's generation.
type gen struct {
	c             Chooser
	o             Options
	d             *rdf.Dataset
	rawIRIs       []rdf.Term // Raw: this dataset's few raw IRIs, so that they recur
	preds, dtypes []string
}

// Dataset generates a random dataset of hostile terms, with the choices of
// c and the constructs of o.
func Dataset(c Chooser, o Options) *rdf.Dataset {
	g := &gen{c: c, o: o, d: rdf.NewDataset(), preds: hostilePreds, dtypes: datatypes}
	if o.Raw {
		for n := 1 + c.IntN(4); n > 0; n-- {
			g.rawIRIs = append(g.rawIRIs, g.rawIRI())
		}
		g.preds = append(append([]string{}, hostilePreds...), rawPreds...)
		g.dtypes = append(append([]string{}, datatypes...), rawDatatypes...)
	}
	n := 10 + c.IntN(50)
	if o.Small {
		n = 1 + c.IntN(8)
	}
	for range n {
		s, p := g.node(), rdf.NewIRI(pick(c, g.preds))
		gn := g.graphName()
		var obj rdf.Term
		switch {
		case p.Value == rdf.RDFType && c.IntN(4) != 0:
			obj = rdf.NewIRI(hostileIRIs[c.IntN(3)])
		case o.Lists && c.IntN(8) == 0:
			obj = g.list(gn)
		default:
			obj = g.object(0)
		}
		g.d.Add(rdf.Quad{S: s, P: p, O: obj, G: gn})
	}
	if !o.Small {
		g.structure()
	}
	return g.d
}

func (g *gen) rawIRI() rdf.Term {
	var b strings.Builder
	if g.c.IntN(16) == 0 {
		b.WriteString(pick(g.c, rawRelativeStarts))
	} else {
		b.WriteString(pick(g.c, rawIRIStarts))
	}
	for n := g.c.IntN(4); n >= 0; n-- {
		b.WriteString(pick(g.c, rawIRIPieces))
	}
	return rdf.NewIRI(b.String())
}

func (g *gen) iri() rdf.Term {
	if len(g.rawIRIs) > 0 && g.c.IntN(2) == 0 {
		return pick(g.c, g.rawIRIs)
	}
	return rdf.NewIRI(pick(g.c, hostileIRIs))
}

func (g *gen) blank() rdf.Term {
	if g.o.Raw && g.c.IntN(2) == 0 {
		return rdf.NewBlank(pick(g.c, rawBlankLabels))
	}
	return rdf.NewBlank(fmt.Sprintf("b%d", g.c.IntN(12)))
}

func (g *gen) node() rdf.Term {
	if g.c.IntN(3) == 0 {
		return g.blank()
	}
	return g.iri()
}

func (g *gen) graphName() rdf.Term {
	if !g.o.Named || g.c.IntN(3) != 0 {
		return rdf.Term{}
	}
	if g.c.IntN(2) == 0 {
		if g.c.IntN(2) == 0 {
			return rdf.NewBlank("g")
		}
		return g.blank()
	}
	return g.iri()
}

// lexical returns a whole hostile string or one joined from pieces.
func (g *gen) lexical() string {
	if g.c.IntN(2) == 0 {
		return pick(g.c, hostileStrings)
	}
	var b strings.Builder
	for n := g.c.IntN(4); n > 0; n-- {
		b.WriteString(pick(g.c, literalPieces))
	}
	return b.String()
}

func (g *gen) literal() rdf.Term {
	switch g.c.IntN(6) {
	case 0:
		t := pick(g.c, hostileTyped)
		return rdf.NewLiteral(t[0], t[1])
	case 1:
		return rdf.NewLiteral(g.lexical(), pick(g.c, g.dtypes))
	case 2:
		return rdf.NewLangString(g.lexical(), pick(g.c, langTags))
	case 3: // RDF 1.2 directional strings
		return rdf.Term{Kind: rdf.LiteralKind, Value: g.lexical(), Datatype: rdf.RDFDirLangString,
			Lang: pick(g.c, langTags), Dir: pick(g.c, []string{"ltr", "rtl"})}
	}
	return rdf.NewString(g.lexical())
}

func (g *gen) object(depth int) rdf.Term {
	switch k := g.c.IntN(10); {
	case k < 4:
		return g.literal()
	case k < 8:
		return g.node()
	case k == 8 && g.o.TripleTerms && depth < 2:
		return rdf.NewTripleTerm(g.node(), rdf.NewIRI(pick(g.c, g.preds)), g.object(depth+1))
	}
	return g.literal()
}

// list adds an RDF collection of 0 to 3 members in graph gn and returns its
// head.
func (g *gen) list(gn rdf.Term) rdf.Term {
	n := g.c.IntN(4)
	if n == 0 {
		return rdf.NewIRI(rdf.RDFNil)
	}
	cells := make([]rdf.Term, n)
	for i := range cells {
		cells[i] = rdf.NewBlank("l" + string(rune('a'+g.c.IntN(26))) + string(rune('0'+i)))
	}
	for i, cell := range cells {
		g.d.Add(rdf.Quad{S: cell, P: rdf.NewIRI(rdf.RDFFirst), O: g.object(1), G: gn})
		next := rdf.NewIRI(rdf.RDFNil)
		if i+1 < n {
			next = cells[i+1]
		}
		g.d.Add(rdf.Quad{S: cell, P: rdf.NewIRI(rdf.RDFRest), O: next, G: gn})
	}
	return cells[0]
}

// structure adds a chain of blank nodes deeper than any nesting limit (half
// the time), a cycle of two blank nodes referenced once each, a self-loop
// and a label with '#' and a line break.
func (g *gen) structure() {
	knows, name := rdf.NewIRI("http://schema.org/knows"), rdf.NewIRI("http://schema.org/name")
	if g.c.IntN(2) == 0 {
		for i := range 40 {
			g.d.Add(rdf.Quad{S: rdf.NewBlank(fmt.Sprintf("c%d", i)), P: knows, O: rdf.NewBlank(fmt.Sprintf("c%d", i+1))})
		}
		g.d.Add(rdf.Quad{S: rdf.NewBlank("c40"), P: name, O: rdf.NewString("end # of chain")})
	}
	g.d.Add(rdf.Quad{S: rdf.NewBlank("x"), P: knows, O: rdf.NewBlank("y")})
	g.d.Add(rdf.Quad{S: rdf.NewBlank("y"), P: knows, O: rdf.NewBlank("x")})
	g.d.Add(rdf.Quad{S: rdf.NewBlank("z"), P: knows, O: rdf.NewBlank("z")})
	g.d.Add(rdf.Quad{S: rdf.NewIRI(hostileIRIs[0]), P: name, O: rdf.NewString("label with # hash\nand newline")})
}

// Shuffled copies d (its prefixes too) with its quads in random order and,
// if rename, its blank nodes relabelled with labels unrelated to the old
// ones (so that their order changes too).
func Shuffled(d *rdf.Dataset, seed uint64, rename bool) *rdf.Dataset {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	qs := d.Quads()
	r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	relabel := map[string]string{}
	blank := func(b rdf.Term) rdf.Term {
		l, ok := relabel[b.Value]
		if !ok {
			// 7919 is prime to 100003: distinct counts give distinct
			// numbers, and the one trailing letter keeps them distinct.
			l = "n" + strconv.FormatInt(int64(len(relabel)*7919%100003), 36) + string(rune('a'+r.IntN(26)))
			relabel[b.Value] = l
		}
		return rdf.NewBlank(l)
	}
	re := func(t rdf.Term) rdf.Term {
		if !rename {
			return t
		}
		return rdf.MapBlanks(t, blank) // inside triple terms too
	}
	out := rdf.NewDataset()
	for _, q := range qs {
		out.Add(rdf.Quad{S: re(q.S), P: q.P, O: re(q.O), G: re(q.G)})
	}
	out.Prefixes = append(out.Prefixes, d.Prefixes...)
	return out
}
