package jsonld

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
)

// The expansion tests of the W3C JSON-LD 1.1 API suite (expand-manifest.
// jsonld): the expanded document is compared with the expected one as JSON
// with arrays unordered, except the arrays of @list, which are ordered.

// jsonLDEqual compares two expanded JSON-LD values.
func jsonLDEqual(a, b any, ordered bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonLDEqual(v, w, k == "@list") {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if ordered {
			for i := range x {
				if !jsonLDEqual(x[i], y[i], false) {
					return false
				}
			}
			return true
		}
		used := make([]bool, len(y))
	outer:
		for _, v := range x {
			for j, w := range y {
				if !used[j] && jsonLDEqual(v, w, false) {
					used[j] = true
					continue outer
				}
			}
			return false
		}
		return true
	default:
		return a == b
	}
}

// runExpandEntry runs one expansion test and returns "" when it passes.
func runExpandEntry(dir string, e manifestEntry) string {
	opts := Options{
		ReadOptions:    rdf.ReadOptions{File: e.Input, Base: testsBase + e.Input},
		Loader:         suiteLoader{dir},
		ProcessingMode: e.Option.ProcessingMode,
		DropInvalid:    true,
	}
	if e.Option.Base != "" {
		opts.Base = e.Option.Base
	}
	if e.Option.ExpandContext != "" {
		opts.ExpandContext = testsBase + e.Option.ExpandContext
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Input)))
	if err != nil {
		return err.Error()
	}
	doc, err := decodeJSONDoc(data)
	if err != nil {
		return err.Error()
	}
	st := newState(rdf.NewDataset(), opts)
	got, err := ldproc.New(env{st}, st.config()).Expand(doc, opts.Base, opts.ExpandContext)
	err = fromLD(err)
	if err == nil {
		err = st.err
	}
	if e.is("NegativeEvaluationTest") {
		return e.checkError(err)
	}
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	wantData, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Expect)))
	if err != nil {
		return err.Error()
	}
	want, err := decodeJSONDoc(wantData)
	if err != nil {
		return "cannot read expected result: " + err.Error()
	}
	if !jsonLDEqual(ldproc.ArrayOf(want), any(got), false) {
		return fmt.Sprintf("different expansion:\n got: %s\n want: %s", ldproc.ValueKey(got), ldproc.ValueKey(want))
	}
	return ""
}

func TestConformanceExpand(t *testing.T) {
	runSuite(t, "expand", "expand-manifest.jsonld", "ExpandTest", runExpandEntry)
}
