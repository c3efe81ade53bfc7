package graphqa

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/task"
)

// TestStudySpecSizes checks every spec's size on several seeds, and that
// each deviation from the paper's size is explained.
func TestStudySpecSizes(t *testing.T) {
	for _, s := range StudySpecs() {
		for _, seed := range []int64{0, 7, 1234} {
			set, err := Generate(Options{Regime: s.Regime, Graphs: s.Graphs, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Questions) != s.N {
				t.Errorf("%s seed %d: %d questions, spec says %d", s.Name, seed, len(set.Questions), s.N)
			}
		}
		if (s.N != s.PaperN) != (s.Deviation != "") {
			t.Errorf("%s: N %d, paper %d, deviation %q", s.Name, s.N, s.PaperN, s.Deviation)
		}
	}
	// Topology: the missing questions are exactly kth_shortest_path on
	// the star and path graphs.
	set, err := Generate(Options{Regime: RegimeTopology, Graphs: 18, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	asked := map[string]int{}
	for _, q := range set.Questions {
		if q.Task == TaskKthShortestPath {
			asked[q.Meta["generator"]]++
		}
	}
	if asked[GenStar] != 0 || asked[GenPath] != 0 || asked[GenER] != 3 || asked[GenBA] != 3 || asked[GenSBM] != 3 || asked[GenComplete] != 3 {
		t.Errorf("kth_shortest_path asked per generator: %v", asked)
	}
}

// TestStudySets renders one set in every study format and checks that
// the questions agree across formats, the lossless renderings decode to
// the same graph, and the H.4 prompt of the paper's example.
func TestStudySets(t *testing.T) {
	spec, ok := LookupStudySpec("graphqa")
	if !ok {
		t.Fatal("no graphqa spec")
	}
	spec.Graphs = 2
	sets, err := StudySets(spec, 11, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 15 {
		t.Fatalf("%d sets, want 15", len(sets))
	}
	decoded := 0
	for i, set := range sets {
		f := graphtext.StudyNames()[i]
		if set.Name != "graphqa-"+f || len(set.Questions) != 22 || len(set.Contexts) != 2 {
			t.Fatalf("%s: %d questions, %d contexts", set.Name, len(set.Questions), len(set.Contexts))
		}
		for j, q := range set.Questions {
			q0 := sets[0].Questions[j]
			if q.ID != q0.ID || q.Text != q0.Text || q.Gold.Text != q0.Gold.Text || q.Meta["format"] != f {
				t.Fatalf("%s: question %d differs from the first format's", set.Name, j)
			}
		}
		info, _ := graphtext.Lookup(f)
		if !info.Lossless {
			continue
		}
		for j, c := range set.Contexts {
			g, err := graphtext.Decode(strings.NewReader(c.Text), f)
			if err != nil {
				t.Fatalf("%s context %d: %v", f, j, err)
			}
			ref, err := graphtext.Decode(strings.NewReader(sets[indexOf(graphtext.StudyNames(), "edge_list")].Contexts[j].Text), "edge_list")
			if err != nil {
				t.Fatal(err)
			}
			if !graphtext.Equal(g, ref) {
				t.Errorf("%s context %d decodes to another graph than edge_list's", f, j)
			}
			decoded++
		}
	}
	lossless := 0
	for _, f := range graphtext.StudyNames() {
		if info, _ := graphtext.Lookup(f); info.Lossless {
			lossless++
		}
	}
	if lossless == 0 || decoded != 2*lossless {
		t.Errorf("%d contexts of %d lossless formats decoded", decoded, lossless)
	}
	var q task.Question
	for _, x := range sets[0].Questions {
		if x.Task == TaskNodeCount {
			q = x
		}
	}
	sys, user := StudyTemplate("<rendered graph>\n", q)
	if sys != FinalSystemPrompt || user != "You are given an undirected graph below. Answer the question in one integer. Show your reasoning, then write 'FINAL: <int>'.\n\n<rendered graph>\n\nQuestion: How many nodes does the graph have?" {
		t.Errorf("H.4 prompt:\n%s\n%s", sys, user)
	}
	if _, err := StudySets(spec, 1, []string{"nope"}); err == nil {
		t.Error("unknown format accepted")
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
