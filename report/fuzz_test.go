package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/rdf"
)

// billionLaughs is a YAML alias bomb in fields the criteria language
// accepts: levels of all_of criteria, each with nine aliases of the level
// below (9^levels criteria once expanded).
func billionLaughs(levels int) string {
	var b strings.Builder
	b.WriteString("criteria:\n  - &c0 {id: c0, kind: manual}\n")
	for i := 1; i <= levels; i++ {
		p := fmt.Sprintf("*c%d", i-1)
		fmt.Fprintf(&b, "  - &c%d {id: c%d, kind: all_of, criteria: [%s%s]}\n", i, i, strings.Repeat(p+", ", 8), p)
	}
	return b.String()
}

func TestCriteriaAliasBomb(t *testing.T) {
	// 9^8 ≈ 43 million criteria once expanded: refused before the
	// expansion, which would allocate gigabytes (counted in bytes, not
	// seconds, so that a busy machine does not change the verdict).
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := ParseCriteria(strings.NewReader(billionLaughs(8)), "bomb.yaml")
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 16<<20 {
		t.Errorf("alias bomb: %d bytes allocated, want under 16 MiB", a)
	}
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("alias bomb: %v, want a limit error", err)
	}
	// Four levels (7,381 criteria) stay within the limit.
	if _, err := ParseCriteria(strings.NewReader(billionLaughs(4)), "small.yaml"); err != nil {
		t.Error(err)
	}
}

// FuzzParseCriteria checks that no criteria file makes parsing or
// evaluation panic or hang.
func FuzzParseCriteria(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("examples", "*.yaml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"criteria":[{"id":"a","kind":"any_of","criteria":[{"kind":"better","arm":"A","than":["B"],"per":"model_family"}]}]}`))
	f.Add([]byte("criteria:\n  - {id: t, kind: token_reduction, arm: A, than: [B, C], at_least: 0.2, per: model_graph}\n"))
	obs := small()
	f.Fuzz(func(t *testing.T, data []byte) {
		// A hang is a failure: crash the worker so that the input is kept.
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("hang on %q", data)) })
		defer watchdog.Stop()
		set, err := ParseCriteria(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		res, err := set.Evaluate(Input{Observations: obs, RoundTrips: []RoundTrip{{Arm: "A", Graph: "g", Isomorphic: true}}})
		if err != nil {
			t.Fatalf("validated set fails to evaluate: %v", err)
		}
		var b bytes.Buffer
		if err := WriteCriteriaMarkdown(&b, res); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzReadObservations checks that no observation file makes reading,
// building or rendering panic (page.FuzzPage renders the HTML page).
func FuzzReadObservations(f *testing.F) {
	f.Add([]byte(`{"arm":"I","model":"m","family":"f","graph":"g","question_id":"q1","correct":true,"input_tokens":10}
{"arm":"B","model":"m","family":"f","graph":"g","question_id":"q1","correct":false,"input_tokens":20}
{"arm":"B","model":"m","family":"f","graph":"g","question_id":"q1","trial":1,"correct":true,"input_tokens":20}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		obs, err := ReadObservations(bytes.NewReader(data), "fuzz", 200)
		if err != nil {
			return
		}
		r, err := Build(obs, Options{Resamples: 20})
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
	})
}
