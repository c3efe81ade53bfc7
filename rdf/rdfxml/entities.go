package rdfxml

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf/internal/excerpt"
	"golang.org/x/text/encoding/charmap"
)

// charsetReader lets the decoder read the single-byte encodings that old
// RDF/XML files declare; UTF-8 (and US-ASCII) need no conversion, and UTF-16
// has been converted before the decoder sees it. The conversion happens
// inside the posReader, which the decoder goes on reading, so that
// positions stay exact.
func (p *parser) charsetReader(label string, input io.Reader) (io.Reader, error) {
	var cm *charmap.Charmap
	switch strings.ToLower(label) {
	case "utf-16", "utf-16le", "utf-16be", "utf16":
		// The reader converted UTF-16 (recognized by its byte order mark)
		// to UTF-8 already.
		return input, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1":
		cm = charmap.ISO8859_1
	case "windows-1252", "cp1252":
		cm = charmap.Windows1252
	case "iso-8859-15", "latin-9":
		cm = charmap.ISO8859_15
	default:
		return nil, fmt.Errorf("unsupported character encoding %q", label)
	}
	if input != io.Reader(p.in) || p.in.enc != encUTF8 {
		return nil, fmt.Errorf("character encoding %q declared twice or over UTF-16", label)
	}
	p.in.transcode(func(r io.Reader) io.Reader { return cm.NewDecoder().Reader(r) })
	return p.in, nil
}

// Bounds on the internal entities of a document type declaration.
const (
	maxEntities       = 1 << 10  // declarations
	maxEntityValue    = 64 << 10 // bytes of one expanded value
	maxEntityDefBytes = 1 << 20  // bytes of all expanded values together
	maxEntityUse      = 16 << 20 // bytes that references may expand to beyond 8 times the input
)

// doctype handles the document type declaration: it is ignored except for
// the internal general entities it declares (OWL files use them for
// namespace IRIs). Their values are expanded (character references and
// references to other entities) at once with bounds, so that "billion
// laughs" declarations fail fast with a limit error, and the bytes that
// references expand to in the document are counted against a budget.
// External entities are not read: references to them are errors.
func (p *parser) doctype(s string) error {
	at := p.at
	if !strings.HasPrefix(s, "DOCTYPE") {
		return p.errorf(at, "unexpected markup declaration <!%s> in the prolog", firstWord(s))
	}
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return nil
	}
	raw := map[string]string{}
	var names []string
	for i := open + 1; i < len(s); {
		switch {
		case s[i] == '"' || s[i] == '\'':
			j := strings.IndexByte(s[i+1:], s[i])
			if j < 0 {
				return p.errorf(at, "unterminated literal in the document type declaration")
			}
			i += j + 2
		case strings.HasPrefix(s[i:], "<!--"):
			j := strings.Index(s[i+4:], "-->")
			if j < 0 {
				return p.errorf(at, "unterminated comment in the document type declaration")
			}
			i += j + 7
		case strings.HasPrefix(s[i:], "<!ENTITY"):
			name, value, internal, n, err := entityDecl(s[i+len("<!ENTITY"):])
			if err != "" {
				return p.errorf(at, "bad entity declaration: %s", err)
			}
			i += len("<!ENTITY") + n
			if !internal || predefined(name) {
				continue
			}
			if _, dup := raw[name]; dup {
				continue // the first declaration binds
			}
			if len(raw) >= maxEntities {
				return p.limitf(at, "more than %d entity declarations", maxEntities)
			}
			raw[name] = value
			names = append(names, name)
		default:
			i++
		}
	}
	if len(names) == 0 {
		return nil
	}
	x := expander{raw: raw, done: map[string]string{}, active: map[string]bool{}}
	for _, name := range names {
		if _, err := x.expand(name); err != nil {
			if x.limit {
				return p.limitf(at, "%v", err)
			}
			return p.errorf(at, "%v", err)
		}
	}
	p.dec.Entity = x.done
	p.in.trackEntities(x.done, maxEntityUse)
	return nil
}

func predefinedValue(name string) string {
	switch name {
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "amp":
		return "&"
	case "apos":
		return "'"
	}
	return "\""
}

func predefined(name string) bool {
	switch name {
	case "lt", "gt", "amp", "apos", "quot":
		return true
	}
	return false
}

// entityDecl parses the rest of an entity declaration after "<!ENTITY":
// its name, its literal value if it is an internal general entity, and the
// number of bytes it used up to and including its ">". A non-empty problem
// describes a malformed declaration.
func entityDecl(s string) (name, value string, internal bool, n int, problem string) {
	i := skipSpace(s, 0)
	if i == 0 {
		return "", "", false, 0, "expected white space after <!ENTITY"
	}
	parameter := false
	if i < len(s) && s[i] == '%' {
		parameter = true
		i = skipSpace(s, i+1)
	}
	j := i
	for j < len(s) && !isSpace(s[j]) && s[j] != '>' && s[j] != '"' && s[j] != '\'' {
		j++
	}
	name = s[i:j]
	if !isXMLName(name) {
		return "", "", false, 0, excerpt.Quote(name) + " is not a name"
	}
	i = skipSpace(s, j)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		k := strings.IndexByte(s[i+1:], s[i])
		if k < 0 {
			return "", "", false, 0, "unterminated entity value"
		}
		value = s[i+1 : i+1+k]
		internal = !parameter
		i += k + 2
	}
	// Skip the rest (external identifiers, NDATA) up to ">".
	for i < len(s) && s[i] != '>' {
		if s[i] == '"' || s[i] == '\'' {
			k := strings.IndexByte(s[i+1:], s[i])
			if k < 0 {
				return "", "", false, 0, "unterminated literal"
			}
			i += k + 1
		}
		i++
	}
	if i >= len(s) {
		return "", "", false, 0, "missing >"
	}
	return name, value, internal, i + 1, ""
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// isXMLName reports whether s is an XML Name (an NCName that may contain colons).
func isXMLName(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ":") {
		if part != "" && !isNCName(part) {
			return false
		}
	}
	return s[0] != ':' || len(s) > 1
}

// expander computes what references to the internal general entities
// stand for, as XML 1.0 (section 4.5) says: an entity's replacement text
// is its literal value with character references replaced and references
// to general entities left as they are; a reference to the entity in the
// document is replaced by that text parsed again, so that its character and
// entity references are replaced in turn (<!ENTITY a "&#38;#38;"> has the
// replacement text "&#38;", and &a; stands for "&").
type expander struct {
	raw    map[string]string // entity -> literal value
	done   map[string]string // entity -> what a reference stands for
	active map[string]bool
	total  int
	limit  bool // the last error was a limit
}

// replacement returns the replacement text of a literal entity value.
func replacement(name, raw string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(raw); {
		switch c := raw[i]; c {
		case '%':
			return "", fmt.Errorf("parameter entity reference in the value of &%s; is not supported", name)
		case '&':
			end := strings.IndexByte(raw[i:], ';')
			if end < 0 {
				return "", fmt.Errorf("unterminated reference in the value of &%s;", name)
			}
			ref := raw[i+1 : i+end]
			if strings.HasPrefix(ref, "#") {
				r, ok := charRef(ref[1:])
				if !ok {
					return "", fmt.Errorf("bad character reference &%s; in the value of &%s;", ref, name)
				}
				b.WriteRune(r)
			} else {
				if !isXMLName(ref) {
					return "", fmt.Errorf("bad reference &%s; in the value of &%s;", excerpt.Cut(ref), name)
				}
				b.WriteString(raw[i : i+end+1]) // bypassed
			}
			i += end + 1
		default:
			b.WriteByte(c)
			i++
		}
		if b.Len() > maxEntityValue {
			return "", fmt.Errorf("entity &%s; expands to more than %d bytes", name, maxEntityValue)
		}
	}
	return b.String(), nil
}

// expand returns what a reference to the entity stands for: its
// replacement text with references replaced. Markup in it (a '<' that no
// character reference produced at this level) is refused: the decoder
// takes the expansion as text.
func (x *expander) expand(name string) (string, error) {
	if v, ok := x.done[name]; ok {
		return v, nil
	}
	raw, ok := x.raw[name]
	if !ok {
		return "", fmt.Errorf("reference to undeclared entity &%s;", name)
	}
	if x.active[name] {
		return "", fmt.Errorf("entity &%s; refers to itself", name)
	}
	x.active[name] = true
	defer delete(x.active, name)
	text, err := replacement(name, raw)
	if err != nil {
		x.limit = strings.Contains(err.Error(), "expands to more than")
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch c {
		case '<':
			return "", fmt.Errorf("the replacement text of &%s; holds markup (<), which this reader does not expand", name)
		case '&':
			end := strings.IndexByte(text[i:], ';')
			if end < 0 {
				return "", fmt.Errorf("unterminated reference in the replacement text of &%s;", name)
			}
			ref := text[i+1 : i+end]
			i += end + 1
			switch {
			case strings.HasPrefix(ref, "#"):
				r, ok := charRef(ref[1:])
				if !ok {
					return "", fmt.Errorf("bad character reference &%s; in the replacement text of &%s;", excerpt.Cut(ref), name)
				}
				b.WriteRune(r)
			case predefined(ref):
				b.WriteString(predefinedValue(ref))
			default:
				v, err := x.expand(ref)
				if err != nil {
					return "", err
				}
				b.WriteString(v)
			}
		default:
			b.WriteByte(c)
			i++
		}
		if b.Len() > maxEntityValue {
			x.limit = true
			return "", fmt.Errorf("entity &%s; expands to more than %d bytes", name, maxEntityValue)
		}
	}
	x.total += b.Len()
	if x.total > maxEntityDefBytes {
		x.limit = true
		return "", fmt.Errorf("entity values expand to more than %d bytes", maxEntityDefBytes)
	}
	x.done[name] = b.String()
	return b.String(), nil
}

// charRef decodes the number of a character reference (after "&#").
func charRef(s string) (rune, bool) {
	base := 10
	if strings.HasPrefix(s, "x") {
		base, s = 16, s[1:]
	}
	n, err := strconv.ParseUint(s, base, 32)
	if err != nil || s == "" {
		return 0, false
	}
	r := rune(n)
	ok := r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
	return r, ok
}
