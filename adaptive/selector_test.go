package adaptive

import (
	"strings"
	"testing"
)

func TestParseChainAccepts(t *testing.T) {
	cases := []struct {
		reply        string
		delta, score int
	}{
		{"TASK_NEEDS: count the nodes of the largest clique.\nRENDERING: the adjacency list shows each neighbourhood.\nPRIOR_DELTA: +12\nSCORE: 85", 12, 85},
		{"\n  TASK_NEEDS: x\n\nRENDERING: y  \nPRIOR_DELTA: -40\nSCORE: 0\n\n", -40, 0},
		{"TASK_NEEDS:a\nRENDERING:b\nPRIOR_DELTA:40\nSCORE:100", 40, 100},
		{"TASK_NEEDS: a\r\nRENDERING: b\r\nPRIOR_DELTA: 0\r\nSCORE: 007", 0, 7},
	}
	for _, c := range cases {
		ch, err := ParseChain(c.reply)
		if err != nil {
			t.Errorf("%q: %v", c.reply, err)
			continue
		}
		if ch.PriorDelta != c.delta || ch.Score != c.score || ch.TaskNeeds == "" || ch.Rendering == "" {
			t.Errorf("%q: got %+v", c.reply, ch)
		}
	}
}

func TestParseChainRejects(t *testing.T) {
	ok := []string{"TASK_NEEDS: a", "RENDERING: b", "PRIOR_DELTA: 5", "SCORE: 50"}
	with := func(i int, line string) string {
		l := append([]string(nil), ok...)
		l[i] = line
		return strings.Join(l, "\n")
	}
	cases := []struct{ reply, want string }{
		{"", "TASK_NEEDS missing"},
		{"TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: 5", "SCORE missing"},
		{"TASK_NEEDS: a\nPRIOR_DELTA: 5\nSCORE: 50", "RENDERING missing"},
		{strings.Join(ok, "\n") + "\nSCORE: 60", "5 lines"},
		{"Here is my analysis.\n" + strings.Join(ok, "\n"), "5 lines"},
		{with(0, "TASK_NEEDS:   "), "empty TASK_NEEDS"},
		{with(1, "RENDERING:"), "empty RENDERING"},
		{with(2, "PRIOR_DELTA: 41"), "PRIOR_DELTA"},
		{with(2, "PRIOR_DELTA: -41"), "PRIOR_DELTA"},
		{with(2, "PRIOR_DELTA: +5 points"), "PRIOR_DELTA"},
		{with(2, "PRIOR_DELTA: 5.0"), "PRIOR_DELTA"},
		{with(2, "PRIOR_DELTA: ++5"), "PRIOR_DELTA"},
		{with(2, "PRIOR_DELTA: 99999999999999999999"), "PRIOR_DELTA"},
		{with(3, "SCORE: 101"), "SCORE"},
		{with(3, "SCORE: -1"), "SCORE"},
		{with(3, "SCORE: +50"), "SCORE"},
		{with(3, "SCORE: 85/100"), "SCORE"},
		{with(3, "SCORE: "), "SCORE"},
		{with(3, "score: 50"), "line 4 is not SCORE"},
		{with(3, "**SCORE:** 50"), "line 4 is not SCORE"},
		{with(0, "1. TASK_NEEDS: a"), "line 1 is not TASK_NEEDS"},
		{"RENDERING: b\nTASK_NEEDS: a\nPRIOR_DELTA: 5\nSCORE: 50", "line 1 is not TASK_NEEDS"},
		{strings.Repeat("x", MaxChainBytes+1), "longer than"},
	}
	for _, c := range cases {
		_, err := ParseChain(c.reply)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: error %v, want one containing %q", c.reply, err, c.want)
		}
	}
}

func FuzzParseChain(f *testing.F) {
	f.Add("TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: -3\nSCORE: 50")
	f.Add("TASK_NEEDS: a\nRENDERING: b\nPRIOR_DELTA: +40\nSCORE: 100\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseChain(s)
		if err != nil {
			return
		}
		if c.PriorDelta < -MaxPriorDelta || c.PriorDelta > MaxPriorDelta || c.Score < 0 || c.Score > MaxScore || c.TaskNeeds == "" || c.Rendering == "" {
			t.Fatalf("accepted out of range chain %+v from %q", c, s)
		}
	})
}

func slateOf(priors ...float64) []Candidate {
	out := make([]Candidate, len(priors))
	for i, p := range priors {
		out[i] = Candidate{Format: string(rune('a' + i)), Prior: p}
	}
	return out
}

func scores(s ...int) []Scored {
	out := make([]Scored, len(s))
	for i, v := range s {
		out[i] = Scored{OK: v >= 0, Score: max(v, 0)}
	}
	return out
}

func TestBandRule(t *testing.T) {
	sl := slateOf(0.5, 0.6, 0.7, 0.2, 0.9)
	b := NewBand(5)
	type step struct {
		scores   []Scored
		idx      int
		band     []int
		fallback bool
		next     int
	}
	steps := []step{
		// A clear winner: the band holds only it; the counter stays.
		{scores(60, 70, 50, 90, 40), 3, []int{3}, false, 0},
		// Top 80 shared by 0 and 3, 78 within 5: band by score then slate
		// position; counter 0 picks the first.
		{scores(80, 78, 10, 80, 20), 0, []int{0, 3, 1}, false, 1},
		// Two at 80: counter 1 picks the second.
		{scores(80, 80, 0, 0, 0), 1, []int{0, 1}, false, 2},
		// Every reply rejected: the highest prior (0.9, index 4) decides
		// and the counter stays.
		{scores(-1, -1, -1, -1, -1), 4, nil, true, 2},
		// Rejected candidates never enter the band, even at the top.
		{scores(-1, -1, 0, 60, 55), 3, []int{3, 4}, false, 3},
		// Exactly b below the top is in; b+1 is out.
		{scores(100, 95, 94, 0, 0), 1, []int{0, 1}, false, 4},
		// A band of three with the counter at 4: 4 mod 3 = 1.
		{scores(50, 50, 50, 0, 0), 1, []int{0, 1, 2}, false, 5},
	}
	for i, s := range steps {
		idx, band, fb := b.Choose(s.scores, sl)
		if idx != s.idx || fb != s.fallback || b.Next() != s.next || !equalInts(band, s.band) {
			t.Errorf("step %d: got idx %d band %v fallback %v next %d; want %d %v %v %d", i, idx, band, fb, b.Next(), s.idx, s.band, s.fallback, s.next)
		}
	}
}

func TestBandZeroOnlyExactTies(t *testing.T) {
	sl := slateOf(0.1, 0.1, 0.1)
	b := NewBand(0)
	if idx, band, _ := b.Choose(scores(70, 69, 0), sl); idx != 0 || len(band) != 1 {
		t.Fatalf("b=0 with 70 vs 69: idx %d band %v", idx, band)
	}
	got := []int{}
	for range 4 {
		idx, _, _ := b.Choose(scores(70, 70, 70), sl)
		got = append(got, idx)
	}
	if !equalInts(got, []int{0, 1, 2, 0}) {
		t.Fatalf("round-robin over an exact three-way tie: %v", got)
	}
	// Equal priors on fallback: the first in slate order.
	if idx, _, fb := b.Choose(scores(-1, -1, -1), sl); idx != 0 || !fb {
		t.Fatalf("fallback with equal priors: %d %v", idx, fb)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBestOnTest(t *testing.T) {
	in := []FormatCount{{"a", 3}, {"b", 5}, {"c", 5}, {"d", 0}}
	got := BestOnTest(in)
	want := []FormatCount{{"b", 5}, {"c", 5}, {"a", 3}, {"d", 0}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("BestOnTest: %v, want %v", got, want)
		}
	}
	if in[0].Format != "a" {
		t.Fatal("BestOnTest changed its input")
	}
}
