package formats

import "testing"

// TestLookup checks the names people type against the registry names
// they mean: folded spellings, the default ISOLDA version, RDF syntax
// short names and aliases (from rdfio's table), and names that mean none.
func TestLookup(t *testing.T) {
	for name, want := range map[string]string{
		"isolda":          "isolda",
		"ISOLDA_0.3":      "isolda-0.3",
		"isolda-0.4":      "isolda",
		"ttl":             "turtle",
		"N-Quads":         "nquads",
		"json-ld-compact": "jsonld-compact",
		"compact-jsonld":  "jsonld-compact",
		" b_ttl_ids ":     "b-ttl-ids",
		"html":            "",
		"no-such-format":  "",
		"isolda-0.5":      "",
	} {
		f, ok := Lookup(name)
		if ok != (want != "") || f.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, f.Name, ok, want)
		}
	}
}
