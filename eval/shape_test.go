package eval

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/eval/internal/evaltest"
	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

// testGraphs are the embedded example graphs and the tests' demo graph.
func testGraphs(t *testing.T) map[string]*rdf.Dataset {
	t.Helper()
	out := map[string]*rdf.Dataset{}
	for _, n := range examples.Names() {
		b, err := examples.Read(n)
		if err != nil {
			t.Fatal(err)
		}
		d, err := rdfio.Read(bytes.NewReader(b), rdfio.Options{Format: rdfio.Turtle, ReadOptions: rdf.ReadOptions{Base: "http://example.org/" + n}})
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[n] = d
	}
	d := rdftest.Read(t, evaltest.DemoTTL, rdfio.Options{Format: rdfio.Turtle})
	out["people"] = d
	d = rdftest.Read(t, namedTriG, rdfio.Options{Format: rdfio.TriG})
	out["named.trig"] = d
	return out
}

// namedTriG has named graphs and blank nodes.
const namedTriG = `@prefix ex: <http://example.org/> .
ex:a a ex:T ; ex:name "A" ; ex:link ex:b .
ex:b a ex:T ; ex:name "B" .
ex:g1 { ex:a ex:p ex:c . ex:c a ex:U ; ex:name "C" ; ex:q [ ex:name "anon" ] . ex:d a ex:U ; ex:name "D" . }
ex:g2 { ex:b ex:p ex:a . ex:e a ex:T ; ex:name "E" . ex:f a ex:T ; ex:name "F" ; ex:link ex:e . }
`

func sortedGraphNames(m map[string]*rdf.Dataset) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func decodeAs(t *testing.T, format, text string) (*rdf.Dataset, error) {
	t.Helper()
	f, ok := formats.Get(format)
	if !ok || f.Decode == nil {
		t.Fatalf("format %s has no decoder", format)
	}
	return f.Decode(strings.NewReader(text))
}

func isomorphic(t *testing.T, a, b *rdf.Dataset) bool {
	t.Helper()
	ok, err := canon.Isomorphic(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

// TestShuffleOrdering: the same seed gives the same bytes, another seed
// another order of the same lines, and every shuffled text decodes to the
// graph (checked by the format's decoder and rdf/canon's isomorphism).
func TestShuffleOrdering(t *testing.T) {
	graphs := testGraphs(t)
	for _, gn := range sortedGraphNames(graphs) {
		d := graphs[gn]
		for _, fn := range orderable {
			if fn == "ntriples" && len(d.Graphs()) > 1 {
				continue
			}
			arm := Arm{Format: fn}
			in := formats.NewInput(d)
			canonical, err := renderOrdered(arm, Ordering{Kind: OrderCanonical}, in, d, "")
			if err != nil {
				t.Fatalf("%s %s: %v", gn, fn, err)
			}
			s1, err := renderOrdered(arm, Ordering{Kind: OrderShuffle, Seed: 1}, in, d, "")
			if err != nil {
				t.Fatal(err)
			}
			s1b, _ := renderOrdered(arm, Ordering{Kind: OrderShuffle, Seed: 1}, in, d, "")
			s2, _ := renderOrdered(arm, Ordering{Kind: OrderShuffle, Seed: 2}, in, d, "")
			if s1 != s1b {
				t.Errorf("%s %s: seed 1 gave two texts", gn, fn)
			}
			if s1 == s2 || s1 == canonical {
				t.Errorf("%s %s: seeds 1 and 2 (or canonical) give the same text", gn, fn)
			}
			if !slices.Equal(sortedLines(s1), sortedLines(canonical)) || !slices.Equal(sortedLines(s2), sortedLines(canonical)) {
				t.Errorf("%s %s: a shuffle changed the lines, not only their order", gn, fn)
			}
			for seed, s := range map[int]string{1: s1, 2: s2} {
				dec, err := decodeAs(t, fn, s)
				if err != nil {
					t.Errorf("%s %s seed %d: shuffled text does not decode: %v\n%s", gn, fn, seed, err, s)
					continue
				}
				if !isomorphic(t, dec, d) {
					t.Errorf("%s %s seed %d: shuffled text decodes to another graph", gn, fn, seed)
				}
			}
		}
	}
}

// TestBFSOrdering: a BFS rendering starts from the anchor and keeps the
// graph.
func TestBFSOrdering(t *testing.T) {
	d := testGraphs(t)["demo.ttl"]
	const anchor = "https://example.org/notes"
	in := formats.NewInput(d)
	for _, fn := range orderable {
		arm := Arm{Format: fn}
		canonical, _ := renderOrdered(arm, Ordering{Kind: OrderCanonical}, in, d, "")
		text, err := renderOrdered(arm, Ordering{Kind: OrderBFS}, in, d, anchor)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		if text == canonical {
			t.Errorf("%s: bfs from %s gives the canonical text", fn, anchor)
		}
		dec, err := decodeAs(t, fn, text)
		if err != nil || !isomorphic(t, dec, d) {
			t.Errorf("%s: bfs text does not decode to the graph: %v", fn, err)
		}
		if isISOLDA(fn) {
			if !strings.Contains(text, "# The document starts from the entity ") || !strings.Contains(text[:strings.Index(text, "Person[")], ":notes") {
				t.Errorf("%s: no anchor line:\n%s", fn, text)
			}
			continue
		}
		// The first statements touch the anchor; every statement that
		// touches it comes before every one that does not.
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		seenOther := false
		for _, l := range lines {
			touches := strings.Contains(l, "<"+anchor+">")
			if touches && seenOther {
				t.Errorf("%s: statement of the anchor after others: %s", fn, l)
			}
			seenOther = seenOther || !touches
		}
		if !strings.Contains(lines[0], "<"+anchor+">") {
			t.Errorf("%s: first statement %s", fn, lines[0])
		}
	}
}

// TestRecordBudget: a budgeted text fits the budget under the tokenizer,
// keeps whole records of the full text and decodes to a part of the graph.
func TestRecordBudget(t *testing.T) {
	tok := testgraph.O200k(t)
	graphs := testGraphs(t)
	pass, total := 0, 0
	for _, gn := range []string{"demo.ttl", "lod-datagovuk-reference-intervals.ttl", "people"} {
		d := graphs[gn]
		in := formats.NewInput(d)
		for _, fn := range []string{"isolda", "isolda-0.1", "isolda-0.3", "ntriples", "nquads", "turtle", "b-ttl", "jsonld"} {
			full, err := formats.EncodeString(fn, in)
			if err != nil {
				t.Fatal(err)
			}
			n := tok.Count(full)
			// The lines no budget drops: all but the indented ones of
			// ISOLDA; none of the other formats.
			fixed := 0
			if isISOLDA(fn) {
				var b strings.Builder
				for _, l := range strings.SplitAfter(full, "\n") {
					if !strings.HasPrefix(l, "  ") {
						b.WriteString(l)
					}
				}
				fixed = tok.Count(b.String())
			}
			for _, frac := range []float64{0.7, 0.9, 1.2} {
				total++
				budget := fixed + int(float64(n-fixed)*frac)
				c, err := applyBudget(full, fn, d, &Budget{Tokens: budget}, tok)
				if err != nil {
					t.Errorf("%s %s budget %d: %v", gn, fn, budget, err)
					continue
				}
				ok := true
				if got := tok.Count(c.text); got > budget || got != c.tokens {
					t.Errorf("%s %s: %d tokens (reported %d) for a budget of %d", gn, fn, got, c.tokens, budget)
					ok = false
				}
				if frac > 1 && c.text != full {
					t.Errorf("%s %s: a budget above the size changed the text", gn, fn)
					ok = false
				}
				if frac < 1 && (c.kept >= c.records || c.kept == 0) {
					t.Errorf("%s %s budget %d: kept %d of %d records", gn, fn, budget, c.kept, c.records)
					ok = false
				}
				dec, err := decodeAs(t, fn, c.text)
				if err != nil {
					t.Errorf("%s %s budget %d: cut text does not decode: %v\n%s", gn, fn, budget, err, c.text)
					continue
				}
				if frac > 1 && !isomorphic(t, dec, d) {
					t.Errorf("%s %s: the whole text decodes to another graph", gn, fn)
					ok = false
				}
				for _, q := range dec.Quads() {
					// Blank nodes are renamed: statements with one are
					// checked by the isomorphism above only.
					blank := q.S.Kind == rdf.BlankKind || q.O.Kind == rdf.BlankKind || q.G.Kind == rdf.BlankKind
					if !blank && !d.Has(q) {
						t.Errorf("%s %s budget %d: decoded statement not in the graph: %v", gn, fn, budget, q)
						ok = false
						break
					}
				}
				if fn == "ntriples" || fn == "nquads" || isISOLDA(fn) {
					// Whole records: every record line is a line of the
					// full text.
					fullLines := map[string]bool{}
					for _, l := range strings.Split(full, "\n") {
						fullLines[l] = true
					}
					for _, l := range strings.Split(c.text, "\n") {
						if (strings.HasPrefix(l, "  ") || fn == "ntriples" || fn == "nquads") && !fullLines[l] {
							t.Errorf("%s %s: line %q is not a line of the full text", gn, fn, l)
							ok = false
						}
					}
				}
				if ok {
					pass++
				}
			}
		}
	}
	t.Logf("record budgets: %d/%d cuts fit, keep whole records and decode", pass, total)
}

// TestRawBudget: a raw cut is the longest prefix within the budget.
func TestRawBudget(t *testing.T) {
	tok := testgraph.O200k(t)
	d := testGraphs(t)["wikidata-L691820-lexeme.ttl"]
	full, err := formats.EncodeString("turtle", formats.NewInput(d))
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{1, 10, 100, 300} {
		c, err := applyBudget(full, "turtle", d, &Budget{Tokens: budget, Policy: PolicyRaw}, tok)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(full, c.text) || tok.Count(c.text) > budget {
			t.Fatalf("budget %d: not a prefix within the budget (%d tokens)", budget, tok.Count(c.text))
		}
		// One more character does not fit.
		_, size := utf8.DecodeRuneInString(full[len(c.text):])
		if next := full[:len(c.text)+size]; tok.Count(next) <= budget {
			t.Errorf("budget %d: the prefix one character longer fits too", budget)
		}
	}
}

// TestBudgetTooSmall: a budget below the fixed part of a document is an
// error, not a broken context.
func TestBudgetTooSmall(t *testing.T) {
	tok := testgraph.O200k(t)
	d := testGraphs(t)["demo.ttl"]
	full, _ := formats.EncodeString("isolda", formats.NewInput(d))
	if _, err := applyBudget(full, "isolda", d, &Budget{Tokens: 20}, tok); err == nil || !strings.Contains(err.Error(), "smaller than") {
		t.Fatalf("err = %v", err)
	}
}

// TestBudgetOrderingExperiment prepares an experiment whose arms have
// budgets and orderings and checks its contexts (runner's
// TestBudgetOrderingRun runs it).
func TestBudgetOrderingExperiment(t *testing.T) {
	dir := t.TempDir()
	path := evaltest.WriteShapedExp(t, dir)
	e, err := LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	p := prepare(t, e, dir)
	p2 := prepare(t, e, dir)
	if p.Manifest.RunID != p2.Manifest.RunID {
		t.Fatal("two preparations differ")
	}
	tok := testgraph.O200k(t)
	anchors := map[string]bool{}
	for i := range p.Entries {
		anchors[p.anchors[i]] = true
	}
	// Questions about the blank node (London) have no anchor: they get
	// the canonical order.
	if len(anchors) < 3 {
		t.Fatalf("anchors %v", anchors)
	}
	count := map[string]int{}
	for _, c := range p.Contexts {
		count[c.Arm]++
		switch c.Arm {
		case "iso", "iso-bfs":
			if c.Budget != 0 || c.Tokenizer != "" {
				t.Errorf("%s: budget %d", c.Arm, c.Budget)
			}
		case "nt-shuf", "ttl":
			if c.Budget != 300 || c.Policy != PolicyRecord || c.Tokenizer != "o200k_base" || tok.Count(c.Text) > 300 || c.Tokens != tok.Count(c.Text) {
				t.Errorf("%s: budget %d policy %s tokens %d/%d", c.Arm, c.Budget, c.Policy, c.Tokens, tok.Count(c.Text))
			}
		case "nt-bfs":
			if c.Budget != 250 || c.Policy != PolicyRaw || tok.Count(c.Text) > 250 {
				t.Errorf("%s: budget %d policy %s", c.Arm, c.Budget, c.Policy)
			}
		}
		wantOrder := map[string]string{"iso": OrderCanonical, "iso-bfs": OrderBFS, "nt-shuf": OrderShuffle, "nt-bfs": OrderBFS, "ttl": OrderCanonical}[c.Arm]
		if c.Anchor == "" && wantOrder == OrderBFS {
			wantOrder = OrderCanonical
		}
		if c.OrderingName() != wantOrder {
			t.Errorf("%s: ordering %s", c.Arm, c.OrderingName())
		}
	}
	if count["iso-bfs"] != len(anchors) || count["nt-bfs"] != len(anchors) || count["iso"] != 1 || count["nt-shuf"] != 1 {
		t.Fatalf("contexts per arm %v, anchors %d", count, len(anchors))
	}
	if want := len(p.Entries) * 5; p.Manifest.Calls != want {
		t.Fatalf("calls %d, want %d", p.Manifest.Calls, want)
	}
	for i := range p.Entries {
		for _, c := range p.ContextsFor(i, e.Models[0]) {
			if c.Ordering == OrderBFS && c.Anchor != p.anchors[i] {
				t.Errorf("entry %s gets the context of anchor %s", p.Entries[i].Key, c.Anchor)
			}
		}
	}

}

// TestValidateShaping: budgets and orderings eval cannot honour are
// reported at their line and column.
func TestValidateShaping(t *testing.T) {
	head := "name: x\ngraphs: [{file: a.ttl}]\nmodels: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\n"
	cases := []struct {
		yaml      string
		line, col int
		msg       string
	}{
		{head + "arms:\n  - format: turtle\n    ordering: {kind: shuffle, seed: 1}\n", 7, 22, "needs a format whose records can be reordered"},
		{head + "arms:\n  - format: jsonl\n    ordering: {kind: interleaved}\n", 7, 22, "not for RDF graphs"},
		{head + "arms:\n  - format: ntriples\n    ordering: {kind: relevant_first}\n", 7, 22, "not for RDF graphs"},
		{head + "arms:\n  - format: ntriples\n    ordering: {kind: sideways}\n", 7, 22, "unknown ordering"},
		{head + "arms:\n  - format: ntriples\n    ordering: {kind: bfs, seed: 4}\n", 7, 33, "seed is only for ordering shuffle"},
		{head + "arms: [{format: turtle}]\nordering: {kind: bfs}\n", 6, 18, "needs a format whose records can be reordered"},
		{head + "arms:\n  - format: turtle\n    budget: {tokens: 100, tokenizer: o200k_base, policy: middle}\n", 7, 58, "budget policy must be"},
		{head + "arms:\n  - format: turtle\n    budget: {tokens: -5, tokenizer: o200k_base}\n", 7, 22, "budget tokens must be"},
		{head + "arms: [{format: turtle}]\nbudget: {tokens: 100}\n", 6, 9, "model m has none"},
	}
	for i, c := range cases {
		_, err := ParseExperiment([]byte(c.yaml), "exp.yaml")
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("case %d: %T %v", i, err, err)
			continue
		}
		perrtest.At(t, ve.Problems[0], "exp.yaml", c.line, c.col, c.msg, "case %d", i)
	}
	ok := head + "arms:\n  - format: isolda\n    ordering: {kind: bfs}\n  - format: nquads\n    ordering: {kind: shuffle, seed: 9}\n    budget: {tokens: 100, tokenizer: o200k_base, policy: raw}\nbudget: {tokens: 0}\n"
	if _, err := ParseExperiment([]byte(ok), "exp.yaml"); err != nil {
		t.Errorf("valid experiment refused: %v", err)
	}
}

// FuzzShapeText: splitting any text into records, shuffling them and
// keeping a prefix never panics, a shuffle keeps every line, and a prefix
// of all records is the text itself.
func FuzzShapeText(f *testing.F) {
	f.Add("@vocab http://x/\n\nT[2]{name}:\n  a\n  b\n    p> a\n\n~extra:\n  a:\n    q: 1\n", uint64(1), true)
	f.Add("<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"x\" .\n", uint64(2), false)
	f.Add("<x>[3]{a}:\n  1\n\n@graph <g>\nT[1]:\n   \n  z\n", uint64(0), true)
	f.Fuzz(func(t *testing.T, text string, seed uint64, iso bool) {
		format := "ntriples"
		if iso {
			format = "isolda"
		}
		d := splitDoc(text, format)
		if d.String() != text {
			t.Fatalf("split and join changed the text")
		}
		n := len(d.records())
		if d.Prefix(n) != text {
			t.Fatalf("the prefix of every record is not the text")
		}
		_ = d.Prefix(n / 2)
		d.shuffle(seed)
		if got := d.String(); !slices.Equal(sortedLines(got), sortedLines(text)) && strings.HasSuffix(text, "\n") {
			t.Fatalf("shuffle changed the lines:\n%q\n%q", text, got)
		}
		if len(d.records()) != n {
			t.Fatalf("shuffle changed the number of records")
		}
	})
}

// TestYAMLTagRefused: a tag (on which go-yaml v1.19.2 can panic, found by
// FuzzParseExperiment) is an error at its position.
func TestYAMLTagRefused(t *testing.T) {
	_, err := ParseExperiment([]byte("graphs:\n- 0\narms:\n  ! 0\n"), "exp.yaml")
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "tags") {
		t.Fatalf("err = %v", err)
	}
}

// TestRecordBudgetInlineBlanks: with inline entities (which count in their
// class's [N] wherever they stand), every record cut of an ISOLDA context
// still decodes, checked by the ISOLDA decoder.
func TestRecordBudgetInlineBlanks(t *testing.T) {
	tok := testgraph.O200k(t)
	pass, total := 0, 0
	for gn, d := range testGraphs(t) {
		in := formats.NewInput(d)
		for _, v := range []string{"isolda", "isolda-0.3"} {
			text, err := render(Arm{Format: v, Options: &IsoldaOptions{InlineBnodes: true}}, in, d, "")
			if err != nil {
				t.Fatal(err)
			}
			n, head := tok.Count(text), tok.Count(splitDoc(text, v).Prefix(0))
			for _, frac := range []float64{0.2, 0.5, 0.8} {
				total++
				budget := head + int(float64(n-head)*frac)
				c, err := applyBudget(text, v, d, &Budget{Tokens: budget}, tok)
				if err != nil {
					t.Errorf("%s %s budget %d: %v", gn, v, budget, err)
					continue
				}
				if c.kept >= c.records || c.tokens > budget {
					t.Errorf("%s %s budget %d: kept %d of %d records", gn, v, budget, c.kept, c.records)
				}
				if _, err := decodeAs(t, v, c.text); err != nil {
					t.Errorf("%s %s budget %d: the cut does not decode: %v", gn, v, budget, err)
					continue
				}
				pass++
			}
		}
	}
	t.Logf("inline-entity record budgets: %d/%d cuts decode", pass, total)
}
