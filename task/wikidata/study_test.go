package wikidata

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

func testStore(t *testing.T) *Store {
	t.Helper()
	s := NewStore("")
	for _, f := range []string{"testdata/items.json", "testdata/properties-dump.json"} {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(r, f); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	return s
}

// TestExtract checks the two-hop neighbourhood of the fixture's film Q1,
// listed by hand: Q1's five statements (P31, P57, P161 ×3, in property
// order), then Q2's four, Q3's two and Q4's one; Q5 is not in the files,
// Q6 is three hops away.
func TestExtract(t *testing.T) {
	s := testStore(t)
	if s.Len() != 14 || s.Label("P161") != "cast member" || s.Label("Q999") != "Q999" {
		t.Fatalf("%d entities", s.Len())
	}
	sg, err := s.Extract("Q1", 2, 450)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range sg.Triples {
		got = append(got, tr.S+" "+tr.P+" "+tr.O)
	}
	want := "Q1 P31 Q100,Q1 P57 Q2,Q1 P161 Q3,Q1 P161 Q4,Q1 P161 Q5,Q2 P31 Q500,Q2 P106 Q101,Q2 P166 Q6,Q2 P166 Q7,Q3 P31 Q500,Q3 P106 Q102,Q4 P31 Q500"
	if strings.Join(got, ",") != want || sg.Truncated {
		t.Errorf("triples\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	sg, _ = s.Extract("Q1", 2, 6)
	if len(sg.Triples) != 6 || !sg.Truncated {
		t.Errorf("capped at 6: %d triples, truncated %v", len(sg.Triples), sg.Truncated)
	}
	if _, err := s.Extract("Q42", 2, 450); err == nil {
		t.Error("missing seed accepted")
	}
}

// TestStudy checks pseudonymization and the gold answers derived by hand
// (see TestExtract for the triples).
func TestStudy(t *testing.T) {
	s := testStore(t)
	st, err := NewStudy(s, []string{"Q1"}, Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	n := st.Subgraphs[0]
	for _, c := range []string{"Q100", "Q500", "Q101", "Q102"} {
		if !n.Classes[c] || n.Names[c] != s.Label(c) {
			t.Errorf("class %s named %q", c, n.Names[c])
		}
	}
	seen := map[string]bool{}
	for _, e := range []string{"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"} {
		name := n.Names[e]
		if name == "" || name == s.Label(e) || seen[name] || strings.ContainsAny(name, " 0123456789") {
			t.Errorf("entity %s pseudonym %q", e, name)
		}
		seen[name] = true
	}
	want := map[string]string{
		"How many distinct cast member values does the film " + n.Names["Q1"] + " have?":             "3",
		"How many distinct award received values does the film director " + n.Names["Q2"] + " have?": "2",
		"How many entities of type human have at least one award received value?":                    "1",
		"How many distinct entities can be reached from the film " + n.Names["Q1"] + "?":             "10",
		"How many distinct entities can be reached from the film director " + n.Names["Q2"] + "?":    "4",
		"How many distinct entities can be reached from the actor " + n.Names["Q3"] + "?":            "2",
		"How many distinct entities can be reached from the human " + n.Names["Q4"] + "?":            "1",
	}
	if len(st.Questions) != 6 {
		t.Errorf("%d questions, want 2 + 1 + 3", len(st.Questions))
	}
	for _, q := range st.Questions {
		w, ok := want[q.Text]
		if !ok || q.Gold.Value != w || q.Gold.Kind != task.KindInt {
			t.Errorf("%s: %q -> %s (want %q)", q.ID, q.Text, q.Gold.Value, w)
		}
	}
	var counts []string
	for _, c := range st.Counts {
		counts = append(counts, c.Family+":"+strings.Repeat("x", c.Questions)+"/"+strings.Repeat("x", c.Candidates))
	}
	if strings.Join(counts, " ") != "relation_aggregation:xx/xx typed_aggregation:x/x reachability:xxx/xxxx" {
		t.Errorf("counts %v", counts)
	}
	// Every study format renders the subgraph; the question is answered
	// with the H.4 template and graphqa.ScoreFinal.
	for _, f := range graphtext.StudyNames() {
		set, err := st.Set(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Contexts) != 1 || len(set.Questions) != 6 || set.Contexts[0].Text == "" {
			t.Fatalf("%s: %d contexts", f, len(set.Contexts))
		}
		if info, _ := graphtext.Lookup(f); info.Lossless {
			g, err := graphtext.Decode(strings.NewReader(set.Contexts[0].Text), f)
			if err != nil || len(g.Edges) != 12 {
				t.Errorf("%s: decodes to %v edges, %v", f, len(g.Edges), err)
			}
		}
	}
	q := st.Questions[0]
	sys, user := StudyTemplate("<graph>\n", q)
	if sys != graphqa.FinalSystemPrompt || user != Instruction+"\n\n<graph>\n\nQuestion: "+q.Text {
		t.Errorf("prompt %q", user)
	}
	if r := graphqa.ScoreFinal.Score(q, "Counting...\nFINAL: "+q.Gold.Value); !r.Correct {
		t.Errorf("gold answer scored %+v", r)
	}
	// Determinism: the same seed gives the same pseudonyms and questions.
	st2, _ := NewStudy(s, []string{"Q1"}, Options{Seed: 5})
	var a, b []string
	for i := range st.Questions {
		a = append(a, st.Questions[i].Text)
		b = append(b, st2.Questions[i].Text)
	}
	sort.Strings(a)
	sort.Strings(b)
	if strings.Join(a, "|") != strings.Join(b, "|") {
		t.Error("not deterministic")
	}
}

func TestLoadErrors(t *testing.T) {
	s := NewStore("en")
	for _, c := range []struct{ in, msg string }{
		{"[\n{\"id\": \"Q1\"},\n{oops},\n]\n", "f:3:"},
		{"{\"id\": \"X1\"}\n", `f:1: entity id "X1"`},
	} {
		if err := s.Load(strings.NewReader(c.in), "f"); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want %q", c.in, err, c.msg)
		}
	}
	ca := NewStore("ca")
	r, _ := os.Open("testdata/items.json")
	defer r.Close()
	if err := ca.Load(r, "items.json"); err != nil || ca.Label("Q1") != "Ada Film (ca)" {
		t.Errorf("Catalan labels: %v %q", err, ca.Label("Q1"))
	}
}
