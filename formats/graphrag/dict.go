package graphrag

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// TypedEdgesDictHeader is the version line that starts typed_edges_dict.
// A change to the grammar or to the meaning of the dictionary lines is a new
// version.
const TypedEdgesDictHeader = "#graph-dict-v1"

// Code maps a short code to a relation or type name.
type Code struct {
	Code string
	Name string
}

// Dictionary is the code table of typed_edges_dict, written at the top of
// the text so that the codes are part of the measured input:
//
//	#graph-dict-v1
//	REL|d=depends_on|o=owned_by
//	TYPE|s=service|t=team|b=database
//	N|svc-api|s
//	E|svc-api|d|svc-auth
//
// Codes are 1 to 8 ASCII letters or digits, unique within their table;
// names are escaped like typed_edges fields and unique within their table.
type Dictionary struct {
	Relations []Code
	Types     []Code
}

// DefaultDictionary returns the article's dictionary: d=depends_on,
// o=owned_by; s=service, t=team, b=database.
func DefaultDictionary() Dictionary {
	return Dictionary{
		Relations: []Code{{"d", DependsOn}, {"o", OwnedBy}},
		Types:     []Code{{"s", Service}, {"t", Team}, {"b", Database}},
	}
}

// DictionaryFor returns a dictionary for exactly the relations and types g
// uses: the article's codes for its names (in the article's order), then
// every other name in sorted order with a new code, its first ASCII letter
// or digit if free, else that character (or "r" / "t") followed by the
// smallest free number.
func DictionaryFor(g Graph) Dictionary {
	var rels, types []string
	for _, e := range g.Edges {
		rels = append(rels, e.Relation)
	}
	for _, n := range g.Nodes {
		types = append(types, n.Type)
	}
	def := DefaultDictionary()
	return Dictionary{
		Relations: assignCodes(rels, def.Relations, "r"),
		Types:     assignCodes(types, def.Types, "t"),
	}
}

func assignCodes(names []string, defaults []Code, fallback string) []Code {
	slices.Sort(names)
	names = slices.Compact(names)
	var out []Code
	used := map[string]bool{}
	for _, c := range defaults {
		if _, ok := slices.BinarySearch(names, c.Name); ok {
			out = append(out, c)
			used[c.Code] = true
		}
	}
	for _, name := range names {
		if slices.ContainsFunc(out, func(c Code) bool { return c.Name == name }) {
			continue
		}
		prefix := fallback
		for _, r := range strings.ToLower(name) {
			if validCodeChar(r) {
				prefix = string(r)
				break
			}
		}
		code := prefix
		for i := 2; used[code]; i++ {
			code = fmt.Sprintf("%s%d", prefix, i)
		}
		used[code] = true
		out = append(out, Code{code, name})
	}
	return out
}

func validCodeChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func validCode(s string) bool {
	if len(s) == 0 || len(s) > 8 {
		return false
	}
	for _, r := range s {
		if !validCodeChar(r) {
			return false
		}
	}
	return true
}

// Validate checks the dictionary's codes and names.
func (d Dictionary) Validate() error {
	for _, table := range []struct {
		name  string
		codes []Code
	}{{"relation", d.Relations}, {"type", d.Types}} {
		codes, names := map[string]bool{}, map[string]bool{}
		for _, c := range table.codes {
			if !validCode(c.Code) {
				return fmt.Errorf("graphrag: invalid %s code %q", table.name, c.Code)
			}
			if codes[c.Code] || names[c.Name] {
				return fmt.Errorf("graphrag: duplicate %s code or name %q=%q", table.name, c.Code, c.Name)
			}
			codes[c.Code], names[c.Name] = true, true
		}
	}
	return nil
}

// dictMaps maps codes to names.
type dictMaps struct {
	rels, types map[string]string
}

// EncodeTypedEdgesDict writes g as typed_edges with the dictionary d. It
// fails when g uses a relation or type that d has no code for.
func EncodeTypedEdgesDict(out io.Writer, g Graph, d Dictionary) error {
	if err := checkUTF8(g); err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	relCode, typeCode := map[string]string{}, map[string]string{}
	for _, c := range d.Relations {
		relCode[c.Name] = c.Code
	}
	for _, c := range d.Types {
		typeCode[c.Name] = c.Code
	}
	w := newWriter(out)
	w.str(TypedEdgesDictHeader + "\nREL")
	for _, c := range d.Relations {
		w.str("|" + c.Code + "=" + EscapeAtom(c.Name))
	}
	w.str("\nTYPE")
	for _, c := range d.Types {
		w.str("|" + c.Code + "=" + EscapeAtom(c.Name))
	}
	for _, n := range g.Nodes {
		code, ok := typeCode[n.Type]
		if !ok {
			return fmt.Errorf("graphrag: no dictionary code for type %q", n.Type)
		}
		w.str("\nN|" + EscapeAtom(n.ID) + "|" + code)
	}
	for _, e := range g.Edges {
		code, ok := relCode[e.Relation]
		if !ok {
			return fmt.Errorf("graphrag: no dictionary code for relation %q", e.Relation)
		}
		w.str("\nE|" + EscapeAtom(e.Source) + "|" + code + "|" + EscapeAtom(e.Target))
	}
	return w.flush()
}

// DecodeTypedEdgesDict reads typed_edges_dict, rejecting a missing or
// unknown version line, malformed dictionary lines, duplicate codes or
// names, and unknown codes in records.
func DecodeTypedEdgesDict(r io.Reader, opts DecodeOptions) (Graph, error) {
	d, err := start(r, opts)
	if err != nil {
		return Graph{}, err
	}
	dict := &dictMaps{rels: map[string]string{}, types: map[string]string{}}
	lineNo, err := d.typedLines(TypedEdgesDictHeader, 2, func(lineNo int, line string, off int) error {
		f, offs, err := d.splitAtoms(line, off, len(line)+1)
		if err != nil {
			return err
		}
		want, table := "REL", dict.rels
		if lineNo == 3 {
			want, table = "TYPE", dict.types
		}
		if f[0] != want {
			return d.errAt(off, "expected the %s dictionary line", want)
		}
		names := map[string]bool{}
		for i, entry := range f[1:] {
			code, name, ok := strings.Cut(entry, "=")
			if !ok || !validCode(code) {
				return d.errAt(offs[i+1], "invalid dictionary entry %q, want CODE=name", entry)
			}
			if _, dup := table[code]; dup {
				return d.errAt(offs[i+1], "duplicate code %q", code)
			}
			if names[name] {
				return d.errAt(offs[i+1], "duplicate name %q", name)
			}
			table[code], names[name] = name, true
		}
		return nil
	}, dict)
	if err != nil {
		return Graph{}, err
	}
	if lineNo < 3 {
		return Graph{}, d.errAt(len(d.src), "missing dictionary lines REL and TYPE")
	}
	return d.finish()
}
