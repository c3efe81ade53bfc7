package chunk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/synth"
)

// readDataset sends the quads of d to a sink, in insertion order or
// shuffled with seed (0: not shuffled).
func readDataset(d *rdf.Dataset, seed uint64) func(rdf.Sink) error {
	return func(s rdf.Sink) error {
		qs := d.Quads()
		if seed != 0 {
			rand.New(rand.NewPCG(seed, 0)).Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		}
		for _, q := range qs {
			if err := s.AddQuad(q); err != nil {
				return err
			}
		}
		return nil
	}
}

func runChunks(t testing.TB, d *rdf.Dataset, opts Options, ro RunOptions, seed uint64) []byte {
	t.Helper()
	c, err := New(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := c.Run(readDataset(d, seed), &out, ro); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func parseChunks(t testing.TB, data []byte) []Chunk {
	t.Helper()
	var out []Chunk
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<28)
	for sc.Scan() {
		var c Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, c)
	}
	return out
}

func readFile(t testing.TB, path string) *rdf.Dataset {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := rdfio.Read(f, rdfio.Options{ReadOptions: rdf.ReadOptions{File: path, Base: rdfio.FileBase(path)}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func synthGraph(t testing.TB, n int64) *rdf.Dataset {
	t.Helper()
	var b bytes.Buffer
	if err := synth.Write(&b, synth.Options{Triples: n, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	d, err := rdfio.Read(&b, rdfio.Options{Format: rdfio.NTriples})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// testGraphs returns the example graphs of the repository and of the
// shared folder, and a synthetic graph.
func testGraphs(t *testing.T) map[string]*rdf.Dataset {
	out := map[string]*rdf.Dataset{"synth-3000": synthGraph(t, 3000)}
	paths, _ := filepath.Glob("../examples/*.ttl")
	if dir, err := shared.Path("data", "examples"); err == nil {
		more, _ := filepath.Glob(filepath.Join(dir, "*.ttl"))
		html, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		paths = append(append(paths, more...), html...)
	}
	if len(paths) < 3 {
		t.Fatalf("example graphs: %v", paths)
	}
	for _, p := range paths {
		out[filepath.Base(p)] = readFile(t, p)
	}
	return out
}

// oracle computes the one-hop neighbourhood of every entity of d the
// simple way, from the package comment: its statements, the statements
// linking to it, and each neighbour's types and labels (the labels in
// English or without language, else the smallest), or all the statements
// of a blank neighbour.
func oracle(d *rdf.Dataset) map[string]*rdf.Dataset {
	labels := map[string]bool{}
	for _, p := range graph.DefaultLabelPredicates() {
		labels[p] = true
	}
	bySubject := map[rdf.Term][]rdf.Quad{}
	byObject := map[rdf.Term][]rdf.Quad{}
	for _, q := range d.Quads() {
		bySubject[q.S] = append(bySubject[q.S], q)
		if q.O.IsIRI() || q.O.IsBlank() {
			byObject[q.O] = append(byObject[q.O], q)
		}
	}
	describe := func(x rdf.Term) []rdf.Quad {
		var out, pref, other []rdf.Quad
		for _, q := range bySubject[x] {
			switch {
			case x.IsBlank():
				out = append(out, q)
			case q.P.Value == rdf.RDFType && (q.O.IsIRI() || q.O.IsBlank()):
				out = append(out, q)
			case labels[q.P.Value] && q.O.IsLiteral():
				if l := strings.ToLower(q.O.Lang); l == "en" || l == "" {
					pref = append(pref, q)
				} else {
					other = append(other, q)
				}
			}
		}
		if len(pref) == 0 && len(other) > 0 {
			slices.SortFunc(other, func(a, b rdf.Quad) int { return rdf.Compare(a.O, b.O) })
			pref = other[:1]
		}
		return append(out, pref...)
	}
	out := map[string]*rdf.Dataset{}
	for s, own := range bySubject {
		if !s.IsIRI() {
			continue
		}
		nd := rdf.NewDataset()
		nbrs := map[rdf.Term]bool{}
		for _, q := range own {
			nd.Add(q)
			if (q.O.IsIRI() || q.O.IsBlank()) && q.O != s {
				nbrs[q.O] = true
			}
		}
		for _, q := range byObject[s] {
			if q.S != s {
				nd.Add(q)
				nbrs[q.S] = true
			}
		}
		for x := range nbrs {
			for _, q := range describe(x) {
				nd.Add(q)
			}
		}
		out[s.Value] = nd
	}
	return out
}

// TestDocumentsDecodeToWhatTheyKeep is the contract of the package, on
// the example graphs and a synthetic one, in every lossless RDF format of
// the registry: without a budget, each document decodes to exactly its
// entity's neighbourhood (computed independently by oracle); with a
// budget, it decodes to exactly statements_kept statements of that
// neighbourhood, within the budget.
func TestDocumentsDecodeToWhatTheyKeep(t *testing.T) {
	var lossless []formats.Format
	for _, f := range formats.All() {
		if f.Lossless && f.Decode != nil && !strings.Contains(f.Loses, "named graph") {
			lossless = append(lossless, f)
		}
	}
	if len(lossless) < 6 {
		t.Fatalf("lossless formats: %d", len(lossless))
	}
	for name, d := range testGraphs(t) {
		want := oracle(d)
		for _, f := range lossless {
			if name == "synth-3000" && f.Name != "isolda" && f.Name != "turtle" && f.Name != "nquads" {
				continue // the synthetic graph in three formats keeps the test short
			}
			for _, budget := range []int{0, 300} {
				opts := Options{Format: f.Name, Budget: budget, Glossary: "none"}
				if !strings.HasPrefix(f.Name, "isolda") {
					opts.Glossary = ""
				}
				c, err := New(opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				if _, err := c.Run(readDataset(d, 0), &out, RunOptions{}); err != nil {
					t.Fatalf("%s %s: %v", name, f.Name, err)
				}
				chunks := parseChunks(t, out.Bytes())
				if len(chunks) != len(want) {
					t.Fatalf("%s %s: %d documents, want %d", name, f.Name, len(chunks), len(want))
				}
				for _, ch := range chunks {
					got, err := f.Decode(strings.NewReader(ch.Text))
					if err != nil {
						t.Fatalf("%s %s %s: decode: %v\n%s", name, f.Name, ch.Entity, err, ch.Text)
					}
					nb := want[ch.Entity]
					switch {
					case got.Len() != ch.Kept:
						t.Fatalf("%s %s %s: decodes to %d statements, reports %d kept", name, f.Name, ch.Entity, got.Len(), ch.Kept)
					case ch.Total != nb.Len():
						t.Fatalf("%s %s %s: total %d, the oracle has %d", name, f.Name, ch.Entity, ch.Total, nb.Len())
					case budget == 0 && ch.Kept != ch.Total:
						t.Fatalf("%s %s %s: kept %d of %d without a budget", name, f.Name, ch.Entity, ch.Kept, ch.Total)
					case budget > 0 && ch.Tokens > budget:
						t.Fatalf("%s %s %s: %d tokens over the budget", name, f.Name, ch.Entity, ch.Tokens)
					}
					// The statements kept: decoded, they must be isomorphic to
					// a part of the neighbourhood (blank nodes are relabelled
					// by decoding); all of it when nothing was cut.
					if !isoSubset(t, got, nb) {
						t.Fatalf("%s %s %s: the decoded statements are not part of the neighbourhood:\n%s", name, f.Name, ch.Entity, ch.Text)
					}
				}
			}
		}
	}
}

// isoSubset reports whether got is isomorphic to a subset of nb: when it
// has blank nodes, it tries the subsets of nb with the same statements
// outside blank nodes.
func isoSubset(t *testing.T, got, nb *rdf.Dataset) bool {
	t.Helper()
	if got.Len() == nb.Len() {
		ok, err := canon.Isomorphic(got, nb)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// Ground statements must be in nb; statements with blank nodes must
	// match a statement of nb up to the blank node labels.
	shape := func(q rdf.Quad) rdf.Quad {
		for _, t := range []*rdf.Term{&q.S, &q.O, &q.G} {
			if t.IsBlank() {
				*t = rdf.NewBlank("_")
			}
		}
		return q.Key()
	}
	shapes := map[rdf.Quad]int{}
	for _, q := range nb.Quads() {
		shapes[shape(q)]++
	}
	for _, q := range got.Quads() {
		s := shape(q)
		if shapes[s] == 0 {
			return false
		}
		shapes[s]--
	}
	return true
}

// TestDeterministic checks that the output depends on the graph only:
// not on the order of the statements, nor on whether the sorts spill to
// disk (a tiny memory makes many runs), nor on the number of workers.
func TestDeterministic(t *testing.T) {
	d := synthGraph(t, 20_000)
	opts := Options{Budget: 200, Glossary: "none"}
	a := runChunks(t, d, opts, RunOptions{}, 0)
	b := runChunks(t, d, opts, RunOptions{Memory: 256 << 10, TmpDir: t.TempDir(), Workers: 3}, 7)
	if !bytes.Equal(a, b) {
		t.Fatal("in-memory and spilled runs differ")
	}
	chunks := parseChunks(t, a)
	if !slices.IsSortedFunc(chunks, func(x, y Chunk) int { return strings.Compare(x.Entity, y.Entity) }) {
		t.Fatal("not sorted by entity")
	}
	cut := 0
	for _, c := range chunks {
		if c.Kept < c.Total {
			cut++
		}
	}
	if cut == 0 || cut == len(chunks) {
		t.Fatalf("%d of %d documents cut: the budget does not exercise the cut", cut, len(chunks))
	}
}

const small = `@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:a a ex:Person ; rdfs:label "A"@en, "Ah"@de ; ex:knows ex:b ; ex:age 3 .
ex:b a ex:Person ; rdfs:label "B"@de, "Be"@fr ; ex:knows ex:c .
ex:c a ex:City ; rdfs:label "C" ; ex:near [ rdfs:label "lake" ; ex:depth 9 ] .
ex:d ex:likes ex:a .
`

func smallGraph(t *testing.T) *rdf.Dataset {
	d, err := rdfio.Read(strings.NewReader(small), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// docLines returns the documents of d in N-Triples by entity, each as its
// sorted lines.
func docLines(t *testing.T, d *rdf.Dataset, opts Options) map[string]string {
	opts.Format = "ntriples"
	out := map[string]string{}
	for _, c := range parseChunks(t, runChunks(t, d, opts, RunOptions{}, 0)) {
		lines := strings.Split(strings.TrimSpace(c.Text), "\n")
		slices.Sort(lines)
		out[strings.TrimPrefix(c.Entity, "http://ex.org/")] = strings.Join(lines, "\n")
	}
	return out
}

// TestNeighbourhoodByHand checks the documents of a small graph against
// neighbourhoods worked out by hand: labels in English or without
// language, else the smallest; a blank neighbour with all its statements;
// links in both directions; two hops.
func TestNeighbourhoodByHand(t *testing.T) {
	d := smallGraph(t)
	const (
		typ   = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
		label = "<http://www.w3.org/2000/01/rdf-schema#label>"
	)
	ex := func(s string) string { return "<http://ex.org/" + s + ">" }
	st := func(s, p, o string) string { return s + " " + p + " " + o + " ." }
	sorted := func(l ...string) string { slices.Sort(l); return strings.Join(l, "\n") }
	docs := docLines(t, d, Options{})
	want := map[string]string{
		"a": sorted(
			st(ex("a"), typ, ex("Person")), st(ex("a"), label, `"A"@en`), st(ex("a"), label, `"Ah"@de`),
			st(ex("a"), ex("knows"), ex("b")), st(ex("a"), ex("age"), `"3"^^<http://www.w3.org/2001/XMLSchema#integer>`),
			st(ex("b"), typ, ex("Person")), st(ex("b"), label, `"B"@de`), // B has no English label: the smallest
			st(ex("d"), ex("likes"), ex("a")),
		),
		"b": sorted(
			st(ex("b"), typ, ex("Person")), st(ex("b"), label, `"B"@de`), st(ex("b"), label, `"Be"@fr`),
			st(ex("b"), ex("knows"), ex("c")),
			st(ex("c"), typ, ex("City")), st(ex("c"), label, `"C"`),
			st(ex("a"), ex("knows"), ex("b")),
			st(ex("a"), typ, ex("Person")), st(ex("a"), label, `"A"@en`),
		),
		"c": sorted(
			st(ex("c"), typ, ex("City")), st(ex("c"), label, `"C"`), st(ex("c"), ex("near"), "_:genid0"),
			st("_:genid0", label, `"lake"`), st("_:genid0", ex("depth"), `"9"^^<http://www.w3.org/2001/XMLSchema#integer>`),
			st(ex("b"), ex("knows"), ex("c")),
			st(ex("b"), typ, ex("Person")), st(ex("b"), label, `"B"@de`),
		),
		"d": sorted(
			st(ex("d"), ex("likes"), ex("a")),
			st(ex("a"), typ, ex("Person")), st(ex("a"), label, `"A"@en`),
		),
	}
	if len(docs) != len(want) {
		t.Fatalf("documents of %v, want a, b, c, d", slices.Sorted(mapsKeys(docs)))
	}
	for e, w := range want {
		if docs[e] != w {
			t.Errorf("document of %s:\n%s\nwant\n%s", e, docs[e], w)
		}
	}
	// Two hops: d's neighbour a gives all its statements and the links to
	// it; a's neighbour b its description.
	docs = docLines(t, d, Options{Hops: 2})
	w2 := sorted(
		st(ex("d"), ex("likes"), ex("a")),
		st(ex("a"), typ, ex("Person")), st(ex("a"), label, `"A"@en`), st(ex("a"), label, `"Ah"@de`),
		st(ex("a"), ex("knows"), ex("b")), st(ex("a"), ex("age"), `"3"^^<http://www.w3.org/2001/XMLSchema#integer>`),
		st(ex("b"), typ, ex("Person")), st(ex("b"), label, `"B"@de`),
	)
	if docs["d"] != w2 {
		t.Errorf("two hops, document of d:\n%s\nwant\n%s", docs["d"], w2)
	}
	// Classes: only the persons.
	docs = docLines(t, d, Options{Classes: []string{"http://ex.org/Person"}})
	if len(docs) != 2 || docs["a"] == "" || docs["b"] == "" {
		t.Errorf("--class Person: documents of %v", slices.Sorted(mapsKeys(docs)))
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestHubBounded checks that a hub's document holds at most
// MaxStatements links to it, that its total says so, and that every
// entity linking to the hub still gets its label.
func TestHubBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<http://ex.org/hub> <http://www.w3.org/2000/01/rdf-schema#label> \"Hub\" .\n")
	for i := range 50 {
		fmt.Fprintf(&b, "<http://ex.org/e%02d> <http://ex.org/in> <http://ex.org/hub> .\n", i)
	}
	d, err := rdfio.Read(strings.NewReader(b.String()), rdfio.Options{Format: rdfio.NTriples})
	if err != nil {
		t.Fatal(err)
	}
	chunks := parseChunks(t, runChunks(t, d, Options{Format: "ntriples", MaxStatements: 10}, RunOptions{}, 0))
	if len(chunks) != 51 {
		t.Fatalf("%d documents", len(chunks))
	}
	for _, c := range chunks {
		if c.Entity == "http://ex.org/hub" {
			if c.Total != 1+10 || strings.Count(c.Text, "\n") != 11 {
				t.Errorf("hub: total %d:\n%s", c.Total, c.Text)
			}
			continue
		}
		if !strings.Contains(c.Text, `"Hub"`) {
			t.Errorf("%s: no label of the hub:\n%s", c.Entity, c.Text)
		}
	}
}

// TestBudgetTooSmall checks the error for a budget below the empty
// document, and the hint about the glossary.
func TestBudgetTooSmall(t *testing.T) {
	_, err := New(Options{Budget: 20}, nil)
	if err == nil || !strings.Contains(err.Error(), "--glossary none") {
		t.Fatalf("error %v", err)
	}
	if _, err := New(Options{Budget: 20, Glossary: "none"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Format: "nquads", Glossary: "none"}, nil); err == nil {
		t.Fatal("a glossary option for N-Quads was accepted")
	}
}

// TestRecordRoundTrip checks the record encoding on every kind of term.
func TestRecordRoundTrip(t *testing.T) {
	key := rdf.NewIRI("http://ex.org/k")
	terms := []rdf.Term{
		key, rdf.NewIRI("http://ex.org/x"), rdf.NewBlank("b1"), rdf.NewString("s\x00"),
		rdf.NewLangString("hi", "en-GB"), rdf.NewLiteral("1", rdf.XSDInteger),
		{Kind: rdf.LiteralKind, Value: "r", Datatype: rdf.RDFDirLangString, Lang: "ar", Dir: "rtl"},
		rdf.NewTripleTerm(rdf.NewIRI("http://ex.org/s"), rdf.NewIRI("http://ex.org/p"), rdf.NewBlank("z")),
	}
	for _, o := range terms {
		for _, g := range []rdf.Term{{}, rdf.NewIRI("http://ex.org/g"), rdf.NewBlank("g")} {
			q := rdf.Quad{S: key, P: rdf.NewIRI("http://ex.org/p"), O: o, G: g}
			val := appendMsg(nil, 2, rdf.NewBlank("o"), q, key)
			r, err := decodeValue(val, key)
			if err != nil || r.q != q || r.dist != 2 || r.origin != rdf.NewBlank("o") {
				t.Fatalf("%v: got %+v, %v", q, r, err)
			}
			if _, err := decodeValue(val[:len(val)-1], key); err == nil {
				t.Fatalf("%v: a truncated record decoded", q)
			}
		}
	}
}

// BenchmarkRun chunks a 50,000-statement synthetic graph in memory.
func BenchmarkRun(b *testing.B) {
	d := synthGraph(b, 50_000)
	c, err := New(Options{Budget: 512}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		st, err := c.Run(readDataset(d, 0), discard{}, RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Entities), "entities")
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
