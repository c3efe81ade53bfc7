package graphqa

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/task"
)

// StudySpec is one GraphQA question set of "Graph Serializations for
// Reasoning LLMs" (Tables 6–8, and the held-out sets of its repeated runs
// and format selector): a regime and a number of graphs, each asked one
// question per task, rendered in each of the study's 15 formats.
type StudySpec struct {
	// Name identifies the set ("graphqa", "graphqa-hardened", ...).
	Name string
	// Regime, Graphs and Limit are the Options of Generate (Limit 0: every
	// question of the graphs).
	Regime string
	Graphs int
	Limit  int
	// N is the number of questions Generate gives (for every seed: no
	// question of these regimes depends on the seed for being asked).
	N int
	// PaperN is the number of questions per (model, format) the paper
	// reports, and Source where.
	PaperN int
	Source string
	// Deviation says why N differs from PaperN; empty when they agree.
	Deviation string
	// Rule says how isolda chose the questions where the paper's
	// description does not determine them (empty when it does).
	Rule string
}

// hardenedRule is how the 95 questions of Table 7 are chosen.
const hardenedRule = "the paper prints n = 95 for Table 7 and 105 for its other Hardened sets, but 95 is not a whole number of graphs (7 operators per graph), and no Hardened question is ever skipped at the calibrated density, so no rule of the paper yields 95; isolda keeps the first 95 questions in generation order (Options.Limit): graphs 0–12 whole and the first four operators of graph 13 (kcore_size, diameter, kth_shortest_path, local_clustering), i.e. the first 95 questions of the 105-question set of the same seed"

// topologyRule is how kth_shortest_path is asked on trees.
const topologyRule = "the paper counts 4 questions on every graph (4 operators × 6 generators × %d graphs = %d); its kth_shortest_path (k = 2 or 3) has no answer on the star and path graphs, which are trees with one simple path between two nodes, and the paper does not say what it asked there; isolda lowers k until a pair has k simple paths (SampleArgs), which on a tree is k = 1, the shortest path"

// StudySpecs returns the study's GraphQA sets with their sizes. Every set
// has the size the paper prints; Rule says how isolda reaches it where the
// paper's description does not determine the questions.
func StudySpecs() []StudySpec {
	return []StudySpec{
		{Name: "graphqa", Regime: RegimeGraphQA, Graphs: 15, N: 165, PaperN: 165, Source: "Table 6 (11 tasks × 15 Erdős–Rényi graphs)"},
		{Name: "graphqa-hardened", Regime: RegimeHardened, Graphs: 14, Limit: 95, N: 95, PaperN: 95, Source: "Table 7", Rule: hardenedRule},
		{Name: "graphqa-hardened-105", Regime: RegimeHardened, Graphs: 15, N: 105, PaperN: 105, Source: "Tables 3 and 14, repeated runs (7 operators × 15 graphs)"},
		{Name: "graphqa-topology", Regime: RegimeTopology, Graphs: 18, N: 72, PaperN: 72, Source: "Table 8 (4 operators × 6 generators × 3 graphs)",
			Rule: fmt.Sprintf(topologyRule, 3, 72)},
		{Name: "graphqa-topology-120", Regime: RegimeTopology, Graphs: 30, N: 120, PaperN: 120, Source: "repeated runs (4 operators × 6 generators × 5 graphs)",
			Rule: fmt.Sprintf(topologyRule, 5, 120)},
	}
}

// LookupStudySpec returns the spec called name.
func LookupStudySpec(name string) (StudySpec, bool) {
	for _, s := range StudySpecs() {
		if s.Name == name {
			return s, true
		}
	}
	return StudySpec{}, false
}

// StudyTemplate is the study's prompt (appendix H.4): FinalSystemPrompt and
// FinalPrompt's user message around the rendered graph. Its answers are
// scored with ScoreFinal.
func StudyTemplate(contextText string, q task.Question) (system, user string) {
	return FinalPrompt(q, contextText)
}

var _ task.PromptFunc = StudyTemplate

// StudySets generates the questions of a regime once and renders every
// graph in each of the named graphtext formats (nil: the study's 15,
// graphtext.StudyNames): one set per format, named <spec name>-<format>,
// with the same questions (same ids, texts and gold answers) in every set
// and Meta["format"] naming the format. Nodes are named by their integer
// ids, as the study's reference renderings (appendix H.2) are.
func StudySets(spec StudySpec, seed int64, formats []string) ([]*task.Set, error) {
	if formats == nil {
		formats = graphtext.StudyNames()
	}
	for _, f := range formats {
		if _, ok := graphtext.Lookup(f); !ok {
			return nil, fmt.Errorf("task: unknown graph format %q (known: %s)", f, strings.Join(graphtext.Names(), ", "))
		}
	}
	var graphs []*graph.Graph
	base, err := Generate(Options{Regime: spec.Regime, Graphs: spec.Graphs, Limit: spec.Limit, Seed: seed,
		Render: func(g *graph.Graph) (string, error) {
			graphs = append(graphs, g)
			return "", nil
		}})
	if err != nil {
		return nil, err
	}
	if len(graphs) != len(base.Contexts) {
		return nil, fmt.Errorf("task: %d graphs for %d contexts", len(graphs), len(base.Contexts))
	}
	var sets []*task.Set
	for _, f := range formats {
		set := &task.Set{Name: spec.Name + "-" + f, Seed: base.Seed, Counts: append([]task.FamilyCount(nil), base.Counts...)}
		for i, c := range base.Contexts {
			var b strings.Builder
			if err := graphtext.Encode(&b, graphs[i], f, graphtext.Options{}); err != nil {
				return nil, fmt.Errorf("task: %s in %s: %w", c.ID, f, err)
			}
			c.Text = b.String()
			c.Source += " format=" + f
			set.Contexts = append(set.Contexts, c)
		}
		for _, q := range base.Questions {
			set.Questions = append(set.Questions, q.WithMeta("format", f))
		}
		set.Seal()
		sets = append(sets, set)
	}
	return sets, nil
}
