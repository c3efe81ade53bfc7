// Package oracle holds what tests that compare against an independent
// oracle share: exhaustive second implementations of graph algorithms on
// adjacency matrices of a few nodes (Floyd–Warshall distances, the
// enumeration of every simple path), slow on purpose and written for plain
// correctness, and a Tally of the checks made. The product never uses it.
package oracle

import (
	"math"
	"slices"
)

// Distances returns the hop distances of the adjacency matrix m (m[u][v]:
// an edge u -> v; symmetric for an undirected graph) by Floyd–Warshall:
// d[u][u] is 0 and d[u][v] is -1 where v cannot be reached from u.
func Distances(m [][]bool) [][]int {
	const inf = math.MaxInt32
	n := len(m)
	d := make([][]int, n)
	for i := range d {
		d[i] = make([]int, n)
		for j := range d[i] {
			switch {
			case i == j:
				d[i][j] = 0
			case m[i][j]:
				d[i][j] = 1
			default:
				d[i][j] = inf
			}
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if d[i][k] < inf && d[k][j] < inf && d[i][k]+d[k][j] < d[i][j] {
					d[i][j] = d[i][k] + d[k][j]
				}
			}
		}
	}
	for i := range d {
		for j := range d[i] {
			if d[i][j] == inf {
				d[i][j] = -1
			}
		}
	}
	return d
}

// SimplePaths returns every simple path (no node twice) from s to t along
// the adjacency matrix m, each as its node sequence from s to t, sorted by
// (length, node sequence). The path from s to itself is [s].
func SimplePaths(m [][]bool, s, t int) [][]int {
	var out [][]int
	on := make([]bool, len(m))
	var dfs func(path []int)
	dfs = func(path []int) {
		u := path[len(path)-1]
		if u == t {
			out = append(out, slices.Clone(path))
			return
		}
		for v := range m[u] {
			if m[u][v] && !on[v] {
				on[v] = true
				dfs(append(path, v))
				on[v] = false
			}
		}
	}
	on[s] = true
	dfs([]int{s})
	slices.SortFunc(out, func(x, y []int) int {
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		return slices.Compare(x, y)
	})
	return out
}
