package graphqa_test

import (
	"fmt"

	"github.com/isolda/isolda/task/graphqa"
)

// Generate a GraphQA-Hardened set and build the study's FINAL: prompt.
func ExampleGenerate() {
	set, err := graphqa.Generate(graphqa.Options{Regime: graphqa.RegimeHardened, Graphs: 1, Seed: 7,
		Tasks: []string{graphqa.TaskMaxCliqueSize}})
	if err != nil {
		panic(err)
	}
	q := set.Questions[0]
	_, user := graphqa.FinalPrompt(q, "<graph>")
	fmt.Println(user)
	fmt.Println(graphqa.ScoreFinal.Score(q, "...\nFINAL: "+q.Gold.Value).Rule)
	// Output:
	// You are given an undirected graph below. Answer the question in one integer. Show your reasoning, then write 'FINAL: <int>'.
	//
	// <graph>
	//
	// Question: How many nodes are in the largest clique of this graph?
	// final/first_integer
}
