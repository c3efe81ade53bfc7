package graphqa

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/task"
)

// TestStudySpecSizes checks every spec's size on several seeds against
// the size the paper prints (Tables 6–8, the repeated runs), and that every
// rule isolda chose where the paper does not determine the questions is
// written down.
func TestStudySpecSizes(t *testing.T) {
	printed := map[string]int{"graphqa": 165, "graphqa-hardened": 95, "graphqa-hardened-105": 105,
		"graphqa-topology": 72, "graphqa-topology-120": 120}
	for _, s := range StudySpecs() {
		if w, ok := printed[s.Name]; !ok || s.PaperN != w || s.N != w {
			t.Errorf("%s: N %d, paper %d, printed %d", s.Name, s.N, s.PaperN, w)
		}
		for _, seed := range []int64{0, 7, 1234} {
			set, err := Generate(Options{Regime: s.Regime, Graphs: s.Graphs, Limit: s.Limit, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Questions) != s.N {
				t.Errorf("%s seed %d: %d questions, spec says %d", s.Name, seed, len(set.Questions), s.N)
			}
			for _, c := range set.Counts {
				if c.Questions != c.Candidates {
					t.Errorf("%s seed %d: %s skipped %d (%s)", s.Name, seed, c.Family, c.Candidates-c.Questions, c.Skipped)
				}
			}
		}
		if (s.N != s.PaperN) != (s.Deviation != "") {
			t.Errorf("%s: N %d, paper %d, deviation %q", s.Name, s.N, s.PaperN, s.Deviation)
		}
		if s.Regime != RegimeGraphQA && s.Name != "graphqa-hardened-105" && s.Rule == "" {
			t.Errorf("%s: no rule written down", s.Name)
		}
	}
	// Topology: every generator gets every operator; on the star and path
	// graphs (trees) kth_shortest_path asks the 1st, elsewhere the 2nd or
	// 3rd, and the gold is the brute-force length.
	set, err := Generate(Options{Regime: RegimeTopology, Graphs: 18, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	asked := map[string]int{}
	for _, q := range set.Questions {
		if q.Task != TaskKthShortestPath {
			continue
		}
		gen := q.Meta["generator"]
		asked[gen]++
		tree := gen == GenStar || gen == GenPath
		if k := q.Meta["k"]; (tree && k != "1") || (!tree && k != "2" && k != "3") {
			t.Errorf("%s on %s: k = %s", q.ID, gen, k)
		}
		if gen == GenPath { // on a path the only path between s and t has |s-t| edges
			s, _ := strconv.Atoi(q.Meta["source"])
			d, _ := strconv.Atoi(q.Meta["target"])
			if want := fmt.Sprint(max(s-d, d-s)); q.Gold.Value != want {
				t.Errorf("%s: gold %s, want %s", q.ID, q.Gold.Value, want)
			}
		}
		if gen == GenStar {
			want := "2"
			if q.Meta["source"] == "0" || q.Meta["target"] == "0" {
				want = "1"
			}
			if q.Gold.Value != want {
				t.Errorf("%s: gold %s, want %s", q.ID, q.Gold.Value, want)
			}
		}
	}
	for _, g := range []string{GenER, GenBA, GenSBM, GenStar, GenComplete, GenPath} {
		if asked[g] != 3 {
			t.Errorf("kth_shortest_path asked per generator: %v", asked)
		}
	}
	// Hardened: the 95 are the first 95 of the 105 of the same seed.
	h95, _ := LookupStudySpec("graphqa-hardened")
	h105, _ := LookupStudySpec("graphqa-hardened-105")
	a, err := Generate(Options{Regime: RegimeHardened, Graphs: h95.Graphs, Limit: h95.Limit, Seed: 1234})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(Options{Regime: RegimeHardened, Graphs: h105.Graphs, Seed: 1234})
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range a.Questions {
		if r := b.Questions[i]; q.ID != r.ID || q.Text != r.Text || q.Gold.Value != r.Gold.Value {
			t.Fatalf("question %d: %s %q, the 105-set's %s %q", i, q.ID, q.Text, r.ID, r.Text)
		}
	}
	if len(a.Contexts) != 14 || a.Questions[94].Task != TaskLocalClustering || a.Questions[94].ContextID != a.Contexts[13].ID {
		t.Errorf("%d contexts, last question %s", len(a.Contexts), a.Questions[94].ID)
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
