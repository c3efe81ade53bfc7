package reporttest

import "fmt"

// Observation is the part of a report.Observation the shared fixtures
// set (reporttest cannot import report: report's own tests use it).
type Observation struct {
	Arm, Model, Family, Graph, QuestionID string
	Correct                               bool
	InputTokens, OutputTokens             int
}

// PaperRun builds observations with the discordant counts the ISOLDA paper
// reports for its confirmatory run (§5, criterion 3: isolda right only
// against b-ttl-ids right only, 257 questions per model) and for criterion
// 4 (outgoing aggregation with degree above 4: Gemma 4 E4B 15 against 1,
// Gemma 4 31B 3 against 13; multi-hop on Gemma 4 E4B 0 against 34).
// b-json and b-ttl answer nothing right, so b-ttl-ids is the best baseline.
func PaperRun() []Observation {
	type seg struct {
		family      string
		count       int
		iRight, bOK bool
	}
	const n = 257
	models := map[string][]seg{
		"gemma-4-31b": {{"outgoing_aggregation_deg_gt4", 3, true, false}, {"outgoing_aggregation_deg_gt4", 13, false, true},
			{"lookup", 7, true, false}, {"lookup", 69, false, true}},
		"gemma-4-e4b": {{"outgoing_aggregation_deg_gt4", 15, true, false}, {"outgoing_aggregation_deg_gt4", 1, false, true},
			{"multi_hop", 34, false, true}, {"lookup", 16, true, false}, {"lookup", 32, false, true}},
		"qwen3-4b":    {{"lookup", 22, true, false}, {"lookup", 45, false, true}},
		"qwen3.8-27b": {{"lookup", 11, true, false}, {"lookup", 45, false, true}},
	}
	var obs []Observation
	for _, m := range []string{"gemma-4-31b", "gemma-4-e4b", "qwen3-4b", "qwen3.8-27b"} {
		segs := models[m]
		used := 0
		for _, s := range segs {
			used += s.count
		}
		segs = append(segs, seg{"incoming_aggregation", n - used, true, true})
		q := 0
		for _, s := range segs {
			for range s.count {
				q++
				graph := "dcat"
				if q%2 == 0 {
					graph = "municipalities"
				}
				id := fmt.Sprintf("q%03d", q)
				add := func(arm string, ok bool, tok int) {
					obs = append(obs, Observation{Arm: arm, Model: m, Family: s.family, Graph: graph, QuestionID: id, Correct: ok, InputTokens: tok})
				}
				add("isolda-0.1", s.iRight, 700)
				add("b-ttl-ids", s.bOK, 1000)
				add("b-json", false, 900)
				add("b-ttl", false, 800)
			}
		}
	}
	return obs
}

// Small builds the synthetic set used by several tests: model m, graph g,
// ten questions q01..q10 (q01-q05 family f1, q06-q10 family f2).
// Arm A is right on q01-q08 (8/10), arm B on q01-q04 and q09 (5/10), arm C
// on q01-q09 (9/10). Input tokens: A 100, B 200, C 150 (+ question number,
// to give a spread); output tokens 5.
func Small() []Observation {
	var obs []Observation
	right := map[string]func(int) bool{
		"A": func(i int) bool { return i <= 8 },
		"B": func(i int) bool { return i <= 4 || i == 9 },
		"C": func(i int) bool { return i <= 9 },
	}
	tokens := map[string]int{"A": 100, "B": 200, "C": 150}
	for _, arm := range []string{"C", "B", "A"} { // unsorted on purpose
		for i := 1; i <= 10; i++ {
			fam := "f1"
			if i > 5 {
				fam = "f2"
			}
			obs = append(obs, Observation{Arm: arm, Model: "m", Family: fam, Graph: "g", QuestionID: fmt.Sprintf("q%02d", i),
				Correct: right[arm](i), InputTokens: tokens[arm] + i, OutputTokens: 5})
		}
	}
	return obs
}
