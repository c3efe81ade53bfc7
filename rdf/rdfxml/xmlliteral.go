package rdfxml

import (
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// xmlLiteral reads the content of a property element with
// rdf:parseType="Literal" (or an unknown parse type) up to its end tag and
// returns it as an rdf:XMLLiteral in exclusive XML canonical form without
// comments (W3C Exclusive XML Canonicalization 1.0), as RDF/XML requires:
// namespace declarations appear on the outermost element that visibly uses
// them, attributes are sorted by namespace URI and local name, empty
// elements get end tags and characters are escaped the canonical way.
func (p *parser) xmlLiteral(e *element) (rdf.Term, error) {
	p.inLiteral++
	defer func() { p.inLiteral-- }()
	var (
		b     strings.Builder
		names []string // qualified names of the open literal elements
		// rendered holds, per open literal element, the namespace
		// declarations it output.
		rendered [][]nsBinding
	)
	for {
		tok, err := p.next()
		if err != nil {
			return rdf.Term{}, err
		}
		switch tok.kind {
		case tokText:
			escapeText(&b, tok.text)
		case tokPI:
			b.WriteString("<?")
			b.WriteString(tok.target)
			if tok.text != "" {
				b.WriteByte(' ')
				b.WriteString(tok.text)
			}
			b.WriteString("?>")
		case tokStart:
			el := tok.elem
			decls := p.visibleNamespaces(el, rendered)
			rendered = append(rendered, decls)
			names = append(names, el.qname())
			b.WriteByte('<')
			b.WriteString(el.qname())
			for _, d := range decls {
				if d.prefix == "" {
					b.WriteString(` xmlns="`)
				} else {
					b.WriteString(" xmlns:")
					b.WriteString(d.prefix)
					b.WriteString(`="`)
				}
				escapeAttr(&b, d.uri)
				b.WriteByte('"')
			}
			attrs := slices.Clone(el.attrs)
			slices.SortFunc(attrs, func(x, y attr) int {
				if c := strings.Compare(x.ns, y.ns); c != 0 {
					return c
				}
				return strings.Compare(x.local, y.local)
			})
			for _, a := range attrs {
				b.WriteByte(' ')
				b.WriteString(a.qname())
				b.WriteString(`="`)
				escapeAttr(&b, a.value)
				b.WriteByte('"')
			}
			b.WriteByte('>')
		case tokEnd:
			if len(names) == 0 {
				return p.term(e.at, rdf.NewLiteral(b.String(), rdf.RDFXMLLiteral))
			}
			b.WriteString("</")
			b.WriteString(names[len(names)-1])
			b.WriteByte('>')
			names = names[:len(names)-1]
			rendered = rendered[:len(rendered)-1]
		}
		if p.lim.MaxTermLength >= 0 && b.Len() > p.lim.MaxTermLength {
			return rdf.Term{}, p.limitf(e.at, "XML literal longer than %d bytes", p.lim.MaxTermLength)
		}
	}
}

// visibleNamespaces returns, sorted by prefix, the namespace declarations
// that exclusive canonicalization outputs on el: those of the prefixes el
// and its attributes use, unless an output ancestor already declared the
// same binding.
func (p *parser) visibleNamespaces(el *element, rendered [][]nsBinding) []nsBinding {
	used := []string{el.prefix}
	for _, a := range el.attrs {
		if a.prefix != "" && a.prefix != "xml" {
			used = append(used, a.prefix)
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	var out []nsBinding
	for _, prefix := range used {
		if prefix == "xml" {
			continue
		}
		uri, _ := p.lookupNS(prefix)
		prev, found := "", false
	search:
		for i := len(rendered) - 1; i >= 0; i-- {
			for _, d := range rendered[i] {
				if d.prefix == prefix {
					prev, found = d.uri, true
					break search
				}
			}
		}
		if found && prev == uri || !found && prefix == "" && uri == "" {
			continue
		}
		out = append(out, nsBinding{prefix: prefix, uri: uri})
	}
	return out
}

// escapeText writes character data the way canonical XML does.
func escapeText(b *strings.Builder, s string) { escapeCanonical(b, s, false) }

// escapeAttr writes an attribute value the way canonical XML does.
func escapeAttr(b *strings.Builder, s string) { escapeCanonical(b, s, true) }

// escapeCanonical writes s escaped the way canonical XML does in an
// attribute value (inAttr) or in character data.
func escapeCanonical(b *strings.Builder, s string, inAttr bool) {
	for _, r := range s {
		if esc := xmlEscape(r, inAttr); esc != "" {
			b.WriteString(esc)
		} else {
			b.WriteRune(r)
		}
	}
}

// xmlEscape returns the reference canonical XML writes for r in an
// attribute value (inAttr) or in character data, or "" when r stands as
// itself.
func xmlEscape(r rune, inAttr bool) string {
	switch {
	case r == '&':
		return "&amp;"
	case r == '<':
		return "&lt;"
	case r == '\r':
		return "&#xD;"
	case r == '>' && !inAttr:
		return "&gt;"
	case r == '"' && inAttr:
		return "&quot;"
	case r == '\t' && inAttr:
		return "&#x9;"
	case r == '\n' && inAttr:
		return "&#xA;"
	}
	return ""
}
