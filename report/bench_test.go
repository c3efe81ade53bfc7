package report

import (
	"encoding/json"
	"testing"

	"github.com/isolda/isolda/bench"
)

func TestRoundTripsFromBench(t *testing.T) {
	src := `{"tool":"isolda bench","results":[
 {"graph":"writers","format":"isolda","fidelity":"isomorphic","round_trip_equal":true},
 {"graph":"dcat","format":"isolda","fidelity":"differs","round_trip_equal":false},
 {"graph":"dcat","format":"b-json","fidelity":"isomorphic","round_trip_equal":true},
 {"graph":"dcat","format":"list_of_edges","fidelity":"equal","round_trip_equal":true},
 {"graph":"dcat","format":"toon","fidelity":"n/a","error":"cannot encode"}]}`
	var rep bench.Report
	if err := json.Unmarshal([]byte(src), &rep); err != nil {
		t.Fatal(err)
	}
	got := RoundTripsFromBench(&rep)
	want := []RoundTrip{{Arm: "b-json", Graph: "dcat", Isomorphic: true}, {Arm: "isolda", Graph: "dcat"}, {Arm: "isolda", Graph: "writers", Isomorphic: true}, {Arm: "list_of_edges", Graph: "dcat"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	res := evalYAML(t, "criteria:\n  - {id: W1, kind: lossless, arm: isolda, graphs: [writers]}\n  - {id: all, kind: lossless, arm: isolda}\n", Input{RoundTrips: got})
	if res[0].Outcome != Pass || res[1].Outcome != Fail {
		t.Errorf("lossless outcomes %s %s, want PASS FAIL", res[0].Outcome, res[1].Outcome)
	}
}
