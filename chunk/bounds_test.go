package chunk

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// hubGraph returns a random graph where hubs (IRIs and blank nodes with
// many statements and many links to them) link to most nodes: IRI and
// blank nodes, with types, labels in several languages and literals; some
// IRIs are only objects (no entity).
func hubGraph(seed uint64, nodes, hubs, stmts int) *rdf.Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	d := rdf.NewDataset()
	node := func() rdf.Term {
		switch i := r.IntN(nodes); {
		case i%7 == 0:
			return rdf.NewBlank(fmt.Sprintf("b%d", i))
		case i%11 == 0:
			return rdf.NewIRI(fmt.Sprintf("http://ex.org/objectOnly%d", i))
		default:
			return rdf.NewIRI(fmt.Sprintf("http://ex.org/n%d", i))
		}
	}
	hub := func() rdf.Term {
		i := r.IntN(hubs)
		if i == 0 {
			return rdf.NewBlank("hub0")
		}
		return rdf.NewIRI(fmt.Sprintf("http://ex.org/hub%d", i))
	}
	subject := func(t rdf.Term) rdf.Term {
		if strings.Contains(t.Value, "objectOnly") {
			return rdf.NewIRI("http://ex.org/n1")
		}
		return t
	}
	preds := []string{"http://ex.org/p", "http://ex.org/q", "http://ex.org/r"}
	langs := []string{"en", "fr", "", "de"}
	for range stmts {
		var s, o rdf.Term
		switch k := r.IntN(10); {
		case k < 3:
			s, o = node(), hub()
		case k < 5:
			s, o = hub(), node()
		case k < 6:
			s, o = hub(), hub()
		default:
			s, o = node(), node()
		}
		s = subject(s)
		p := rdf.NewIRI(preds[r.IntN(len(preds))])
		switch r.IntN(8) {
		case 0:
			p = rdf.NewIRI(rdf.RDFType)
			o = rdf.NewIRI(fmt.Sprintf("http://ex.org/Class%d", r.IntN(4)))
		case 1:
			p = rdf.NewIRI("http://www.w3.org/2000/01/rdf-schema#label")
			o = rdf.NewLangString(fmt.Sprintf("label %d", r.IntN(50)), langs[r.IntN(len(langs))])
			if o.Lang == "" {
				o = rdf.NewString(o.Value)
			}
		case 2:
			o = rdf.NewString(fmt.Sprintf("value %d", r.IntN(100)))
		}
		d.Add(rdf.Quad{S: s, P: p, O: o})
	}
	return d
}

// TestBoundsExact checks that the bounds of Round and Gather (the last
// hop sends nothing to blank nodes, at most MaxStatements statements
// about others from one sender to one target, Gather stops at
// MaxStatements messages, Round does not decode what it will not forward)
// change nothing in the documents, on hub-heavy random graphs, with 1 to
// 3 hops: the output is byte-equal to the unbounded run, while the last
// hop sends fewer messages, none to a blank node, and at most the bound
// from one sender to one target.
func TestBoundsExact(t *testing.T) {
	for _, tc := range []struct {
		seed               uint64
		nodes, hubs, stmts int
		cap, hops          int
		classes            []string
	}{
		{1, 60, 3, 1500, 8, 2, nil},
		{2, 200, 4, 3000, 12, 2, nil},
		{3, 300, 2, 1500, 6, 3, nil},
		{4, 100, 3, 2000, 10, 1, nil},
		{7, 400, 2, 2500, 25, 3, nil},
		{8, 150, 2, 1200, 20, 3, nil},
		{9, 100, 2, 1500, 20, 3, nil},
		{5, 80, 3, 1500, 1000, 2, nil},
		{6, 200, 3, 1500, 12, 2, []string{"http://ex.org/Class1"}},
	} {
		name := fmt.Sprintf("seed%d-cap%d-hops%d", tc.seed, tc.cap, tc.hops)
		d := hubGraph(tc.seed, tc.nodes, tc.hubs, tc.stmts)
		opts := Options{Format: "ntriples", Hops: tc.hops, MaxStatements: tc.cap, Classes: tc.classes, Budget: 0}
		run := func(unbounded, openAll bool, memory int64) ([]byte, map[int]int, map[string]int) {
			c, err := New(opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.unbounded, c.openAll = unbounded, openAll
			perHop := map[int]int{}
			// Last hop: messages not about the target, per sender and
			// target; payload sizes per sender, target and origin.
			pair := map[string]int{}
			c.trace = func(j int, sender, key, val []byte) {
				perHop[j]++
				if j != tc.hops || tc.hops == 1 {
					return
				}
				if !unbounded && key[0] == kBlank {
					t.Errorf("%s: last hop: a message to the blank node %q", name, key)
				}
				target, _ := keyTerm(key)
				r, err := decodeValue(val, target)
				if err != nil {
					t.Fatal(err)
				}
				if r.q.S != target && r.q.O != target {
					pair[string(sender)+"\x00"+string(key)]++
				}
			}
			var out bytes.Buffer
			if _, err := c.Run(readDataset(d, tc.seed), &out, RunOptions{Memory: memory}); err != nil {
				t.Fatal(err)
			}
			return out.Bytes(), perHop, pair
		}
		want, allHops, allPairs := run(true, false, 1<<20)
		// Without the set of closed targets (Run's), then with it, whole
		// and cut short by the memory (Memory/8 for its keys).
		got, hops, pairs := run(false, true, 1<<20)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the bounded run differs from the unbounded one:\n%s\n---\n%s", name, got, want)
		}
		closedOut, closedHops, _ := run(false, false, 1<<20)
		if !bytes.Equal(closedOut, want) {
			t.Fatalf("%s: the run with closed targets differs from the unbounded one:\n%s\n---\n%s", name, closedOut, want)
		}
		smallOut, smallHops, _ := run(false, false, 4<<10)
		if !bytes.Equal(smallOut, want) {
			t.Fatalf("%s: the run with few closed targets differs from the unbounded one:\n%s\n---\n%s", name, smallOut, want)
		}
		if last := tc.hops; last > 1 && !(closedHops[last] <= smallHops[last] && smallHops[last] <= hops[last]) {
			t.Errorf("%s: last hop: %d messages with all closed targets, %d with some, %d without", name, closedHops[last], smallHops[last], hops[last])
		}
		if len(parseChunks(t, got)) < 10 {
			t.Fatalf("%s: %d documents", name, len(parseChunks(t, got)))
		}
		maxPair, allMax := 0, 0
		for k, n := range pairs {
			maxPair = max(maxPair, n)
			allMax = max(allMax, allPairs[k])
		}
		for _, n := range allPairs {
			allMax = max(allMax, n)
		}
		// A payload (an origin's description: types and labels, or a
		// blank node's statements) past the bound is sent whole.
		if tc.hops > 1 && maxPair > tc.cap+40 {
			t.Errorf("%s: last hop: %d messages not about the target from one sender to one target (bound %d)", name, maxPair, tc.cap)
		}
		for j := 1; j < tc.hops; j++ {
			if hops[j] != allHops[j] || closedHops[j] > allHops[j] || j < tc.hops-1 && closedHops[j] != allHops[j] {
				t.Errorf("%s: hop %d (not the last): %d messages unbounded, %d bounded, %d with closed targets", name, j, allHops[j], hops[j], closedHops[j])
			}
		}
		if tc.hops > 1 && hops[tc.hops] >= allHops[tc.hops] {
			t.Errorf("%s: last hop: %d messages bounded, %d unbounded", name, hops[tc.hops], allHops[tc.hops])
		}
		t.Logf("%s: %d documents; messages per hop %v unbounded, %v bounded, %v and %v with all and some closed targets; last hop, most from a sender to a target %d bounded, %d unbounded",
			name, len(parseChunks(t, got)), allHops, hops, closedHops, smallHops, maxPair, allMax)
	}
}

// TestMaxSpill checks RunOptions.MaxSpill: a run that spills within it
// writes the same documents as without, one that would spill more fails
// with an error that wraps rdf.ErrLimit and names the limit.
func TestMaxSpill(t *testing.T) {
	d := hubGraph(9, 300, 4, 3000)
	opts := Options{Hops: 2, MaxStatements: 20}
	c, err := New(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ro := RunOptions{Memory: 256 << 10, TmpDir: t.TempDir()}
	var want bytes.Buffer
	st, err := c.Run(readDataset(d, 0), &want, ro)
	if err != nil {
		t.Fatal(err)
	}
	if st.Spilled < 100<<10 {
		t.Fatalf("spilled %d bytes: too few for the test", st.Spilled)
	}
	ro.MaxSpill = st.Spilled
	var got bytes.Buffer
	if _, err := c.Run(readDataset(d, 0), &got, ro); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("a limit of exactly the %d bytes spilled: %v (output equal: %v)", st.Spilled, err, bytes.Equal(got.Bytes(), want.Bytes()))
	}
	for _, limit := range []int64{st.Spilled - 1, st.Spilled / 2, 1} {
		ro.MaxSpill = limit
		_, err := c.Run(readDataset(d, 0), &bytes.Buffer{}, ro)
		if !errors.Is(err, rdf.ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d bytes", limit)) {
			t.Errorf("limit %d of %d bytes spilled: %v", limit, st.Spilled, err)
		}
	}
	t.Logf("spilled %d bytes in %d runs; the limits below it fail", st.Spilled, st.Runs)
}

// TestBoundsDescriptionOnly checks, on two graphs made for it, what the
// hop before the last sends to a node whose Gather reads nothing (here a
// blank node x): only what the last Round reads of each origin, its
// description, but every origin still (the last Round forwards at most
// MaxStatements origins: a6 stays beyond), and the whole package of an
// origin with more than MaxStatements statements (the last Round reads
// the first ones only: o's label stays beyond).
func TestBoundsDescriptionOnly(t *testing.T) {
	const label = "<http://www.w3.org/2000/01/rdf-schema#label>"
	var forwarded strings.Builder
	forwarded.WriteString("_:x <http://ex.org/q> \"v\" .\n<http://ex.org/e> <http://ex.org/p> _:x .\n")
	forwarded.WriteString("_:x <http://ex.org/p> <http://ex.org/a1> .\n_:x <http://ex.org/p> <http://ex.org/a2> .\n")
	for i := 3; i <= 6; i++ {
		fmt.Fprintf(&forwarded, "<http://ex.org/a%d> <http://ex.org/p> _:x .\n", i)
	}
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&forwarded, "<http://ex.org/a%d> <http://ex.org/q> \"no description\" .\n", i)
	}
	fmt.Fprintf(&forwarded, "<http://ex.org/a6> %s \"A6\" .\n", label)
	var cut strings.Builder
	cut.WriteString("_:x <http://ex.org/q> \"v\" .\n<http://ex.org/e> <http://ex.org/p> _:x .\n")
	fmt.Fprintf(&cut, "<http://ex.org/oooooooo> <http://ex.org/p> _:x .\n<http://ex.org/oooooooo> %s \"O\" .\n", label)
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&cut, "<http://ex.org/y%d> <http://ex.org/r> <http://ex.org/oooooooo> .\n", i)
	}
	for _, g := range []struct{ name, nt, beyond string }{{"forwarded", forwarded.String(), "A6"}, {"cut", cut.String(), `"O"`}} {
		d := readNT(t, g.nt)
		opts := Options{Format: "ntriples", Hops: 2, MaxStatements: 6, Budget: 0}
		var outs [2][]byte
		for i, unbounded := range []bool{true, false} {
			c, err := New(opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.unbounded = unbounded
			var out bytes.Buffer
			if _, err := c.Run(readDataset(d, 0), &out, RunOptions{}); err != nil {
				t.Fatal(err)
			}
			outs[i] = out.Bytes()
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: bounded run:\n%s\nunbounded:\n%s", g.name, outs[1], outs[0])
		}
		for _, ch := range parseChunks(t, outs[1]) {
			if ch.Entity == "http://ex.org/e" && (strings.Contains(ch.Text, g.beyond) || !strings.Contains(ch.Text, `"v"`)) {
				t.Errorf("%s: the document of e:\n%s", g.name, ch.Text)
			}
		}
	}
}

func readNT(t *testing.T, nt string) *rdf.Dataset {
	t.Helper()
	d, err := rdfio.Read(strings.NewReader(nt), rdfio.Options{Format: rdfio.NTriples})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
