package rdfio

import (
	"strings"

	"github.com/isolda/isolda/rdf"
)

// chooser is the source of the random choices of hostileGraph: a seeded
// generator for the property test, the fuzzer's bytes for the fuzz target.
type chooser interface {
	IntN(n int) int
}

// byteChooser turns fuzz input into choices, one byte each; after the last
// byte every choice is 0.
type byteChooser struct {
	b []byte
	i int
}

func (c *byteChooser) IntN(n int) int {
	if c.i >= len(c.b) || n <= 1 {
		return 0
	}
	v := int(c.b[c.i])
	c.i++
	return v % n
}

// The pieces hostile terms are made of: what real data holds and what
// breaks writers (control characters, quotes, backslashes, '{', lone
// U+FFFE, long strings, characters beyond the BMP, empty strings).
var (
	iriStarts = []string{
		"http://example.org/", "https://example.com/?s=", "urn:x-isolda:", "http://example.org/ns#",
		"http://ex.org/ä/", "mailto:a@example.org?x=", "http://example.org/%7B/",
	}
	// relativeStarts begin relative references, which readers keep as they
	// are when there is no base (JSON-LD drops them).
	relativeStarts = []string{"", "rel/", "#", "../"}
	iriPieces      = []string{
		"a", "b", "c1", "é", "😀", "{search_term_string}", "{", "}", "a b", "q|r", "^", "`", "\\",
		"\"", "<", ">", "#frag", "#", "%41", "x.y", "-", "_", "~", "\u0001", "\u007f", "\u00a0",
		"中文", "\ufffd", "", "p:q", "//", "..", "?",
	}
	predicates = []string{
		"http://example.org/p", "http://example.org/ns#q", "http://example.org/é", "urn:x:p",
		"http://example.org/p.", "http://example.org/{p}", "http://example.org/p/1", "http://schema.org/target",
		rdf.RDFType, rdf.RDFSNS + "label", "http://example.org/a b", "http://example.org/_",
		// Names of XML 1.0 fifth edition that encoding/xml refuses.
		"http://example.org/\u3400", "http://example.org/p😀", "http://example.org/a😀b", "http://example.org/\u3400x",
	}
	literalPieces = []string{
		"", "plain", "é", "😀", "\"", "\\", "'", "\n", "\r", "\t", "\r\n", "\x00", "\x01", "\x1f",
		"\x7f", "\ufffe", "\uffff", "{", "}", "<tag>", "&amp;", "]]>", " ", "  ", "\u0085", "\u2028",
		"\U0010FFFF", "@en", "^^", "\"\"\"", "'''", "#", "%", "_:b", "<http://x/>", "中文", "\\u0041",
		strings.Repeat("long ", 60),
	}
	langTags = []string{
		"en", "en-US", "EN-us", "en-us", "zh-classical", "be-x-old", "de-CH-1901", "x-abcdefghijklmnop",
		"i-klingon", "sgn-BE-FR", "ZH-Hant-TW", "fr",
	}
	datatypes = []string{
		rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDBoolean, rdf.XSD + "date", "http://example.org/dt",
		"http://example.org/dt{x}", rdf.RDFXMLLiteral, rdf.XSDString,
	}
	blankLabels = []string{"b0", "b1", "a.b", "x_1", "genid3", "é", "n-1", "0", "a b", "a.", "-x"}
)

func pick[T any](c chooser, xs []T) T { return xs[c.IntN(len(xs))] }

func hostileIRI(c chooser) rdf.Term {
	var b strings.Builder
	if c.IntN(16) == 0 {
		b.WriteString(pick(c, relativeStarts))
	} else {
		b.WriteString(pick(c, iriStarts))
	}
	for n := c.IntN(4); n >= 0; n-- {
		b.WriteString(pick(c, iriPieces))
	}
	return rdf.NewIRI(b.String())
}

func hostileLiteral(c chooser) rdf.Term {
	var b strings.Builder
	for n := c.IntN(4); n > 0; n-- {
		b.WriteString(pick(c, literalPieces))
	}
	lex := b.String()
	switch c.IntN(4) {
	case 0:
		return rdf.NewString(lex)
	case 1:
		t := rdf.NewLangString(lex, pick(c, langTags))
		if c.IntN(4) == 0 {
			t.Datatype = rdf.RDFDirLangString
			t.Dir = pick(c, []string{"ltr", "rtl"})
		}
		return t
	case 2:
		return rdf.NewLiteral(lex, pick(c, datatypes))
	}
	return rdf.NewLiteral(pick(c, []string{"1", "-0", "01", "1.50", "true", "2024-02-30", "NaN", ""}), pick(c, datatypes))
}

// hostileGraph returns a small dataset of hostile terms: IRIs and literals
// built from the pieces above, blank nodes (some with labels no syntax can
// write as they are), RDF lists, triple terms, named graphs.
func hostileGraph(c chooser) *rdf.Dataset {
	d := rdf.NewDataset()
	var iris, blanks []rdf.Term
	for n := 1 + c.IntN(4); n > 0; n-- {
		iris = append(iris, hostileIRI(c))
	}
	for n := c.IntN(4); n > 0; n-- {
		blanks = append(blanks, rdf.NewBlank(pick(c, blankLabels)))
	}
	node := func() rdf.Term {
		if len(blanks) > 0 && c.IntN(3) == 0 {
			return pick(c, blanks)
		}
		return pick(c, iris)
	}
	var object func(depth int) rdf.Term
	list := func(g rdf.Term) rdf.Term {
		n := c.IntN(4)
		if n == 0 {
			return rdf.NewIRI(rdf.RDFNil)
		}
		cells := make([]rdf.Term, n)
		for i := range cells {
			cells[i] = rdf.NewBlank("l" + string(rune('a'+c.IntN(26))) + string(rune('0'+i)))
		}
		for i, cell := range cells {
			d.Add(rdf.Quad{S: cell, P: rdf.NewIRI(rdf.RDFFirst), O: object(1), G: g})
			next := rdf.NewIRI(rdf.RDFNil)
			if i+1 < n {
				next = cells[i+1]
			}
			d.Add(rdf.Quad{S: cell, P: rdf.NewIRI(rdf.RDFRest), O: next, G: g})
		}
		return cells[0]
	}
	object = func(depth int) rdf.Term {
		switch k := c.IntN(10); {
		case k < 4:
			return hostileLiteral(c)
		case k < 6:
			return pick(c, iris)
		case k < 7 && len(blanks) > 0:
			return pick(c, blanks)
		case k == 8 && depth < 2:
			return rdf.NewTripleTerm(node(), rdf.NewIRI(pick(c, predicates)), object(depth+1))
		}
		return hostileLiteral(c)
	}
	named := c.IntN(2) == 0 // half the graphs use named graphs
	for n := 1 + c.IntN(8); n > 0; n-- {
		var g rdf.Term
		switch k := c.IntN(6); {
		case !named:
		case k == 0:
			g = pick(c, iris)
		case k == 1:
			if len(blanks) > 0 {
				g = pick(c, blanks)
			}
		}
		o := object(0)
		if c.IntN(8) == 0 {
			o = list(g)
		}
		d.Add(rdf.Quad{S: node(), P: rdf.NewIRI(pick(c, predicates)), O: o, G: g})
	}
	return d
}
