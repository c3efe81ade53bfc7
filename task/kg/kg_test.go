package kg

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/tasktest"
)

const handGraph = `@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:a a ex:Person ; rdfs:label "Anna"@en, "Anna Ca"@ca ; ex:born "1900" ; ex:city ex:c ; ex:friend ex:b, ex:d .
ex:b a ex:Person ; rdfs:label "Bert"@en ; ex:born "1901" ; ex:city ex:c .
ex:d a ex:Person ; rdfs:label "Dora" ; ex:born "1900" .
ex:e rdfs:label "Dora" ; ex:born "1950" .
ex:c a ex:City ; rdfs:label "Cdorf" ; ex:pop "5" .
ex:Person rdfs:label "person" .
ex:city rdfs:label "home city" .
`

func readTurtle(t *testing.T, src string) *rdf.Dataset {
	t.Helper()
	return rdftest.Read(t, src, rdfio.Options{Format: rdfio.Turtle})
}

// TestGenerateHand checks every family against answers worked out by hand
// for a small graph (the oracle is the list below, not the generator).
func TestGenerateHand(t *testing.T) {
	d := readTurtle(t, handGraph)
	set, err := Generate(d, Options{Seed: 1201})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lookup|What is the born of Anna?|1900",
		"lookup|What is the born of Bert?|1901",
		"lookup|What is the pop of Cdorf?|5",
		"multi_hop|What is the home city of Anna?|Cdorf",
		"multi_hop|What is the home city of Bert?|Cdorf",
		"count|How many entities of type City are there?|1",
		"count|How many entities of type person are there?|3",
		"outgoing_aggregation|How many distinct friend values does Anna have?|2",
		"incoming_aggregation|How many entities have Cdorf as their home city?|2",
		"language_choice|What is the label of Anna in Catalan (ca)?|Anna Ca",
		"two_hop|What is the pop of the home city of Anna?|5",
		"two_hop|What is the pop of the home city of Bert?|5",
		`filter|Which entity of type person has born "1901"?|Bert`,
	}
	var got []string
	for _, q := range set.Questions {
		got = append(got, q.Family+"|"+q.Text+"|"+q.Gold.Value)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("questions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range set.Counts {
		if c.Questions == 0 {
			t.Errorf("family %s skipped: %s", c.Family, c.Skipped)
		}
	}
	// At most N per family: with 1 per family, 8 questions.
	one, err := Generate(d, Options{Seed: 1201, PerFamily: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Questions) != 8 {
		t.Errorf("PerFamily 1 gave %d questions", len(one.Questions))
	}
}

// TestGenerateSkips checks that a graph without candidates reports skips.
func TestGenerateSkips(t *testing.T) {
	d := readTurtle(t, `<http://ex.org/x> <http://ex.org/p> <http://ex.org/y> .`)
	set, err := Generate(d, Options{Families: []string{FamilyLookup, FamilyTypeCount}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) != 0 || len(set.Counts) != 2 || set.Counts[0].Skipped == "" || set.Counts[1].Skipped == "" {
		t.Errorf("counts %+v, %d questions", set.Counts, len(set.Questions))
	}
	if _, err := Generate(d, Options{Families: []string{"nonsense"}}); err == nil {
		t.Error("unknown family accepted")
	}
	if _, err := Generate(d, Options{PerFamily: -1}); err == nil {
		t.Error("negative PerFamily accepted")
	}
}

func TestParseFamilies(t *testing.T) {
	f, err := ParseFamilies("all")
	if err != nil || len(f) != 8 {
		t.Fatalf("all: %v %v", f, err)
	}
	f, err = ParseFamilies("two-hop, lookup,lookup")
	if err != nil || strings.Join(f, ",") != "lookup,two_hop" {
		t.Errorf("got %v %v", f, err)
	}
	if _, err := ParseFamilies("lookup,bogus"); err == nil {
		t.Error("bogus accepted")
	}
}

// oracle recomputes a question's gold answer by a naive scan of the
// dataset's quads and graph.FromRDF's labels (a second, independent
// computation), from the IRIs the question's Meta records.
type oracle struct {
	quads  []rdf.Quad
	labels map[string]string // IRI or _:label -> label
	count  map[string]int    // normalized label -> entities with it
}

func newOracle(d *rdf.Dataset) *oracle {
	o := &oracle{quads: d.Quads(), labels: map[string]string{}, count: map[string]int{}}
	g := graph.FromRDF(d, graph.Options{NoCommonPrefixes: true})
	// Node IDs are compacted; map them back through the quads' terms.
	byID := map[string]string{}
	for _, n := range g.Nodes {
		byID[n.ID] = n.Label
	}
	for _, n := range g.Nodes {
		if n.Label != "" {
			o.count[task.Normalize(n.Label)]++
		}
	}
	ids := graphIDs(d)
	for key, id := range ids {
		if l, ok := byID[id]; ok && l != "" {
			o.labels[key] = l
		}
	}
	return o
}

// graphIDs maps every IRI and blank node of d to the ID graph.FromRDF gives
// it (the full IRI when it cannot compact), by building a one-node graph per
// term would be slow; instead compact through the same FromRDF call on a
// dataset where each term is its own subject.
func graphIDs(d *rdf.Dataset) map[string]string {
	out := map[string]string{}
	g := graph.FromRDF(d, graph.Options{NoCommonPrefixes: true})
	// FromRDF nodes are sorted by ID and built from sorted quads; match them
	// to terms by rebuilding the set of node terms in the same order.
	terms := map[string]bool{}
	for _, q := range d.Quads() {
		terms[termKey(q.S)] = true
		if q.O.Kind != rdf.LiteralKind && q.P.Value != rdf.RDFType {
			terms[termKey(q.O)] = true
		}
	}
	for _, n := range g.Nodes {
		switch {
		case terms[n.ID]:
			out[n.ID] = n.ID
		default:
			// Compact IRI: expand with the dataset's prefixes.
			for _, p := range d.Prefixes {
				if strings.HasPrefix(n.ID, p.Name+":") && terms[p.IRI+n.ID[len(p.Name)+1:]] {
					out[p.IRI+n.ID[len(p.Name)+1:]] = n.ID
				}
			}
		}
	}
	return out
}

func termKey(t rdf.Term) string {
	if t.Kind == rdf.BlankKind {
		return "_:" + t.Value
	}
	return t.Value
}

func (o *oracle) objects(s, p string) []rdf.Term {
	seen := map[rdf.Term]bool{}
	var out []rdf.Term
	for _, q := range o.quads {
		if termKey(q.S) == s && q.P.Value == p && !seen[q.O] {
			seen[q.O] = true
			out = append(out, q.O)
		}
	}
	return out
}

func (o *oracle) subjects(p, obj string) int {
	seen := map[string]bool{}
	for _, q := range o.quads {
		if q.P.Value == p && q.O.Kind != rdf.LiteralKind && termKey(q.O) == obj {
			seen[termKey(q.S)] = true
		}
	}
	return len(seen)
}

func (o *oracle) named(key string) (string, bool) {
	l, ok := o.labels[key]
	return l, ok && o.count[task.Normalize(l)] == 1
}

// gold recomputes the answer of q, or returns "" with a reason.
func (o *oracle) gold(q task.Question) (string, string) {
	m := q.Meta
	switch q.Family {
	case FamilyLookup, FamilyMultiHop:
		objs := o.objects(m["subject"], m["property"])
		if len(objs) != 1 {
			return "", fmt.Sprintf("%d objects", len(objs))
		}
		if q.Family == FamilyLookup {
			return objs[0].Value, ""
		}
		l, ok := o.named(termKey(objs[0]))
		if !ok {
			return "", "object not uniquely named"
		}
		return l, ""
	case FamilyTypeCount:
		return strconv.Itoa(o.subjects(rdf.RDFType, m["type"])), ""
	case FamilyOutAgg:
		return strconv.Itoa(len(o.objects(m["subject"], m["property"]))), ""
	case FamilyInAgg:
		return strconv.Itoa(o.subjects(m["property"], m["object"])), ""
	case FamilyLanguage:
		var vals []string
		for _, t := range o.objects(m["subject"], m["property"]) {
			if strings.EqualFold(t.Lang, m["language"]) {
				vals = append(vals, t.Value)
			}
		}
		if len(vals) != 1 {
			return "", fmt.Sprintf("%d labels", len(vals))
		}
		return vals[0], ""
	case FamilyTwoHop:
		mid := o.objects(m["subject"], m["property"])
		if len(mid) != 1 || termKey(mid[0]) != m["via"] {
			return "", "middle"
		}
		end := o.objects(m["via"], m["property2"])
		if len(end) != 1 {
			return "", "end"
		}
		if end[0].Kind == rdf.LiteralKind {
			return end[0].Value, ""
		}
		l, _ := o.named(termKey(end[0]))
		return l, ""
	case FamilyFilter:
		// The subject is the only instance of the type with the value.
		holders := 0
		for _, q := range o.quads {
			if q.P.Value == rdf.RDFType && termKey(q.O) == m["type"] {
				for _, v := range o.objects(termKey(q.S), m["property"]) {
					if v.Kind == rdf.LiteralKind && v.Value == m["value"] {
						holders++
						if termKey(q.S) != m["subject"] {
							return "", "another instance has the value"
						}
					}
				}
			}
		}
		if holders != 1 {
			return "", fmt.Sprintf("%d holders", holders)
		}
		if !strings.Contains(q.Text, strconv.Quote(m["value"])) {
			return "", "value not in the question"
		}
		l, _ := o.named(m["subject"])
		return l, ""
	}
	return "", "unknown family"
}

// TestGenerateCrossCheck generates questions on real graphs and recomputes
// every gold answer with the naive oracle.
func TestGenerateCrossCheck(t *testing.T) {
	files := []string{
		filepath.Join("..", "..", "examples", "wikidata-L691820-lexeme.ttl"), // copies of ../shared/data/examples
		filepath.Join("..", "..", "examples", "lod-datagovuk-reference-intervals.ttl"),
		filepath.Join("..", "..", "examples", "demo.ttl"),
	}
	// The songkick page's licence keeps it out of the repository: only with ../shared.
	if _, err := shared.Dir(); err == nil || shared.Required() {
		files = append(files, shared.MustPath(t, "data", "examples", "html-schemaorg-songkick-years-and-years-tour-events.html"))
	} else {
		t.Log("without ../shared: the songkick page is left out")
	}
	for _, f := range files {
		d := rdftest.ReadFile(t, f, rdfio.Options{})
		set, err := Generate(d, Options{Seed: 1201, PerFamily: 40, Name: filepath.Base(f)})
		if err != nil {
			t.Fatal(err)
		}
		o := newOracle(d)
		agree := 0
		for _, q := range set.Questions {
			g, why := o.gold(q)
			if g != q.Gold.Value {
				t.Errorf("%s %s %q: gold %q, oracle %q (%s)", filepath.Base(f), q.ID, q.Text, q.Gold.Value, g, why)
				continue
			}
			agree++
			if !task.ScoreKG.Score(q, q.Gold.Value).Correct {
				t.Errorf("%s: gold answer scores 0", q.ID)
			}
		}
		var parts []string
		for _, c := range set.Counts {
			parts = append(parts, fmt.Sprintf("%s %d/%d", c.Family, c.Questions, c.Candidates))
		}
		msg := fmt.Sprintf("%s: %d questions, %d agree with the oracle; %s", filepath.Base(f), len(set.Questions), agree, strings.Join(parts, ", "))
		t.Log(msg)
		// Frozen round trip.
		back := tasktest.RoundTrip(t, set)
		if len(back.Questions) != len(set.Questions) || back.Contexts[0].SHA1 != DatasetSHA1(d) {
			t.Errorf("round trip lost questions or context hash")
		}
	}
}

// TestGenerateDeterministic checks seeds and family independence.
func TestGenerateDeterministic(t *testing.T) {
	d := rdftest.ReadFile(t, filepath.Join("..", "..", "examples", "lod-datagovuk-reference-intervals.ttl"), rdfio.Options{})
	texts := func(s *task.Set, fam string) string {
		var out []string
		for _, q := range s.Questions {
			if q.Family == fam {
				out = append(out, q.Text)
			}
		}
		return strings.Join(out, "\n")
	}
	a, _ := Generate(d, Options{Seed: 7, PerFamily: 3})
	b, _ := Generate(d, Options{Seed: 7, PerFamily: 3})
	c, _ := Generate(d, Options{Seed: 7, PerFamily: 3, Families: []string{FamilyLookup}})
	var wa, wb bytes.Buffer
	task.WriteFrozen(&wa, a)
	task.WriteFrozen(&wb, b)
	if wa.String() != wb.String() {
		t.Error("same seed, different sets")
	}
	if texts(a, FamilyLookup) != texts(c, FamilyLookup) || texts(a, FamilyLookup) == "" {
		t.Error("lookup questions depend on the other families")
	}
}

// BenchmarkGenerateNomisma generates all eight families on the Nomisma.org
// thesaurus (757k triples); reading the file is not timed.
func BenchmarkGenerateNomisma(b *testing.B) {
	d := rdftest.ReadFile(b, shared.MustPath(b, "data", "big", "nomisma.ttl"), rdfio.Options{})
	b.ResetTimer()
	for range b.N {
		set, err := Generate(d, Options{Seed: 1201})
		if err != nil {
			b.Fatal(err)
		}
		if b.N == 1 {
			var parts []string
			for _, c := range set.Counts {
				parts = append(parts, fmt.Sprintf("%s %d/%d", c.Family, c.Questions, c.Candidates))
			}
			b.Log(strings.Join(parts, ", "))
		}
	}
}

// FuzzGenerate runs the generator on arbitrary Turtle: it must not panic,
// every gold answer must score 1 with ScoreKG, and the set must survive a
// frozen round trip.
func FuzzGenerate(f *testing.F) {
	f.Add(handGraph)
	f.Add(`@prefix ex: <http://ex.org/> . ex:a ex:p ex:a ; <http://www.w3.org/2000/01/rdf-schema#label> "", " ", "a"@en, "b"@en-GB, "c"@x-y .`)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := rdfio.Read(strings.NewReader(src), rdfio.Options{Format: rdfio.Turtle})
		if err != nil {
			return
		}
		set, err := Generate(d, Options{Seed: 1, PerFamily: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range set.Questions {
			if !task.ScoreKG.Score(q, q.Gold.Value).Correct {
				t.Fatalf("%s: gold %q scores 0", q.ID, q.Gold.Value)
			}
		}
		tasktest.RoundTrip(t, set)
	})
}

// TestWikidataPropertyNames: a wdt:Pn predicate is named by the label of
// wd:Pn, directly or through wikibase:directClaim.
func TestWikidataPropertyNames(t *testing.T) {
	d := readTurtle(t, `@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
wd:Q1 rdfs:label "Mercè Rodoreda"@ca, "Merce Rodoreda"@en ; wdt:P569 "1908-10-10" ; wdt:P19 wd:Q2 .
wd:Q2 rdfs:label "Barcelona"@en .
wd:P569 rdfs:label "date of birth"@en .
wd:PX rdfs:label "place of birth"@en ; wikibase:directClaim wdt:P19 .
`)
	set, err := Generate(d, Options{Families: []string{FamilyLookup, FamilyMultiHop, FamilyLanguage}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range set.Questions {
		got = append(got, q.Text+" "+q.Gold.Value)
	}
	want := "What is the date of birth of Merce Rodoreda? 1908-10-10\nWhat is the place of birth of Merce Rodoreda? Barcelona\nWhat is the label of Merce Rodoreda in Catalan (ca)? Mercè Rodoreda"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

// TestContextHash: the context hash of a generated set is the SHA-1 of the
// dataset's sorted canonical N-Quads, named graphs included.
func TestContextHash(t *testing.T) {
	d, err := rdfio.Read(strings.NewReader(`@prefix ex: <http://ex.org/> .
ex:a ex:p ex:b .
ex:g { ex:a ex:p ex:c . ex:b ex:q "x" . }
_:g1 { ex:a ex:p ex:b . }
`), rdfio.Options{Format: rdfio.TriG})
	if err != nil {
		t.Fatal(err)
	}
	var nq strings.Builder
	for _, q := range d.Sorted() {
		rdf.AppendQuad(&nq, q)
	}
	set, err := Generate(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := task.SHA1Hex(nq.String()); set.Contexts[0].SHA1 != want || DatasetSHA1(d) != want {
		t.Errorf("context hash %s, want %s", set.Contexts[0].SHA1, want)
	}
}

// TestSubfamilyDegreeAbove4 checks the confirmatory run's sub-family on a
// graph written by hand: Ada has five colleagues (a count of 5, above 4),
// Bob two, so one of the two outgoing aggregation questions is in the
// sub-family.
func TestSubfamilyDegreeAbove4(t *testing.T) {
	d, err := rdfio.Read(strings.NewReader(`@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:ada rdfs:label "Ada" ; ex:colleague ex:c1, ex:c2, ex:c3, ex:c4, ex:c5 .
ex:bob rdfs:label "Bob" ; ex:colleague ex:c1, ex:c2 .
ex:c1 rdfs:label "C1" . ex:c2 rdfs:label "C2" . ex:c3 rdfs:label "C3" . ex:c4 rdfs:label "C4" . ex:c5 rdfs:label "C5" .
`), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Generate(d, Options{Families: []string{FamilyOutAgg, FamilyInAgg}, Seed: 1101})
	if err != nil {
		t.Fatal(err)
	}
	sub := map[string]string{}
	for _, q := range set.Questions {
		sub[q.Text] = Subfamily(q)
	}
	if sub["How many distinct colleague values does Ada have?"] != SubfamilyOutAggDegGT4 || sub["How many distinct colleague values does Bob have?"] != "" {
		t.Errorf("sub-families %v", sub)
	}
	split := SplitSubfamilies(set)
	var got []string
	for _, c := range split.Counts {
		got = append(got, fmt.Sprintf("%s:%d", c.Family, c.Questions))
	}
	if strings.Join(got, " ") != "outgoing_aggregation:1 outgoing_aggregation_deg_gt4:1 incoming_aggregation:2" {
		t.Errorf("counts %v", got)
	}
	if set.Questions[0].Family != FamilyOutAgg || len(split.Questions) != len(set.Questions) {
		t.Error("SplitSubfamilies changed its input")
	}
}
