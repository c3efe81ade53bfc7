package study

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/sample"
)

// bigCatalogue writes a DCAT catalogue of n datasets sharing five
// publishers, each with its own distribution (a blank node).
func bigCatalogue(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("@prefix dcat: <http://www.w3.org/ns/dcat#> .\n@prefix dct: <http://purl.org/dc/terms/> .\n@prefix ex: <http://ex.org/> .\n")
	for p := range 5 {
		fmt.Fprintf(&b, "ex:pub%d a ex:Agency ; dct:title \"Agency %d\" .\n", p, p)
	}
	for i := range n {
		fmt.Fprintf(&b, "ex:ds%04d a dcat:Dataset ; dct:title \"Dataset number %d\" ; dct:description \"Counts of things observed in district %d during year %d.\" ; "+
			"dct:publisher ex:pub%d ; dcat:keyword \"kw%d\", \"stats\" ; dcat:distribution [ a dcat:Distribution ; dcat:mediaType \"text/csv\" ; dcat:downloadURL <http://ex.org/files/%d.csv> ] .\n",
			i, i, i%40, 2000+i%25, i%5, i%13, i)
	}
	p := filepath.Join(t.TempDir(), "dcat.ttl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInitCutsToBudget: a DCAT graph over 20,000 o200k tokens is cut to the
// longest prefix of datasets that fits, the one package sample gives;
// init says so; a graph within the budget is used whole.
func TestInitCutsToBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes a 30,000-token graph a dozen times")
	}
	src := bigCatalogue(t, 400)
	mun := filepath.Join(t.TempDir(), "m.ttl")
	lex, err := examples.Read(lexeme)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mun, lex, 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	dir := filepath.Join(t.TempDir(), "conf")
	if _, err := Init("isolda-confirmatory", dir, Options{Data: map[string]string{"dcat": src, "municipalities": mun},
		Notes: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "Data dcat") || !strings.Contains(notes[0], "of its 400 units") {
		t.Fatalf("notes %q", notes)
	}
	// The oracle: package sample on the original file.
	d := rdftest.ReadFile(t, src, rdfio.Options{})
	u, err := sample.Split(d, "http://www.w3.org/ns/dcat#Dataset")
	if err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	res, err := u.Cut(sample.Options{Budget: SampleBudget, Formats: confirmatorySampleFormats(), Tokenizer: tok})
	if err != nil {
		t.Fatal(err)
	}
	if res.Units < 100 || res.Units >= 400 || !strings.Contains(notes[0], fmt.Sprintf("the first %d of its 400 units", res.Units)) {
		t.Errorf("cut to %d units; note %q", res.Units, notes[0])
	}
	got := rdftest.ReadFile(t, filepath.Join(dir, "data", "dcat.sample.nq"), rdfio.Options{})
	if iso, err := canon.Isomorphic(got, res.Sample); err != nil || !iso {
		t.Errorf("data/dcat.sample.nq is not the sample (%v)", err)
	}
	readme := readFile(t, dir, ReadmeFile)
	if !strings.Contains(readme, notes[0]) || !strings.Contains(readme, "Data municipalities") || !strings.Contains(readme, "so it is used whole") {
		t.Errorf("README does not say what was done to the data")
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "municipalities.ttl")); err != nil {
		t.Errorf("municipalities not used whole: %v", err)
	}
}
