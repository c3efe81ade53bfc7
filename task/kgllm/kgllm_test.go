package kgllm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/tasktest"
)

func testInstances(t *testing.T, taskName, variant string) []kgllmbench.Instance {
	t.Helper()
	dir := shared.MustPath(t, "data", "kgllmbench", "instances", "instances")
	insts, err := LoadInstances(dir, taskName, variant)
	if err != nil {
		t.Fatal(err)
	}
	if len(insts) != 100 {
		t.Fatalf("%s.%s: %d instances, want 100", taskName, variant, len(insts))
	}
	return insts
}

// testLabel maps an entity to its label in the instance's variant.
func testLabel(inst kgllmbench.Instance, e entity) string {
	for _, p := range inst.Pseudonyms {
		if p.EntityID == e.EntityID.String() {
			return p.Name
		}
	}
	return e.Label
}

// The HighestDegreeNode instances the benchmark's parser
// `Answer:\s*([\w\s]+)` cannot score 1, with the offending labels: a
// hyphen or an apostrophe, which the parser does not accept.
//
// hdnNoLabel: no tied answer label can be returned whole, whichever one a
// model picks; the instances README (shared/data/kgllmbench/instances/
// README.md §3) counts 3 real and 4 pseudo such items.
var hdnNoLabel = map[string]string{
	"real/12":   "NEMA 5-15",
	"real/23":   "Ukrainian People's Republic",
	"real/64":   "People's Socialist Republic of Albania",
	"pseudo/12": "NEMA 5-15",
	"pseudo/21": "United Emirates of Neo-Arabia",
	"pseudo/35": "Sultanate of Neo-Persia",
	"pseudo/84": "United States of Pan-America",
}

// hdnFirstLabel: the first tied label (the one the gold answer lists
// first) cannot be returned whole. The ISOLDA paper (§4, "The correct answer
// scores 1 in 494 of the 500 instances") counts six in the pseudonymized
// variant: these six, two of which have another tied label that would pass.
var hdnFirstLabel = map[string]string{
	"real/12":   "NEMA 5-15",
	"real/23":   "Ukrainian People's Republic",
	"real/64":   "People's Socialist Republic of Albania",
	"pseudo/12": "NEMA 5-15",
	"pseudo/21": "United Emirates of Neo-Arabia",
	"pseudo/35": "Sultanate of Neo-Persia",
	"pseudo/38": "Republic of Trans-Caucasus",
	"pseudo/44": "People's Republic of Sino-Mongolia",
	"pseudo/84": "United States of Pan-America",
}

// TestKGLLMQuestionsFromFields rebuilds every instance's question from its
// stored fields with the question templates and compares it with the
// benchmark's own question text (the oracle: the regenerated instances).
func TestKGLLMQuestionsFromFields(t *testing.T) {
	total, ok := 0, 0
	for _, variant := range Variants() {
		for _, tk := range Tasks() {
			for _, inst := range testInstances(t, tk, variant) {
				var f instanceFields
				if err := json.Unmarshal(inst.Fields, &f); err != nil {
					t.Fatal(err)
				}
				var want string
				switch tk {
				case TripleRetrieval:
					want = TripleRetrievalQuestion(testLabel(inst, f.Triple.Head), f.Triple.Relation.Label, testLabel(inst, f.Triple.Tail))
				case ShortestPath:
					p := f.ShortestPaths[0]
					want = ShortestPathQuestion(testLabel(inst, p[0]), testLabel(inst, p[len(p)-1]))
				case HighestDegreeNode:
					want = HighestDegreeNodeQuestion(f.EdgeDirection)
				case AggByRelation:
					want = AggByRelationQuestion(testLabel(inst, *f.AnchorEnt), f.Relation, f.Direction)
				case AggNeighborProperties:
					want = AggNeighborPropertiesQuestion(testLabel(inst, *f.AnchorEnt), f.Relation)
				}
				total++
				if want == inst.Question {
					ok++
				} else {
					t.Errorf("%s %s %d: question\n got %q\nwant %q", tk, variant, inst.ID, want, inst.Question)
				}
			}
		}
	}
	t.Logf("KG-LLM-Bench questions rebuilt from fields: %d/%d", ok, total)
}

// TestKGLLMStrictScoresGold is the acceptance test: each instance's gold
// answer, rendered as a model following the instructions would write it,
// scores 1 under the benchmark's strict scorer, except the
// HighestDegreeNode instances whose labels the benchmark's parser cannot
// accept, which are asserted by name; the lenient scorers accept all.
func TestKGLLMStrictScoresGold(t *testing.T) {
	noLabel := map[string]string{}
	firstLabel := map[string]string{}
	for _, variant := range Variants() {
		for _, tk := range Tasks() {
			insts := testInstances(t, tk, variant)
			strictOK, lenientOK := 0, 0
			for _, inst := range insts {
				q, err := InstanceQuestion(inst)
				if err != nil {
					t.Fatal(err)
				}
				var responses []string
				switch tk {
				case TripleRetrieval:
					responses = []string{q.Gold.Text}
				case ShortestPath:
					// The answer string itself, and one rendered from the
					// stored path entities with Python's list repr: it must
					// equal the stored string (written by Python's str()).
					var f instanceFields
					if err := json.Unmarshal(inst.Fields, &f); err != nil {
						t.Fatal(err)
					}
					var labels []string
					for _, e := range f.ShortestPaths[0] {
						labels = append(labels, testLabel(inst, e))
					}
					if got := PathAnswer(labels); got != q.Gold.Text {
						t.Errorf("%s %d: PathAnswer = %q, stored %q", variant, inst.ID, got, q.Gold.Text)
					}
					responses = []string{q.Gold.Text}
					if r := EvalShortestPathFlexible(q.Gold.Text, goldList(q.Gold)); !r.Correct {
						t.Errorf("%s %d: flexible scorer rejects the gold path %q", variant, inst.ID, q.Gold.Text)
					}
				case HighestDegreeNode:
					for _, l := range q.Gold.Items {
						responses = append(responses, "Answer: "+l)
					}
				default:
					responses = []string{"Answer: " + q.Gold.Value}
				}
				strict, lenient := false, false
				for _, r := range responses {
					strict = strict || Strict.Score(q, r).Correct
					lenient = lenient || Lenient.Score(q, r).Correct
				}
				key := fmt.Sprintf("%s/%d", variant, inst.ID)
				if tk == HighestDegreeNode && !Strict.Score(q, responses[0]).Correct {
					firstLabel[key] = q.Gold.Items[0]
				}
				if strict {
					strictOK++
				} else if tk == HighestDegreeNode {
					noLabel[key] = strings.Join(q.Gold.Items, " | ")
				} else {
					t.Errorf("%s %s %d: strict scorer rejects the gold answer %q", tk, variant, inst.ID, responses)
				}
				if lenient {
					lenientOK++
				} else {
					t.Errorf("%s %s %d: lenient scorer rejects the gold answer %q", tk, variant, inst.ID, responses)
				}
			}
			t.Logf("KG-LLM-Bench %s %s: strict %d/%d, lenient %d/%d", tk, variant, strictOK, len(insts), lenientOK, len(insts))
		}
	}
	checkHDN(t, "any tied label", noLabel, hdnNoLabel)
	checkHDN(t, "first tied label", firstLabel, hdnFirstLabel)
}

func checkHDN(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	counts := map[string]int{}
	for _, k := range keys {
		counts[strings.SplitN(k, "/", 2)[0]]++
		t.Logf("KG-LLM-Bench HighestDegreeNode %s rejected (%s): %s", k, what, got[k])
		if w, ok := want[k]; !ok || w != got[k] {
			t.Errorf("HighestDegreeNode %s rejected (%s) with %q, want %q", k, what, got[k], w)
		}
		for _, l := range strings.Split(got[k], " | ") {
			if testOnlyWord(l) {
				t.Errorf("%s: label %q has only word characters and spaces, yet was rejected", k, l)
			}
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("HighestDegreeNode %s: expected rejection (%s) of %q, but it scored 1", k, what, want[k])
		}
	}
	t.Logf("KG-LLM-Bench HighestDegreeNode rejected with the %s: real %d, pseudo %d", what, counts["real"], counts["pseudo"])
}

// testOnlyWord reports whether every character of s is one of
// Python's \w or \s: the independent statement of why a label fails.
func testOnlyWord(s string) bool {
	for _, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSpace(r)) {
			return false
		}
	}
	return true
}

// TestKGLLMSampler samples new instances of every task from the Countries
// graph and checks each gold answer with an independent computation on the
// instance's own edges (degrees and counts recounted, the path's length
// compared with graph.Adj's breadth-first distance on the full graph), the
// subgraph limits, the pseudonymization, the strict scorers on the gold
// answers, and determinism.
func TestKGLLMSampler(t *testing.T) {
	dir := shared.MustPath(t, "data", "kgllmbench", "countries")
	kg, err := kgllmbench.LoadCountries(dir)
	if err != nil {
		t.Fatal(err)
	}
	names, err := LoadPseudonyms(filepath.Join(dir, "pseudonym_data", "country_pseudonyms.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 700 {
		t.Fatalf("%d pseudonyms, want 700", len(names))
	}
	listed := map[string]int{} // "Zero Republic" is listed twice
	for _, n := range names {
		listed[n]++
	}
	idx := map[string]int{}
	for i, e := range kg.Entities {
		idx[e.ID] = i
	}
	var pairs [][2]int
	for _, e := range kg.Edges {
		pairs = append(pairs, [2]int{idx[e.Head], idx[e.Tail]})
	}
	full := graph.NewAdj(len(kg.Entities), pairs, false)
	const n = 12
	for _, cfg := range SmallConfig() {
		s, err := NewSampler(kg, names, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Sample(cfg.Task, n, cfg.SeedEntities, cfg.MaxEdges)
		if err != nil {
			t.Fatal(err)
		}
		s2, _ := NewSampler(kg, names, cfg.Seed)
		again, err := s2.Sample(cfg.Task, n, cfg.SeedEntities, cfg.MaxEdges)
		if err != nil || !reflect.DeepEqual(got, again) {
			t.Errorf("%s: sampling is not deterministic", cfg.Task)
		}
		checked, strictOK := 0, 0
		for _, p := range got {
			for _, inst := range []kgllmbench.Instance{p.Real, p.Pseudo} {
				if len(inst.KG.Edges) > cfg.MaxEdges+8 { // ShortestPath re-adds up to 7 path edges
					t.Errorf("%s %d: %d edges", cfg.Task, inst.ID, len(inst.KG.Edges))
				}
				q, err := InstanceQuestion(inst)
				if err != nil {
					t.Fatal(err)
				}
				if checkSampledAnswer(t, inst, q, full, idx) {
					checked++
				}
				var resp string
				switch cfg.Task {
				case TripleRetrieval:
					resp = q.Gold.Text
				case ShortestPath:
					resp = q.Gold.Text
				default:
					resp = "Answer: " + q.Gold.Value
				}
				if r := Strict.Score(q, resp); r.Correct {
					strictOK++
				} else if cfg.Task != HighestDegreeNode || testOnlyWord(q.Gold.Value) {
					t.Errorf("%s %s %d: strict scorer rejects %q", cfg.Task, inst.Variant, inst.ID, resp)
				}
			}
			// Pseudonyms: every core entity renamed to a listed name, no
			// name used more often than listed; other entities keep their
			// labels.
			used := map[string]int{}
			for i, e := range p.Pseudo.KG.Entities {
				r := p.Real.KG.Entities[i]
				if r.Core {
					used[e.Label]++
					if used[e.Label] > listed[e.Label] {
						t.Errorf("%s %d: core entity %s renamed %q", cfg.Task, p.Real.ID, r.ID, e.Label)
					}
				} else if e.Label != r.Label {
					t.Errorf("%s %d: non-core entity %s renamed", cfg.Task, p.Real.ID, r.ID)
				}
			}
		}
		t.Logf("KG-LLM-Bench sampled %s: %d instances × 2 variants, answers verified %d/%d, strict gold %d/%d", cfg.Task, len(got), checked, 2*len(got), strictOK, 2*len(got))
	}
}

// checkSampledAnswer recomputes the gold answer of a sampled instance
// from its edges by brute force.
func checkSampledAnswer(t *testing.T, inst kgllmbench.Instance, q task.Question, full *graph.Adj, idx map[string]int) bool {
	t.Helper()
	label := map[string]string{}
	for _, e := range inst.KG.Entities {
		label[e.ID] = e.Label
	}
	rlabel := map[string]string{}
	for _, r := range inst.KG.Relations {
		rlabel[r.ID] = r.Label
	}
	edgeLabel := func(e kgllmbench.Edge) string {
		if e.RelationLabel != "" {
			return e.RelationLabel
		}
		return rlabel[e.Relation]
	}
	var f instanceFields
	if err := json.Unmarshal(inst.Fields, &f); err != nil {
		t.Fatal(err)
	}
	var corruption struct {
		Type string `json:"corruption_type"`
	}
	_ = json.Unmarshal(inst.Fields, &corruption)
	fail := func(format string, args ...any) bool {
		t.Errorf("%s %s %d: "+format, append([]any{inst.Task, inst.Variant, inst.ID}, args...)...)
		return false
	}
	switch inst.Task {
	case TripleRetrieval:
		h, tl := f.Triple.Head.EntityID.String(), f.Triple.Tail.EntityID.String()
		present := false
		for _, e := range inst.KG.Edges {
			present = present || e.Head == h && e.Tail == tl && edgeLabel(e) == f.Triple.Relation.Label
		}
		switch {
		case q.Gold.Value == "yes" && !present:
			return fail("answer Yes, but the triple is not in the subgraph")
		case q.Gold.Value == "no" && present && corruption.Type != "tail":
			return fail("answer No, but the %s-corrupted triple is in the subgraph", corruption.Type)
		}
	case ShortestPath:
		p := f.ShortestPaths[0]
		ids := make([]int, len(p))
		for i, e := range p {
			ids[i] = idx[e.EntityID.String()]
		}
		if d := full.Distance(ids[0], ids[len(ids)-1]); d != len(ids)-1 {
			return fail("path of %d edges, distance %d", len(ids)-1, d)
		}
		for i := 0; i+1 < len(p); i++ {
			a, b := p[i].EntityID.String(), p[i+1].EntityID.String()
			ok := false
			for _, e := range inst.KG.Edges {
				ok = ok || e.Head == a && e.Tail == b || e.Head == b && e.Tail == a
			}
			if !ok {
				return fail("path step %s-%s is not an edge of the subgraph", a, b)
			}
		}
	case HighestDegreeNode:
		deg := map[string]int{}
		for _, e := range inst.KG.Edges {
			if f.EdgeDirection != "incoming" {
				deg[e.Head]++
			}
			if f.EdgeDirection != "outgoing" {
				deg[e.Tail]++
			}
		}
		best := 0
		for _, d := range deg {
			best = max(best, d)
		}
		var want []string
		for _, e := range inst.KG.Entities {
			if deg[e.ID] == best {
				want = append(want, e.Label)
			}
		}
		sort.Strings(want)
		got := append([]string(nil), q.Gold.Items...)
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			return fail("answer %v, recount %v", got, want)
		}
	case AggByRelation:
		a := f.AnchorEnt.EntityID.String()
		n := 0
		for _, e := range inst.KG.Edges {
			if edgeLabel(e) == f.Relation && (f.Direction == "outgoing" && e.Head == a || f.Direction == "incoming" && e.Tail == a) {
				n++
			}
		}
		if fmt.Sprint(n) != q.Gold.Value {
			return fail("answer %s, recount %d", q.Gold.Value, n)
		}
	case AggNeighborProperties:
		a := f.AnchorEnt.EntityID.String()
		nb := map[string]bool{}
		for _, e := range inst.KG.Edges {
			if e.Head == a {
				nb[e.Tail] = true
			}
			if e.Tail == a {
				nb[e.Head] = true
			}
		}
		n := 0
		for v := range nb {
			has := false
			for _, e := range inst.KG.Edges {
				has = has || e.Head == v && edgeLabel(e) == f.Relation
			}
			if has {
				n++
			}
		}
		if fmt.Sprint(n) != q.Gold.Value {
			return fail("answer %s, recount %d", q.Gold.Value, n)
		}
	}
	return true
}

// FuzzKGLLMScorers runs every KG-LLM-Bench scorer on arbitrary responses:
// no panic, and a response the strict scorer accepts is also accepted by
// the lenient one for the count tasks.
func FuzzKGLLMScorers(f *testing.F) {
	for _, s := range []string{"Yes", "No.", "", "SHORTEST PATH: ['A', 'B']", "SHORTEST PATH: [\"A\", 'B',]", "Answer: 12", "Answer: Belgium\n",
		"Answer:\u0663", "[[[[[[", "{'a': 1, 'b'}", "r'x' b'y'", "'\\N{DASH}'", "(1,)", "-1j", "0x1f", "'''a'''", "\"\\u00e9\" 'b'", "# c\n['A']"} {
		f.Add(s)
	}
	questions := []task.Question{
		{Task: TripleRetrieval, Gold: task.Answer{Text: "Yes", Kind: task.KindYesNo, Value: "yes"}},
		{Task: ShortestPath, Gold: task.Answer{Text: "SHORTEST PATH: ['A', 'B']", Kind: task.KindList, Value: "SHORTEST PATH: ['A', 'B']", Items: []string{"A", "B"}}},
		{Task: HighestDegreeNode, Gold: task.Answer{Text: "Belgium", Kind: task.KindNode, Value: "Belgium", Items: []string{"Belgium"}}},
		{Task: AggByRelation, Gold: task.Answer{Text: "12", Kind: task.KindInt, Value: "12"}},
	}
	f.Fuzz(func(t *testing.T, resp string) {
		tm := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("SLOW %q", resp)) })
		defer tm.Stop()
		for _, q := range questions {
			s := Strict.Score(q, resp)
			l := Lenient.Score(q, resp)
			if q.Task == AggByRelation && s.Correct && !l.Correct {
				t.Errorf("strict accepts %q, lenient does not", resp)
			}
		}
		_ = EvalShortestPathFlexible(resp, []string{"SHORTEST PATH: ['A', 'B']"})
		_, _ = py.LiteralEval(resp)
	})
}

func BenchmarkKGLLMStrict(b *testing.B) {
	q := task.Question{Task: ShortestPath, Gold: task.Answer{Value: "SHORTEST PATH: ['Governorate of Montenegro', 'historical country', 'Kingdom of Thessalonica']"}}
	resp := "SHORTEST PATH: ['Governorate of Montenegro', 'historical country', 'Kingdom of Thessalonica']"
	for i := 0; i < b.N; i++ {
		if !Strict.Score(q, resp).Correct {
			b.Fatal("rejected")
		}
	}
}

// TestKGLLMPromptExamples rebuilds the exact full prompts of instance 0 of
// every task, format and variant and compares them byte for byte with the
// benchmark's own prompts (shared/data/kgllmbench/instances/prompt_examples).
func TestKGLLMPromptExamples(t *testing.T) {
	dir := shared.MustPath(t, "data", "kgllmbench", "instances", "prompt_examples")
	formats := []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle2", "rdf_turtle3", "json_ld2", "json_ld3"}
	exact, total := 0, 0
	for _, variant := range Variants() {
		for _, tk := range Tasks() {
			inst := testInstances(t, tk, variant)[0]
			for _, f := range formats {
				want, err := os.ReadFile(filepath.Join(dir, variant, tk+"."+f+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				got, err := Prompt(inst, f)
				if err != nil {
					t.Fatal(err)
				}
				total++
				if got == string(want) {
					exact++
				} else {
					t.Errorf("%s %s %s: prompt differs from the benchmark's", variant, tk, f)
				}
			}
		}
	}
	if total != 70 {
		t.Errorf("%d prompts, want 70", total)
	}
	t.Logf("KG-LLM-Bench prompts: %d/%d identical", exact, total)
}

// TestKGLLMFrozenSet freezes the questions of one task in one format and
// reads them back with the hashes verified.
func TestKGLLMFrozenSet(t *testing.T) {
	insts := testInstances(t, AggByRelation, "pseudo")[:5]
	set, err := NewSet("kgllm-test", insts, "list_of_edges")
	if err != nil {
		t.Fatal(err)
	}
	back := tasktest.RoundTrip(t, set)
	if len(back.Questions) != 5 || back.Questions[2].Text != insts[2].Question || back.Questions[2].Gold.Value == "" {
		t.Errorf("frozen set read back as %+v", back.Questions)
	}
}

// The strict scorers keep the benchmark's quirks; the lenient ones do not.
func ExampleEvalHighestDegreeNode() {
	labels := []string{"Belgium", "Ukrainian People's Republic"}
	for _, r := range []string{"Answer: Belgium.", "Answer: Belgium\nBecause it has 20 edges.", "Answer: Ukrainian People's Republic", "answer: belgium"} {
		fmt.Printf("%q strict=%v lenient=%v\n", r, EvalHighestDegreeNode(r, labels).Correct, LenientHighestDegreeNode(r, labels).Correct)
	}
	// Output:
	// "Answer: Belgium." strict=true lenient=true
	// "Answer: Belgium\nBecause it has 20 edges." strict=false lenient=true
	// "Answer: Ukrainian People's Republic" strict=false lenient=true
	// "answer: belgium" strict=false lenient=true
}

func ExampleEvalTripleRetrieval() {
	for _, r := range []string{"Yes", " yes, it is", "Yes.", "The answer is Yes"} {
		fmt.Printf("%q strict=%v lenient=%v\n", r, EvalTripleRetrieval(r, "Yes").Correct, LenientTripleRetrieval(r, "Yes").Correct)
	}
	// Output:
	// "Yes" strict=true lenient=true
	// " yes, it is" strict=false lenient=true
	// "Yes." strict=false lenient=true
	// "The answer is Yes" strict=false lenient=true
}
