package graphtext

import (
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
	"github.com/isolda/isolda/rdf/turtle"
)

// readBlocks reads a testdata file of "=== name" blocks.
func readBlocks(t *testing.T, path string) ([]string, map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	m := map[string]string{}
	cur := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "=== "); ok {
			cur = strings.TrimSuffix(name, "\n")
			names = append(names, cur)
			continue
		}
		if cur != "" {
			m[cur] += line
		}
	}
	return names, m
}

func fourCycle() *graph.Graph { return simpleGraph(4, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, false) }

// TestTLAGFourCycle checks every Talk-like-a-Graph encoder byte for byte on
// the 4-cycle (testdata/tlag_4cycle.txt names the source of each text).
func TestTLAGFourCycle(t *testing.T) {
	names, want := readBlocks(t, filepath.Join("testdata", "tlag_4cycle.txt"))
	pass := 0
	for _, name := range names {
		got := encodeString(t, fourCycle(), name, Options{})
		if got != want[name] {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want[name])
			continue
		}
		pass++
	}
	var tlag []string
	for _, n := range Names() {
		if strings.HasPrefix(n, "tlag_") {
			tlag = append(tlag, n)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(tlag)), slices.Sorted(slices.Values(names))) {
		t.Errorf("testdata covers %v, registry has %v", names, tlag)
	}
	t.Logf("Talk like a Graph 4-cycle: %d passed, %d failed", pass, len(names)-pass)
}

// TestTLAGBenchmarksDoc checks the encoders against the 4-cycle texts of
// ../shared/reference/benchmarks.md section 2.2 themselves (the texts with
// "..." are compared as prefix and suffix).
func TestTLAGBenchmarksDoc(t *testing.T) {
	sec := shared.Section(t, "### 2.2 Encoders", "### 2.3 Tasks", "reference", "benchmarks.md")
	cases := map[string][]string{
		"- adjacency: `":                      {"tlag_adjacency"},
		"- incident: `":                       {"tlag_incident"},
		"- friendship, got and south_park: `": {"tlag_friendship"},
		"- social_network and politician: `":  {"tlag_politician"},
		"- coauthorship: `":                   {"tlag_coauthorship"},
		"- expert: `":                         {"tlag_expert"},
	}
	n := 0
	for prefix, encs := range cases {
		k := strings.Index(sec, prefix)
		if k < 0 {
			t.Errorf("no %q line in benchmarks.md 2.2", prefix)
			continue
		}
		rest := sec[k+len(prefix):]
		want := strings.ReplaceAll(rest[:strings.Index(rest, "`")], `\n`, "\n")
		for _, enc := range encs {
			got := encodeString(t, fourCycle(), enc, Options{})
			head, tail, elided := strings.Cut(want, "...")
			if enc == "tlag_coauthorship" {
				// "....\n": the elision, then the last line's "..".
				head, tail, elided = strings.Cut(want, "...John")
				tail = "John" + tail
				head = strings.Replace(head, "nodes .", "nodes ", 1)
				head = head[:strings.Index(head, "nodes ")+len("nodes ")]
			}
			ok := got == want
			if elided {
				ok = strings.HasPrefix(got, head) && strings.HasSuffix(got, tail)
			}
			if !ok {
				t.Errorf("%s: got %q, benchmarks.md has %q", enc, got, want)
			}
			n++
		}
	}
	t.Logf("benchmarks.md 2.2: %d texts checked", n)
}

func TestTLAGQuirks(t *testing.T) {
	noEdges := simpleGraph(3, nil, false)
	for name, want := range map[string]string{
		"tlag_adjacency":    "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. G describes a graph among nodes 0, 1, and 2..\n",
		"tlag_incident":     "G describes a graph among nodes 0, 1, and 2.\n",
		"tlag_coauthorship": "G describes a coauthorship graph among nodes James, Robert, and John..\n",
		"tlag_friendship":   "G describes a friendship graph among nodes James, Robert, and John.\n",
		"tlag_expert":       "You are a graph analyst and you have been given a graph G among nodes A, B, and C.\n",
	} {
		if got := encodeString(t, noEdges, name, Options{}); got != want {
			t.Errorf("%s without edges: got %q, want %q", name, got, want)
		}
	}
	// Directed: the adjacency header changes and every arc is listed.
	dir := simpleGraph(3, [][2]int{{0, 1}, {1, 0}, {2, 1}}, true)
	if got, want := encodeString(t, dir, "tlag_adjacency", Options{}), "In a directed graph, (i,j) means that there is an edge from node i to node j. G describes a graph among nodes 0, 1, and 2.\nThe edges in G are: (0, 1) (1, 0) (2, 1).\n"; got != want {
		t.Errorf("directed adjacency: got %q, want %q", got, want)
	}
	if got, want := encodeString(t, dir, "tlag_incident", Options{}), "G describes a graph among nodes 0, 1, and 2.\nIn this graph:\nNode 0 is connected to node 1.\nNode 1 is connected to node 0.\nNode 2 is connected to node 1.\n"; got != want {
		t.Errorf("directed incident: got %q, want %q", got, want)
	}
	for _, name := range []string{"tlag_friendship", "tlag_coauthorship", "tlag_social_network", "tlag_politician", "tlag_got", "tlag_south_park"} {
		if err := Encode(new(strings.Builder), dir, name, Options{}); err == nil {
			t.Errorf("%s accepted a directed graph", name)
		}
	}
	// Single node: create_node_string gives "and 0".
	if got, want := encodeString(t, simpleGraph(1, nil, false), "tlag_adjacency", Options{}), "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. G describes a graph among nodes and 0..\n"; got != want {
		t.Errorf("one node: got %q, want %q", got, want)
	}
	// Adjacency insertion order: node 2's neighbours are 3 then 0; a
	// repeated edge (either way round) is ignored; a self-loop is listed.
	g := simpleGraph(4, [][2]int{{2, 3}, {0, 2}, {3, 2}, {1, 1}}, false)
	if got, want := encodeString(t, g, "tlag_incident", Options{}), "G describes a graph among nodes 0, 1, 2, and 3.\nIn this graph:\nNode 0 is connected to node 2.\nNode 1 is connected to node 1.\nNode 2 is connected to nodes 3, 0.\nNode 3 is connected to node 2.\n"; got != want {
		t.Errorf("insertion order: got %q, want %q", got, want)
	}
	if got, want := encodeString(t, g, "tlag_expert", Options{}), "You are a graph analyst and you have been given a graph G among nodes A, B, C, and D.\nG has the following undirected edges:\nA -> C\nB -> B\nC -> D\n"; got != want {
		t.Errorf("edges() order: got %q, want %q", got, want)
	}
	// The politician list has 19 names; the alphabet 21.
	if err := Encode(new(strings.Builder), simpleGraph(20, nil, false), "tlag_politician", Options{}); err == nil {
		t.Error("tlag_politician accepted 20 nodes")
	}
	if err := Encode(new(strings.Builder), simpleGraph(0, nil, false), "tlag_adjacency", Options{}); err == nil {
		t.Error("empty graph accepted")
	}
	if got, want := encodeString(t, simpleGraph(2, [][2]int{{0, 1}}, false), "tlag_friendship", Options{UseIDs: true}), "G describes a friendship graph among nodes 0, and 1.\nWe have the following edges in G:\n0 and 1 are friends.\n"; got != want {
		t.Errorf("UseIDs: got %q, want %q", got, want)
	}
}

// collapse joins the whitespace-separated fields of s with single spaces,
// as the spec's HTML extraction did to appendix H.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func readAppendix(t *testing.T, path, specSection string) [][2]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sec := shared.Section(t, specSection, "", "spec", "001_2264b1b960dd163f.txt")
	var out [][2]string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad testdata line %q", line)
		}
		// The testdata must be the spec's own text, under the format's
		// heading in the right appendix section.
		if !strings.Contains(sec, "\n"+name+".\n\n"+text+"\n") {
			t.Errorf("testdata for %s is not in the spec's %s", name, specSection)
		}
		out = append(out, [2]string{name, text})
	}
	return out
}

// noExampleH2 lists the formats appendix H.2 only describes in words.
var noExampleH2 = map[string]string{
	"friendship":     "cited to Fatemi et al.; checked as Talk like a Graph's friendship text on the graph's own ids (TestStudyFriendship)",
	"turtle":         "cited to the Turtle spec; checked by parsing with rdf/turtle (TestRDFFormatsParse)",
	"jsonld":         "cited to JSON-LD; checked by parsing with rdf/jsonld (TestRDFFormatsParse)",
	"structured":     "described as a compact set-builder form, no text",
	"dot":            "described as Graphviz DOT, no text; lossless, round-trip tested",
	"text2kgbench":   "described as the Text2KGBench form applied to a graph, no text",
	"entity_centric": "described as a per-vertex outgoing-edge view, no text",
	"shacl_lite":     "described as a SHACL-lite (sh:minCount/sh:maxCount) view, no text; checked by parsing with rdf/turtle",
}

// TestAppendixH2 reproduces every example of appendix H.2 on the reference
// graph.
func TestAppendixH2(t *testing.T) {
	cases := readAppendix(t, filepath.Join("testdata", "appendix_h2.txt"), "H.2 All 15")
	pass := 0
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c[0]] = true
		got := collapse(encodeString(t, referenceGraph(), c[0], Options{}))
		if got != c[1] {
			t.Errorf("%s:\n got %q\nwant %q", c[0], got, c[1])
			continue
		}
		pass++
	}
	for _, n := range StudyNames() {
		if !seen[n] && noExampleH2[n] == "" {
			t.Errorf("%s: neither reproduced nor listed as without an example", n)
		}
	}
	t.Logf("appendix H.2: %d passed, %d failed", pass, len(cases)-pass)
	for _, n := range slices.Sorted(maps.Keys(noExampleH2)) {
		t.Logf("  no example: %-15s %s", n, noExampleH2[n])
	}
}

func TestStudyFriendship(t *testing.T) {
	got := encodeString(t, referenceGraph(), "friendship", Options{})
	want := encodeString(t, referenceGraph(), "tlag_friendship", Options{UseIDs: true})
	if got != want {
		t.Errorf("friendship: got %q, want the Talk-like-a-Graph text %q", got, want)
	}
}

func TestRegistry(t *testing.T) {
	study := []string{"turtle", "jsonld", "shacl_lite", "text2kgbench", "entity_centric", "relation_indexed", "markdown_table", "toon", "mermaid", "dot", "adjacency", "edge_list", "structured", "nl_summary", "friendship"}
	if !slices.Equal(StudyNames(), study) {
		t.Errorf("StudyNames() = %v", StudyNames())
	}
	families := map[string]string{"turtle": FamilySemanticWeb, "jsonld": FamilySemanticWeb, "shacl_lite": FamilyConstraint,
		"text2kgbench": FamilyStructured, "entity_centric": FamilyStructured, "relation_indexed": FamilyStructured,
		"markdown_table": FamilyTabular, "toon": FamilyTabular, "mermaid": FamilyDiagram, "dot": FamilyDiagram,
		"adjacency": FamilyConnect, "edge_list": FamilyConnect, "structured": FamilyConnect, "nl_summary": FamilyProse, "friendship": FamilyProse}
	for _, f := range Formats() {
		if want, ok := families[f.Name]; ok && f.Family != want {
			t.Errorf("%s: family %q, the study's section 3 says %q", f.Name, f.Family, want)
		}
		if f.Lossless != (f.Loses == "") {
			t.Errorf("%s: Lossless %v but Loses %q", f.Name, f.Lossless, f.Loses)
		}
		if f.Source == "" {
			t.Errorf("%s: no source", f.Name)
		}
		if _, err := Decode(strings.NewReader(""), f.Name); (err == nil) || f.Lossless != !strings.Contains(err.Error(), "no decoder") {
			t.Errorf("%s: Decode of empty input: %v", f.Name, err)
		}
	}
	if err := Encode(new(strings.Builder), referenceGraph(), "nope", Options{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// lostAspects lists, for each lossy format, the transforms that leave its
// output unchanged on labelledGraph (undirected, directed); every other
// transform must change it. Loses must name each lost aspect.
var lostAspects = map[string][2][]string{
	"turtle":              {{"direction", "parallel edge"}, {"direction", "parallel edge"}},
	"jsonld":              {{"direction", "parallel edge"}, {"direction", "parallel edge"}},
	"shacl_lite":          {{"labels", "parallel edge", "edge ends", "orphan edge"}, {"labels", "parallel edge", "orphan edge"}},
	"text2kgbench":        {{"labels", "types", "direction"}, {"labels", "types", "direction"}},
	"entity_centric":      {{"parallel edge", "edge ends", "orphan edge"}, {"parallel edge", "orphan edge"}},
	"relation_indexed":    {{"labels", "types", "direction"}, {"labels", "types", "direction"}},
	"toon":                {{"labels", "types", "edge types"}, {"labels", "types", "edge types"}},
	"mermaid":             {{"types", "orphan edge"}, {"types", "orphan edge"}},
	"adjacency":           {{"labels", "types", "edge types", "parallel edge", "edge ends", "orphan edge"}, {"labels", "types", "edge types", "parallel edge", "orphan edge"}},
	"structured":          {{"labels", "types", "parallel edge"}, {"labels", "types", "parallel edge"}},
	"nl_summary":          {{"types", "parallel edge", "edge ends", "orphan edge"}, {"types", "parallel edge", "orphan edge"}},
	"friendship":          {{"labels", "types", "edge types", "direction"}, {"labels", "types", "edge types", "direction"}},
	"tlag_adjacency":      {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}, {"labels", "types", "edge types", "parallel edge", "ids"}},
	"tlag_incident":       {{"labels", "types", "edge types", "parallel edge", "edge ends"}, {"labels", "types", "edge types", "parallel edge"}},
	"tlag_expert":         {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}, {"labels", "types", "edge types", "parallel edge", "ids"}},
	"tlag_random":         {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}, {"labels", "types", "edge types", "parallel edge", "ids"}},
	"tlag_friendship":     {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
	"tlag_coauthorship":   {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
	"tlag_social_network": {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
	"tlag_politician":     {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
	"tlag_got":            {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
	"tlag_south_park":     {{"labels", "types", "edge types", "parallel edge", "edge ends", "ids"}},
}

// lossWords is how Loses names each aspect.
var lossWords = map[string]string{
	"labels": "labels", "types": "types", "edge types": "edge types", "direction": "direction",
	"parallel edge": "parallel edges", "edge ends": "which end of an edge", "orphan edge": "unlisted nodes",
	"ids": "identifiers",
}

// TestLossyFormatsLoseWhatTheySay shows, for each lossy format, that graphs
// differing only in an aspect Loses names give the same text, and graphs
// differing in any other aspect give different texts.
func TestLossyFormatsLoseWhatTheySay(t *testing.T) {
	checked := 0
	for _, f := range Formats() {
		if f.Lossless {
			continue
		}
		sets, ok := lostAspects[f.Name]
		if !ok {
			t.Errorf("%s: no lost-aspect table entry", f.Name)
			continue
		}
		for d, lost := range sets {
			if lost == nil {
				continue
			}
			base := labelledGraph()
			base.Directed = d == 1
			want := encodeString(t, base, f.Name, Options{})
			for _, tr := range transforms {
				h := cloneGraph(base)
				tr.f(h)
				var sb strings.Builder
				err := Encode(&sb, h, f.Name, Options{})
				same := err == nil && sb.String() == want
				if same != slices.Contains(lost, tr.name) {
					t.Errorf("%s (directed=%v): changing %s leaves the text the same: %v (err %v)", f.Name, base.Directed, tr.name, same, err)
				}
				if slices.Contains(lost, tr.name) && !strings.Contains(f.Loses, lossWords[tr.name]) {
					t.Errorf("%s: loses %s but Loses %q does not say %q", f.Name, tr.name, f.Loses, lossWords[tr.name])
				}
			}
			checked++
		}
		for _, w := range []string{"labels", "direction", "parallel edges", "unlisted nodes", "which end of an edge"} {
			says := strings.Contains(f.Loses, w)
			loses := false
			for _, lost := range sets {
				for _, a := range lost {
					loses = loses || lossWords[a] == w
				}
			}
			if says && !loses {
				t.Errorf("%s: Loses says %q but the text keeps it", f.Name, w)
			}
		}
	}
	t.Logf("lossy formats: %d (format, direction) cases checked against %d transforms", checked, len(transforms))
}

// hostileGraph is testgraph's hostile labelled graph with identifiers that
// are not UTF-8 too (the formats refuse them).
func hostileGraph(r *rand.Rand) *graph.Graph {
	return testgraph.Labelled(r, testgraph.LabelledOptions{NotUTF8: true})
}

func losslessNames() []string {
	var out []string
	for _, f := range Formats() {
		if f.Lossless {
			out = append(out, f.Name)
		}
	}
	return out
}

// TestLosslessRoundTrip encodes fixed and random hostile graphs in every
// lossless format and decodes them back.
func TestLosslessRoundTrip(t *testing.T) {
	fixed := []*graph.Graph{
		referenceGraph(),
		fourCycle(),
		labelledGraph(),
		{},
		{Directed: true},
		{Nodes: []graph.Node{{ID: ""}, {ID: "a|b", Label: "x\ty"}, {ID: "a\nb", Types: []string{"", " ", "T U"}}},
			Edges: []graph.Edge{{From: "", To: "a|b", Type: "->"}, {From: "a\nb", To: "a\nb"}, {From: "ghost", To: "", Type: "\\"}}},
		{Directed: true, Nodes: []graph.Node{{ID: "same", Label: "L"}, {ID: "same", Label: "L"}, {ID: "1.0"}, {ID: "-1"}, {ID: "graph"}},
			Edges: []graph.Edge{{From: "same", To: "1.0", Type: "ends with ]-"}, {From: "1.0", To: "same", Type: "ends with ]-"}}},
	}
	r := rand.New(rand.NewPCG(2026, 11))
	graphs := slices.Clone(fixed)
	for range 300 {
		graphs = append(graphs, hostileGraph(r))
	}
	for _, name := range losslessNames() {
		pass, rejected := 0, 0
		for i, g := range graphs {
			var sb strings.Builder
			if err := Encode(&sb, g, name, Options{}); err != nil {
				// toon_spec refuses strings that are not UTF-8 rather than
				// lose them.
				if name == "toon_spec" && errors.Is(err, ErrInvalidUTF8) && !validGraphUTF8(g) {
					rejected++
					continue
				}
				t.Errorf("%s graph %d: %v", name, i, err)
				continue
			}
			text := sb.String()
			back, err := Decode(strings.NewReader(text), name)
			if err != nil {
				t.Errorf("%s graph %d: decode: %v\n%s", name, i, err, text)
				continue
			}
			if !Equal(g, back) {
				t.Errorf("%s graph %d: round trip changed the graph\n in: %#v\nout: %#v\n%s", name, i, g, back, text)
				continue
			}
			pass++
		}
		t.Logf("%s round trip: %d passed, %d failed (%d refused: not UTF-8)", name, pass, len(graphs)-pass-rejected, rejected)
	}
}

// TestDecodeErrors checks that malformed input is an *rdf.ParseError at the
// right line and column.
func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		format, in string
		line, col  int
	}{
		{"edge_list", "Graph (sideways).\n", 1, 1},
		{"edge_list", "Graph (undirected).\nNodes: a, b\nEdges:\na -> b\n", 4, 3},
		{"edge_list", "Graph (undirected).\nNodes: a, b\nEdges:\na -- \"b\n", 4, 6},
		{"edge_list", "Graph (undirected).\nNodes: a,, b\nEdges:\n", 2, 10},
		{"edge_list", "Graph (undirected).\nNodes: a\nEdges:\na -- b c\n", 4, 7},
		{"edge_list", "Graph (undirected).\nNodes: a\nEdges:\na -- b", 4, 7},
		{"edge_list", "Graph (undirected).\nNodes: \"\\q\"\nEdges:\n", 2, 8},
		{"markdown_table", "**Nodes:** a\n\n**Edges**\n| u | v |\n|---|---|\n| a | b | c |\n", 6, 1},
		{"markdown_table", "**Nodes:** a\n\n**Edges**\n| u | w |\n", 4, 7},
		{"markdown_table", "**Nodes:** a\n\n**Edges**\n| u | v |\n|---|---|\n| a b | c |\n", 6, 4},
		{"markdown_table", "**Nodes**\n| id | label | types |\n|---|---|---|\n| a | \"x | T |\n", 4, 7},
		{"dot", "graph G {\n  a -> b;\n}\n", 2, 4},
		{"dot", "digraph G {\n  a -> b [color=\"red\"];\n}\n", 2, 11},
		{"dot", "graph G {\n  \"a\\qb\";\n}\n", 2, 5},
		{"dot", "graph G {\n  a;\n", 2, 1},
		{"dot", "graph G {\n  a [class=\"x\\\\q\"];\n}\n", 2, 4},
		{"toon_spec", "directed: maybe\nnodes[0]:\ntypes[0]:\nedges[0]:\n", 1, 1},
		{"toon_spec", "directed: true\nnodes[2]{id,label}:\n  a,b\n", 2, 1},
	}
	for _, c := range cases {
		_, err := Decode(strings.NewReader(c.in), c.format)
		perrtest.At(t, err, "", c.line, c.col, "", "%s %q", c.format, c.in)
	}
}

// TestRDFFormatsParse checks that turtle and shacl_lite are Turtle and
// jsonld is JSON-LD that the project's W3C-conformant readers accept, with
// the expected number of triples, on the reference and hostile graphs.
func TestRDFFormatsParse(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	graphs := []*graph.Graph{referenceGraph(), labelledGraph()}
	for range 100 {
		graphs = append(graphs, hostileGraph(r))
	}
	for i, g := range graphs {
		// The turtle and jsonld graphs: one triple per distinct edge, type
		// and label, plus one "a rdfs:Resource" per otherwise empty node.
		want := map[string]bool{}
		subj := map[string]bool{}
		idx := g.Index()
		for _, e := range g.Edges {
			want[e.From+"\x00"+relName(e.Type)+"\x00"+e.To] = true
			subj[e.From] = true
		}
		for j, n := range g.Nodes {
			if idx[n.ID] != j {
				continue
			}
			for _, ty := range n.Types {
				want[n.ID+"\x00type\x00"+ty] = true
			}
			if n.Label != "" {
				want[n.ID+"\x00label"] = true
			}
			if len(n.Types) == 0 && n.Label == "" && !subj[n.ID] {
				want[n.ID+"\x00resource"] = true
			}
		}
		for _, name := range []string{"turtle", "jsonld"} {
			text := encodeString(t, g, name, Options{})
			d := rdf.NewDataset()
			var err error
			if name == "turtle" {
				err = turtle.Parse(strings.NewReader(text), turtle.Turtle, d, rdf.ReadOptions{})
			} else {
				err = jsonld.Parse(strings.NewReader(text), d, jsonld.Options{})
			}
			if err != nil {
				t.Errorf("graph %d %s: %v\n%s", i, name, err, text)
				continue
			}
			wantN := len(want)
			if name == "jsonld" {
				// JSON-LD has no "a rdfs:Resource": an empty node object
				// gives no triple.
				for k := range want {
					if strings.HasSuffix(k, "\x00resource") {
						wantN--
					}
				}
			}
			if d.Len() != wantN {
				t.Errorf("graph %d %s: %d triples, want %d\n%s", i, name, d.Len(), wantN, text)
			}
		}
		text := encodeString(t, g, "shacl_lite", Options{})
		if err := turtle.Parse(strings.NewReader(text), turtle.Turtle, rdf.NewDataset(), rdf.ReadOptions{}); err != nil {
			t.Errorf("graph %d shacl_lite: %v\n%s", i, err, text)
		}
	}
}

func TestEncodeWriterError(t *testing.T) {
	for _, name := range Names() {
		err := Encode(failWriter{}, labelledGraph(), name, Options{})
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("%s: write error not reported: %v", name, err)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("boom") }
