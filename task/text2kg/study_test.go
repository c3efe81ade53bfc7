package text2kg

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/text2kg/text2kgtest"
)

func TestLoadSplitSample(t *testing.T) {
	sp, err := LoadSplit(text2kgtest.SampleSplit(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Sentences) != 57 || len(sp.Domains) != 19 || sp.Domains[0] != "1_university" || sp.Domains[18] != "19_film" {
		t.Fatalf("%d sentences, domains %v", len(sp.Sentences), sp.Domains)
	}
	per := map[string]int{}
	for i, s := range sp.Sentences {
		per[s.Domain]++
		if i == 0 && (s.ID != "ont_1_university_test_1" || !strings.HasPrefix(s.Text, "The AWH Engineering College is located in Kuttikkattoor") || len(s.Gold) == 0) {
			t.Errorf("first sentence %+v", s)
		}
	}
	for _, d := range sp.Domains {
		if per[d] != 3 {
			t.Errorf("%s: %d sentences", d, per[d])
		}
	}
	set, err := sp.Set("text2kgbench")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) != 57 || len(set.Contexts) != 19 || len(set.Counts) != 19 || set.Questions[0].Family != "1_university" || set.Questions[0].ContextID != "text2kg-1_university-text2kgbench" {
		t.Fatalf("set: %d questions, %d contexts, %+v", len(set.Questions), len(set.Contexts), set.Questions[0])
	}
	if !strings.HasPrefix(set.Contexts[0].Text, "Ontology Concepts: ") {
		t.Errorf("text2kgbench rendering: %.80q", set.Contexts[0].Text)
	}
	// Every gold answer, written one triple per line, scores 1.
	for _, q := range set.Questions {
		r := StudyScorer.Score(q, "Reasoning...\nFINAL:\n"+strings.Join(q.Gold.Items, "\n"))
		if !r.Correct || r.Score != 1 || r.Partial == nil || !r.Partial.ParseOK || r.Partial.F1 != 1 {
			t.Errorf("%s: gold answer scored %+v %+v", q.ID, r, r.Partial)
		}
	}
	// Errors name file and line.
	dir := text2kgtest.SampleSplit(t)
	if err := os.WriteFile(filepath.Join(dir, "test", "bad.jsonl"), []byte("{\"id\": \"ont_1_university_test_999\", \"sent\": \"x\"}\n{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSplit(dir); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: no ground truth for ont_1_university_test_999") {
		t.Errorf("error %v", err)
	}
}

// TestStudyScorer checks the rescoring on an example scored by hand:
// gold (AWH_Engineering_College, academicStaffSize, 250) and
// (AWH_Engineering_College, state, Kerala); the answer's country triple
// has no gold relation and is dropped; its academicStaffSize triple has
// subject similarity 0.930 (bigram Dice of "theawhengineeringcollege" and
// "awhengineeringcollege", computed with Python) and object 1, mean 0.965
// ≥ 0.60: 1 matched of 1 kept and 2 gold, P 1, R 1/2, F1 2/3.
func TestStudyScorer(t *testing.T) {
	gold, _ := json.Marshal([][3]string{{"AWH_Engineering_College", "academicStaffSize", "250"}, {"AWH_Engineering_College", "state", "Kerala"}})
	q := task.Question{Gold: task.Answer{Text: string(gold), Kind: KindTriples}}
	r := StudyScorer.Score(q, "1. (The AWH Engineering College, academicStaffSize, 250)\n2. (AWH Engineering College, country, India)")
	p := r.Partial
	if r.Correct || math.Abs(r.Score-2.0/3) > 1e-12 || p.Precision != 1 || p.Recall != 0.5 || !p.ParseOK || p.Fields["triples"].Matched != 1 || p.Fields["triples"].Predicted != 1 {
		t.Errorf("%+v %+v", r, p)
	}
	// Object "Kerala, India" against "Kerala": Dice 0.625, subject 1:
	// mean 0.8125, matched; the country triple is still dropped.
	r = StudyScorer.Score(q, "(AWH_Engineering_College, academicStaffSize, 250)\n(AWH_Engineering_College, state, Kerala, India)")
	if !r.Correct || r.Score != 1 {
		t.Errorf("%+v %+v", r, r.Partial)
	}
	r = StudyScorer.Score(q, "I cannot find any triple.")
	if r.Correct || r.Score != 0 || r.Partial.ParseOK {
		t.Errorf("no triples: %+v %+v", r, r.Partial)
	}
}

func TestParseTripleLines(t *testing.T) {
	got := ParseTripleLines("Let me think: (a, b, c) is wrong.\nFINAL:\n- (Alan Bean, birthPlace, Wheeler, Texas)\n* (\"Apollo 12\", crewMembers, Alan Bean)\n(Wheeler, Texas, country, United States)\n(x, y)\n(, rel, z)", []string{"birthPlace", "country", "crewMembers"})
	want := []Triple{{"Alan Bean", "birthPlace", "Wheeler, Texas"}, {"Apollo 12", "crewMembers", "Alan Bean"}, {"Wheeler, Texas", "country", "United States"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestOntologySizes checks the concept and relation counts against the
// ontology files read as plain JSON, and that every format has tokens.
func TestOntologySizes(t *testing.T) {
	sp, err := LoadSplit(text2kgtest.SampleSplit(t))
	if err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	rows, err := sp.OntologySizes(tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 19 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		b, err := os.ReadFile(filepath.Join(shared.MustPath(t, "data", "text2kgbench", "ontologies"), r.Domain+"_ontology.json"))
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Concepts  []json.RawMessage `json:"concepts"`
			Relations []json.RawMessage `json:"relations"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		if r.Concepts != len(raw.Concepts) || r.Relations != len(raw.Relations) || len(r.Tokens) != len(ontology.Names()) || r.MeanTokens <= 0 {
			t.Errorf("%s: %+v (file: %d concepts, %d relations)", r.Domain, r, len(raw.Concepts), len(raw.Relations))
		}
		t.Logf("%-24s concepts %2d relations %2d mean o200k tokens %.1f", r.Domain, r.Concepts, r.Relations, r.MeanTokens)
	}
	sys, user := ExtractionPrompt("<ontology>\n", "Alan Bean was born in Wheeler.")
	if sys != SystemPrompt || user != ExtractionInstruction+"\n\n<ontology>\n\nSentence: Alan Bean was born in Wheeler." {
		t.Errorf("prompt %q %q", sys, user)
	}
}
