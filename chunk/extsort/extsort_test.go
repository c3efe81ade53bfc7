package extsort

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type rec struct{ k, v string }

// oracle sorts records by key then value and drops repeats: what a
// Sorter must give.
func oracle(rs []rec) []rec {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b rec) int {
		if c := strings.Compare(a.k, b.k); c != 0 {
			return c
		}
		return strings.Compare(a.v, b.v)
	})
	return slices.Compact(out)
}

// randomRecords returns n records whose keys and values mix the bytes
// that matter to the key encoding (0x00, 0xFF), prefixes of one another,
// empty strings, and repeats.
func randomRecords(n int, seed uint64) []rec {
	r := rand.New(rand.NewPCG(seed, 1))
	alphabet := []byte{0, 0, 0xFF, 'a', 'b', 1}
	str := func(max int) string {
		b := make([]byte, r.IntN(max+1))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	var out []rec
	for len(out) < n {
		if len(out) > 0 && r.IntN(5) == 0 {
			out = append(out, out[r.IntN(len(out))]) // a repeat
			continue
		}
		out = append(out, rec{str(6), str(40)})
	}
	return out
}

func collect(t *testing.T, it *Iterator) []rec {
	t.Helper()
	var out []rec
	for it.Next() {
		out = append(out, rec{string(it.Key()), string(it.Value())})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func sortAll(t *testing.T, rs []rec, cfg Config, keep bool) *Sorted {
	t.Helper()
	s := New(cfg)
	for _, r := range rs {
		if err := s.Add([]byte(r.k), []byte(r.v)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.Finish(keep)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSortAgainstOracle sorts random records in memory, with one spill,
// and with many runs merged in several levels, and compares with the
// oracle; a second iteration gives the same records.
func TestSortAgainstOracle(t *testing.T) {
	rs := randomRecords(30_000, 1)
	want := oracle(rs)
	for _, tc := range []struct {
		name    string
		cfg     Config
		keep    bool
		inMem   bool
		minRuns int
	}{
		{"in memory", Config{Memory: 64 << 20}, true, true, 0},
		{"one buffer spilled", Config{Memory: 64 << 20}, false, false, 1},
		{"many runs", Config{Memory: 64 << 10}, true, false, 20},
		{"many runs, fan-in 3", Config{Memory: 64 << 10, FanIn: 3}, false, false, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.TmpDir = t.TempDir()
			sorted := sortAll(t, rs, tc.cfg, tc.keep)
			defer sorted.Close()
			st := sorted.Stats()
			if st.InMemory != tc.inMem || st.Runs < tc.minRuns || st.Records != int64(len(rs)) {
				t.Fatalf("stats %+v", st)
			}
			if tc.cfg.FanIn == 3 && len(sorted.runs) > 3 {
				t.Fatalf("%d runs left after merging", len(sorted.runs))
			}
			for range 2 {
				if got := collect(t, Merge(sorted)); !slices.Equal(got, want) {
					t.Fatalf("%d records, want %d; first differences: %v", len(got), len(want), firstDiff(got, want))
				}
			}
			// Run files are unlinked: the folder is empty while they are open.
			if left, _ := os.ReadDir(tc.cfg.TmpDir); len(left) != 0 {
				t.Fatalf("files left in the temporary folder: %v", left)
			}
		})
	}
}

func firstDiff(a, b []rec) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %q vs %q", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// TestMergeSets merges an in-memory set with a spilled one: records in
// both come once.
func TestMergeSets(t *testing.T) {
	a, b := randomRecords(5000, 2), randomRecords(5000, 3)
	b = append(b, a[:100]...)
	sa := sortAll(t, a, Config{Memory: 1 << 20}, true)
	sb := sortAll(t, b, Config{Memory: 64 << 10, TmpDir: t.TempDir()}, false)
	defer sa.Close()
	defer sb.Close()
	want := oracle(append(slices.Clone(a), b...))
	if got := collect(t, Merge(sa, sb)); !slices.Equal(got, want) {
		t.Fatalf("merge of two sets: %s", firstDiff(got, want))
	}
}

// TestKeyEncoding checks that encoded keys sort as (key, value) pairs
// and decode back, on the cases a plain concatenation gets wrong.
func TestKeyEncoding(t *testing.T) {
	pairs := []rec{{"a", "bd"}, {"ab", "c"}, {"a\x00", ""}, {"a", "\x00\xff"}, {"", "z"}, {"\x00\xff", "\x00"}, {"\x00", "\xff\xff"}}
	want := oracle(pairs)
	var enc [][]byte
	for _, p := range pairs {
		k := appendKey(nil, []byte(p.k))
		if got := string(appendDecodedKey(nil, k)); got != p.k {
			t.Errorf("key %q decodes to %q", p.k, got)
		}
		enc = append(enc, append(k, p.v...))
	}
	slices.SortFunc(enc, bytes.Compare)
	for i, e := range enc {
		k := appendKey(nil, []byte(want[i].k))
		if !bytes.Equal(e, append(k, want[i].v...)) {
			t.Errorf("position %d: %q, want %q", i, e, want[i])
		}
	}
}

// TestErrors checks a record larger than a buffer and an unusable
// temporary folder.
func TestErrors(t *testing.T) {
	s := New(Config{Memory: 64 << 10})
	if err := s.Add(make([]byte, 40<<10), nil); err == nil {
		t.Error("a record larger than a buffer was accepted")
	}
	s = New(Config{Memory: 64 << 10, TmpDir: filepath.Join(t.TempDir(), "missing")})
	var err error
	for i := 0; i < 10_000 && err == nil; i++ {
		err = s.Add([]byte(fmt.Sprint(i)), make([]byte, 100))
	}
	if err == nil {
		_, err = s.Finish(false)
	}
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing temporary folder: %v", err)
	}
}

// BenchmarkSort sorts 1,000,000 records of the shape the chunker makes
// (IRI keys with long shared prefixes, 60-byte values) through 8 runs.
func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, 1_000_000)
	vals := make([][]byte, len(keys))
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "Ihttp://example.org/synth/e%d", r.IntN(200_000))
		vals[i] = fmt.Appendf(nil, "\x01%060d", r.Int64())
	}
	b.SetBytes(int64(len(keys)) * 90)
	for b.Loop() {
		s := New(Config{Memory: 32 << 20, TmpDir: b.TempDir()})
		for i := range keys {
			if err := s.Add(keys[i], vals[i]); err != nil {
				b.Fatal(err)
			}
		}
		out, err := s.Finish(false)
		if err != nil {
			b.Fatal(err)
		}
		it := Merge(out)
		n := 0
		for it.Next() {
			n++
		}
		out.Close()
	}
}

// TestBufferWithinMemory checks that a buffer's capacity, not only its
// length, stays within half the memory (the other half is the buffer
// being spilled).
func TestBufferWithinMemory(t *testing.T) {
	const mem = 1 << 20
	s := New(Config{Memory: mem, TmpDir: t.TempDir()})
	for i, r := range randomRecords(50_000, 4) {
		if err := s.Add([]byte(r.k), []byte(r.v)); err != nil {
			t.Fatal(err)
		}
		if held := cap(s.cur.data) + cap(s.cur.idx)*entrySize; held > mem/2+4096 {
			t.Fatalf("after %d records the buffer holds %d bytes", i, held)
		}
	}
	out, err := s.Finish(false)
	if err != nil {
		t.Fatal(err)
	}
	out.Close()
}

// TestDiskLimit checks the bound on the bytes written to run files: a
// sort that writes s bytes passes with a limit of s, not of s-1, and two
// Sorters sharing a limit count together.
func TestDiskLimit(t *testing.T) {
	rs := randomRecords(30_000, 7)
	sort := func(l *DiskLimit) (*Sorted, error) {
		s := New(Config{Memory: 256 << 10, TmpDir: t.TempDir(), FanIn: 3, Disk: l})
		for _, r := range rs {
			if err := s.Add([]byte(r.k), []byte(r.v)); err != nil {
				return nil, err
			}
		}
		return s.Finish(false)
	}
	out, err := sort(nil)
	if err != nil {
		t.Fatal(err)
	}
	spilled := out.Stats().Spilled
	out.Close()
	if spilled < 1<<20 || out.Stats().Runs < 4 {
		t.Fatalf("spilled %d bytes in %d runs: too few for the test", spilled, out.Stats().Runs)
	}
	l := NewDiskLimit(spilled)
	out, err = sort(l)
	if err != nil {
		t.Fatalf("limit of exactly the %d bytes spilled: %v", spilled, err)
	}
	if got, want := collect(t, Merge(out)), oracle(rs); !slices.Equal(got, want) {
		t.Fatalf("with a limit: %s", firstDiff(got, want))
	}
	out.Close()
	if l.Used() != spilled {
		t.Errorf("used %d bytes, spilled %d", l.Used(), spilled)
	}
	for _, l := range []*DiskLimit{NewDiskLimit(spilled - 1), l} { // l: already used up
		if _, err := sort(l); !errors.Is(err, ErrDiskLimit) || !strings.Contains(err.Error(), fmt.Sprint(l.Max())) {
			t.Errorf("limit of %d bytes for %d bytes of runs: %v", l.Max(), spilled, err)
		}
	}
}
