package fromrdf

import (
	"bytes"
	gocontext "context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
	"github.com/isolda/isolda/rdf/ntriples"
)

// unorderedJSON is the JSON text of v with the elements of every array
// sorted by their own canonical text, except the values of @list (whose
// order matters), and object keys sorted (as encoding/json does): equal
// texts for JSON-LD documents that differ only in the order of unordered
// arrays.
func unorderedJSON(v any, list bool) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = unorderedJSON(e, false)
		}
		if !list {
			slices.Sort(parts)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := slices.Sorted(mapKeys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			parts[i] = string(kb) + ":" + unorderedJSON(x[k], k == "@list")
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestConformanceFromRDF runs the W3C JSON-LD 1.1 fromRdf suite
// (fromRdf-manifest.jsonld) on this package's Serialize RDF as JSON-LD
// algorithm, with each test's options (useNativeTypes, useRdfType,
// rdfDirection, processing mode). Results are compared as JSON with
// unordered arrays (except @list values); negative tests expect the named
// error.
func TestConformanceFromRDF(t *testing.T) {
	dir := shared.MustPath(t, "conformance", "jsonld")
	data, err := os.ReadFile(filepath.Join(dir, "fromRdf-manifest.jsonld"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Sequence []struct {
			ID              string   `json:"@id"`
			Type            []string `json:"@type"`
			Input           string   `json:"input"`
			Expect          string   `json:"expect"`
			ExpectErrorCode string   `json:"expectErrorCode"`
			Option          struct {
				SpecVersion    string `json:"specVersion"`
				UseNativeTypes bool   `json:"useNativeTypes"`
				UseRdfType     bool   `json:"useRdfType"`
				RDFDirection   string `json:"rdfDirection"`
			} `json:"option"`
		} `json:"sequence"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	pass := 0
	for _, e := range m.Sequence {
		opts := Options{
			UseNativeTypes: e.Option.UseNativeTypes,
			UseRDFType:     e.Option.UseRdfType,
			RDFDirection:   e.Option.RDFDirection,
			JSONLiterals:   true,
			TypedLists:     true,
			JSONLD10:       e.Option.SpecVersion == "json-ld-1.0",
		}
		in, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Input)))
		if err != nil {
			t.Fatal(err)
		}
		d := rdf.NewDataset()
		if err := ntriples.Parse(bytes.NewReader(in), ntriples.NQuads, d, rdf.ReadOptions{File: e.Input}); err != nil {
			t.Errorf("%s: reading the input: %v", e.ID, err)
			continue
		}
		got, err := Convert(gocontext.Background(), d.Sorted(), opts)
		if slices.Contains(e.Type, "jld:NegativeEvaluationTest") {
			var je *ldproc.Error
			if !errors.As(err, &je) || je.Code != e.ExpectErrorCode {
				t.Errorf("%s: want error %q, got %v", e.ID, e.ExpectErrorCode, err)
				continue
			}
			pass++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		wantData, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Expect)))
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(wantData, &want); err != nil {
			t.Fatal(err)
		}
		// Through JSON, so that numbers compare as JSON numbers.
		gotData, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var gotJSON any
		if err := json.Unmarshal(gotData, &gotJSON); err != nil {
			t.Fatal(err)
		}
		if g, w := unorderedJSON(gotJSON, false), unorderedJSON(want, false); g != w {
			t.Errorf("%s:\n got: %s\nwant: %s", e.ID, g, w)
			continue
		}
		pass++
	}
	msg := fmt.Sprintf("jsonld fromRdf: %d tests: %d passed", len(m.Sequence), pass)
	t.Log(msg)
}
