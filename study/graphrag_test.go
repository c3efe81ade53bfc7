package study

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/llm/llmtest"
	impact "github.com/isolda/isolda/task/graphrag"
)

func TestImpactStudy(t *testing.T) {
	s, _ := Get("graphrag-impact")
	dir, p := initStudy(t, s.Name, Options{BaseURL: "http://h/v1", Model: "org/m-1", Tokenizer: "o200k_base"})
	checkDryRun(t, s, p, map[string]int{"m-1": 25})
	for _, c := range p.Contexts {
		if c.RoundTrip != "isomorphic" {
			t.Errorf("%s: round trip %s %s", c.Arm, c.RoundTrip, c.RoundTripDetail)
		}
	}
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	gold := impact.Gold(g, "db-identity")
	n := len(gold.AffectedServices)
	if n < 4 {
		t.Fatalf("gold has %d affected services", n)
	}
	answer := func(a impact.Answer) string {
		b, _ := json.Marshal(a)
		return string(b)
	}
	// Per format: pretty_json and jsonl answer gold; compact_json the
	// first two services only (with their owners); csv prose (no JSON);
	// typed_edges gold plus one service that is not affected.
	partial := impact.Answer{AffectedServices: gold.AffectedServices[:2], Owners: map[string][]string{}}
	for _, sv := range partial.AffectedServices {
		partial.Owners[sv] = gold.Owners[sv]
	}
	extra := impact.Answer{AffectedServices: append([]string{"svc-noise-9999"}, gold.AffectedServices...), Owners: gold.Owners}
	byFormat := map[string]string{
		"pretty_json": answer(gold), "jsonl": answer(gold), "compact_json": answer(partial),
		"csv": "The affected services are svc-auth and svc-api.", "typed_edges": answer(extra),
	}
	seenPrompts := map[string]bool{}
	h := func(r llmtest.Request) llmtest.Reply {
		u := r.Messages[len(r.Messages)-1].Content
		for f, a := range byFormat {
			text, _ := graphrag.EncodeString(f, g)
			// The whole prompt is the article's, byte for byte, with the
			// graph once.
			if u == impact.Prompt("db-identity", f, text) && len(r.Messages) == 1 {
				seenPrompts[f] = true
				return llmtest.Reply{Text: a}
			}
		}
		return llmtest.Reply{Text: "unexpected prompt"}
	}
	runDir := run(t, p, h)
	if len(seenPrompts) != 5 {
		t.Fatalf("prompts recognised for %v only", seenPrompts)
	}
	rep, res := reportOf(t, dir, runDir)
	if res != nil {
		t.Errorf("the article pre-registers no criteria: %v", res)
	}
	// By hand: F1 of the partial answer 2·1·(2/n)/(1 + 2/n) = 4/(n+2); of
	// the extra one 2·(n/(n+1))·1/(n/(n+1) + 1) = 2n/(2n+1).
	want := map[string]string{
		"pretty_json":  "acc=1.0000 n=5 F1=1.0000 P=1.0000 R=1.0000 EM=1.0000 PS=1.0000",
		"jsonl":        "acc=1.0000 n=5 F1=1.0000 P=1.0000 R=1.0000 EM=1.0000 PS=1.0000",
		"compact_json": fmt.Sprintf("acc=0.0000 n=5 F1=%.4f P=1.0000 R=%.4f EM=0.0000 PS=1.0000", 4/float64(n+2), 2/float64(n)),
		"csv":          "acc=0.0000 n=5 F1=0.0000 P=0.0000 R=0.0000 EM=0.0000 PS=0.0000",
		"typed_edges":  fmt.Sprintf("acc=0.0000 n=5 F1=%.4f P=%.4f R=1.0000 EM=0.0000 PS=1.0000", 2*float64(n)/float64(2*n+1), float64(n)/float64(n+1)),
	}
	for arm, w := range want {
		a := overall(t, rep, "m-1", arm)
		c := a.Credit
		if c == nil {
			t.Errorf("%s: no credit", arm)
			continue
		}
		got := fmt.Sprintf("acc=%.4f n=%d F1=%.4f P=%.4f R=%.4f EM=%.4f PS=%.4f", a.Accuracy, c.N, c.F1, c.Precision, c.Recall, c.ExactMatch, c.ParseSuccess)
		if got != w {
			t.Errorf("%s: %s, want %s", arm, got, w)
		}
	}
	// Owners are scored separately: the partial answer's owner pairs are
	// all right but some are missing.
	for _, r := range readRecords(t, runDir) {
		owners := r.Partial.Fields[impact.FieldOwners]
		if r.Arm == "compact_json" && (owners.F1 <= 0 || owners.F1 >= 1 || owners.ExactMatch || owners.Matched != 2 || owners.Predicted != 2) {
			t.Errorf("owners credit of the partial answer %+v", owners)
		}
		if r.Arm == "jsonl" && (owners.F1 != 1 || !owners.ExactMatch || math.IsNaN(r.Partial.F1)) {
			t.Errorf("owners credit of gold %+v", owners)
		}
	}
	for _, a := range rep.Arms {
		if a.Isomorphic != 1 || a.Contexts != 1 {
			t.Errorf("arm row %+v", a)
		}
	}
	if !strings.Contains(readFile(t, dir, ReadmeFile), "## What deviates from the paper") {
		t.Error("README lacks its deviations")
	}
}
