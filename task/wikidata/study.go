package wikidata

import (
	"fmt"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

// The experiment's parameters (seed 001).
const (
	DefaultHops       = 2
	DefaultMaxTriples = 450
)

// Properties whose values are classes: their labels are kept, not
// pseudonymized, and they give entities their type in questions.
const (
	PropInstanceOf = "P31"
	PropSubclassOf = "P279"
	PropOccupation = "P106"
)

func classProperty(p string) bool {
	return p == PropInstanceOf || p == PropSubclassOf || p == PropOccupation
}

// SuggestedSeeds are ten seed entities spanning films, scientists,
// cities, companies, a novel and a band. The paper names the domains but
// not its seeds; these are ours.
func SuggestedSeeds() []string {
	return []string{"Q25188", "Q47703", "Q937", "Q7186", "Q90", "Q1490", "Q95", "Q312", "Q208460", "Q1299"}
}

// Triple is one item-valued statement of a subgraph.
type Triple struct {
	S, P, O string
}

// Subgraph is a seed's neighbourhood.
type Subgraph struct {
	Seed string
	// Triples are the statements of the entities at most Hops-1 links
	// from the seed, breadth first (entities in order of discovery, each
	// one's statements in property order), at most MaxTriples of them.
	Triples []Triple
	// Truncated is true when the neighbourhood had more triples.
	Truncated bool
}

// Extract returns the hops-hop neighbourhood of seed, following
// item-valued statements outwards, capped at maxTriples triples. Entities
// missing from the store are reached but not expanded.
func (s *Store) Extract(seed string, hops, maxTriples int) (*Subgraph, error) {
	if _, ok := s.entities[seed]; !ok {
		return nil, fmt.Errorf("wikidata: seed %s is not in the entity files", seed)
	}
	if hops < 1 || maxTriples < 1 {
		return nil, fmt.Errorf("wikidata: hops %d and triples %d must be positive", hops, maxTriples)
	}
	sg := &Subgraph{Seed: seed}
	visited := map[string]bool{seed: true}
	frontier := []string{seed}
	for h := 0; h < hops; h++ {
		var next []string
		for _, id := range frontier {
			e, ok := s.entities[id]
			if !ok {
				continue
			}
			for _, c := range e.Claims {
				if len(sg.Triples) == maxTriples {
					sg.Truncated = true
					return sg, nil
				}
				sg.Triples = append(sg.Triples, Triple{S: id, P: c.Property, O: c.Value})
				if !visited[c.Value] {
					visited[c.Value] = true
					next = append(next, c.Value)
				}
			}
		}
		frontier = next
	}
	return sg, nil
}

// Named is a subgraph with the names its text uses: pseudonyms for
// entities, labels for classes and properties.
type Named struct {
	*Subgraph
	// Names maps every entity of the subgraph to its name.
	Names map[string]string
	// Classes are the entities used as classes (values of P31, P279 or
	// P106), which keep their labels.
	Classes map[string]bool
	// PropLabels maps properties to their labels (the property's id when
	// the entity files do not hold it).
	PropLabels map[string]string
	// Graph is the directed labelled graph: one node per entity named by
	// its name, one edge per triple typed with the property's label.
	Graph *graph.Graph
}

// Pseudonymize names a subgraph: classes by their label (made unique with
// " (Q…)" when two share one), every other entity by a pseudonym drawn
// with Python's random seeded with seed (one capitalized made-up word,
// unique in the subgraph and different from every class and property
// label).
func (s *Store) Pseudonymize(sg *Subgraph, seed int64) *Named {
	n := &Named{Subgraph: sg, Names: map[string]string{}, Classes: map[string]bool{}, PropLabels: map[string]string{}}
	var order []string
	seen := map[string]bool{}
	note := func(id string) {
		if !seen[id] {
			seen[id] = true
			order = append(order, id)
		}
	}
	for _, t := range sg.Triples {
		note(t.S)
		note(t.O)
		if classProperty(t.P) {
			n.Classes[t.O] = true
		}
		if _, ok := n.PropLabels[t.P]; !ok {
			n.PropLabels[t.P] = s.Label(t.P)
		}
	}
	delete(n.Classes, sg.Seed) // the seed is never a class
	taken := map[string]bool{}
	for _, l := range n.PropLabels {
		taken[strings.ToLower(l)] = true
	}
	labelCount := map[string]int{}
	for _, id := range order {
		if n.Classes[id] {
			labelCount[s.Label(id)]++
		}
	}
	for _, id := range order {
		if n.Classes[id] {
			name := s.Label(id)
			if labelCount[name] > 1 {
				name += " (" + id + ")"
			}
			n.Names[id] = name
			taken[strings.ToLower(name)] = true
		}
	}
	rng := py.NewRand(seed)
	for _, id := range order {
		if n.Classes[id] {
			continue
		}
		for {
			name := pseudonym(rng)
			if !taken[strings.ToLower(name)] {
				taken[strings.ToLower(name)] = true
				n.Names[id] = name
				break
			}
		}
	}
	g := &graph.Graph{Directed: true}
	for _, id := range order {
		g.Nodes = append(g.Nodes, graph.Node{ID: n.Names[id], Label: n.Names[id]})
	}
	for _, t := range sg.Triples {
		g.Edges = append(g.Edges, graph.Edge{From: n.Names[t.S], To: n.Names[t.O], Type: n.PropLabels[t.P]})
	}
	n.Graph = g
	return n
}

var (
	onsets = []string{"b", "br", "c", "d", "dr", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t", "tr", "v", "z"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "ea", "io"}
	codas  = []string{"", "", "n", "r", "l", "s", "th", "x"}
)

// pseudonym draws a made-up name of two or three syllables.
func pseudonym(rng *py.Rand) string {
	n := 2 + rng.Below(2)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(onsets[rng.Below(len(onsets))])
		b.WriteString(nuclei[rng.Below(len(nuclei))])
		if i == n-1 {
			b.WriteString(codas[rng.Below(len(codas))])
		}
	}
	w := b.String()
	return strings.ToUpper(w[:1]) + w[1:]
}

// Question families.
const (
	FamilyRelationAgg  = "relation_aggregation" // how many values of a property an entity has
	FamilyTypedAgg     = "typed_aggregation"    // how many entities of a class have a property
	FamilyReachability = "reachability"         // how many entities can be reached from an entity
)

// Families lists the question families in generation order.
func Families() []string {
	return []string{FamilyRelationAgg, FamilyTypedAgg, FamilyReachability}
}

// PerFamily is the number of questions per subgraph of each family; the
// default, 4, 4 and 3, gives the paper's 110 questions over 10 seeds
// (the paper gives the total, not the split).
type PerFamily struct {
	RelationAgg, TypedAgg, Reachability int
}

// DefaultPerFamily is 4 + 4 + 3 = 11 questions per subgraph.
var DefaultPerFamily = PerFamily{RelationAgg: 4, TypedAgg: 4, Reachability: 3}

// typeOf is the type phrase of an entity: the name of its first
// occupation in the subgraph, else of its first class, else "entity".
func (n *Named) typeOf(id string) string {
	var inst string
	for _, t := range n.Triples {
		if t.S != id {
			continue
		}
		if t.P == PropOccupation {
			return n.Names[t.O]
		}
		if t.P == PropInstanceOf && inst == "" {
			inst = n.Names[t.O]
		}
	}
	if inst != "" {
		return inst
	}
	return "entity"
}

type candidate struct {
	family, text string
	answer       int
	meta         map[string]string
}

// candidates lists the questions of a family on the subgraph, sorted by
// text.
func (n *Named) candidates(family string) []candidate {
	var out []candidate
	switch family {
	case FamilyRelationAgg:
		count := map[[2]string]int{}
		var keys [][2]string
		for _, t := range n.Triples {
			if n.Classes[t.S] || classProperty(t.P) {
				continue
			}
			k := [2]string{t.S, t.P}
			if count[k] == 0 {
				keys = append(keys, k)
			}
			count[k]++
		}
		for _, k := range keys {
			if count[k] < 2 {
				continue
			}
			out = append(out, candidate{family: family,
				text:   fmt.Sprintf("How many distinct %s values does the %s %s have?", n.PropLabels[k[1]], n.typeOf(k[0]), n.Names[k[0]]),
				answer: count[k], meta: map[string]string{"entity": k[0], "property": k[1]}})
		}
	case FamilyTypedAgg:
		members := map[string][]string{}
		var classes []string
		for _, t := range n.Triples {
			if t.P == PropInstanceOf {
				if members[t.O] == nil {
					classes = append(classes, t.O)
				}
				members[t.O] = append(members[t.O], t.S)
			}
		}
		has := map[[2]string]bool{}
		var props []string
		for _, t := range n.Triples {
			if !classProperty(t.P) {
				if !slices.Contains(props, t.P) {
					props = append(props, t.P)
				}
				has[[2]string{t.S, t.P}] = true
			}
		}
		for _, c := range classes {
			if len(members[c]) < 2 {
				continue
			}
			for _, p := range props {
				k := 0
				for _, m := range members[c] {
					if has[[2]string{m, p}] {
						k++
					}
				}
				if k == 0 {
					continue
				}
				out = append(out, candidate{family: family,
					text:   fmt.Sprintf("How many entities of type %s have at least one %s value?", n.Names[c], n.PropLabels[p]),
					answer: k, meta: map[string]string{"class": c, "property": p}})
			}
		}
	case FamilyReachability:
		adj := map[string][]string{}
		var subjects []string
		for _, t := range n.Triples {
			if adj[t.S] == nil {
				subjects = append(subjects, t.S)
			}
			adj[t.S] = append(adj[t.S], t.O)
		}
		for _, s := range subjects {
			if n.Classes[s] {
				continue
			}
			seen := map[string]bool{s: true}
			queue := []string{s}
			for len(queue) > 0 {
				u := queue[0]
				queue = queue[1:]
				for _, v := range adj[u] {
					if !seen[v] {
						seen[v] = true
						queue = append(queue, v)
					}
				}
			}
			out = append(out, candidate{family: family,
				text:   fmt.Sprintf("How many distinct entities can be reached from the %s %s?", n.typeOf(s), n.Names[s]),
				answer: len(seen) - 1, meta: map[string]string{"entity": s}})
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return strings.Compare(a.text, b.text) })
	return out
}

// Options configure a study.
type Options struct {
	// Hops and MaxTriples bound each subgraph (0: DefaultHops and
	// DefaultMaxTriples).
	Hops, MaxTriples int
	// PerFamily is the number of questions per subgraph and family (zero
	// value: DefaultPerFamily).
	PerFamily PerFamily
	// Seed seeds the pseudonyms (Seed + the subgraph's index) and the
	// choice of questions (Seed + 1000 + index).
	Seed int64
}

// Study is the experiment's subgraphs and questions.
type Study struct {
	Subgraphs []*Named
	Questions []task.Question
	Counts    []task.FamilyCount
}

// NewStudy extracts, pseudonymizes and asks questions about the
// neighbourhood of every seed. Each family keeps PerFamily candidates,
// drawn with Python's random.sample from its candidates sorted by text
// (all of them when there are fewer; Counts says so).
func NewStudy(s *Store, seeds []string, opts Options) (*Study, error) {
	if opts.Hops == 0 {
		opts.Hops = DefaultHops
	}
	if opts.MaxTriples == 0 {
		opts.MaxTriples = DefaultMaxTriples
	}
	if opts.PerFamily == (PerFamily{}) {
		opts.PerFamily = DefaultPerFamily
	}
	want := map[string]int{FamilyRelationAgg: opts.PerFamily.RelationAgg, FamilyTypedAgg: opts.PerFamily.TypedAgg, FamilyReachability: opts.PerFamily.Reachability}
	st := &Study{}
	counts := map[string]*task.FamilyCount{}
	for _, f := range Families() {
		counts[f] = &task.FamilyCount{Family: f}
	}
	for i, seed := range seeds {
		sg, err := s.Extract(seed, opts.Hops, opts.MaxTriples)
		if err != nil {
			return nil, err
		}
		n := s.Pseudonymize(sg, opts.Seed+int64(i))
		st.Subgraphs = append(st.Subgraphs, n)
		rng := py.NewRand(opts.Seed + 1000 + int64(i))
		for _, f := range Families() {
			cands := n.candidates(f)
			c := counts[f]
			c.Candidates += len(cands)
			k := want[f]
			if k > len(cands) {
				c.Skipped = "fewer candidates than asked in some subgraphs"
				k = len(cands)
			}
			idx, err := rng.SampleIndices(len(cands), k)
			if err != nil {
				return nil, err
			}
			slices.Sort(idx)
			for j, x := range idx {
				cd := cands[x]
				meta := map[string]string{"seed_entity": seed}
				for k, v := range cd.meta {
					meta[k] = v
				}
				st.Questions = append(st.Questions, task.Question{
					ID: fmt.Sprintf("wikidata-%s-%s-%02d", seed, f, j+1), Family: f, Task: f, Text: cd.text,
					Gold:      task.Answer{Text: fmt.Sprint(cd.answer), Kind: task.KindInt, Value: fmt.Sprint(cd.answer)},
					ContextID: "wikidata-" + seed, Meta: meta,
				})
				c.Questions++
			}
		}
	}
	for _, f := range Families() {
		st.Counts = append(st.Counts, *counts[f])
	}
	return st, nil
}

// Set returns the frozen set of one graphtext format: one context per
// subgraph (its graph in the format) and the study's questions.
func (st *Study) Set(format string) (*task.Set, error) {
	if _, ok := graphtext.Lookup(format); !ok {
		return nil, fmt.Errorf("wikidata: unknown graph format %q", format)
	}
	set := &task.Set{Name: "wikidata-subgraphs-" + format, Counts: append([]task.FamilyCount(nil), st.Counts...)}
	for _, n := range st.Subgraphs {
		var b strings.Builder
		if err := graphtext.Encode(&b, n.Graph, format, graphtext.Options{UseIDs: true}); err != nil {
			return nil, fmt.Errorf("wikidata: %s in %s: %w", n.Seed, format, err)
		}
		set.Contexts = append(set.Contexts, task.Context{ID: "wikidata-" + n.Seed, Text: b.String(),
			Source: fmt.Sprintf("wikidata %s, %d triples, format=%s", n.Seed, len(n.Triples), format)})
	}
	for _, q := range st.Questions {
		set.Questions = append(set.Questions, q.WithMeta("format", format))
	}
	set.Seal()
	return set, nil
}

// Instruction is the user instruction of the study's prompt, the
// appendix H.4 template worded for a directed graph.
const Instruction = "You are given a directed graph below. Answer the question in one integer. Show your reasoning, then write 'FINAL: <int>'."

// StudyTemplate is the study's prompt: graphqa.FinalSystemPrompt, and Instruction, the
// rendered graph and the question. Answers are scored with
// graphqa.ScoreFinal.
func StudyTemplate(contextText string, q task.Question) (system, user string) {
	return graphqa.FinalSystemPrompt, Instruction + "\n\n" + strings.TrimRight(contextText, "\n") + "\n\nQuestion: " + q.Text
}

var _ task.PromptFunc = StudyTemplate
