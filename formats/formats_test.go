package formats_test

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

// The names the format-lab issue requires.
var required = []string{
	"isolda", "isolda-0.1", "nquads", "ntriples", "turtle", "trig", "jsonld", "jsonld-compact", "rdfxml",
	"b-json", "b-ttl", "b-ttl-ids", "toon",
	"pretty_json", "compact_json", "jsonl", "csv", "typed_edges", "typed_edges_dict",
	"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle2", "rdf_turtle3", "json_ld2", "json_ld3",
	"study_turtle", "study_jsonld", "shacl_lite", "text2kgbench", "entity_centric", "relation_indexed",
	"markdown_table", "study_toon", "mermaid", "dot", "adjacency", "edge_list", "structured", "nl_summary",
	"friendship",
}

func TestRegistry(t *testing.T) {
	all := formats.All()
	seen := map[string]bool{}
	fam := formats.Families()
	for i, f := range all {
		if seen[f.Name] {
			t.Errorf("duplicate name %q", f.Name)
		}
		seen[f.Name] = true
		if !slices.Contains(fam, f.Family) {
			t.Errorf("%s: family %q is not one of Table 1's", f.Name, f.Family)
		}
		if f.Source == "" || f.Encode == nil {
			t.Errorf("%s: no source or no encoder", f.Name)
		}
		if f.Lossless != (f.Decode != nil || f.DecodeGraph != nil) {
			t.Errorf("%s: Lossless=%v but decoders %v %v", f.Name, f.Lossless, f.Decode != nil, f.DecodeGraph != nil)
		}
		if f.Input == formats.InputRDF && f.DecodeGraph != nil || f.Input != formats.InputRDF && f.Decode != nil {
			t.Errorf("%s: decoder does not match the input kind %v", f.Name, f.Input)
		}
		if !f.Lossless && f.Loses == "" {
			t.Errorf("%s: lossy without Loses", f.Name)
		}
		if i > 0 {
			p := all[i-1]
			if k := slices.Index(fam, p.Family) - slices.Index(fam, f.Family); k > 0 || k == 0 && p.Name >= f.Name {
				t.Errorf("%s after %s: not sorted by (family, name)", f.Name, p.Name)
			}
		}
		if g, ok := formats.Get(f.Name); !ok || g.Name != f.Name {
			t.Errorf("Get(%q) fails", f.Name)
		}
	}
	for _, name := range required {
		if !seen[name] {
			t.Errorf("required format %q is not registered", name)
		}
	}
	// Only the RDF syntaxes have names the RDF reader and writer know
	// (convert -t nt must stay N-Triples).
	for _, f := range all {
		if _, err := rdfio.ParseFormat(f.Name); err == nil && f.Source != formats.SourceW3C {
			t.Errorf("%s (%s) has the name of an RDF syntax", f.Name, f.Source)
		}
	}
	if _, ok := formats.Get("no-such-format"); ok {
		t.Error("Get of an unknown name succeeds")
	}
	t.Logf("registry: %d formats", len(all))
}

func exampleDatasets(t *testing.T) map[string]*rdf.Dataset {
	t.Helper()
	dir := shared.MustPath(t, "data", "examples")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*rdf.Dataset{}
	for _, e := range ents {
		if _, ok := rdfio.FormatFromName(e.Name()); !ok {
			continue
		}
		d, err := rdfio.ReadFile(filepath.Join(dir, e.Name()), nil, rdfio.Options{})
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out[e.Name()] = d
	}
	if len(out) < 3 {
		t.Fatalf("only %d example files in %s", len(out), dir)
	}
	return out
}

// hasNamedGraphs reports whether d has a quad outside the default graph.
func hasNamedGraphs(d *rdf.Dataset) bool {
	for _, q := range d.Quads() {
		if !q.G.IsZero() {
			return true
		}
	}
	return false
}

// rdfxmlUnwritable reports whether d has what RDF/XML cannot write: a
// predicate whose IRI does not end in an XML NCName, or a character XML 1.0
// forbids.
func rdfxmlUnwritable(d *rdf.Dataset) bool {
	for _, q := range d.Quads() {
		if strings.ContainsFunc(q.O.Value, func(r rune) bool {
			return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xfffe || r == 0xffff
		}) {
			return true
		}
		p := q.P.Value
		i := len(p)
		for i > 0 && isNCNameChar(p[i-1]) {
			i--
		}
		for i < len(p) && !isNCNameStart(p[i]) {
			i++
		}
		if i == len(p) {
			return true
		}
	}
	return false
}

func isNCNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isNCNameChar(c byte) bool {
	return isNCNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// rdfRoundTrip checks one lossless RDF format on one dataset. It returns
// false when the format cannot write the dataset, as its Loses documents.
func rdfRoundTrip(t *testing.T, f formats.Format, d *rdf.Dataset) bool {
	t.Helper()
	var buf bytes.Buffer
	err := f.Encode(&buf, formats.NewInput(d))
	graphsOnly := strings.Contains(f.Loses, "named graphs cannot be written")
	if graphsOnly && hasNamedGraphs(d) || f.Name == "rdfxml" && rdfxmlUnwritable(d) {
		if err == nil {
			t.Errorf("%s: writing a dataset it cannot represent does not fail", f.Name)
		}
		return false
	}
	if err != nil {
		t.Fatalf("%s: encode: %v", f.Name, err)
	}
	back, err := f.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%s: decode: %v\n%s", f.Name, err, buf.Bytes())
	}
	iso, err := canon.Isomorphic(d, back)
	if err != nil {
		t.Fatal(err)
	}
	if !iso {
		t.Errorf("%s: decoded dataset (%d quads) is not isomorphic to the input (%d quads)\n%s", f.Name, back.Len(), d.Len(), buf.Bytes())
	}
	return true
}

func TestRDFRoundTrip(t *testing.T) {
	examples := exampleDatasets(t)
	names := slices.Sorted(maps.Keys(examples))
	for _, f := range formats.All() {
		if f.Decode == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			ok, unwritable := 0, 0
			for _, name := range names {
				if rdfRoundTrip(t, f, examples[name]) {
					ok++
				} else {
					unwritable++
				}
			}
			for seed := range uint64(40) {
				d := testgraph.Hostile(seed, seed%2 == 1)
				if seed == 0 {
					d = rdf.NewDataset() // the empty dataset
				}
				if rdfRoundTrip(t, f, d) {
					ok++
				} else {
					unwritable++
				}
			}
			t.Logf("round trip %-16s %3d ok, %2d unwritable as documented, failed: %v", f.Name, ok, unwritable, t.Failed())
		})
	}
}

// kept returns what a lossless graph format keeps of g, in a form to compare.
func kept(f formats.Format, g *graph.Graph) any {
	if f.Source == formats.SourceGraphRAG {
		return graphrag.Canonical(graphrag.FromGraph(g))
	}
	return g
}

func graphEqual(f formats.Format, a, b *graph.Graph) bool {
	if f.Source == formats.SourceGraphRAG {
		return graphrag.Equal(kept(f, a).(graphrag.Graph), kept(f, b).(graphrag.Graph))
	}
	return graphtext.Equal(a, b)
}

func TestGraphRoundTrip(t *testing.T) {
	examples := exampleDatasets(t)
	for _, f := range formats.All() {
		if f.DecodeGraph == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			var inputs []*formats.Input
			for _, d := range examples {
				inputs = append(inputs, formats.NewInput(d))
			}
			for seed := range uint64(20) {
				inputs = append(inputs, formats.NewInput(testgraph.Hostile(seed, true)))
				inputs = append(inputs, formats.NewGraphInput(testgraph.Labelled(testgraph.Seeded(seed), testgraph.LabelledOptions{})))
			}
			ok := 0
			for i, in := range inputs {
				var buf bytes.Buffer
				if err := f.Encode(&buf, in); err != nil {
					t.Errorf("input %d: encode: %v", i, err)
					continue
				}
				back, err := f.DecodeGraph(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Errorf("input %d: decode: %v\n%s", i, err, buf.Bytes())
					continue
				}
				if !graphEqual(f, in.Graph(), back) {
					t.Errorf("input %d: the decoded graph differs\n%s", i, buf.Bytes())
					continue
				}
				ok++
			}
			t.Logf("graph round trip %-20s %d/%d", f.Name, ok, len(inputs))
		})
	}
}

// Every format writes the same bytes whatever the order of the input quads.
func TestDeterministic(t *testing.T) {
	for seed := range uint64(8) {
		d := testgraph.Hostile(seed, seed%2 == 0)
		s := testgraph.Shuffled(d, seed, false)
		for _, f := range formats.All() {
			var a, b bytes.Buffer
			errA := f.Encode(&a, formats.NewInput(d))
			errB := f.Encode(&b, formats.NewInput(s))
			if (errA == nil) != (errB == nil) || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("seed %d %s: output depends on quad order (errors %v / %v)", seed, f.Name, errA, errB)
			}
		}
	}
}

// ISOLDA, the baselines and TOON also write the same bytes whatever the
// labels of the input's blank nodes. (The W3C writers keep the input's
// labels, and the labelled-graph view names blank nodes by their labels.)
func TestBlankLabelIndependent(t *testing.T) {
	for seed := range uint64(8) {
		d := testgraph.Hostile(seed, seed%2 == 0)
		s := testgraph.Shuffled(d, seed, true)
		for _, name := range []string{"isolda", "isolda-0.1", "b-json", "b-ttl", "b-ttl-ids", "toon"} {
			f, _ := formats.Get(name)
			var a, b bytes.Buffer
			errA := f.Encode(&a, formats.NewInput(d))
			errB := f.Encode(&b, formats.NewInput(s))
			if errA != nil || errB != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("seed %d %s: output depends on blank node labels (errors %v / %v)", seed, name, errA, errB)
			}
		}
	}
}

// Formats of an RDF dataset need one: a graph-only input is an error.
func TestGraphOnlyInput(t *testing.T) {
	in := formats.NewGraphInput(testgraph.Labelled(testgraph.Seeded(1), testgraph.LabelledOptions{}))
	for _, f := range formats.All() {
		err := f.Encode(&bytes.Buffer{}, in)
		if f.Input == formats.InputRDF && !errors.Is(err, formats.ErrNoDataset) {
			t.Errorf("%s: graph-only input gives %v, want ErrNoDataset", f.Name, err)
		}
	}
}

// TestClasses checks the classes the registry declares: the formats a
// server reserves the light working set for (the table server/estimate.go
// held before), the ISOLDA versions, and the encoders that refuse a
// directed graph.
func TestClasses(t *testing.T) {
	light := map[string]bool{"isolda": true, "isolda-0.1": true, "isolda-0.3": true,
		"ntriples": true, "nquads": true, "turtle": true, "trig": true}
	versions := map[string]string{"isolda": isolda.V04, "isolda-0.1": isolda.V01, "isolda-0.2": isolda.V02, "isolda-0.3": isolda.V03}
	directed := map[string]bool{"tlag_friendship": true, "tlag_coauthorship": true, "tlag_social_network": true,
		"tlag_politician": true, "tlag_got": true, "tlag_south_park": true}
	for _, f := range formats.All() {
		if got := f.Cost == formats.CostLight; got != light[f.Name] {
			t.Errorf("%s: light %v, want %v", f.Name, got, light[f.Name])
		}
		if f.Version != versions[f.Name] {
			t.Errorf("%s: version %q, want %q", f.Name, f.Version, versions[f.Name])
		}
		if f.DirectedError != directed[f.Name] {
			t.Errorf("%s: directed graph an error %v, want %v", f.Name, f.DirectedError, directed[f.Name])
		}
		if f.EncodeContext == nil {
			t.Errorf("%s: no EncodeContext", f.Name)
		}
	}
}

// TestPinnedVersions: a registry name isolda-X pins version X; isolda (the
// notation's default) and the formats that are not ISOLDA pin none.
func TestPinnedVersions(t *testing.T) {
	pinned := 0
	for _, f := range formats.All() {
		v, hasV := strings.CutPrefix(f.Name, "isolda-")
		switch {
		case hasV && (!f.Pinned || f.Version != v):
			t.Errorf("%s: Pinned %v, Version %q; want pinned %q", f.Name, f.Pinned, f.Version, v)
		case !hasV && f.Pinned:
			t.Errorf("%s is pinned (Version %q); only isolda-X names pin", f.Name, f.Version)
		}
		if f.Pinned {
			pinned++
		}
	}
	if pinned < 3 {
		t.Errorf("%d pinned formats; want isolda-0.1, 0.2 and 0.3 at least", pinned)
	}
}
