package graphqa

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// TaskNodeClassification is Talk like a Graph's node_classification task.
const TaskNodeClassification = "node_classification"

// NodeClassificationClasses are the classes node_classification draws two
// of, once per encoder.
func NodeClassificationClasses() []string {
	return []string{"soccer", "baseball", "tennis", "golf", "football", "surfing"}
}

// NodeClassification builds one node_classification question as Talk like a
// Graph describes it (benchmarks.md §2.1 and §2.3): a 2-block SBM graph with
// n = random.choice(np.arange(5, 20)) and blocks [n//2, n//2], p_in =
// U(0.6, 0.8), p_out = U(0, 0.05); two classes drawn from
// NodeClassificationClasses, one per block; n//2 random nodes are told with
// "Node X likes <class>.\n", then "Q: Does node %s like %s or %s?\nA: " is
// asked about a node not told. The answer is the class name without a
// period.
//
// Assumptions where the description is silent: the told nodes are
// random.sample(nodes, n//2), the asked node is random.choice of the
// others, the classes are random.sample(classes, 2) with the first for block
// 0, the question names the two classes in that order, and p_in, p_out and
// the edges are drawn from np in that order (pairs in combinations order). The returned prompt part (the
// "likes" lines and the question) goes after the graph's text.
func NodeClassification(pr *py.Rand, np py.Source, names []string) (*GenGraph, TaskQuestion, error) {
	n := 5 + pr.Below(15)
	half := n / 2
	total := 2 * half
	pIn := 0.6 + 0.2*np.Random()
	pOut := 0.05 * np.Random()
	g := newGenGraph(GenSBM, total)
	g.Params["sizes"] = fmt.Sprint([]int{half, half})
	for u := 0; u < total; u++ {
		for v := u + 1; v < total; v++ {
			p := pOut
			if (u < half) == (v < half) {
				p = pIn
			}
			if np.Random() < p {
				g.addEdge(u, v)
			}
		}
	}
	classes, err := py.Sample(pr, NodeClassificationClasses(), 2)
	if err != nil {
		return nil, TaskQuestion{}, err
	}
	told, err := pr.SampleIndices(total, half)
	if err != nil {
		return nil, TaskQuestion{}, err
	}
	isTold := make([]bool, total)
	var b strings.Builder
	classOf := func(v int) string {
		if v < half {
			return classes[0]
		}
		return classes[1]
	}
	for _, v := range told {
		isTold[v] = true
		fmt.Fprintf(&b, "Node %s likes %s.\n", nodeName(names, v), classOf(v))
	}
	var rest []int
	for v := 0; v < total; v++ {
		if !isTold[v] {
			rest = append(rest, v)
		}
	}
	asked, err := py.Choice(pr, rest)
	if err != nil {
		return nil, TaskQuestion{}, err
	}
	q := fmt.Sprintf("Does node %s like %s or %s?", nodeName(names, asked), classes[0], classes[1])
	b.WriteString("Q: " + q + "\nA: ")
	c := classOf(asked)
	return g, TaskQuestion{Text: b.String(), StudyText: q, Gold: task.Answer{Text: c, Kind: task.KindText, Value: c}}, nil
}
