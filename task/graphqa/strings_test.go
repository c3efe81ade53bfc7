package graphqa

import (
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// cycle4 is benchmarks.md §2.2's 4-cycle 0-1, 1-2, 2-3, 3-0.
func cycle4() *GenGraph {
	g := newGenGraph("test", 4)
	g.addEdge(0, 1)
	g.addEdge(1, 2)
	g.addEdge(2, 3)
	g.addEdge(3, 0)
	return g
}

// TestAdjacencyText is the exact adjacency text quoted in benchmarks.md §2.2.
func TestAdjacencyText(t *testing.T) {
	got, err := TLAGAdjacency(cycle4().Labelled(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. G describes a graph among nodes 0, 1, 2, and 3.\nThe edges in G are: (0, 1) (0, 3) (1, 2) (2, 3).\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestTaskStrings checks question and answer strings against the table of
// benchmarks.md §2.3, written out here by hand.
func TestTaskStrings(t *testing.T) {
	g := cycle4()
	iso := newGenGraph("test", 12) // nodes 0..11, edges 0-1 and 0-10 only
	iso.addEdge(0, 10)
	iso.addEdge(0, 1)
	names := []string{"James", "Robert", "John", "Michael"}
	cases := []struct {
		g        *GenGraph
		names    []string
		task     string
		a        TaskArgs
		question string
		answer   string
	}{
		{g, nil, TaskEdgeExistence, TaskArgs{Source: 1, Target: 0}, "Q: Is node 1 connected to node 0?\nA: ", "Yes."},
		{g, nil, TaskEdgeExistence, TaskArgs{Source: 0, Target: 2}, "Q: Is node 0 connected to node 2?\nA: ", "No."},
		{g, nil, TaskNodeDegree, TaskArgs{Source: 2}, "Q: What is the degree of node 2?\nA: ", "2."},
		{g, nil, TaskNodeCount, TaskArgs{}, "Q: How many nodes are in this graph?\nA: ", " 4."},
		{g, nil, TaskEdgeCount, TaskArgs{}, "Q: How many edges are in this graph?\nA: ", " 4."},
		{g, nil, TaskConnectedNodes, TaskArgs{Source: 3}, "Q: List all the nodes connected to 3 in alphabetical order.\nA: ", "2, 0."},
		{g, names, TaskConnectedNodes, TaskArgs{Source: 3}, "Q: List all the nodes connected to Michael in alphabetical order.\nA: ", "James, John."},
		{iso, nil, TaskConnectedNodes, TaskArgs{Source: 5}, "Q: List all the nodes connected to 5 in alphabetical order.\nA: ", " No nodes."},
		{iso, nil, TaskConnectedNodes, TaskArgs{Source: 0}, "Q: List all the nodes connected to 0 in alphabetical order.\nA: ", "10, 1."},
		{g, nil, TaskDisconnectedNodes, TaskArgs{Source: 0}, "Q: List all the nodes that are not connected to 0 in alphabetical order.\nA: ", "2."},
		{iso, nil, TaskDisconnectedNodes, TaskArgs{Source: 0}, "Q: List all the nodes that are not connected to 0 in alphabetical order.\nA: ", "11, 2, 3, 4, 5, 6, 7, 8, 9."},
		{g, nil, TaskCycleCheck, TaskArgs{}, "Q: Is there a cycle in this graph?\nA: ", "Yes, there is a cycle."},
		{iso, nil, TaskCycleCheck, TaskArgs{}, "Q: Is there a cycle in this graph?\nA: ", "No, there is no cycle."},
		{iso, nil, TaskReachability, TaskArgs{Source: 1, Target: 10}, "Q: Is there a path from node 1 to node 10?\nA: ", "Yes."},
		{iso, nil, TaskReachability, TaskArgs{Source: 1, Target: 3}, "Q: Is there a path from node 1 to node 3?\nA: ", "No."},
		{iso, nil, TaskShortestPath, TaskArgs{Source: 1, Target: 10}, "Q: What is the length of the shortest path from node 1 to node 10?\nA: ", "2."},
		{iso, nil, TaskShortestPath, TaskArgs{Source: 1, Target: 3}, "Q: What is the length of the shortest path from node 1 to node 3?\nA: ", "There is no path from node 1 to node 3."},
		{g, nil, TaskTriangleCounting, TaskArgs{}, "Q: How many triangles are in this graph?\nA: ", "0."},
		{g, nil, TaskMaximumFlow, TaskArgs{Source: 0, Target: 2, Capacities: []int64{3, 4, 5, 6}}, "Q: What is the maximum capacity of the flow from node 0 to node 2?\nA: ", "7."},
	}
	for _, c := range cases {
		c.a.Target = max(c.a.Target, 0)
		if c.task != TaskEdgeExistence && c.task != TaskReachability && c.task != TaskShortestPath && c.task != TaskMaximumFlow {
			c.a.Target = -1
		}
		q, err := c.g.Ask(c.task, c.names, c.names == nil, c.a)
		if err != nil {
			t.Errorf("%s: %v", c.task, err)
			continue
		}
		if q.Text != c.question || q.Gold.Text != c.answer {
			t.Errorf("%s: got %q -> %q\nwant %q -> %q", c.task, q.Text, q.Gold.Text, c.question, c.answer)
		}
	}
}

// TestYesNoAccuracy checks graph_metrics.yes_no_accuracy's quirks
// (benchmarks.md §2.4).
func TestYesNoAccuracy(t *testing.T) {
	yes := task.Question{Gold: task.Answer{Text: "Yes.", Kind: task.KindYesNo, Value: "yes"}}
	no := task.Question{Gold: task.Answer{Text: "No, there is no cycle.", Kind: task.KindYesNo, Value: "no"}}
	cases := []struct {
		q       task.Question
		resp    string
		correct bool
		parsed  string
	}{
		{yes, "Yes.", true, "yes"},
		{yes, "YES, they are.", true, "yes"},
		{yes, "yes, node 2 is connected", false, ParsedAmbiguous}, // "node" contains "no"
		{yes, "Maybe", false, ParsedIndeterminate},
		{yes, "I think\nyes", false, ParsedIndeterminate}, // only the first line counts
		{no, "No.", true, "no"},
		{no, "Not at all", true, "no"},
		{no, "Yes", false, "yes"},
		{task.Question{Gold: task.Answer{Text: "3."}}, "yes", false, ParsedBadTarget},
	}
	for _, c := range cases {
		r := YesNoAccuracy.Score(c.q, c.resp)
		if r.Correct != c.correct || r.Parsed != c.parsed || r.Rule != RuleYesNoAccuracy {
			t.Errorf("%q vs %q: %+v", c.resp, c.q.Gold.Text, r)
		}
	}
	// KDD tutorial: 'yes' in response[:10].lower().
	if r := KDDYesNo.Score(yes, "Well, ... yes"); r.Correct {
		t.Errorf("yes after 10 characters counted: %+v", r)
	}
	if r := KDDYesNo.Score(yes, "ééé Yes"); !r.Correct {
		t.Errorf("10 characters, not bytes: %+v", r)
	}
	if r := KDDYesNo.Score(no, "Nope"); !r.Correct {
		t.Errorf("no answer: %+v", r)
	}
}

func TestScoreGraphQAAndFinal(t *testing.T) {
	g := cycle4()
	mk := func(taskName string, a TaskArgs) task.Question {
		tq, err := g.Ask(taskName, nil, true, a)
		if err != nil {
			t.Fatal(err)
		}
		return task.Question{Task: taskName, Text: tq.Text, Gold: tq.Gold, Meta: map[string]string{"study_question": tq.StudyText}}
	}
	count := mk(TaskNodeCount, TaskArgs{Source: -1, Target: -1})
	list := mk(TaskConnectedNodes, TaskArgs{Source: 3, Target: -1})
	clus := mk(TaskLocalClustering, TaskArgs{Source: 0, Target: -1})
	cases := []struct {
		s       task.Scorer
		q       task.Question
		resp    string
		correct bool
		rule    string
	}{
		{Score, count, "There are 4 nodes.", true, task.RuleFirstInteger},
		{Score, count, "There are 5 nodes.", false, task.RuleFirstInteger},
		{Score, list, "0, 2", true, RuleListSetEqual},
		{Score, list, "Nodes 2 and 0.", false, RuleListSetEqual},
		{Score, list, "2 and 0.", true, RuleListSetEqual},
		{Score, list, "2, 0, 1", false, RuleListSetEqual},
		{Score, clus, "0.00", true, RuleTwoDecimals},
		{ScoreFinal, count, "The graph lists 0..3.\nFINAL: 4", true, "final/" + task.RuleFirstInteger},
		{ScoreFinal, count, "**FINAL:** 4", true, "final/" + task.RuleFirstInteger},
		{ScoreFinal, count, "FINAL: 3\nwait\nFINAL: 4", true, "final/" + task.RuleFirstInteger},
		{ScoreFinal, count, "4", false, RuleFinalMissing},
		{ScoreFinal, list, "FINAL: 2, 0", true, "final/" + RuleListSetEqual},
	}
	for _, c := range cases {
		r := c.s.Score(c.q, c.resp)
		if r.Correct != c.correct || r.Rule != c.rule {
			t.Errorf("%s %q: %+v, want correct=%v rule=%s", c.q.Task, c.resp, r, c.correct, c.rule)
		}
	}
	sys, user := FinalPrompt(count, "G")
	if sys != FinalSystemPrompt || user != "You are given an undirected graph below. Answer the question in one integer. Show your reasoning, then write 'FINAL: <int>'.\n\nG\n\nQuestion: How many nodes does the graph have?" {
		t.Errorf("final prompt %q", user)
	}
}

func TestPromptVariants(t *testing.T) {
	p := "G\nQ: Is node 0 connected to node 1?\nA: "
	if s, _ := Prompt(VariantZeroShot, p, nil, nil); s != p {
		t.Error(s)
	}
	if s, _ := Prompt(VariantZeroCoT, p, nil, nil); s != p+"Let's think step by step. " {
		t.Error(s)
	}
	ex := []Example{{Prompt: "E\nQ: x?\nA: ", Answer: "Yes.", Explanation: " Because."}}
	s, err := Prompt(VariantFewShot, p, ex, py.NewRand(1))
	want := "Example: E\nQ: x?\nA: Yes.\nExample: E\nQ: x?\nA: Yes.\nExample: " + p
	if err != nil || s != want {
		t.Errorf("few_shot %q", s)
	}
	s, _ = Prompt(VariantCoT, p, ex, py.NewRand(1))
	if s != strings.ReplaceAll(want, "Yes.", "Yes. Because.") {
		t.Errorf("cot %q", s)
	}
	s, _ = Prompt(VariantCoTBag, p, ex, py.NewRand(1))
	if strings.Count(s, "\nLet's construct the graph with the nodes and edges first.\nQ: ") != 3 {
		t.Errorf("cot_bag %q", s)
	}
	exs, err := MakeExamples(TaskEdgeExistence, 5, nil)
	if err != nil || len(exs) != 5 {
		t.Fatalf("examples: %d %v", len(exs), err)
	}
	for _, e := range exs {
		if !strings.HasPrefix(e.Explanation, " Because, there is") || !strings.HasSuffix(e.Prompt, "\nA: ") {
			t.Errorf("example %+v", e)
		}
	}
}

// TestRegimes generates each regime and checks sizes, densities and counts.
func TestRegimes(t *testing.T) {
	for _, r := range []string{RegimeTLAG, RegimeGraphQA, RegimeHardened, RegimeTopology} {
		set, err := Generate(Options{Regime: r, Graphs: 12, Seed: 1234})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, c := range set.Counts {
			parts = append(parts, fmt.Sprintf("%s %d/%d", c.Family, c.Questions, c.Candidates))
		}
		msg := fmt.Sprintf("regime %s: %d graphs, %d questions (%s)", r, len(set.Contexts), len(set.Questions), strings.Join(parts, ", "))
		t.Log(msg)
		for _, q := range set.Questions {
			if r := Score.Score(q, q.Gold.Text); !r.Correct {
				t.Errorf("%s: gold %q scores 0 (%+v)", q.ID, q.Gold.Text, r)
			}
			if r := ScoreFinal.Score(q, "FINAL: "+q.Gold.Value); !r.Correct && q.Gold.Kind != task.KindNoPath {
				t.Errorf("%s: FINAL gold %q scores 0 (%+v)", q.ID, q.Gold.Value, r)
			}
		}
	}
	// Topology: n = 50, the six generators, edge counts as Table 5's range.
	set, err := Generate(Options{Regime: RegimeTopology, Graphs: 6, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"er n=50": true, "ba n=50": true, "sbm n=50": true, "star n=50": true, "complete n=50": true, "path n=50": true}
	for _, c := range set.Contexts {
		key := strings.Join(strings.Fields(c.Source)[:2], " ")
		if !want[key] {
			t.Errorf("unexpected topology graph %q", c.Source)
		}
		delete(want, key)
		if strings.HasPrefix(c.Source, "complete") && !strings.Contains(c.Text, "(48, 49).") {
			t.Error("complete graph text")
		}
	}
	if len(want) != 0 {
		t.Errorf("missing generators %v", want)
	}
	if p := CalibratedP(50); p < 0.0849 || p > 0.085 {
		t.Errorf("calibrated p(50) = %v", p)
	}
}

func TestNodeClassification(t *testing.T) {
	for seed := int64(0); seed < 30; seed++ {
		g, q, err := NodeClassification(py.NewRand(seed), py.NewRand(seed+1000), nil)
		if err != nil {
			t.Fatal(err)
		}
		half := g.N / 2
		lines := strings.Split(q.Text, "\n")
		if len(lines) != half+2 || !strings.HasPrefix(lines[half], "Q: Does node ") || lines[half+1] != "A: " {
			t.Fatalf("seed %d: %q", seed, q.Text)
		}
		var asked int
		var c1, c2 string
		if _, err := fmt.Sscanf(strings.TrimSuffix(lines[half], "?"), "Q: Does node %d like %s or %s", &asked, &c1, &c2); err != nil {
			t.Fatal(err)
		}
		want := c1
		if asked >= half {
			want = c2
		}
		if q.Gold.Text != want {
			t.Errorf("seed %d: node %d of %d answered %q, want %q", seed, asked, g.N, q.Gold.Text, want)
		}
		for _, l := range lines[:half] {
			var v int
			var c string
			fmt.Sscanf(strings.TrimSuffix(l, "."), "Node %d likes %s", &v, &c)
			if (v < half && c != c1) || (v >= half && c != c2) || v == asked {
				t.Errorf("seed %d: line %q", seed, l)
			}
		}
	}
}

func TestWriteCounts(t *testing.T) {
	s := &task.Set{Counts: []task.FamilyCount{{Family: "lookup", Questions: 2, Candidates: 5}, {Family: "two_hop", Skipped: "no candidates in this graph"}}}
	var b strings.Builder
	if err := s.WriteCounts(&b); err != nil {
		t.Fatal(err)
	}
	want := "lookup: 2 questions (5 candidates)\ntwo_hop: 0 questions (0 candidates): no candidates in this graph\ntotal: 2 questions\n"
	if b.String() != want {
		t.Errorf("%q", b.String())
	}
}
