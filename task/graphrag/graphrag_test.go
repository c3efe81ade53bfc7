package graphrag

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/tasktest"
)

// TestImpactPromptArticle compares the prompt with the template printed in
// the article (shared/spec/002_20b823f74d856c24.txt, "Prompt template"),
// its placeholders {{format_name}} and {{serialized_graph}} filled in.
func TestImpactPromptArticle(t *testing.T) {
	sec := shared.Section(t, "Prompt template\n\n", "\nKeep these instructions byte-for-byte", "spec", "002_20b823f74d856c24.txt")
	tmpl := strings.TrimPrefix(sec, "Prompt template\n\n")
	want := strings.NewReplacer("{{format_name}}", "typed_edges", "{{serialized_graph}}", "#graph-v1\nN|a|service").Replace(tmpl)
	got := Prompt(DefaultFailed, "typed_edges", "#graph-v1\nN|a|service")
	if got != want {
		t.Errorf("prompt\n got %q\nwant %q", got, want)
	}
}

// TestImpactGoldReference checks the gold answers against the answers the
// article's reference program printed for eleven parameter sets
// (formats/graphrag/testdata/reference.json, written by the Python
// program).
func TestImpactGoldReference(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "formats", "graphrag", "testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		ParamSets []struct {
			Services   int   `json:"services"`
			NoiseEdges int   `json:"noise_edges"`
			Seed       int64 `json:"seed"`
			Gold       struct {
				Affected []string            `json:"identity_failure_affected_services"`
				Owners   map[string][]string `json:"owners_of_affected_services"`
			} `json:"gold_queries"`
		} `json:"param_sets"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, ps := range ref.ParamSets {
		g, err := graphrag.Generate(ps.Services, ps.NoiseEdges, ps.Seed)
		if err != nil {
			t.Fatal(err)
		}
		gold := Gold(g, DefaultFailed)
		want := Answer{AffectedServices: ps.Gold.Affected, Owners: ps.Gold.Owners}
		if want.AffectedServices == nil {
			want.AffectedServices = []string{}
		}
		if reflect.DeepEqual(gold.Normalize(), want.Normalize()) {
			ok++
		} else {
			t.Errorf("services=%d noise=%d seed=%d: gold %v, reference %v", ps.Services, ps.NoiseEdges, ps.Seed, gold, want)
		}
		// The gold answer written as a model would, in either key order,
		// scores exact match.
		s := ScoreResponse(gold, gold.CanonicalJSON())
		if !s.ExactMatch || s.AffectedServices.F1 != 1 || s.OwnerPairs.F1 != 1 {
			t.Errorf("gold answer scores %+v", s)
		}
	}
	t.Logf("GraphRAG impact gold answers equal to the reference program's: %d/%d", ok, len(ref.ParamSets))
	if len(ref.ParamSets) != 11 {
		t.Errorf("%d parameter sets, want 11", len(ref.ParamSets))
	}
}

// The article's small graph (services=4, no noise): svc-web -> svc-api ->
// svc-auth -> db-identity, svc-profile -> svc-auth; owners as listed in
// its make_graph.
func smallGold(t *testing.T) Answer {
	t.Helper()
	g, err := graphrag.Generate(4, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	return Gold(g, DefaultFailed)
}

func TestImpactScores(t *testing.T) {
	gold := smallGold(t)
	want := Answer{
		AffectedServices: []string{"svc-api", "svc-auth", "svc-profile", "svc-web"},
		Owners:           map[string][]string{"svc-api": {"team-core"}, "svc-auth": {"team-core"}, "svc-profile": {"team-growth"}, "svc-web": {"team-growth"}},
	}
	if !reflect.DeepEqual(gold, want) {
		t.Fatalf("gold %v, want %v (from the article's make_graph)", gold, want)
	}
	cases := []struct {
		name     string
		response string
		parse    bool
		aff      SetScore
		pairs    SetScore
		owners   bool
	}{
		{"exact, unsorted, duplicated", `{"owners": {"svc-web": ["team-growth"], "svc-api": ["team-core", "team-core"], "svc-auth": ["team-core"], "svc-profile": ["team-growth"]}, "affected_services": ["svc-web", "svc-api", "svc-auth", "svc-profile", "svc-web"]}`,
			true, SetScore{1, 1, 1, true}, SetScore{1, 1, 1, true}, true},
		// 3 of 4 services, one extra: P = 3/4, R = 3/4.
		{"one missed, one extra", `{"affected_services": ["svc-api", "svc-auth", "svc-web", "db-identity"], "owners": {"svc-api": ["team-core"], "svc-auth": ["team-core"], "svc-web": ["team-growth"]}}`,
			true, SetScore{0.75, 0.75, 0.75, false}, SetScore{1, 0.75, 2 * 0.75 / 1.75, false}, false},
		{"empty answer", `{"affected_services": [], "owners": {}}`,
			true, SetScore{1, 0, 0, false}, SetScore{1, 0, 0, false}, false},
		{"code fence", "```json\n{\"affected_services\": [], \"owners\": {}}\n```", false, SetScore{}, SetScore{}, false},
	}
	for _, c := range cases {
		s := ScoreResponse(gold, c.response)
		if s.ParseSuccess != c.parse {
			t.Errorf("%s: parse %v (%s), want %v", c.name, s.ParseSuccess, s.ParseError, c.parse)
			continue
		}
		if s.AffectedServices != c.aff || s.OwnerPairs != c.pairs || s.OwnersExactMatch != c.owners {
			t.Errorf("%s: %+v, want affected %+v pairs %+v owners %v", c.name, s, c.aff, c.pairs, c.owners)
		}
		if s.ExactMatch != (c.aff.ExactMatch && c.owners) {
			t.Errorf("%s: exact match %v", c.name, s.ExactMatch)
		}
	}
	if s := ScoreSets(nil, nil); s != (SetScore{1, 1, 1, true}) {
		t.Errorf("two empty sets: %+v", s)
	}
	if s := ScoreSets(nil, []string{"x"}); s != (SetScore{0, 1, 0, false}) {
		t.Errorf("prediction against an empty gold set: %+v", s)
	}
}

func TestImpactParseStrict(t *testing.T) {
	bad := []struct {
		response  string
		line, col int
	}{
		{`{"affected_services": ["a"]}`, 1, 29},
		{`{"affected_services": ["a"], "owners": {}, "note": 1}`, 1, 44},
		{`{"affected_services": ["a"], "affected_services": [], "owners": {}}`, 1, 30},
		{`{"affected_services": [1], "owners": {}}`, 1, 24},
		{`{"affected_services": "a", "owners": {}}`, 1, 23},
		{"{\"affected_services\": [],\n \"owners\": {\"s\": [\"t\"], \"s\": []}}", 2, 25},
		{`{"affected_services": [], "owners": {"s": "t"}}`, 1, 43},
		{`{"affected_services": [], "owners": {}} extra`, 1, 41},
		{`Here is the answer: {"affected_services": [], "owners": {}}`, 1, 1},
		{`{"affected_services": [], "owners": {}`, 1, 39},
		{``, 1, 1},
		{`[]`, 1, 1},
	}
	for _, c := range bad {
		_, err := ParseAnswer(c.response)
		perrtest.At(t, err, "", c.line, c.col, "", "%q", c.response)
	}
	if _, err := ParseAnswer("\n {\"owners\": {}, \"affected_services\": []}\n"); err != nil {
		t.Errorf("white space around the object: %v", err)
	}
	a, err := ParseAnswerLenient("Sure!\n```json\n{\"affected_services\": [\"b\", \"a\"], \"owners\": {\"a\": []}}\n```")
	if err != nil || !reflect.DeepEqual(a.Normalize(), Answer{AffectedServices: []string{"a", "b"}, Owners: map[string][]string{"a": {}}}) {
		t.Errorf("lenient: %v, %v", a, err)
	}
}

func TestImpactQuestionScorer(t *testing.T) {
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range graphrag.Formats() {
		q, ctx, err := NewQuestion(g, DefaultFailed, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(q.Text, "\nGRAPH_DATA:\n"+ctx.Text+"\n") || q.ContextSHA1 != task.SHA1Hex(ctx.Text) {
			t.Errorf("%s: prompt does not hold the context", f.Name)
		}
		r := Scorer.Score(q, q.Gold.Text)
		if !r.Correct || r.Score != 1 {
			t.Errorf("%s: gold answer scored %+v", f.Name, r)
		}
		if r := Scorer.Score(q, "```json\n"+q.Gold.Text+"\n```"); r.Correct {
			t.Errorf("%s: strict scorer accepted a code fence", f.Name)
		}
		if r := LenientScorer.Score(q, "```json\n"+q.Gold.Text+"\n```"); !r.Correct {
			t.Errorf("%s: lenient scorer rejected a code fence", f.Name)
		}
	}
}

// FuzzImpact parses arbitrary responses strictly and leniently: no panic,
// every error is an *rdf.ParseError, and a parsed answer's canonical JSON
// parses back to the same normalized answer.
func FuzzImpact(f *testing.F) {
	for _, s := range []string{`{"affected_services": ["a"], "owners": {"a": ["t"]}}`, `{"owners": {}, "affected_services": []}`, `{"affected_services": [1]}`, "```json\n{}\n```", `{"a":`, "\x00", `{"affected_services": ["\ud800"], "owners": {}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, resp string) {
		for _, parse := range []func(string) (Answer, error){ParseAnswer, ParseAnswerLenient} {
			a, err := parse(resp)
			if err != nil {
				var pe *rdf.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("error %T %v is not a *rdf.ParseError", err, err)
				}
				continue
			}
			b, err := ParseAnswer(a.CanonicalJSON())
			if err != nil || !reflect.DeepEqual(b.Normalize(), a.Normalize()) {
				t.Errorf("canonical JSON %s does not round-trip: %v", a.CanonicalJSON(), err)
			}
		}
		_ = ScoreResponse(Answer{AffectedServices: []string{"a"}, Owners: map[string][]string{"a": {"t"}}}, resp)
	})
}

func BenchmarkImpactScore(b *testing.B) {
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		b.Fatal(err)
	}
	gold := Gold(g, DefaultFailed)
	resp := gold.CanonicalJSON()
	for i := 0; i < b.N; i++ {
		if !ScoreResponse(gold, resp).ExactMatch {
			b.Fatal("no match")
		}
	}
}

func TestImpactFrozenSet(t *testing.T) {
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	set, err := NewSet("impact", g, DefaultFailed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) != 5 {
		t.Fatalf("%d questions, want one per reference format", len(set.Questions))
	}
	back := tasktest.RoundTrip(t, set)
	for _, q := range back.Questions {
		if r := Scorer.Score(q, q.Gold.Text); !r.Correct {
			t.Errorf("%s: gold answer read back scores %+v", q.ID, r)
		}
	}
}

// TestScorerPartial checks the partial credit the scorer attaches, on
// values derived by hand.
func TestScorerPartial(t *testing.T) {
	gold := Answer{AffectedServices: []string{"a", "b", "c"}, Owners: map[string][]string{"a": {"t1"}, "b": {"t2"}, "c": {}}}
	q := task.Question{Gold: task.Answer{Text: gold.CanonicalJSON(), Kind: KindJSON}}
	r := Scorer.Score(q, `{"affected_services": ["a", "b", "d"], "owners": {"a": ["t1"], "b": ["t3"], "d": ["t4"]}}`)
	p := r.Partial
	if p == nil || !p.ParseOK || p.ExactMatch || r.Correct {
		t.Fatalf("partial %+v, result %+v", p, r)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(p.Precision, 2.0/3) || !near(p.Recall, 2.0/3) || !near(p.F1, 2.0/3) || !near(r.Score, 2.0/3) {
		t.Errorf("affected services P/R/F1 %v %v %v, want 2/3 each", p.Precision, p.Recall, p.F1)
	}
	o := p.Fields[FieldOwners]
	if !near(o.Precision, 1.0/3) || !near(o.Recall, 0.5) || !near(o.F1, 0.4) || o.ExactMatch || o.Gold != 2 || o.Predicted != 3 || o.Matched != 1 {
		t.Errorf("owners %+v, want P 1/3, R 1/2, F1 0.4, 2 gold, 3 predicted, 1 matched", o)
	}
	if a := p.Fields[FieldAffectedServices]; a.Gold != 3 || a.Predicted != 3 || a.Matched != 2 {
		t.Errorf("affected services counts %+v", a)
	}
	r = Scorer.Score(q, "The affected services are a and b.")
	if r.Partial == nil || r.Partial.ParseOK || r.Correct {
		t.Errorf("unparsable answer: %+v %+v", r, r.Partial)
	}
	r = Scorer.Score(q, gold.CanonicalJSON())
	if !r.Correct || !r.Partial.ExactMatch || !r.Partial.Fields[FieldOwners].ExactMatch || r.Partial.F1 != 1 {
		t.Errorf("gold answer: %+v %+v", r, r.Partial)
	}
}

// TestStudySets checks that the study's prompt carries the graph once and
// equals the article's template, and that the question pairs across
// formats.
func TestStudySets(t *testing.T) {
	g, err := StudyGraph()
	if err != nil {
		t.Fatal(err)
	}
	sets, err := StudySets(g, DefaultFailed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 5 {
		t.Fatalf("%d sets", len(sets))
	}
	for _, set := range sets {
		q, ctx := set.Questions[0], set.Contexts[0]
		if q.ID != "graphrag-impact-db-identity" || q.Text != sets[0].Questions[0].Text || q.Gold.Text != sets[0].Questions[0].Gold.Text {
			t.Errorf("%s: question %+v", set.Name, q)
		}
		sys, user := StudyTemplate(ctx.Text, q)
		if sys != "" || user != Prompt(DefaultFailed, q.Meta["format"], ctx.Text) || strings.Count(user, ctx.Text) != 1 {
			t.Errorf("%s: prompt does not hold the graph exactly once", set.Name)
		}
		if !strings.Contains(user, "Question:\nIf db-identity fails, which services are transitively affected,\nand which teams own those services?\n\nGRAPH_FORMAT:\n"+q.Meta["format"]+"\n\nGRAPH_DATA:\n") {
			t.Errorf("%s: template differs from the article's", set.Name)
		}
		if r := Scorer.Score(q, q.Gold.Text); !r.Correct || !r.Partial.ExactMatch {
			t.Errorf("%s: gold answer scored %+v", set.Name, r)
		}
	}
}
