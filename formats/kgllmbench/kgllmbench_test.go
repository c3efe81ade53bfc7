package kgllmbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// hostileFixture is testdata/hostile.json, written by the real PyYAML and
// Python json/urllib (testdata/gen_hostile.py).
type hostileFixture struct {
	Entities  []string `json:"entities"`
	Relations []string `json:"relations"`
	Edges     [][3]int `json:"edges"`
	YAML      string   `json:"yaml"`
	JSON      string   `json:"json"`
	Quote     []string `json:"quote"`
	PyYAML    string   `json:"pyyaml"`
}

// readFixture decodes the JSON file testdata/name into v and returns its
// bytes.
func readFixture(t *testing.T, name string, v any) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
	return b
}

func loadHostile(t *testing.T) (*hostileFixture, *KG) {
	t.Helper()
	var f hostileFixture
	readFixture(t, "hostile.json", &f)
	kg := &KG{}
	for i, l := range f.Entities {
		kg.Entities = append(kg.Entities, Entity{ID: strconv.Itoa(i), Label: l})
	}
	for i, l := range f.Relations {
		kg.Relations = append(kg.Relations, Relation{ID: strconv.Itoa(i), Label: l})
	}
	for _, e := range f.Edges {
		kg.Edges = append(kg.Edges, Edge{Head: strconv.Itoa(e[0]), Relation: strconv.Itoa(e[1]), Tail: strconv.Itoa(e[2])})
	}
	return &f, kg
}

// TestHostileYAMLJSON checks PyYAML's quoting, escaping, complex keys and
// folding, and json.dumps's escaping, on adversarial labels.
func TestHostileYAMLJSON(t *testing.T) {
	f, kg := loadHostile(t)
	for _, c := range []struct{ format, want string }{{"structured_yaml", f.YAML}, {"structured_json", f.JSON}} {
		var buf bytes.Buffer
		if err := Textualize(&buf, kg, c.format); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != c.want {
			n, x, y := firstDiff(got, c.want)
			t.Errorf("%s differs from Python (PyYAML %s) at line %d:\n got %q\nwant %q", c.format, f.PyYAML, n, x, y)
		} else {
			msg := fmt.Sprintf("kgllmbench hostile %s: byte-exact (%d bytes, %d edges)", c.format, len(got), len(kg.Edges))
			t.Log(msg)
		}
	}
}

func TestURLQuote(t *testing.T) {
	f, _ := loadHostile(t)
	in := append(append([]string(nil), f.Entities...), f.Relations...)
	if len(in) != len(f.Quote) {
		t.Fatalf("fixture has %d quotes for %d labels", len(f.Quote), len(in))
	}
	for i, s := range in {
		if got := py.URLQuote(s); got != f.Quote[i] {
			t.Errorf("py.URLQuote(%q) = %q, want %q", s, got, f.Quote[i])
		}
	}
}

// TestFormatExamples reproduces testdata/format_examples.txt (a copy of
// shared/data/kgllmbench/format_examples.txt, 6 kB): the output of
// KG-LLM-Bench's own textualizers (MIT, per its README) on an 8-edge
// subgraph of its Countries KG (Wikidata facts, CC0).
func TestFormatExamples(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "format_examples.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := shared.Path("data", "kgllmbench", "format_examples.txt"); err == nil {
		if orig, err := os.ReadFile(p); err == nil && !bytes.Equal(orig, b) {
			t.Errorf("testdata/format_examples.txt differs from %s", p)
		}
	}
	sections := map[string]string{}
	var order []string
	for _, part := range strings.Split(string(b), "##### ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		sections[name] = body
		order = append(order, name)
	}
	labels := map[string]string{"0": "Belgium", "3101": "Luxembourg", "2671": "France", "1814": "Netherlands",
		"22010": "euro", "29831": "Luxembourg franc", "20867": "Europe"}
	kg := &KG{Relations: []Relation{{ID: "40", Label: "shares border with"}, {ID: "4", Label: "currency"}, {ID: "21", Label: "continent"}}}
	for _, id := range []string{"0", "3101", "2671", "1814", "22010", "29831", "20867"} {
		kg.Entities = append(kg.Entities, Entity{ID: id, Label: labels[id]})
	}
	for _, e := range [][3]string{{"0", "40", "3101"}, {"0", "40", "2671"}, {"0", "40", "1814"}, {"3101", "40", "2671"},
		{"3101", "40", "0"}, {"3101", "4", "22010"}, {"3101", "4", "29831"}, {"3101", "21", "20867"}} {
		kg.Edges = append(kg.Edges, Edge{Head: e[0], Relation: e[1], Tail: e[2]})
	}
	pass := 0
	for _, name := range order {
		want := sections[name]
		var buf bytes.Buffer
		if err := Textualize(&buf, kg, name); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := buf.String()
		// The generator of the file printed structured_json with a final
		// newline (json.dumps returns none; the JSON-LD sections show the
		// serializer's own ending), so that one separator is not ours.
		if !strings.HasSuffix(got, "\n") && want == got+"\n" {
			want = got
		}
		// The file was written under an unknown PYTHONHASHSEED, so its
		// JSON-LD node order is one of many; node sets must agree.
		if same, diff := sameText(name, got, want); !same && diff != diffNodeOrder {
			t.Errorf("format example %s: %s", name, diff)
			continue
		}
		pass++
	}
	msg := fmt.Sprintf("kgllmbench format_examples.txt: %d/%d sections exact (JSON-LD up to node order)", pass, len(order))
	t.Log(msg)
	if len(order) != 7 {
		t.Errorf("%d sections, want 7", len(order))
	}
}

// TestCountries checks the Countries loader against the documented
// networkx DiGraph counts (shared/reference/benchmarks.md §1.1).
func TestCountries(t *testing.T) {
	kg, err := LoadCountries(filepath.Join(kgDir(t), "countries"))
	if err != nil {
		t.Fatal(err)
	}
	loops, core := 0, 0
	for _, e := range kg.Edges {
		if e.Head == e.Tail {
			loops++
		}
	}
	for _, e := range kg.Entities {
		if e.Core {
			core++
		}
	}
	msg := fmt.Sprintf("kgllmbench Countries: %d entities (%d core), %d relations, %d edges, %d self-loops",
		len(kg.Entities), core, len(kg.Relations), len(kg.Edges), loops)
	t.Log(msg)
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"edges", len(kg.Edges), 60921}, {"self-loops", loops, 353}, {"entities", len(kg.Entities), 30783},
		{"core entities", core, 3557}, {"relations", len(kg.Relations), 166},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
	// The documented example self-loop (Belgium, country, Belgium) and
	// the pandas NA label.
	ents := map[string]Entity{}
	for _, e := range kg.Entities {
		ents[e.ID] = e
	}
	found := false
	for _, e := range kg.Edges {
		if e.Head == "0" && e.Tail == "0" && e.Relation == "11" {
			found = true
		}
	}
	if !found || ents["0"].Label != "Belgium" {
		t.Errorf("missing (Belgium, country, Belgium)")
	}
	if got := ents["26070"].Label; got != "nan" {
		t.Errorf("entity 26070 label = %q, want pandas' %q", got, "nan")
	}
	if got := ents["17693"].Label; got != `"Dictablanda" del general Berenguer` {
		t.Errorf("quoted TSV field = %q", got)
	}
}

// TestCountriesOverwrite checks the DiGraph semantics on a tiny graph: a
// repeated (head, tail) pair keeps its position and takes the later
// relation; attribute rows with unknown relations are skipped.
func TestCountriesOverwrite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("entities.tsv", "entityID\twikidataID\tlabel\n0\tQ1\tA\n1\tQ2\tB\n2\tQ3\tC\n")
	write("nodes.tsv", "entityID\twikidataID\tlabel\n1\tQ2\tB\n")
	write("relations.tsv", "relationID\twikidataID\tlabel\n0\tP1\tr0\n1\tP2\tr1\n")
	write("edges.tsv", "headEntity\ttailEntity\trelation\n1\t2\t0\n0\t1\t0\n1\t0\t0\n")
	write("attributes.tsv", "headEntity\ttailEntity\trelation\n1\t2\t1\n2\t2\t1\n0\t2\t9\n")
	kg, err := LoadCountries(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Edge{{Head: "0", Relation: "0", Tail: "1"}, {Head: "1", Relation: "1", Tail: "2"}, {Head: "1", Relation: "0", Tail: "0"}, {Head: "2", Relation: "1", Tail: "2"}}
	if fmt.Sprint(kg.Edges) != fmt.Sprint(want) {
		t.Errorf("edges = %v, want %v", kg.Edges, want)
	}
	if !kg.Entities[1].Core || kg.Entities[0].Core {
		t.Errorf("core flags wrong: %+v", kg.Entities)
	}
	write("edges.tsv", "headEntity\ttailEntity\trelation\n1\t2\t7\n")
	_, err = LoadCountries(dir)
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("unknown relation in edges.tsv: err = %v, want a ParseError on line 2", err)
	}
	write("edges.tsv", "headEntity\ttailEntity\trelation\n1\tx\t0\n")
	if _, err = LoadCountries(dir); !errors.As(err, &pe) {
		t.Errorf("bad id: err = %v, want a ParseError", err)
	}
}

func TestLoadInstancesErrors(t *testing.T) {
	good := `{"task":"T","variant":"real","id":3,"question":"q","answer":"Yes","edges":[[1,"a",2,"r",3,"b"]],"entities":[{"entity_id":1,"wikidata_id":"Q1","label":"a","core":true},{"entity_id":3,"wikidata_id":"Q3","label":"b","core":false}],"relations":[{"relation_id":2,"wikidata_id":"P2","label":"r"}],"core_node_ids":[1],"fields":{"x":1},"pseudonym_mapping":{"3":"Zed","1":"Ay"}}`
	insts, err := LoadInstances(strings.NewReader(good + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	in := insts[0]
	if in.ID != 3 || len(in.KG.Edges) != 1 || in.KG.Edges[0] != (Edge{"1", "2", "3", "r"}) || !in.KG.Entities[0].Core ||
		fmt.Sprint(in.Pseudonyms) != "[{3 Zed} {1 Ay}]" || string(in.Answer) != `"Yes"` {
		t.Errorf("decoded %+v", in)
	}
	for _, bad := range []string{
		good + "\n{",
		good + "\n" + `{"edges":[[1,2]]}`,
		good + "\n" + `{"edges":[["1","a",2,"r",3,"b"]]}`,
		good + "\n" + `{"pseudonym_mapping":[1]}`,
	} {
		_, err := LoadInstances(strings.NewReader(bad))
		var pe *rdf.ParseError
		if !errors.As(err, &pe) || pe.Line != 2 {
			t.Errorf("LoadInstances(%q): err = %v, want a ParseError on line 2", bad[len(good):], err)
		}
	}
}

func TestUnknownFormatAndEdges(t *testing.T) {
	kg := &KG{Entities: []Entity{{ID: "1", Label: "a"}}, Relations: []Relation{{ID: "2", Label: "r"}}, Edges: []Edge{{Head: "1", Relation: "2", Tail: "9"}}}
	if err := Textualize(&bytes.Buffer{}, kg, "nope"); err == nil {
		t.Error("unknown format accepted")
	}
	for _, f := range Formats() {
		if err := Textualize(&bytes.Buffer{}, kg, f.Name); err == nil {
			t.Errorf("%s: dangling tail accepted", f.Name)
		}
		if Description(f.Name) == "" {
			t.Errorf("%s: no description", f.Name)
		}
		if !f.Lossless && f.Loses == "" {
			t.Errorf("%s: lossy without Loses", f.Name)
		}
	}
}

// TestEmpty checks the texts of a KG without edges against what the Python
// calls return for empty input: yaml.dump({}) is "{}\n", json.dumps({}) is
// "{}", and the list is "Edges: [\n\n]\n".
func TestEmpty(t *testing.T) {
	want := map[string]string{"list_of_edges": "Edges: [\n\n]\n", "structured_yaml": "{}\n", "structured_json": "{}"}
	for f, w := range want {
		var buf bytes.Buffer
		if err := Textualize(&buf, &KG{}, f); err != nil {
			t.Fatal(err)
		}
		if buf.String() != w {
			t.Errorf("%s of empty KG = %q, want %q", f, buf.String(), w)
		}
	}
}

// hostileRDFFixture is testdata/hostile_rdf.json, written by rdflib 7.1.2
// with the benchmark's make_rdflib_graph (testdata/gen_hostile_rdf.py).
type hostileRDFFixture struct {
	Entities  [][2]any          `json:"entities"`
	Relations [][2]any          `json:"relations"`
	Edges     [][3]int          `json:"edges"`
	Texts     map[string]string `json:"-"`
}

var genPrefixRE = regexp.MustCompile(`(^|[\s(])ns(\d+):`)

// canonNS rewrites rdflib's generated nsN prefixes as {namespace IRI} and
// sorts the prefix lines: rdflib numbers them in the iteration order of a
// Python set of triples, which depends on the hash seed.
func canonNS(text string) string {
	ns := map[string]string{}
	lines := strings.Split(text, "\n")
	var prefixes, body []string
	for _, l := range lines {
		if strings.HasPrefix(l, "@prefix ") {
			f := strings.Fields(l)
			ns[strings.TrimSuffix(f[1], ":")] = f[2]
			prefixes = append(prefixes, l)
			continue
		}
		body = append(body, l)
	}
	re := func(s string) string {
		return genPrefixRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := genPrefixRE.FindStringSubmatch(m)
			return sub[1] + "{" + ns["ns"+sub[2]] + "}"
		})
	}
	for i, p := range prefixes {
		prefixes[i] = re(p)
	}
	slices.Sort(prefixes)
	return strings.Join(prefixes, "\n") + "\n" + re(strings.Join(body, "\n"))
}

// TestHostileRDF checks the Turtle and JSON-LD emulation, including
// rdf_turtle1 and json_ld1 (labels as IRIs, generated prefixes, full IRIs
// for names rdflib cannot shorten), against rdflib 7.1.2 on adversarial
// labels.
func TestHostileRDF(t *testing.T) {
	var f hostileRDFFixture
	b := readFixture(t, "hostile_rdf.json", &f)
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	f.Texts = map[string]string{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			f.Texts[k] = s
		}
	}
	kg := &KG{}
	for _, e := range f.Entities {
		kg.Entities = append(kg.Entities, Entity{ID: fmt.Sprint(e[0]), Label: e[1].(string)})
	}
	for _, r := range f.Relations {
		kg.Relations = append(kg.Relations, Relation{ID: fmt.Sprint(r[0]), Label: r[1].(string)})
	}
	for _, e := range f.Edges {
		kg.Edges = append(kg.Edges, Edge{Head: strconv.Itoa(e[0]), Relation: strconv.Itoa(e[1]), Tail: strconv.Itoa(e[2])})
	}
	pass := 0
	for _, format := range []string{"rdf_turtle1", "rdf_turtle2", "rdf_turtle3", "json_ld1", "json_ld2", "json_ld3", "nt"} {
		want, ok := f.Texts[format]
		if !ok {
			t.Fatalf("fixture lacks %s", format)
		}
		var buf bytes.Buffer
		if err := Textualize(&buf, kg, format); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		switch {
		case strings.HasPrefix(format, "rdf_turtle"):
			got, want = canonNS(got), canonNS(want)
		case format == "nt":
			// rdflib writes the lines in Python set order.
			got, want = sortLines(got), sortLines(want)
		}
		if same, diff := sameText(format, got, want); !same {
			t.Errorf("hostile %s: %s", format, diff)
			continue
		}
		pass++
	}
	msg := fmt.Sprintf("kgllmbench hostile RDF (rdflib %v): %d/7 formats exact", f.Texts["rdflib"], pass)
	t.Log(msg)
}

func sortLines(s string) string {
	l := strings.SplitAfter(s, "\n")
	slices.Sort(l)
	return strings.Join(l, "")
}
