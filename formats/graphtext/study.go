package graphtext

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/jsonobj"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/rdf"
)

// relName is the relation an edge is written with: its type, or
// DefaultRelation when it has none.
func relName(t string) string {
	if t == "" {
		return DefaultRelation
	}
	return t
}

// nbr is one neighbour of a node in the adjacency view of the study's
// formats: the other end and the edge type.
type nbr struct {
	to  int
	typ string
}

// adjacencyView returns, for each node of g (by index), its neighbours in
// edge order: successors for a directed graph, both ends for an undirected
// one. Repeated (neighbour, type) pairs are listed once when dedupType, or
// repeated neighbours whatever their type when dedupAll. Edges naming a node
// that is not listed are skipped; a duplicated id is the first such node.
func adjacencyView(g *graph.Graph, dedupAll bool) [][]nbr {
	idx := g.Index()
	out := make([][]nbr, len(g.Nodes))
	seen := make([]map[nbr]bool, len(g.Nodes))
	add := func(u, v int, t string) {
		k := nbr{v, t}
		if dedupAll {
			k.typ = ""
		}
		if seen[u] == nil {
			seen[u] = map[nbr]bool{}
		}
		if seen[u][k] {
			return
		}
		seen[u][k] = true
		out[u] = append(out[u], nbr{v, t})
	}
	for _, e := range g.Edges {
		u, ok1 := idx[e.From]
		v, ok2 := idx[e.To]
		if !ok1 || !ok2 {
			continue
		}
		add(u, v, e.Type)
		if !g.Directed && u != v {
			add(v, u, e.Type)
		}
	}
	return out
}

func nodeIDs(g *graph.Graph, f func(string) string) string {
	parts := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		parts[i] = f(n.ID)
	}
	return strings.Join(parts, ", ")
}

func ident(s string) string { return s }

// directed returns d for a directed graph and u for an undirected one: the
// study formats differ by direction only in their fixed words.
func directed(g *graph.Graph, d, u string) string {
	if g.Directed {
		return d
	}
	return u
}

// encAdjacency: "Graph (adjacency list):" then "id: [n1, n2]" per node.
func encAdjacency(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString(directed(g, "Graph (directed adjacency list):\n", "Graph (adjacency list):\n"))
	adj := adjacencyView(g, true)
	for i, n := range g.Nodes {
		w.WriteString(n.ID)
		w.WriteString(": [")
		for j, m := range adj[i] {
			if j > 0 {
				w.WriteString(", ")
			}
			w.WriteString(g.Nodes[m.to].ID)
		}
		w.WriteString("]\n")
	}
	return nil
}

// encEdgeList: a header with the direction, the node list and one edge per
// line. Identifiers that are not plain words are quoted (see tok), so the
// format is lossless.
func encEdgeList(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString(directed(g, "Graph (directed).\n", "Graph (undirected).\n"))
	w.WriteString("Nodes:")
	for i, n := range g.Nodes {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteByte(' ')
		w.WriteString(tok(n.ID))
		if n.Label != "" {
			w.WriteByte(' ')
			w.WriteString(strconv.Quote(n.Label))
		}
		if len(n.Types) > 0 {
			w.WriteString(" (")
			for j, t := range n.Types {
				if j > 0 {
					w.WriteString(", ")
				}
				w.WriteString(tok(t))
			}
			w.WriteByte(')')
		}
	}
	w.WriteString("\nEdges:\n")
	for _, e := range g.Edges {
		w.WriteString(tok(e.From))
		w.WriteByte(' ')
		switch {
		case e.Type == "" && g.Directed:
			w.WriteString("->")
		case e.Type == "":
			w.WriteString("--")
		default:
			w.WriteString("-[")
			w.WriteString(tok(e.Type))
			w.WriteString(directed(g, "]->", "]-"))
		}
		w.WriteByte(' ')
		w.WriteString(tok(e.To))
		w.WriteByte('\n')
	}
	return nil
}

// encMermaid: a Mermaid flowchart; nodes are N<index>.
func encMermaid(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString("graph TD\n")
	for i, n := range g.Nodes {
		w.WriteString("  N")
		w.WriteString(strconv.Itoa(i))
		text := n.Label
		if text == "" && n.ID != strconv.Itoa(i) {
			text = n.ID
		}
		if text != "" {
			w.WriteString(`["`)
			w.WriteString(mermaidText(text))
			w.WriteString(`"]`)
		}
		w.WriteByte('\n')
	}
	idx := g.Index()
	for _, e := range g.Edges {
		u, ok1 := idx[e.From]
		v, ok2 := idx[e.To]
		if !ok1 || !ok2 {
			continue
		}
		arrow := directed(g, "-->", "---")
		fmt.Fprintf(w, "  N%d %s", u, arrow)
		if e.Type != "" {
			w.WriteString("|")
			w.WriteString(mermaidText(e.Type))
			w.WriteString("|")
		}
		fmt.Fprintf(w, " N%d\n", v)
	}
	return nil
}

// mermaidText escapes text for a Mermaid label: quotes, pipes, brackets and
// line breaks become entity codes (#quot; #124; #91; #93;) or <br>.
func mermaidText(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString("#quot;")
		case '|':
			sb.WriteString("#124;")
		case '[':
			sb.WriteString("#91;")
		case ']':
			sb.WriteString("#93;")
		case '#':
			sb.WriteString("#35;")
		case '\n':
			sb.WriteString("<br>")
		case '\r', '\t':
			sb.WriteByte(' ')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// encMarkdown: the node list (or a node table when nodes have labels or
// types) and an edge table. Cells that are not plain words are quoted.
func encMarkdown(w *bufio.Writer, g *graph.Graph, _ Options) error {
	rich := false
	for _, n := range g.Nodes {
		if n.Label != "" || len(n.Types) > 0 {
			rich = true
			break
		}
	}
	if rich {
		w.WriteString("**Nodes**\n| id | label | types |\n|---|---|---|\n")
		for _, n := range g.Nodes {
			types := make([]string, len(n.Types))
			for i, t := range n.Types {
				types[i] = cell(t)
			}
			label := ""
			if n.Label != "" {
				label = cell(n.Label)
			}
			writeRow(w, cell(n.ID), label, strings.Join(types, ", "))
		}
	} else {
		w.WriteString("**Nodes:**")
		for i, n := range g.Nodes {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteByte(' ')
			w.WriteString(cell(n.ID))
		}
		w.WriteByte('\n')
	}
	typed := false
	for _, e := range g.Edges {
		if e.Type != "" {
			typed = true
			break
		}
	}
	w.WriteString("\n**Edges")
	if g.Directed {
		w.WriteString(" (directed)")
	}
	w.WriteString("**\n")
	if typed {
		w.WriteString("| u | relation | v |\n|---|---|---|\n")
	} else {
		w.WriteString("| u | v |\n|---|---|\n")
	}
	for _, e := range g.Edges {
		if typed {
			t := ""
			if e.Type != "" {
				t = cell(e.Type)
			}
			writeRow(w, cell(e.From), t, cell(e.To))
		} else {
			writeRow(w, cell(e.From), cell(e.To))
		}
	}
	return nil
}

func writeRow(w *bufio.Writer, cells ...string) {
	w.WriteByte('|')
	for _, c := range cells {
		w.WriteByte(' ')
		w.WriteString(c)
		w.WriteString(" |")
	}
	w.WriteByte('\n')
}

// encToonStudy: the study's TOON-style view, a header then pipe-separated
// rows.
func encToonStudy(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString("Nodes[id]:")
	if len(g.Nodes) > 0 {
		w.WriteByte(' ')
		w.WriteString(nodeIDs(g, tok))
	}
	w.WriteString(directed(g, "\nEdges[from|to]:\n", "\nEdges[u|v]:\n"))
	for _, e := range g.Edges {
		w.WriteString("  ")
		w.WriteString(tok(e.From))
		w.WriteString(" | ")
		w.WriteString(tok(e.To))
		w.WriteByte('\n')
	}
	return nil
}

// encNLSummary: prose, one sentence per node.
func encNLSummary(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString("The graph has ")
	if g.Directed {
		w.WriteString("directed edges and ")
	}
	w.WriteString("vertices labeled ")
	for i, n := range g.Nodes {
		if i > 0 {
			w.WriteString(", ")
		}
		w.WriteString(n.ID)
		if n.Label != "" {
			w.WriteString(" (")
			w.WriteString(n.Label)
			w.WriteByte(')')
		}
	}
	w.WriteString(".\n")
	adj := adjacencyView(g, false)
	for i, n := range g.Nodes {
		w.WriteString("Vertex ")
		w.WriteString(n.ID)
		if len(adj[i]) == 0 {
			w.WriteString(directed(g, " has no outgoing edges.\n", " is isolated.\n"))
			continue
		}
		w.WriteString(directed(g, " has edges to ", " is connected to "))
		for j, m := range adj[i] {
			if j > 0 {
				w.WriteString(", ")
			}
			w.WriteString(g.Nodes[m.to].ID)
			if m.typ != "" {
				w.WriteString(" (")
				w.WriteString(m.typ)
				w.WriteByte(')')
			}
		}
		w.WriteString(".\n")
	}
	return nil
}

// encRelationIndexed: the node list, then each relation (in order of first
// use) with its edges.
func encRelationIndexed(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString("Nodes:")
	if len(g.Nodes) > 0 {
		w.WriteByte(' ')
		w.WriteString(nodeIDs(g, ident))
	}
	w.WriteByte('\n')
	var order []string
	groups := map[string][]graph.Edge{}
	for _, e := range g.Edges {
		r := relName(e.Type)
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], e)
	}
	for _, r := range order {
		w.WriteString(r)
		w.WriteString(":\n")
		for _, e := range groups[r] {
			w.WriteString("  ")
			w.WriteString(e.From)
			w.WriteString(" -> ")
			w.WriteString(e.To)
			w.WriteByte('\n')
		}
	}
	return nil
}

// encStudyFriendship is Talk like a Graph's friendship text on the graph's
// own node identifiers and edge order.
func encStudyFriendship(w *bufio.Writer, g *graph.Graph, _ Options) error {
	ids := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.ID
	}
	w.WriteString("G describes a friendship graph among nodes ")
	if len(ids) > 0 {
		ns, _ := nodeString(ids, len(ids))
		w.WriteString(py.Strip(ns))
	}
	w.WriteString(".\n")
	if len(g.Edges) > 0 {
		w.WriteString("We have the following edges in G:\n")
	}
	for _, e := range g.Edges {
		fmt.Fprintf(w, "%s and %s are friends.\n", e.From, e.To)
	}
	return nil
}

// encText2KG applies the compact Text2KGBench ontology form to a graph:
// "Nodes: a, b,\nEdges: rel(a,b), ...".
func encText2KG(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString("Nodes: ")
	for _, n := range g.Nodes {
		w.WriteString(n.ID)
		w.WriteString(", ")
	}
	w.WriteString("\nEdges: ")
	for i, e := range g.Edges {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "%s(%s,%s)", strings.ReplaceAll(relName(e.Type), " ", "_"), e.From, e.To)
	}
	w.WriteByte('\n')
	return nil
}

// encEntityCentric: one section per node with its edges.
func encEntityCentric(w *bufio.Writer, g *graph.Graph, _ Options) error {
	adj := adjacencyView(g, false)
	for i, n := range g.Nodes {
		if i > 0 {
			w.WriteByte('\n')
		}
		w.WriteString("## ")
		w.WriteString(n.ID)
		if n.Label != "" {
			w.WriteString(" ")
			w.WriteString(strconv.Quote(n.Label))
		}
		if len(n.Types) > 0 {
			w.WriteString(" : ")
			w.WriteString(strings.Join(n.Types, ", "))
		}
		w.WriteByte('\n')
		if len(adj[i]) == 0 {
			w.WriteString(directed(g, "(no outgoing edges)\n", "(no edges)\n"))
		}
		for _, m := range adj[i] {
			w.WriteString("--[")
			w.WriteString(relName(m.typ))
			w.WriteString(directed(g, "]--> ", "]-- "))
			w.WriteString(g.Nodes[m.to].ID)
			w.WriteByte('\n')
		}
	}
	return nil
}

// encStructured: set-builder notation, G = (V, E).
func encStructured(w *bufio.Writer, g *graph.Graph, _ Options) error {
	w.WriteString(directed(g, "G = (V, E), directed\n", "G = (V, E), undirected\n"))
	w.WriteString("V = {")
	w.WriteString(nodeIDs(g, ident))
	w.WriteString("}\nE = {")
	typed := false
	for _, e := range g.Edges {
		if e.Type != "" {
			typed = true
		}
	}
	seen := map[string]bool{}
	first := true
	for _, e := range g.Edges {
		var s string
		switch {
		case typed:
			s = "(" + e.From + ", " + relName(e.Type) + ", " + e.To + ")"
		case g.Directed:
			s = "(" + e.From + ", " + e.To + ")"
		default:
			s = "{" + e.From + ", " + e.To + "}"
		}
		key := e.From + "\x00" + e.Type + "\x00" + e.To
		if !g.Directed {
			rev := e.To + "\x00" + e.Type + "\x00" + e.From
			if rev < key {
				key = rev
			}
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if !first {
			w.WriteString(", ")
		}
		first = false
		w.WriteString(s)
	}
	w.WriteString("}\n")
	return nil
}

// --- RDF-based formats ---

func namespace(opts Options) string {
	if opts.Namespace == "" {
		return DefaultNamespace
	}
	return opts.Namespace
}

// IRIRef writes a name in the namespace ns as Turtle: the prefixed name
// ":local" (the empty prefix bound to ns) when local is a plain Turtle
// local name, otherwise the full <IRI> with the name percent-encoded. The
// study's RDF formats and the ontology formats write their names with it.
func IRIRef(ns, local string) string {
	if plainLocal(local) {
		return ":" + local
	}
	return "<" + ns + PercentEncode(local) + ">"
}

func plainLocal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' ||
			(c == '-' || c == '.') && i > 0
		if !ok {
			return false
		}
	}
	return s[len(s)-1] != '.'
}

// PercentEncode percent-encodes every byte outside RFC 3986's unreserved
// set.
func PercentEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			sb.WriteByte(c)
		} else {
			sb.WriteByte('%')
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		}
	}
	return sb.String()
}

// subjectGroups returns, for each node (by first index of its id), its
// outgoing edges grouped by relation in order of first use; undirected
// edges count from their From end. Orphan subjects get their own group,
// after the nodes.
type subjGroup struct {
	id    string
	node  *graph.Node
	preds []string
	objs  map[string][]string
}

func subjects(g *graph.Graph) []*subjGroup {
	var out []*subjGroup
	byID := map[string]*subjGroup{}
	get := func(id string) *subjGroup {
		if s, ok := byID[id]; ok {
			return s
		}
		s := &subjGroup{id: id, objs: map[string][]string{}}
		byID[id] = s
		out = append(out, s)
		return s
	}
	for i := range g.Nodes {
		if _, dup := byID[g.Nodes[i].ID]; !dup {
			get(g.Nodes[i].ID).node = &g.Nodes[i]
		}
	}
	for _, e := range g.Edges {
		s := get(e.From)
		r := relName(e.Type)
		objs, ok := s.objs[r]
		if !ok {
			s.preds = append(s.preds, r)
		}
		dup := false
		for _, o := range objs {
			if o == e.To {
				dup = true
			}
		}
		if !dup {
			s.objs[r] = append(objs, e.To)
		}
	}
	return out
}

func encTurtle(w *bufio.Writer, g *graph.Graph, opts Options) error {
	ns := namespace(opts)
	fmt.Fprintf(w, "@prefix : <%s> .\n@prefix rdfs: <%s> .\n\n", ns, rdf.RDFSNS)
	for _, s := range subjects(g) {
		w.WriteString(IRIRef(ns, s.id))
		sep := " "
		if s.node != nil && len(s.node.Types) > 0 {
			w.WriteString(" a ")
			for i, t := range s.node.Types {
				if i > 0 {
					w.WriteString(", ")
				}
				w.WriteString(IRIRef(ns, t))
			}
			sep = " ;\n    "
		}
		if s.node != nil && s.node.Label != "" {
			w.WriteString(sep)
			w.WriteString("rdfs:label ")
			w.WriteString(rdf.QuoteLiteral(strings.ToValidUTF8(s.node.Label, "\uFFFD")))
			sep = " ;\n    "
		}
		for _, p := range s.preds {
			w.WriteString(sep)
			w.WriteString(IRIRef(ns, p))
			w.WriteByte(' ')
			for i, o := range s.objs[p] {
				if i > 0 {
					w.WriteString(", ")
				}
				w.WriteString(IRIRef(ns, o))
			}
			sep = " ;\n    "
		}
		if sep == " " {
			w.WriteString(" a rdfs:Resource")
		}
		w.WriteString(" .\n")
	}
	return nil
}

func encJSONLD(w *bufio.Writer, g *graph.Graph, opts Options) error {
	ns := namespace(opts)
	id := func(s string) string { return "n:" + PercentEncode(s) }
	ctx := jsonobj.Object{{Key: "@vocab", Value: ns}, {Key: "n", Value: ns}, {Key: "label", Value: rdf.RDFSNS + "label"}}
	var nodes []any
	for _, s := range subjects(g) {
		o := jsonobj.Object{{Key: "@id", Value: id(s.id)}}
		if s.node != nil && len(s.node.Types) > 0 {
			ts := make([]string, len(s.node.Types))
			for i, t := range s.node.Types {
				ts[i] = id(t)
			}
			o = append(o, jsonobj.Member{Key: "@type", Value: ts})
		}
		if s.node != nil && s.node.Label != "" {
			o = append(o, jsonobj.Member{Key: "label", Value: strings.ToValidUTF8(s.node.Label, "\uFFFD")})
		}
		for _, p := range s.preds {
			refs := make([]any, len(s.objs[p]))
			for i, x := range s.objs[p] {
				refs[i] = jsonobj.Object{{Key: "@id", Value: id(x)}}
			}
			key := id(p)
			if plainLocal(p) && p != "label" && p != "n" {
				key = p // a term of @vocab
			}
			o = append(o, jsonobj.Member{Key: key, Value: refs})
		}
		nodes = append(nodes, o)
	}
	if nodes == nil {
		nodes = []any{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonobj.Object{{Key: "@context", Value: ctx}, {Key: "@graph", Value: nodes}})
}

func encSHACL(w *bufio.Writer, g *graph.Graph, opts Options) error {
	ns := namespace(opts)
	fmt.Fprintf(w, "@prefix : <%s> .\n@prefix sh: <http://www.w3.org/ns/shacl#> .\n\n", ns)
	adj := adjacencyView(g, false)
	idx := g.Index()
	for i, n := range g.Nodes {
		if idx[n.ID] != i {
			continue
		}
		w.WriteString(IRIRef(ns, "Shape_"+n.ID))
		w.WriteString(" a sh:NodeShape ;\n    sh:targetNode ")
		w.WriteString(IRIRef(ns, n.ID))
		for _, t := range n.Types {
			w.WriteString(" ;\n    sh:class ")
			w.WriteString(IRIRef(ns, t))
		}
		var order []string
		objs := map[string][]int{}
		for _, m := range adj[i] {
			r := relName(m.typ)
			if _, ok := objs[r]; !ok {
				order = append(order, r)
			}
			if !containsInt(objs[r], m.to) {
				objs[r] = append(objs[r], m.to)
			}
		}
		for _, r := range order {
			fmt.Fprintf(w, " ;\n    sh:property [ sh:path %s ; sh:minCount %d ; sh:maxCount %d ; sh:in (", IRIRef(ns, r), len(objs[r]), len(objs[r]))
			for _, v := range objs[r] {
				w.WriteByte(' ')
				w.WriteString(IRIRef(ns, g.Nodes[v].ID))
			}
			w.WriteString(" ) ]")
		}
		w.WriteString(" .\n")
	}
	return nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
