package adaptive

import (
	"fmt"
	"sort"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

// Seeds of the default splits. They are independent (neither is the other
// plus one, which graphqa.Generate uses for the question stream of a seed) and
// the splits they generate share no graph (DefaultSplits checks it).
const (
	CalibrationSeed int64 = 110501
	TestSeed        int64 = 210502
)

// DefaultGraphs is the number of graphs of a default split: with the seven
// Hardened operators, 15 graphs give the study's 105 questions.
const DefaultGraphs = 15

// Item is one question of a split with the labelled graph it is asked about.
type Item struct {
	Q     task.Question
	Graph *graph.Graph
}

// Split is a seeded GraphQA question set whose graphs are kept, so that each
// question can be rendered in any format.
type Split struct {
	// Name is "calibration", "test" or a caller's name.
	Name string
	// Seed is the graphqa.Generate seed.
	Seed  int64
	Items []Item
}

// HardenedSplit generates a GraphQA-Hardened split: graphs graphs (0 means
// DefaultGraphs), one question per Hardened operator each, seeded by seed.
// tasks, when not nil, restricts the operators.
func HardenedSplit(name string, seed int64, graphs int, tasks []string) (*Split, error) {
	if graphs == 0 {
		graphs = DefaultGraphs
	}
	var gs []*graph.Graph
	keep := func(g *graph.Graph) (string, error) {
		gs = append(gs, g)
		return fmt.Sprintf("graph %d", len(gs)-1), nil
	}
	set, err := graphqa.Generate(graphqa.Options{Regime: graphqa.RegimeHardened, Graphs: graphs, Seed: seed, Tasks: tasks, Render: keep})
	if err != nil {
		return nil, err
	}
	byCtx := make(map[string]*graph.Graph, len(set.Contexts))
	for i, c := range set.Contexts {
		byCtx[c.ID] = gs[i]
	}
	s := &Split{Name: name, Seed: seed}
	for _, q := range set.Questions {
		g := byCtx[q.ContextID]
		if g == nil {
			return nil, fmt.Errorf("adaptive: question %s has no graph", q.ID)
		}
		s.Items = append(s.Items, Item{Q: q, Graph: g})
	}
	return s, nil
}

// DefaultSplits returns the calibration split (CalibrationSeed) and the test
// split (TestSeed) of GraphQA-Hardened, DefaultGraphs graphs each, and
// checks that no graph of one occurs in the other.
func DefaultSplits() (cal, test *Split, err error) {
	if cal, err = HardenedSplit("calibration", CalibrationSeed, 0, nil); err != nil {
		return nil, nil, err
	}
	if test, err = HardenedSplit("test", TestSeed, 0, nil); err != nil {
		return nil, nil, err
	}
	if err := CheckDisjoint(cal, test); err != nil {
		return nil, nil, err
	}
	return cal, test, nil
}

// CheckDisjoint returns an error when a graph of a (compared by its edge
// list in the edge_list format) also occurs in b.
func CheckDisjoint(a, b *Split) error {
	seen := map[string]string{}
	for _, it := range a.Items {
		k, err := Render("edge_list", it.Graph)
		if err != nil {
			return err
		}
		seen[k] = it.Q.ID
	}
	for _, it := range b.Items {
		k, err := Render("edge_list", it.Graph)
		if err != nil {
			return err
		}
		if id, ok := seen[k]; ok {
			return fmt.Errorf("adaptive: splits %s and %s share a graph (%s, %s)", a.Name, b.Name, id, it.Q.ID)
		}
	}
	return nil
}

// Tasks returns the tasks of the split's questions, sorted.
func (s *Split) Tasks() []string {
	set := map[string]bool{}
	for _, it := range s.Items {
		set[it.Q.Task] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Render writes g in the named format of the registry (package formats),
// which must read labelled graphs.
func Render(format string, g *graph.Graph) (string, error) {
	return formats.EncodeString(format, formats.NewGraphInput(g))
}

// AnswerMessages returns the answer call's messages: the study's GraphQA
// chain-of-thought prompt (graphqa.FinalPrompt) with the graph rendered in the
// chosen format. Nothing of the selector is in them.
func AnswerMessages(q task.Question, rendered string) (system, user string) {
	return graphqa.FinalPrompt(q, rendered)
}
