package main

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestSampleCLI: the demo graph's three people (Ada, Charles, Mary in IRI
// order) cut to a budget between the sizes of one and two units: one unit
// is written, stderr gives the sizes of both prefixes and they agree with
// the formats' own encodings counted again here.
func TestSampleCLI(t *testing.T) {
	tok := testgraph.O200k(t)
	code, out, errs := runCLI(t, "", "sample", "--unit", "schema:Person", "--budget", "230", "--formats", "b-ttl,isolda", "-t", "ntriples")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "sample: 1 of 3 units of <http://schema.org/Person> fit 230 o200k_base tokens") {
		t.Errorf("stderr:\n%s", errs)
	}
	d := rdftest.Read(t, out, rdfio.Options{Format: rdfio.NTriples})
	ada := rdf.Quad{S: rdf.NewIRI("https://example.org/ada"), P: rdf.NewIRI("http://schema.org/name"), O: rdf.NewString("Ada Lovelace")}
	if !d.Has(ada) || strings.Contains(out, "Charles") || strings.Contains(out, "Mary") {
		t.Errorf("the sample is not Ada's unit:\n%s", out)
	}
	for _, f := range []string{"b-ttl", "isolda"} {
		text, err := formats.EncodeString(f, formats.NewInput(d))
		if err != nil {
			t.Fatal(err)
		}
		if n := tok.Count(text); n > 230 || !strings.Contains(errs, f) {
			t.Errorf("%s: %d tokens\n%s", f, n, errs)
		}
	}
	if !strings.Contains(errs, "with 2 units") {
		t.Errorf("no size of the next prefix:\n%s", errs)
	}
	for _, args := range [][]string{
		{"sample", "--budget", "300"},
		{"sample", "--unit", "schema:Person", "--budget", "0"},
		{"sample", "--unit", "schema:Person", "--formats", "nope"},
		{"sample", "--unit", "nope:Thing"},
		{"sample", "--unit", "schema:Person", "--budget", "10"},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}
