package canon

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

func ex(s string) rdf.Term { return rdf.NewIRI("http://example.org/" + s) }

// ttDataset builds: r reifies <<( inner p o )>>, and the labelled blank
// nodes carry the literals given.
func ttDataset(r, inner string, lits map[string]string, order []string) *rdf.Dataset {
	d := rdf.NewDataset()
	d.AddTriple(rdf.NewBlank(r), rdf.NewIRI(rdf.RDFReifies), rdf.NewTripleTerm(rdf.NewBlank(inner), ex("p"), ex("o")))
	for _, b := range order {
		d.AddTriple(rdf.NewBlank(b), ex("q"), rdf.NewString(lits[b]))
	}
	return d
}

// TestTripleTermIsomorphic checks that blank nodes inside triple terms are
// matched with the same blank nodes outside them.
func TestTripleTermIsomorphic(t *testing.T) {
	a := ttDataset("r", "b", map[string]string{"b": "x", "c": "y"}, []string{"b", "c"})
	renamed := ttDataset("z1", "z2", map[string]string{"z2": "x", "z3": "y"}, []string{"z3", "z2"})
	swapped := ttDataset("r", "c", map[string]string{"b": "x", "c": "y"}, []string{"b", "c"})
	fresh := ttDataset("r", "n", map[string]string{"b": "x", "c": "y"}, []string{"b", "c"})
	for _, tc := range []struct {
		name string
		b    *rdf.Dataset
		want bool
	}{
		{"renamed", renamed, true},
		{"inner blank node swapped", swapped, false},
		{"inner blank node fresh", fresh, false},
	} {
		got, err := Isomorphic(a, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: Isomorphic = %v, want %v", tc.name, got, tc.want)
		}
		ra, err := Canonicalize(a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rb, err := Canonicalize(tc.b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if (ra.NQuads == rb.NQuads) != tc.want {
			t.Errorf("%s: canonical forms equal = %v, want %v:\n%s\n%s", tc.name, ra.NQuads == rb.NQuads, tc.want, ra.NQuads, rb.NQuads)
		}
	}
}

// TestTripleTermCanonicalLabels checks that RDFC-1.0 gives a blank node
// inside a triple term the same canonical label as outside it, and that
// BlankOrder lists blank nodes found only inside triple terms.
func TestTripleTermCanonicalLabels(t *testing.T) {
	d := ttDataset("r", "b", map[string]string{"b": "x", "c": "y"}, []string{"b", "c"})
	// A blank node that occurs only inside a (nested) triple term.
	d.AddTriple(ex("s"), ex("p"), rdf.NewTripleTerm(ex("a"), ex("p"), rdf.NewTripleTerm(rdf.NewBlank("only"), ex("p"), rdf.NewString("z"))))
	res, err := Canonicalize(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issued) != 4 {
		t.Errorf("issued %d labels, want 4 (r, b, c, only): %v", len(res.Issued), res.Issued)
	}
	lb := res.Issued["b"]
	want := "<<( _:" + lb + " <http://example.org/p> <http://example.org/o> )>>"
	if !strings.Contains(res.NQuads, "_:"+lb+" <http://example.org/q> \"x\" .\n") || !strings.Contains(res.NQuads, want) {
		t.Errorf("blank node b (%s) not relabelled consistently:\n%s", lb, res.NQuads)
	}
	if !strings.Contains(res.NQuads, "<<( _:"+res.Issued["only"]+" <http://example.org/p> \"z\" )>>") {
		t.Errorf("nested blank node not relabelled:\n%s", res.NQuads)
	}
	order, err := BlankOrder(d)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, b := range order {
		if b.Kind != rdf.BlankKind {
			t.Errorf("BlankOrder returned %v", b)
		}
		got[b.Value] = true
	}
	if len(order) != 4 || !got["r"] || !got["b"] || !got["c"] || !got["only"] {
		t.Errorf("BlankOrder = %v, want r, b, c and only", order)
	}
}
