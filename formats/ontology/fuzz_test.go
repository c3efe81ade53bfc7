package ontology

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// FuzzLoad: Load must not panic, must report bad input as an
// *rdf.ParseError, and every format must encode what it accepts.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"7_company_ontology.json", "16_city_ontology.json"} {
		if data, err := os.ReadFile(filepath.Join(shared.MustPath(f, "data", "text2kgbench", "ontologies"), name)); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(`{"concepts":[{"qid":"a","label":"a b"}],"relations":[{"pid":"p","label":"p","domain":"","range":"x|y"}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		o, err := Load(strings.NewReader(in), "fuzz.json")
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		for _, name := range Names() {
			if err := Encode(new(strings.Builder), o, name); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
