package formats_test

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
)

// probeDataset has one fact of each kind the lossy formats drop: a literal
// attribute (a birth date), node ids (n4471, n5582: IRIs whose local names
// appear nowhere else), a node type, labels, and a named graph.
func probeDataset() *rdf.Dataset {
	d := rdf.NewDataset()
	ex, s := "http://example.org/", "http://schema.org/"
	alice, bob := rdf.NewIRI(ex+"n4471"), rdf.NewIRI(ex+"n5582")
	d.AddTriple(alice, rdf.NewIRI(rdf.RDFType), rdf.NewIRI(s+"Person"))
	d.AddTriple(alice, rdf.NewIRI(s+"name"), rdf.NewString("Alice"))
	d.AddTriple(bob, rdf.NewIRI(s+"name"), rdf.NewString("Bob"))
	d.AddTriple(alice, rdf.NewIRI(s+"birthDate"), rdf.NewLiteral("1990-05-17", rdf.XSD+"date"))
	d.AddTriple(alice, rdf.NewIRI(s+"knows"), bob)
	d.Add(rdf.Quad{S: bob, P: rdf.NewIRI(s + "knows"), O: alice, G: rdf.NewIRI(ex + "g7731")})
	return d
}

// Each format that is lossy with respect to RDF drops what its Loses says:
// checked on concrete facts whose text cannot be found in the output.
func TestLossy(t *testing.T) {
	d := probeDataset()
	checked := 0
	for _, f := range formats.All() {
		if f.Input == formats.InputRDF && f.Loses == "" {
			continue
		}
		text, err := formats.EncodeString(f.Name, formats.NewInput(d))
		if strings.Contains(f.Loses, "named graphs cannot be written") {
			// ntriples, turtle, rdfxml: the dataset has a named graph.
			if err == nil {
				t.Errorf("%s: a dataset with a named graph is written", f.Name)
			}
			checked++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		absent := map[string]string{}
		if strings.Contains(f.Loses, "literal-valued triples") {
			absent["1990-05-17"] = "the literal attribute schema:birthDate"
		}
		if strings.Contains(f.Loses, "named graphs (merged)") {
			absent["g7731"] = "the graph name"
		}
		if strings.Contains(f.Loses, "node ids (entities are named by label)") {
			absent["n4471"] = "the node id"
		}
		l := f.Loses
		if strings.HasPrefix(l, "types") || strings.Contains(l, ", types") || strings.Contains(l, "node types") {
			absent["Person"] = "the node type"
		}
		if strings.HasPrefix(l, "labels") || strings.HasPrefix(l, "node labels") || strings.Contains(l, ", labels") {
			absent["Alice"] = "the node label"
		}
		if len(absent) == 0 {
			t.Errorf("%s: no probe for what it loses: %q", f.Name, f.Loses)
			continue
		}
		for probe, what := range absent {
			if strings.Contains(text, probe) {
				t.Errorf("%s: Loses says %q, but %s (%q) is in the text:\n%s", f.Name, f.Loses, what, probe, text)
			}
		}
		checked++
	}
	t.Logf("lossy formats checked: %d", checked)
}
