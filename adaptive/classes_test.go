package adaptive

import (
	"testing"

	"github.com/isolda/isolda/formats"
)

// TestClassOfTable checks the slate classes the registry declares against
// the table ClassOf held before they moved into formats.Format.Slate.
func TestClassOfTable(t *testing.T) {
	want := map[string]Class{}
	for _, n := range []string{"adjacency", "edge_list", "structured", "relation_indexed", "text2kgbench",
		"study_toon", "toon_spec", "markdown_table", "mermaid", "dot"} {
		want[n] = Compact
	}
	for _, n := range []string{"study_turtle", "study_jsonld", "shacl_lite"} {
		want[n] = Semantic
	}
	for _, n := range append(formats.Names(), "no-such-format") {
		w, ok := want[n]
		if !ok {
			w = Other
		}
		if got := ClassOf(n); got != w {
			t.Errorf("ClassOf(%q) = %s, want %s", n, got, w)
		}
		delete(want, n)
	}
	for n := range want {
		t.Errorf("%s is not in the registry", n)
	}
}
