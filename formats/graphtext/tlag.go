package graphtext

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/internal/py"
)

// TLAGNames returns the node-name list a tlag_* encoder uses (encoder is
// the name without the tlag_ prefix; graphqa/name_dictionaries.py), or nil.
// Each call returns a new slice.
//
// The "random" encoder's names are fixed: name_dictionaries seeds Python's
// random with 1234 at import and the random encoder's dictionary is the
// only one that draws, so they are always the first 20 values of
// str(random.randint(0, 1000000)) after random.seed(1234) (CPython 3.11).
func TLAGNames(encoder string) []string {
	switch encoder {
	case "adjacency", "incident":
		return []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"}
	case "friendship", "social_network", "coauthorship":
		return []string{"James", "Robert", "John", "Michael", "David", "Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "William", "Richard", "Joseph", "Thomas", "Christopher", "Barbara", "Susan", "Jessica", "Sarah", "Karen"}
	case "south_park":
		return []string{"Eric", "Kenny", "Kyle", "Stan", "Tolkien", "Heidi", "Bebe", "Liane", "Sharon", "Linda", "Gerald", "Veronica", "Michael", "Jimbo", "Herbert", "Malcolm", "Gary", "Steve", "Chris", "Wendy"}
	case "got":
		return []string{"Ned", "Cat", "Daenerys", "Jon", "Bran", "Sansa", "Arya", "Cersei", "Jaime", "Petyr", "Robert", "Jorah", "Viserys", "Joffrey", "Maester", "Theon", "Rodrik", "Lysa", "Stannis", "Osha"}
	case "politician":
		return []string{"Barack", "Jimmy", "Arnold", "Bernie", "Bill", "Kamala", "Hillary", "Elizabeth", "John", "Ben", "Joe", "Alexandria", "George", "Nancy", "Pete", "Madeleine", "Elijah", "Gabrielle", "Al"}
	case "expert":
		return []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U"}
	case "random":
		return []string{"815965", "462141", "122526", "7855", "95046", "955227", "988319", "984894", "846203", "610509", "36622", "704185", "726754", "88015", "103202", "803713", "371862", "248313", "18274", "32310"}
	}
	return nil
}

// nxGraph mirrors a networkx Graph or DiGraph built by adding the graph's
// nodes, then its edges, in order: nodes are numbered in insertion order
// (endpoints of orphan edges are appended as add_edge does), and each
// node's neighbours keep their first-insertion order.
type nxGraph struct {
	ids      []string
	directed bool
	adj      [][]int // successors (directed) or neighbours (undirected)
	has      []map[int]bool
}

func newNX(g *graph.Graph) *nxGraph {
	x := &nxGraph{directed: g.Directed}
	index := make(map[string]int, len(g.Nodes))
	node := func(id string) int {
		if i, ok := index[id]; ok {
			return i
		}
		i := len(x.ids)
		index[id] = i
		x.ids = append(x.ids, id)
		x.adj = append(x.adj, nil)
		x.has = append(x.has, nil)
		return i
	}
	for _, n := range g.Nodes {
		node(n.ID)
	}
	link := func(u, v int) {
		if x.has[u] == nil {
			x.has[u] = map[int]bool{}
		}
		if !x.has[u][v] {
			x.has[u][v] = true
			x.adj[u] = append(x.adj[u], v)
		}
	}
	for _, e := range g.Edges {
		u, v := node(e.From), node(e.To)
		link(u, v)
		if !x.directed {
			link(v, u)
		}
	}
	return x
}

// edges returns networkx's edges() order: for each node in order, its
// neighbours in insertion order; an undirected edge is reported once, from
// the node that comes first.
func (x *nxGraph) edges() [][2]int {
	var out [][2]int
	seen := make([]bool, len(x.ids))
	for u, nbrs := range x.adj {
		for _, v := range nbrs {
			if x.directed || !seen[v] {
				out = append(out, [2]int{u, v})
			}
		}
		seen[u] = true
	}
	return out
}

func (x *nxGraph) names(list string, opts Options) ([]string, error) {
	if opts.UseIDs {
		return x.ids, nil
	}
	names := opts.Names
	if names == nil {
		names = TLAGNames(list)
	}
	if len(x.ids) > len(names) {
		return nil, fmt.Errorf("graphtext: the %s name list has %d names, the graph %d nodes", list, len(names), len(x.ids))
	}
	return names, nil
}

// nodeString is create_node_string: "a, b, and c"; one node gives "and a".
func nodeString(names []string, n int) (string, error) {
	if n == 0 {
		return "", errors.New("graphtext: the Talk-like-a-Graph encoders need at least one node")
	}
	var sb strings.Builder
	for i := 0; i < n-1; i++ {
		sb.WriteString(names[i])
		sb.WriteString(", ")
	}
	sb.WriteString("and ")
	sb.WriteString(names[n-1])
	return sb.String(), nil
}

func tlagPrep(g *graph.Graph, list string, opts Options, undirectedOnly string) (*nxGraph, []string, string, error) {
	x := newNX(g)
	if undirectedOnly != "" && x.directed {
		return nil, nil, "", fmt.Errorf("graphtext: %s encoder is not defined for directed graphs", undirectedOnly)
	}
	names, err := x.names(list, opts)
	if err != nil {
		return nil, nil, "", err
	}
	ns, err := nodeString(names, len(x.ids))
	return x, names, ns, err
}

func tlagAdjacencyWith(list string) func(w *bufio.Writer, g *graph.Graph, opts Options) error {
	return func(w *bufio.Writer, g *graph.Graph, opts Options) error {
		x, names, ns, err := tlagPrep(g, list, opts, "")
		if err != nil {
			return err
		}
		var sb strings.Builder
		if x.directed {
			sb.WriteString("In a directed graph, (i,j) means that there is an edge from node i to node j. ")
		} else {
			sb.WriteString("In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. ")
		}
		fmt.Fprintf(&sb, "G describes a graph among nodes %s.\n", ns)
		writeEdges(&sb, x, names, "The edges in G are: ", "(%s, %s) ")
		w.WriteString(py.Strip(sb.String()))
		w.WriteString(".\n")
		return nil
	}
}

func tlagIncident(w *bufio.Writer, g *graph.Graph, opts Options) error {
	x, names, ns, err := tlagPrep(g, "incident", opts, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "G describes a graph among nodes %s.\n", ns)
	if len(x.edges()) > 0 {
		w.WriteString("In this graph:\n")
	}
	for u, nbrs := range x.adj {
		// The head is the raw node (its id); the targets go through the
		// name list, as in the source.
		switch {
		case len(nbrs) > 1:
			fmt.Fprintf(w, "Node %s is connected to nodes ", x.ids[u])
			for i, v := range nbrs {
				if i > 0 {
					w.WriteString(", ")
				}
				w.WriteString(names[v])
			}
			w.WriteString(".\n")
		case len(nbrs) == 1:
			fmt.Fprintf(w, "Node %s is connected to node %s.\n", x.ids[u], names[nbrs[0]])
		}
	}
	return nil
}

func tlagFriendship(list string) func(w *bufio.Writer, g *graph.Graph, opts Options) error {
	return tlagLines(list, "Friendship", "G describes a friendship graph among nodes %s.\n",
		"We have the following edges in G:\n", "%s and %s are friends.\n")
}

func tlagSocial(list string) func(w *bufio.Writer, g *graph.Graph, opts Options) error {
	return tlagLines(list, "Social network", "G describes a social network graph among nodes %s.\n",
		"We have the following edges in G:\n", "%s and %s are connected.\n")
}

// tlagLines is the encoder that writes head (with the node string), then,
// when there are edges, intro and one line per edge (line with the two
// names). undirectedOnly names an encoder that refuses directed graphs.
func tlagLines(list, undirectedOnly, head, intro, line string) func(w *bufio.Writer, g *graph.Graph, opts Options) error {
	return func(w *bufio.Writer, g *graph.Graph, opts Options) error {
		x, names, ns, err := tlagPrep(g, list, opts, undirectedOnly)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, head, py.Strip(ns))
		writeEdges(w, x, names, intro, line)
		return nil
	}
}

// writeEdges writes, when x has edges, intro and then one line per edge
// (line with the names of its two ends).
func writeEdges(w io.Writer, x *nxGraph, names []string, intro, line string) {
	es := x.edges()
	if len(es) > 0 {
		io.WriteString(w, intro)
	}
	for _, e := range es {
		fmt.Fprintf(w, line, names[e[0]], names[e[1]])
	}
}

func tlagCoauthorship(w *bufio.Writer, g *graph.Graph, opts Options) error {
	x, names, ns, err := tlagPrep(g, "coauthorship", opts, "Coauthorship")
	if err != nil {
		return err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "G describes a coauthorship graph among nodes %s.\n", py.Strip(ns))
	writeEdges(&sb, x, names, "In this coauthorship graph:\n", "%s and %s wrote a paper together.\n")
	// output.strip() + ".\n": the last line ends in "..".
	w.WriteString(py.Strip(sb.String()))
	w.WriteString(".\n")
	return nil
}

// tlagExpert is the expert encoder (directed graphs too).
func tlagExpert(w *bufio.Writer, g *graph.Graph, opts Options) error {
	return tlagLines("expert", "", "You are a graph analyst and you have been given a graph G among nodes %s.\n",
		"G has the following undirected edges:\n", "%s -> %s\n")(w, g, opts)
}
