package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/synth"
)

// TestOtherRecord checks otherRecord against chunk's Mapper: for every
// statement linking two nodes, each of the two records Map makes gives
// the other (with its key); a statement with a literal object, or a loop,
// gives none.
func TestOtherRecord(t *testing.T) {
	c, err := chunk.New(chunk.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := rdf.NewIRI("http://x/a"), rdf.NewIRI("http://x/b")
	bn := rdf.NewBlank("b1")
	p := rdf.NewIRI("http://x/p")
	typ := rdf.NewIRI(rdf.RDFType)
	label := rdf.NewIRI("http://www.w3.org/2000/01/rdf-schema#label")
	g := rdf.NewIRI("http://x/g")
	quads := []rdf.Quad{
		{S: a, P: p, O: b},
		{S: a, P: typ, O: b},
		{S: a, P: typ, O: bn},
		{S: bn, P: typ, O: a},
		{S: a, P: label, O: b}, // a label predicate, a node object: not a description
		{S: a, P: a, O: b},     // the predicate is the subject
		{S: a, P: b, O: b},     // the predicate is the object
		{S: a, P: p, O: b, G: a},
		{S: a, P: p, O: b, G: b},
		{S: bn, P: p, O: b, G: g},
		{S: a, P: p, O: bn},
		{S: typ, P: typ, O: a},
		{S: a, P: typ, O: typ},
		{S: a, P: p, O: rdf.NewLangString("x", "EN")},
		{S: a, P: p, O: rdf.NewLiteral("1", "http://www.w3.org/2001/XMLSchema#integer")},
		{S: a, P: p, O: a}, // a loop
	}
	m := c.NewMapper()
	for _, q := range quads {
		var recs [][2][]byte
		if err := m.Map(q, func(k, v []byte) error {
			recs = append(recs, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(recs) == 1 {
			if _, _, ok := otherRecord(nil, recs[0][0], recs[0][1]); ok {
				t.Errorf("%v: a record linking to no other node gave one", q)
			}
			continue
		}
		if len(recs) != 2 {
			t.Fatalf("%v: %d records", q, len(recs))
		}
		if recs[1][1][0] != tagIn || recs[0][1][0] > tagOwn || chunk.IsDescription(recs[0][1]) != (recs[0][1][0] == tagDesc) {
			t.Errorf("%v: tags %d and %d", q, recs[0][1][0], recs[1][1][0])
		}
		for i := range 2 {
			from, to := recs[i], recs[1-i]
			out, n, ok := otherRecord([]byte("junk"), from[0], from[1])
			if !ok || !bytes.Equal(out[:n], to[0]) || !bytes.Equal(out[n:], to[1]) {
				t.Errorf("%v: from %q %q got %q %q (%v), want %q %q", q, from[0], from[1], out[:n], out[n:], ok, to[0], to[1])
			}
		}
	}
}

// TestFarSelector checks the selector of the messages to a hub against
// msgFilter (Gather's selection of the far messages) on the same
// messages sorted: the same messages, offered in any order.
func TestFarSelector(t *testing.T) {
	hub := rdf.NewIRI("http://x/hub")
	key := []byte("I" + hub.Value)
	c, err := chunk.New(chunk.Options{Hops: 2, MaxStatements: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Messages of hop 2 to the hub: forwarded by its neighbours (not
	// hubs) in the last hop, from a graph where every node but the hub
	// links to it and to the next nodes.
	var nt strings.Builder
	for i := range 40 {
		fmt.Fprintf(&nt, "<http://x/n%d> <http://x/p> <http://x/hub> .\n", i)
		fmt.Fprintf(&nt, "<http://x/n%d> <http://x/q> <http://x/n%d> .\n", i, (i+1)%40)
		fmt.Fprintf(&nt, "<http://x/n%d> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x/C%d> .\n", i, i%5)
		fmt.Fprintf(&nt, "<http://x/n%d> <http://www.w3.org/2000/01/rdf-schema#label> \"n %d\" .\n", i, i%7)
		fmt.Fprintf(&nt, "<http://x/hub> <http://x/r> <http://x/n%d> .\n", i)
	}
	msgs := messagesTo(t, c, nt.String(), 2, key)
	if len(msgs) < 50 {
		t.Fatalf("only %d messages to the hub", len(msgs))
	}
	sorted := slices.Clone(msgs)
	slices.SortFunc(sorted, bytes.Compare)
	sorted = slices.CompactFunc(sorted, bytes.Equal)
	f := newMsgFilter(4, false, true)
	var want [][]byte
	for _, v := range sorted {
		if f.keep(v) {
			want = append(want, v)
		}
	}
	if len(want) != 4 {
		t.Fatalf("msgFilter keeps %d of %d messages, want 4", len(want), len(sorted))
	}
	for _, order := range []string{"sorted", "reversed", "shuffled"} {
		in := slices.Clone(sorted)
		switch order {
		case "reversed":
			slices.Reverse(in)
		case "shuffled":
			for i := range in {
				j := (i*7919 + 13) % len(in)
				in[i], in[j] = in[j], in[i]
			}
		}
		s := newFarSelector(4)
		for _, v := range in {
			if _, err := s.add(key, v); err != nil {
				t.Fatal(err)
			}
		}
		var got [][]byte
		b := newBatcher(1, func(_ int, data []byte) {
			eachRecord(data, func(k, v []byte) error {
				got = append(got, bytes.Clone(v))
				return nil
			})
		})
		if n := s.flush(b); n != len(want) {
			t.Errorf("%s: %d kept, want %d", order, n, len(want))
		}
		b.flush()
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Errorf("%s: kept %d messages, want the %d msgFilter keeps", order, len(got), len(want))
		}
	}
}

// messagesTo runs the steps of chunk up to hop `hop` on an N-Triples
// graph, in memory, and returns the messages that hop sends to key.
func messagesTo(t *testing.T, c *chunk.Chunker, nt string, hop int, key []byte) [][]byte {
	t.Helper()
	var recs [][2][]byte
	m := c.NewMapper()
	err := rdfio.ReadInto(strings.NewReader(nt), rdf.SinkFunc(func(q rdf.Quad) error {
		return m.Map(q, func(k, v []byte) error {
			recs = append(recs, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
			return nil
		})
	}), rdfio.Options{Format: rdfio.NTriples})
	if err != nil {
		t.Fatal(err)
	}
	var msgs [][2][]byte
	for j := 1; j <= hop; j++ {
		all := append(slices.Clone(recs), msgs...)
		slices.SortFunc(all, func(a, b [2][]byte) int {
			return cmp2(bytes.Compare(a[0], b[0]), bytes.Compare(a[1], b[1]))
		})
		all = slices.CompactFunc(all, func(a, b [2][]byte) bool { return bytes.Equal(a[0], b[0]) && bytes.Equal(a[1], b[1]) })
		msgs = nil
		for i := 0; i < len(all); {
			k := all[i][0]
			e := i
			for e < len(all) && bytes.Equal(all[e][0], k) {
				e++
			}
			vals := func(yield func([]byte) bool) {
				for _, r := range all[i:e] {
					if !yield(r[1]) {
						return
					}
				}
			}
			if err := c.Round(j, k, vals, func(k, v []byte) error {
				msgs = append(msgs, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			i = e
		}
	}
	var out [][]byte
	for _, r := range msgs {
		if bytes.Equal(r[0], key) {
			out = append(out, r[1])
		}
	}
	return out
}

func cmp2(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// hubGraph writes an N-Triples graph where many nodes are hubs for small
// bounds: spokes with a type and a label each link to a few hubs and to
// other spokes; the hubs have many statements of their own (links to
// spokes and to other hubs), some spokes are blank nodes.
func hubGraph(spokes int) string {
	var b strings.Builder
	node := func(i int) string {
		if i%9 == 4 {
			return fmt.Sprintf("_:s%d", i)
		}
		return fmt.Sprintf("<http://x/s%d>", i)
	}
	hub := func(i int) string { return fmt.Sprintf("<http://x/hub%d>", i) }
	for i := range spokes {
		s := node(i)
		fmt.Fprintf(&b, "%s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x/Class%d> .\n", s, i%3)
		fmt.Fprintf(&b, "%s <http://www.w3.org/2000/01/rdf-schema#label> \"spoke %d\"@en .\n", s, i)
		fmt.Fprintf(&b, "%s <http://x/p> %s .\n", s, hub(i%5))
		fmt.Fprintf(&b, "%s <http://x/q> %s .\n", s, hub((i*3+1)%5))
		fmt.Fprintf(&b, "%s <http://x/r> %s .\n", s, node((i+7)%spokes))
		if i%4 == 0 {
			fmt.Fprintf(&b, "%s <http://x/owns> %s .\n", hub(i%5), s)
		}
	}
	for i := range 5 {
		fmt.Fprintf(&b, "%s <http://www.w3.org/2000/01/rdf-schema#label> \"hub %d\"@en .\n", hub(i), i)
		fmt.Fprintf(&b, "%s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x/Hub> .\n", hub(i))
		fmt.Fprintf(&b, "%s <http://x/next> %s .\n", hub(i), hub((i+1)%5))
	}
	return b.String()
}

// farGraph writes an N-Triples graph where what a hub keeps of its
// messages is forwarded from two links away: the hub's bounds hold only
// links from other hubs (without a description, so they send it
// nothing), and many spokes beyond the bounds, not hubs, forward the
// descriptions of their other neighbours to it.
func farGraph(spokes int) string {
	var b strings.Builder
	b.WriteString("<http://x/hub> <http://x/p> \"the hub\" .\n")
	for j := range 6 {
		for k := range 8 {
			fmt.Fprintf(&b, "<http://x/a%d> <http://x/v> \"%d\" .\n", j, k)
		}
		fmt.Fprintf(&b, "<http://x/a%d> <http://x/to> <http://x/hub> .\n", j)
	}
	for i := range spokes {
		fmt.Fprintf(&b, "<http://x/s%d> <http://x/to> <http://x/hub> .\n", i)
		fmt.Fprintf(&b, "<http://x/s%d> <http://x/q> <http://x/t%d> .\n", i, i)
		fmt.Fprintf(&b, "<http://x/t%d> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x/C%d> .\n", i, i%3)
		fmt.Fprintf(&b, "<http://x/t%d> <http://www.w3.org/2000/01/rdf-schema#label> \"t %d\" .\n", i, i)
	}
	return b.String()
}

// runPipeline runs the pipeline on Prism over the files of glob and
// returns its output lines, sorted, and its metrics.
func runPipeline(t *testing.T, glob, out string, shards int, cfg config) ([]string, metrics.QueryResults) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.Inputs, cfg.Output, cfg.Shards = []string{glob}, out, shards
	p, err := build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := prism.Execute(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range shards {
		data, err := os.ReadFile(shardName(out, i, shards))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.SplitAfter(string(data), "\n")...)
		got = got[:len(got)-1] // after the last LF
	}
	slices.Sort(got)
	return got, res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == metricsNS })
}

// hubMetrics returns the largest number of messages a hub received and
// the messages sent to hubs and kept of them, summed over the hops.
func hubMetrics(q metrics.QueryResults) (maxToHub, sent, kept int64) {
	for _, d := range q.Distributions() {
		if d.Name() == "messages-to-a-hub" {
			maxToHub = max(maxToHub, d.Result().Max)
		}
	}
	for _, c := range q.Counters() {
		switch c.Name() {
		case "messages-to-hubs-sent":
			sent += c.Result()
		case "messages-to-hubs-kept":
			kept += c.Result()
		}
	}
	return maxToHub, sent, kept
}

// TestHubsBounded runs graphs where many nodes are hubs (small bounds)
// with and without the hubs' pass: the output equals isolda chunk's either
// way, and with the pass a hub receives at most what the bounds let
// through: with one hop the descriptions of its 2 cap neighbours within
// its bounds; with two hops their packages (2 cap statements each) and
// cap forwarded statements from each bucket.
func TestHubsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Prism runner")
	}
	dir := t.TempDir()
	graphs := map[string]string{"hubs": hubGraph(240), "far": farGraph(150)}
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Triples: 1500, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	graphs["synth"] = syn.String()
	for _, tc := range []struct {
		graph  string
		hops   int
		cap    int
		shards int
	}{
		{"hubs", 1, 3, 1},
		{"hubs", 1, 3, 3},
		{"hubs", 2, 3, 2},
		{"hubs", 2, 5, 4},
		{"hubs", 3, 2, 2},
		{"far", 1, 4, 2},
		{"far", 2, 4, 1},
		{"far", 2, 4, 3},
		{"far", 3, 4, 2},
		{"synth", 1, 2, 3},
		{"synth", 2, 4, 2},
	} {
		name := fmt.Sprintf("%s, %d hops, cap %d, %d shards", tc.graph, tc.hops, tc.cap, tc.shards)
		t.Run(name, func(t *testing.T) {
			gdir := filepath.Join(dir, strings.ReplaceAll(name, " ", ""))
			if err := os.MkdirAll(gdir, 0o755); err != nil {
				t.Fatal(err)
			}
			text := graphs[tc.graph]
			lines := strings.SplitAfter(text, "\n")
			half := len(lines) / 2
			for i, part := range [][]string{lines[:half], lines[half:]} {
				if err := os.WriteFile(filepath.Join(gdir, fmt.Sprintf("g%d.nt", i)), []byte(strings.Join(part, "")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := chunk.Options{Format: "ntriples", Hops: tc.hops, MaxStatements: tc.cap, Budget: 0}
			want := singleMachine(t, []byte(text), opts)
			glob := filepath.Join(gdir, "g*.nt")
			cfg := config{Opts: opts, SplitBytes: 3 << 10}
			got, q := runPipeline(t, glob, filepath.Join(gdir, "bounded", "c"), tc.shards, cfg)
			if !slices.Equal(got, want) {
				t.Fatalf("bounded: %d lines, want %d; first difference: %s", len(got), len(want), firstDiff(got, want))
			}
			maxTo, sent, kept := hubMetrics(q)
			cfg.NoHubBounds = true
			got, q = runPipeline(t, glob, filepath.Join(gdir, "unbounded", "c"), tc.shards, cfg)
			if !slices.Equal(got, want) {
				t.Fatalf("unbounded: %d lines, want %d; first difference: %s", len(got), len(want), firstDiff(got, want))
			}
			maxBefore, _, _ := hubMetrics(q)
			t.Logf("%d documents equal; messages to the busiest hub: %d without the hubs' pass, %d with it; to hubs: %d sent, %d kept",
				len(got), maxBefore, maxTo, sent, kept)
			c := int64(tc.cap)
			bound := 2 * c * 3 // the descriptions (a type, a label, less the hub's type) of 2 cap neighbours
			if tc.hops > 1 {
				bound = 2*c*2*c + int64(tc.hops-1)*int64(tc.shards)*c
			}
			if maxTo > bound {
				t.Errorf("a hub received %d messages, more than the bounds let through (%d)", maxTo, bound)
			}
			if tc.graph != "synth" && maxBefore < 2*maxTo {
				t.Errorf("without the pass the busiest hub received %d messages, with it %d: not bounded", maxBefore, maxTo)
			}
			if kept >= sent {
				t.Errorf("%d messages sent to hubs, %d kept", sent, kept)
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("line %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
	return "one is a prefix of the other"
}
