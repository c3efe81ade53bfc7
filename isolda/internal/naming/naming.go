// Package naming is how the ISOLDA encoder writes IRIs, terms and text:
// the quoting rules of each version, bare terms, prefixed names and
// <IRI>s under the chosen @vocab, prefixes and @term aliases (Namer),
// entity slugs, camel-case aliases and derived prefix names.
package naming

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"golang.org/x/text/unicode/norm"
)

// ReservedBare are names that may not be written as bare terms.
func ReservedBare(s string) bool {
	return s == "a" || s == "id" || s == "Thing_"
}

// ReservedPrefix are names that may not be prefix names.
func ReservedPrefix(s string) bool {
	switch s {
	case "a", "id", "iri", "int", "decimal", "double", "bool", "date", "dateTime",
		"http", "https", "urn", "mailto", "file", "ftp", "tag", "data", "_", "Thing_":
		return true
	}
	return false
}

// Namer writes IRIs as terms (headers) and as cell values.
type Namer struct {
	v02 Quoting
	V04 bool // 0.4 bare terms, `:local` IRIs, predeclared prefixes
	// angleNS (0.1 and 0.2): a term whose local part is not a LOCAL is
	// written <pfx:rest> when its namespace is declared (SPEC.md section 4,
	// rule 4), so an IRI written <x:...> with x a declared prefix escapes
	// that ':'.
	AngleNS  bool
	Vocab    string
	Implicit map[string]bool   // predeclared prefix names (0.4): no @prefix line
	Use      map[string]bool   // 0.4: glossary flags of the forms written (shared with the encoder)
	NSPrefix map[string]string // namespace -> prefix name
	PrefixNS map[string]string // prefix name -> namespace
	Alias    map[string]string // IRI -> alias
	AliasIRI map[string]string // alias -> IRI
}

// NewNamer returns a Namer with the quoting rules q and no vocab,
// prefixes or aliases yet.
func NewNamer(q Quoting) *Namer {
	return &Namer{v02: q, NSPrefix: map[string]string{}, PrefixNS: map[string]string{},
		Alias: map[string]string{}, AliasIRI: map[string]string{}, Implicit: map[string]bool{}}
}

// Bare returns the vocab local name of iri when it can be written bare.
func (n *Namer) Bare(iri string) (string, bool) {
	if n.Vocab == "" || !strings.HasPrefix(iri, n.Vocab) {
		return "", false
	}
	l := iri[len(n.Vocab):]
	if n.V04 {
		var ok bool
		if l, ok = BareTerm04(l); !ok {
			return "", false
		}
	}
	if !n.V04 && !syntax.IsName(l) || ReservedBare(l) {
		return "", false
	}
	if _, ok := n.PrefixNS[l]; ok {
		return "", false
	}
	if _, ok := n.AliasIRI[l]; ok {
		return "", false
	}
	return l, true
}

// AppendTerm appends iri as a term: alias, vocab name, pfx:local or <iri>.
func (n *Namer) AppendTerm(b []byte, iri string) []byte {
	if a, ok := n.Alias[iri]; ok {
		return append(b, a...)
	}
	if l, ok := n.Bare(iri); ok {
		if n.V04 && strings.IndexByte(l, ' ') >= 0 {
			n.Use["space"] = true
		}
		return append(b, l...)
	}
	return n.AppendPrefixed(b, iri)
}

// AppendPrefixed appends pfx:local or <iri> (0.1 and 0.2: <pfx:rest> when
// the namespace is declared but its local part is not a LOCAL).
func (n *Namer) AppendPrefixed(b []byte, iri string) []byte {
	ns, local := SplitNS(iri)
	p, declared := n.NSPrefix[ns]
	if declared && (IsLocal(local) || !n.V04 && !n.AngleNS && IsLocalPct(local)) {
		if n.V04 {
			n.Use["prefix"] = true
		}
		b = append(b, p...)
		b = append(b, ':')
		return append(b, local...)
	}
	if n.AngleNS {
		if declared && local != "" {
			b = append(b, '<')
			b = append(b, p...)
			b = append(b, ':')
			b = AppendAngleBody(b, local)
			return append(b, '>')
		}
		if i := strings.IndexByte(iri, ':'); i > 0 {
			if _, ok := n.PrefixNS[iri[:i]]; ok {
				// The IRI itself starts like <pfx:...>: its ':' is escaped.
				b = append(b, '<')
				b = append(b, iri[:i]...)
				b = append(b, `\u003a`...)
				b = AppendAngleBody(b, iri[i+1:])
				return append(b, '>')
			}
		}
	}
	return AppendAngle(b, iri)
}

// AppendDatatype appends the datatype part after ':' in a header.
func (n *Namer) AppendDatatype(b []byte, dt string) []byte {
	if s := syntax.ShortOf(dt); s != "" {
		return append(b, s...)
	}
	return n.AppendPrefixed(b, dt)
}

// AppendIRICell appends an IRI as a cell value: pfx:local, the bare IRI, or
// the IRI as a JSON string.
func (n *Namer) AppendIRICell(b []byte, iri string, ctx int) []byte {
	if n.V04 {
		// 0.4: the longest namespace the IRI starts with: @vocab (:rest)
		// or a declared or well-known prefix (pfx:rest).
		for j := len(iri); j > 0; j-- {
			if c := iri[j-1]; c != '/' && c != '#' && c != ':' {
				continue
			}
			ns := iri[:j]
			if ns == n.Vocab && j < len(iri) {
				if c := ":" + iri[j:]; !NeedsQuote(c, n.v02, ctx) {
					n.Use["vocabiri"] = true
					return append(b, c...)
				}
				break
			}
			if p, ok := n.NSPrefix[ns]; ok {
				if c := p + ":" + iri[j:]; !NeedsQuote(c, n.v02, ctx) {
					n.Use["prefix"] = true
					return append(b, c...)
				}
				break
			}
		}
	}
	ns, local := SplitNS(iri)
	if p, ok := n.NSPrefix[ns]; ok {
		c := p + ":" + local
		if !NeedsQuote(c, n.v02, ctx) {
			if n.V04 {
				n.Use["prefix"] = true
			}
			return append(b, c...)
		}
	}
	if !NeedsQuote(iri, n.v02, ctx) && !strings.HasPrefix(iri, "_:") && !strings.HasPrefix(iri, "<") && !(n.V04 && strings.HasPrefix(iri, ":")) {
		if i := strings.IndexByte(iri, ':'); i < 0 || n.PrefixNS[iri[:i]] == "" {
			return append(b, iri...)
		}
	}
	return AppendQuoted(b, iri)
}

// Slugify makes a slug: letters and digits lower-cased (diacritics removed),
// runs of anything else and camelCase boundaries turned into one '-'.
func Slugify(s string) string {
	s = norm.NFKD.String(s)
	var b strings.Builder
	dash := false
	prevLower := false
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if unicode.IsUpper(r) && prevLower && b.Len() > 0 {
				dash = true
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
			b.WriteRune(unicode.ToLower(r))
			n++
			if n >= 60 {
				break
			}
			continue
		}
		dash = true
		prevLower = false
	}
	return b.String()
}

// Camel makes a term alias from a label: words of letters and digits
// (diacritics removed) joined in lowerCamelCase, or UpperCamelCase for classes.
// With limit (0.3 and 0.4, isolda's versions), an alias longer than 40
// bytes is not made; 0.2 has no limit (the paper states none, SPEC.md
// section 4.3).
func Camel(label string, upper, limit bool) string {
	s := norm.NFKD.String(label)
	var words []string
	var w strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			w.WriteRune(r)
			continue
		}
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	if w.Len() > 0 {
		words = append(words, w.String())
	}
	var b strings.Builder
	for i, word := range words {
		if i == 0 && !upper {
			b.WriteString(strings.ToLower(word[:1]) + word[1:])
		} else {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	out := b.String()
	if out == "" || limit && len(out) > 40 {
		return ""
	}
	if !syntax.IsNameStart(out[0]) {
		out = "_" + out
	}
	return out
}

// SortedKeys returns a map's keys sorted.
func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
