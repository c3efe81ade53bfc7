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
	// Regime and Graphs are the Options of Generate.
	Regime string
	Graphs int
	// N is the number of questions Generate gives (for every seed: no
	// question of these regimes depends on the seed for being asked).
	N int
	// PaperN is the number of questions per (model, format) the paper
	// reports, and Source where.
	PaperN int
	Source string
	// Deviation says why N differs from PaperN; empty when they agree.
	Deviation string
}

// Why Topology sizes differ: kth_shortest_path on trees.
const topologyDeviation = "the paper counts 4 questions on every graph (4 operators × 6 generators × %d graphs), so its kth_shortest_path (k = 2 or 3) must have an answer on the star and path graphs; these are trees, with one simple path between any two nodes, so no k-th shortest path exists, the paper defines no answer for that case, and Generate skips those %d questions"

// StudySpecs returns the study's GraphQA sets with their sizes.
func StudySpecs() []StudySpec {
	return []StudySpec{
		{Name: "graphqa", Regime: RegimeGraphQA, Graphs: 15, N: 165, PaperN: 165, Source: "Table 6 (11 tasks × 15 Erdős–Rényi graphs)"},
		{Name: "graphqa-hardened", Regime: RegimeHardened, Graphs: 15, N: 105, PaperN: 95, Source: "Table 7",
			Deviation: "95 is not a whole number of graphs (7 operators per graph) and no Hardened question is ever skipped at the calibrated density, so no rule of the paper yields 95 questions; the set here is the paper's other Hardened size, 105 = 7 operators × 15 graphs (its calibration and test splits, Tables 3 and 14, and its repeated runs)"},
		{Name: "graphqa-hardened-105", Regime: RegimeHardened, Graphs: 15, N: 105, PaperN: 105, Source: "Tables 3 and 14, repeated runs (7 operators × 15 graphs)"},
		{Name: "graphqa-topology", Regime: RegimeTopology, Graphs: 18, N: 66, PaperN: 72, Source: "Table 8",
			Deviation: fmt.Sprintf(topologyDeviation, 3, 6)},
		{Name: "graphqa-topology-120", Regime: RegimeTopology, Graphs: 30, N: 110, PaperN: 120, Source: "repeated runs",
			Deviation: fmt.Sprintf(topologyDeviation, 5, 10)},
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
	base, err := Generate(Options{Regime: spec.Regime, Graphs: spec.Graphs, Seed: seed,
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
