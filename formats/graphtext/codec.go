package graphtext

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/formats/toon"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
)

// MaxDecodeBytes bounds the input Decode reads.
const MaxDecodeBytes = 1 << 30

// tok writes an identifier as a bare word when it is one (printable,
// non-space runes other than the punctuation the formats use as syntax:
// " , ( ) [ ] | \ `), otherwise as a Go-syntax quoted string. Bare words and
// quoted strings never contain a space, comma or pipe outside quotes.
func tok(s string) string {
	if bareWord(s) {
		return s
	}
	return quote(s)
}

func bareWord(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || strings.ContainsRune("\",()[]|\\`", r) {
			return false
		}
	}
	return true
}

// quote is strconv.Quote with '|' written as \x7c, so that a quoted string
// has no raw pipe (it can sit in a Markdown table cell).
func quote(s string) string {
	return strings.ReplaceAll(strconv.Quote(s), "|", `\x7c`)
}

// cell is tok for a Markdown table cell.
func cell(s string) string { return tok(s) }

// --- DOT ---

func dotID(s string) string {
	if dotBare(s) {
		return s
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func dotBare(s string) bool {
	if s == "" {
		return false
	}
	switch strings.ToLower(s) {
	case "node", "edge", "graph", "digraph", "subgraph", "strict":
		return false
	}
	ident := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return true
	}
	// A numeral: -?( [0-9]+ | [0-9]+.[0-9]+ ); kept to the forms that read
	// back as the same text.
	t := strings.TrimPrefix(s, "-")
	intPart, frac, hasDot := strings.Cut(t, ".")
	digits := func(x string) bool {
		if x == "" {
			return false
		}
		for i := 0; i < len(x); i++ {
			if x[i] < '0' || x[i] > '9' {
				return false
			}
		}
		return true
	}
	return digits(intPart) && (!hasDot || digits(frac))
}

// typeList encodes a node's types as one string: each type with \ and
// space escaped (\\, \s; an empty type is \0), separated by spaces.
func typeList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		if t == "" {
			parts[i] = `\0`
			continue
		}
		parts[i] = strings.NewReplacer(`\`, `\\`, " ", `\s`).Replace(t)
	}
	return strings.Join(parts, " ")
}

func parseTypeList(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, " ") {
		if p == `\0` {
			out = append(out, "")
			continue
		}
		if p == "" {
			return nil, errors.New("empty type in class list")
		}
		var sb strings.Builder
		for i := 0; i < len(p); i++ {
			if p[i] != '\\' {
				sb.WriteByte(p[i])
				continue
			}
			if i+1 == len(p) {
				return nil, errors.New("dangling backslash in class list")
			}
			i++
			switch p[i] {
			case '\\':
				sb.WriteByte('\\')
			case 's':
				sb.WriteByte(' ')
			default:
				return nil, fmt.Errorf("bad escape \\%c in class list", p[i])
			}
		}
		out = append(out, sb.String())
	}
	return out, nil
}

// encDOT writes a Graphviz graph: node statements (with label and class,
// the type list, when present), then edge statements (with the type as
// label).
func encDOT(w *bufio.Writer, g *graph.Graph, _ Options) error {
	op := " -- "
	if g.Directed {
		w.WriteString("digraph G {\n")
		op = " -> "
	} else {
		w.WriteString("graph G {\n")
	}
	for _, n := range g.Nodes {
		w.WriteString("  ")
		w.WriteString(dotID(n.ID))
		var attrs []string
		if n.Label != "" {
			attrs = append(attrs, "label="+dotID(n.Label))
		}
		if len(n.Types) > 0 {
			attrs = append(attrs, "class="+dotID(typeList(n.Types)))
		}
		if len(attrs) > 0 {
			w.WriteString(" [")
			w.WriteString(strings.Join(attrs, ", "))
			w.WriteByte(']')
		}
		w.WriteString(";\n")
	}
	for _, e := range g.Edges {
		w.WriteString("  ")
		w.WriteString(dotID(e.From))
		w.WriteString(op)
		w.WriteString(dotID(e.To))
		if e.Type != "" {
			w.WriteString(" [label=")
			w.WriteString(dotID(e.Type))
			w.WriteByte(']')
		}
		w.WriteString(";\n")
	}
	w.WriteString("}\n")
	return nil
}

// --- toon_spec ---

// ErrInvalidUTF8 is returned by the toon_spec encoder for a graph with a
// string that is not valid UTF-8, which TOON (like JSON) cannot carry.
var ErrInvalidUTF8 = errors.New("graphtext: toon_spec cannot carry strings that are not valid UTF-8")

func validGraphUTF8(g *graph.Graph) bool {
	for _, n := range g.Nodes {
		if !utf8.ValidString(n.ID) || !utf8.ValidString(n.Label) {
			return false
		}
		for _, t := range n.Types {
			if !utf8.ValidString(t) {
				return false
			}
		}
	}
	for _, e := range g.Edges {
		if !utf8.ValidString(e.From) || !utf8.ValidString(e.To) || !utf8.ValidString(e.Type) {
			return false
		}
	}
	return true
}

func encToonSpec(w *bufio.Writer, g *graph.Graph, _ Options) error {
	if !validGraphUTF8(g) {
		return ErrInvalidUTF8
	}
	root := toon.NewObject(4)
	root.Set("directed", g.Directed)
	nodes := make([]any, len(g.Nodes))
	var types []any
	for i, n := range g.Nodes {
		o := toon.NewObject(2)
		o.Set("id", n.ID)
		o.Set("label", n.Label)
		nodes[i] = o
		for _, t := range n.Types {
			r := toon.NewObject(2)
			r.Set("node", i)
			r.Set("type", t)
			types = append(types, r)
		}
	}
	if types == nil {
		types = []any{}
	}
	edges := make([]any, len(g.Edges))
	for i, e := range g.Edges {
		o := toon.NewObject(3)
		o.Set("from", e.From)
		o.Set("type", e.Type)
		o.Set("to", e.To)
		edges[i] = o
	}
	root.Set("nodes", nodes)
	root.Set("types", types)
	root.Set("edges", edges)
	if err := toon.Encode(w, root, toon.EncodeOptions{}); err != nil {
		return err
	}
	w.WriteByte('\n')
	return nil
}

func decToonSpec(r io.Reader) (*graph.Graph, error) {
	v, err := toon.Decode(r, toon.DecodeOptions{Limits: rdf.Limits{MaxBytes: MaxDecodeBytes}})
	if err != nil {
		return nil, err
	}
	bad := func(msg string, a ...any) error {
		return &rdf.ParseError{Line: 1, Column: 1, Msg: "toon_spec: " + fmt.Sprintf(msg, a...)}
	}
	root, ok := v.(*toon.Object)
	if !ok || root.Len() != 4 {
		return nil, bad("want an object with directed, nodes, types and edges")
	}
	g := &graph.Graph{}
	d, ok := root.Values["directed"].(bool)
	if !ok {
		return nil, bad("directed must be true or false")
	}
	g.Directed = d
	rows := func(key string, fields ...string) ([]*toon.Object, error) {
		arr, ok := root.Values[key].([]any)
		if !ok {
			return nil, bad("%s must be an array", key)
		}
		out := make([]*toon.Object, len(arr))
		for i, x := range arr {
			o, ok := x.(*toon.Object)
			if !ok || o.Len() != len(fields) {
				return nil, bad("%s[%d] must be an object with %s", key, i, strings.Join(fields, ", "))
			}
			for _, f := range fields {
				if _, ok := o.Values[f]; !ok {
					return nil, bad("%s[%d] has no %s", key, i, f)
				}
			}
			out[i] = o
		}
		return out, nil
	}
	str := func(o *toon.Object, key, f string, i int) (string, error) {
		s, ok := o.Values[f].(string)
		if !ok {
			return "", bad("%s[%d].%s must be a string", key, i, f)
		}
		return s, nil
	}
	ns, err := rows("nodes", "id", "label")
	if err != nil {
		return nil, err
	}
	for i, o := range ns {
		id, err := str(o, "nodes", "id", i)
		if err != nil {
			return nil, err
		}
		label, err := str(o, "nodes", "label", i)
		if err != nil {
			return nil, err
		}
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Label: label})
	}
	ts, err := rows("types", "node", "type")
	if err != nil {
		return nil, err
	}
	for i, o := range ts {
		num, ok := o.Values["node"].(interface{ String() string })
		if !ok {
			return nil, bad("types[%d].node must be a node index", i)
		}
		k, err := strconv.Atoi(num.String())
		if err != nil || k < 0 || k >= len(g.Nodes) {
			return nil, bad("types[%d].node is not a node index", i)
		}
		t, err := str(o, "types", "type", i)
		if err != nil {
			return nil, err
		}
		g.Nodes[k].Types = append(g.Nodes[k].Types, t)
	}
	es, err := rows("edges", "from", "type", "to")
	if err != nil {
		return nil, err
	}
	for i, o := range es {
		var e graph.Edge
		if e.From, err = str(o, "edges", "from", i); err != nil {
			return nil, err
		}
		if e.Type, err = str(o, "edges", "type", i); err != nil {
			return nil, err
		}
		if e.To, err = str(o, "edges", "to", i); err != nil {
			return nil, err
		}
		g.Edges = append(g.Edges, e)
	}
	return g, nil
}
