package graphrag_test

import (
	"fmt"

	"github.com/isolda/isolda/formats/graphrag"
)

// The article's default synthetic graph and its typed_edges text.
func Example() {
	g, err := graphrag.Generate(40, 80, 7)
	if err != nil {
		panic(err)
	}
	text, err := graphrag.EncodeString(graphrag.TypedEdges, g)
	if err != nil {
		panic(err)
	}
	gold := graphrag.QuerySuite(g)
	fmt.Println(len(g.Nodes), "nodes,", len(g.Edges), "edges,", len(text), "bytes of typed_edges")
	fmt.Println(text[:50])
	fmt.Println("affected by db-identity:", len(gold.IdentityFailureAffectedServices))
	// Output:
	// 43 nodes, 88 edges, 4671 bytes of typed_edges
	// #graph-v1
	// N|db-identity|database
	// N|svc-api|service
	// affected by db-identity: 35
}
