package canon_test

import (
	"fmt"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// The diamond of the rdf-canon suite's test020; the expected output is the
// suite's test020-rdfc10.nq.
func ExampleCanonicalize() {
	v := "http://example.org/vocab#"
	d := rdf.NewDataset()
	d.AddTriple(rdf.NewIRI(v+"test"), rdf.NewIRI(v+"A"), rdf.NewBlank("e0"))
	d.AddTriple(rdf.NewIRI(v+"test"), rdf.NewIRI(v+"B"), rdf.NewBlank("e1"))
	d.AddTriple(rdf.NewBlank("e0"), rdf.NewIRI(v+"next"), rdf.NewBlank("e2"))
	d.AddTriple(rdf.NewBlank("e1"), rdf.NewIRI(v+"next"), rdf.NewBlank("e2"))
	res, err := canon.Canonicalize(d, canon.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(res.NQuads)
	fmt.Println(res.Issued["e0"], res.Issued["e1"], res.Issued["e2"])
	// Output:
	// <http://example.org/vocab#test> <http://example.org/vocab#A> _:c14n2 .
	// <http://example.org/vocab#test> <http://example.org/vocab#B> _:c14n0 .
	// _:c14n0 <http://example.org/vocab#next> _:c14n1 .
	// _:c14n2 <http://example.org/vocab#next> _:c14n1 .
	// c14n2 c14n0 c14n1
}

func ExampleIsomorphic() {
	p := rdf.NewIRI("http://example.org/p")
	ring := func(names ...string) *rdf.Dataset {
		d := rdf.NewDataset()
		for i, n := range names {
			d.AddTriple(rdf.NewBlank(n), p, rdf.NewBlank(names[(i+1)%len(names)]))
		}
		return d
	}
	a := ring("a", "b", "c")
	b := ring("x", "z", "y")
	c := ring("a", "b")
	ab, _ := canon.Isomorphic(a, b)
	ac, _ := canon.Isomorphic(a, c)
	fmt.Println(ab, ac)
	// Output: true false
}
