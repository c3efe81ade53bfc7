package yamlguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/isolda/isolda/rdf/rdferr"
)

func TestDeepRefused(t *testing.T) {
	var block, dashes, mixed strings.Builder
	for i := range 100 {
		block.WriteString(strings.Repeat("  ", i) + "k:\n")
		dashes.WriteString("- ")
		mixed.WriteString(strings.Repeat("  ", i/2) + "- {a: [")
		mixed.WriteString("\n")
	}
	cases := map[string]string{
		"flow-seq":      strings.Repeat("[", 100000),
		"flow-map":      "a: " + strings.Repeat("{b: ", 100),
		"block":         block.String(),
		"dashes":        dashes.String() + "x\n",
		"mixed":         mixed.String(),
		"json":          strings.Repeat(`{"a":`, 65) + "1" + strings.Repeat("}", 65),
		"after-comment": "# [[[[\n" + strings.Repeat("[", 65),
	}
	for name, doc := range cases {
		err := Check([]byte(doc), "x.yaml")
		var pe *rdferr.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, rdferr.ErrLimit) || pe.Line < 1 || pe.Column < 1 {
			t.Errorf("%s: got %v, want a depth error with a position", name, err)
		}
	}
	err := Check([]byte(strings.Repeat("[", 100)), "x.yaml")
	if want := "x.yaml:1:64: YAML nested deeper than 64 levels"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestShallowAccepted: what looks deep but is not (quoted scalars, block
// scalars, comments, plain scalars with brackets) passes.
func TestShallowAccepted(t *testing.T) {
	deep := strings.Repeat("[", 200)
	docs := map[string]string{
		"double":       "a: \"" + deep + "\"\n",
		"single":       "a: '" + deep + "'\n",
		"single-esc":   "a: 'it''s " + deep + "'\n",
		"multi-quote":  "a: \"x\n  " + deep + "\n  y\"\nb: 1\n",
		"block-lit":    "p: |\n  " + deep + "\n  {{{{\nq: 2\n",
		"block-folded": "- >-\n   " + deep + "\n- x\n",
		"comment":      "a: 1 # " + deep + "\n",
		"plain":        "a: foo" + deep + "\n",
		"flow-ok":      strings.Repeat("[", 60) + strings.Repeat("]", 60),
		"block-ok":     "a:\n  b:\n    - c: [1, {d: 2}]\n",
	}
	for name, doc := range docs {
		if err := Check([]byte(doc), "x.yaml"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var v any
		if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
			t.Errorf("%s: not valid YAML: %v", name, err)
		}
	}
}

// TestRepositoryYAML: every YAML file of the repository passes.
func TestRepositoryYAML(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if err := Check(data, p); err != nil && !strings.Contains(p, "deep") {
			t.Error(err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Errorf("only %d YAML files found", n)
	}
}

// TestBombCheap: the check of 200 KB of "[" allocates only its error.
func TestBombCheap(t *testing.T) {
	doc := []byte(strings.Repeat("[", 200000))
	if a := testing.AllocsPerRun(5, func() { _ = Check(doc, "x") }); a > 3 {
		t.Errorf("%v allocations", a)
	}
	shallow := []byte(strings.Repeat("a: [1, 2, {b: c}]\n", 20000))
	if a := testing.AllocsPerRun(5, func() { _ = Check(shallow, "x") }); a != 0 {
		t.Errorf("%v allocations on a shallow document", a)
	}
}
