package ntriples

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file is a small, test-only reader for the W3C N-Triples and N-Quads
// test manifests. They are Turtle, but with a regular layout: prefix
// declarations, one mf:entries or mf:include list, and one subject per test
// with rdf:type, mf:name, mf:action and mf:result. The scanner understands
// just enough Turtle for that (IRIs, prefixed names, strings, lists, blank
// node property lists, comments) so that this package does not depend on
// the Turtle parser.

const (
	nsRDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsMF  = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	nsRT  = "http://www.w3.org/ns/rdftest#"
)

// manifestTest is one entry of a manifest.
type manifestTest struct {
	ID     string // the entry's IRI as written, expanded
	Name   string // mf:name, or the ID's fragment
	Type   string // local name of the rdft: type, such as TestNTriplesPositiveSyntax
	Action string // path of the input file
	Result string // path of the expected output, if any
}

type mtoken struct {
	kind byte // 'I' IRI, 'P' prefixed name, 'S' string, or the punctuation character
	text string
	line int
}

// lexTurtle splits manifest text into tokens.
func lexTurtle(src string) ([]mtoken, error) {
	var toks []mtoken
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '<':
			j := strings.IndexByte(src[i:], '>')
			if j < 0 {
				return nil, fmt.Errorf("line %d: unterminated IRI", line)
			}
			toks = append(toks, mtoken{'I', src[i+1 : i+j], line})
			i += j + 1
		case c == '"' || c == '\'':
			q := string(c)
			if strings.HasPrefix(src[i:], q+q+q) {
				q = q + q + q
			}
			j := i + len(q)
			var b strings.Builder
			for {
				if j >= len(src) {
					return nil, fmt.Errorf("line %d: unterminated string", line)
				}
				if strings.HasPrefix(src[j:], q) {
					break
				}
				if src[j] == '\\' && j+1 < len(src) {
					b.WriteByte(src[j+1])
					j += 2
					continue
				}
				if src[j] == '\n' {
					line++
				}
				b.WriteByte(src[j])
				j++
			}
			toks = append(toks, mtoken{'S', b.String(), line})
			i = j + len(q)
			// A language tag or datatype belongs to the string: skip it.
			if i < len(src) && src[i] == '@' {
				for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != ';' && src[i] != ',' {
					i++
				}
			} else if strings.HasPrefix(src[i:], "^^") {
				i += 2
				for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != ';' && src[i] != ',' {
					i++
				}
			}
		case strings.ContainsRune("();,[]", rune(c)):
			toks = append(toks, mtoken{c, string(c), line})
			i++
		case c == '.' && (i+1 >= len(src) || !isNameChar(src[i+1])):
			toks = append(toks, mtoken{'.', ".", line})
			i++
		default:
			j := i
			for j < len(src) && (isNameChar(src[j]) || src[j] == ':' || src[j] == '@' ||
				src[j] == '.' && j+1 < len(src) && isNameChar(src[j+1])) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("line %d: unexpected character %q", line, c)
			}
			toks = append(toks, mtoken{'P', src[i:j], line})
			i = j
		}
	}
	return toks, nil
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

// manifestGraph is the manifest's statements: subject -> predicate -> objects,
// all as expanded IRIs (relative ones kept as written) or string values.
type manifestGraph map[string]map[string][]string

// scanManifest reads the statements of a manifest file.
func scanManifest(path string) (manifestGraph, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	toks, err := lexTurtle(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	p := &mparser{toks: toks, prefixes: map[string]string{}, g: manifestGraph{}}
	if err := p.document(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return p.g, nil
}

type mparser struct {
	toks     []mtoken
	i        int
	prefixes map[string]string
	g        manifestGraph
	bnodes   int
}

func (p *mparser) peek() mtoken {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return mtoken{kind: 0, text: "end of file"}
}

func (p *mparser) next() mtoken {
	t := p.peek()
	p.i++
	return t
}

func (p *mparser) document() error {
	for p.i < len(p.toks) {
		t := p.peek()
		if t.kind == 'P' && (t.text == "@prefix" || strings.EqualFold(t.text, "PREFIX")) {
			p.next()
			name, iri := p.next(), p.next()
			if name.kind != 'P' || !strings.HasSuffix(name.text, ":") || iri.kind != 'I' {
				return fmt.Errorf("line %d: bad prefix declaration", t.line)
			}
			p.prefixes[strings.TrimSuffix(name.text, ":")] = iri.text
			if t.text == "@prefix" {
				if p.next().kind != '.' {
					return fmt.Errorf("line %d: expected '.' after @prefix", t.line)
				}
			}
			continue
		}
		subj, err := p.term()
		if err != nil {
			return err
		}
		if err := p.predicateObjects(subj); err != nil {
			return err
		}
		if t := p.next(); t.kind != '.' {
			return fmt.Errorf("line %d: expected '.', found %q", t.line, t.text)
		}
	}
	return nil
}

// term reads a subject or object: an IRI, prefixed name, string, list
// (returned as a generated node whose items are under "list") or blank node
// property list.
func (p *mparser) term() (string, error) {
	t := p.next()
	switch t.kind {
	case 'I', 'S':
		return t.text, nil
	case 'P':
		return p.expand(t)
	case '(':
		p.bnodes++
		id := fmt.Sprintf("_:list%d", p.bnodes)
		for p.peek().kind != ')' {
			if p.i >= len(p.toks) {
				return "", fmt.Errorf("line %d: unterminated list", t.line)
			}
			item, err := p.term()
			if err != nil {
				return "", err
			}
			p.add(id, "list", item)
		}
		p.next()
		return id, nil
	case '[':
		p.bnodes++
		id := fmt.Sprintf("_:b%d", p.bnodes)
		if p.peek().kind != ']' {
			if err := p.predicateObjects(id); err != nil {
				return "", err
			}
		}
		if t := p.next(); t.kind != ']' {
			return "", fmt.Errorf("line %d: expected ']'", t.line)
		}
		return id, nil
	}
	return "", fmt.Errorf("line %d: unexpected %q", t.line, t.text)
}

func (p *mparser) expand(t mtoken) (string, error) {
	if t.text == "a" {
		return nsRDF + "type", nil
	}
	if t.text == "true" || t.text == "false" {
		return t.text, nil
	}
	pre, local, ok := strings.Cut(t.text, ":")
	if !ok {
		return "", fmt.Errorf("line %d: unexpected %q", t.line, t.text)
	}
	ns, ok := p.prefixes[pre]
	if !ok {
		return "", fmt.Errorf("line %d: undeclared prefix %q", t.line, pre)
	}
	return ns + local, nil
}

func (p *mparser) add(s, pred, o string) {
	if p.g[s] == nil {
		p.g[s] = map[string][]string{}
	}
	p.g[s][pred] = append(p.g[s][pred], o)
}

func (p *mparser) predicateObjects(subj string) error {
	for {
		pt := p.next()
		if pt.kind != 'P' && pt.kind != 'I' {
			return fmt.Errorf("line %d: expected a predicate, found %q", pt.line, pt.text)
		}
		pred := pt.text
		if pt.kind == 'P' {
			var err error
			if pred, err = p.expand(pt); err != nil {
				return err
			}
		}
		for {
			o, err := p.term()
			if err != nil {
				return err
			}
			p.add(subj, pred, o)
			if p.peek().kind != ',' {
				break
			}
			p.next()
		}
		// One or more ';', possibly before the end of the statement.
		if p.peek().kind != ';' {
			return nil
		}
		for p.peek().kind == ';' {
			p.next()
		}
		if k := p.peek().kind; k == '.' || k == ']' {
			return nil
		}
	}
}

// one returns the single value of pred on subj, or "".
func (g manifestGraph) one(subj, pred string) string {
	if v := g[subj][pred]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// loadManifest returns the tests listed in the manifest at path, following
// mf:include into sub-folders. Includes that leave the suite's folder
// (RDF 1.2 manifests include the RDF 1.1 suite, which is run on its own)
// are returned in skipped.
func loadManifest(path string) (tests []manifestTest, skipped []string, err error) {
	g, err := scanManifest(path)
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Dir(path)
	var manifests []string
	for subj := range g {
		if g.one(subj, nsRDF+"type") == nsMF+"Manifest" {
			manifests = append(manifests, subj)
		}
	}
	sort.Strings(manifests)
	for _, subj := range manifests {
		for _, inc := range g.list(g.one(subj, nsMF+"include")) {
			if strings.HasPrefix(inc, "../") || strings.Contains(inc, ":") {
				skipped = append(skipped, inc)
				continue
			}
			sub, sk, err := loadManifest(filepath.Join(dir, filepath.FromSlash(inc)))
			if err != nil {
				return nil, nil, err
			}
			tests = append(tests, sub...)
			skipped = append(skipped, sk...)
		}
		for _, id := range g.list(g.one(subj, nsMF+"entries")) {
			typ := g.one(id, nsRDF+"type")
			if !strings.HasPrefix(typ, nsRT) {
				return nil, nil, fmt.Errorf("%s: entry %s has no rdft: type", path, id)
			}
			t := manifestTest{
				ID:     id,
				Name:   g.one(id, nsMF+"name"),
				Type:   strings.TrimPrefix(typ, nsRT),
				Action: g.one(id, nsMF+"action"),
				Result: g.one(id, nsMF+"result"),
			}
			if t.Action == "" {
				return nil, nil, fmt.Errorf("%s: entry %s has no mf:action", path, id)
			}
			t.Action = filepath.Join(dir, filepath.FromSlash(t.Action))
			if t.Result != "" {
				t.Result = filepath.Join(dir, filepath.FromSlash(t.Result))
			}
			if t.Name == "" {
				_, t.Name, _ = strings.Cut(id, "#")
			}
			tests = append(tests, t)
		}
	}
	return tests, skipped, nil
}

// list returns the items of a list node made by term.
func (g manifestGraph) list(id string) []string {
	if id == "" {
		return nil
	}
	return g[id]["list"]
}
