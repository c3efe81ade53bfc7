package study

import (
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

// finalGold writes a gold answer as a FINAL: line.
func finalGold(q task.Question) string {
	switch q.Gold.Kind {
	case task.KindList:
		if len(q.Gold.Items) == 0 {
			return "none"
		}
		return strings.Join(q.Gold.Items, ", ")
	case task.KindNoPath:
		return "no path"
	}
	return q.Gold.Value
}

// promptIndex maps the expected messages of every call (system + "\x00" +
// user, as task.FinalPrompt builds them from the context) to the call.
type call struct {
	arm string
	q   task.Question
}

func graphqaPrompts(p *eval.Plan) map[string]call {
	idx := map[string]call{}
	for _, en := range p.Entries {
		for _, c := range p.Contexts {
			if c.Graph != en.Graph || c.Item != en.Item {
				continue
			}
			sys, user := graphqa.StudyTemplate(c.Text, en.Q)
			idx[sys+"\x00"+user] = call{c.Arm, en.Q}
		}
	}
	return idx
}

// testGraphQAStudy: the calls per paper model, the H.4 prompts byte for
// byte, and a scripted endpoint answering gold with adjacency and
// edge_list, gold for node_count only with turtle (or the first task), and
// nonsense otherwise.
func testGraphQAStudy(t *testing.T, name string) {
	s, _ := Get(name)
	_, paper := initStudy(t, name, Options{})
	want := map[string]int{}
	for _, m := range s.Models {
		want[m.Name] = s.Calls(m)
	}
	checkDryRun(t, s, paper, want)
	if paper.Manifest.Calls != s.Questions()*15*len(s.Models)*max(1, s.Trials) {
		t.Errorf("%d calls, declared %d questions", paper.Manifest.Calls, s.Questions())
	}
	for _, c := range paper.Contexts {
		if c.Arm == "edge_list" && c.RoundTrip != eval.RoundTripIsomorphic {
			t.Errorf("edge_list context %s: %s %s", c.Item, c.RoundTrip, c.RoundTripDetail)
		}
	}
	dir, p := initStudy(t, name, Options{BaseURL: "http://h/v1", Model: "m", Tokenizer: "o200k_base"})
	idx := graphqaPrompts(p)
	firstTask := p.Entries[0].Q.Task
	h := func(r llmtest.Request) llmtest.Reply {
		if len(r.Messages) != 2 {
			return llmtest.Reply{Text: "bad messages"}
		}
		c, ok := idx[r.Messages[0].Content+"\x00"+r.Messages[1].Content]
		switch {
		case !ok:
			return llmtest.Reply{Text: "unknown prompt"}
		case c.arm == "adjacency" || c.arm == "edge_list" || (c.arm == "turtle" && c.q.Task == firstTask):
			return llmtest.Reply{Text: "Let me count.\nFINAL: " + finalGold(c.q)}
		}
		return llmtest.Reply{Text: "FINAL: 987654"}
	}
	runDir := run(t, p, h)
	for _, r := range readRecords(t, runDir) {
		if r.Response == "unknown prompt" || r.Response == "bad messages" {
			t.Fatalf("%s: the prompt of %s is not appendix H.4's", name, r.Key)
		}
	}
	rep, res := reportOf(t, dir, runDir)
	if res != nil {
		t.Errorf("no criteria expected")
	}
	n := len(p.Entries)
	perTask := 0
	for _, en := range p.Entries {
		if en.Q.Task == firstTask {
			perTask++
		}
	}
	trials := max(1, s.Trials)
	for arm, w := range map[string]int{"adjacency": n, "edge_list": n, "turtle": perTask, "dot": 0} {
		a := overall(t, rep, "m", arm)
		if a.Correct != w*trials || a.N != n*trials {
			t.Errorf("%s %s: %d/%d, want %d/%d", name, arm, a.Correct, a.N, w*trials, n*trials)
		}
	}
	// Per-task rows: turtle is right on every question of the first task.
	found := false
	for _, a := range rep.Accuracy {
		if a.Model == "m" && a.Arm == "turtle" && a.Task == firstTask && a.Graph == "*" {
			found = true
			if a.Correct != a.N || a.N != perTask*trials {
				t.Errorf("turtle on %s: %d/%d", firstTask, a.Correct, a.N)
			}
		}
	}
	if !found {
		t.Errorf("no per-task row for %s", firstTask)
	}
	t.Logf("%s: %d questions, %s", name, n, fmt.Sprint(s.Calls(PaperModel{})))
}

func TestGraphQAStudy(t *testing.T)          { testGraphQAStudy(t, "graphqa") }
func TestGraphQAHardenedStudy(t *testing.T)  { testGraphQAStudy(t, "graphqa-hardened") }
func TestGraphQATopologyStudy(t *testing.T)  { testGraphQAStudy(t, "graphqa-topology") }
func TestGraphQAStabilityStudy(t *testing.T) { testGraphQAStudy(t, "graphqa-stability") }
