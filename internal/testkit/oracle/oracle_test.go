package oracle

import (
	"fmt"
	"testing"
)

// matrix builds an adjacency matrix of n nodes from edges u -> v.
func matrix(n int, directed bool, edges ...[2]int) [][]bool {
	m := make([][]bool, n)
	for i := range m {
		m[i] = make([]bool, n)
	}
	for _, e := range edges {
		m[e[0]][e[1]] = true
		if !directed {
			m[e[1]][e[0]] = true
		}
	}
	return m
}

// TestDistances: the directed path 0 -> 1 -> 2 -> 3 plus the chord
// 0 -> 2 and a node 4 with only a self-loop, worked out by hand.
func TestDistances(t *testing.T) {
	m := matrix(5, true, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{0, 2}, [2]int{4, 4})
	want := "[[0 1 1 2 -1] [-1 0 1 2 -1] [-1 -1 0 1 -1] [-1 -1 -1 0 -1] [-1 -1 -1 -1 0]]"
	if got := fmt.Sprint(Distances(m)); got != want {
		t.Errorf("Distances = %s, want %s", got, want)
	}
}

// TestSimplePaths: on the undirected 4-cycle 0-1-2-3-0 with the chord 0-2,
// the simple paths from 0 to 2 counted by hand: the chord and the two of
// length 2, in (length, sequence) order.
func TestSimplePaths(t *testing.T) {
	m := matrix(4, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 0}, [2]int{0, 2})
	want := "[[0 2] [0 1 2] [0 3 2]]"
	if got := fmt.Sprint(SimplePaths(m, 0, 2)); got != want {
		t.Errorf("SimplePaths(0, 2) = %s, want %s", got, want)
	}
	if got := fmt.Sprint(SimplePaths(m, 1, 1)); got != "[[1]]" {
		t.Errorf("SimplePaths(1, 1) = %s, want [[1]]", got)
	}
	if got := SimplePaths(matrix(3, true, [2]int{0, 1}), 1, 0); len(got) != 0 {
		t.Errorf("SimplePaths against the edge = %v, want none", got)
	}
}

// recorder keeps what a Tally reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestTally counts three checks, one failed, reported with its message.
func TestTally(t *testing.T) {
	r := &recorder{TB: t}
	c := NewTally(r)
	c.Check(true, "not reported")
	c.Check(1+1 == 3, "sum %d", 2)
	c.Check(true, "not reported")
	if c.Checks != 3 || c.Fails != 1 || fmt.Sprint(r.errs) != "[sum 2]" {
		t.Errorf("checks %d, fails %d, reported %q", c.Checks, c.Fails, r.errs)
	}
}
