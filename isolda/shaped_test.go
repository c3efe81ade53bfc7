package isolda

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
)

// genShaped builds a random dataset with the shapes that exercise the
// table decisions of every version: classes with several rows, columns
// shared by every row (constants), entities referenced once (nested
// columns and nested tables, IRI and blank), nested entities whose
// properties differ row to row, typed entities with no property (empty
// rows), named graphs of one shape (nanopublications), blank nodes shared
// across graphs, and hostile literals. genGraph (property_test.go) covers
// the hostile terms; this one covers the structure.
func genShaped(r *rand.Rand) *rdf.Dataset {
	d := rdf.NewDataset()
	typ := rdf.NewIRI(rdf.RDFType)
	cls := func() rdf.Term { return rdf.NewIRI(classes[r.IntN(len(classes))]) }
	lit := func() rdf.Term {
		s := nasty[r.IntN(len(nasty))]
		switch r.IntN(5) {
		case 0:
			return rdf.NewLangString(s, langs[r.IntN(len(langs))])
		case 1:
			return rdf.NewLiteral(strconv.Itoa(r.IntN(4)), datatypes[r.IntN(3)])
		case 2:
			return rdf.NewString("v" + strconv.Itoa(r.IntN(3))) // repeats: constants
		}
		return rdf.NewString(s)
	}
	pred := func(n int) rdf.Term { return rdf.NewIRI(preds[r.IntN(n)]) }
	nGraphs := 0
	if r.IntN(2) == 0 {
		nGraphs = 1 + r.IntN(5)
	}
	graph := func(i int) rdf.Term {
		if nGraphs == 0 {
			return rdf.Term{}
		}
		switch i % (nGraphs + 1) {
		case 0:
			return rdf.Term{}
		case 1:
			if r.IntN(3) == 0 {
				return rdf.NewBlank("graph" + strconv.Itoa(i%3))
			}
		}
		return rdf.NewIRI(exNS + "np/" + strconv.Itoa(i%(nGraphs+1)) + "#g")
	}
	shared := rdf.NewBlank("shared")
	fresh := 0
	newNode := func(blank bool, prefix string) rdf.Term {
		fresh++
		if blank {
			return rdf.NewBlank(prefix + strconv.Itoa(fresh))
		}
		return rdf.NewIRI(exNS + prefix + "/" + strconv.Itoa(fresh))
	}
	units := 1 + r.IntN(6)
	for u := 0; u < units; u++ {
		g := graph(u)
		rows := 1 + r.IntN(5)
		c := cls()
		constant := lit()
		blankRows := r.IntN(3) == 0
		for i := 0; i < rows; i++ {
			s := newNode(blankRows && r.IntN(2) == 0, "e")
			d.Add(rdf.Quad{S: s, P: typ, O: c, G: g})
			if r.IntN(3) > 0 {
				d.Add(rdf.Quad{S: s, P: rdf.NewIRI(sdo + "name"), O: rdf.NewString("name " + strconv.Itoa(i%3)), G: g})
			}
			if r.IntN(4) > 0 {
				d.Add(rdf.Quad{S: s, P: rdf.NewIRI(exNS + "const"), O: constant, G: g})
			}
			for k := r.IntN(3); k > 0; k-- {
				d.Add(rdf.Quad{S: s, P: pred(len(preds)), O: lit(), G: g})
			}
			// Entities referenced once: one or several under one
			// predicate, of one class or two, with properties that
			// differ from row to row, or none at all.
			if r.IntN(2) == 0 {
				np := pred(len(preds))
				nc := cls()
				for j := 1 + r.IntN(4); j > 0; j-- {
					o := newNode(r.IntN(2) == 0, "n")
					d.Add(rdf.Quad{S: s, P: np, O: o, G: g})
					if r.IntN(4) > 0 {
						oc := nc
						if r.IntN(4) == 0 {
							oc = cls()
						}
						d.Add(rdf.Quad{S: o, P: typ, O: oc, G: g})
					}
					for k := r.IntN(4); k > 0; k-- {
						d.Add(rdf.Quad{S: o, P: pred(len(preds)), O: lit(), G: g})
					}
					if r.IntN(4) == 0 {
						// Nested two deep.
						o2 := newNode(r.IntN(2) == 0, "m")
						d.Add(rdf.Quad{S: o, P: pred(len(preds)), O: o2, G: g})
						if r.IntN(2) == 0 {
							d.Add(rdf.Quad{S: o2, P: typ, O: nc, G: g})
						}
						if r.IntN(2) == 0 {
							d.Add(rdf.Quad{S: o2, P: pred(5), O: lit(), G: g})
						}
					}
				}
			}
			if r.IntN(5) == 0 {
				d.Add(rdf.Quad{S: s, P: rdf.NewIRI(exNS + "shared"), O: shared, G: g})
			}
			if r.IntN(6) == 0 && i > 0 {
				d.Add(rdf.Quad{S: s, P: rdf.NewIRI(exNS + "prev"), O: newNode(false, "e"), G: g})
			}
		}
		if r.IntN(4) == 0 {
			// A typed entity with no other property: an empty row.
			d.Add(rdf.Quad{S: newNode(r.IntN(2) == 0, "empty"), P: typ, O: cls(), G: g})
		}
		if nGraphs > 0 && g.Kind != 0 && r.IntN(2) == 0 {
			// A nanopublication head: the graph described in the default
			// graph or in a graph of its own.
			d.Add(rdf.Quad{S: g, P: rdf.NewIRI(exNS + "hasAssertion"), O: newNode(false, "a"), G: graph(u + 1)})
		}
	}
	if r.IntN(3) == 0 {
		d.Add(rdf.Quad{S: shared, P: rdf.NewIRI(sdo + "name"), O: lit(), G: graph(1)})
		d.Add(rdf.Quad{S: shared, P: typ, O: cls(), G: graph(2)})
	}
	return d
}

// optionVariants are the option combinations the shaped test runs for
// every version: the defaults, each switch alone, and mixes.
func optionVariants(r *rand.Rand) []Options {
	vs := []Options{
		{},
		{IDs: IDsSlug},
		{NoConstants: true},
		{NoTypes: true},
		{Glossary: GlossaryLegend},
		{Glossary: GlossaryNone},
		{Layout: LayoutBlocks},
		{Layout: LayoutHybrid, Theta: 0.5},
		{Continuation: true},
		{InlineBlanks: true},
		{InverseIndex: true},
		{IRIIDs: true},
		{DatatypePrefixes: true},
		{NoPreferredLanguage: true, NoRowLabelIDs: true, NoTermAliases: true, NoVocabPrefix: true},
	}
	// Two random mixes per dataset.
	for range 2 {
		o := Options{
			NoConstants:      r.IntN(2) == 0,
			Continuation:     r.IntN(2) == 0,
			InlineBlanks:     r.IntN(2) == 0,
			IRIIDs:           r.IntN(2) == 0,
			InverseIndex:     r.IntN(3) == 0,
			DatatypePrefixes: r.IntN(2) == 0,
		}
		if r.IntN(2) == 0 {
			o.IDs = IDsSlug
		}
		switch r.IntN(3) {
		case 1:
			o.Layout = LayoutBlocks
		case 2:
			o.Layout, o.Theta = LayoutHybrid, float64(r.IntN(5))/4
		}
		vs = append(vs, o)
	}
	return vs
}

// TestShapedRoundTrip encodes random datasets with nested entities, constant
// columns, empty rows, named graphs and shared blank nodes under every
// version and option combination, and requires an isomorphic round trip and
// the same bytes for a shuffled, relabelled copy. A panic is a failure that
// names the seed and the options.
func TestShapedRoundTrip(t *testing.T) {
	n := 250
	if testing.Short() {
		n = 60
	}
	fails, runs := 0, 0
	kinds := map[string]int{}
	report := func(seed int, o Options, d *rdf.Dataset, msg, text string) {
		fails++
		kind, _, _ := strings.Cut(msg, ":")
		kinds[kind]++
		if fails > 3 {
			return
		}
		var nq strings.Builder
		for _, q := range d.Sorted() {
			nq.WriteString(q.String() + "\n")
		}
		t.Errorf("seed %d options %+v: %s\ninput:\n%s\noutput:\n%s", seed, o, msg, nq.String(), text)
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 2024))
		d := genShaped(r)
		for _, base := range optionVariants(r) {
			for _, v := range versions {
				o := base
				o.Version = v
				runs++
				text, iso, panicked, err := safeRoundTrip(t, d, o)
				switch {
				case panicked != nil:
					report(seed, o, d, fmt.Sprintf("panic: %v", panicked), "")
					continue
				case err != nil || !iso:
					report(seed, o, d, fmt.Sprintf("err=%v iso=%v", err, iso), text)
					continue
				}
				if again := encodeString(t, shuffled(d, uint64(seed)+7), o); again != text {
					report(seed, o, d, "not deterministic", text+"\n---\n"+again)
				}
			}
		}
	}
	t.Logf("shaped graphs: %d datasets, %d (dataset, version, options) round trips, %d failures %v", n, runs, fails, kinds)
}

// safeRoundTrip is roundTrip with a recovered panic.
func safeRoundTrip(t testing.TB, d *rdf.Dataset, o Options) (text string, iso bool, panicked any, err error) {
	defer func() { panicked = recover() }()
	text, err, iso = roundTrip(t, d, o)
	return
}

// FuzzEncode04 reads arbitrary N-Quads and requires every option of the
// default version (0.4) to encode them without a panic and to decode to an
// isomorphic dataset. The seeds are shaped graphs (genShaped) and the
// nanopublications of testdata/corpus written as N-Quads.
func FuzzEncode04(f *testing.F) {
	for seed := 0; seed < 40; seed++ {
		var b strings.Builder
		for _, q := range genShaped(rand.New(rand.NewPCG(uint64(seed), 99))).Sorted() {
			b.WriteString(q.String() + "\n")
		}
		f.Add(b.String(), uint8(seed))
	}
	f.Add("<http://e/a> <http://e/p> _:x <http://e/g> .\n_:x <http://e/q> \"v\" <http://e/g> .\n_:x <http://e/q> \"v\" .\n", uint8(3))
	f.Fuzz(func(t *testing.T, nq string, pick uint8) {
		d := rdf.NewDataset()
		if err := ntriples.Parse(strings.NewReader(nq), ntriples.NQuads, d, rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 1 << 16, MaxQuads: 1 << 10}}); err != nil {
			return
		}
		vs := optionVariants(rand.New(rand.NewPCG(uint64(pick), 1)))
		o := vs[int(pick)%len(vs)]
		for _, base := range []Options{{}, o} {
			text, iso, panicked, err := safeRoundTrip(t, d, base)
			if panicked != nil {
				t.Fatalf("options %+v: panic: %v", base, panicked)
			}
			if err != nil {
				return // e.g. a term that is not valid RDF in its position
			}
			if !iso {
				t.Fatalf("options %+v: round trip not isomorphic:\n%s", base, text)
			}
		}
	})
}
