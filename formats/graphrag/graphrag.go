// Package graphrag reproduces the GraphRAG serialization article
// (../shared/spec/002_20b823f74d856c24.txt): its synthetic service-dependency
// graph, bit for bit the same as its reference program for the same
// parameters (the generator draws with Python's random.Random through
// internal/py); its three gold traversal queries; its five lossless
// formats pretty_json, compact_json, jsonl, csv and typed_edges, each with an
// encoder producing exactly the reference program's text and a strict decoder
// that reports malformed input as *rdf.ParseError with line and column; the
// typed_edges variant with a versioned dictionary of relation and type codes
// that the article recommends; and the reference program's JSON report.
package graphrag

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/isolda/isolda/internal/py"
)

// Node is a node record: an identifier and a type.
type Node struct {
	ID   string
	Type string
}

// Edge is a directed, typed edge record.
type Edge struct {
	Source   string
	Relation string
	Target   string
}

// Graph is a list of node and edge records, in the order they are
// serialized. Records may repeat and edges may name nodes that have no node
// record (orphan edges), exactly as the formats allow.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// CompareNodes orders nodes by (ID, Type), as the reference program's
// sorted() does on its Node dataclass.
func CompareNodes(a, b Node) int {
	if c := cmp.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.Type, b.Type)
}

// CompareEdges orders edges by (Source, Relation, Target).
func CompareEdges(a, b Edge) int {
	if c := cmp.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Relation, b.Relation); c != 0 {
		return c
	}
	return cmp.Compare(a.Target, b.Target)
}

// Canonical returns the graph's canonical form, the reference program's
// canonical(): nodes and edges sorted, duplicates kept. Two graphs round-trip
// equal when their canonical forms are Equal. The input is not modified.
func Canonical(g Graph) Graph {
	c := Graph{Nodes: slices.Clone(g.Nodes), Edges: slices.Clone(g.Edges)}
	slices.SortFunc(c.Nodes, CompareNodes)
	slices.SortFunc(c.Edges, CompareEdges)
	return c
}

// Equal reports whether a and b have the same canonical form.
func Equal(a, b Graph) bool {
	ca, cb := Canonical(a), Canonical(b)
	return slices.Equal(ca.Nodes, cb.Nodes) && slices.Equal(ca.Edges, cb.Edges)
}

// Relation and type names of the synthetic graph.
const (
	DependsOn = "depends_on"
	OwnedBy   = "owned_by"
	Service   = "service"
	Team      = "team"
	Database  = "database"
)

// maxServices bounds Generate's work; the article's sweeps go to 500 and the
// bench issue to 100,000.
const maxServices = 10_000_000

// Generate returns the reference program's make_graph(services, noiseEdges,
// seed): the seven fixed nodes and eight fixed edges, services-4 noise
// services named svc-noise-NNNN, and up to noiseEdges random depends_on edges
// between services drawn with random.Random(seed).choice, giving up after
// noiseEdges*50+100 attempts. Nodes and edges come out sorted. It returns an
// error when services or noiseEdges exceed ten million.
func Generate(services, noiseEdges int, seed int64) (Graph, error) {
	if services > maxServices || noiseEdges > maxServices {
		return Graph{}, fmt.Errorf("graphrag: services and noise edges are limited to %d", maxServices)
	}
	rng := py.NewRand(seed)
	nodes := []Node{
		{"db-identity", Database},
		{"team-core", Team},
		{"team-growth", Team},
		{"svc-web", Service},
		{"svc-api", Service},
		{"svc-auth", Service},
		{"svc-profile", Service},
	}
	edges := []Edge{
		{"svc-web", DependsOn, "svc-api"},
		{"svc-api", DependsOn, "svc-auth"},
		{"svc-profile", DependsOn, "svc-auth"},
		{"svc-auth", DependsOn, "db-identity"},
		{"svc-web", OwnedBy, "team-growth"},
		{"svc-api", OwnedBy, "team-core"},
		{"svc-auth", OwnedBy, "team-core"},
		{"svc-profile", OwnedBy, "team-growth"},
	}
	for i := 0; i < services-4; i++ {
		nodes = append(nodes, Node{fmt.Sprintf("svc-noise-%04d", i), Service})
	}
	var all []string
	for _, n := range nodes {
		if n.Type == Service {
			all = append(all, n.ID)
		}
	}
	existing := make(map[Edge]struct{}, len(edges)+max(noiseEdges, 0))
	for _, e := range edges {
		existing[e] = struct{}{}
	}
	want := len(edges) + noiseEdges
	limit := noiseEdges*50 + 100
	for attempts := 0; len(existing) < want && attempts < limit; attempts++ {
		source := all[rng.Below(len(all))]
		target := all[rng.Below(len(all))]
		if source != target {
			existing[Edge{source, DependsOn, target}] = struct{}{}
		}
	}
	out := make([]Edge, 0, len(existing))
	for e := range existing {
		out = append(out, e)
	}
	slices.SortFunc(out, CompareEdges)
	slices.SortFunc(nodes, CompareNodes)
	return Graph{Nodes: nodes, Edges: out}, nil
}

// ReachableDependencies returns the nodes reachable from start over at most
// maxHops depends_on edges (start itself excluded), sorted: the reference
// program's reachable_dependencies.
func ReachableDependencies(edges []Edge, start string, maxHops int) []string {
	adj := map[string][]string{}
	for _, e := range edges {
		if e.Relation == DependsOn {
			adj[e.Source] = append(adj[e.Source], e.Target)
		}
	}
	type item struct {
		node string
		dist int
	}
	seen := map[string]bool{start: true}
	queue := []item{{start, 0}}
	answer := []string{}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.dist == maxHops {
			continue
		}
		for _, t := range adj[it.node] {
			if !seen[t] {
				seen[t] = true
				answer = append(answer, t)
				queue = append(queue, item{t, it.dist + 1})
			}
		}
	}
	slices.Sort(answer)
	return answer
}

// AffectedServices returns the services that transitively depend on failed
// (following depends_on edges in reverse), sorted: the reference program's
// affected_services.
func AffectedServices(nodes []Node, edges []Edge, failed string) []string {
	reverse := map[string][]string{}
	for _, e := range edges {
		if e.Relation == DependsOn {
			reverse[e.Target] = append(reverse[e.Target], e.Source)
		}
	}
	services := map[string]bool{}
	for _, n := range nodes {
		if n.Type == Service {
			services[n.ID] = true
		}
	}
	seen := map[string]bool{failed: true}
	queue := []string{failed}
	affected := []string{}
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		for _, c := range reverse[node] {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
				if services[c] {
					affected = append(affected, c)
				}
			}
		}
	}
	slices.Sort(affected)
	return affected
}

// OwnersOf maps each of services to the sorted, deduplicated targets of its
// owned_by edges (an empty list when it has none): the reference program's
// owners_of.
func OwnersOf(services []string, edges []Edge) map[string][]string {
	out := make(map[string][]string, len(services))
	for _, s := range services {
		out[s] = []string{}
	}
	for _, e := range edges {
		if owners, ok := out[e.Source]; ok && e.Relation == OwnedBy && !slices.Contains(owners, e.Target) {
			out[e.Source] = append(owners, e.Target)
		}
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// GoldQueries holds the answers to the article's three traversal queries.
type GoldQueries struct {
	APIDependencies3Hops            []string            `json:"api_dependencies_3_hops"`
	IdentityFailureAffectedServices []string            `json:"identity_failure_affected_services"`
	OwnersOfAffectedServices        map[string][]string `json:"owners_of_affected_services"`
}

// QuerySuite answers the article's three queries on g: the dependencies of
// svc-api within three hops, the services affected by a failure of
// db-identity, and the owners of those services.
func QuerySuite(g Graph) GoldQueries {
	affected := AffectedServices(g.Nodes, g.Edges, "db-identity")
	return GoldQueries{
		APIDependencies3Hops:            ReachableDependencies(g.Edges, "svc-api", 3),
		IdentityFailureAffectedServices: affected,
		OwnersOfAffectedServices:        OwnersOf(affected, g.Edges),
	}
}

// QueryChecks says, per query, whether a decoded graph's answer equals the
// gold answer.
type QueryChecks struct {
	APIDependencies3Hops            bool `json:"api_dependencies_3_hops"`
	IdentityFailureAffectedServices bool `json:"identity_failure_affected_services"`
	OwnersOfAffectedServices        bool `json:"owners_of_affected_services"`
}

// Check compares got with the gold answers q.
func (q GoldQueries) Check(got GoldQueries) QueryChecks {
	owners := len(q.OwnersOfAffectedServices) == len(got.OwnersOfAffectedServices)
	if owners {
		for k, v := range q.OwnersOfAffectedServices {
			w, ok := got.OwnersOfAffectedServices[k]
			if !ok || !slices.Equal(v, w) {
				owners = false
				break
			}
		}
	}
	return QueryChecks{
		APIDependencies3Hops:            slices.Equal(q.APIDependencies3Hops, got.APIDependencies3Hops),
		IdentityFailureAffectedServices: slices.Equal(q.IdentityFailureAffectedServices, got.IdentityFailureAffectedServices),
		OwnersOfAffectedServices:        owners,
	}
}

// Accuracy is the fraction of passed checks.
func (c QueryChecks) Accuracy() float64 {
	n := 0
	for _, ok := range []bool{c.APIDependencies3Hops, c.IdentityFailureAffectedServices, c.OwnersOfAffectedServices} {
		if ok {
			n++
		}
	}
	return float64(n) / 3
}
