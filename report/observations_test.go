package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

func TestReadObservations(t *testing.T) {
	src := `{"arm":"I","model":"m","family":"lookup","graph":"g","question_id":"q1","correct":true,"input_tokens":10,"output_tokens":2}

{"arm":"B","model":"m","family":"lookup","graph":"g","question_id":"q1","trial":1,"correct":false,"score":0.5}
`
	obs, err := ReadObservations(strings.NewReader(src), "o.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Observation{
		{Arm: "I", Model: "m", Family: "lookup", Graph: "g", QuestionID: "q1", Correct: true, InputTokens: 10, OutputTokens: 2},
		{Arm: "B", Model: "m", Family: "lookup", Graph: "g", QuestionID: "q1", Trial: 1, Score: 0.5},
	}
	if len(obs) != 2 || obs[0] != want[0] || obs[1] != want[1] {
		t.Errorf("got %+v", obs)
	}
	for _, tc := range []struct {
		name, src  string
		line       int
		limitError bool
	}{
		{"syntax", "{\"arm\":\"I\",\"model\":\"m\",\"question_id\":\"q\"}\n{\"arm\": x}\n", 2, false},
		{"unknown field", `{"arm":"I","model":"m","question_id":"q","bogus":1}`, 1, false},
		{"missing arm", `{"model":"m","question_id":"q"}`, 1, false},
		{"negative", `{"arm":"I","model":"m","question_id":"q","input_tokens":-1}`, 1, false},
		{"two values", `{"arm":"I","model":"m","question_id":"q"} {}`, 1, false},
		{"limit", strings.Repeat("{\"arm\":\"I\",\"model\":\"m\",\"question_id\":\"q\"}\n", 3), 3, true},
		{"long line", strings.Repeat(" ", maxObservationLine+1), 1, true},
	} {
		_, err := ReadObservations(strings.NewReader(tc.src), "o.jsonl", 2)
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v is not a ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || errors.Is(err, rdf.ErrLimit) != tc.limitError {
			t.Errorf("%s: %v, want line %d, limit %t", tc.name, err, tc.line, tc.limitError)
		}
		if tc.name == "syntax" && pe.Column != 9 { // the x of {"arm": x}
			t.Errorf("syntax error at column %d, want 9", pe.Column)
		}
	}
}
