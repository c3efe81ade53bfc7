package graphqa

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/py"
)

type nxPair struct {
	S, T     int
	Edge     bool
	Path     bool
	Dist     int
	Flow     int
	KLengths []int `json:"k_lengths"`
}

type nxNode struct {
	Degree        int
	ClusteringStr string `json:"clustering_str"`
	Neighbours    []int
	NonNeighbours []string       `json:"non_neighbours"`
	HighDeg       map[string]int `json:"high_deg"`
}

type nxCase struct {
	Name           string
	N              int
	Edges          [][2]int
	Capacities     []int64
	Adj            [][]int
	NumEdges       int `json:"num_edges"`
	Triangles      int
	HasCycle       bool `json:"has_cycle"`
	Components     int
	Connected      bool
	MaxClique      int            `json:"max_clique"`
	CoreSizes      map[string]int `json:"core_sizes"`
	Diameter       int
	BetweennessTop int `json:"betweenness_top"`
	Pairs          []nxPair
	Nodes          []nxNode
}

func loadNX(t *testing.T) []nxCase {
	t.Helper()
	b, err := os.ReadFile("testdata/networkx_graphqa.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Networkx string
		Cases    []nxCase
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

// regenerate rebuilds a fixture's graph with this package's generators from
// the parameters gen_networkx.py used.
func regenerate(t *testing.T, c nxCase) *GenGraph {
	t.Helper()
	var seed, n, m int
	var g *GenGraph
	var err error
	switch {
	case strings.HasPrefix(c.Name, "er-"):
		params := map[int]float64{1: 0.3, 2: 0.5, 3: 0.15, 4: 0.1, 5: 0}
		seed, _ = strconv.Atoi(strings.TrimPrefix(c.Name, "er-"))
		g, err = GenerateGraph(GenER, c.N, nil, py.NewRand(int64(seed)), GenOptions{P: params[seed]})
	case strings.HasPrefix(c.Name, "ba-"):
		fmt.Sscanf(c.Name, "ba-%d-%d-%d", &seed, &n, &m)
		g, err = GenerateGraph(GenBA, n, py.NewRand(int64(seed)), nil, GenOptions{M: m})
	case strings.HasPrefix(c.Name, "sfn-"):
		fmt.Sscanf(c.Name, "sfn-%d-%d", &seed, &n)
		g, err = GenerateGraph(GenSFN, n, py.NewRand(int64(seed)), nil, GenOptions{})
	case strings.HasPrefix(c.Name, "complete-"):
		g, err = GenerateGraph(GenComplete, c.N, nil, nil, GenOptions{})
	case strings.HasPrefix(c.Name, "star-"):
		g, err = GenerateGraph(GenStar, c.N, nil, nil, GenOptions{})
	case strings.HasPrefix(c.Name, "path-"):
		g, err = GenerateGraph(GenPath, c.N, nil, nil, GenOptions{})
	default:
		t.Fatalf("unknown case %s", c.Name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGeneratorsMatchNetworkx: er (gnp_random_graph with a random.Random
// seed), ba (barabasi_albert_graph on the global random), complete, star and
// path give networkx's graphs with its edge order.
func TestGeneratorsMatchNetworkx(t *testing.T) {
	pass := 0
	cases := loadNX(t)
	for _, c := range cases {
		g := regenerate(t, c)
		got, _ := json.Marshal(g.Edges())
		want, _ := json.Marshal(c.Edges)
		if string(got) != string(want) {
			t.Errorf("%s: edges\n%s\nwant\n%s", c.Name, got, want)
			continue
		}
		ga, _ := json.Marshal(g.Adj)
		wa, _ := json.Marshal(c.Adj)
		if string(ga) != string(wa) {
			t.Errorf("%s: adjacency order %s, want %s", c.Name, ga, wa)
			continue
		}
		pass++
	}
	msg := fmt.Sprintf("generators vs networkx 3.6.1: %d/%d graphs identical", pass, len(cases))
	t.Log(msg)
}

func ask(t *testing.T, g *GenGraph, task string, a TaskArgs) TaskQuestion {
	t.Helper()
	q, err := g.Ask(task, nil, true, a)
	if err != nil {
		t.Fatalf("%s: %v", task, err)
	}
	return q
}

// TestTasksMatchNetworkx checks every task's gold answer string against
// networkx's values for the fixture graphs.
func TestTasksMatchNetworkx(t *testing.T) {
	checked, failed := 0, 0
	check := func(name, task, got, want string) {
		checked++
		if got != want {
			failed++
			t.Errorf("%s %s: answer %q, networkx gives %q", name, task, got, want)
		}
	}
	yes := func(b bool, y, n string) string {
		if b {
			return y
		}
		return n
	}
	for _, c := range loadNX(t) {
		g := regenerate(t, c)
		none := TaskArgs{Source: -1, Target: -1}
		check(c.Name, "node_count", ask(t, g, TaskNodeCount, none).Gold.Text, fmt.Sprintf(" %d.", c.N))
		check(c.Name, "edge_count", ask(t, g, TaskEdgeCount, none).Gold.Text, fmt.Sprintf(" %d.", c.NumEdges))
		check(c.Name, "triangle_counting", ask(t, g, TaskTriangleCounting, none).Gold.Text, fmt.Sprintf("%d.", c.Triangles))
		check(c.Name, "cycle_check", ask(t, g, TaskCycleCheck, none).Gold.Text, yes(c.HasCycle, "Yes, there is a cycle.", "No, there is no cycle."))
		check(c.Name, "num_components", ask(t, g, TaskNumComponents, none).Gold.Text, fmt.Sprintf(" %d.", c.Components))
		check(c.Name, "connectivity", ask(t, g, TaskConnectivity, none).Gold.Text, yes(c.Connected, "Yes.", "No."))
		check(c.Name, "max_clique_size", ask(t, g, TaskMaxCliqueSize, none).Gold.Text, fmt.Sprintf("%d.", c.MaxClique))
		check(c.Name, "diameter", ask(t, g, TaskDiameter, none).Gold.Text, fmt.Sprintf("%d.", c.Diameter))
		check(c.Name, "betweenness_top1", ask(t, g, TaskBetweennessTop1, none).Gold.Text, fmt.Sprintf("%d.", c.BetweennessTop))
		for k, size := range c.CoreSizes {
			kk, _ := strconv.Atoi(k)
			check(c.Name, "kcore_size k="+k, ask(t, g, TaskKCoreSize, TaskArgs{Source: -1, Target: -1, K: kk}).Gold.Text, fmt.Sprintf("%d.", size))
		}
		for _, p := range c.Pairs {
			a := TaskArgs{Source: p.S, Target: p.T, Capacities: c.Capacities}
			check(c.Name, "edge_existence", ask(t, g, TaskEdgeExistence, a).Gold.Text, yes(p.Edge, "Yes.", "No."))
			check(c.Name, "reachability", ask(t, g, TaskReachability, a).Gold.Text, yes(p.Path, "Yes.", "No."))
			sp := fmt.Sprintf("%d.", p.Dist)
			if !p.Path {
				sp = fmt.Sprintf("There is no path from node %d to node %d.", p.S, p.T)
			}
			check(c.Name, "shortest_path", ask(t, g, TaskShortestPath, a).Gold.Text, sp)
			check(c.Name, "maximum_flow", ask(t, g, TaskMaximumFlow, a).Gold.Text, fmt.Sprintf("%d.", p.Flow))
			for k := 1; k <= 3; k++ {
				a.K = k
				q, err := g.Ask(TaskKthShortestPath, nil, true, a)
				if k > len(p.KLengths) {
					checked++
					if err == nil {
						failed++
						t.Errorf("%s: %d-th shortest path of %d-%d exists here (%s), not in networkx", c.Name, k, p.S, p.T, q.Gold.Text)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				check(c.Name, "kth_shortest_path k="+strconv.Itoa(k), q.Gold.Text, fmt.Sprintf("%d.", p.KLengths[k-1]))
			}
		}
		for v, nd := range c.Nodes {
			a := TaskArgs{Source: v, Target: -1}
			check(c.Name, "node_degree", ask(t, g, TaskNodeDegree, a).Gold.Text, fmt.Sprintf("%d.", nd.Degree))
			var nb []string
			for _, u := range nd.Neighbours {
				nb = append(nb, strconv.Itoa(u))
			}
			cn := " No nodes."
			if len(nb) > 0 {
				cn = strings.Join(nb, ", ") + "."
			}
			check(c.Name, "connected_nodes", ask(t, g, TaskConnectedNodes, a).Gold.Text, cn)
			dn := "No nodes."
			if len(nd.NonNeighbours) > 0 {
				dn = strings.Join(nd.NonNeighbours, ", ") + "."
			}
			check(c.Name, "disconnected_nodes", ask(t, g, TaskDisconnectedNodes, a).Gold.Text, dn)
			check(c.Name, "local_clustering", ask(t, g, TaskLocalClustering, a).Gold.Value, nd.ClusteringStr)
			for k, cnt := range nd.HighDeg {
				a.K, _ = strconv.Atoi(k)
				check(c.Name, "neighbour_degree_ge", ask(t, g, TaskNeighbourDegreeGE, a).Gold.Text, fmt.Sprintf("%d.", cnt))
			}
		}
	}
	msg := fmt.Sprintf("GraphQA gold answers vs networkx 3.6.1: %d checked, %d differ", checked, failed)
	t.Log(msg)
}
