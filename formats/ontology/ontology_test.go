package ontology

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
	"github.com/isolda/isolda/rdf/turtle"
)

// reference is appendix H.1's reference ontology.
func reference() *Ontology {
	return &Ontology{
		Concepts: []Concept{{"Person", "Person"}, {"Company", "Company"}, {"City", "City"}},
		Relations: []Relation{
			{"worksAt", "worksAt", "Person", "Company"},
			{"headquarteredIn", "headquarteredIn", "Company", "City"},
			{"livesIn", "livesIn", "Person", "City"},
		},
	}
}

func encode(t testing.TB, o *Ontology, name string) string {
	t.Helper()
	var sb strings.Builder
	if err := Encode(&sb, o, name); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sb.String()
}

// noExampleH3 lists the formats appendix H.3 only describes in words.
var noExampleH3 = map[string]string{
	"jsonld":       "cited to JSON-LD, no text; checked by parsing with rdf/jsonld (TestRDFFormatsParse)",
	"shacl_lite":   "cited to SHACL, no text; checked by parsing with rdf/turtle (TestRDFFormatsParse)",
	"turtle":       "cited to Turtle, no text; checked by parsing with rdf/turtle (TestRDFFormatsParse)",
	"structured":   `described as a "header-labeled bulleted list", no text`,
	"toon":         `described as "TOON-style header-then-pipe columns", no text`,
	"text2kgbench": "the original Text2KGBench form, no text in H.3; checked against the benchmark's own prompts (TestText2KGBenchPrompts)",
}

// TestAppendixH3 reproduces every example of appendix H.3. The spec text
// collapsed line breaks to spaces, so outputs are compared collapsed; the
// testdata lines must occur verbatim in the spec.
func TestAppendixH3(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "appendix_h3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sec := shared.Section(t, "H.3 All 12", "", "spec", "001_2264b1b960dd163f.txt")
	pass, total := 0, 0
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, want, _ := strings.Cut(line, "\t")
		if !strings.Contains(sec, "\n"+name+".\n\n"+want+"\n") {
			t.Errorf("testdata for %s is not in the spec's H.3", name)
		}
		total++
		seen[name] = true
		got := strings.Join(strings.Fields(encode(t, reference(), name)), " ")
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
			continue
		}
		pass++
	}
	for _, n := range Names() {
		if !seen[n] && noExampleH3[n] == "" {
			t.Errorf("%s: neither reproduced nor listed as without an example", n)
		}
	}
	t.Logf("appendix H.3: %d passed, %d failed", pass, total-pass)
	for _, n := range Names() {
		if why := noExampleH3[n]; why != "" {
			t.Logf("  no example: %-13s %s", n, why)
		}
	}
}

// promptMismatches lists the sample prompts whose ontology block differs
// from the shipped ontology files, and why.
var promptMismatches = map[string]string{
	"ont_5_athlete_test_1":               "the prompt has leader(,Person); the ontology file gives leader the domain Organisation",
	"ont_11_meanoftransportation_test_1": "the prompt has parentCompany(,Company); the file gives the domain Company",
	"ont_14_writtenwork_test_1":          "the prompt has spokenIn(,Country); the file gives the domain Language",
	"ont_19_film_test_1":                 "the prompt has writer(,Person); the file gives the domain WrittenWork",
}

// TestText2KGBenchPrompts compares the text2kgbench format with the
// ontology block of Text2KGBench's own prompts (sample/prompts_sample.jsonl,
// one prompt per ontology), byte for byte.
func TestText2KGBenchPrompts(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench")
	f, err := os.Open(filepath.Join(dir, "sample", "prompts_sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	onts, err := LoadDir(filepath.Join(dir, "ontologies"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*Ontology{}
	for _, o := range onts {
		byID[o.ID] = o
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	pass, known, fail := 0, 0, 0
	for sc.Scan() {
		var p struct{ ID, Prompt string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		ontID := p.ID[:strings.Index(p.ID, "_test_")]
		o := byID[ontID]
		if o == nil {
			t.Errorf("%s: no ontology %s", p.ID, ontID)
			continue
		}
		i := strings.Index(p.Prompt, "Ontology Concepts: ")
		j := strings.Index(p.Prompt, "\nExample Sentence")
		if i < 0 || j < i {
			t.Errorf("%s: no ontology block in the prompt", p.ID)
			continue
		}
		// The block ends "\n\n" before "Example Sentence": the format ends
		// in one line break.
		want := p.Prompt[i:j]
		got := encode(t, o, "text2kgbench")
		switch {
		case got == want:
			pass++
			if why, ok := promptMismatches[p.ID]; ok {
				t.Errorf("%s now matches; remove it from promptMismatches (%s)", p.ID, why)
			}
		case promptMismatches[p.ID] != "":
			known++
		default:
			fail++
			t.Errorf("%s:\n got %q\nwant %q", p.ID, got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Text2KGBench prompts: %d passed, %d failed (%d known data-version differences)", pass, fail, known)
	for _, id := range slices.Sorted(maps.Keys(promptMismatches)) {
		t.Logf("  differs: %-36s %s", id, promptMismatches[id])
	}
}

// TestLoadDir loads the 19 DBpedia-WebNLG ontologies and checks the counts
// against the raw files (occurrences of "qid" and "pid").
func TestLoadDir(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench", "ontologies")
	onts, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(onts) != 19 {
		t.Fatalf("%d ontologies, want 19", len(onts))
	}
	want := []string{"university", "musicalwork", "airport", "building", "athlete", "politician", "company", "celestialbody", "astronaut", "comicscharacter", "meanoftransportation", "monument", "food", "writtenwork", "sportsteam", "city", "artist", "scientist", "film"}
	for i, o := range onts {
		if o.ID != fmt.Sprintf("ont_%d_%s", i+1, want[i]) {
			t.Errorf("ontology %d is %s", i+1, o.ID)
		}
		raw, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d_%s_ontology.json", i+1, want[i])))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(raw), `"qid"`); n != len(o.Concepts) {
			t.Errorf("%s: %d concepts, the file has %d qids", o.ID, len(o.Concepts), n)
		}
		if n := strings.Count(string(raw), `"pid"`); n != len(o.Relations) {
			t.Errorf("%s: %d relations, the file has %d pids", o.ID, len(o.Relations), n)
		}
		for _, name := range Names() {
			if err := Encode(new(strings.Builder), o, name); err != nil {
				t.Errorf("%s %s: %v", o.ID, name, err)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		in        string
		line, col int
	}{
		{"{\n  \"title\": \"x\",\n  \"concepts\": [}\n", 3, 16},
		{"{\n  \"title\": 5\n}", 2, 13},
		{"{\"title\": \"a\"} {}", 1, 16},
		{"{\"title\": \"a\xff\"}", 1, 13},
		{"{\"title\": \"a\",\n \"extra\": 1}", 2, 2},
		{"{\"concepts\": [{\"qid\": \"a\"}]}", 1, 15},
		{"{\"concepts\": [{\"qid\": \"a\", \"label\": \"a\"}],\n\"relations\": [{\"pid\": 1}]}", 2, 24},
		{"{\"relations\": [{\"pid\": \"p\", \"label\": \"p\", \"domain\": \"d\", \"range\": \"r\", \"x\": 1}]}", 1, 16},
		{"", 1, 1},
	}
	for _, c := range cases {
		_, err := Load(strings.NewReader(c.in), "t.json")
		perrtest.At(t, err, "", c.line, c.col, "", "%q", c.in)
	}
}

// TestRDFFormatsParse parses turtle and shacl_lite with rdf/turtle and
// jsonld with rdf/jsonld for every benchmark ontology and a hostile one:
// turtle and jsonld give 2 triples per concept and 4 per relation (fewer
// where labels repeat).
func TestRDFFormatsParse(t *testing.T) {
	onts, err := LoadDir(shared.MustPath(t, "data", "text2kgbench", "ontologies"))
	if err != nil {
		t.Fatal(err)
	}
	onts = append(onts, reference(), &Ontology{
		Concepts:  []Concept{{"x", "a b"}, {"y", "\"q\"\n"}, {"z", ""}, {"w", "ü>"}},
		Relations: []Relation{{"p", "rel with space", "a b", ""}, {"q", "#", "\"q\"\n", "ü>"}},
	})
	for _, o := range onts {
		want := map[string]bool{}
		for _, c := range o.Concepts {
			want["c"+c.Label] = true
			want["l"+c.Label+"\x00"+c.Label] = true
		}
		for _, r := range o.Relations {
			want["c"+r.Label+"\x00prop"] = true
			want["l"+r.Label+"\x00"+r.Label] = true
			want["d"+r.Label+"\x00"+r.Domain] = true
			want["r"+r.Label+"\x00"+r.Range] = true
		}
		for _, name := range []string{"turtle", "jsonld", "shacl_lite"} {
			text := encode(t, o, name)
			d := rdf.NewDataset()
			if name == "jsonld" {
				err = jsonld.Parse(strings.NewReader(text), d, jsonld.Options{})
			} else {
				err = turtle.Parse(strings.NewReader(text), turtle.Turtle, d, rdf.ReadOptions{})
			}
			if err != nil {
				t.Errorf("%s %s: %v\n%s", o.ID, name, err, text)
				continue
			}
			if name != "shacl_lite" && d.Len() != len(want) {
				t.Errorf("%s %s: %d triples, want %d", o.ID, name, d.Len(), len(want))
			}
		}
	}
}

// TestLosses shows what every format drops: ids and the title never change
// the text, a label always does, and entity_centric alone ignores the
// order of relations of different domains.
func TestLosses(t *testing.T) {
	base := reference()
	renamed := reference()
	renamed.Title, renamed.ID = "T", "ont_x"
	for i := range renamed.Concepts {
		renamed.Concepts[i].ID = "Q" + renamed.Concepts[i].ID
	}
	for i := range renamed.Relations {
		renamed.Relations[i].ID = "P" + renamed.Relations[i].ID
	}
	relabelled := reference()
	relabelled.Relations[0].Label = "employedBy"
	reordered := reference()
	reordered.Relations[0], reordered.Relations[1] = reordered.Relations[1], reordered.Relations[0]
	for _, f := range Formats() {
		if f.Lossless || !strings.Contains(f.Loses, "ids") {
			t.Errorf("%s: every format loses ids; Info says %+v", f.Name, f)
		}
		b := encode(t, base, f.Name)
		if encode(t, renamed, f.Name) != b {
			t.Errorf("%s: ids or title changed the text", f.Name)
		}
		if encode(t, relabelled, f.Name) == b {
			t.Errorf("%s: a relation label did not change the text", f.Name)
		}
		lost := encode(t, reordered, f.Name) == b
		if lost != strings.Contains(f.Loses, "order of relations") {
			t.Errorf("%s: reordering relations across domains leaves the text the same: %v; Loses %q", f.Name, lost, f.Loses)
		}
	}
	// shacl_lite writes shapes for listed concepts only.
	o0 := reference()
	o0.Relations = append(o0.Relations, Relation{"owns", "owns", "Ghost", "City"})
	if got := encode(t, o0, "shacl_lite"); strings.Contains(got, "owns") {
		t.Errorf("shacl_lite wrote a relation of an unlisted domain:\n%s", got)
	}
	if got := encode(t, o0, "entity_centric"); !strings.Contains(got, "## Ghost\n--[owns]--> City\n") {
		t.Errorf("entity_centric lost a relation of an unlisted domain:\n%s", got)
	}
	// Mermaid writes characters outside [A-Za-z0-9_] as _.
	o := &Ontology{Concepts: []Concept{{"a", "a b"}, {"b", "a_b"}}}
	if got := encode(t, o, "mermaid"); got != "classDiagram\n  class a_b\n  class a_b\n" {
		t.Errorf("mermaid: %q", got)
	}
	// text2kgbench writes spaces in relation labels as _.
	o = &Ontology{Relations: []Relation{{"p", "part of", "A", "B"}}}
	if got := encode(t, o, "text2kgbench"); got != "Ontology Concepts: ,\nOntology Relations: part_of(A,B)\n" {
		t.Errorf("text2kgbench: %q", got)
	}
	if !regexp.MustCompile(`^[a-z_0-9]+$`).MatchString(strings.Join(Names(), "")) {
		t.Errorf("names: %v", Names())
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"turtle", "jsonld", "shacl_lite", "text2kgbench", "entity_centric", "relation_indexed", "markdown_table", "toon", "mermaid", "edge_list", "structured", "nl_summary"}
	if !slices.Equal(Names(), want) {
		t.Errorf("Names() = %v", Names())
	}
	if err := Encode(new(strings.Builder), reference(), "dot"); err == nil {
		t.Error("unknown format accepted")
	}
	for _, name := range Names() {
		if err := Encode(failWriter{}, reference(), name); err == nil {
			t.Errorf("%s: write error not reported", name)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("boom") }
