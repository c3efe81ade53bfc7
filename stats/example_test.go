package stats_test

import (
	"fmt"

	"github.com/isolda/isolda/stats"
)

// Newcombe (1998), Table I: 81 successes out of 263.
func ExampleWilson() {
	iv, err := stats.Wilson(81, 263, 0.95)
	if err != nil {
		panic(err)
	}
	fmt.Println(iv)
	// Output: [0.2553, 0.3662]
}

// Two discordant pairs one way and eight the other: 2·(1+10+45)/2¹⁰.
func ExampleMcNemarExact() {
	fmt.Println(stats.McNemarExact(2, 8), stats.McNemarMidP(2, 8)*1024)
	// Output: 0.109375 67
}

func ExampleParetoFront() {
	arms := []string{"turtle", "isolda", "json-ld", "ntriples"}
	pts := []stats.Point{{Tokens: 900, Accuracy: 0.71}, {Tokens: 520, Accuracy: 0.72}, {Tokens: 1400, Accuracy: 0.74}, {Tokens: 1600, Accuracy: 0.70}}
	for _, i := range stats.ParetoFront(pts) {
		fmt.Println(arms[i])
	}
	// Output:
	// isolda
	// json-ld
}
