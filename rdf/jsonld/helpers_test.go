package jsonld

import (
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
)

// This file holds the test oracle for dataset isomorphism: the project's
// own N-Quads reader (rdf/ntriples, W3C N-Quads 87/87) and canonical blank
// node labelling (rdf/canon). Both are independent of this package's
// conversion code.

// canonicalQuads returns quads as sorted N-Quads lines with canonical blank
// node labels, so that two datasets are isomorphic exactly when their
// canonical forms are equal.
func canonicalQuads(quads []rdf.Quad) string {
	d := rdf.NewDataset()
	for _, q := range quads {
		if err := d.AddQuad(q); err != nil {
			return "error: " + err.Error()
		}
	}
	labels, err := canon.Labels(d)
	if err != nil {
		return "error: " + err.Error()
	}
	relabel := func(t rdf.Term) rdf.Term {
		if t.IsBlank() {
			return rdf.NewBlank(labels[t])
		}
		return t
	}
	lines := make([]string, 0, d.Len())
	for _, q := range d.Quads() {
		rq := rdf.Quad{S: relabel(q.S), P: relabel(q.P), O: relabel(q.O), G: relabel(q.G)}
		lines = append(lines, rq.String())
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	return strings.Join(lines, "\n")
}

// blankPredicateIRI stands for a blank node predicate while rdf/ntriples
// reads generalized RDF (which N-Quads cannot express).
const blankPredicateIRI = "urn:x-isolda-test:blank-predicate:"

// canonicalNQuads is canonicalQuads for an N-Quads document. Generalized
// RDF with a blank node predicate (JSON-LD's produceGeneralizedRdf) is
// read too: such a predicate is replaced by a placeholder IRI for the
// reader and restored as a blank node afterwards.
func canonicalNQuads(text string) (string, error) {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) > 2 && strings.HasPrefix(f[1], "_:") && !strings.HasPrefix(f[0], "#") && !strings.HasPrefix(f[0], "<<") {
			lines[i] = strings.Replace(line, " "+f[1], " <"+blankPredicateIRI+f[1][2:]+">", 1)
		}
	}
	var quads []rdf.Quad
	sink := rdf.SinkFunc(func(q rdf.Quad) error {
		if label, ok := strings.CutPrefix(q.P.Value, blankPredicateIRI); ok && q.P.IsIRI() {
			q.P = rdf.NewBlank(label)
		}
		quads = append(quads, q)
		return nil
	})
	if err := ntriples.Parse(strings.NewReader(strings.Join(lines, "\n")), ntriples.NQuads, sink, rdf.ReadOptions{}); err != nil {
		return "", err
	}
	return canonicalQuads(quads), nil
}

// The oracle tells datasets apart up to blank node renaming, blank node
// predicates included.
func TestOracle(t *testing.T) {
	a := "<ex:n> _:p1 \"x\" .\n<ex:n> _:p2 \"x\" .\n_:s <ex:q> _:p1 <ex:g> .\n"
	renamed := "<ex:n> _:y \"x\" .\n_:z <ex:q> _:x <ex:g> .\n<ex:n> _:x \"x\" .\n"
	merged := "<ex:n> _:p1 \"x\" .\n<ex:n> _:p2 \"x\" .\n_:s <ex:q> _:p3 <ex:g> .\n"
	ca, err := canonicalNQuads(a)
	if err != nil {
		t.Fatal(err)
	}
	cr, err := canonicalNQuads(renamed)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := canonicalNQuads(merged)
	if err != nil {
		t.Fatal(err)
	}
	if ca != cr {
		t.Errorf("isomorphic datasets differ:\n%s\n%s", ca, cr)
	}
	if ca == cm {
		t.Errorf("different datasets are equal:\n%s", ca)
	}
}
