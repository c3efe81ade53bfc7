package jsonld

import (
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/piprate/json-gold/ld"
)

// This file holds the test oracle for dataset isomorphism: json-gold's own
// N-Quads parser and its URDNA2015 canonicalization (byte-identical to
// rdf-canonize, see /work/shared/reference/go-deps.md). It is independent of
// this package's conversion code. (rdf/canon and rdf/ntriples, written by
// other engineers, did not exist yet when this was written.)

// toLD converts quads to a json-gold dataset.
func toLD(quads []rdf.Quad) *ld.RDFDataset {
	ds := ld.NewRDFDataset()
	for _, q := range quads {
		gname := "@default"
		switch q.G.Kind {
		case rdf.IRIKind:
			gname = q.G.Value
		case rdf.BlankKind:
			gname = "_:" + q.G.Value
		}
		lq := ld.NewQuad(toLDNode(q.S), toLDNode(q.P), toLDNode(q.O), gname)
		ds.Graphs[gname] = append(ds.Graphs[gname], lq)
	}
	return ds
}

func toLDNode(t rdf.Term) ld.Node {
	switch t.Kind {
	case rdf.IRIKind:
		return ld.NewIRI(t.Value)
	case rdf.BlankKind:
		return ld.NewBlankNode("_:" + t.Value)
	}
	return ld.NewLiteral(t.Value, t.Datatype, t.Lang)
}

func fromLDNode(n ld.Node) rdf.Term {
	switch x := n.(type) {
	case ld.IRI:
		return rdf.NewIRI(x.Value)
	case ld.BlankNode:
		return rdf.NewBlank(strings.TrimPrefix(x.Attribute, "_:"))
	case ld.Literal:
		if x.Language != "" {
			return rdf.NewLangString(x.Value, x.Language)
		}
		return rdf.NewLiteral(x.Value, x.Datatype)
	}
	return rdf.Term{}
}

// canonical returns the URDNA2015 canonical N-Quads of a json-gold dataset,
// one sorted line per quad.
func canonical(ds *ld.RDFDataset) string {
	na := ld.NewNormalisationAlgorithm(ld.AlgorithmURDNA2015)
	na.Normalize(ds)
	lines := make([]string, 0, len(na.Quads()))
	for _, q := range na.Quads() {
		rq := rdf.Quad{S: fromLDNode(q.Subject), P: fromLDNode(q.Predicate), O: fromLDNode(q.Object)}
		if q.Graph != nil {
			rq.G = fromLDNode(q.Graph)
		}
		lines = append(lines, rq.String())
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	return strings.Join(lines, "\n")
}

// canonicalQuads is canonical for our quads.
func canonicalQuads(quads []rdf.Quad) string { return canonical(toLD(quads)) }

// canonicalNQuads is canonical for an N-Quads document.
func canonicalNQuads(text string) (string, error) {
	ds, err := ld.ParseNQuads(text)
	if err != nil {
		return "", err
	}
	return canonical(ds), nil
}
