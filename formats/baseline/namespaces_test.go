package baseline_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestNamespacesSpecExample reads the first example of docs/SPEC.md, the
// paper's Listing 1 (examples.Listing1); its ISOLDA text there declares
// "@vocab http://schema.org/" and "@prefix xv: https://xaviviro.com/#".
func TestNamespacesSpecExample(t *testing.T) {
	d := rdftest.Read(t, examples.Listing1(), rdfio.Options{Format: rdfio.Turtle})
	vocab, prefixes, err := baseline.Namespaces(d)
	if err != nil {
		t.Fatal(err)
	}
	if vocab != "http://schema.org/" || !slices.Equal(prefixes, []rdf.Prefix{{Name: "xv", IRI: "https://xaviviro.com/#"}}) {
		t.Errorf("Namespaces = %q, %v; the spec's ISOLDA text has @vocab http://schema.org/ and @prefix xv", vocab, prefixes)
	}
	var ttl, js bytes.Buffer
	if err := baseline.Encode(&ttl, d, baseline.TTL); err != nil {
		t.Fatal(err)
	}
	if want := "@prefix : <http://schema.org/> .\n@prefix xv: <https://xaviviro.com/#> .\n\n"; !strings.HasPrefix(ttl.String(), want) {
		t.Errorf("b-ttl starts\n%.200s\nwant\n%s", ttl.String(), want)
	}
	if err := baseline.Encode(&js, d, baseline.JSON); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"@context\": {\n    \"@vocab\": \"http://schema.org/\",\n    \"xv\": \"https://xaviviro.com/#\"\n  },\n"
	if !strings.HasPrefix(js.String(), want) {
		t.Errorf("b-json starts\n%.200s\nwant\n%s", js.String(), want)
	}
	// Every node but xv:me is referenced once: b-json nests them all, and
	// the single top-level node shares the document object with @context.
	if !strings.Contains(js.String(), "  },\n  \"@id\": \"xv:me\",\n  \"@type\": \"Person\",\n") ||
		strings.Contains(js.String(), "@graph") || strings.Count(js.String(), "\"@id\"") != 7 {
		t.Errorf("b-json does not nest every node under xv:me:\n%s", js.String())
	}
}
