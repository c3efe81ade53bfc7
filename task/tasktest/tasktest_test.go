package tasktest

import (
	"reflect"
	"testing"

	"github.com/isolda/isolda/task"
)

// TestRoundTrip: a set with a context and two questions reads back whole.
func TestRoundTrip(t *testing.T) {
	s := &task.Set{
		Name: "t", Seed: 7,
		Contexts: []task.Context{{ID: "g", SHA1: task.SHA1Hex("g")}},
		Questions: []task.Question{
			{ID: "q1", Family: "lookup", Task: "lookup", Text: "Who?", ContextID: "g", Gold: task.Answer{Text: "Ann", Kind: task.KindText, Value: "Ann"}},
			{ID: "q2", Family: "count", Task: "count", Text: "How many?", ContextID: "g", Gold: task.Answer{Text: "2", Kind: task.KindInt, Value: "2"}},
		},
	}
	back := RoundTrip(t, s)
	if back.Name != "t" || back.Seed != 7 || len(back.Contexts) != 1 || len(back.Questions) != 2 ||
		!reflect.DeepEqual(back.Questions[1].Gold, s.Questions[1].Gold) || back.Questions[0].Text != "Who?" {
		t.Errorf("read back %+v", back)
	}
}
