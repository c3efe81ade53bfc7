// Package graphqa is GraphQA: the graph generators of Talk like a Graph
// (Fatemi, Halcrow and Perozzi, ICLR 2024) with networkx's semantics (er,
// ba, sbm, sfn, complete, star, path; Python's and numpy's random through
// internal/py), its tasks with their exact question and answer strings, the
// two summaries and the seven Hardened operators of "Graph Serializations
// for Reasoning LLMs", its GraphQA, Hardened and Topology regimes
// (Generate), the prompting variants (zero-shot, zero-CoT, few-shot, CoT,
// build-a-graph) and the study's FINAL: template (appendix H.4), and the
// scorers.
package graphqa

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// Families of GraphQA questions (Question.Family).
const (
	FamilyTLAG     = "graphqa_tlag"     // Talk like a Graph's own tasks and setting
	FamilyGraphQA  = "graphqa"          // the study's GraphQA regime
	FamilyHardened = "graphqa_hardened" // the study's GraphQA-Hardened regime
	FamilyTopology = "graphqa_topology" // the study's GraphQA-Topology regime
)

// GraphQA task names: Talk like a Graph's (graph_task.py), the study's two
// summaries, and its seven Hardened operators.
const (
	TaskEdgeExistence     = "edge_existence"
	TaskNodeDegree        = "node_degree"
	TaskNodeCount         = "node_count"
	TaskEdgeCount         = "edge_count"
	TaskConnectedNodes    = "connected_nodes"
	TaskDisconnectedNodes = "disconnected_nodes"
	TaskCycleCheck        = "cycle_check"
	TaskReachability      = "reachability"
	TaskShortestPath      = "shortest_path"
	TaskTriangleCounting  = "triangle_counting"
	TaskMaximumFlow       = "maximum_flow"

	TaskNumComponents = "num_components"
	TaskConnectivity  = "connectivity"

	TaskKCoreSize         = "kcore_size"
	TaskDiameter          = "diameter"
	TaskKthShortestPath   = "kth_shortest_path"
	TaskLocalClustering   = "local_clustering"
	TaskNeighbourDegreeGE = "neighbour_degree_ge"
	TaskMaxCliqueSize     = "max_clique_size"
	TaskBetweennessTop1   = "betweenness_top1"
)

// TLAGTasks are Talk like a Graph's tasks with a graph-only question (its
// node_classification, which generates its own graphs, is not included).
func TLAGTasks() []string {
	return []string{TaskEdgeExistence, TaskNodeDegree, TaskNodeCount, TaskEdgeCount, TaskConnectedNodes,
		TaskDisconnectedNodes, TaskCycleCheck, TaskReachability, TaskShortestPath, TaskTriangleCounting,
		TaskMaximumFlow}
}

// StudyTasks are the 11 tasks of the study's GraphQA regime: nine of
// Talk like a Graph's tasks and the two summaries. The study does not list
// the nine; we take those whose answer the graph text determines and that
// match its description ("edges, degrees, neighbors, counts, paths, and
// cycles"), leaving out disconnected_nodes and maximum_flow (whose capacities
// no encoder shows).
func StudyTasks() []string {
	return []string{TaskEdgeExistence, TaskNodeDegree, TaskNodeCount, TaskEdgeCount, TaskConnectedNodes,
		TaskCycleCheck, TaskReachability, TaskShortestPath, TaskTriangleCounting, TaskNumComponents,
		TaskConnectivity}
}

// HardenedTasks are the study's seven Hardened operators.
func HardenedTasks() []string {
	return []string{TaskKCoreSize, TaskDiameter, TaskKthShortestPath, TaskLocalClustering,
		TaskNeighbourDegreeGE, TaskMaxCliqueSize, TaskBetweennessTop1}
}

// TopologyTasks are the four bounded-answer operators of the Topology regime.
func TopologyTasks() []string {
	return []string{TaskKthShortestPath, TaskLocalClustering, TaskNeighbourDegreeGE, TaskBetweennessTop1}
}

// TaskArgs are the parameters of one question on a graph.
type TaskArgs struct {
	Source, Target int // nodes (by index); -1 when unused
	// K is the k of kcore_size and kth_shortest_path, or the degree
	// threshold of neighbour_degree_ge.
	K int
	// Capacities are maximum_flow's edge capacities, in Edges() order.
	Capacities []int64
}

// TaskQuestion is one GraphQA question on a graph: Talk like a Graph's text
// (ending in "\nA: "), the study's plain wording, and the gold answer.
type TaskQuestion struct {
	Text      string // e.g. "Q: What is the degree of node 3?\nA: "
	StudyText string // e.g. "What is the degree of node 3?"
	Gold      task.Answer
}

// Ask builds the question of the named task on g with the given arguments.
// names maps node indexes to their names in the text (nil: the integers, as
// the adjacency and incident encoders write them); integerNames says whether
// names are integers, which keeps connected_nodes in edge order as the
// source does (other names are sorted).
func (g *GenGraph) Ask(taskName string, names []string, integerNames bool, a TaskArgs) (TaskQuestion, error) {
	if names == nil {
		integerNames = true
	}
	if len(names) > 0 && len(names) < g.N {
		return TaskQuestion{}, fmt.Errorf("task: %d node names for %d nodes", len(names), g.N)
	}
	name := func(i int) string { return nodeName(names, i) }
	view := g.View()
	needNode := func(v int) error {
		if v < 0 || v >= g.N {
			return fmt.Errorf("task: %s: node %d outside 0..%d", taskName, v, g.N-1)
		}
		return nil
	}
	var q, study string
	var ans task.Answer
	switch taskName {
	case TaskEdgeExistence, TaskReachability, TaskShortestPath, TaskMaximumFlow, TaskKthShortestPath:
		if err := needNode(a.Source); err != nil {
			return TaskQuestion{}, err
		}
		if err := needNode(a.Target); err != nil {
			return TaskQuestion{}, err
		}
	case TaskNodeDegree, TaskConnectedNodes, TaskDisconnectedNodes, TaskLocalClustering, TaskNeighbourDegreeGE:
		if err := needNode(a.Source); err != nil {
			return TaskQuestion{}, err
		}
	}
	s, t := a.Source, a.Target
	switch taskName {
	case TaskEdgeExistence:
		q = fmt.Sprintf("Is node %s connected to node %s?", name(s), name(t))
		ans = yesNo(view.HasEdge(s, t) || view.HasEdge(t, s), "Yes.", "No.")
	case TaskNodeDegree:
		q = fmt.Sprintf("What is the degree of node %s?", name(s))
		d := len(g.Adj[s]) // nx degree: a self-loop counts twice
		for _, v := range g.Adj[s] {
			if v == s {
				d++
			}
		}
		ans = intAnswer(d, "%d.")
	case TaskNodeCount:
		q = "How many nodes are in this graph?"
		study = "How many nodes does the graph have?"
		ans = intAnswer(g.N, " %d.")
	case TaskEdgeCount:
		q = "How many edges are in this graph?"
		study = "How many edges does the graph have?"
		ans = intAnswer(len(g.Edges()), " %d.")
	case TaskConnectedNodes:
		q = fmt.Sprintf("List all the nodes connected to %s in alphabetical order.", name(s))
		var items []string
		for _, v := range g.Adj[s] {
			items = append(items, name(v))
		}
		if !integerNames {
			sort.Strings(items)
		}
		ans = listAnswer(items, " No nodes.")
	case TaskDisconnectedNodes:
		q = fmt.Sprintf("List all the nodes that are not connected to %s in alphabetical order.", name(s))
		var items []string
		for v := 0; v < g.N; v++ {
			if v != s && !view.HasEdge(s, v) {
				items = append(items, name(v))
			}
		}
		sort.Strings(items) // as strings, even for integer names
		ans = listAnswer(items, "No nodes.")
	case TaskCycleCheck:
		q = "Is there a cycle in this graph?"
		ans = yesNo(view.HasCycle(), "Yes, there is a cycle.", "No, there is no cycle.")
	case TaskReachability:
		q = fmt.Sprintf("Is there a path from node %s to node %s?", name(s), name(t))
		ans = yesNo(view.Distance(s, t) >= 0, "Yes.", "No.")
	case TaskShortestPath:
		q = fmt.Sprintf("What is the length of the shortest path from node %s to node %s?", name(s), name(t))
		if d := view.Distance(s, t); d >= 0 {
			ans = intAnswer(d, "%d.")
		} else {
			ans = task.Answer{Text: fmt.Sprintf("There is no path from node %s to node %s.", name(s), name(t)),
				Kind: task.KindNoPath, Value: "no path"}
		}
	case TaskTriangleCounting:
		q = "How many triangles are in this graph?"
		ans = intAnswer(view.TriangleCount(), "%d.")
	case TaskMaximumFlow:
		q = fmt.Sprintf("What is the maximum capacity of the flow from node %s to node %s?", name(s), name(t))
		edges := g.Edges()
		if len(a.Capacities) != len(edges) {
			return TaskQuestion{}, fmt.Errorf("task: maximum_flow needs %d capacities, got %d", len(edges), len(a.Capacities))
		}
		capOf := map[[2]int]int64{}
		for i, e := range edges {
			u, v := min(e[0], e[1]), max(e[0], e[1])
			capOf[[2]int{u, v}] = a.Capacities[i]
		}
		f := view.MaxFlow(s, t, func(u, v int) int64 { return capOf[[2]int{min(u, v), max(u, v)}] })
		ans = intAnswer(int(f), "%d.")
	case TaskNumComponents:
		q = "How many connected components are in this graph?"
		ans = intAnswer(len(view.ConnectedComponents()), " %d.")
	case TaskConnectivity:
		q = "Is this graph connected?"
		ans = yesNo(len(view.ConnectedComponents()) <= 1, "Yes.", "No.")
	case TaskKCoreSize:
		if a.K < 0 {
			return TaskQuestion{}, fmt.Errorf("task: kcore_size with k=%d", a.K)
		}
		q = fmt.Sprintf("How many nodes are in the %d-core of this graph (the largest subgraph in which every node has degree at least %d)?", a.K, a.K)
		ans = intAnswer(len(view.KCore(a.K)), "%d.")
	case TaskDiameter:
		q = "What is the diameter of this graph (the greatest shortest-path length between two connected nodes)?"
		d, _ := view.Diameter()
		ans = intAnswer(d, "%d.")
	case TaskKthShortestPath:
		if a.K < 1 || a.K > 100 {
			return TaskQuestion{}, fmt.Errorf("task: kth_shortest_path with k=%d", a.K)
		}
		q = fmt.Sprintf("What is the length of the %s shortest simple path from node %s to node %s?", Ordinal(a.K), name(s), name(t))
		paths := view.KShortestPaths(s, t, a.K)
		if len(paths) < a.K {
			return TaskQuestion{}, fmt.Errorf("task: only %d simple paths from %d to %d", len(paths), s, t)
		}
		ans = intAnswer(len(paths[a.K-1])-1, "%d.")
	case TaskLocalClustering:
		q = fmt.Sprintf("What is the local clustering coefficient of node %s? Give it with two decimals.", name(s))
		v := strconv.FormatFloat(view.Clustering(s), 'f', 2, 64)
		ans = task.Answer{Text: v + ".", Kind: task.KindFloat, Value: v}
	case TaskNeighbourDegreeGE:
		q = fmt.Sprintf("How many neighbours of node %s have degree at least %d?", name(s), a.K)
		c := 0
		for _, v := range view.Und[s] {
			if view.Degree(v) >= a.K {
				c++
			}
		}
		ans = intAnswer(c, "%d.")
	case TaskMaxCliqueSize:
		q = "How many nodes are in the largest clique of this graph?"
		c, err := view.MaximumClique()
		if err != nil {
			return TaskQuestion{}, err
		}
		ans = intAnswer(len(c), "%d.")
	case TaskBetweennessTop1:
		q = "Which node has the highest betweenness centrality? If several nodes tie, give the first one in the node list."
		bc := view.Betweenness(true)
		best := 0
		for v := range bc {
			if bc[v] > bc[best]+1e-12 {
				best = v
			}
		}
		ans = task.Answer{Text: name(best) + ".", Kind: task.KindNode, Value: name(best)}
	default:
		return TaskQuestion{}, fmt.Errorf("task: unknown GraphQA task %q", taskName)
	}
	if study == "" {
		study = q
	}
	return TaskQuestion{Text: "Q: " + q + "\nA: ", StudyText: study, Gold: ans}, nil
}

// Ordinal writes k as "1st", "2nd", "3rd", "4th", ...
func Ordinal(k int) string {
	suffix := "th"
	switch {
	case k%100 >= 11 && k%100 <= 13:
	case k%10 == 1:
		suffix = "st"
	case k%10 == 2:
		suffix = "nd"
	case k%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(k) + suffix
}

func yesNo(b bool, yes, no string) task.Answer {
	if b {
		return task.Answer{Text: yes, Kind: task.KindYesNo, Value: "yes"}
	}
	return task.Answer{Text: no, Kind: task.KindYesNo, Value: "no"}
}

func intAnswer(v int, format string) task.Answer {
	return task.Answer{Text: fmt.Sprintf(format, v), Kind: task.KindInt, Value: strconv.Itoa(v)}
}

func listAnswer(items []string, none string) task.Answer {
	if len(items) == 0 {
		return task.Answer{Text: none, Kind: task.KindList, Value: ""}
	}
	return task.Answer{Text: strings.Join(items, ", ") + ".", Kind: task.KindList, Value: strings.Join(items, ", "), Items: items}
}

// SampleArgs draws the arguments of a task on g as Talk like a Graph does
// for its tasks (random.sample(nodes, 2) for a source and a target,
// random.sample(nodes, 1) for one node, randint(1, 10) per edge, in edge
// order, for maximum_flow capacities), and for the Hardened operators: k of
// kcore_size uniform in 2..(largest core number) (1 when that is below 2);
// for kth_shortest_path k uniform in {2, 3} and a pair with at least k simple
// paths (up to 20 draws; then k-1, down to 1, each with up to 20 draws); for neighbour_degree_ge a threshold uniform in
// 2..(maximum degree) (1 when below 2). ok is false when no argument fits
// (e.g. a one-node graph for a pair task).
func SampleArgs(task string, g *GenGraph, rng *py.Rand) (a TaskArgs, ok bool) {
	a = TaskArgs{Source: -1, Target: -1}
	pair := func() bool {
		idx, err := rng.SampleIndices(g.N, 2)
		if err != nil {
			return false
		}
		a.Source, a.Target = idx[0], idx[1]
		return true
	}
	one := func() bool {
		idx, err := rng.SampleIndices(g.N, 1)
		if err != nil {
			return false
		}
		a.Source = idx[0]
		return true
	}
	switch task {
	case TaskEdgeExistence, TaskReachability, TaskShortestPath:
		return a, pair()
	case TaskMaximumFlow:
		if !pair() {
			return a, false
		}
		for range g.Edges() {
			c, _ := rng.RandInt(1, 10)
			a.Capacities = append(a.Capacities, int64(c))
		}
		return a, true
	case TaskNodeDegree, TaskConnectedNodes, TaskDisconnectedNodes, TaskLocalClustering:
		return a, one()
	case TaskNeighbourDegreeGE:
		if !one() {
			return a, false
		}
		view := g.View()
		maxDeg := 0
		for v := 0; v < g.N; v++ {
			maxDeg = max(maxDeg, view.Degree(v))
		}
		a.K = 1
		if maxDeg >= 2 {
			a.K, _ = rng.RandInt(2, maxDeg)
		}
		return a, true
	case TaskKCoreSize:
		maxCore := 0
		for _, c := range g.View().CoreNumbers() {
			maxCore = max(maxCore, c)
		}
		a.K = 1
		if maxCore >= 2 {
			a.K, _ = rng.RandInt(2, maxCore)
		}
		return a, true
	case TaskKthShortestPath:
		k, _ := rng.RandInt(2, 3)
		view := g.View()
		// When no pair with k simple paths turns up in 20 draws (on a tree,
		// such as the Topology regime's star and path graphs, none exists),
		// k is lowered by one and up to 20 pairs are drawn again, down to
		// k = 1, the shortest path, which every pair of a connected graph
		// has. The paper counts a kth_shortest_path question on every
		// Topology graph (4 questions × 6 generators × 3 graphs = 72,
		// Table 8) without saying what it asks on a tree; this is the rule
		// isolda chooses. On graphs where k = 2 or 3 fits, nothing changes.
		for a.K = k; a.K >= 1; a.K-- {
			for range 20 {
				if !pair() {
					return a, false
				}
				if len(view.KShortestPaths(a.Source, a.Target, a.K)) == a.K {
					return a, true
				}
			}
		}
		return a, false
	}
	return a, true
}

// TLAGNodeCount draws a node count as generate_graphs does:
// random.choice(np.arange(lo, hi)) for the size class ("small" 5–9, "medium"
// 10–14, "large" 15–19).
func TLAGNodeCount(size string, pr *py.Rand) int {
	lo := map[string]int{"small": 5, "medium": 10, "large": 15}[size]
	if lo == 0 {
		lo = 5
	}
	return lo + pr.Below(5)
}

// TLAGSizes draws k size classes as random.choices(["small", "medium",
// "large"], k=k) does (floor(random() * 3) per draw).
func TLAGSizes(pr *py.Rand, k int) []string {
	classes := []string{"small", "medium", "large"}
	out := make([]string, k)
	for i := range out {
		out[i] = classes[int(pr.Random()*3)]
	}
	return out
}

// TLAGGraphs generates count graphs of one generator as Talk like a Graph's
// generate_graphs does: random.seed(seed), size classes drawn with
// random.choices, then per graph a node count and the generator's own draws
// (sbm's community count range follows the size class). See GenerateGraph for
// where this may deviate from the released data.
func TLAGGraphs(gen string, count int, seed int64) ([]*GenGraph, error) {
	pr := py.NewRand(seed)
	np := numpyStandIn(seed)
	sizes := TLAGSizes(pr, count)
	out := make([]*GenGraph, 0, count)
	for _, size := range sizes {
		n := TLAGNodeCount(size, pr)
		o := GenOptions{DrawP: true, MaxCommunities: map[string]int{"small": 4, "medium": 8, "large": 10}[size]}
		g, err := GenerateGraph(gen, n, pr, np, o)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// numpyStandIn is numpy's RandomState(seed) (seeds taken modulo 2**32).
func numpyStandIn(seed int64) *py.NumpyRandomState {
	return py.NewNumpyRandomState(uint32(seed))
}

// Renderer writes a graph as the context text of a question.
type Renderer func(g *graph.Graph) (string, error)

// TLAGAdjacency is Talk like a Graph's adjacency encoder with integer node
// names (graph_text_encoder.py, as quoted in benchmarks.md §2.2): the default
// Renderer of GraphQA. It is kept here so that the package does not depend on
// formats/graphtext; any graphtext encoder can be passed as a Renderer.
func TLAGAdjacency(g *graph.Graph) (string, error) {
	var b strings.Builder
	if g.Directed {
		b.WriteString("In a directed graph, (i,j) means that there is an edge from node i to node j. ")
	} else {
		b.WriteString("In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. ")
	}
	ids := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.ID
	}
	b.WriteString("G describes a graph among nodes " + JoinAnd(ids) + ".\n")
	if len(g.Edges) > 0 {
		b.WriteString("The edges in G are:")
		for _, e := range g.Edges {
			fmt.Fprintf(&b, " (%s, %s)", e.From, e.To)
		}
		b.WriteString(".\n")
	}
	return b.String(), nil
}

// JoinAnd joins names as Talk like a Graph's node lists: "0, 1, 2, and 3"
// (one name alone; two as "0, and 1", as the source's ", and " join does).
func JoinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}
