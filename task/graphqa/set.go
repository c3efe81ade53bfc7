package graphqa

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// Regimes of Options.
const (
	RegimeTLAG     = "tlag"     // Talk like a Graph: its generators, sizes 5–19, its 11 tasks
	RegimeGraphQA  = "graphqa"  // the study: ER, n in {8,15,25,35,50}, p ~ U[0,1], 11 tasks
	RegimeHardened = "hardened" // the study: ER, n in {35,50,75}, calibrated p, 7 operators
	RegimeTopology = "topology" // the study: n = 50, six generators, 4 operators
)

// MaxGraphs bounds Options.Graphs.
const MaxGraphs = 100000

// Options configure Generate.
type Options struct {
	// Regime is one of the Regime* constants; empty means RegimeGraphQA.
	Regime string
	// Graphs is the number of graphs (per generator in the TLAG regime);
	// each gets one question per task. 0 means 15 (the study's 15 questions
	// per task).
	Graphs int
	// Tasks overrides the regime's task list.
	Tasks []string
	// Generators overrides the regime's generators (used in turn; TLAG's
	// default is all seven, the study regimes' are er, and Topology's six).
	Generators []string
	// Sizes overrides the regime's node counts (used in turn; the TLAG
	// regime draws them when nil).
	Sizes []int
	// Seed seeds the graphs (random.seed(Seed) and RandomState(Seed); in the
	// TLAG regime anew for each generator, as generate_graphs runs once per
	// algorithm); questions draw their nodes from the stream Seed+1 (Talk
	// like a Graph seeds graphs and tasks separately).
	Seed int64
	// Names are node names for the question texts (nil: integers) and
	// IntegerNames says that they are integers (see GenGraph.Ask).
	Names        []string
	IntegerNames bool
	// Render writes each graph as its context; nil means TLAGAdjacency.
	// Render must name nodes as Names does.
	Render Renderer
	// Limit, when positive, keeps the first Limit questions in generation
	// order (graph by graph, each graph's tasks in order): generation stops
	// there, and a graph with no question kept is not in the set.
	Limit int
}

// Generate generates a question set of one regime: for each graph, one
// question per task, with the graph's rendering as the question's context.
// Questions whose arguments cannot be drawn (e.g. a kth_shortest_path on a
// tree) are skipped and counted in Set.Counts.
func Generate(opts Options) (*task.Set, error) {
	regime := opts.Regime
	if regime == "" {
		regime = RegimeGraphQA
	}
	var tasks, gens []string
	var sizes []int
	family := ""
	calibrated := false
	switch regime {
	case RegimeTLAG:
		family, tasks, gens = FamilyTLAG, TLAGTasks(), Generators()
	case RegimeGraphQA:
		family, tasks, gens, sizes = FamilyGraphQA, StudyTasks(), []string{GenER}, []int{8, 15, 25, 35, 50}
	case RegimeHardened:
		family, tasks, gens, sizes = FamilyHardened, HardenedTasks(), []string{GenER}, []int{35, 50, 75}
		calibrated = true
	case RegimeTopology:
		family, tasks, gens, sizes = FamilyTopology, TopologyTasks(), []string{GenER, GenBA, GenSBM, GenStar, GenComplete, GenPath}, []int{50}
		calibrated = true
	default:
		return nil, fmt.Errorf("task: unknown GraphQA regime %q", regime)
	}
	if opts.Tasks != nil {
		tasks = opts.Tasks
	}
	if opts.Generators != nil {
		gens = opts.Generators
	}
	if opts.Sizes != nil {
		sizes = opts.Sizes
	}
	count := opts.Graphs
	if count == 0 {
		count = 15
	}
	if opts.Limit < 0 {
		return nil, fmt.Errorf("task: negative question limit %d", opts.Limit)
	}
	if count < 0 || count > MaxGraphs {
		return nil, fmt.Errorf("task: %d graphs outside 0..%d", count, MaxGraphs)
	}
	if len(gens) == 0 || len(tasks) == 0 {
		return nil, fmt.Errorf("task: no generators or no tasks")
	}
	render := opts.Render
	if render == nil {
		render = TLAGAdjacency
	}
	qrng := py.NewRand(opts.Seed + 1)
	var graphs []*GenGraph
	if sizes == nil {
		// Talk like a Graph: generate_graphs per generator, each seeded anew.
		for _, gen := range gens {
			gs, err := TLAGGraphs(gen, count, opts.Seed)
			if err != nil {
				return nil, err
			}
			graphs = append(graphs, gs...)
		}
	} else {
		pr := py.NewRand(opts.Seed)
		np := numpyStandIn(opts.Seed)
		for i := 0; i < count; i++ {
			gen := gens[i%len(gens)]
			n := sizes[(i/len(gens))%len(sizes)]
			o := GenOptions{DrawP: true, MaxCommunities: 10}
			if calibrated {
				p := CalibratedP(n)
				o.DrawP, o.P = false, p
				o.M = max(1, int(p*float64(n-1)/2+0.5))
			}
			g, err := GenerateGraph(gen, n, pr, np, o)
			if err != nil {
				return nil, err
			}
			graphs = append(graphs, g)
		}
	}
	set := &task.Set{Name: family, Seed: opts.Seed}
	counts := map[string]*task.FamilyCount{}
	for _, t := range tasks {
		counts[t] = &task.FamilyCount{Family: family + "/" + t}
	}
	for i, g := range graphs {
		if opts.Limit > 0 && len(set.Questions) >= opts.Limit {
			break
		}
		gen, n := g.Generator, g.N
		ctxText, err := render(g.Labelled(opts.Names))
		if err != nil {
			return nil, err
		}
		ctxID := fmt.Sprintf("%s-%03d-%s-n%d", family, i, gen, n)
		set.Contexts = append(set.Contexts, task.Context{ID: ctxID, Text: ctxText,
			Source: fmt.Sprintf("%s n=%d %s", gen, n, formatParams(g.Params))})
		for _, t := range tasks {
			if opts.Limit > 0 && len(set.Questions) >= opts.Limit {
				break
			}
			c := counts[t]
			c.Candidates++
			a, ok := SampleArgs(t, g, qrng)
			if !ok {
				c.Skipped = "no arguments fit some graphs"
				continue
			}
			tq, err := g.Ask(t, opts.Names, opts.IntegerNames, a)
			if err != nil {
				c.Skipped = err.Error()
				continue
			}
			c.Questions++
			meta := map[string]string{"generator": gen, "nodes": fmt.Sprint(n), "study_question": tq.StudyText}
			if a.Source >= 0 {
				meta["source"] = fmt.Sprint(a.Source)
			}
			if a.Target >= 0 {
				meta["target"] = fmt.Sprint(a.Target)
			}
			if a.K != 0 {
				meta["k"] = fmt.Sprint(a.K)
			}
			set.Questions = append(set.Questions, task.Question{
				ID: fmt.Sprintf("%s-%03d-%s", family, i, t), Family: family, Task: t,
				Text: tq.Text, Gold: tq.Gold, ContextID: ctxID, Meta: meta,
			})
		}
	}
	for _, t := range tasks {
		set.Counts = append(set.Counts, *counts[t])
	}
	set.Seal()
	return set, nil
}

func formatParams(p map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+"="+p[k])
	}
	return strings.Join(parts, " ")
}
