package kg

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/tasktest"
)

// studySets are the question sets the studies freeze (study/isolda.go): the
// pilot's seed 1100 with its caps per family, the confirmatory run's seeds
// 1101 and 1102 and the writers' seed 1201 (also isolda questions' default),
// at most 40 per family.
var studySets = []struct {
	seed int64
	per  map[string]int // nil: every family, 40 each
}{
	{1100, map[string]int{FamilyLookup: 15, FamilyMultiHop: 14, FamilyTypeCount: 6}},
	{1101, nil},
	{1102, nil},
	{1201, nil},
}

// studySet generates a set as the studies do: per family when per is given.
func studySet(d *rdf.Dataset, seed int64, per map[string]int) (*task.Set, error) {
	if per == nil {
		return Generate(d, Options{Seed: seed, PerFamily: 40})
	}
	set := &task.Set{Seed: seed}
	for _, f := range Families() {
		n, ok := per[f]
		if !ok {
			continue
		}
		one, err := Generate(d, Options{Families: []string{f}, PerFamily: n, Seed: seed})
		if err != nil {
			return nil, err
		}
		set.Questions = append(set.Questions, one.Questions...)
		set.Counts = append(set.Counts, one.Counts...)
	}
	return set, nil
}

// corpusFiles lists the examples and testdata/corpus.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{filepath.Join("..", "..", "examples", "*.ttl"), filepath.Join("..", "..", "testdata", "corpus", "*.*")} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 30 {
		t.Fatalf("%d graphs in examples and testdata/corpus, want 30 or more", len(files))
	}
	return files
}

// TestQuestionsUniqueAndUnambiguous generates, on every graph of the
// examples and of testdata/corpus, every set a study freezes and every
// candidate of every family, and checks that no set holds a text twice and
// that every question has exactly one reading in its graph, whose answer is
// the gold answer. Readings are found from the text alone (reader below):
// every way to split it along its family's template, and every term each part
// can name.
func TestQuestionsUniqueAndUnambiguous(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() {
		files = files[:3] // the examples
	}
	for _, f := range files {
		d := rdftest.ReadFile(t, f, rdfio.Options{ReadOptions: rdf.ReadOptions{Base: "https://corpus.isolda.example/"}})
		name := filepath.Base(f)
		r := newReader(d)
		all, err := Generate(d, Options{PerFamily: MaxPerFamily})
		if err != nil {
			t.Fatal(err)
		}
		checkUnique(t, name+" (all candidates)", all)
		bad := 0
		for _, q := range all.Questions {
			if why := r.check(q); why != "" {
				bad++
				if bad <= 10 {
					t.Errorf("%s %s %q (gold %q): %s", name, q.ID, q.Text, q.Gold.Text, why)
				}
			}
		}
		if bad > 10 {
			t.Errorf("%s: %d questions without exactly one reading", name, bad)
		}
		for _, s := range studySets {
			set, err := studySet(d, s.seed, s.per)
			if err != nil {
				t.Fatal(err)
			}
			checkUnique(t, fmt.Sprintf("%s seed %d", name, s.seed), set)
		}
	}
}

func checkUnique(t *testing.T, name string, set *task.Set) {
	t.Helper()
	seen := map[string]string{}
	for _, q := range set.Questions {
		key := task.Normalize(q.Text)
		if id, dup := seen[key]; dup {
			t.Errorf("%s: %s and %s are both %q", name, id, q.ID, q.Text)
		}
		seen[key] = q.ID
	}
}

// reader finds the readings of a question in its graph without the
// generator: a term can go by its IRI's local name, its prefixed name with
// any prefix of the dataset or graph.CommonPrefixes, its IRI in angle
// brackets, any of its labels (every label predicate, every language), and a
// Wikidata direct claim (wdt:Pn, or the object of wikibase:directClaim) by
// the labels of its property entity; an entity by any of its labels. "The
// label of E in L" is E's label in L of the most preferred label predicate
// that has one in L (an alias is not the label).
type reader struct {
	out      map[string]map[string][]rdf.Term // subject -> predicate -> distinct objects
	in       map[string]map[string][]string   // object -> predicate -> distinct subjects
	types    map[string][]string              // type -> distinct instances
	preds    map[string]bool
	labels   map[string][]rdf.Term // term -> its label literals
	termName map[string][]string   // normalized name -> terms
	entName  map[string][]string   // normalized label -> terms
}

func key(t rdf.Term) string {
	if t.Kind == rdf.BlankKind {
		return "_:" + t.Value
	}
	return t.Value
}

func newReader(d *rdf.Dataset) *reader {
	r := &reader{out: map[string]map[string][]rdf.Term{}, in: map[string]map[string][]string{},
		types: map[string][]string{}, preds: map[string]bool{}, labels: map[string][]rdf.Term{},
		termName: map[string][]string{}, entName: map[string][]string{}}
	isLabel := map[string]bool{}
	for _, p := range graph.DefaultLabelPredicates() {
		isLabel[p] = true
	}
	seen := map[[3]string]bool{}
	terms := map[string]rdf.Term{}
	for _, q := range d.Quads() {
		s, p := key(q.S), q.P.Value
		k3 := [3]string{s, p, q.O.String()}
		if seen[k3] {
			continue
		}
		seen[k3] = true
		terms[s], terms[p] = q.S, q.P
		r.preds[p] = true
		if r.out[s] == nil {
			r.out[s] = map[string][]rdf.Term{}
		}
		r.out[s][p] = append(r.out[s][p], q.O)
		if q.O.Kind == rdf.LiteralKind {
			if isLabel[p] {
				r.labels[s] = append(r.labels[s], q.O)
			}
			continue
		}
		o := key(q.O)
		terms[o] = q.O
		if r.in[o] == nil {
			r.in[o] = map[string][]string{}
		}
		r.in[o][p] = append(r.in[o][p], s)
		if p == rdf.RDFType {
			r.types[o] = append(r.types[o], s)
		}
	}
	prefixes := append(slices.Clone(d.Prefixes), graph.CommonPrefixes()...)
	addName := func(m map[string][]string, name, term string) {
		n := task.Normalize(name)
		if !slices.Contains(m[n], term) {
			m[n] = append(m[n], term)
		}
	}
	for k, t := range terms {
		for _, l := range r.labels[k] {
			addName(r.entName, l.Value, k)
			addName(r.termName, l.Value, k)
		}
		if t.Kind != rdf.IRIKind {
			addName(r.termName, k, k)
			continue
		}
		addName(r.termName, "<"+k+">", k)
		if i := strings.LastIndexAny(k, "/#:"); i >= 0 && i < len(k)-1 {
			addName(r.termName, k[i+1:], k)
		}
		for _, p := range prefixes {
			if local, ok := strings.CutPrefix(k, p.IRI); ok && local != "" {
				addName(r.termName, p.Name+":"+local, k)
			}
		}
		if pid, ok := strings.CutPrefix(k, "http://www.wikidata.org/prop/direct/"); ok {
			for _, l := range r.labels["http://www.wikidata.org/entity/"+pid] {
				addName(r.termName, l.Value, k)
			}
		}
	}
	// A property entity lends its labels to its direct claim predicate.
	for s, ps := range r.out {
		for _, o := range ps["http://wikiba.se/ontology#directClaim"] {
			for _, l := range r.labels[s] {
				addName(r.termName, l.Value, key(o))
			}
		}
	}
	return r
}

// typesNamed and predsNamed are the types and the predicates a name can mean.
func (r *reader) typesNamed(name string) []string {
	var out []string
	for _, k := range r.termName[task.Normalize(name)] {
		if len(r.types[k]) > 0 {
			out = append(out, k)
		}
	}
	return out
}

func (r *reader) predsNamed(name string) []string {
	var out []string
	for _, k := range r.termName[task.Normalize(name)] {
		if r.preds[k] {
			out = append(out, k)
		}
	}
	return out
}

func (r *reader) entitiesNamed(name string) []string { return r.entName[task.Normalize(name)] }

// fits reports whether v is the gold answer: a literal by its text, an
// entity when the gold answer is a label of it and of no other entity.
func (r *reader) fits(v rdf.Term, gold string) bool {
	if v.Kind == rdf.LiteralKind {
		return v.Value == gold
	}
	names := r.entitiesNamed(gold)
	return len(names) == 1 && names[0] == key(v)
}

// splits returns every (a, b) with s == a + sep + b, a and b non-empty.
func splits(s, sep string) [][2]string {
	var out [][2]string
	for i := 0; ; {
		j := strings.Index(s[i:], sep)
		if j < 0 {
			return out
		}
		if a, b := s[:i+j], s[i+j+len(sep):]; a != "" && b != "" {
			out = append(out, [2]string{a, b})
		}
		i += j + 1
	}
}

var (
	reCount  = regexp.MustCompile(`^How many entities of type (.+) are there\?$`)
	reLookup = regexp.MustCompile(`^What is the (.+)\?$`)
	reOut    = regexp.MustCompile(`^How many distinct (.+) have\?$`)
	reIn     = regexp.MustCompile(`^How many entities have (.+)\?$`)
	reLang   = regexp.MustCompile(`^What is the label of (.+)\?$`)
	reFilter = regexp.MustCompile(`^Which entity of type (.+)\?$`)
	reTag    = regexp.MustCompile(`\(([A-Za-z0-9-]+)\)$`)
)

// reading is one way to understand a question: the terms it names and
// whether its answer is the gold answer.
type reading struct {
	terms string
	gold  bool
}

// readings lists every reading of q's text in its family's template that
// the graph can answer.
func (r *reader) readings(q task.Question) []reading {
	var out []reading
	gold := q.Gold.Text
	count := func(n int) bool { return strconv.Itoa(n) == gold }
	text := q.Text
	switch q.Family {
	case FamilyTypeCount:
		if m := reCount.FindStringSubmatch(text); m != nil {
			for _, t := range r.typesNamed(m[1]) {
				out = append(out, reading{t, count(len(r.types[t]))})
			}
		}
	case FamilyLookup, FamilyMultiHop:
		if m := reLookup.FindStringSubmatch(text); m != nil {
			for _, sp := range splits(m[1], " of ") {
				for _, p := range r.predsNamed(sp[0]) {
					for _, s := range r.entitiesNamed(sp[1]) {
						if vs := r.out[s][p]; len(vs) > 0 {
							out = append(out, reading{p + " " + s, len(vs) == 1 && r.fits(vs[0], gold)})
						}
					}
				}
			}
		}
	case FamilyOutAgg:
		if m := reOut.FindStringSubmatch(text); m != nil {
			for _, sp := range splits(m[1], " values does ") {
				for _, p := range r.predsNamed(sp[0]) {
					for _, s := range r.entitiesNamed(sp[1]) {
						if vs := r.out[s][p]; len(vs) > 0 {
							out = append(out, reading{p + " " + s, count(len(vs))})
						}
					}
				}
			}
		}
	case FamilyInAgg:
		if m := reIn.FindStringSubmatch(text); m != nil {
			for _, sp := range splits(m[1], " as their ") {
				for _, o := range r.entitiesNamed(sp[0]) {
					for _, p := range r.predsNamed(sp[1]) {
						if ss := r.in[o][p]; len(ss) > 0 {
							out = append(out, reading{o + " " + p, count(len(ss))})
						}
					}
				}
			}
		}
	case FamilyLanguage:
		if m := reLang.FindStringSubmatch(text); m != nil {
			for _, sp := range splits(m[1], " in ") {
				tag := sp[1]
				if t := reTag.FindStringSubmatch(tag); t != nil {
					tag = t[1]
				}
				for _, s := range r.entitiesNamed(sp[0]) {
					var vals []string
					for _, lp := range graph.DefaultLabelPredicates() {
						for _, l := range r.out[s][lp] {
							if l.Kind == rdf.LiteralKind && strings.EqualFold(l.Lang, tag) && !slices.Contains(vals, l.Value) {
								vals = append(vals, l.Value)
							}
						}
						if len(vals) > 0 {
							break
						}
					}
					if len(vals) > 0 {
						out = append(out, reading{s + " @" + tag, len(vals) == 1 && vals[0] == gold})
					}
				}
			}
		}
	case FamilyTwoHop:
		if m := reLookup.FindStringSubmatch(text); m != nil {
			for _, sp := range splits(m[1], " of the ") {
				for _, sp2 := range splits(sp[1], " of ") {
					for _, p2 := range r.predsNamed(sp[0]) {
						for _, p1 := range r.predsNamed(sp2[0]) {
							for _, s := range r.entitiesNamed(sp2[1]) {
								mids := r.out[s][p1]
								var ends []rdf.Term
								for _, mid := range mids {
									if mid.Kind != rdf.LiteralKind {
										ends = append(ends, r.out[key(mid)][p2]...)
									}
								}
								if len(ends) > 0 {
									out = append(out, reading{p2 + " " + p1 + " " + s, len(mids) == 1 && len(ends) == 1 && r.fits(ends[0], gold)})
								}
							}
						}
					}
				}
			}
		}
	case FamilyFilter:
		m := reFilter.FindStringSubmatch(text)
		if m == nil {
			break
		}
		for _, vsp := range splits(m[1], ` "`) {
			value, err := strconv.Unquote(`"` + vsp[1])
			if err != nil {
				continue
			}
			for _, sp := range splits(vsp[0], " has ") {
				for _, t := range r.typesNamed(sp[0]) {
					for _, p := range r.predsNamed(sp[1]) {
						var holders []string
						for _, s := range r.types[t] {
							for _, v := range r.out[s][p] {
								if v.Kind == rdf.LiteralKind && v.Value == value && !slices.Contains(holders, s) {
									holders = append(holders, s)
								}
							}
						}
						if len(holders) > 0 {
							names := r.entitiesNamed(gold)
							out = append(out, reading{t + " " + p + " " + value, len(holders) == 1 && len(names) == 1 && names[0] == holders[0]})
						}
					}
				}
			}
		}
	}
	return out
}

// check returns "" when q has exactly one reading and its answer is the
// gold answer, else what is wrong.
func (r *reader) check(q task.Question) string {
	rs := r.readings(q)
	switch {
	case len(rs) == 0:
		return "no reading"
	case len(rs) > 1:
		var ts []string
		for _, x := range rs {
			ts = append(ts, x.terms)
		}
		return fmt.Sprintf("%d readings: %s", len(rs), strings.Join(ts, " | "))
	case !rs[0].gold:
		return "its one reading has another answer: " + rs[0].terms
	}
	return ""
}

// TestReaderFindsAmbiguity checks that the reader is a real oracle: on a
// graph where two classes and two properties share a local name, the
// wording of the issue ("Form") has two readings, and the prefixed names
// one each.
func TestReaderFindsAmbiguity(t *testing.T) {
	d := readTurtle(t, `@prefix a: <http://a.example/> .
@prefix b: <http://b.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
a:f1 a a:Form, b:Form ; rdfs:label "one" ; a:rep "x" ; b:rep "y" .
a:f2 a a:Form ; rdfs:label "two" ; a:rep "z" ; b:rep "w" .
a:f3 a b:Form ; rdfs:label "three" ; a:rep "v" ; b:rep "u" .
`)
	r := newReader(d)
	cases := []struct {
		fam, text, gold string
		readings        int
	}{
		{FamilyTypeCount, "How many entities of type Form are there?", "2", 2},
		{FamilyTypeCount, "How many entities of type a:Form are there?", "2", 1},
		{FamilyTypeCount, "How many entities of type <http://b.example/Form> are there?", "2", 1},
		{FamilyLookup, "What is the rep of one?", "x", 2},
		{FamilyLookup, "What is the b:rep of one?", "y", 1},
		{FamilyFilter, `Which entity of type Form has rep "x"?`, "one", 2}, // a:Form or b:Form, with a:rep
		{FamilyFilter, `Which entity of type a:Form has a:rep "x"?`, "one", 1},
	}
	for _, c := range cases {
		q := task.Question{Family: c.fam, Text: c.text, Gold: task.Answer{Text: c.gold}}
		if n := len(r.readings(q)); n != c.readings {
			t.Errorf("%q: %d readings, want %d", c.text, n, c.readings)
		}
	}
	set, err := Generate(d, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkUnique(t, "two Forms", set)
	for _, q := range set.Questions {
		if why := r.check(q); why != "" {
			t.Errorf("%s %q: %s", q.ID, q.Text, why)
		}
	}
}

// TestAmbiguousCounted checks that a candidate naming an entity by a label
// another entity also has is left out and counted, in the counts written
// and in the frozen set's header.
func TestAmbiguousCounted(t *testing.T) {
	d := readTurtle(t, `@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
ex:a rdfs:label "Anna" ; ex:born "1900" .
ex:b rdfs:label "Bert" ; skos:altLabel "anna" ; ex:born "1901" .
`)
	set, err := Generate(d, Options{Families: []string{FamilyLookup}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) != 1 || set.Questions[0].Text != "What is the born of Bert?" {
		t.Fatalf("questions %+v, want the one about Bert", set.Questions)
	}
	var buf bytes.Buffer
	if err := set.WriteCounts(&buf); err != nil {
		t.Fatal(err)
	}
	if want := "lookup: 1 questions (1 candidates, 1 ambiguous left out)\ntotal: 1 questions\n"; buf.String() != want {
		t.Errorf("counts %q, want %q", buf.String(), want)
	}
	back := tasktest.RoundTrip(t, set)
	if c := back.Counts[0]; c.Ambiguous != 1 || c.Candidates != 1 {
		t.Errorf("frozen header %+v, want 1 candidate and 1 ambiguous", c)
	}
}
