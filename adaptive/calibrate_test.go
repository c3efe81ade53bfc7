package adaptive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/runner"
)

// obsFrom makes n answers of task × format, the first k right.
func obsFrom(task, format string, k, n int, tokens int64) []Observation {
	var out []Observation
	for i := 0; i < n; i++ {
		out = append(out, Observation{Task: task, Format: format, QuestionID: fmt.Sprintf("%s-%d", task, i), Correct: i < k, InputTokens: tokens})
	}
	return out
}

func TestRankingTieBreaks(t *testing.T) {
	var obs []Observation
	// Pooled accuracies: b 3/4, a 2/4 (200 tokens), c 2/4 (100 tokens),
	// d 2/4 and e 2/4 (tokens unknown), f 1/4.
	obs = append(obs, obsFrom("t1", "b", 2, 2, 0)...)
	obs = append(obs, obsFrom("t2", "b", 1, 2, 0)...)
	obs = append(obs, obsFrom("t1", "a", 2, 4, 200)...)
	obs = append(obs, obsFrom("t1", "c", 2, 4, 100)...)
	obs = append(obs, obsFrom("t1", "e", 2, 4, 0)...)
	obs = append(obs, obsFrom("t1", "d", 2, 4, 0)...)
	obs = append(obs, obsFrom("t1", "f", 1, 4, 0)...)
	cal, err := FromObservations(obs, "test")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cal.Formats(), []string{"b", "c", "a", "d", "e", "f"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking %v, want %v", got, want)
	}
	if !reflect.DeepEqual(cal.Tasks, []string{"t1", "t2"}) {
		t.Fatalf("tasks %v", cal.Tasks)
	}
	// t1: b 2/2 = 1; then a, c, d, e at 0.5 in ranking order (c, a, d, e); f.
	if got, want := cal.TaskRanking("t1"), []string{"b", "c", "a", "d", "e", "f"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("t1 ranking %v, want %v", got, want)
	}
	if got := cal.TaskRanking("t2"); !reflect.DeepEqual(got, []string{"b"}) {
		t.Fatalf("t2 ranking %v", got)
	}
	if p, ok := cal.Prior("t2", "b"); !ok || p.Correct != 1 || p.N != 2 || p.Accuracy != 0.5 {
		t.Fatalf("prior t2/b: %+v %v", p, ok)
	}
	if _, ok := cal.Prior("t2", "a"); ok {
		t.Fatal("prior of an uncalibrated cell")
	}
	if r := cal.Router("t1"); r != "b" {
		t.Fatalf("router t1: %s", r)
	}
	if r := cal.Router("unknown"); r != "b" {
		t.Fatalf("router of an uncalibrated task: %s", r)
	}
	var buf bytes.Buffer
	if err := cal.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCalibration(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, cal) {
		t.Fatal("priors do not survive a JSON round trip")
	}
}

func TestReadCalibrationRejects(t *testing.T) {
	for _, s := range []string{
		``, `{}`, `{"version": 2}`, `{"version":1,"cells":[],"ranking":[]}`, `{"version":1,"unknown":1}`,
		`{"version":1,"cells":[{"task":"t","format":"a","correct":3,"n":2}],"ranking":[{"format":"a"}]}`,
		`{"version":1,"cells":[{"task":"t","format":"b","n":1},{"task":"t","format":"a","n":1}],"ranking":[{"format":"a"}]}`,
	} {
		if _, err := ReadCalibration(strings.NewReader(s)); err == nil {
			t.Errorf("accepted %q", s)
		}
	}
}

// studyLikeCalibration has the classes the slate needs: compact adjacency,
// edge_list, structured, dot; semantic shacl_lite, study_turtle; other
// nl_summary, entity_centric.
func studyLikeCalibration(t *testing.T) *Calibration {
	t.Helper()
	var obs []Observation
	add := func(format string, a, b int) {
		obs = append(obs, obsFrom("A", format, a, 10, 0)...)
		obs = append(obs, obsFrom("B", format, b, 10, 0)...)
	}
	add("nl_summary", 9, 9)     // 18: best overall, other
	add("structured", 8, 9)     // 17
	add("study_turtle", 2, 10)  // 12: best semantic
	add("dot", 7, 4)            // 11
	add("adjacency", 6, 4)      // 10
	add("shacl_lite", 10, 0)    // 10: ties adjacency, after it by name
	add("entity_centric", 1, 8) // 9
	add("edge_list", 4, 4)      // 8
	cal, err := FromObservations(obs, "test")
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

func TestBuildSlate(t *testing.T) {
	cal := studyLikeCalibration(t)
	if got, want := cal.Formats(), []string{"nl_summary", "structured", "study_turtle", "dot", "adjacency", "shacl_lite", "entity_centric", "edge_list"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking %v", got)
	}
	formatsOf := func(s []Candidate) (fs, roles []string) {
		for _, c := range s {
			fs, roles = append(fs, c.Format), append(roles, c.Role)
		}
		return
	}
	cases := []struct {
		task  string
		opt   SlateOptions
		want  []string
		roles []string
	}{
		// Anchors: the two best compact (structured, dot); semantic: the best
		// semantic (study_turtle); guests: A's ranking is shacl_lite 10,
		// nl_summary 9, structured 8, dot 7, ...
		{"A", SlateOptions{}, []string{"structured", "dot", "study_turtle", "shacl_lite", "nl_summary"},
			[]string{RoleAnchor, RoleAnchor, RoleSemantic, RoleGuest, RoleGuest}},
		// B: study_turtle 10, then nl_summary 9 and structured 9 (ranking
		// order), entity_centric 8.
		{"B", SlateOptions{}, []string{"structured", "dot", "study_turtle", "nl_summary", "entity_centric"},
			[]string{RoleAnchor, RoleAnchor, RoleSemantic, RoleGuest, RoleGuest}},
		{"A", SlateOptions{Size: 3, Anchors: -1, Semantic: -1}, []string{"shacl_lite", "nl_summary", "structured"},
			[]string{RoleGuest, RoleGuest, RoleGuest}},
		{"A", SlateOptions{Size: 4, Anchors: 3}, []string{"structured", "dot", "adjacency", "study_turtle"},
			[]string{RoleAnchor, RoleAnchor, RoleAnchor, RoleSemantic}},
		// A task never calibrated: guests come from the cross-task ranking.
		{"C", SlateOptions{}, []string{"structured", "dot", "study_turtle", "nl_summary", "adjacency"},
			[]string{RoleAnchor, RoleAnchor, RoleSemantic, RoleGuest, RoleGuest}},
	}
	for _, c := range cases {
		s, err := BuildSlate(cal, c.task, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		fs, roles := formatsOf(s)
		if !reflect.DeepEqual(fs, c.want) || !reflect.DeepEqual(roles, c.roles) {
			t.Errorf("%s %+v: %v %v, want %v %v", c.task, c.opt, fs, roles, c.want, c.roles)
		}
	}
	s, _ := BuildSlate(cal, "A", SlateOptions{})
	if s[3].Prior != 1 || s[3].PriorN != 10 || s[0].Prior != 0.8 {
		t.Errorf("priors on the slate: %+v", s)
	}
	s, _ = BuildSlate(cal, "C", SlateOptions{})
	if s[0].PriorN != 0 || s[0].Prior != 17.0/20 {
		t.Errorf("cross-task prior for an uncalibrated task: %+v", s[0])
	}
	// Too few compact formats: the places go to guests.
	var obs []Observation
	obs = append(obs, obsFrom("A", "nl_summary", 3, 4, 0)...)
	obs = append(obs, obsFrom("A", "adjacency", 2, 4, 0)...)
	obs = append(obs, obsFrom("A", "friendship", 1, 4, 0)...)
	small, _ := FromObservations(obs, "small")
	s, _ = BuildSlate(small, "A", SlateOptions{})
	if fs, _ := formatsOf(s); !reflect.DeepEqual(fs, []string{"adjacency", "nl_summary", "friendship"}) {
		t.Errorf("small calibration slate %v", fs)
	}
	if _, err := BuildSlate(cal, "A", SlateOptions{Size: 2, Anchors: 2, Semantic: 1}); err == nil {
		t.Error("accepted more anchors than places")
	}
}

func TestClassesOfStudyFormats(t *testing.T) {
	fs := StudyFormats()
	if len(fs) != 15 {
		t.Fatalf("%d study formats", len(fs))
	}
	count := map[Class]int{}
	for _, f := range fs {
		count[ClassOf(f)]++
	}
	if count[Compact] != 9 || count[Semantic] != 3 || count[Other] != 3 {
		t.Fatalf("classes of the study formats: %v", count)
	}
}

func TestFromEvalRun(t *testing.T) {
	dir := t.TempDir()
	q := `{"key":"k/g/q1","task":"k","graph":"g","scorer":"final","question":{"id":"q1","family":"graphqa_hardened","task":"diameter","question":"?","gold":{"text":"3","kind":"int","value":"3"}}}
{"key":"k/g/q2","task":"k","graph":"g","scorer":"final","question":{"id":"q2","family":"graphqa_hardened","task":"kcore_size","question":"?","gold":{"text":"3","kind":"int","value":"3"}}}
`
	a := `{"key":"adj|m|k/g/q1|0","arm":"adj","format":"adjacency","model":"m","question_key":"k/g/q1","status":"failed"}
{"key":"adj|m|k/g/q1|0","arm":"adj","format":"adjacency","model":"m","question_key":"k/g/q1","status":"ok","correct":true,"prompt_tokens":10}
{"key":"adj|m|k/g/q2|0","arm":"adj","format":"adjacency","model":"m","question_key":"k/g/q2","status":"ok","correct":false}
{"key":"ttl|m|k/g/q1|0","arm":"ttl","format":"study_turtle","model":"m","question_key":"k/g/q1","status":"ok","correct":false}
{"key":"ttl|m|k/g/q1|0","arm":"ttl","format":"study_turtle","model":"m","question_key":"k/g/q1","status":"ok","correct":true}
{"key":"torn`
	os.WriteFile(filepath.Join(dir, runner.QuestionsFile), []byte(q), 0o644)
	os.WriteFile(filepath.Join(dir, runner.AnswersFile), []byte(a), 0o644)
	cal, err := FromEvalRun(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []Cell{{"diameter", "adjacency", 1, 1, 1}, {"diameter", "study_turtle", 1, 1, 1}, {"kcore_size", "adjacency", 0, 1, 0}}
	if !reflect.DeepEqual(cal.Cells, want) {
		t.Fatalf("cells %+v", cal.Cells)
	}
	// study_turtle 1/1 beats adjacency 1/2.
	if got := cal.Formats(); !reflect.DeepEqual(got, []string{"study_turtle", "adjacency"}) {
		t.Fatalf("ranking %v", got)
	}
	if _, err := FromEvalRun(dir, "other"); err == nil {
		t.Fatal("no answers of model other, yet priors")
	}
}

func FuzzReadCalibration(f *testing.F) {
	var obs []Observation
	obs = append(obs, obsFrom("A", "adjacency", 2, 3, 10)...)
	obs = append(obs, obsFrom("A", "shacl_lite", 1, 3, 0)...)
	obs = append(obs, obsFrom("B", "nl_summary", 3, 3, 0)...)
	cal, _ := FromObservations(obs, "seed")
	var b bytes.Buffer
	cal.WriteJSON(&b)
	f.Add(b.String())
	f.Add(`{"version":1,"cells":[{"task":"t","format":"a","correct":1,"n":1}],"ranking":[{"format":"a","n":1,"correct":1,"accuracy":1}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ReadCalibration(strings.NewReader(s))
		if err != nil {
			return
		}
		tasks := append(c.Tasks[:min(len(c.Tasks), 3):min(len(c.Tasks), 3)], "unknown")
		for _, tk := range tasks {
			sl, err := BuildSlate(c, tk, SlateOptions{})
			if err != nil || len(sl) == 0 || len(sl) > 5 {
				t.Fatalf("slate of %s: %v %v", tk, sl, err)
			}
			if c.Router(tk) == "" {
				t.Fatalf("no router for %s", tk)
			}
		}
	})
}
