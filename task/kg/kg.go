// Package kg generates structural questions about any RDF graph with
// deterministic gold answers: the question generator of the ISOLDA studies
// (ISOLDA paper §4.3) with its eight families (Generate). Its answers are
// scored with task.ScoreKG.
package kg

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
)

// The eight families of KG questions of the ISOLDA studies (§4.3–4.6 of the
// ISOLDA paper), in the order Generate runs them.
const (
	FamilyLookup    = "lookup"               // a literal of a named entity
	FamilyMultiHop  = "multi_hop"            // the name of the entity a relation reaches
	FamilyTypeCount = "count"                // the number of entities of a type
	FamilyOutAgg    = "outgoing_aggregation" // how many entities an entity links to by a relation
	FamilyInAgg     = "incoming_aggregation" // how many entities link to an entity by a relation
	FamilyLanguage  = "language_choice"      // an entity's label in a given language
	FamilyTwoHop    = "two_hop"              // a value two relations away
	FamilyFilter    = "filter"               // the one entity of a type with a given value
)

// The confirmatory run's sub-family (ISOLDA paper §4.4, criterion 4;
// §5.2 calls it outgoing aggregation with degree above 4): the
// outgoing_aggregation questions whose entity has more than
// SubfamilyDegreeAbove values of the property, i.e. whose answer is above
// 4. Generate records it in Question.Meta[MetaSubfamily]; Subfamily and
// SplitSubfamilies read it.
const (
	MetaSubfamily         = "subfamily"
	SubfamilyOutAggDegGT4 = "outgoing_aggregation_deg_gt4"
	SubfamilyDegreeAbove  = 4
)

// Subfamily returns the sub-family of a question ("" for none).
func Subfamily(q task.Question) string { return q.Meta[MetaSubfamily] }

// SplitSubfamilies returns a copy of set in which every question of a
// sub-family has the sub-family as its Family, the others unchanged: the
// mapping a per-family test of the sub-family needs (criterion 4 of
// §4.4). Counts keep the set's families with their questions recounted,
// and list each sub-family after its parent family (its candidates are
// its questions). Contexts are shared.
func SplitSubfamilies(set *task.Set) *task.Set {
	out := *set
	out.Questions = make([]task.Question, len(set.Questions))
	n := map[string]int{}
	parent := map[string]string{} // sub-family -> family
	var subs []string
	for i, q := range set.Questions {
		if sf := Subfamily(q); sf != "" {
			if _, seen := parent[sf]; !seen {
				parent[sf] = q.Family
				subs = append(subs, sf)
			}
			q.Family = sf
		}
		out.Questions[i] = q
		n[q.Family]++
	}
	out.Counts = nil
	for _, c := range set.Counts {
		c.Questions = n[c.Family]
		out.Counts = append(out.Counts, c)
		for _, sf := range subs {
			if parent[sf] == c.Family {
				out.Counts = append(out.Counts, task.FamilyCount{Family: sf, Questions: n[sf], Candidates: n[sf]})
			}
		}
	}
	return &out
}

// Scoring declares the scorer of the KG questions, named "kg"
// (task.ScoreKG). It owns no family by name: package eval gives it to
// every question whose family no benchmark owns (these generated
// questions, a user's own sets).
func Scoring() task.Scoring {
	return task.Scoring{Scorers: []task.NamedScorer{{Name: "kg", Scorer: task.ScoreKG}}}
}

// Families lists the KG question families in generation order.
func Families() []string {
	return []string{FamilyLookup, FamilyMultiHop, FamilyTypeCount, FamilyOutAgg, FamilyInAgg, FamilyLanguage,
		FamilyTwoHop, FamilyFilter}
}

// ParseFamilies parses a --families flag value: "all", or a comma-separated
// list of family names (multi-hop, two-hop and similar spellings with
// hyphens are accepted). The result is in generation order, without
// duplicates.
func ParseFamilies(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return Families(), nil
	}
	want := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.ReplaceAll(strings.TrimSpace(strings.ToLower(f)), "-", "_")
		switch f {
		case "multihop":
			f = FamilyMultiHop
		case "twohop":
			f = FamilyTwoHop
		case "outgoing", "out_aggregation", "aggregation":
			f = FamilyOutAgg
		case "incoming", "in_aggregation":
			f = FamilyInAgg
		case "language":
			f = FamilyLanguage
		}
		if !isKGFamily(f) {
			return nil, fmt.Errorf("task: unknown question family %q (known: all, %s)", f, strings.Join(Families(), ", "))
		}
		want[f] = true
	}
	var out []string
	for _, f := range Families() {
		if want[f] {
			out = append(out, f)
		}
	}
	return out, nil
}

func isKGFamily(f string) bool {
	for _, k := range Families() {
		if k == f {
			return true
		}
	}
	return false
}

// DefaultPerFamily is Options.PerFamily's default: the ISOLDA
// studies' 40 questions per family.
const DefaultPerFamily = 40

// MaxPerFamily bounds Options.PerFamily.
const MaxPerFamily = 1_000_000

// MaxCandidates bounds the candidates listed per family, and
// MaxCandidateWork the steps spent listing them, so that a huge or hostile
// graph cannot exhaust memory or time; the candidates are then the first ones
// in the deterministic order (Set.Counts shows the count reached).
const (
	MaxCandidates    = 200_000
	MaxCandidateWork = 50_000_000
)

// MaxLiteralAnswer is the longest literal (in characters) used as a gold
// answer or a filter value; longer literals (descriptions, abstracts) make
// questions that string matching cannot score.
const MaxLiteralAnswer = 100

// Options configure Generate.
type Options struct {
	// Families to generate (nil: all eight), see ParseFamilies.
	Families []string
	// PerFamily is the most questions per family (0: DefaultPerFamily).
	PerFamily int
	// Seed makes the choice among candidates reproducible.
	Seed int64
	// Name names the set and its context (e.g. the input file name).
	Name string
	// LabelPredicates are the label predicates in order of preference (nil:
	// graph.DefaultLabelPredicates()); Languages the preferred label
	// languages (nil: "en", then no language).
	LabelPredicates []string
	Languages       []string
}

// Generate writes questions about a dataset driven only by its structure
// (all graphs merged). For each family it lists every candidate in a
// deterministic order, and keeps at most PerFamily of them, drawn with
// Python's random.sample from a generator seeded by (Seed, family index), so
// a family's questions do not depend on which other families are asked. A
// family without candidates is skipped; Set.Counts reports questions and
// candidates per family, with the reason of a skip.
//
// Entities are named by their preferred label (see Options), and only
// entities whose normalized label is unique are named, so that every question
// has one answer; properties and types are named by their label (rdfs:label
// or another label predicate on the property, or on the Wikidata property
// whose wikibase:directClaim it is), else by their IRI's local name.
//
// Every question has one reading in the graph, and no set holds one text
// twice. Two types, or two predicates, with the same name (ontolex:Form and
// wikibase:Form, both "Form") are both named by their prefixed name as
// graph.FromRDF writes it (the dataset's prefixes, then
// graph.CommonPrefixes), else by their IRI in angle brackets. A filter value
// is its text: literals with the same lexical form (in two languages) are one
// value. A candidate that names an entity, in its text or its answer, by a
// name another term has as a label (of any label predicate, in any
// language), and the candidates whose texts are equal (after
// task.Normalize) with different readings, are left out before the seeded
// choice and counted in FamilyCount.Ambiguous.
// Questions whose answer is the text the question already contains (a
// lookup of the very literal that names the entity, a label in the language
// of the name, a filter value equal to the answer) are not candidates.
// Candidates:
//
//   - lookup: a named entity and a property (not a label, not rdf:type) with
//     exactly one value, a literal of at most MaxLiteralAnswer characters:
//     "What is the P of E?", answer the literal;
//   - multi_hop: the same with exactly one value that is a named entity:
//     answer its label;
//   - count: a type: "How many entities of type T are there?", answer the
//     number of distinct subjects with rdf:type T;
//   - outgoing_aggregation: a named entity with at least two entity values of
//     a property: "How many distinct P values does E have?";
//   - incoming_aggregation: a named entity that at least two entities reach
//     by a property: "How many entities have E as their P?";
//   - language_choice: a named entity with labels in at least two languages
//     (of one label predicate) and one of those languages with exactly one
//     label: "What is the label of E in Catalan (ca)?";
//   - two_hop: a named entity with exactly one entity value M of P1, and M
//     with exactly one value of P2 (a short literal or a named entity):
//     "What is the P2 of the P1 of E?";
//   - filter: a type T, a property P and a short literal value V such that
//     exactly one entity of type T has V as a value of P, that entity is
//     named, and at least two entities of type T have a value of P: "Which
//     entity of type T has P V?", answer its label.
func Generate(d *rdf.Dataset, opts Options) (*task.Set, error) {
	families := opts.Families
	if families == nil {
		families = Families()
	}
	for _, f := range families {
		if !isKGFamily(f) {
			return nil, fmt.Errorf("task: unknown question family %q", f)
		}
	}
	per := opts.PerFamily
	if per == 0 {
		per = DefaultPerFamily
	}
	if per < 0 || per > MaxPerFamily {
		return nil, fmt.Errorf("task: %d questions per family outside 1..%d", per, MaxPerFamily)
	}
	kg := newKGIndex(d, opts)
	name := opts.Name
	if name == "" {
		name = "kg"
	}
	set := &task.Set{Name: name, Seed: opts.Seed}
	ctx := task.Context{ID: "graph", Source: name, SHA1: kg.datasetSHA1()}
	set.Contexts = append(set.Contexts, ctx)
	for _, fam := range families {
		famIndex := 0
		for i, f := range Families() {
			if f == fam {
				famIndex = i
			}
		}
		cands, ambiguous := unique(kg.candidates(fam))
		fc := task.FamilyCount{Family: fam, Candidates: len(cands), Ambiguous: ambiguous}
		if len(cands) == 0 {
			fc.Skipped = "no candidates in this graph"
			if ambiguous > 0 {
				fc.Skipped = "no unambiguous candidates in this graph"
			}
			set.Counts = append(set.Counts, fc)
			continue
		}
		pick := make([]int, len(cands))
		for i := range pick {
			pick[i] = i
		}
		if len(cands) > per {
			rng := py.NewRandFromKey([]uint32{uint32(opts.Seed), uint32(uint64(opts.Seed) >> 32), uint32(famIndex)})
			var err error
			if pick, err = rng.SampleIndices(len(cands), per); err != nil {
				return nil, err
			}
			sort.Ints(pick)
		}
		for j, i := range pick {
			c := cands[i]
			q := task.Question{
				ID:        fmt.Sprintf("%s-%03d", fam, j+1),
				Family:    fam,
				Task:      fam,
				Text:      c.text,
				Gold:      c.gold,
				ContextID: ctx.ID,
				Meta:      c.meta,
			}
			set.Questions = append(set.Questions, q)
		}
		fc.Questions = len(pick)
		set.Counts = append(set.Counts, fc)
	}
	set.Seal()
	return set, nil
}

// DatasetSHA1 returns the SHA-1 (hex) of the dataset's canonical N-Quads,
// sorted: the hash Generate records for its context.
func DatasetSHA1(d *rdf.Dataset) string {
	h := sha1.New()
	w := bufio.NewWriter(h)
	for _, q := range d.Sorted() {
		rdf.AppendQuad(w, q)
	}
	w.Flush()
	return hex.EncodeToString(h.Sum(nil))
}

// datasetSHA1 is DatasetSHA1 with the quads sorted by term ranks (the same
// order as rdf.CompareQuads, without comparing strings).
func (k *kgIndex) datasetSHA1() string {
	qs := append([]rdf.IDQuad(nil), k.d.IDQuads()...)
	sort.Slice(qs, func(i, j int) bool {
		a, b := qs[i], qs[j]
		for _, x := range [4]int{3, 0, 1, 2} {
			if ra, rb := k.rank[a[x]], k.rank[b[x]]; ra != rb {
				return ra < rb
			}
		}
		return false
	})
	h := sha1.New()
	w := bufio.NewWriter(h)
	for _, q := range qs {
		rdf.AppendQuad(w, k.d.Quad(q))
	}
	w.Flush()
	return hex.EncodeToString(h.Sum(nil))
}

// kgIndex is the view of a dataset the generator works on. Terms are
// dataset TermIDs; lists are sorted and distinct.
type kgIndex struct {
	d         *rdf.Dataset
	out       map[rdf.TermID]map[rdf.TermID][]rdf.TermID // s -> p -> objects
	in        map[rdf.TermID]map[rdf.TermID][]rdf.TermID // o -> p -> subjects (entity objects only)
	types     map[rdf.TermID][]rdf.TermID                // type -> instances
	isLabel   map[string]int                             // label predicate IRI -> rank
	langs     []string
	name      map[rdf.TermID]string // entity -> its unique label
	shared    map[rdf.TermID]bool   // entity -> its name is another term's label too
	labelOf   map[rdf.TermID]string // entity -> its preferred label, unique or not
	bestPred  map[rdf.TermID]rdf.TermID
	propName  map[rdf.TermID]string
	predCache map[rdf.TermID][]rdf.TermID
	typeNames map[rdf.TermID]string // type -> its name in questions ("" for none)
	predNames map[rdf.TermID]string // predicate -> its name in questions ("" for none)
	compactor *graph.Compactor      // graph.FromRDF's compaction of IRIs
	rank      []uint32              // TermID -> position in rdf.Compare order
	rdfType   rdf.TermID
	subjects  []rdf.TermID
}

func newKGIndex(d *rdf.Dataset, opts Options) *kgIndex {
	k := &kgIndex{
		d: d, out: map[rdf.TermID]map[rdf.TermID][]rdf.TermID{}, in: map[rdf.TermID]map[rdf.TermID][]rdf.TermID{},
		types: map[rdf.TermID][]rdf.TermID{}, isLabel: map[string]int{},
		name: map[rdf.TermID]string{}, shared: map[rdf.TermID]bool{}, labelOf: map[rdf.TermID]string{}, bestPred: map[rdf.TermID]rdf.TermID{},
		propName: map[rdf.TermID]string{}, predCache: map[rdf.TermID][]rdf.TermID{},
	}
	lp := opts.LabelPredicates
	if lp == nil {
		lp = graph.DefaultLabelPredicates()
	}
	for i, p := range lp {
		if _, dup := k.isLabel[p]; !dup {
			k.isLabel[p] = i
		}
	}
	langs := opts.Languages
	if langs == nil {
		langs = []string{"en", ""}
	}
	k.langs = langs
	k.rdfType, _ = d.Lookup(rdf.NewIRI(rdf.RDFType))
	// Rank every term once in rdf.Compare order; later sorts compare ranks.
	ids := make([]rdf.TermID, d.NumTerms())
	for i := range ids {
		ids[i] = rdf.TermID(i + 1)
	}
	terms := make([]rdf.Term, d.NumTerms()+1)
	for _, id := range ids {
		terms[id] = d.Term(id)
	}
	sort.Slice(ids, func(i, j int) bool { return rdf.Compare(terms[ids[i]], terms[ids[j]]) < 0 })
	k.rank = make([]uint32, d.NumTerms()+1)
	for r, id := range ids {
		k.rank[id] = uint32(r + 1) // 0 is the default graph, before every term
	}
	seen := map[[3]rdf.TermID]bool{}
	for _, q := range d.IDQuads() {
		key := [3]rdf.TermID{q[0], q[1], q[2]}
		if seen[key] {
			continue
		}
		seen[key] = true
		s, p, o := q[0], q[1], q[2]
		if k.out[s] == nil {
			k.out[s] = map[rdf.TermID][]rdf.TermID{}
			k.subjects = append(k.subjects, s)
		}
		k.out[s][p] = append(k.out[s][p], o)
		if k.isEntity(o) {
			if k.in[o] == nil {
				k.in[o] = map[rdf.TermID][]rdf.TermID{}
			}
			k.in[o][p] = append(k.in[o][p], s)
			if p == k.rdfType && k.rdfType != 0 {
				k.types[o] = append(k.types[o], s)
			}
		}
	}
	k.sortTerms(k.subjects)
	for _, m := range k.out {
		for _, l := range m {
			k.sortTerms(l)
		}
	}
	for _, m := range k.in {
		for _, l := range m {
			k.sortTerms(l)
		}
	}
	for _, l := range k.types {
		k.sortTerms(l)
	}
	// Preferred labels and unique names; a name that another term has as a
	// label (of any label predicate, in any language) is shared.
	count, all := map[string]int{}, map[string]int{}
	for _, s := range k.subjects {
		if l, p, ok := k.preferredLabel(s); ok {
			k.labelOf[s] = l
			k.bestPred[s] = p
			count[task.Normalize(l)]++
		}
		for _, n := range k.labelTexts(s) {
			all[n]++
		}
	}
	for s, l := range k.labelOf {
		if count[task.Normalize(l)] == 1 && strings.TrimSpace(l) != "" {
			k.name[s] = l
			if all[task.Normalize(l)] > 1 {
				k.shared[s] = true
			}
		}
	}
	// The names of the types and of the predicates, each role apart.
	k.compactor = graph.NewCompactor(d.Prefixes, graph.CommonPrefixes())
	k.typeNames = k.roleNames(sortedKeys(k, k.types))
	preds := map[rdf.TermID]bool{}
	for _, m := range k.out {
		for p := range m {
			preds[p] = true
		}
	}
	k.predNames = k.roleNames(sortedKeys(k, preds))
	return k
}

func (k *kgIndex) isEntity(id rdf.TermID) bool {
	kind := k.d.Term(id).Kind
	return kind == rdf.IRIKind || kind == rdf.BlankKind
}

// sortTerms sorts term IDs in rdf.Compare order of their terms.
func (k *kgIndex) sortTerms(l []rdf.TermID) {
	sort.Slice(l, func(i, j int) bool { return k.rank[l[i]] < k.rank[l[j]] })
}

// preferredLabel returns s's label as graph.FromRDF chooses it: the most
// preferred label predicate, then the most preferred language (a tag matches
// a preferred language or its subtags, "en" matching "en-GB"; other
// languages rank last), then the smallest lexical form.
func (k *kgIndex) preferredLabel(s rdf.TermID) (string, rdf.TermID, bool) {
	best := ""
	var bestP rdf.TermID
	found := false
	bestKey := [2]int{}
	for p, objs := range k.out[s] {
		pr, ok := k.isLabel[k.d.Term(p).Value]
		if !ok {
			continue
		}
		for _, o := range objs {
			t := k.d.Term(o)
			if t.Kind != rdf.LiteralKind {
				continue
			}
			key := [2]int{pr, k.langRankOf(t.Lang)}
			better := !found || key[0] < bestKey[0] || (key[0] == bestKey[0] && key[1] < bestKey[1]) ||
				(key == bestKey && t.Value < best)
			if better {
				best, bestP, bestKey, found = t.Value, p, key, true
			}
		}
	}
	return best, bestP, found
}

// labelTexts returns the distinct normalized texts of s's labels, of every
// label predicate and language.
func (k *kgIndex) labelTexts(s rdf.TermID) []string {
	var out []string
	for p, objs := range k.out[s] {
		if _, ok := k.isLabel[k.d.Term(p).Value]; !ok {
			continue
		}
		for _, o := range objs {
			if t := k.d.Term(o); t.Kind == rdf.LiteralKind {
				out = append(out, task.Normalize(t.Value))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (k *kgIndex) langRankOf(lang string) int {
	for i, l := range k.langs {
		if strings.EqualFold(l, lang) || (l != "" && len(lang) > len(l) && strings.EqualFold(lang[:len(l)], l) && lang[len(l)] == '-') {
			return i
		}
	}
	return len(k.langs)
}

// propertyName names a predicate or a type by its label, else its local name.
func (k *kgIndex) propertyName(p rdf.TermID) string {
	if n, ok := k.propName[p]; ok {
		return n
	}
	n := k.labelOf[p]
	if n == "" {
		// A Wikidata direct property wdt:Pn is labelled on the property
		// entity that declares it with wikibase:directClaim.
		for pp, subs := range k.in[p] {
			if k.d.Term(pp).Value == "http://wikiba.se/ontology#directClaim" {
				for _, s := range subs {
					if l := k.labelOf[s]; l != "" {
						n = l
						break
					}
				}
			}
		}
	}
	if iri := k.d.Term(p).Value; n == "" && strings.HasPrefix(iri, wdtNS) {
		// Or on wd:Pn itself.
		if id, ok := k.d.Lookup(rdf.NewIRI(wdNS + iri[len(wdtNS):])); ok {
			n = k.labelOf[id]
		}
	}
	if n == "" {
		n = localName(k.d.Term(p).Value)
	}
	k.propName[p] = n
	return n
}

// typeName is the name of a type in questions, "" when no name tells it
// apart from another type (roleNames).
func (k *kgIndex) typeName(t rdf.TermID) string { return k.typeNames[t] }

// predName is the name of a predicate in questions, "" when no name tells it
// apart from another predicate (roleNames).
func (k *kgIndex) predName(p rdf.TermID) string { return k.predNames[p] }

// roleNames names the terms of one role (the types, or the predicates) so
// that a reader can tell which one a question means: each by propertyName,
// unless another term of the role has the same name after task.Normalize
// (ontolex:Form and wikibase:Form are both "Form"); those are named by their
// prefixed name, as graph.FromRDF compacts them (the dataset's prefixes,
// then graph.CommonPrefixes), else by their IRI in angle brackets; a term
// whose name is still shared gets none ("").
func (k *kgIndex) roleNames(ids []rdf.TermID) map[rdf.TermID]string {
	names := make(map[rdf.TermID]string, len(ids))
	for _, id := range ids {
		names[id] = k.propertyName(id)
	}
	for _, rename := range []func(rdf.TermID) string{k.prefixedName, k.bracketed, func(rdf.TermID) string { return "" }} {
		n := map[string]int{}
		for _, id := range ids {
			n[task.Normalize(names[id])]++
		}
		clash := false
		for _, id := range ids {
			if names[id] != "" && n[task.Normalize(names[id])] > 1 {
				names[id] = rename(id)
				clash = true
			}
		}
		if !clash {
			break
		}
	}
	return names
}

// prefixedName writes an IRI as graph.FromRDF does: with the longest
// namespace that leaves a clean local name, else in angle brackets.
func (k *kgIndex) prefixedName(id rdf.TermID) string {
	t := k.d.Term(id)
	if t.Kind != rdf.IRIKind {
		return k.bracketed(id)
	}
	if name, ok := k.compactor.Compact(t.Value); ok {
		return name
	}
	return k.bracketed(id)
}

// bracketed writes an IRI in angle brackets, a blank node as _:label.
func (k *kgIndex) bracketed(id rdf.TermID) string {
	if t := k.d.Term(id); t.Kind == rdf.IRIKind {
		return "<" + t.Value + ">"
	}
	return k.iri(id)
}

const (
	wdtNS = "http://www.wikidata.org/prop/direct/"
	wdNS  = "http://www.wikidata.org/entity/"
)

func localName(iri string) string {
	i := strings.LastIndexAny(iri, "#/:")
	if i >= 0 && i < len(iri)-1 {
		return iri[i+1:]
	}
	return iri
}

func (k *kgIndex) excluded(p rdf.TermID) bool {
	if p == k.rdfType && p != 0 {
		return true
	}
	_, label := k.isLabel[k.d.Term(p).Value]
	return label
}

type candidate struct {
	text string
	gold task.Answer
	meta map[string]string
	// ambiguous marks a candidate whose text would fit more than one
	// reading: unique leaves it out.
	ambiguous bool
}

// unique returns the candidates whose text fits one reading, in order, and
// how many it left out: those marked ambiguous, and every candidate whose
// text (after task.Normalize) another candidate of a different reading (gold
// answer or terms) shares. A candidate repeated with the same reading is
// kept once.
func unique(cands []candidate) ([]candidate, int) {
	type group struct {
		first int
		mixed bool
	}
	groups := map[string]*group{}
	for i, c := range cands {
		key := task.Normalize(c.text)
		g, seen := groups[key]
		switch {
		case !seen:
			groups[key] = &group{first: i, mixed: c.ambiguous}
		case c.ambiguous || !sameReading(cands[g.first], c):
			g.mixed = true
		}
	}
	out := make([]candidate, 0, len(cands))
	left := 0
	for i, c := range cands {
		g := groups[task.Normalize(c.text)]
		switch {
		case g.mixed:
			left++
		case g.first == i:
			out = append(out, c)
		}
	}
	return out, left
}

func sameReading(a, b candidate) bool {
	return a.gold.Text == b.gold.Text && a.gold.Kind == b.gold.Kind && maps.Equal(a.meta, b.meta)
}

func distinct(ids []rdf.TermID) []rdf.TermID {
	slices.Sort(ids)
	return slices.Compact(ids)
}

func (k *kgIndex) shortLiteral(o rdf.TermID) (string, bool) {
	t := k.d.Term(o)
	if t.Kind != rdf.LiteralKind {
		return "", false
	}
	n := utf8.RuneCountInString(t.Value)
	return t.Value, n >= 1 && n <= MaxLiteralAnswer && strings.TrimSpace(t.Value) != ""
}

// outPreds returns the predicates of s's outgoing triples, sorted (cached).
func (k *kgIndex) outPreds(s rdf.TermID) []rdf.TermID {
	if ps, ok := k.predCache[s]; ok {
		return ps
	}
	ps := sortedKeys(k, k.out[s])
	k.predCache[s] = ps
	return ps
}

// sortedKeys returns the keys of m in k's term order.
func sortedKeys[V any](k *kgIndex, m map[rdf.TermID]V) []rdf.TermID {
	ids := make([]rdf.TermID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	k.sortTerms(ids)
	return ids
}

// named yields the terms of ids that have a name, with it, in order, until
// full reports that no more candidates are wanted.
func (k *kgIndex) named(ids []rdf.TermID, full func() bool) iter.Seq2[rdf.TermID, string] {
	return func(yield func(rdf.TermID, string) bool) {
		for _, id := range ids {
			if full() {
				return
			}
			if n, ok := k.name[id]; ok && !yield(id, n) {
				return
			}
		}
	}
}

func (k *kgIndex) iri(id rdf.TermID) string {
	t := k.d.Term(id)
	if t.Kind == rdf.BlankKind {
		return "_:" + t.Value
	}
	return t.Value
}

func textAnswer(v string) task.Answer { return task.Answer{Text: v, Kind: task.KindText, Value: v} }

func countAnswer(n int) task.Answer {
	return task.Answer{Text: strconv.Itoa(n), Kind: task.KindInt, Value: strconv.Itoa(n)}
}

func (k *kgIndex) candidates(fam string) []candidate {
	var out []candidate
	work := 0
	full := func() bool { return len(out) >= MaxCandidates || work > MaxCandidateWork }
	// add lists a candidate, ambiguous when its text or its answer names a
	// term by a name that another term has too: a type or a predicate
	// without a name of its own (roleNames), an entity whose name is shared.
	add := func(text string, gold task.Answer, meta map[string]string, ambiguous bool) {
		if len(out) < MaxCandidates {
			out = append(out, candidate{text: text, gold: gold, meta: meta, ambiguous: ambiguous})
		}
	}
	switch fam {
	case FamilyLookup, FamilyMultiHop:
		for s, e := range k.named(k.subjects, full) {
			for _, p := range k.outPreds(s) {
				work++
				objs := k.out[s][p]
				if k.excluded(p) || len(objs) != 1 {
					continue
				}
				o := objs[0]
				meta := map[string]string{"subject": k.iri(s), "property": k.iri(p)}
				pn := k.predName(p)
				q := fmt.Sprintf("What is the %s of %s?", pn, e)
				if fam == FamilyLookup {
					if v, ok := k.shortLiteral(o); ok && !sameText(v, e) {
						add(q, textAnswer(v), meta, pn == "" || k.shared[s])
					}
				} else if n, ok := k.name[o]; ok && k.isEntity(o) && o != s {
					meta["object"] = k.iri(o)
					add(q, textAnswer(n), meta, pn == "" || k.shared[s] || k.shared[o])
				}
			}
		}
	case FamilyTypeCount:
		for _, t := range sortedKeys(k, k.types) {
			if full() {
				break
			}
			tn := k.typeName(t)
			add(fmt.Sprintf("How many entities of type %s are there?", tn), countAnswer(len(k.types[t])),
				map[string]string{"type": k.iri(t)}, tn == "")
		}
	case FamilyOutAgg:
		for s, e := range k.named(k.subjects, full) {
			for _, p := range k.outPreds(s) {
				work++
				if k.excluded(p) {
					continue
				}
				objs := k.out[s][p]
				if len(objs) < 2 || !allEntities(k, objs) {
					continue
				}
				meta := map[string]string{"subject": k.iri(s), "property": k.iri(p)}
				if len(objs) > SubfamilyDegreeAbove {
					meta[MetaSubfamily] = SubfamilyOutAggDegGT4
				}
				pn := k.predName(p)
				add(fmt.Sprintf("How many distinct %s values does %s have?", pn, e), countAnswer(len(objs)), meta, pn == "" || k.shared[s])
			}
		}
	case FamilyInAgg:
		for o, e := range k.named(sortedKeys(k, k.in), full) {
			for _, p := range sortedKeys(k, k.in[o]) {
				subs := k.in[o][p]
				if k.excluded(p) || len(subs) < 2 {
					continue
				}
				pn := k.predName(p)
				add(fmt.Sprintf("How many entities have %s as their %s?", e, pn), countAnswer(len(subs)),
					map[string]string{"object": k.iri(o), "property": k.iri(p)}, pn == "" || k.shared[o])
			}
		}
	case FamilyLanguage:
		for s, e := range k.named(k.subjects, full) {
			byLang := map[string][]string{}
			for _, o := range k.out[s][k.bestPred[s]] {
				t := k.d.Term(o)
				if t.Kind == rdf.LiteralKind && t.Lang != "" {
					l := strings.ToLower(t.Lang)
					byLang[l] = append(byLang[l], t.Value)
				}
			}
			if len(byLang) < 2 {
				continue
			}
			for _, l := range slices.Sorted(maps.Keys(byLang)) {
				if len(byLang[l]) != 1 || sameText(byLang[l][0], e) {
					continue
				}
				add(fmt.Sprintf("What is the label of %s in %s?", e, LanguageName(l)), textAnswer(byLang[l][0]),
					map[string]string{"subject": k.iri(s), "language": l, "property": k.iri(k.bestPred[s])}, k.shared[s])
			}
		}
	case FamilyTwoHop:
		for s, e := range k.named(k.subjects, full) {
			for _, p1 := range k.outPreds(s) {
				objs := k.out[s][p1]
				if k.excluded(p1) || len(objs) != 1 || !k.isEntity(objs[0]) || objs[0] == s {
					continue
				}
				m := objs[0]
				for _, p2 := range k.outPreds(m) {
					work++
					vals := k.out[m][p2]
					if k.excluded(p2) || len(vals) != 1 || vals[0] == m || vals[0] == s {
						continue
					}
					var gold task.Answer
					if v, ok := k.shortLiteral(vals[0]); ok {
						if sameText(v, e) {
							continue
						}
						gold = textAnswer(v)
					} else if n, ok := k.name[vals[0]]; ok && k.isEntity(vals[0]) {
						gold = textAnswer(n)
					} else {
						continue
					}
					pn1, pn2 := k.predName(p1), k.predName(p2)
					add(fmt.Sprintf("What is the %s of the %s of %s?", pn2, pn1, e), gold,
						map[string]string{"subject": k.iri(s), "property": k.iri(p1), "via": k.iri(m), "property2": k.iri(p2)},
						pn1 == "" || pn2 == "" || k.shared[s] || k.shared[vals[0]])
				}
			}
		}
	case FamilyFilter:
		for _, t := range sortedKeys(k, k.types) {
			if full() {
				break
			}
			inst := k.types[t]
			// property -> value -> instances having it; property -> instances
			byProp := map[rdf.TermID]map[rdf.TermID][]rdf.TermID{}
			having := map[rdf.TermID]int{}
			for _, s := range inst {
				for p, objs := range k.out[s] {
					work++
					if k.excluded(p) {
						continue
					}
					having[p]++
					for _, o := range objs {
						if full() {
							break
						}
						if _, ok := k.shortLiteral(o); !ok {
							continue
						}
						if byProp[p] == nil {
							byProp[p] = map[rdf.TermID][]rdf.TermID{}
						}
						byProp[p][o] = append(byProp[p][o], s)
					}
				}
			}
			for _, p := range sortedKeys(k, byProp) {
				if having[p] < 2 {
					continue
				}
				// The question quotes a value's text only: literals that
				// share it (in other languages or datatypes) are one value,
				// whose instances are all theirs, asked at the first one.
				vals := sortedKeys(k, byProp[p])
				byText := map[string][]rdf.TermID{}
				for _, v := range vals {
					value := k.d.Term(v).Value
					byText[value] = append(byText[value], byProp[p][v]...)
				}
				for _, v := range vals {
					value := k.d.Term(v).Value
					ss, first := byText[value]
					if !first {
						continue
					}
					delete(byText, value)
					if ss = distinct(ss); len(ss) != 1 {
						continue
					}
					n, ok := k.name[ss[0]]
					if !ok || sameText(n, value) {
						continue
					}
					tn, pn := k.typeName(t), k.predName(p)
					add(fmt.Sprintf("Which entity of type %s has %s %q?", tn, pn, value),
						textAnswer(n), map[string]string{"type": k.iri(t), "property": k.iri(p), "subject": k.iri(ss[0]), "value": value},
						tn == "" || pn == "" || k.shared[ss[0]])
				}
			}
		}
	}
	return out
}

// sameText reports whether an answer is the very text the question names,
// which makes the question trivial.
func sameText(a, b string) bool { return task.Normalize(a) == task.Normalize(b) }

func allEntities(k *kgIndex, l []rdf.TermID) bool {
	for _, o := range l {
		if !k.isEntity(o) {
			return false
		}
	}
	return true
}

// LanguageName writes a language tag as "Catalan (ca)": its English name
// and the tag, or the tag alone when the name is unknown.
func LanguageName(tag string) string {
	t, err := language.Parse(tag)
	if err != nil {
		return tag
	}
	n := display.English.Languages().Name(t)
	if n == "" {
		return tag
	}
	return n + " (" + tag + ")"
}
