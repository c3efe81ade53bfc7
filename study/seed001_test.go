package study

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/llm/llmtest"
	"github.com/isolda/isolda/task/text2kg"
	"github.com/isolda/isolda/task/text2kg/text2kgtest"
	"github.com/isolda/isolda/task/wikidata"
)

// TestText2KGStudy: the calls of the nine configurations, the H.4 prompt
// byte for byte (text2kg.StudyTemplate), the ontology size table, and a
// scripted endpoint: the gold triples with text2kgbench, the first gold
// triple only with markdown_table, prose with the others.
func TestText2KGStudy(t *testing.T) {
	s, _ := Get("text2kgbench")
	data := text2kgtest.SampleSplit(t)
	_, paper := initStudy(t, s.Name, Options{Data: map[string]string{"text2kgbench": data}})
	n := len(paper.Entries)
	if n != 57 {
		t.Fatalf("%d questions, want the 57 of the sample", n)
	}
	want := map[string]int{}
	for _, m := range s.Models {
		want[m.Name] = n * 12
	}
	checkDryRun(t, s, paper, want)
	dir, p := initStudy(t, s.Name, Options{BaseURL: "http://h/v1", Model: "m", Data: map[string]string{"text2kgbench": data}})
	if !strings.Contains(readFile(t, dir, ReadmeFile), "| 7_company |") {
		t.Error("README lacks the ontology size table")
	}
	type call struct {
		arm  string
		gold [][3]string
	}
	idx := map[string]call{}
	for _, en := range p.Entries {
		var gold [][3]string
		if err := json.Unmarshal([]byte(en.Q.Gold.Text), &gold); err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Contexts {
			if c.Item == en.Item {
				sys, user := text2kg.StudyTemplate(c.Text, en.Q)
				idx[sys+"\x00"+user] = call{c.Arm, gold}
			}
		}
	}
	line := func(tr [3]string) string { return "(" + tr[0] + ", " + tr[1] + ", " + tr[2] + ")" }
	runDir := run(t, p, func(r llmtest.Request) llmtest.Reply {
		c, ok := idx[r.Messages[0].Content+"\x00"+r.Messages[1].Content]
		switch {
		case !ok || len(r.Messages) != 2:
			return llmtest.Reply{Text: "unknown prompt"}
		case c.arm == "text2kgbench":
			var ls []string
			for _, tr := range c.gold {
				ls = append(ls, line(tr))
			}
			return llmtest.Reply{Text: strings.Join(ls, "\n")}
		case c.arm == "markdown_table":
			return llmtest.Reply{Text: "The triples are:\n" + line(c.gold[0])}
		}
		return llmtest.Reply{Text: "I see no triple here."}
	})
	for _, r := range readRecords(t, runDir) {
		if r.Response == "unknown prompt" {
			t.Fatalf("%s: the prompt is not appendix H.4's", r.Key)
		}
	}
	rep, _ := reportOf(t, dir, runDir)
	// By hand: markdown_table's one triple has precision 1 and recall
	// 1/|gold| per sentence, F1 2/(|gold|+1).
	// A sentence with one gold triple is then exact (correct).
	var rec, f1, exact float64
	for _, en := range p.Entries {
		var gold [][3]string
		_ = json.Unmarshal([]byte(en.Q.Gold.Text), &gold)
		k := float64(len(gold))
		rec += 1 / k
		f1 += 2 / (k + 1)
		if k == 1 {
			exact++
		}
	}
	rec /= float64(n)
	f1 /= float64(n)
	for arm, w := range map[string]string{
		"text2kgbench":   "acc=1.0000 F1=1.0000 P=1.0000 R=1.0000 PS=1.0000",
		"markdown_table": fmt.Sprintf("acc=%.4f F1=%.4f P=1.0000 R=%.4f PS=1.0000", exact/float64(n), f1, rec),
		"turtle":         "acc=0.0000 F1=0.0000 P=0.0000 R=0.0000 PS=0.0000",
	} {
		a := overall(t, rep, "m", arm)
		c := a.Credit
		if c == nil {
			t.Fatalf("%s: no partial credit", arm)
		}
		got := fmt.Sprintf("acc=%.4f F1=%.4f P=%.4f R=%.4f PS=%.4f", a.Accuracy, c.F1, c.Precision, c.Recall, c.ParseSuccess)
		if got != w {
			t.Errorf("%s: %s, want %s", arm, got, w)
		}
	}
	// Per domain: 19 families of 3 sentences, each with its F1.
	domains := 0
	for _, a := range rep.Accuracy {
		if a.Model == "m" && a.Arm == "text2kgbench" && a.Family != "*" && a.Task == "*" && a.Graph == "*" {
			domains++
			if a.N != 3 || a.Credit == nil || math.Abs(float64(a.Credit.F1)-1) > 1e-9 {
				t.Errorf("domain %s: %+v", a.Family, a)
			}
		}
	}
	if domains != 19 {
		t.Errorf("%d per-domain rows, want 19", domains)
	}
}

// TestWikidataStudy: the subgraph of task/wikidata's test entities (seed
// Q1), its questions in the 15 formats with the H.4 template, and a
// scripted endpoint answering gold with adjacency.
func TestWikidataStudy(t *testing.T) {
	s, _ := Get("wikidata-subgraphs")
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	if err := os.WriteFile(seeds, []byte("# the test entities' film\nQ1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := filepath.Abs(filepath.Join("..", "task", "wikidata", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Data: map[string]string{"wikidata": data, "seeds": seeds}}
	_, paper := initStudy(t, s.Name, opts)
	n := len(paper.Entries)
	if n == 0 {
		t.Fatal("no questions")
	}
	checkDryRun(t, s, paper, map[string]int{"gpt-5.4": 15 * n, "gpt-5.4-mini": 15 * n})
	for _, c := range paper.Contexts {
		if c.Arm == "edge_list" && c.RoundTrip != eval.RoundTripIsomorphic {
			t.Errorf("edge_list: %s %s", c.RoundTrip, c.RoundTripDetail)
		}
	}
	o := opts
	o.BaseURL, o.Model = "http://h/v1", "m"
	dir, p := initStudy(t, s.Name, o)
	idx := map[string]call{}
	for _, en := range p.Entries {
		for _, c := range p.Contexts {
			sys, user := wikidata.StudyTemplate(c.Text, en.Q)
			idx[sys+"\x00"+user] = call{c.Arm, en.Q}
		}
	}
	var mu sync.Mutex
	runDir := run(t, p, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		c, ok := idx[r.Messages[0].Content+"\x00"+r.Messages[1].Content]
		switch {
		case !ok:
			return llmtest.Reply{Text: "unknown prompt"}
		case c.arm == "adjacency":
			return llmtest.Reply{Text: "Counting.\nFINAL: " + c.q.Gold.Value}
		}
		return llmtest.Reply{Text: "FINAL: -1"}
	})
	for _, r := range readRecords(t, runDir) {
		if r.Response == "unknown prompt" {
			t.Fatalf("%s: the prompt is not the study's", r.Key)
		}
	}
	rep, _ := reportOf(t, dir, runDir)
	if a := overall(t, rep, "m", "adjacency"); a.Correct != n {
		t.Errorf("adjacency: %d/%d", a.Correct, a.N)
	}
	if a := overall(t, rep, "m", "jsonld"); a.Correct != 0 {
		t.Errorf("jsonld: %d/%d", a.Correct, a.N)
	}
}
