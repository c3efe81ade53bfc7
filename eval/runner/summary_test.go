package runner

import (
	"strings"
	"testing"
)

func TestSummaryNoAnswers(t *testing.T) {
	var b strings.Builder
	if err := WriteSummary(&b, []Cell{{Arm: "a", Model: "m", Failures: 3}, {Arm: "b", Model: "m", Answered: 2, Correct: 1, Accuracy: 0.5}}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "a    m      0         0        no answers  3") || !strings.Contains(out, "0.500") || strings.Contains(out, "0.000 ") {
		t.Errorf("summary:\n%s", out)
	}
}
