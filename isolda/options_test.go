package isolda

import (
	"fmt"
	mathbits "math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// allOptions returns every combination of the encoder's options (the
// hybrid layout with one threshold), except that the glossary mode, which
// only changes the head of the document, cycles with the other options.
func allOptions() []Options {
	var out []Options
	layouts := []struct {
		name  string
		theta float64
	}{{LayoutTable, 0}, {LayoutBlocks, 0}, {LayoutHybrid, 0.6}}
	glossaries := []string{GlossaryFull, GlossaryLegend, GlossaryNone}
	for _, v := range versions {
		for _, ids := range []string{IDsLabel, IDsSlug} {
			for li, lay := range layouts {
				for bits := 0; bits < 1<<9; bits++ {
					out = append(out, Options{
						Version: v, IDs: ids, Glossary: glossaries[(bits+li)%3], Layout: lay.name, Theta: lay.theta,
						NoConstants: bits&1 != 0, NoTypes: bits&2 != 0, InverseIndex: bits&4 != 0,
						NoPreferredLanguage: bits&8 != 0, NoRowLabelIDs: bits&16 != 0,
						NoTermAliases: bits&32 != 0, NoVocabPrefix: bits&64 != 0, Continuation: bits&128 != 0,
						InlineBlanks: bits&256 != 0,
						// The 0.3 options (on in 0.3 itself) vary with the
						// others without growing the matrix.
						IRIIDs: mathbits.OnesCount(uint(bits))%2 == 1, DatatypePrefixes: bits%5 == 0,
					})
				}
			}
		}
	}
	return out
}

// checkVariant requires an isomorphic round trip and identical bytes on a
// second encoding of a shuffled copy.
func checkVariant(t *testing.T, name string, d *rdf.Dataset, o Options) bool {
	res, err := Check(d, o)
	if err != nil || !res.Isomorphic {
		t.Errorf("%s %+v: round trip failed: %v\n%+v", name, o, err, res)
		return false
	}
	text := encodeString(t, d, o)
	if again := encodeString(t, shuffled(d, 9), o); again != text {
		t.Errorf("%s %+v: not deterministic", name, o)
		return false
	}
	return true
}

// TestOptionMatrix encodes the SPEC.md example graphs under every
// combination of options, the real example graphs under each option alone,
// and random hostile graphs under random combinations.
func TestOptionMatrix(t *testing.T) {
	src, err := os.ReadFile(specPath(t))
	if err != nil {
		t.Fatal(err)
	}
	all := allOptions()
	runs, pass := 0, 0
	seen := map[string]bool{}
	for i, ex := range specExamples(t, string(src)) {
		if seen[ex.input] || (testing.Short() && i%4 != 0) {
			continue
		}
		seen[ex.input] = true
		d := readTurtle(t, ex.input, "http://example.org/base/")
		// Every combination on the graphs with blank nodes, duplicate labels
		// and named graphs; every 7th on the others.
		stride := 7
		switch ex.name {
		case "blank", "dup", "graphs", "opt-inline":
			stride = 1
		}
		for i, o := range all {
			if i%stride != 0 {
				continue
			}
			runs++
			if checkVariant(t, "SPEC example "+ex.name, d, o) {
				pass++
			}
		}
	}
	single := []Options{
		{IDs: IDsSlug}, {NoConstants: true}, {NoTypes: true}, {Glossary: GlossaryLegend}, {Glossary: GlossaryNone},
		{InverseIndex: true}, {Layout: LayoutBlocks}, {Layout: LayoutHybrid, Theta: 0.5}, {Continuation: true},
		{InlineBlanks: true}, {InlineBlanks: true, Layout: LayoutBlocks},
		{NoPreferredLanguage: true}, {NoRowLabelIDs: true}, {NoTermAliases: true}, {NoVocabPrefix: true},
	}
	for _, name := range []string{"wikidata-L691820-lexeme.ttl", "lod-datagovuk-reference-intervals.ttl"} {
		path := filepath.Join("..", "examples", name) // the repository's copy of ../shared/data/examples/name
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := readTurtle(t, string(text), "http://example.org/base/")
		for _, v := range versions {
			for _, o := range single {
				o.Version = v
				runs++
				if checkVariant(t, name, d, o) {
					pass++
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	n := 1500
	if testing.Short() {
		n = 200
	}
	for seed := 0; seed < n; seed++ {
		d := genGraph(rand.New(rand.NewPCG(uint64(seed), 99)), seed%2 == 0)
		o := all[r.IntN(len(all))]
		if qs := d.Sorted(); seed%3 == 0 && len(qs) > 0 && qs[0].S.IsIRI() {
			o.Anchor, o.Hops = qs[0].S.Value, seed%4
		}
		runs++
		if checkVariant(t, fmt.Sprintf("hostile seed %d", seed), d, o) {
			pass++
		}
	}
	msg := fmt.Sprintf("option matrix: %d combinations, %d round trips, pass %d, fail %d", len(all), runs, pass, runs-pass)
	t.Log(msg)
}

// TestOptionsRejected checks that unknown option values are errors.
func TestOptionsRejected(t *testing.T) {
	for _, o := range []Options{{Version: "0.9"}, {IDs: "uuid"}, {Glossary: "short"}, {Layout: "grid"}, {Theta: 2}} {
		if err := Encode(&strings.Builder{}, rdf.NewDataset(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestAnchor encodes graphs from each of their entities, uncropped and
// cropped to 1 and 2 hops: the anchor's row comes first, the round trip is
// isomorphic to the crop, and the crop holds exactly the quads whose subject
// is within the hops (computed here independently).
func TestAnchor(t *testing.T) {
	src, err := os.ReadFile(specPath(t))
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, ex := range specExamples(t, string(src)) {
		if ex.opts != (Options{Version: ex.version}) {
			continue
		}
		d := readTurtle(t, ex.input, "http://example.org/base/")
		subjects := map[rdf.Term]bool{}
		for _, q := range d.Quads() {
			if q.S.IsIRI() {
				subjects[q.S] = true
			}
		}
		for s := range subjects {
			for _, hops := range []int{0, 1, 2} {
				o := Options{Version: ex.version, Anchor: s.Value, Hops: hops}
				runs++
				res, err := Check(d, o)
				if err != nil || !res.Isomorphic {
					t.Errorf("%s anchor %s hops %d: %v %+v", ex.name, s.Value, hops, err, res)
					continue
				}
				text := encodeString(t, d, o)
				if again := encodeString(t, shuffled(d, 4), o); again != text {
					t.Errorf("%s anchor %s hops %d: not deterministic", ex.name, s.Value, hops)
				}
				if !strings.Contains(text, "# The document starts from the entity ") {
					t.Errorf("%s anchor %s: the glossary does not name the anchor", ex.name, s.Value)
				}
				// The first row after the first table header is the anchor's
				// (in a dataset with one graph).
				lines := strings.Split(text, "\n")
				for i, l := range lines {
					if len(d.Graphs()) > 1 {
						break
					}
					if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "@") {
						if !strings.Contains(lines[i+1], s.Value[strings.LastIndexAny(s.Value, "/#")+1:]) {
							t.Errorf("%s anchor %s: first row is %q", ex.name, s.Value, lines[i+1])
						}
						break
					}
				}
				if hops > 0 {
					c, _ := Crop(d, o)
					want := withinHops(d, s, hops)
					n := 0
					for _, q := range d.Quads() {
						if want[q.S] {
							n++
							if !c.Has(q) {
								t.Errorf("%s anchor %s hops %d: crop lacks %v", ex.name, s.Value, hops, q)
							}
						}
					}
					if n != c.Len() {
						t.Errorf("%s anchor %s hops %d: crop has %d quads, want %d", ex.name, s.Value, hops, c.Len(), n)
					}
				}
			}
		}
	}
	msg := fmt.Sprintf("anchor mode: %d documents checked", runs)
	t.Log(msg)
}

// withinHops returns the nodes at most k links from a, following links
// (objects that are blank nodes or subjects, except rdf:type to an IRI) in
// both directions.
func withinHops(d *rdf.Dataset, a rdf.Term, k int) map[rdf.Term]bool {
	subj := map[rdf.Term]bool{}
	for _, q := range d.Quads() {
		subj[q.S] = true
	}
	seen := map[rdf.Term]bool{a: true}
	frontier := []rdf.Term{a}
	for step := 0; step < k; step++ {
		var next []rdf.Term
		for _, q := range d.Quads() {
			if !(q.O.IsBlank() || subj[q.O]) || (q.P.Value == rdf.RDFType && q.O.IsIRI()) {
				continue
			}
			for _, f := range frontier {
				for _, pair := range [][2]rdf.Term{{q.S, q.O}, {q.O, q.S}} {
					if pair[0] == f && !seen[pair[1]] {
						seen[pair[1]] = true
						next = append(next, pair[1])
					}
				}
			}
		}
		frontier = next
	}
	return seen
}
