package testgraph

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/graph"
)

// The material of the hostile labelled graphs: whole identifiers, type and
// relation names, and atoms to join into more ('|', tabs, line breaks,
// backslashes, quotes, arrows, commas, brackets, markup, NUL, separators
// and characters beyond the BMP). "\xff" is not UTF-8.
var (
	labelWords = []string{"a|b", "tab\there", "new\nline", `back\slash`, `qu"ote`, "x->y", "c,d", "ünï☃", "plain",
		"sp ace", "#hash", "E|x|y|z", "N", "", "[x]", "{y}"}
	typeWords     = []string{"T|1", "Type two", "ex:Class"}
	relationWords = []string{"parentOf", "child,of", "a->b", "r|s"}
	labelAtoms    = []string{"a", "b", "Z9", "|", "\t", "\n", "\r", "\\", "\"", "'", "->", "--", "-[", "]-", ",", ", ",
		" ", "ü", "日本", "\u200b", "\u2028", "\x00", "\x7f", "\xff", "[", "]", "(", ")", "#", ":", "**", "`", "=", ";",
		"{", "}", "\\s", "\\0", "0", "-1.5", "N0", "node", "graph", "#quot;", "<br>", "x7c", "\U0001F600"}
)

// LabelledOptions chooses what a hostile labelled graph holds.
type LabelledOptions struct {
	// NotUTF8 lets identifiers hold bytes that are not UTF-8 (formats
	// that check refuse them).
	NotUTF8 bool
}

// Labelled generates a labelled graph, directed or not, with hostile ids,
// labels, types and relation names, empty and duplicate ids (with their
// labels), self-loops, orphan edges (an end with no node record) and
// parallel edges.
func Labelled(c Chooser, o LabelledOptions) *graph.Graph {
	word := func(words []string, allowEmpty bool) string {
		for {
			var s string
			if c.IntN(2) == 0 {
				s = pick(c, words)
			} else {
				var b strings.Builder
				for range c.IntN(4) {
					b.WriteString(pick(c, labelAtoms))
				}
				s = b.String()
			}
			if (s != "" || allowEmpty) && (o.NotUTF8 || utf8.ValidString(s)) {
				return s
			}
		}
	}
	g := &graph.Graph{Directed: c.IntN(2) == 0}
	n := c.IntN(16)
	for range n {
		nd := graph.Node{ID: word(labelWords, true)}
		if c.IntN(2) == 0 {
			nd.Label = word(labelWords, false)
		}
		for range c.IntN(3) {
			nd.Types = append(nd.Types, word(typeWords, true))
		}
		g.Nodes = append(g.Nodes, nd)
	}
	switch {
	case n > 1 && c.IntN(3) == 0:
		g.Nodes[1].ID, g.Nodes[1].Label = g.Nodes[0].ID, g.Nodes[0].Label // duplicate id
	case n > 0 && c.IntN(3) == 0:
		g.Nodes = append(g.Nodes, g.Nodes[0]) // duplicate record
	}
	end := func() string {
		switch {
		case n == 0 || c.IntN(8) == 0:
			return word(labelWords, true) // orphan end
		case c.IntN(8) == 0:
			return "orphan|" + strconv.Itoa(c.IntN(3))
		}
		return g.Nodes[c.IntN(n)].ID
	}
	for range c.IntN(14) {
		e := graph.Edge{From: end(), To: end()}
		if c.IntN(4) != 0 {
			e.Type = word(relationWords, false)
		}
		if c.IntN(6) == 0 {
			e.To = e.From // self-loop
		}
		g.Edges = append(g.Edges, e)
		if c.IntN(8) == 0 {
			g.Edges = append(g.Edges, e) // parallel edge
		}
	}
	return g
}
