package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/task"
)

func TestCollectionErrors(t *testing.T) {
	dir := evaltest.CollectionDir(t)
	base := evaltest.CollectionYAML("http://h/v1")
	cases := []struct {
		from, to string
		msg      string
	}{
		// The question set names an item the collection does not have.
		{"tasks:\n  - {name: bench, set: items.jsonl.gz, graph: bench}", "tasks:\n  - {name: bench, set: q.jsonl, graph: bench}", `its context "i9" is not an item`},
		// The stored arm lacks an item.
		{"stored: edges.jsonl", "stored: edges1.jsonl", "has no context for item i2"},
		// A template uses meta the questions lack.
		{"Hint {{meta.hint}}", "Hint {{meta.nope}}", "question bench/bench/q1 has no such meta"},
	}
	evaltest.WriteSet(t, dir, "q.jsonl", &task.Set{Contexts: []task.Context{{ID: "i9", SHA1: task.SHA1Hex("other")}},
		Questions: []task.Question{{ID: "q9", Family: "lookup", Text: "?", ContextID: "i9", Gold: task.Answer{Text: "x", Value: "x"}}}})
	evaltest.WriteSet(t, dir, "edges1.jsonl", &task.Set{Contexts: []task.Context{{ID: "i1", Text: "x"}}})
	for i, c := range cases {
		y := strings.Replace(base, c.from, c.to, 1)
		if y == base {
			t.Fatalf("case %d: no replacement", i)
		}
		e, err := ParseExperiment([]byte(y), "c.yaml")
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if _, err := Prepare(e, dir, evaltest.Scorers()); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("case %d: error %v, want %q", i, err, c.msg)
		}
	}
}

func TestValidateStudyFields(t *testing.T) {
	base := evaltest.CollectionYAML("http://h/v1")
	cases := []struct {
		from, to  string
		line, col int
		msg       string
	}{
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {spec: \"0.1\", no_term_aliases: true}", 14, 45, "no_term_aliases has no effect on spec 0.1"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {hops: 2}", 14, 21, "hops crops around an anchor"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {glossary: systems}", 14, 25, "glossary must be full, legend, none or system"},
		{"options: {spec: \"0.2\", no_term_aliases: true, glossary: legend}", "options: {version: \"0.1\"}", 14, 15, "unknown field \"version\""},
		{"format: isolda-0.1\n", "format: isolda-0.1\n    options: {spec: \"0.2\"}\n", 11, 21, "format isolda-0.1 is spec 0.1"},
		{"arms: [list_of_edges, isolda-0.1]", "arms: [list_of_edges, nope]", 21, 78, `unknown arm "nope"`},
		{"graphs: [bench]\n    vars", "graphs: [other]\n    vars", 7, 14, `unknown graph "other"`},
		{"user: \"{{format}} data", "user: \"{{fmt}} data", 18, 13, "unknown placeholder {{fmt}}"},
		{"{{question}}\"\nmodels", "{{question}} {{context}}\"\nmodels", 18, 13, "{{context}} must appear exactly once"},
		{"isolda-0.1\n    vars: {description: \"The knowledge graph is presented in ISOLDA.\"}", "isolda-0.1", 9, 9, "no such variable"},
		{"syntax: turtle", "syntax: list_of_edges", 3, 48, "has no decoder"},
		{"stored: edges.jsonl", "stored: edges.jsonl\n    budget: {tokens: 10, tokenizer: o200k_base}", 5, 9, "no options, ordering or budget"},
	}
	for i, c := range cases {
		y := strings.Replace(base, c.from, c.to, 1)
		if y == base {
			t.Fatalf("case %d: no replacement", i)
		}
		_, err := ParseExperiment([]byte(y), "c.yaml")
		if ve := (*ValidationError)(nil); errors.As(err, &ve) {
			err = ve.Problems[0]
		}
		perrtest.At(t, err, "", c.line, c.col, c.msg, "case %d", i)
	}
}

// Every context of a lossless arm is decoded when the run is prepared, and
// the result is in the manifest: isomorphic for whole graphs, isomorphic to
// the crop for a document cropped to hops around each question's anchor,
// cut for a context cut to a budget; lossy formats are not checked.
func TestRoundTripInManifest(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://h/v1", "")
	e.Arms = []Arm{
		{Name: "i", Format: "isolda"},
		{Name: "i-crop", Format: "isolda", Options: &IsoldaOptions{Hops: 1}, Ordering: &Ordering{Kind: OrderBFS}},
		{Name: "i-anchor", Format: "isolda-0.1", Options: &IsoldaOptions{Anchor: "http://example.org/bob"}},
		{Name: "nt-cut", Format: "ntriples", Budget: &Budget{Tokens: 40, Tokenizer: "o200k_base"}},
		{Name: "edges", Format: "list_of_edges"},
	}
	p := prepare(t, e, dir)
	got := map[string]map[string]int{}
	for _, c := range p.Contexts {
		if got[c.Arm] == nil {
			got[c.Arm] = map[string]int{}
		}
		got[c.Arm][c.RoundTrip]++
		// Carol is linked to nobody: her crop holds only her.
		if c.Arm == "i-crop" && c.Anchor == "http://example.org/carol" && (strings.Contains(c.Text, "Alice") || !strings.Contains(c.Text, "Carol")) {
			t.Errorf("context cropped around Carol: %q", c.Text)
		}
	}
	// 3 lookups (alice, bob, carol) and 1 count: anchors alice, bob, carol
	// and none.
	want := map[string]map[string]int{
		"i": {RoundTripIsomorphic: 1}, "i-crop": {RoundTripIsomorphic: 4}, "i-anchor": {RoundTripIsomorphic: 1},
		"nt-cut": {RoundTripCut: 1}, "edges": {"": 1},
	}
	for a, w := range want {
		for k, n := range w {
			if got[a][k] != n || len(got[a]) != len(w) {
				t.Errorf("arm %s: round trips %v, want %v", a, got[a], w)
			}
		}
	}
}
