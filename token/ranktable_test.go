package token

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"testing"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestRankTable checks the table of each embedded encoding against a plain
// map read from the same file, and a few keys that are not tokens.
func TestRankTable(t *testing.T) {
	for _, name := range []string{O200KBase, CL100KBase, "r50k_base"} {
		data, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int32{}
		for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			f := bytes.Fields(l)
			k, err := base64.StdEncoding.DecodeString(string(f[0]))
			if err != nil {
				t.Fatal(err)
			}
			r, err := strconv.Atoi(string(f[1]))
			if err != nil {
				t.Fatal(err)
			}
			want[string(k)] = int32(r)
		}
		got, err := parseTiktokenRanks(data)
		if err != nil {
			t.Fatal(err)
		}
		if got.len() != len(want) {
			t.Errorf("%s: %d keys, want %d", name, got.len(), len(want))
		}
		for k, r := range want {
			if g, ok := got.get(k); !ok || g != r {
				t.Fatalf("%s: get(%q) = %d, %v; want %d", name, k, g, ok, r)
			}
		}
		seen := 0
		for k, r := range got.all() {
			if want[k] != r {
				t.Fatalf("%s: all yields %q %d, want %d", name, k, r, want[k])
			}
			seen++
		}
		if seen != len(want) {
			t.Errorf("%s: all yields %d keys, want %d", name, seen, len(want))
		}
		for _, k := range []string{"", "\xff\xfe\xfd\xfc", "notatokenatallreally", string(make([]byte, 70000))} {
			if _, ok := want[k]; ok {
				continue
			}
			if r, ok := got.get(k); ok {
				t.Errorf("%s: get(%q) = %d, want no rank", name, k, r)
			}
		}
	}
	// A key given twice keeps its last rank, like a map.
	tb, err := newRankTable("abab", []rankEntry{{0, 2, 1}, {2, 2, 7}, {1, 1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := tb.get("ab"); !ok || r != 7 || tb.len() != 2 {
		t.Errorf("duplicate key: %d %v, %d keys", r, ok, tb.len())
	}
}
